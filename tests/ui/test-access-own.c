/* test-access-own.c: the Access page's Start a Memory Access Monitor, on a fake DAMON tree
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Where no kdamond runs and DAMON's sysfs is free, the page (as root: privileged) offers
 * to start a kdamond of Pagescope's own; clicking starts it on the fake tree (the files
 * the writer writes, src/helper/pgs-kdamond-writer.h); closing the window removes it, the
 * tree as it was byte for byte. Where the sysfs is not free, the button is not offered.
 * Run under xvfb-run; without a display it skips (exit 77).
 */

#include "config.h"

#include <string.h>

#include "pgs-access-page-private.h"
#include "pgs-fixture.h"
#include "pgs-session.h"
#include "pgs-ui-util.h"

#define ADMIN "kernel/mm/damon/admin/kdamonds/"
#define CTX ADMIN "0/contexts/0/"

static char *
read_fake (PgsFixture *fx,
           const char *rel)
{
  g_autofree char *path = g_build_filename (pgs_fixture_get_root (fx), rel, NULL);
  char *text = NULL;

  g_file_get_contents (path, &text, NULL, NULL);
  return text;
}

static gboolean
has_state (gpointer data)
{
  return pgs_access_page_get_state (data) != NULL;
}

static gboolean
fake_on (gpointer data)
{
  g_autofree char *state = read_fake (data, ADMIN "0/state");

  return g_strcmp0 (state, "on\n") == 0;
}

static gboolean
has_own (gpointer data)
{
  return _pgs_access_page_has_own_monitor (data);
}

static void
test_start (void)
{
  g_autoptr(PgsFixture) fx = pgs_fixture_new ();
  g_autoptr(PgsSession) session = pgs_session_new ();
  PgsAccessPage *page;
  GtkWidget *window, *start;
  g_autofree char *nr_before = NULL;
  g_autofree char *ops = NULL;
  g_autofree char *state = NULL;
  g_autofree char *nr_after = NULL;
  g_autofree char *ops_after = NULL;

  pgs_fixture_add_free_damon (fx);
  nr_before = read_fake (fx, ADMIN "nr_kdamonds");
  page = g_object_new (PGS_TYPE_ACCESS_PAGE, "session", session,
                       "sysfs-root", pgs_fixture_get_root (fx), NULL);
  _pgs_access_page_set_privileged (page, TRUE);
  window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (window), 1000, 700);
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (page));
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (pgs_ui_wait (has_state, page, 10000));

  g_assert_cmpstr (pgs_access_page_get_state (page), ==, "no-kdamond");
  g_assert_nonnull (strstr (_pgs_access_page_get_description (page),
                            "Pagescope may start a monitor of its own for this session"));
  start = _pgs_access_page_get_start_button (page);
  g_assert_true (gtk_widget_get_visible (start));
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (start)), ==, "_Start a Memory Access Monitor");
  g_assert_false (gtk_widget_get_visible (_pgs_access_page_get_read_button (page)));

  /* Started on the fake tree (then read as any other: on the machine's tracefs as root,
   * a failure otherwise, whichever: the page keeps its monitor either way). */
  g_signal_emit_by_name (start, "clicked");
  g_assert_true (pgs_ui_wait (has_own, page, 10000));
  g_assert_true (fake_on (fx));
  ops = read_fake (fx, CTX "operations");
  g_assert_cmpstr (ops, ==, "paddr\n");

  /* The window closes: the monitor goes, every file as it was. */
  gtk_window_destroy (GTK_WINDOW (window));
  state = read_fake (fx, ADMIN "0/state");
  nr_after = read_fake (fx, ADMIN "nr_kdamonds");
  ops_after = read_fake (fx, CTX "operations");
  g_assert_cmpstr (state, ==, "off\n");
  g_assert_cmpstr (nr_after, ==, nr_before);
  g_assert_cmpstr (ops_after, ==, "vaddr\n");
}

/* Not free (DAMON_RECLAIM runs one): no button, the reason given. */
static void
test_not_free (void)
{
  g_autoptr(PgsFixture) fx = pgs_fixture_new ();
  g_autoptr(PgsSession) session = pgs_session_new ();
  PgsAccessPage *page;
  GtkWidget *window;

  pgs_fixture_add_free_damon (fx);
  pgs_fixture_write (fx, "module/damon_reclaim/parameters/enabled", "Y\n", -1);
  page = g_object_new (PGS_TYPE_ACCESS_PAGE, "session", session,
                       "sysfs-root", pgs_fixture_get_root (fx), NULL);
  _pgs_access_page_set_privileged (page, TRUE);
  window = gtk_window_new ();
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (page));
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (pgs_ui_wait (has_state, page, 10000));
  g_assert_cmpstr (pgs_access_page_get_state (page), ==, "no-kdamond");
  g_assert_nonnull (strstr (_pgs_access_page_get_description (page),
                            "Pagescope may not start a monitor of its own: damon_reclaim is "
                            "enabled"));
  g_assert_false (gtk_widget_get_visible (_pgs_access_page_get_start_button (page)));
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int    argc,
      char **argv)
{
  pgs_ui_init (&argc, &argv);

  g_test_add_func ("/pgs/ui/access-own/start", test_start);
  g_test_add_func ("/pgs/ui/access-own/not-free", test_not_free);
  return g_test_run ();
}
