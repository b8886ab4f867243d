/* pgs-window.h
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "pagescope.h"
#include "pgs-application.h"
#include "pgs-compare-list.h"
#include "pgs-map-page.h"
#include "pgs-process-detail.h"
#include "pgs-process-list.h"
#include "pgs-recorder.h"
#include "pgs-session.h"
#include "pgs-wss-dialog.h"

G_BEGIN_DECLS

#define PGS_TYPE_WINDOW (pgs_window_get_type ())

G_DECLARE_FINAL_TYPE (PgsWindow, pgs_window, PGS, WINDOW, AdwApplicationWindow)

PgsWindow        *pgs_window_new                (PgsApplication *application);
/* What the pages show, and the scans that keep it current. */
PgsSession       *pgs_window_get_session        (PgsWindow      *self);
PgsSnapshot      *pgs_window_get_snapshot       (PgsWindow      *self);
/* TRUE while a scan runs. */
gboolean          pgs_window_is_busy            (PgsWindow      *self);
void              pgs_window_refresh            (PgsWindow      *self);
const char       *pgs_window_get_view           (PgsWindow      *self);
void              pgs_window_set_view           (PgsWindow      *self,
                                                 const char     *view);
/* Selects @pid now, or once a scan that lists it has finished. */
void              pgs_window_select_pid         (PgsWindow      *self,
                                                 int             pid);
PgsProcessList   *pgs_window_get_process_list   (PgsWindow      *self);
PgsProcessDetail *pgs_window_get_process_detail (PgsWindow      *self);
PgsMapPage       *pgs_window_get_map_page       (PgsWindow      *self,
                                                 PgsView         view);
/* The page of @view ("groups", "libraries"…), built if it was not yet: a page is built
 * when first shown or asked for. */
GtkWidget        *pgs_window_get_page           (PgsWindow      *self,
                                                 const char     *view);
/* The working-set dialog win.measure-wss opened, while it is open; else NULL. */
PgsWssDialog     *pgs_window_get_wss_dialog     (PgsWindow      *self);
/* The text of the banner shown when something cannot be measured, or NULL when hidden. */
const char       *pgs_window_get_banner_text    (PgsWindow      *self);

/* Starts the helper (one password) and scans again with it; nothing if already unlocked. */
void              pgs_window_unlock             (PgsWindow      *self);
gboolean          pgs_window_is_unlocked        (PgsWindow      *self);
/* The text of the newest toast until it is dismissed (on show or queued), or NULL. */
const char       *pgs_window_get_toast_text     (PgsWindow      *self);
/* That toast itself (its buttons, for tests), or NULL. */
AdwToast         *pgs_window_get_toast          (PgsWindow      *self);
/* Shows the snapshot in @file instead of the live system (win.open-snapshot-file), then,
 * with @compare_with, compares the snapshot in @compare_with (old) with it (new). */
void              pgs_window_open_file          (PgsWindow      *self,
                                                 GFile          *file,
                                                 GFile          *compare_with);
/* Records the live machine to @file as win.record does once a file is chosen (every second
 * the totals, every minute a page-level picture) until win.record again or the window
 * closes; a toast says how it went. */
void              pgs_window_record_to          (PgsWindow      *self,
                                                 GFile          *file);
/* What records (its "recording", "n-samples", "elapsed"; "finished" once the file is
 * closed). */
PgsRecorder      *pgs_window_get_recorder       (PgsWindow      *self);
/* Compares the snapshot in @file (old) with the one shown (new). */
void              pgs_window_compare_file       (PgsWindow      *self,
                                                 GFile          *file);
PgsCompareList   *pgs_window_get_compare_list   (PgsWindow      *self);
/* TRUE while the Processes view shows a comparison instead of the list. */
gboolean          pgs_window_is_comparing       (PgsWindow      *self);

G_END_DECLS
