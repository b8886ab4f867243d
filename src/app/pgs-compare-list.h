/* pgs-compare-list.h: two snapshots side by side, one row per process
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "pagescope.h"
#include "pgs-page.h"
#include "pgs-compare-item.h"
#include "pgs-units.h"

G_BEGIN_DECLS

#define PGS_TYPE_COMPARE_LIST (pgs_compare_list_get_type ())

/* A page of the session (pgs-page.h). */
G_DECLARE_FINAL_TYPE (PgsCompareList, pgs_compare_list, PGS, COMPARE_LIST, PgsPage)

/* Compares @old_snapshot with @new_snapshot; @description heads the table. NULLs clear it. */
void        pgs_compare_list_set_snapshots   (PgsCompareList *self,
                                              PgsSnapshot    *old_snapshot,
                                              PgsSnapshot    *new_snapshot,
                                              const char     *description);
/* Whether the comparison is still being made (in a worker) or put in the table. */
gboolean    pgs_compare_list_is_busy         (PgsCompareList *self);
/* The rows as shown (PgsCompareItem), in the order shown. */
GListModel *pgs_compare_list_get_model       (PgsCompareList *self);
/* The text of the cell of row @position in the column @column_id ("status", "pid", "name",
 * "old-pss", "new-pss", "pss", "old-rss", "new-rss", "rss", "uss", "swap"), for tests. */
char       *pgs_compare_list_get_cell_text   (PgsCompareList *self,
                                              guint           position,
                                              const char     *column_id);
const char *pgs_compare_list_get_description (PgsCompareList *self);

G_END_DECLS
