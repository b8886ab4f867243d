/* test-no-bus.c: views switch where no setting can be saved
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * As `sudo pagescope` runs: GSettings on dconf, and no session bus for dconf to commit
 * through. Each change of a setting would then be undone a moment later; the page on
 * screen must not be one of them. The test clears the bus from its own environment (it
 * runs under xvfb-run without dbus-run-session) and skips where a bus can still be found.
 */

#include "config.h"

#include <stdlib.h>

#include "pgs-ui-util.h"

static gboolean
never (gpointer data)
{
  return FALSE;
}

/* Switches with the action Alt+N activates (win.view::VIEW), then waits for what a failed
 * commit would undo. */
static void
switch_view (PgsWindow  *window,
             const char *view)
{
  GtkStack *stack;

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.view", "s", view));
  pgs_ui_wait (never, NULL, 1500);
  g_assert_cmpstr (pgs_window_get_view (window), ==, view);
  stack = GTK_STACK (gtk_widget_get_ancestor (GTK_WIDGET (pgs_window_get_map_page (window,
                                                                                 PGS_VIEW_RESIDENCY)),
                                              GTK_TYPE_STACK));
  g_assert_cmpstr (gtk_stack_get_visible_child_name (stack), ==, view);
}

static void
test_switch_view (void)
{
  g_autoptr(GDBusConnection) bus = g_bus_get_sync (G_BUS_TYPE_SESSION, NULL, NULL);
  PgsApplication *app = NULL;
  PgsWindow *window;

  if (bus != NULL)
    {
      g_test_skip ("A session bus was found all the same");
      return;
    }
  window = pgs_ui_open_window (&app);
  pgs_ui_wait_idle_scan (window);

  /* From whichever view the user's settings remember: Pages (Alt+4), the list (Alt+1),
   * Pages again. */
  switch_view (window, g_str_equal (pgs_window_get_view (window), "residency") ? "processes"
                                                                               : "residency");
  switch_view (window, "processes");
  switch_view (window, "residency");

  gtk_window_destroy (GTK_WINDOW (window));
  g_application_quit (G_APPLICATION (app));
  g_clear_object (&app);
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *runtime = g_dir_make_tmp ("pgs-no-bus-XXXXXX", NULL);

  /* Before GIO reads them: dconf, and neither a bus address nor a runtime directory that
   * holds one. */
  g_setenv ("GSETTINGS_BACKEND", "dconf", TRUE);
  g_unsetenv ("DBUS_SESSION_BUS_ADDRESS");
  g_setenv ("XDG_RUNTIME_DIR", runtime, TRUE);
  pgs_ui_init (&argc, &argv);
  g_test_add_func ("/pgs/ui/no-bus/switch-view", test_switch_view);
  return g_test_run ();
}
