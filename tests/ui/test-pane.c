/* test-pane.c: the process list takes the space; the detail is a pane the user sizes or hides
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Issue 21, item 11: at the default size the list showed 6 rows, half the window a "No
 * Process Selected" placeholder. At the default window size (1100x720) the list now shows
 * at least 9 rows; F9 (app.show-detail) hides the detail and the list takes its place; where
 * the user leaves the divider is where the next window puts it.
 */

#include "config.h"

#include "pgs-ui-util.h"

static GtkPaned *
detail_paned (PgsWindow *window)
{
  GtkWidget *detail = GTK_WIDGET (pgs_window_get_process_detail (window));
  GtkWidget *paned = gtk_widget_get_parent (detail);

  g_assert_true (GTK_IS_PANED (paned));
  return GTK_PANED (paned);
}

static void
test_list_takes_the_space (void)
{
  PgsApplication *app = NULL;
  PgsWindow *window = pgs_ui_open_window (&app);
  GSettings *settings = pgs_application_get_settings (app);
  GtkWidget *detail = GTK_WIDGET (pgs_window_get_process_detail (window));
  double with_detail, without_detail;
  int width, height;

  pgs_ui_wait_idle_scan (window);
  gtk_window_get_default_size (GTK_WINDOW (window), &width, &height);
  g_test_message ("window %dx%d", width, height);
  with_detail = pgs_ui_rows_in_view (window);
  g_test_message ("rows in view with the detail: %.1f", with_detail);
  g_assert_cmpfloat (with_detail, >=, 9);
  g_assert_true (gtk_widget_get_visible (detail));

  /* F9: the detail goes, the list has the window. */
  g_action_group_activate_action (G_ACTION_GROUP (app), "show-detail", NULL);
  g_assert_false (g_settings_get_boolean (settings, "show-detail"));
  g_assert_false (gtk_widget_get_visible (detail));
  gtk_test_widget_wait_for_draw (GTK_WIDGET (window));
  pgs_ui_spin (100);
  without_detail = pgs_ui_rows_in_view (window);
  g_test_message ("rows in view without it: %.1f", without_detail);
  g_assert_cmpfloat (without_detail, >, with_detail + 3);
  g_action_group_activate_action (G_ACTION_GROUP (app), "show-detail", NULL);
  g_assert_true (gtk_widget_get_visible (detail));

  /* The divider where the user left it, in the next window. */
  gtk_paned_set_position (detail_paned (window), 333);
  gtk_window_close (GTK_WINDOW (window));
  g_assert_cmpint (g_settings_get_int (settings, "detail-position"), ==, 333);
  window = pgs_window_new (app);
  gtk_window_present (GTK_WINDOW (window));
  gtk_test_widget_wait_for_draw (GTK_WIDGET (window));
  g_assert_cmpint (gtk_paned_get_position (detail_paned (window)), ==, 333);

  gtk_window_destroy (GTK_WINDOW (window));
  g_object_unref (app);
}

int
main (int    argc,
      char **argv)
{
  pgs_ui_init (&argc, &argv);
  g_test_add_func ("/ui/pane/list-takes-the-space", test_list_takes_the_space);
  return g_test_run ();
}
