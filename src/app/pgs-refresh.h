/* pgs-refresh.h: what a refresh of the window scans, by what is visible
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "pgs-window.h"

G_BEGIN_DECLS

typedef struct _PgsRefresh PgsRefresh;

PgsRefresh   *pgs_refresh_new             (PgsWindow  *window);
void          pgs_refresh_free            (PgsRefresh *self);

/* What the scan of every process must read for the page now visible: the kernel's totals
 * for the process list, mappings for Libraries, pages for Groups; the physical map only
 * under Sharing and Page Flags (and only where it can be read). */
PgsScanFlags  pgs_refresh_list_flags      (PgsRefresh *self);
/* A scan of every process with @flags is starting; pgs_refresh_list_shown() follows when
 * its snapshot is shown. */
void          pgs_refresh_list_started    (PgsRefresh   *self,
                                           PgsScanFlags  flags);
/* A new snapshot went into the views (live or from a file): the selected process's pages
 * are scanned again where a view shows them. */
void          pgs_refresh_list_shown      (PgsRefresh *self);
/* The selection or the visible page changed: hands the selected process to the views that
 * show one, scanning its mappings and pages first where the list has none; scans every
 * process again at once when the page now visible needs more than the last scan read. */
void          pgs_refresh_selection_changed (PgsRefresh *self);
void          pgs_refresh_view_changed    (PgsRefresh *self);
/* Whether the selected process is being scanned. */
gboolean      pgs_refresh_is_busy         (PgsRefresh *self);
void          pgs_refresh_cancel          (PgsRefresh *self);

/* What a snapshot file should hold of the live system: its mappings, pages and physical
 * map (where readable). The snapshot shown when it has them, else a scan made now. */
void          pgs_refresh_complete_async  (PgsRefresh          *self,
                                           GCancellable        *cancellable,
                                           GAsyncReadyCallback  callback,
                                           gpointer             user_data);
PgsSnapshot  *pgs_refresh_complete_finish (GAsyncResult        *result,
                                           GError             **error);

/* Logs (g_debug) the monotonic time of the window's first painted frame and of the first
 * figures shown: the figures bench-app-memory takes start-to-first-pixels from. */
void          pgs_refresh_log_first_frame (GtkWidget *window);
void          pgs_refresh_log_first_figures (void);

G_END_DECLS
