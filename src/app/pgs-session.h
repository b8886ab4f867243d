/* pgs-session.h: what the window's pages show, in one place
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "pagescope.h"
#include "pgs-helper.h"
#include "pgs-history.h"
#include "pgs-highlight.h"
#include "pgs-replay.h"
#include "pgs-units.h"

G_BEGIN_DECLS

#define PGS_TYPE_SESSION (pgs_session_get_type ())

G_DECLARE_FINAL_TYPE (PgsSession, pgs_session, PGS, SESSION, GObject)

PgsSession   *pgs_session_new                (void);
GSettings    *pgs_session_get_settings       (PgsSession   *self);
/* Properties: "snapshot" (live or from a file, then also "file"; "live" says which),
 * "instant" (when it was captured, µs), "chosen-process" (chosen in the list: the window
 * binds it), "selected-process" (that process: the list's figures at once, then the
 * same process with its mappings and pages once its own scan is done, where a page on
 * screen shows them), "unreadable", "view", "needs" (what a scan of every process
 * must read for that page: PgsScanFlags), "units", "layout", "highlight-mode", "hide-free",
 * "refresh-interval" (bound to the settings), "highlight" (the file chosen in Libraries:
 * the window binds it), "wss-sample", "busy", "progress" and "helper". */
PgsSnapshot  *pgs_session_get_snapshot       (PgsSession   *self);
GFile        *pgs_session_get_file           (PgsSession   *self);
/* Why the selected process's pages could not be read, or NULL. */
const char   *pgs_session_get_unreadable     (PgsSession   *self);
/* The name of the page on screen: processes, groups, libraries, residency, sharing, flags. */
const char   *pgs_session_get_view           (PgsSession   *self);
void          pgs_session_set_view           (PgsSession   *self,
                                              const char   *view);
PgsUnits      pgs_session_get_units          (PgsSession   *self);
PgsLayout     pgs_session_get_layout         (PgsSession   *self);
gboolean      pgs_session_get_hide_free      (PgsSession   *self);
PgsHighlightMode pgs_session_get_highlight_mode (PgsSession *self);
PgsHighlight *pgs_session_get_highlight      (PgsSession   *self);
/* The working-set samples of @pid (PgsWssSample, oldest first), kept while it stays
 * selected; NULL for none. */
void          pgs_session_set_wss_samples    (PgsSession   *self,
                                              int           pid,
                                              GPtrArray    *samples);
GPtrArray    *pgs_session_get_wss_samples    (PgsSession   *self);
int           pgs_session_get_wss_pid        (PgsSession   *self);
/* TRUE while a scan runs (every process, or the selected one); while every process is. */
gboolean      pgs_session_get_busy           (PgsSession   *self);
gboolean      pgs_session_is_scanning        (PgsSession   *self);
/* TRUE while the scan of every process running is the automatic refresh's, not asked for. */
gboolean      pgs_session_is_scan_automatic  (PgsSession   *self);
/* The helper that reads for the app while unlocked, else NULL. */
PgsHelper    *pgs_session_get_helper         (PgsSession   *self);
void          pgs_session_set_helper         (PgsSession   *self,
                                              PgsHelper    *helper);

/* Scans the running system now (after the scan running, if one is). */
void          pgs_session_refresh            (PgsSession   *self);
void          pgs_session_cancel_scan        (PgsSession   *self);
/* While held, what a live scan brings waits, the newest only, and goes into the views once
 * released: the window holds it until its first frame is painted (pgs-window.c). */
void          pgs_session_hold_live          (PgsSession   *self,
                                              gboolean      hold);
/* Shows @snapshot, a file's, instead of the live system until the next refresh. */
void          pgs_session_show_file          (PgsSession   *self,
                                              PgsSnapshot  *snapshot);
/* The snapshot shown with every process's mappings and pages (and the physical map where
 * readable), for a snapshot file: a scan made now when the one shown has less. */
void          pgs_session_complete_async     (PgsSession          *self,
                                              GCancellable        *cancellable,
                                              GAsyncReadyCallback  callback,
                                              gpointer             user_data);
PgsSnapshot  *pgs_session_complete_finish    (GAsyncResult        *result,
                                              GError             **error);
/* Shows @recording in place of the live system (until the next refresh): the process list
 * the totals of a sample ("snapshot"), the maps the nearest page-level picture ("picture"),
 * starting at the first sample. "recording" and "replay" say which and where. */
void          pgs_session_show_recording     (PgsSession   *self,
                                              PgsRecording *recording);
PgsRecording *pgs_session_get_recording      (PgsSession   *self);
/* Live, "recording" and "replay" are the history's: the last minutes' totals. */
PgsHistory   *pgs_session_get_history        (PgsSession   *self);
PgsReplay    *pgs_session_get_replay         (PgsSession   *self);
/* What the maps draw: the snapshot, or the recording's picture nearest the instant. */
PgsSnapshot  *pgs_session_get_picture        (PgsSession   *self);
/* With a recording (or the live history) shown: to the sample nearest @time (µs since the
 * epoch). pgs_replay_move_by moves by samples. */
void          pgs_session_move_to_time       (PgsSession   *self,
                                              gint64        time);
/* Stops scanning: the window is closing. */
void          pgs_session_shutdown           (PgsSession   *self);

G_END_DECLS
