/* pgs-group-item.h: a row of the Groups table, a group or one of its processes
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "pagescope.h"

G_BEGIN_DECLS

#define PGS_TYPE_GROUP_ITEM (pgs_group_item_get_type ())

G_DECLARE_FINAL_TYPE (PgsGroupItem, pgs_group_item, PGS, GROUP_ITEM, GObject)

const PgsGroup *pgs_group_item_get_group    (PgsGroupItem *self);
/* The process of a member's row; NULL for a group's. */
PgsProcess     *pgs_group_item_get_process  (PgsGroupItem *self);
/* A group's members, largest PSS first; NULL for a member. */
GListModel     *pgs_group_item_get_members  (PgsGroupItem *self);
/* The text of the @metric cell ("vss", "private"…) and its tooltip (NULL for none). */
char           *pgs_group_item_format       (PgsGroupItem *self,
                                             const char   *metric,
                                             const char  **tip);

/* In a worker thread: the groups of @snapshot's processes by @by, largest PSS first;
 * @private_known set when every group's private figure is known. NULL when cancelled. */
GListModel     *pgs_group_items_build       (PgsSnapshot  *snapshot,
                                             PgsGroupBy    by,
                                             gboolean     *private_known);

G_END_DECLS
