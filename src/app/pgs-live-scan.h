/* pgs-live-scan.h: scans of every process, one at a time, again every so often
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "pagescope.h"

G_BEGIN_DECLS

#define PGS_TYPE_LIVE_SCAN (pgs_live_scan_get_type ())

G_DECLARE_FINAL_TYPE (PgsLiveScan, pgs_live_scan, PGS, LIVE_SCAN, GObject)

/* Properties: "running", "progress" (of the scan running, 0 to 1), "interval" (seconds from
 * the end of one scan to the "due" signal asking for the next; 0 for never).
 * Signals: "due" (a scan is wanted: the interval passed, or one was asked for while the last
 * ran; the owner decides what it reads), "done" (a PgsSnapshot), "failed" (a GError). */
PgsLiveScan *pgs_live_scan_new          (void);
PgsScanner  *pgs_live_scan_get_scanner  (PgsLiveScan  *self);
gboolean     pgs_live_scan_is_running   (PgsLiveScan  *self);
/* Starts a scan reading @flags and returns TRUE; FALSE while one runs (then "due" follows
 * its end). Ends a hold. */
gboolean     pgs_live_scan_start        (PgsLiveScan  *self,
                                         PgsScanFlags  flags);
/* Whether the scan running was started by the interval passing, not asked for. */
gboolean     pgs_live_scan_is_automatic (PgsLiveScan  *self);
void         pgs_live_scan_cancel       (PgsLiveScan  *self);
/* Something else is shown (a file, a recording; the window closes): cancels the scan
 * running, drops what it finds and asks for no other until the next start. */
void         pgs_live_scan_hold         (PgsLiveScan  *self);
void         pgs_live_scan_set_interval (PgsLiveScan  *self,
                                         guint         seconds);

G_END_DECLS
