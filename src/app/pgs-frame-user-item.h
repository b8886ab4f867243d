/* pgs-frame-user-item.h: a row of the table of a frame's users, one process mapping it
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "pagescope.h"

G_BEGIN_DECLS

#define PGS_TYPE_FRAME_USER_ITEM (pgs_frame_user_item_get_type ())

/* One property per column: "pid", "name" (with the command line as "tip"), "address" (where
 * the process maps the frame) and "mapping" (the label of the mapping holding it). */
G_DECLARE_FINAL_TYPE (PgsFrameUserItem, pgs_frame_user_item, PGS, FRAME_USER_ITEM, GObject)

/* @user named from @names, the snapshot it was found in (its process may be missing). */
PgsFrameUserItem *pgs_frame_user_item_new     (PgsSnapshot        *names,
                                               const PgsFrameUser *user);
int               pgs_frame_user_item_get_pid (PgsFrameUserItem   *self);

G_END_DECLS
