/* pgs-sparkline.h: a figure over time, drawn small in a table cell
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define PGS_TYPE_SPARKLINE (pgs_sparkline_get_type ())

G_DECLARE_FINAL_TYPE (PgsSparkline, pgs_sparkline, PGS, SPARKLINE, GtkWidget)

/* "points": GBytes of floats, oldest first, NaN where there is no value (the line breaks
 * there); scaled from 0 to their largest. Set by a template binding. */
GtkWidget *pgs_sparkline_new        (void);
void       pgs_sparkline_set_points (PgsSparkline *self,
                                     GBytes       *points);
GBytes    *pgs_sparkline_get_points (PgsSparkline *self);

G_END_DECLS
