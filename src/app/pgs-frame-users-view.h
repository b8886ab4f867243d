/* pgs-frame-users-view.h: who maps a page frame, as a heading and a table
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "pagescope.h"

G_BEGIN_DECLS

#define PGS_TYPE_FRAME_USERS_VIEW (pgs_frame_users_view_get_type ())

/* The processes mapping one frame (PgsFrameUserItem rows), found when asked, with the
 * search's progress or why it failed in the heading. Its "snapshot" is the one the frames
 * are of; ::process-activated (a PID) when a row is activated (a click, Enter). */
G_DECLARE_FINAL_TYPE (PgsFrameUsersView, pgs_frame_users_view, PGS, FRAME_USERS_VIEW, GtkWidget)

PgsSnapshot *pgs_frame_users_view_get_snapshot (PgsFrameUsersView *self);
/* A new snapshot also drops the scan of every process's pages kept from the last search. */
void         pgs_frame_users_view_set_snapshot (PgsFrameUsersView *self,
                                                PgsSnapshot       *snapshot);
/* Looks up who maps the frame of @hit (a frame, or a process's page) in the snapshot,
 * dropping what was shown or being looked up; or says why it cannot. */
void         pgs_frame_users_view_find         (PgsFrameUsersView *self,
                                                const PgsHit      *hit);
/* The same frame's page after a refresh: looked up again only when its frame is not the
 * one shown or being looked up. */
void         pgs_frame_users_view_update       (PgsFrameUsersView *self,
                                                const PgsHit      *hit);
/* Cancels a search, empties the table. */
void         pgs_frame_users_view_clear        (PgsFrameUsersView *self);
/* The PgsFrameUser array of the last search, NULL until one finished. */
GArray      *pgs_frame_users_view_get_users    (PgsFrameUsersView *self);
/* The table, its model sorted as the user chose (for tests). */
GtkColumnView *pgs_frame_users_view_get_column_view (PgsFrameUsersView *self);
/* The heading: what was found, the progress, or why not. */
const char  *pgs_frame_users_view_get_title    (PgsFrameUsersView *self);

G_END_DECLS
