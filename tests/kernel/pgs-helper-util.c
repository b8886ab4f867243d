/* pgs-helper-util.c: starting pagescope-helper the ways the helper tests need
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define _GNU_SOURCE

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/wait.h>

#include "pgs-helper-util.h"
#include "pgs-kernel-util.h"

int
pgs_test_helper_start (const PgsTestHelper *how,
                       pid_t               *pid)
{
  g_autofree char *uid_env = NULL;
  g_autofree char *pkcheck_env = NULL;
  char *envp[3] = { NULL, NULL, NULL };
  int sv[2], n_env = 0;

  /* SO_PEERCRED records the effective uid of whoever made the pair. */
  g_assert_no_errno (setresuid (-1, how->socket_uid, -1));
  g_assert_no_errno (socketpair (AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv));
  g_assert_no_errno (setresuid (-1, 0, -1));

  if (how->pkexec_uid != NULL)
    envp[n_env++] = uid_env = g_strdup_printf ("PKEXEC_UID=%s", how->pkexec_uid);
  if (how->pkcheck != NULL)
    envp[n_env++] = pkcheck_env = g_strdup_printf ("PGS_HELPER_TEST_PKCHECK=%s", how->pkcheck);

  *pid = fork ();
  g_assert_cmpint (*pid, >=, 0);
  if (*pid == 0)
    {
      if (dup2 (sv[1], 0) != 0)
        _exit (126);
      execve (how->helper, (char *[]) { (char *) how->helper, NULL }, envp);
      _exit (127);
    }
  close (sv[1]);
  return sv[0];
}

char *
pgs_test_helper_greeting (int sock)
{
  static char reply[256];
  ssize_t n = recv (sock, reply, sizeof reply - 1, 0);

  g_assert_cmpint (n, >=, 0);
  reply[n] = '\0';
  return reply;
}

char *
pgs_test_helper_request (int         sock,
                         const void *request,
                         gsize       len,
                         int        *fd_out)
{
  char control[CMSG_SPACE (sizeof (int))];
  static char reply[256];
  struct iovec iov = { (void *) request, len };
  struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };
  struct cmsghdr *cmsg;
  ssize_t n;

  g_assert_cmpint (sendmsg (sock, &msg, MSG_NOSIGNAL), ==, (ssize_t) len);
  iov.iov_base = reply;
  iov.iov_len = sizeof reply - 1;
  msg.msg_control = control;
  msg.msg_controllen = sizeof control;
  n = recvmsg (sock, &msg, MSG_CMSG_CLOEXEC);
  g_assert_cmpint (n, >, 0);
  reply[n] = '\0';
  *fd_out = -1;
  for (cmsg = CMSG_FIRSTHDR (&msg); cmsg != NULL; cmsg = CMSG_NXTHDR (&msg, cmsg))
    if (cmsg->cmsg_type == SCM_RIGHTS)
      memcpy (fd_out, CMSG_DATA (cmsg), sizeof (int));
  return reply;
}

int
pgs_test_wait_exit (pid_t pid)
{
  for (int i = 0; i < 500; i++)
    {
      int status;

      if (waitpid (pid, &status, WNOHANG) == pid)
        return status;
      g_usleep (10000);
    }
  return -1;
}

pid_t
pgs_test_start_idle (uid_t uid)
{
  char line[8] = "";
  int out[2];
  pid_t pid;

  g_assert_no_errno (pipe (out));
  pid = fork ();
  g_assert_cmpint (pid, >=, 0);
  if (pid == 0)
    {
      close (out[0]);
      if (uid != 0 && (setgroups (0, NULL) != 0 || setresgid (uid, uid, uid) != 0 ||
                       setresuid (uid, uid, uid) != 0))
        _exit (126);
      if (write (out[1], "ready\n", 6) != 6)
        _exit (126);
      for (;;)
        pause ();
    }
  close (out[1]);
  g_assert_cmpint (read (out[0], line, sizeof line - 1), ==, 6);
  close (out[0]);
  pgs_kernel_track_child (pid);
  return pid;
}

guint64
pgs_test_start_time (pid_t pid)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/stat", (int) pid);
  g_autofree char *text = NULL;
  g_auto(GStrv) fields = NULL;
  char *paren;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  paren = strrchr (text, ')');
  g_assert_nonnull (paren);
  /* After the name: field 3 (state) is the first, so 22 is the 20th. */
  fields = g_strsplit (g_strstrip (paren + 1), " ", 0);
  g_assert_cmpuint (g_strv_length (fields), >=, 20);
  return g_ascii_strtoull (fields[19], NULL, 10);
}

char *
pgs_test_fake_pkcheck (const char *dir,
                       const char *name,
                       int         code)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autofree char *script = NULL;
  g_autoptr(GError) error = NULL;

  /* The helper runs it with an empty environment: absolute paths only. */
  if (code >= 0)
    script = g_strdup_printf ("#!/bin/sh\necho \"$*\" >> '%s.log'\nexit %d\n", path, code);
  else
    script = g_strdup_printf ("#!/bin/sh\necho \"$*\" >> '%s.log'\necho $$ > '%s.pid'\n"
                              "exec /bin/sleep 60\n", path, path);
  g_file_set_contents_full (path, script, -1, G_FILE_SET_CONTENTS_NONE, 0755, &error);
  g_assert_no_error (error);
  return g_steal_pointer (&path);
}
