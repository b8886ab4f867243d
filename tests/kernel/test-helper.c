/* test-helper.c: pagescope-helper, run as root, used by nobody
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Root starts the helper with one end of a socketpair on its stdin (the seam pkexec would
 * fill), then a forked child drops to nobody and scans a root-owned process and the
 * physical map through it. Its figures must be the kernel's own, read here by root. The
 * helper must refuse everything outside its fixed list and stay up, and exit when its
 * client goes. Needs root (exit 77 without).
 */

#define _GNU_SOURCE

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/wait.h>

#include "pagescope.h"
#include "pgs-kernel-util.h"
#include "pgs-kpage.h"
#include "pgs-procfs.h"

#define NOBODY 65534
/* A kernel-hacking bit of kpageflags (include/uapi/linux/kernel-page-flags.h): PG_reserved. */
#define KPF_RESERVED 32

static const char *helper_path;
static pid_t target = -1;
static pid_t twin = -1;

/* A root-owned process: the static sleeper (4 MiB written) shares no page with this test
 * or its forked client, so their coming and going does not change its PSS. A second one
 * shares its text, so that the PSS has a fractional part. Another user runs SLEEPER from a
 * copy it can reach (pgs_kernel_copy_for_user). */
static pid_t
start_sleeper (const char *sleeper,
               uid_t       uid)
{
  int out[2];
  char line[16] = "";
  pid_t pid;

  g_assert_nonnull (sleeper);
  g_assert_no_errno (pipe (out));
  pid = fork ();
  g_assert_cmpint (pid, >=, 0);
  if (pid == 0)
    {
      if (dup2 (out[1], 1) != 1)
        _exit (126);
      if (uid != 0 && (setgroups (0, NULL) != 0 || setresgid (uid, uid, uid) != 0 ||
                       setresuid (uid, uid, uid) != 0))
        _exit (126);
      execl (sleeper, sleeper, NULL);
      _exit (127);
    }
  close (out[1]);
  g_assert_cmpint (read (out[0], line, sizeof line - 1), ==, 6);
  g_assert_cmpstr (line, ==, "ready\n");
  close (out[0]);
  return pid;
}

/* Starts the helper as root on a fresh socketpair; returns our end. */
static int
start_helper (pid_t *pid)
{
  int sv[2];

  g_assert_no_errno (socketpair (AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv));
  *pid = fork ();
  g_assert_cmpint (*pid, >=, 0);
  if (*pid == 0)
    {
      if (dup2 (sv[1], 0) != 0)
        _exit (126);
      execl (helper_path, helper_path, NULL);
      _exit (127);
    }
  close (sv[1]);
  return sv[0];
}

/* Waits up to 5 s for PID to exit; returns its wait status or -1. */
static int
wait_exit (pid_t pid)
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

static void
drop_to_nobody (void)
{
  if (setgroups (0, NULL) != 0 || setresgid (NOBODY, NOBODY, NOBODY) != 0 ||
      setresuid (NOBODY, NOBODY, NOBODY) != 0 || getuid () != NOBODY)
    _exit (3);
}

typedef struct
{
  guint   control_known;   /* what nobody knows of the target without the helper */
  guint   known;
  int     source;
  guint64 rss, pss, uss;
  guint64 n_frames;
  guint64 bits[64];        /* frames with each kpageflags bit, whole map */
  guint64 where[64];       /* the sum of their frame numbers */
} Seen;

/* In the child, as nobody: the target through the helper, and without it. */
static void
client_main (int  helper_fd,
             int  result_fd)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(PgsHelper) helper = NULL;
  g_autoptr(PgsScanner) scanner = NULL;
  g_autoptr(PgsSnapshot) snapshot = NULL;
  PgsPhysMap *physmap;
  PgsProcess *proc;
  Seen seen = { 0 };
  const guint64 *flags;
  int pids[1] = { target };

  drop_to_nobody ();

  scanner = pgs_scanner_new ();
  pgs_scanner_set_pids (scanner, pids, 1);
  snapshot = pgs_scanner_scan (scanner, NULL, NULL);
  if (snapshot == NULL || (proc = pgs_snapshot_lookup_pid (snapshot, target)) == NULL)
    _exit (4);
  seen.control_known = pgs_process_get_known (proc);
  g_clear_object (&snapshot);

  helper = pgs_helper_new_for_fd (helper_fd, &error);
  if (helper == NULL)
    _exit (5);
  pgs_scanner_set_helper (scanner, helper);
  pgs_scanner_set_flags (scanner, PGS_SCAN_PHYSMAP);
  snapshot = pgs_scanner_scan (scanner, NULL, &error);
  if (snapshot == NULL || (proc = pgs_snapshot_lookup_pid (snapshot, target)) == NULL)
    _exit (6);
  seen.known = pgs_process_get_known (proc);
  seen.source = pgs_process_get_source (proc);
  seen.rss = pgs_process_get_rss (proc);
  seen.pss = pgs_process_get_pss (proc);
  seen.uss = pgs_process_get_uss (proc);

  physmap = pgs_snapshot_get_physmap (snapshot);
  if (physmap == NULL)
    _exit (7);
  seen.n_frames = pgs_physmap_get_n_frames (physmap);
  flags = pgs_physmap_get_flags (physmap);
  for (guint64 f = 0; f < seen.n_frames; f++)
    for (guint b = 0; b < 64; b++)
      if ((flags[f] >> b) & 1)
        {
          seen.bits[b]++;
          seen.where[b] += f;
        }

  if (write (result_fd, &seen, sizeof seen) != sizeof seen)
    _exit (8);
  _exit (0);
}

static void
test_unprivileged (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(PgsPhysMap) direct = NULL;
  PgsSmapsFields before, after;
  Seen seen;
  pid_t helper, client;
  int fd, result[2], status;

  fd = start_helper (&helper);
  g_assert_no_errno (pipe (result));

  /* The target is idle: its figures are the same before and after the client looks. */
  g_assert_true (pgs_kernel_read_rollup (target, &before));
  client = fork ();
  g_assert_cmpint (client, >=, 0);
  if (client == 0)
    client_main (fd, result[1]);
  g_assert_cmpint (waitpid (client, &status, 0), ==, client);
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 0);
  g_assert_cmpint (read (result[0], &seen, sizeof seen), ==, sizeof seen);
  g_assert_true (pgs_kernel_read_rollup (target, &after));
  direct = pgs_physmap_read (NULL, NULL, &error);
  g_assert_no_error (error);

  /* Without the helper nobody cannot know another user's PSS. */
  g_assert_false (seen.control_known & PGS_METRIC_PSS);

  /* Through it, root's figures computed from frame numbers. */
  g_test_message ("nobody through the helper: rss %" G_GUINT64_FORMAT " pss %" G_GUINT64_FORMAT
                  " uss %" G_GUINT64_FORMAT "; kernel rss %" G_GUINT64_FORMAT " pss %"
                  G_GUINT64_FORMAT " uss %" G_GUINT64_FORMAT, seen.rss, seen.pss, seen.uss,
                  after.rss, after.pss, after.private_clean + after.private_dirty);
  g_assert_cmpint (seen.source, ==, PGS_SOURCE_PAGES);
  g_assert_cmpuint (seen.known & PGS_METRIC_ALL, ==, PGS_METRIC_ALL);
  g_assert_cmpuint (before.rss, ==, after.rss);
  g_assert_cmpuint (before.pss, ==, after.pss);
  g_assert_cmpuint (before.private_clean + before.private_dirty, ==,
                    after.private_clean + after.private_dirty);
  g_assert_cmpuint (seen.rss, ==, after.rss);
  g_assert_cmpuint (seen.uss, ==, after.private_clean + after.private_dirty);
  g_assert_cmpint (ABS ((gint64) (seen.pss >> 10) - (gint64) (after.pss >> 10)), <=, 1);
  /* Its text is shared with the twin: a PSS below RSS shows shared frames were counted. */
  g_assert_cmpuint (seen.pss, <, seen.rss);

  /* The whole flag map: the same number of frames, and the same frames with the flags that
   * do not change while the machine runs (holes, the zero page, memory reserved at boot);
   * the others drift between the two reads and are only reported. */
  g_assert_cmpuint (seen.n_frames, ==, pgs_physmap_get_n_frames (direct));
  for (guint b = 0; b < 64; b++)
    {
      const guint64 *flags = pgs_physmap_get_flags (direct);
      guint64 mine = 0, where = 0;

      for (guint64 f = 0; f < seen.n_frames; f++)
        if ((flags[f] >> b) & 1)
          {
            mine++;
            where += f;
          }
      if (seen.bits[b] != 0 || mine != 0)
        g_test_message ("kpageflags bit %u: %" G_GUINT64_FORMAT " frames through the helper, %"
                        G_GUINT64_FORMAT " read directly", b, seen.bits[b], mine);
      if (b == PGS_KPF_NOPAGE || b == PGS_KPF_ZERO_PAGE || b == KPF_RESERVED)
        {
          g_assert_cmpuint (seen.bits[b], ==, mine);
          g_assert_cmpuint (seen.where[b], ==, where);
        }
    }
  /* Not a map of nothing: free and LRU frames are there. */
  g_assert_cmpuint (seen.bits[PGS_KPF_BUDDY], >, 0);
  g_assert_cmpuint (seen.bits[PGS_KPF_LRU], >, 0);

  /* The client's end is closed (it exited); ours is the last: the helper exits with it. */
  close (fd);
  status = wait_exit (helper);
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 0);
  close (result[0]);
  close (result[1]);
}

/* Sends one raw request; returns the reply text (NUL-terminated) and the fd, if any. */
static char *
raw_request (int         sock,
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

static void
assert_opens_maps (int sock)
{
  g_autofree char *request = g_strdup_printf ("OPEN %d maps\n", target);
  g_autofree char *expected = g_strdup_printf ("/proc/%d/maps", target);
  char link[64], path[64];
  ssize_t n;
  int fd;

  g_assert_cmpstr (raw_request (sock, request, strlen (request), &fd), ==, "OK\n");
  g_assert_cmpint (fd, >=, 0);
  g_snprintf (path, sizeof path, "/proc/self/fd/%d", fd);
  n = readlink (path, link, sizeof link - 1);
  g_assert_cmpint (n, >, 0);
  link[n] = '\0';
  g_assert_cmpstr (link, ==, expected);
  g_assert_cmpint (fcntl (fd, F_GETFL) & O_ACCMODE, ==, O_RDONLY);
  close (fd);
}

static void
test_refuses (void)
{
  static const struct { const char *text; gsize len; } bad[] = {
#define R(s) { s, sizeof s - 1 }
    R ("OPEN 1 environ\n"),
    R ("OPEN 1 ../../etc/shadow\n"),
    R ("OPEN 1 /etc/shadow\n"),
    R ("OPEN 1 maps/../environ\n"),
    R ("OPEN -1 maps\n"),
    R ("OPEN 0 maps\n"),
    R ("OPEN +1 maps\n"),
    R ("OPEN 01 maps\n"),
    R ("OPEN  1 maps\n"),
    R ("OPEN 1  maps\n"),
    R ("OPEN 1 maps \n"),
    R ("OPEN 99999999999 maps\n"),
    R ("OPEN 4194305 maps\n"),
    R ("OPEN 1 maps"),
    R ("OPEN 1 maps\n\n"),
    R ("OPEN 1 maps\r\n"),
    R ("OPEN 1 ma\0ps\n"),
    R ("open 1 maps\n"),
    R ("OPEN 1 kpageflags\n"),
    R ("KPAGE maps\n"),
    R ("KPAGE ../kpageflags\n"),
    R ("KPAGE\n"),
    R ("\n"),
    R (""),
    R ("\x01\x02\xff\xfe\x80\n"),
#undef R
  };
  char overlong[4096];
  pid_t helper;
  int sock, fd, status;

  sock = start_helper (&helper);
  {
    char greeting[64];
    ssize_t n = recv (sock, greeting, sizeof greeting - 1, 0);

    g_assert_cmpint (n, >, 0);
    greeting[n] = '\0';
    g_assert_cmpstr (greeting, ==, "PAGESCOPE-HELPER 1\n");
  }

  assert_opens_maps (sock);
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      char *reply = raw_request (sock, bad[i].text, bad[i].len, &fd);

      g_test_message ("%u: %.*s", i, (int) strcspn (reply, "\n"), reply);
      g_assert_true (g_str_has_prefix (reply, "ERR "));
      g_assert_cmpint (fd, ==, -1);
      assert_opens_maps (sock);
    }

  memset (overlong, 'A', sizeof overlong);
  g_assert_true (g_str_has_prefix (raw_request (sock, overlong, sizeof overlong, &fd), "ERR "));
  g_assert_cmpint (fd, ==, -1);
  assert_opens_maps (sock);

  /* A process that is gone is an errno, not a refusal. */
  g_assert_cmpstr (raw_request (sock, "OPEN 4194304 maps\n", 18, &fd), ==, "ERR 2 no such process\n");
  /* clear_refs is opened for writing only. */
  {
    g_autofree char *request = g_strdup_printf ("OPEN %d clear_refs\n", target);

    g_assert_cmpstr (raw_request (sock, request, strlen (request), &fd), ==, "OK\n");
    g_assert_cmpint (fcntl (fd, F_GETFL) & O_ACCMODE, ==, O_WRONLY);
    close (fd);
  }

  /* A process of a third user (neither root nor nobody): the helper keeps the capabilities
   * that its files need (DAC override for pagemap 0400 and clear_refs 0200). */
  {
    static const char * const names[] = { "pagemap", "clear_refs", "smaps", "smaps_rollup" };
    g_autofree char *why = NULL;
    g_autofree char *sleeper = pgs_kernel_copy_for_user (g_getenv ("PGS_STATIC_SLEEPER"),
                                                         NOBODY - 1, &why);
    pid_t stranger;

    if (sleeper == NULL)
      {
        g_test_skip (why);
        close (sock);
        g_assert_cmpint (wait_exit (helper), ==, 0);
        return;
      }
    stranger = start_sleeper (sleeper, NOBODY - 1);
    for (guint i = 0; i < G_N_ELEMENTS (names); i++)
      {
        g_autofree char *request = g_strdup_printf ("OPEN %d %s\n", stranger, names[i]);

        g_assert_cmpstr (raw_request (sock, request, strlen (request), &fd), ==, "OK\n");
        g_assert_cmpint (fd, >=, 0);
        close (fd);
      }
    kill (stranger, SIGKILL);
    waitpid (stranger, NULL, 0);
  }

  close (sock);
  status = wait_exit (helper);
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 0);
}

static void
on_closed (PgsHelper *helper,
           gboolean  *closed)
{
  *closed = TRUE;
}

static void
test_client (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(PgsHelper) helper = NULL;
  gboolean closed = FALSE;
  pid_t helper_pid;
  int fd;

  helper = pgs_helper_new_for_fd (start_helper (&helper_pid), &error);
  g_assert_no_error (error);
  g_assert_true (pgs_helper_is_running (helper));
  g_signal_connect (helper, "closed", G_CALLBACK (on_closed), &closed);

  fd = pgs_helper_open (helper, target, "smaps_rollup", &error);
  g_assert_no_error (error);
  close (fd);
  fd = pgs_helper_open (helper, 0, "kpagecount", &error);
  g_assert_no_error (error);
  close (fd);

  g_assert_cmpint (pgs_helper_open (helper, target, "environ", &error), ==, -1);
  g_assert_error (error, PGS_ERROR, PGS_ERROR_FAILED);
  g_clear_error (&error);
  g_assert_cmpint (pgs_helper_open (helper, 999999999, "maps", &error), ==, -1);
  g_assert_error (error, PGS_ERROR, PGS_ERROR_FAILED);
  g_assert_nonnull (strstr (error->message, "refused"));
  g_clear_error (&error);
  g_assert_cmpint (pgs_helper_open (helper, 4194304, "maps", &error), ==, -1);
  g_assert_error (error, PGS_ERROR, PGS_ERROR_PROCESS_GONE);
  g_clear_error (&error);

  /* Killed: "closed" fires in the main context and every request fails. */
  kill (helper_pid, SIGKILL);
  g_assert_cmpint (wait_exit (helper_pid), !=, -1);
  for (int i = 0; i < 500 && !closed; i++)
    if (!g_main_context_iteration (NULL, FALSE))
      g_usleep (10000);
  g_assert_true (closed);
  g_assert_false (pgs_helper_is_running (helper));
  g_assert_cmpint (pgs_helper_open (helper, target, "maps", &error), ==, -1);
  g_assert_error (error, PGS_ERROR, PGS_ERROR_FAILED);
}

/* Each thread asks for its own file; a reply crossed between threads would show up as a
 * descriptor of the wrong file. */
typedef struct
{
  PgsHelper  *helper;
  const char *name;
} OpenJob;

static gpointer
open_many (gpointer data)
{
  OpenJob *job = data;
  PgsHelper *helper = job->helper;
  const char *name = job->name;
  g_autofree char *expected = g_strdup_printf ("/proc/%d/%s", target, name);

  for (int i = 0; i < 300; i++)
    {
      g_autoptr(GError) error = NULL;
      char path[64], link[64];
      int fd = pgs_helper_open (helper, target, name, &error);
      ssize_t n;

      g_assert_no_error (error);
      g_snprintf (path, sizeof path, "/proc/self/fd/%d", fd);
      n = readlink (path, link, sizeof link - 1);
      g_assert_cmpint (n, >, 0);
      link[n] = '\0';
      g_assert_cmpstr (link, ==, expected);
      close (fd);
    }
  return NULL;
}

static void
test_threads (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(PgsHelper) helper = NULL;
  OpenJob jobs[] = { { NULL, "maps" }, { NULL, "smaps" }, { NULL, "smaps_rollup" },
                     { NULL, "pagemap" } };
  GThread *threads[G_N_ELEMENTS (jobs)];
  pid_t helper_pid;

  helper = pgs_helper_new_for_fd (start_helper (&helper_pid), &error);
  g_assert_no_error (error);
  for (guint i = 0; i < G_N_ELEMENTS (jobs); i++)
    {
      jobs[i].helper = helper;
      threads[i] = g_thread_new ("open", open_many, &jobs[i]);
    }
  for (guint i = 0; i < G_N_ELEMENTS (jobs); i++)
    g_thread_join (threads[i]);
  g_clear_object (&helper);
  g_assert_cmpint (wait_exit (helper_pid), ==, 0);
}

static void
on_started (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  PgsHelper **out = user_data;
  g_autoptr(GError) error = NULL;

  *out = pgs_helper_start_finish (result, &error);
  g_assert_no_error (error);
}

static void
test_seam (void)
{
  /* pkexec's 126: the user dismissed the dialog; 127: not authorised. */
  static const struct { const char *command; gboolean io; int code; } failures[] = {
    { "sh -c 'exit 126'", TRUE, G_IO_ERROR_CANCELLED },
    { "sh -c 'exit 127'", FALSE, PGS_ERROR_NO_PERMISSION },
    { "sh -c 'exit 3'", FALSE, PGS_ERROR_FAILED },
    { "sh -c 'echo HELLO >&0'", FALSE, PGS_ERROR_FAILED },
  };
  g_autoptr(GError) error = NULL;
  g_autoptr(PgsHelper) helper = NULL;
  int fd;

  g_setenv ("PGS_HELPER_COMMAND", helper_path, TRUE);
  helper = pgs_helper_start (NULL, &error);
  g_assert_no_error (error);
  fd = pgs_helper_open (helper, 0, "kpageflags", &error);
  g_assert_no_error (error);
  close (fd);
  g_clear_object (&helper);

  pgs_helper_start_async (NULL, on_started, &helper);
  while (helper == NULL)
    g_main_context_iteration (NULL, TRUE);
  fd = pgs_helper_open (helper, target, "pagemap", &error);
  g_assert_no_error (error);
  close (fd);
  g_clear_object (&helper);

  /* The inherited-socket seam: root started the helper, the process only has the fd. */
  {
    g_autofree char *number = NULL;
    pid_t helper_pid;
    int sock = start_helper (&helper_pid);

    number = g_strdup_printf ("%d", sock);
    g_setenv ("PGS_HELPER_FD", number, TRUE);
    helper = pgs_helper_start (NULL, &error);
    g_assert_no_error (error);
    close (sock);
    fd = pgs_helper_open (helper, 0, "kpagecount", &error);
    g_assert_no_error (error);
    close (fd);
    g_clear_object (&helper);
    g_assert_cmpint (wait_exit (helper_pid), ==, 0);
    g_setenv ("PGS_HELPER_FD", "not-a-number", TRUE);
    g_assert_null (pgs_helper_start (NULL, &error));
    g_assert_nonnull (error);
    g_clear_error (&error);
    g_unsetenv ("PGS_HELPER_FD");
  }

  for (guint i = 0; i < G_N_ELEMENTS (failures); i++)
    {
      GQuark domain = failures[i].io ? G_IO_ERROR : PGS_ERROR;

      g_setenv ("PGS_HELPER_COMMAND", failures[i].command, TRUE);
      g_assert_null (pgs_helper_start (NULL, &error));
      g_test_message ("%s: %s", failures[i].command, error->message);
      g_assert_error (error, domain, failures[i].code);
      g_clear_error (&error);
    }
  g_unsetenv ("PGS_HELPER_COMMAND");
}

int
main (int   argc,
      char *argv[])
{
  int ret;

  pgs_kernel_init ();
  g_test_init (&argc, &argv, NULL);

  helper_path = g_getenv ("PGS_HELPER");
  g_assert_nonnull (helper_path);
  target = start_sleeper (g_getenv ("PGS_STATIC_SLEEPER"), 0);
  twin = start_sleeper (g_getenv ("PGS_STATIC_SLEEPER"), 0);

  g_test_add_func ("/pgs/helper/unprivileged-root-figures", test_unprivileged);
  g_test_add_func ("/pgs/helper/refuses-and-stays-up", test_refuses);
  g_test_add_func ("/pgs/helper/client", test_client);
  g_test_add_func ("/pgs/helper/threads", test_threads);
  g_test_add_func ("/pgs/helper/seam", test_seam);

  ret = g_test_run ();
  kill (target, SIGKILL);
  kill (twin, SIGKILL);
  waitpid (target, NULL, 0);
  waitpid (twin, NULL, 0);
  return ret;
}
