/* pgs-cell.h: the cell of the app's tables, and the closures their templates call
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "pagescope.h"
#include "pgs-units.h"

G_BEGIN_DECLS

/* A table cell declared in a template: a label whose tooltip is plain data, handed over
 * only when asked for (see pgs-cell.c), and whose text is set only when it changes. Its
 * "page" (the PgsPage showing it) and "units" (that page's session's) are for bindings. */
#define PGS_TYPE_CELL (pgs_cell_get_type ())
G_DECLARE_FINAL_TYPE (PgsCell, pgs_cell, PGS, CELL, GtkWidget)

/* Template closures (each view binds them as callbacks). @metric names a guint64 property
 * of @item ("pss"); @item has a "known" property of PgsMetric flags and, where they are
 * unknown, an "unknown-reason". */
const char *pgs_cell_get_text (PgsCell *self);
char       *pgs_cell_get_tip  (PgsCell *self);

char *pgs_cell_size      (gpointer    this,
                          GObject    *item,
                          const char *metric);
/* The same in @units. */
char *pgs_cell_size_in   (gpointer    this,
                          GObject    *item,
                          const char *metric,
                          PgsUnits    units);
char *pgs_cell_size_tip  (gpointer    this,
                          GObject    *item,
                          const char *metric);
char *pgs_cell_count     (gpointer    this,
                          guint       count);
/* The metric a closure's @metric names ("pss": PGS_METRIC_PSS). */
PgsMetric pgs_cell_metric_named (const char *name);
/* Binds the closures above in @widget_class's template scope. */
void  pgs_cell_class_add_callbacks (GtkWidgetClass *widget_class);

G_END_DECLS
