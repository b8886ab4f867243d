/* test-helper-access.c: whom pagescope-helper serves, and what it lets them change
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The helper serves only the process that started it (its parent, which made the socket,
 * as the user pkexec reports), gives a writable clear_refs of another user's process only
 * under polkit's change action (a stand-in pkcheck says yes or no: the build tree's
 * pagescope-helper-test honours PGS_HELPER_TEST_PKCHECK, the installed helper has no such
 * seam), ends with status 0 on a hang-up or a half-close, and answers 10,000 hostile
 * requests with refusals. Needs root (exit 77 without).
 */

#define _GNU_SOURCE

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/wait.h>

#include "pagescope.h"
#include "pgs-helper-util.h"
#include "pgs-kernel-util.h"

#define NOBODY 65534
#define NOBODY_TEXT "65534"
#define NOT_AUTHORISED "ERR 13 not authorised to change another user's process " \
                       "(polkit action io.github.pagescope.Pagescope.change)\n"

static const char *helper_path;       /* as installed */
static const char *helper_test_path;  /* with the pkcheck seam */
static char *tmpdir;
static pid_t root_target, other_target, own_target;

static void
assert_exits_0 (pid_t pid)
{
  int status = pgs_test_wait_exit (pid);

  g_assert_cmpint (status, !=, -1);
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 0);
}

static char *
read_log (const char *pkcheck)
{
  g_autofree char *log = g_strconcat (pkcheck, ".log", NULL);
  char *text = NULL;

  if (!g_file_get_contents (log, &text, NULL, NULL))
    return g_strdup ("");
  return text;
}

/* The socket made in this process, the helper started by another one (a child of ours):
 * the helper's parent is not its peer. */
static void
test_not_parent (void)
{
  char reply[256];
  int sv[2], status;
  ssize_t n;
  pid_t middle;

  g_assert_no_errno (socketpair (AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv));
  middle = fork ();
  g_assert_cmpint (middle, >=, 0);
  if (middle == 0)
    {
      pid_t helper;

      close (sv[0]);
      helper = fork ();

      if (helper == 0)
        {
          if (dup2 (sv[1], 0) != 0)
            _exit (126);
          execl (helper_path, helper_path, NULL);
          _exit (127);
        }
      close (sv[1]);
      if (helper < 0 || waitpid (helper, &status, 0) != helper)
        _exit (125);
      _exit (WIFEXITED (status) ? WEXITSTATUS (status) : 124);
    }
  close (sv[1]);
  n = recv (sv[0], reply, sizeof reply - 1, 0);
  g_assert_cmpint (n, >, 0);
  reply[n] = '\0';
  g_assert_cmpstr (reply, ==, "ERR 1 the helper serves only the process that started it\n");
  /* And nothing more: it has gone. */
  g_assert_cmpint (recv (sv[0], reply, sizeof reply, 0), ==, 0);
  status = pgs_test_wait_exit (middle);
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 2);
  close (sv[0]);
}

/* The same through the client: a command that forks the helper instead of running it in
 * its own process (as sudo does) is refused, with the helper's words. */
static void
test_not_parent_client (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *command = g_strdup_printf ("sh -c '\"$0\"; exit $?' %s", helper_path);

  g_setenv ("PGS_HELPER_COMMAND", command, TRUE);
  g_assert_null (pgs_helper_start (NULL, &error));
  g_unsetenv ("PGS_HELPER_COMMAND");
  g_test_message ("%s", error->message);
  g_assert_error (error, PGS_ERROR, PGS_ERROR_NO_PERMISSION);
  g_assert_nonnull (strstr (error->message, "serves only the process that started it"));
}

/* The peer's uid must be the one the helper acts for. */
static void
test_peer_uid (void)
{
  static const struct { uid_t socket_uid; const char *pkexec_uid; gboolean served; } cases[] = {
    { 0, NULL, TRUE },
    { NOBODY, NOBODY_TEXT, TRUE },
    { NOBODY, NULL, FALSE },          /* the socket nobody's, the helper root's own */
    { 0, NOBODY_TEXT, FALSE },        /* the socket root's, pkexec says nobody */
    { NOBODY, "65533", FALSE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      PgsTestHelper how = { helper_path, cases[i].socket_uid, cases[i].pkexec_uid, NULL };
      pid_t pid;
      int sock = pgs_test_helper_start (&how, &pid), status;
      const char *greeting = pgs_test_helper_greeting (sock);

      g_test_message ("socket uid %u, PKEXEC_UID %s: %s", (unsigned) cases[i].socket_uid,
                      cases[i].pkexec_uid, greeting);
      close (sock);
      status = pgs_test_wait_exit (pid);
      g_assert_true (WIFEXITED (status));
      if (cases[i].served)
        {
          g_assert_cmpstr (greeting, ==, "PAGESCOPE-HELPER 1\n");
          g_assert_cmpint (WEXITSTATUS (status), ==, 0);
        }
      else
        {
          g_assert_cmpstr (greeting, ==, "ERR 1 the helper serves only the process that started it\n");
          g_assert_cmpint (WEXITSTATUS (status), ==, 2);
        }
    }

  /* A PKEXEC_UID that is not a number: no service at all. */
  {
    PgsTestHelper how = { helper_path, 0, "12ab", NULL };
    pid_t pid;
    int sock = pgs_test_helper_start (&how, &pid), status;

    g_assert_cmpstr (pgs_test_helper_greeting (sock), ==, "");
    status = pgs_test_wait_exit (pid);
    g_assert_true (WIFEXITED (status));
    g_assert_cmpint (WEXITSTATUS (status), ==, 2);
    close (sock);
  }
}

static char *
open_request (pid_t       pid,
              const char *name)
{
  return g_strdup_printf ("OPEN %d %s\n", (int) pid, name);
}

/* Asks for NAME of PID; returns the reply, with the descriptor's access mode checked. */
static char *
ask (int         sock,
     pid_t       pid,
     const char *name)
{
  g_autofree char *request = open_request (pid, name);
  char *reply;
  int fd;

  reply = pgs_test_helper_request (sock, request, strlen (request), &fd);
  if (g_str_equal (reply, "OK\n"))
    {
      g_assert_cmpint (fd, >=, 0);
      g_assert_cmpint (fcntl (fd, F_GETFL) & O_ACCMODE, ==,
                       g_str_equal (name, "clear_refs") ? O_WRONLY : O_RDONLY);
      close (fd);
    }
  else
    g_assert_cmpint (fd, ==, -1);
  return reply;
}

/* nobody (through pkexec) may change its own processes, and others' only when polkit's
 * change action allows; reading needs no more than the read action; pkcheck is asked for
 * the subject pkexec checked: the helper's parent, by PID and start time, as nobody. */
static void
test_change_action (void)
{
  g_autofree char *deny = pgs_test_fake_pkcheck (tmpdir, "deny", 1);
  g_autofree char *allow = pgs_test_fake_pkcheck (tmpdir, "allow", 0);
  g_autofree char *expected = g_strdup_printf ("--action-id io.github.pagescope.Pagescope.change "
                                               "--process %d,%" G_GUINT64_FORMAT ",65534 "
                                               "--allow-user-interaction\n", (int) getpid (),
                                               pgs_test_start_time (getpid ()));
  PgsTestHelper how = { helper_test_path, NOBODY, NOBODY_TEXT, deny };
  g_autofree char *twice = g_strconcat (expected, expected, NULL);
  g_autofree char *log = NULL;
  pid_t pid;
  int sock;

  sock = pgs_test_helper_start (&how, &pid);
  g_assert_cmpstr (pgs_test_helper_greeting (sock), ==, "PAGESCOPE-HELPER 1\n");
  /* Reading root's process: no change, pkcheck not asked. */
  g_assert_cmpstr (ask (sock, root_target, "pagemap"), ==, "OK\n");
  g_assert_cmpstr (ask (sock, root_target, "smaps"), ==, "OK\n");
  /* Its own process: no need to ask. */
  g_assert_cmpstr (ask (sock, own_target, "clear_refs"), ==, "OK\n");
  log = read_log (deny);
  g_assert_cmpstr (log, ==, "");
  g_clear_pointer (&log, g_free);
  /* Root's and a third user's: asked, and refused. */
  g_assert_cmpstr (ask (sock, root_target, "clear_refs"), ==, NOT_AUTHORISED);
  g_assert_cmpstr (ask (sock, other_target, "clear_refs"), ==, NOT_AUTHORISED);
  log = read_log (deny);
  g_assert_cmpstr (log, ==, twice);
  close (sock);
  assert_exits_0 (pid);

  how.pkcheck = allow;
  sock = pgs_test_helper_start (&how, &pid);
  g_assert_cmpstr (pgs_test_helper_greeting (sock), ==, "PAGESCOPE-HELPER 1\n");
  g_assert_cmpstr (ask (sock, root_target, "clear_refs"), ==, "OK\n");
  g_assert_cmpstr (ask (sock, other_target, "clear_refs"), ==, "OK\n");
  g_clear_pointer (&log, g_free);
  log = read_log (allow);
  g_assert_cmpstr (log, ==, twice);
  close (sock);
  assert_exits_0 (pid);

  /* Root's own helper (no pkexec): root may change any process, nothing asked. */
  how.socket_uid = 0;
  how.pkexec_uid = NULL;
  how.pkcheck = deny;
  sock = pgs_test_helper_start (&how, &pid);
  g_assert_cmpstr (pgs_test_helper_greeting (sock), ==, "PAGESCOPE-HELPER 1\n");
  g_assert_cmpstr (ask (sock, other_target, "clear_refs"), ==, "OK\n");
  g_clear_pointer (&log, g_free);
  log = read_log (deny);
  g_assert_cmpstr (log, ==, twice);
  close (sock);
  assert_exits_0 (pid);
}

/* What each answer of pkcheck becomes, in the helper's reply and through the client. */
static void
test_change_answers (void)
{
  static const struct { const char *name; int code; const char *reply; GQuark domain; int error; }
  answers[] = {
    { "dismissed", 3, "ERR 125 authentication was dismissed\n", 0, G_IO_ERROR_CANCELLED },
    { "no-agent", 2, NOT_AUTHORISED, 1, PGS_ERROR_NO_PERMISSION },
    { "failed", 127, "ERR 13 pkcheck failed: polkit could not be asked\n", 1,
      PGS_ERROR_NO_PERMISSION },
    { "absent", 0, "ERR 13 changing another user's process needs polkit's pkcheck (package "
      "polkitd), which is not installed\n", 1, PGS_ERROR_NO_PERMISSION },
  };

  for (guint i = 0; i < G_N_ELEMENTS (answers); i++)
    {
      g_autofree char *pkcheck = g_str_equal (answers[i].name, "absent")
                                 ? g_build_filename (tmpdir, "absent", NULL)
                                 : pgs_test_fake_pkcheck (tmpdir, answers[i].name, answers[i].code);
      PgsTestHelper how = { helper_test_path, NOBODY, NOBODY_TEXT, pkcheck };
      g_autoptr(GError) error = NULL;
      g_autoptr(PgsHelper) helper = NULL;
      pid_t pid;
      int sock = pgs_test_helper_start (&how, &pid);

      g_assert_cmpstr (pgs_test_helper_greeting (sock), ==, "PAGESCOPE-HELPER 1\n");
      g_assert_cmpstr (ask (sock, root_target, "clear_refs"), ==, answers[i].reply);
      close (sock);
      assert_exits_0 (pid);

      helper = pgs_helper_new_for_fd (pgs_test_helper_start (&how, &pid), &error);
      g_assert_no_error (error);
      g_assert_cmpint (pgs_helper_open (helper, root_target, "clear_refs", &error), ==, -1);
      g_test_message ("%s: %s", answers[i].name, error->message);
      g_assert_error (error, (answers[i].domain == 0 ? G_IO_ERROR : PGS_ERROR), answers[i].error);
      g_clear_object (&helper);
      assert_exits_0 (pid);
    }
}

/* A client that hangs up while the user is being asked: the helper and pkcheck end. */
static void
test_hangup_while_asking (void)
{
  g_autofree char *slow = pgs_test_fake_pkcheck (tmpdir, "slow", -1);
  g_autofree char *pid_file = g_strconcat (slow, ".pid", NULL);
  g_autofree char *request = open_request (root_target, "clear_refs");
  g_autofree char *text = NULL;
  PgsTestHelper how = { helper_test_path, NOBODY, NOBODY_TEXT, slow };
  pid_t pid, pkcheck = 0;
  int sock = pgs_test_helper_start (&how, &pid);

  g_assert_cmpstr (pgs_test_helper_greeting (sock), ==, "PAGESCOPE-HELPER 1\n");
  g_assert_cmpint (send (sock, request, strlen (request), 0), ==, (ssize_t) strlen (request));
  for (int i = 0; i < 500 && !g_file_get_contents (pid_file, &text, NULL, NULL); i++)
    g_usleep (10000);
  g_assert_nonnull (text);
  pkcheck = (pid_t) g_ascii_strtoll (text, NULL, 10);
  g_assert_cmpint (pkcheck, >, 0);
  g_assert_cmpint (kill (pkcheck, 0), ==, 0);
  close (sock);
  assert_exits_0 (pid);
  /* Killed and reaped (the helper was its parent, now gone; init reaps what is left). */
  for (int i = 0; i < 500 && kill (pkcheck, 0) == 0; i++)
    g_usleep (10000);
  g_assert_cmpint (kill (pkcheck, 0), ==, -1);
}

/* Status 0 however the client goes. */
static void
test_hangups (void)
{
  static const char *const ways[] = { "close", "close-unread", "half-close",
                                      "half-close-after-request", "close-reply-unread" };
  PgsTestHelper how = { helper_path, 0, NULL, NULL };

  for (guint i = 0; i < G_N_ELEMENTS (ways); i++)
    {
      g_autofree char *request = open_request (root_target, "maps");
      pid_t pid;
      int sock = pgs_test_helper_start (&how, &pid), fd;

      g_test_message ("%s", ways[i]);
      if (!g_str_equal (ways[i], "close-unread"))
        g_assert_cmpstr (pgs_test_helper_greeting (sock), ==, "PAGESCOPE-HELPER 1\n");
      if (g_str_equal (ways[i], "half-close"))
        g_assert_no_errno (shutdown (sock, SHUT_WR));
      if (g_str_equal (ways[i], "half-close-after-request"))
        {
          /* The request sent before is still answered. */
          char reply[64];

          g_assert_cmpint (send (sock, request, strlen (request), 0), ==, (ssize_t) strlen (request));
          g_assert_no_errno (shutdown (sock, SHUT_WR));
          g_assert_cmpint (recv (sock, reply, sizeof reply, 0), ==, 3);
        }
      if (g_str_equal (ways[i], "close-reply-unread"))
        {
          g_assert_cmpstr (pgs_test_helper_request (sock, request, strlen (request), &fd), ==, "OK\n");
          close (fd);
          g_assert_cmpint (send (sock, request, strlen (request), 0), ==, (ssize_t) strlen (request));
          g_usleep (100000);
        }
      if (g_str_has_prefix (ways[i], "half-close"))
        {
          /* Exits before we close: the half-close alone ends it. */
          assert_exits_0 (pid);
          close (sock);
        }
      else
        {
          close (sock);
          assert_exits_0 (pid);
        }
    }
}

static GBytes *
hostile_request (GRand *rand,
                 guint  i)
{
  static const char *const paths[] = { "../../etc/shadow", "/etc/shadow", "maps/../environ",
                                       "environ", "mem", "./maps", "maps\n", "kpageflags",
                                       "status", "fd/0", "cwd", "root", "exe", "CLEAR_REFS" };
  GString *s = g_string_new (NULL);
  int pid = g_rand_boolean (rand) ? (int) root_target : g_rand_int_range (rand, -5, 5000000);

  switch (i % 8)
    {
    case 0: /* random bytes, often NUL and control bytes among them */
      for (gint n = g_rand_int_range (rand, 0, 3000); n > 0; n--)
        g_string_append_c (s, (char) g_rand_int_range (rand, 0, 256));
      break;
    case 1: /* a long line: over the limit, or just under it, of a word that is not a verb */
      g_string_append (s, g_rand_boolean (rand) ? "OPEN 1 " : "PAGEOUT 1 ");
      for (gint n = g_rand_int_range (rand, 2000, 9000); n > 0; n--)
        g_string_append_c (s, 'a' + (char) g_rand_int_range (rand, 0, 26));
      g_string_append_c (s, '\n');
      break;
    case 2: /* bad PIDs: signed, zero-padded, too large, not numbers */
      {
        static const char *const bad[] = { "-%d", "0%d", "+%d", "%d0000000", "%dx", " %d",
                                           "%d.0", "0x%d", "%d%d%d%d" };
        g_autofree char *number = g_strdup_printf (bad[g_rand_int_range (rand, 0,
                                                                         G_N_ELEMENTS (bad))],
                                                   pid, pid, pid, pid);

        g_string_append_printf (s, "%s %s %s\n", g_rand_boolean (rand) ? "OPEN" : "PAGEOUT",
                                number, g_rand_boolean (rand) ? "maps" : "1000-2000");
      }
      break;
    case 3: /* paths and names not in the list */
      g_string_append_printf (s, "OPEN %d %s\n", pid,
                              paths[g_rand_int_range (rand, 0, G_N_ELEMENTS (paths))]);
      break;
    case 4: /* huge counts of ranges */
      g_string_append_printf (s, "PAGEOUT %d", pid);
      for (gint n = g_rand_int_range (rand, 65, 80); n > 0; n--)
        g_string_append_printf (s, " %x000-%x000", n, n + 1);
      g_string_append_c (s, '\n');
      break;
    case 5: /* ranges that are not: reversed, unaligned, overflowing, zero-padded, empty */
      {
        static const char *const bad[] = { "2000-1000", "1001-2000", "1000-1000",
                                           "ffffffffffffffff-10000000000000000", "01000-2000",
                                           "1000-2000 1000-3000", "1000", "-", "1000-2000 ",
                                           "1000-2000  3000-4000", "3000-4000 1000-2000",
                                           "1000-2000-3000", "1000-2fff", "1000 2000",
                                           "0-1000", "+1000-2000", "1000-0x2000", "" };

        g_string_append_printf (s, "PAGEOUT %d %s\n", pid,
                                bad[g_rand_int_range (rand, 0, G_N_ELEMENTS (bad))]);
      }
      break;
    case 6: /* well-formed ranges no process has mapped (below mmap_min_addr) */
      g_string_append_printf (s, "PAGEOUT %d 1000-2000\n", (int) root_target);
      break;
    default: /* a valid request with one byte made NUL or not ASCII */
      g_string_printf (s, "OPEN %d smaps\n", (int) root_target);
      s->str[g_rand_int_range (rand, 0, (gint32) s->len)] =
        g_rand_boolean (rand) ? '\0' : (char) g_rand_int_range (rand, 0x80, 0x100);
      break;
    }
  return g_string_free_to_bytes (s);
}

/* 10,000 requests of every bad kind: each refused, none answered with a descriptor, the
 * helper up and serving between them, and done in a bounded time. */
static void
test_hostile (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (20);
  g_autofree char *valid = open_request (root_target, "maps");
  g_autofree char *deny = pgs_test_fake_pkcheck (tmpdir, "hostile-deny", 1);
  PgsTestHelper how = { helper_path, 0, NULL, NULL };
  gint64 started = g_get_monotonic_time ();
  guint refused = 0;
  pid_t pid;
  int sock, fd;

  sock = pgs_test_helper_start (&how, &pid);
  g_assert_cmpstr (pgs_test_helper_greeting (sock), ==, "PAGESCOPE-HELPER 1\n");
  for (guint i = 0; i < 10000; i++)
    {
      g_autoptr(GBytes) request = hostile_request (rand, i);
      gsize len;
      const char *data = g_bytes_get_data (request, &len);
      const char *reply;

      reply = pgs_test_helper_request (sock, data, len, &fd);
      if (!g_str_has_prefix (reply, "ERR "))
        g_error ("request %u (%.*s) was answered %s", i, (int) MIN (len, 80), data, reply);
      g_assert_cmpint (fd, ==, -1);
      refused++;
      if (i % 1000 == 999)
        {
          g_assert_cmpstr (pgs_test_helper_request (sock, valid, strlen (valid), &fd), ==, "OK\n");
          close (fd);
        }
    }
  g_test_message ("10,000 hostile requests, %u refused, in %.1f s", refused,
                  (g_get_monotonic_time () - started) / 1e6);
  g_assert_cmpuint (refused, ==, 10000);
  close (sock);
  assert_exits_0 (pid);

  /* As nobody through pkexec, the same requests and changes of others' processes, with
   * polkit saying no: refusals all, and the helper still up. */
  how = (PgsTestHelper) { helper_test_path, NOBODY, NOBODY_TEXT, deny };
  sock = pgs_test_helper_start (&how, &pid);
  g_assert_cmpstr (pgs_test_helper_greeting (sock), ==, "PAGESCOPE-HELPER 1\n");
  for (guint i = 0; i < 1000; i++)
    {
      g_autoptr(GBytes) request = hostile_request (rand, i);
      g_autofree char *change = g_strdup_printf ("OPEN %d clear_refs\n",
                                                 (int) (i % 2 ? root_target : other_target));
      gsize len;
      const char *data = g_bytes_get_data (request, &len);

      g_assert_true (g_str_has_prefix (pgs_test_helper_request (sock, data, len, &fd), "ERR "));
      g_assert_cmpint (fd, ==, -1);
      if (i % 10 == 0)
        g_assert_cmpstr (pgs_test_helper_request (sock, change, strlen (change), &fd), ==,
                         NOT_AUTHORISED);
    }
  close (sock);
  assert_exits_0 (pid);
  g_assert_cmpint ((g_get_monotonic_time () - started) / G_USEC_PER_SEC, <, 60);
}

int
main (int   argc,
      char *argv[])
{
  pgs_kernel_init ();
  g_test_init (&argc, &argv, NULL);

  helper_path = g_getenv ("PGS_HELPER");
  helper_test_path = g_getenv ("PGS_HELPER_TEST");
  g_assert_nonnull (helper_path);
  g_assert_nonnull (helper_test_path);
  tmpdir = pgs_kernel_make_tmpdir ("helper-access");
  root_target = pgs_test_start_idle (0);
  other_target = pgs_test_start_idle (NOBODY - 1);
  own_target = pgs_test_start_idle (NOBODY);

  g_test_add_func ("/pgs/helper/access/not-parent", test_not_parent);
  g_test_add_func ("/pgs/helper/access/not-parent-client", test_not_parent_client);
  g_test_add_func ("/pgs/helper/access/peer-uid", test_peer_uid);
  g_test_add_func ("/pgs/helper/access/change-action", test_change_action);
  g_test_add_func ("/pgs/helper/access/change-answers", test_change_answers);
  g_test_add_func ("/pgs/helper/access/hangup-while-asking", test_hangup_while_asking);
  g_test_add_func ("/pgs/helper/access/hangups", test_hangups);
  g_test_add_func ("/pgs/helper/access/hostile", test_hostile);

  return g_test_run ();
}
