/* pgs-group-view.h: the processes grouped by application, user, cgroup or parent
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "pagescope.h"
#include "pgs-page.h"

G_BEGIN_DECLS

#define PGS_TYPE_GROUP_VIEW (pgs_group_view_get_type ())

/* A page of the session (pgs-page.h). */
G_DECLARE_FINAL_TYPE (PgsGroupView, pgs_group_view, PGS, GROUP_VIEW, PgsPage)

PgsSnapshot *pgs_group_view_get_snapshot (PgsGroupView *self);
void         pgs_group_view_set_snapshot (PgsGroupView *self,
                                          PgsSnapshot  *snapshot);
PgsGroupBy   pgs_group_view_get_group_by (PgsGroupView *self);
void         pgs_group_view_set_group_by (PgsGroupView *self,
                                          PgsGroupBy    by);
/* The rows as shown (GtkTreeListRow), for tests. */
GListModel  *pgs_group_view_get_model    (PgsGroupView *self);
/* TRUE while a grouping runs in its worker thread (the rows are then the previous ones). */
gboolean     pgs_group_view_is_busy      (PgsGroupView *self);
/* The group (PgsGroup, owned by the view) or the process of a row's item. */
const PgsGroup *pgs_group_view_row_get_group   (GtkTreeListRow *row);
PgsProcess     *pgs_group_view_row_get_process (GtkTreeListRow *row);

G_END_DECLS
