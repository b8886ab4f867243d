/* pgs-scan-identity.c: who a process is (user name, command line, cgroup) and
 * whether the name filter keeps it
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <fcntl.h>
#include <pwd.h>
#include <string.h>
#include <unistd.h>

#include "pgs-cgroup.h"
#include "pgs-parse.h"
#include "pgs-procfs.h"
#include "pgs-scan-job.h"

const char *
_pgs_scan_lookup_user (ScanJob *job,
                       guint    uid)
{
  char *name = g_hash_table_lookup (job->users, GUINT_TO_POINTER (uid));

  if (name == NULL)
    {
      struct passwd pwd, *result = NULL;
      char buf[1024];

      if (getpwuid_r (uid, &pwd, buf, sizeof buf, &result) == 0 && result != NULL)
        name = g_strdup (result->pw_name);
      else
        name = g_strdup_printf ("%u", uid);
      g_hash_table_insert (job->users, GUINT_TO_POINTER (uid), name);
    }

  return name;
}

char *
_pgs_scan_read_cmdline (int dirfd)
{
  gsize len = 0;
  g_autofree char *buf = pgs_read_record_at (dirfd, "cmdline", &len, NULL);

  return buf != NULL ? pgs_cmdline_parse (buf, len) : g_strdup ("");
}

char *
_pgs_scan_read_cgroup (int dirfd)
{
  gsize len = 0;
  g_autofree char *buf = pgs_read_record_at (dirfd, "cgroup", &len, NULL);

  return buf != NULL ? pgs_cgroup_parse (buf, len) : NULL;
}

gboolean
_pgs_scan_name_matches (ScanJob    *job,
                        const char *name)
{
  for (guint i = 0; job->names[i] != NULL; i++)
    if (strstr (name, job->names[i]) != NULL)
      return TRUE;
  return FALSE;
}

/* Whether a process may pass the name filter, from its comm alone: one small read, where
 * status would make the kernel gather a page of figures. comm is the raw name that status
 * shows escaped: a name with a backslash or a newline in it is left to the status test. */
gboolean
_pgs_scan_comm_may_match (ScanJob *job,
                          int      pid)
{
  char path[32], comm[64];
  ssize_t len;
  int fd;

  g_snprintf (path, sizeof path, "%d/comm", pid);
  fd = openat (job->root_fd, path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return TRUE;
  len = read (fd, comm, sizeof comm - 1);
  close (fd);
  if (len <= 0)
    return TRUE;
  if (comm[len - 1] == '\n')
    len--;
  comm[len] = '\0';
  if (memchr (comm, '\\', len) != NULL || memchr (comm, '\n', len) != NULL ||
      strlen (comm) != (gsize) len)
    return TRUE;
  return _pgs_scan_name_matches (job, comm);
}
