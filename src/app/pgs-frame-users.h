/* pgs-frame-users.h: who maps a frame, found when asked
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "pagescope.h"

G_BEGIN_DECLS

typedef void (*PgsFrameUsersProgress) (double   fraction,
                                       gpointer user_data);

/* The processes mapping frame @pfn (pgs_snapshot_find_frame_users()). From @snapshot when it
 * holds pages (a file, a Groups scan); a live list holds only totals, so every process's
 * pages are scanned first (with the session's helper of the page @widget is in, if unlocked), reporting
 * @progress on the main context. The scan and the index run in worker threads. */
void     pgs_frame_users_find_async  (GtkWidget             *widget,
                                      PgsSnapshot           *snapshot,
                                      guint64                pfn,
                                      GCancellable          *cancellable,
                                      PgsFrameUsersProgress  progress,
                                      gpointer               progress_data,
                                      GAsyncReadyCallback    callback,
                                      gpointer               user_data);
/* An array of PgsFrameUser; @scanned: the snapshot they are of (to name them). */
/* What frames [@first_pfn, @end_pfn) hold (pgs_snapshot_sum_frame_range), scanning every
 * process's pages first when @snapshot (may be NULL) lacks them; finish it with
 * pgs_frame_users_find_finish (), whose @scanned then owns the holdings' paths. */
void     pgs_frame_users_sum_async   (GtkWidget             *widget,
                                      PgsSnapshot           *snapshot,
                                      guint64                first_pfn,
                                      guint64                end_pfn,
                                      GCancellable          *cancellable,
                                      PgsFrameUsersProgress  progress,
                                      gpointer               progress_data,
                                      GAsyncReadyCallback    callback,
                                      gpointer               user_data);
GArray  *pgs_frame_users_find_finish (GAsyncResult          *result,
                                      PgsSnapshot          **scanned,
                                      GError               **error);

G_END_DECLS
