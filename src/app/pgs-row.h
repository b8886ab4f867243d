/* pgs-row.h: one row of a list, kept across refreshes
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define PGS_TYPE_ROW (pgs_row_get_type ())

G_DECLARE_FINAL_TYPE (PgsRow, pgs_row, PGS, ROW, GObject)

PgsRow   *pgs_row_new      (gpointer  item);
gpointer  pgs_row_get_item (PgsRow   *self);
void      pgs_row_set_item (PgsRow   *self,
                            gpointer  item);

/* The key a list is ordered by (a PID, an address), for pgs_row_store_merge(). */
typedef gint64   (*PgsRowKeyFunc)   (gpointer item);
/* Whether two items of the same key would show the same in every cell. */
typedef gboolean (*PgsRowEqualFunc) (gpointer a,
                                     gpointer b);

/* Brings @store (of PgsRow) to the items of @items, both in increasing key order: rows whose
 * key is still there get the new item in place (silently where @equal says nothing shown
 * changed), the others are removed or added, one splice per run of changes. */
void      pgs_row_store_merge (GListStore      *store,
                               GListModel      *items,
                               PgsRowKeyFunc    key,
                               PgsRowEqualFunc  equal);

/* Brings @store (of PgsRow) to the items of @items by position: row i gets item i (silently
 * where @equal says nothing shown changed), and only the rows past the end of the shorter
 * list come or go. For lists whose rows nobody selects: no row widget is ever rebuilt. */
void      pgs_row_store_assign (GListStore      *store,
                                GListModel      *items,
                                PgsRowEqualFunc  equal);

/* Sorts @model (a GtkSortListModel) again if the rows' new items broke its order, and only
 * then: a re-sort re-emits every row and costs a rebind of each visible one. */
void      pgs_row_resort_if_needed (GListModel *model,
                                    GtkSorter  *sorter);

/* The items of @rows (PgsRow, or GtkTreeListRow of PgsRow), each read when asked for:
 * GtkMapListModel keeps the items it made while anyone holds them, which for rows whose
 * item a refresh replaces in place is the last snapshot's, and not always the same row's. */
GListModel *pgs_row_items_new (GListModel *rows);

/* A GtkMapListModel function: row → its item. */
gpointer  pgs_row_map_to_item (gpointer item,
                               gpointer user_data);

G_END_DECLS
