/* pgs-minimal-window.c: the yardstick for the app's own cost, a minimal libadwaita window
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * An AdwApplicationWindow with one label, under whatever renderer GTK picks, as issue 22
 * names it. It logs its first painted frame as the app does (pgs-first-frame.h), then stays
 * until it is killed.
 */

#include <adwaita.h>

#include "pgs-first-frame.h"

static void
activate (GtkApplication *app)
{
  GtkWidget *window = adw_application_window_new (app);

  gtk_window_set_title (GTK_WINDOW (window), "Minimal");
  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 720);
  adw_application_window_set_content (ADW_APPLICATION_WINDOW (window),
                                      gtk_label_new ("A minimal libadwaita window"));
  pgs_first_frame_log (window);
  gtk_window_present (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(AdwApplication) app = adw_application_new ("io.github.pagescope.MinimalWindow",
                                                       G_APPLICATION_NON_UNIQUE);

  g_signal_connect (app, "activate", G_CALLBACK (activate), NULL);
  return g_application_run (G_APPLICATION (app), argc, argv);
}
