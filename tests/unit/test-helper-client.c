/* test-helper-client.c: PgsHelper against a scripted fake helper
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The client must take only a well-formed reply with exactly one descriptor, map errnos to
 * the library's errors, close descriptors that come with a refusal, and never show the
 * helper's bytes raw. A thread plays the helper on a socketpair: no root needed.
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include "pagescope.h"

typedef struct
{
  const char *expect;    /* the request the client must send */
  const char *reply;
  int         n_fds;     /* descriptors of /dev/null attached */
} Step;

typedef struct
{
  int         sock;
  const char *greeting;
  const Step *steps;
  guint       n_steps;
} Script;

static void
send_with_fds (int         sock,
               const char *text,
               int         n_fds)
{
  char control[CMSG_SPACE (2 * sizeof (int))];
  struct iovec iov = { (void *) text, strlen (text) };
  struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };
  int fds[2] = { -1, -1 };

  g_assert_cmpint (n_fds, <=, 2);
  if (n_fds > 0)
    {
      struct cmsghdr *cmsg;

      memset (control, 0, sizeof control);
      for (int i = 0; i < n_fds; i++)
        fds[i] = open ("/dev/null", O_RDONLY | O_CLOEXEC);
      msg.msg_control = control;
      msg.msg_controllen = CMSG_SPACE (n_fds * sizeof (int));
      cmsg = CMSG_FIRSTHDR (&msg);
      cmsg->cmsg_level = SOL_SOCKET;
      cmsg->cmsg_type = SCM_RIGHTS;
      cmsg->cmsg_len = CMSG_LEN (n_fds * sizeof (int));
      memcpy (CMSG_DATA (cmsg), fds, n_fds * sizeof (int));
    }
  g_assert_cmpint (sendmsg (sock, &msg, MSG_NOSIGNAL), ==, (ssize_t) strlen (text));
  for (int i = 0; i < n_fds; i++)
    close (fds[i]);
}

static gpointer
fake_helper (gpointer data)
{
  Script *script = data;

  send_with_fds (script->sock, script->greeting, 0);
  for (guint i = 0; i < script->n_steps; i++)
    {
      char request[128];
      ssize_t n = recv (script->sock, request, sizeof request - 1, 0);

      g_assert_cmpint (n, >, 0);
      request[n] = '\0';
      g_assert_cmpstr (request, ==, script->steps[i].expect);
      send_with_fds (script->sock, script->steps[i].reply, script->steps[i].n_fds);
    }
  close (script->sock);
  return NULL;
}

static guint
count_open_fds (void)
{
  g_autoptr(GDir) dir = g_dir_open ("/proc/self/fd", 0, NULL);
  guint n = 0;

  g_assert_nonnull (dir);
  while (g_dir_read_name (dir) != NULL)
    n++;
  return n;
}

static void
test_replies (void)
{
  static const Step steps[] = {
    { "OPEN 42 maps\n", "OK\n", 1 },
    { "OPEN 42 smaps\n", "OK\n", 0 },                         /* no descriptor */
    { "OPEN 42 pagemap\n", "OK\n", 2 },                       /* two */
    { "OPEN 42 smaps_rollup\n", "ERR 13 Permission denied\n", 0 },
    { "OPEN 42 maps\n", "ERR 3 No such process\n", 1 },       /* a refusal with a descriptor */
    { "KPAGE kpageflags\n", "ERR 22 bad \x1b[31mrequest\n", 0 },
    { "KPAGE kpagecount\n", "ERR abc\n", 0 },
    { "OPEN 42 clear_refs\n", "ERR 99999 x\n", 0 },
    { "OPEN 42 maps\n", "OKAY\n", 1 },
  };
  Script script = { -1, "PAGESCOPE-HELPER 1\n", steps, G_N_ELEMENTS (steps) };
  g_autoptr(GError) error = NULL;
  g_autoptr(PgsHelper) helper = NULL;
  struct stat st, null_st;
  GThread *thread;
  guint fds_before;
  int sv[2], fd;

  g_assert_no_errno (socketpair (AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv));
  script.sock = sv[1];
  thread = g_thread_new ("fake-helper", fake_helper, &script);
  helper = pgs_helper_new_for_fd (sv[0], &error);
  g_assert_no_error (error);
  fds_before = count_open_fds ();

  /* Refused before anything is sent: the fake would fail on an unexpected request. */
  g_assert_cmpint (pgs_helper_open (helper, 42, "environ", &error), ==, -1);
  g_assert_error (error, PGS_ERROR, PGS_ERROR_FAILED);
  g_clear_error (&error);
  g_assert_cmpint (pgs_helper_open (helper, 0, "maps", &error), ==, -1);
  g_assert_error (error, PGS_ERROR, PGS_ERROR_FAILED);
  g_clear_error (&error);

  fd = pgs_helper_open (helper, 42, "maps", &error);
  g_assert_no_error (error);
  g_assert_no_errno (fstat (fd, &st));
  g_assert_no_errno (stat ("/dev/null", &null_st));
  g_assert_cmpuint (st.st_rdev, ==, null_st.st_rdev);
  g_assert_cmpint (fcntl (fd, F_GETFD) & FD_CLOEXEC, ==, FD_CLOEXEC);
  close (fd);

  g_assert_cmpint (pgs_helper_open (helper, 42, "smaps", &error), ==, -1);
  g_assert_error (error, PGS_ERROR, PGS_ERROR_FAILED);
  g_assert_nonnull (strstr (error->message, "malformed"));
  g_clear_error (&error);

  g_assert_cmpint (pgs_helper_open (helper, 42, "pagemap", &error), ==, -1);
  g_assert_error (error, PGS_ERROR, PGS_ERROR_FAILED);
  g_clear_error (&error);

  g_assert_cmpint (pgs_helper_open (helper, 42, "smaps_rollup", &error), ==, -1);
  g_assert_error (error, PGS_ERROR, PGS_ERROR_NO_PERMISSION);
  g_clear_error (&error);

  g_assert_cmpint (pgs_helper_open (helper, 42, "maps", &error), ==, -1);
  g_assert_error (error, PGS_ERROR, PGS_ERROR_PROCESS_GONE);
  g_clear_error (&error);

  /* The helper's own words, but never a raw control character. */
  g_assert_cmpint (pgs_helper_open (helper, 0, "kpageflags", &error), ==, -1);
  g_assert_error (error, PGS_ERROR, PGS_ERROR_FAILED);
  g_assert_nonnull (strstr (error->message, "refused"));
  g_assert_null (strchr (error->message, '\x1b'));
  g_clear_error (&error);

  g_assert_cmpint (pgs_helper_open (helper, 0, "kpagecount", &error), ==, -1);
  g_assert_nonnull (strstr (error->message, "malformed"));
  g_clear_error (&error);
  g_assert_cmpint (pgs_helper_open (helper, 42, "clear_refs", &error), ==, -1);
  g_assert_nonnull (strstr (error->message, "malformed"));
  g_clear_error (&error);
  g_assert_cmpint (pgs_helper_open (helper, 42, "maps", &error), ==, -1);
  g_assert_nonnull (strstr (error->message, "malformed"));
  g_clear_error (&error);

  /* The fake has closed its end (one descriptor fewer), and every descriptor that came
   * with a bad reply was closed. */
  g_thread_join (thread);
  g_assert_cmpuint (count_open_fds (), ==, fds_before - 1);

  /* The helper is gone. */
  g_assert_false (pgs_helper_is_running (helper));
  g_assert_cmpint (pgs_helper_open (helper, 42, "maps", &error), ==, -1);
  g_assert_nonnull (strstr (error->message, "exited"));
}

static void
test_bad_greeting (void)
{
  static const char * const greetings[] = { "PAGESCOPE-HELPER 2\n", "hello\n", "" };

  for (guint i = 0; i < G_N_ELEMENTS (greetings); i++)
    {
      Script script = { -1, greetings[i], NULL, 0 };
      g_autoptr(GError) error = NULL;
      GThread *thread;
      int sv[2];

      g_assert_no_errno (socketpair (AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv));
      script.sock = sv[1];
      thread = g_thread_new ("fake-helper", fake_helper, &script);
      g_assert_null (pgs_helper_new_for_fd (sv[0], &error));
      g_assert_error (error, PGS_ERROR, PGS_ERROR_FAILED);
      g_thread_join (thread);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/pgs/helper-client/replies", test_replies);
  g_test_add_func ("/pgs/helper-client/bad-greeting", test_bad_greeting);

  return g_test_run ();
}
