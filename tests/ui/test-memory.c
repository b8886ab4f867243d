/* test-memory.c: the app's memory does not grow with refreshes
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every view visited, 20 refreshes, then 100 more: the kernel's Anonymous figure for this
 * process (the window's own) after the 100 stays within 8 MB of the figure after the 20.
 * A leak of one snapshot per refresh (the smallest holds every process's figures, some
 * 100 KB here, and a page scan megabytes) grows it by far more. Run under xvfb-run;
 * without a display it skips (exit 77).
 */

#include "config.h"

#include <unistd.h>

#include "pgs-ui-memory.h"

#define MARGIN (8 * 1024 * 1024)

static void
test_no_growth (void)
{
  PgsApplication *app;
  PgsWindow *window;
  PgsUiMemory after20, after100;

  window = pgs_ui_open_window (&app);
  pgs_ui_wait_idle_scan (window);
  pgs_window_select_pid (window, getpid ());
  pgs_ui_memory_visit_all (window);

  pgs_ui_memory_refresh (window, 20);
  pgs_ui_memory_read (&after20);
  pgs_ui_memory_refresh (window, 100);
  pgs_ui_memory_read (&after100);

  g_test_message ("anonymous after 20 refreshes %" G_GUINT64_FORMAT " KB, after 100 more %"
                  G_GUINT64_FORMAT " KB", after20.anonymous / 1024, after100.anonymous / 1024);
  g_assert_cmpuint (after100.anonymous, <=, after20.anonymous + MARGIN);

  gtk_window_destroy (GTK_WINDOW (window));
  g_object_unref (app);
}

int
main (int   argc,
      char *argv[])
{
  pgs_ui_init (&argc, &argv);
  g_test_add_func ("/pgs/ui/memory/no-growth", test_no_growth);
  return g_test_run ();
}
