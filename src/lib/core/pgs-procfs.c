/* pgs-procfs.c
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "pgs-error.h"
#include "pgs-procfs.h"

void
pgs_set_error_from_errno (GError     **error,
                          int          errsv,
                          const char  *format,
                          ...)
{
  g_autofree char *what = NULL;
  va_list args;
  int code;

  if (error == NULL)
    return;

  va_start (args, format);
  what = g_strdup_vprintf (format, args);
  va_end (args);

  switch (errsv)
    {
    case EACCES:
    case EPERM:
      code = PGS_ERROR_NO_PERMISSION;
      break;
    case ENOENT:
    case ESRCH:
      code = PGS_ERROR_PROCESS_GONE;
      break;
    default:
      code = PGS_ERROR_FAILED;
      break;
    }

  g_set_error (error, PGS_ERROR, code, "%s: %s", what, g_strerror (errsv));
}

int
pgs_close (int fd)
{
  int errsv = errno;
  int ret = 0;

  if (fd >= 0)
    ret = close (fd);
  errno = errsv;
  return ret;
}

int
pgs_open_at (int          dirfd,
             const char  *name,
             int          flags,
             GError     **error)
{
  int fd;

  do
    fd = openat (dirfd, name, flags | O_CLOEXEC);
  while (fd < 0 && errno == EINTR);

  if (fd < 0)
    pgs_set_error_from_errno (error, errno, "%s", name);
  return fd;
}

int
pgs_open_pid_dir (const char  *root,
                  int          pid,
                  GError     **error)
{
  char path[PATH_MAX];
  int fd;

  g_snprintf (path, sizeof path, "%s/%d", root, pid);
  fd = open (path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0)
    pgs_set_error_from_errno (error, errno, "%s", path);
  return fd;
}

static char *
read_fd (int          fd,
         const char  *name,
         gboolean     one_record,
         gsize       *len,
         GError     **error)
{
  g_autofree char *buf = NULL;
  gsize cap = 4096;
  gsize used = 0;

  buf = g_malloc (cap);
  for (;;)
    {
      gssize n;

      if (cap - used < 1024)
        {
          cap *= 2;
          buf = g_realloc (buf, cap);
        }

      n = read (fd, buf + used, cap - used - 1);
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          pgs_set_error_from_errno (error, errno, "%s", name);
          return NULL;
        }
      if (n == 0)
        break;
      used += n;
      if (one_record && used < cap - 1)
        break;
    }

  buf[used] = '\0';
  if (len != NULL)
    *len = used;
  return g_steal_pointer (&buf);
}

static char *
read_at (int          dirfd,
         const char  *name,
         gboolean     one_record,
         gsize       *len,
         GError     **error)
{
  g_auto(PgsFd) fd = -1;

  fd = pgs_open_at (dirfd, name, O_RDONLY, error);
  if (fd < 0)
    return NULL;
  return read_fd (fd, name, one_record, len, error);
}

/* The same for an open fd (read from where it stands); NAME is for messages. */
char *
pgs_read_fd (int          fd,
             const char  *name,
             gsize       *len,
             GError     **error)
{
  return read_fd (fd, name, FALSE, len, error);
}

/* For a procfs file the kernel writes whole at the first read: those of single_open()
 * (status, stat, statm, smaps_rollup) and cmdline, whose read goes on to the count asked
 * or the end. A read that leaves room in the buffer had it all, so the read that would
 * return 0 is not made: one system call fewer per file, and memrank reads three per
 * process. Not for maps, smaps or anything read a page of records at a time, where a
 * short read is no end; nor a pipe. */
char *
pgs_read_record_fd (int          fd,
                    const char  *name,
                    gsize       *len,
                    GError     **error)
{
  return read_fd (fd, name, TRUE, len, error);
}

char *
pgs_read_record_at (int          dirfd,
                    const char  *name,
                    gsize       *len,
                    GError     **error)
{
  return read_at (dirfd, name, TRUE, len, error);
}

/* Reads a whole file whose size stat() cannot tell (procfs reports 0). The buffer is
 * NUL-terminated so text parsers may treat it as a string. */
char *
pgs_read_file_at (int          dirfd,
                  const char  *name,
                  gsize       *len,
                  GError     **error)
{
  return read_at (dirfd, name, FALSE, len, error);
}

/* Returns the number of bytes read, short only at end of file, or -1 with errno set. */
gssize
pgs_pread_full (int      fd,
                void    *buf,
                gsize    len,
                guint64  offset)
{
  gsize done = 0;

  while (done < len)
    {
      gssize n = pread (fd, (char *) buf + done, len - done, (off_t) (offset + done));

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        return -1;
      if (n == 0)
        break;
      done += n;
    }

  return done;
}

gboolean
pgs_is_pid_name (const char *name,
                 int        *pid)
{
  guint64 value = 0;
  const char *p;

  if (name == NULL || *name == '\0')
    return FALSE;
  for (p = name; *p; p++)
    {
      if (!g_ascii_isdigit (*p))
        return FALSE;
      value = value * 10 + (*p - '0');
      if (value > G_MAXINT)
        return FALSE;
    }
  if (value == 0)
    return FALSE;
  if (pid != NULL)
    *pid = (int) value;
  return TRUE;
}
