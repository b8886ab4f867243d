/* pgs-minimal-window.c: the yardstick for the app's own cost, a minimal libadwaita window
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * An AdwApplicationWindow with one label, under whatever renderer GTK picks, as issue 22
 * names it. It logs the monotonic time of its first painted frame on stdout, in the words
 * the app uses ("First frame painted at N µs (monotonic)"), so that bench-app-cost.py reads
 * both the same way; then it stays until it is killed.
 */

#include <adwaita.h>
#include <stdio.h>

static void
after_paint (GdkFrameClock *clock,
             gpointer       user_data)
{
  printf ("First frame painted at %" G_GINT64_FORMAT " µs (monotonic)\n", g_get_monotonic_time ());
  fflush (stdout);
  g_signal_handlers_disconnect_by_func (clock, after_paint, user_data);
}

static void
mapped (GtkWidget *window)
{
  GdkFrameClock *clock = gtk_widget_get_frame_clock (window);

  g_signal_connect (clock, "after-paint", G_CALLBACK (after_paint), NULL);
}

static void
activate (GtkApplication *app)
{
  GtkWidget *window = adw_application_window_new (app);

  gtk_window_set_title (GTK_WINDOW (window), "Minimal");
  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 720);
  adw_application_window_set_content (ADW_APPLICATION_WINDOW (window),
                                      gtk_label_new ("A minimal libadwaita window"));
  g_signal_connect (window, "map", G_CALLBACK (mapped), NULL);
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
