/* pgs-compare-item.h: a row of the comparison of two snapshots
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "pagescope.h"

G_BEGIN_DECLS

#define PGS_TYPE_COMPARE_ITEM (pgs_compare_item_get_type ())

G_DECLARE_FINAL_TYPE (PgsCompareItem, pgs_compare_item, PGS, COMPARE_ITEM, GObject)

int         pgs_compare_item_get_pid         (PgsCompareItem *self);
/* A PgsCompareStatus: both, gone (only in the old snapshot) or new (only in the new one). */
int         pgs_compare_item_get_status      (PgsCompareItem *self);
PgsProcess *pgs_compare_item_get_old_process (PgsCompareItem *self);
PgsProcess *pgs_compare_item_get_new_process (PgsCompareItem *self);
/* new − old of @metric (a side the process is missing from counts as 0); FALSE when a side
 * that has the process does not know the figure. */
gboolean    pgs_compare_item_get_difference  (PgsCompareItem *self,
                                              PgsMetric       metric,
                                              gint64         *difference);
/* The process as it is now, or as it was when it is gone. */
PgsProcess *pgs_compare_item_get_process     (PgsCompareItem *self);

/* In a worker thread: the processes of both snapshots matched (pgs_compare_snapshots()),
 * in its order, the largest change of PSS first. */
GListModel *pgs_compare_items_build          (PgsSnapshot    *old_snapshot,
                                              PgsSnapshot    *new_snapshot);

G_END_DECLS
