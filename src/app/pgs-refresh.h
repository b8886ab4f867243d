/* pgs-refresh.h: what a refresh scans, by what is visible
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "pagescope.h"
#include "pgs-helper.h"

G_BEGIN_DECLS

#define PGS_TYPE_REFRESH (pgs_refresh_get_type ())

G_DECLARE_FINAL_TYPE (PgsRefresh, pgs_refresh, PGS, REFRESH, GObject)

/* Properties: "process" (the selected process with its mappings and pages once its scan is
 * done, or the list's own where that is all there is), "unreadable" (why the scan of it
 * alone brought no pages, or NULL) and "busy" (while that scan runs). */
PgsRefresh   *pgs_refresh_new             (void);

/* What the scan of every process must read for @view: the kernel's totals for the process
 * list, mappings for Libraries, pages for Groups; the physical map only under Sharing and
 * Page Flags (and only as root or through @helper); every page where @highlighting a file's
 * frames there. */
PgsScanFlags  pgs_refresh_list_flags      (const char   *view,
                                           PgsHelper    *helper,
                                           gboolean      highlighting);
/* A scan of every process with @flags is starting. */
void          pgs_refresh_list_started    (PgsRefresh   *self,
                                           PgsScanFlags  flags);
/* @snapshot (live or from a file) went into the views; TRUE when the scan of every process
 * must run again at once: @wanted, what the page now shown needs, was not all read. */
gboolean      pgs_refresh_list_shown      (PgsRefresh   *self,
                                           PgsSnapshot  *snapshot,
                                           PgsScanFlags  wanted);
/* @snapshot, a new live one, waits for the selected process's pages in it: TRUE when a
 * scan of them started, and "ready" (a PgsSnapshot) then says when to show @snapshot (their
 * scan done, or a quarter of a second passed); FALSE to show it at once. Another snapshot
 * shown, or held, drops it. */
gboolean      pgs_refresh_hold            (PgsRefresh   *self,
                                           PgsSnapshot  *snapshot);
/* Whether the live snapshot shown read all that @wanted asks for. */
gboolean      pgs_refresh_list_covers     (PgsRefresh   *self,
                                           PgsScanFlags  wanted);
/* The selection (@chosen, in the list of @snapshot), the page shown (@view) or the helper
 * changed: "process" follows, after a scan of the chosen process's mappings and pages
 * where the list has none. */
void          pgs_refresh_select          (PgsRefresh   *self,
                                           PgsProcess   *chosen,
                                           PgsSnapshot  *snapshot,
                                           const char   *view,
                                           PgsHelper    *helper);
PgsProcess   *pgs_refresh_get_process     (PgsRefresh   *self);
const char   *pgs_refresh_get_unreadable  (PgsRefresh   *self);
gboolean      pgs_refresh_is_busy         (PgsRefresh   *self);
void          pgs_refresh_cancel          (PgsRefresh   *self);

/* What a snapshot file should hold of the live system: its mappings, pages and physical
 * map (where readable). @snapshot when it has them, else a scan made now. */
void          pgs_refresh_complete_async  (PgsRefresh          *self,
                                           PgsSnapshot         *snapshot,
                                           PgsHelper           *helper,
                                           GCancellable        *cancellable,
                                           GAsyncReadyCallback  callback,
                                           gpointer             user_data);
PgsSnapshot  *pgs_refresh_complete_finish (GAsyncResult        *result,
                                           GError             **error);

/* Logs (g_debug) the monotonic time of the window's first painted frame and of the first
 * figures shown: the figures bench-app-memory takes start-to-first-pixels from. Call the
 * second as the window's first snapshot goes into its views: the time logged is that of the
 * frame painted next, the first to show them. */
void          pgs_refresh_log_first_frame (GtkWidget *window);
void          pgs_refresh_log_first_figures (GtkWidget *window);

G_END_DECLS
