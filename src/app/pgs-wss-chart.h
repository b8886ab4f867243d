/* pgs-wss-chart.h: the working set of a process over a series of samples
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "pagescope.h"

G_BEGIN_DECLS

#define PGS_TYPE_WSS_CHART (pgs_wss_chart_get_type ())

G_DECLARE_FINAL_TYPE (PgsWssChart, pgs_wss_chart, PGS, WSS_CHART, GtkWidget)

GtkWidget *pgs_wss_chart_new          (void);
/* @samples: (element-type PgsWssSample) (nullable): oldest first; the chart keeps a
 * reference to the array. */
void       pgs_wss_chart_set_samples  (PgsWssChart *self,
                                       GPtrArray   *samples);
/* The points drawn: one per sample. */
guint      pgs_wss_chart_get_n_points (PgsWssChart *self);
/* The top of the value axis, in bytes: a round IEC size at or above the largest point. */
guint64    pgs_wss_chart_get_axis_max (PgsWssChart *self);

G_END_DECLS
