/* pgs-history.h: the last minutes of the live system's totals, kept in memory
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "pagescope.h"
#include "pgs-live-scan.h"
#include "pgs-replay.h"

G_BEGIN_DECLS

/* How long the live app keeps its totals, unless PGS_HISTORY_SECONDS says otherwise
 * (0: keep none). */
#define PGS_HISTORY_DEFAULT_SECONDS 600

#define PGS_TYPE_HISTORY (pgs_history_get_type ())

G_DECLARE_FINAL_TYPE (PgsHistory, pgs_history, PGS, HISTORY, GObject)

/* Properties: "window" (seconds kept), "recording" (the samples kept, as a recording in
 * memory: a new one at each scan, NULL before the first or when off), "replay" (over it,
 * at its newest sample unless moved; its range and Growth are the last window's, or the
 * range chosen), "past" (the totals of the sample moved to, or NULL until the replay is
 * moved: then the scans are held until the next is asked for). */
/* Keeps the totals of the scans of @live it is given (pgs_history_add(), when the session
 * shows one); holds @live while a past instant is shown. */
PgsHistory   *pgs_history_new            (PgsLiveScan  *live);
guint         pgs_history_get_window     (PgsHistory   *self);
void          pgs_history_set_window     (PgsHistory   *self,
                                          guint         seconds);
/* Keeps the totals of @snapshot (a live scan) with the machine's counters read now, and
 * drops the samples older than the window before it. */
void          pgs_history_add            (PgsHistory   *self,
                                          PgsSnapshot  *snapshot);
PgsRecording *pgs_history_get_recording  (PgsHistory   *self);
PgsReplay    *pgs_history_get_replay     (PgsHistory   *self);
PgsSnapshot  *pgs_history_get_past       (PgsHistory   *self);

G_END_DECLS
