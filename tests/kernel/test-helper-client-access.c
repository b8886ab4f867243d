/* test-helper-client-access.c: the library's ACCESS client against the real helper
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The build tree's pagescope-helper-test, started as pkexec would start it for nobody
 * (the socket made as nobody, a stand-in pkcheck granting every action), read through
 * pgs_damon_collect_through_helper() as the app reads it when unlocked: the running
 * kdamond's events parse as damon_aggregated with no error, and the helper's tracefs
 * instance is gone afterwards, also after a read cancelled mid-way (the client sends
 * STOP: the helper removes its instance and serves the next read; it exits 0 when the
 * client goes); and on the raw socket, STOP mid-read answered with END, any other datagram
 * with ERR 22. Needs root, DAMON, a running kdamond and tracefs (skips without).
 */

#include "config.h"

#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/wait.h>

#include "pagescope.h"
#include "pgs-helper-util.h"
#include "pgs-kernel-util.h"

#define NOBODY 65534
#define NOBODY_TEXT "65534"

static const char *helper_test_path;
static char *tmpdir;

/* Pagescope's tracefs instances now, as test-damon-access.py lists them (tracefs mounted
 * in a mount namespace of the listing's own when it is not mounted); NULL without tracefs. */
static GStrv
pagescope_instances (void)
{
  const char *argv[] = {
    "unshare", "-m", "--propagation", "private", "sh", "-ec",
    "T=$(awk '$3 == \"tracefs\" { print $2; exit }' /proc/self/mounts)\n"
    "if [ -z \"$T\" ]; then mount -t tracefs nodev /sys/kernel/tracing || exit 3; "
    "T=/sys/kernel/tracing; fi\n"
    "ls \"$T/instances\" | grep '^pagescope-' || true\n", NULL
  };
  g_autofree char *out = NULL;
  int status = 0;

  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDERR_TO_DEV_NULL,
                     NULL, NULL, &out, NULL, &status, NULL) ||
      !g_spawn_check_wait_status (status, NULL))
    return NULL;
  return g_strsplit (g_strstrip (out), "\n", -1);
}

/* Skips unless a kdamond runs and tracefs can be listed; else the read's length. */
static double
require_kdamond (void)
{
  g_autoptr(PgsDamonSysfs) sysfs = pgs_damon_sysfs_read (NULL, NULL);
  g_autoptr(GPtrArray) running = NULL;
  g_auto(GStrv) instances = pagescope_instances ();

  if (sysfs == NULL || !sysfs->present)
    {
      g_test_skip ("no DAMON sysfs");
      return 0;
    }
  running = pgs_damon_sysfs_running (sysfs);
  if (running->len == 0)
    {
      g_test_skip ("no kdamond runs");
      return 0;
    }
  if (instances == NULL)
    {
      g_test_skip ("tracefs cannot be listed");
      return 0;
    }
  /* Two aggregations and a second, as the helper test reads. */
  return MIN (120, MAX (2, 2 * pgs_damon_sysfs_slowest_aggr_us (sysfs) / 1e6 + 1));
}

static PgsHelper *
start (pid_t *pid)
{
  g_autofree char *pkcheck = pgs_test_fake_pkcheck (tmpdir, "grant", 0);
  PgsTestHelper how = { helper_test_path, NOBODY, NOBODY_TEXT, pkcheck };
  g_autoptr(GError) error = NULL;
  PgsHelper *helper = pgs_helper_new_for_fd (pgs_test_helper_start (&how, pid), &error);

  g_assert_no_error (error);
  return helper;
}

static gboolean
instance_gone (const char *name)
{
  for (int tries = 0; tries < 50; tries++)
    {
      g_auto(GStrv) now = pagescope_instances ();

      if (now != NULL && !g_strv_contains ((const char * const *) now, name))
        return TRUE;
      g_usleep (100000);
    }
  return FALSE;
}

static void
test_read (void)
{
  double seconds = require_kdamond ();
  g_autoptr(PgsDamonCollection) col = NULL;
  g_autoptr(PgsHelper) helper = NULL;
  g_autoptr(GError) error = NULL;
  PgsDamonAccessCounts counts;
  pid_t pid;

  if (seconds == 0)
    return;
  helper = start (&pid);
  col = pgs_damon_collect_through_helper (helper, NULL, NULL, seconds, NULL, &error);
  g_assert_no_error (error);
  pgs_damon_access_get_counts (col->access, &counts);
  g_test_message ("%.0f s: %" G_GUINT64_FORMAT " lines, %" G_GUINT64_FORMAT " events, %u "
                  "aggregations, instance %s", seconds, counts.lines, counts.events,
                  pgs_damon_access_get_aggregations (col->access)->len, col->instance);
  g_assert_true (g_str_has_prefix (col->instance, "pagescope-"));
  g_assert_cmpuint (counts.events, >, 0);
  g_assert_cmpuint (counts.errors, ==, 0);
  /* Two aggregation intervals hold at least one whole aggregation. */
  g_assert_cmpuint (pgs_damon_access_get_aggregations (col->access)->len, >=, 1);
  g_assert_true (instance_gone (col->instance));
  /* Served, and still serving. */
  g_assert_true (pgs_helper_is_running (helper));
  g_clear_object (&helper);
  g_assert_cmpint (pgs_test_wait_exit (pid), ==, 0);
}

typedef struct
{
  GMainLoop *loop;
  GError    *error;
} Wait;

static void
on_read (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  Wait *w = user_data;
  GBytes *bytes = pgs_helper_read_access_finish (PGS_HELPER (source), result, NULL, NULL,
                                                 &w->error);

  g_assert_null (bytes);
  g_main_loop_quit (w->loop);
}

static gboolean
cancel_now (gpointer data)
{
  g_cancellable_cancel (data);
  return G_SOURCE_REMOVE;
}

static void
test_cancel (void)
{
  double seconds = require_kdamond ();
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(PgsHelper) helper = NULL;
  g_auto(GStrv) before = NULL;
  g_auto(GStrv) after = NULL;
  Wait w = { NULL, NULL };
  int status;
  pid_t pid;

  if (seconds == 0)
    return;
  before = pagescope_instances ();
  helper = start (&pid);
  w.loop = g_main_loop_new (NULL, FALSE);
  pgs_helper_read_access_async (helper, 30, cancellable, on_read, &w);
  g_timeout_add (1500, cancel_now, cancellable);
  g_main_loop_run (w.loop);
  g_main_loop_unref (w.loop);
  g_assert_error (w.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&w.error);

  /* The client asked the helper to STOP: it removed its instance well before the 30 s
   * were up, and serves on until the client goes. */
  g_assert_true (pgs_helper_is_running (helper));
  {
    g_autoptr(PgsDamonAccess) access = pgs_damon_access_new (0);
    g_autoptr(GError) error = NULL;

    g_assert_true (pgs_helper_read_access (helper, 1, access, NULL, NULL, NULL, &error));
    g_assert_no_error (error);
  }
  g_clear_object (&helper);
  status = pgs_test_wait_exit (pid);
  g_assert_true (status != -1 && WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 0);
  after = pagescope_instances ();
  g_assert_nonnull (after);
  for (guint i = 0; after[i] != NULL; i++)
    if (*after[i] != '\0' && !g_strv_contains ((const char * const *) before, after[i]))
      g_error ("tracefs instance %s left after a cancelled read", after[i]);
}

/* The protocol itself: STOP mid-read ends it with END; any other datagram mid-read ends it
 * with ERR 22; either way well before its 30 s, and the helper serves on. */
static void
test_stop_raw (void)
{
  static const struct { const char *mid; const char *last; } cases[] = {
    { "STOP\n", "END\n" },
    { "OPEN 1 maps\n", "ERR 22 only STOP may be sent during ACCESS\n" },
  };
  g_autofree char *pkcheck = NULL;
  struct timeval timeout = { 20, 0 };
  static char buf[20000];
  int sock, status;
  pid_t pid;

  if (require_kdamond () == 0)
    return;
  pkcheck = pgs_test_fake_pkcheck (tmpdir, "grant-raw", 0);
  {
    PgsTestHelper how = { helper_test_path, NOBODY, NOBODY_TEXT, pkcheck };

    sock = pgs_test_helper_start (&how, &pid);
  }
  g_assert_cmpstr (pgs_test_helper_greeting (sock), ==, "PAGESCOPE-HELPER 1\n");
  g_assert_no_errno (setsockopt (sock, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout));
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      gint64 started = g_get_monotonic_time ();
      ssize_t n;

      g_assert_cmpint (send (sock, "ACCESS 30\n", 10, 0), ==, 10);
      n = recv (sock, buf, sizeof buf - 1, 0);
      g_assert_cmpint (n, >, 0);
      buf[n] = '\0';
      g_assert_true (g_str_has_prefix (buf, "OK pagescope-"));
      g_usleep (500000);
      g_assert_cmpint (send (sock, cases[i].mid, strlen (cases[i].mid), 0), ==,
                       (ssize_t) strlen (cases[i].mid));
      do
        n = recv (sock, buf, sizeof buf - 1, 0);
      while (n > 0 && buf[0] == '+');
      g_assert_cmpint (n, >, 0);
      buf[n] = '\0';
      g_assert_cmpstr (buf, ==, cases[i].last);
      g_assert_cmpint (g_get_monotonic_time () - started, <, 10 * G_USEC_PER_SEC);
    }
  close (sock);
  status = pgs_test_wait_exit (pid);
  g_assert_true (status != -1 && WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 0);
}

int
main (int   argc,
      char *argv[])
{
  pgs_kernel_init ();
  g_test_init (&argc, &argv, NULL);

  helper_test_path = g_getenv ("PGS_HELPER_TEST");
  g_assert_nonnull (helper_test_path);
  tmpdir = pgs_kernel_make_tmpdir ("helper-client-access");

  g_test_add_func ("/pgs/helper/client-access/read", test_read);
  g_test_add_func ("/pgs/helper/client-access/cancel", test_cancel);
  g_test_add_func ("/pgs/helper/client-access/stop-raw", test_stop_raw);

  return g_test_run ();
}
