/* pgs-process-columns.h: what the process list's cells and sort orders call
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "pagescope.h"
#include "pgs-row.h"

G_BEGIN_DECLS

/* Binds the closures of ui/pgs-process-list.ui's columns in @widget_class's template scope. */
void      pgs_process_columns_class_add_callbacks (GtkWidgetClass *widget_class);
/* The PgsRow of a list item, a PgsRow or a GtkTreeListRow of one. */
PgsRow   *pgs_process_columns_get_row   (gpointer item);
/* For pgs_row_store_merge(): a process's PID, and whether two show the same. */
gint64    pgs_process_columns_key       (gpointer process);
gboolean  pgs_process_columns_equal     (gpointer a,
                                         gpointer b);

G_END_DECLS
