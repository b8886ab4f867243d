/* test-access-helper.c: the Access page for a user, locked (an Unlock button) and
 * unlocked (reading through the session's helper)
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The DAMON sysfs tree is test-access.c's running kdamond (aggregating every 5 s, so a
 * read of 10 s). A thread plays the helper on a socketpair (as tests/unit/
 * test-helper-access.c does): it greets, takes "ACCESS 10", and answers with two
 * aggregations of two regions in damon:damon_aggregated's format, cut mid-line between
 * two chunks, then "END". Also with DAMON's sysfs unreadable, as a real kernel has it for
 * a user (its files are 0600): the page still offers Unlock, and reads through the
 * helper for 10 s. Run under xvfb-run; without a display it skips (exit 77).
 */

#include "config.h"

#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include "pgs-access-page-private.h"
#include "pgs-fixture.h"
#include "pgs-session.h"
#include "pgs-ui-util.h"
#include "src/helper/pgs-helper-protocol.h"

#define ADMIN "kernel/mm/damon/admin/kdamonds/"
#define CTX ADMIN "0/contexts/0/"
#define LINE(ts, body) "       kdamond.0-107     [003] ..... " ts ": damon_aggregated: " body "\n"

/* Aggregation 1 (10 s): 1–3 MiB accessed in 10 of 10 samples; 3–4 MiB in 0.
 * Aggregation 2 (15 s): 1–3 MiB in 5; 3–4 MiB in 4. */
static const char trace[] =
  LINE ("10.000000", "target_id=0 nr_regions=2 1048576-3145728: 10 2")
  LINE ("10.000000", "target_id=0 nr_regions=2 3145728-4194304: 0 9")
  LINE ("15.000000", "target_id=0 nr_regions=2 1048576-3145728: 5 0")
  LINE ("15.000000", "target_id=0 nr_regions=2 3145728-4194304: 4 3");

static void
write_running_kdamond (PgsFixture *fx)
{
  pgs_fixture_write (fx, ADMIN "nr_kdamonds", "1\n", -1);
  pgs_fixture_write (fx, ADMIN "0/state", "on\n", -1);
  pgs_fixture_write (fx, ADMIN "0/pid", "107\n", -1);
  pgs_fixture_write (fx, ADMIN "0/contexts/nr_contexts", "1\n", -1);
  pgs_fixture_write (fx, CTX "operations", "paddr\n", -1);
  pgs_fixture_write (fx, CTX "monitoring_attrs/intervals/sample_us", "500000\n", -1);
  pgs_fixture_write (fx, CTX "monitoring_attrs/intervals/aggr_us", "5000000\n", -1);
  pgs_fixture_write (fx, CTX "monitoring_attrs/intervals/update_us", "60000000\n", -1);
  pgs_fixture_write (fx, CTX "monitoring_attrs/nr_regions/min", "10\n", -1);
  pgs_fixture_write (fx, CTX "monitoring_attrs/nr_regions/max", "1000\n", -1);
  pgs_fixture_write (fx, CTX "schemes/nr_schemes", "0\n", -1);
  pgs_fixture_write (fx, CTX "targets/nr_targets", "1\n", -1);
  pgs_fixture_write (fx, CTX "targets/0/pid_target", "0\n", -1);
  pgs_fixture_write (fx, CTX "targets/0/regions/nr_regions", "0\n", -1);
}

typedef struct
{
  GtkWidget     *window;
  PgsSession    *session;
  PgsAccessPage *page;
  PgsFixture    *fx;
} Fixture;

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  f->fx = pgs_fixture_new ();
  write_running_kdamond (f->fx);
  f->session = pgs_session_new ();
  f->page = g_object_new (PGS_TYPE_ACCESS_PAGE, "session", f->session,
                          "sysfs-root", pgs_fixture_get_root (f->fx), NULL);
  /* As a normal user, whoever runs the test. */
  _pgs_access_page_set_privileged (f->page, FALSE);
  f->window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (f->window), 1000, 700);
  gtk_window_set_child (GTK_WINDOW (f->window), GTK_WIDGET (f->page));
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  gtk_window_destroy (GTK_WINDOW (f->window));
  g_clear_object (&f->session);
  g_clear_pointer (&f->fx, pgs_fixture_free);
}

static gboolean
has_state (gpointer data)
{
  return pgs_access_page_get_state (data) != NULL;
}

static void
present (Fixture *f)
{
  gtk_window_present (GTK_WINDOW (f->window));
  g_assert_true (pgs_ui_wait (has_state, f->page, 10000));
}

static void
assert_contains (const char *text,
                 const char *part)
{
  if (text == NULL || strstr (text, part) == NULL)
    g_error ("“%s” not in “%s”", part, text ? text : "(null)");
}

static void
on_unlock (GSimpleAction *action,
           GVariant      *parameter,
           gpointer       user_data)
{
  (*(guint *) user_data)++;
}

static void
test_unlock_button (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr(GSimpleActionGroup) group = g_simple_action_group_new ();
  g_autoptr(GSimpleAction) unlock = g_simple_action_new ("unlock", NULL);
  GtkWidget *button = _pgs_access_page_get_unlock_button (f->page);
  guint activated = 0;

  /* The window's action, as PgsWindow installs it: the page only names it. */
  g_signal_connect (unlock, "activate", G_CALLBACK (on_unlock), &activated);
  g_action_map_add_action (G_ACTION_MAP (group), G_ACTION (unlock));
  gtk_widget_insert_action_group (f->window, "win", G_ACTION_GROUP (group));
  present (f);

  g_assert_cmpstr (pgs_access_page_get_state (f->page), ==, "unprivileged");
  assert_contains (_pgs_access_page_get_description (f->page), "only root");
  assert_contains (_pgs_access_page_get_description (f->page), "Unlocking lets Pagescope’s "
                   "helper do it for you");
  g_assert_true (gtk_widget_get_visible (button));
  g_assert_false (gtk_widget_get_visible (_pgs_access_page_get_read_button (f->page)));
  g_assert_cmpstr (gtk_actionable_get_action_name (GTK_ACTIONABLE (button)), ==, "win.unlock");
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (button)), ==, "_Unlock…");
  pgs_ui_spin (100);
  g_assert_true (gtk_widget_is_sensitive (button));
  g_signal_emit_by_name (button, "clicked");
  g_assert_cmpuint (activated, ==, 1);

  /* Root needs no unlocking: the button goes. */
  _pgs_access_page_set_privileged (f->page, TRUE);
  _pgs_access_page_update_state (f->page);
  g_assert_cmpstr (pgs_access_page_get_state (f->page), ==, "ready");
  g_assert_false (gtk_widget_get_visible (button));
}

typedef struct
{
  int      sock;
  char     request[64];
  gboolean hung_up;
} FakeHelper;

static void
send_frame (int         sock,
            const char *data,
            gsize       len)
{
  g_assert_cmpint (send (sock, data, len, MSG_NOSIGNAL), ==, (gssize) len);
}

static gpointer
fake_helper (gpointer data)
{
  FakeHelper *fake = data;
  /* The third line cut after 60 bytes. */
  gsize cut = strlen (LINE ("10.000000", "target_id=0 nr_regions=2 1048576-3145728: 10 2")) * 2 + 60;
  g_autofree char *first = g_strdup_printf ("+%.*s", (int) cut, trace);
  g_autofree char *second = g_strdup_printf ("+%s", trace + cut);
  ssize_t n;

  send_frame (fake->sock, PGS_HELPER_GREETING, strlen (PGS_HELPER_GREETING));
  n = recv (fake->sock, fake->request, sizeof fake->request - 1, 0);
  g_assert_cmpint (n, >, 0);
  fake->request[n] = '\0';
  send_frame (fake->sock, "OK pagescope-4242-0badcafe 0\n", 29);
  send_frame (fake->sock, first, strlen (first));
  send_frame (fake->sock, second, strlen (second));
  send_frame (fake->sock, "END\n", 4);
  /* Served: the next thing from the client is its going. */
  fake->hung_up = recv (fake->sock, fake->request + n + 1, 8, 0) == 0;
  close (fake->sock);
  return NULL;
}

/* A helper on a socketpair, played by fake_helper in THREAD. */
static PgsHelper *
start_fake (FakeHelper  *fake,
            GThread    **thread)
{
  g_autoptr(GError) error = NULL;
  PgsHelper *helper;
  int sv[2];

  g_assert_no_errno (socketpair (AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv));
  fake->sock = sv[1];
  *thread = g_thread_new ("fake-helper", fake_helper, fake);
  helper = pgs_helper_new_for_fd (sv[0], &error);
  g_assert_no_error (error);
  return helper;
}

static gboolean
is_ready (gpointer data)
{
  return g_strcmp0 (pgs_access_page_get_state (data), "ready") == 0;
}

static gboolean
shows_heat (gpointer data)
{
  return g_strcmp0 (pgs_access_page_get_state (data), "heat") == 0 ||
         g_strcmp0 (pgs_access_page_get_state (data), "failed") == 0;
}

static void
test_through_helper (Fixture       *f,
                     gconstpointer  data)
{
  FakeHelper fake = { -1, "", FALSE };
  g_autoptr(PgsHelper) helper = NULL;
  g_autofree char *legend = NULL;
  GThread *thread;

  present (f);
  g_assert_cmpstr (pgs_access_page_get_state (f->page), ==, "unprivileged");

  helper = start_fake (&fake, &thread);

  /* Unlocked: ready to read through the helper, for two aggregations of 5 s. */
  pgs_session_set_helper (f->session, helper);
  g_assert_true (pgs_ui_wait (is_ready, f->page, 10000));
  assert_contains (_pgs_access_page_get_description (f->page), "takes 10 s");
  assert_contains (_pgs_access_page_get_description (f->page), "through Pagescope’s helper");
  g_assert_false (gtk_widget_get_visible (_pgs_access_page_get_unlock_button (f->page)));
  g_assert_true (gtk_widget_get_visible (_pgs_access_page_get_read_button (f->page)));

  g_signal_emit_by_name (_pgs_access_page_get_read_button (f->page), "clicked");
  g_assert_true (pgs_ui_wait (shows_heat, f->page, 10000));
  g_assert_cmpstr (pgs_access_page_get_state (f->page), ==, "heat");
  g_assert_cmpstr (fake.request, ==, "ACCESS 10\n");

  /* The canned lines, parsed as the root read parses them: two aggregations of 1–4 MiB. */
  legend = _pgs_access_page_get_legend (f->page);
  assert_contains (legend, "kdamond PID 107): 2 aggregations, 10.000000 s to 15.000000 s");
  assert_contains (legend, "0x100000 (top) to 0x400000 (bottom), 3.0 MiB monitored; 0 gaps");
  assert_contains (legend, "0 to 10 samples of an aggregation (0 to 2.00 per second)");
  g_assert_true (pgs_helper_is_running (helper));

  /* Locked again: the helper goes (its socket closed), and the page says it needs root. */
  pgs_session_set_helper (f->session, NULL);
  g_clear_object (&helper);
  g_thread_join (thread);
  g_assert_true (fake.hung_up);
  _pgs_access_page_update_state (f->page);
  g_assert_cmpstr (pgs_access_page_get_state (f->page), ==, "unprivileged");
  pgs_ui_spin (100);
}

/* DAMON's files are root's (0600) on a real kernel: nr_kdamonds made unreadable, and
 * when the test runs as root, the page run as nobody meanwhile (root reads any file). */
static void
as_user (Fixture  *f,
         gboolean  on)
{
  g_autofree char *path = g_build_filename (pgs_fixture_get_root (f->fx), ADMIN "nr_kdamonds",
                                            NULL);

  if (!on && geteuid () != getuid ())
    g_assert_no_errno (seteuid (getuid ()));
  g_assert_no_errno (chmod (path, on ? 0 : 0644));
  if (on && getuid () == 0)
    g_assert_no_errno (seteuid (65534));
}

static void
test_unreadable (Fixture       *f,
                 gconstpointer  data)
{
  FakeHelper fake = { -1, "", FALSE };
  g_autoptr(PgsHelper) helper = NULL;
  g_autofree char *legend = NULL;
  GThread *thread;

  present (f);
  helper = start_fake (&fake, &thread);

  /* Locked: still the unprivileged state and its Unlock button, no monitor named. */
  as_user (f, TRUE);
  _pgs_access_page_update_state (f->page);
  g_assert_cmpstr (pgs_access_page_get_state (f->page), ==, "unprivileged");
  assert_contains (_pgs_access_page_get_description (f->page), "root’s to read");
  assert_contains (_pgs_access_page_get_description (f->page), "Unlocking lets Pagescope’s "
                   "helper do it for you");
  g_assert_true (gtk_widget_get_visible (_pgs_access_page_get_unlock_button (f->page)));

  /* Unlocked: ready for 10 s (the intervals unknown), and the read gives the heat. */
  pgs_session_set_helper (f->session, helper);
  g_assert_cmpstr (pgs_access_page_get_state (f->page), ==, "ready");
  assert_contains (_pgs_access_page_get_description (f->page), "takes 10 s");
  g_signal_emit_by_name (_pgs_access_page_get_read_button (f->page), "clicked");
  g_assert_true (pgs_ui_wait (shows_heat, f->page, 10000));
  as_user (f, FALSE);
  g_assert_cmpstr (pgs_access_page_get_state (f->page), ==, "heat");
  g_assert_cmpstr (fake.request, ==, "ACCESS 10\n");
  legend = _pgs_access_page_get_legend (f->page);
  assert_contains (legend, "kdamond PID 107): 2 aggregations, 10.000000 s to 15.000000 s");
  assert_contains (legend, "(the monitor’s intervals are unknown)");

  pgs_session_set_helper (f->session, NULL);
  g_clear_object (&helper);
  g_thread_join (thread);
  g_assert_true (fake.hung_up);
}

int
main (int    argc,
      char **argv)
{
  pgs_ui_init (&argc, &argv);

  g_test_add ("/pgs/ui/access/unlock-button", Fixture, NULL, fixture_set_up,
              test_unlock_button, fixture_tear_down);
  g_test_add ("/pgs/ui/access/through-helper", Fixture, NULL, fixture_set_up,
              test_through_helper, fixture_tear_down);
  g_test_add ("/pgs/ui/access/unreadable", Fixture, NULL, fixture_set_up, test_unreadable,
              fixture_tear_down);
  return g_test_run ();
}
