/* pgs-first-frame.h: the yardstick windows' log of their first painted frame
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Logs the monotonic time of the window's first painted frame on stdout, in the words the
 * app uses ("First frame painted at N µs (monotonic)"), so that bench-app-cost.py reads
 * the app and its yardsticks the same way. Header-only: each yardstick is one file.
 */

#pragma once

#include <gtk/gtk.h>
#include <stdio.h>

static void
pgs_first_frame_after_paint (GdkFrameClock *clock,
                             gpointer       user_data)
{
  printf ("First frame painted at %" G_GINT64_FORMAT " µs (monotonic)\n", g_get_monotonic_time ());
  fflush (stdout);
  g_signal_handlers_disconnect_by_func (clock, pgs_first_frame_after_paint, user_data);
}

static void
pgs_first_frame_mapped (GtkWidget *window)
{
  g_signal_connect (gtk_widget_get_frame_clock (window), "after-paint",
                    G_CALLBACK (pgs_first_frame_after_paint), NULL);
}

/* Call before the window is presented. */
static inline void
pgs_first_frame_log (GtkWidget *window)
{
  g_signal_connect (window, "map", G_CALLBACK (pgs_first_frame_mapped), NULL);
}
