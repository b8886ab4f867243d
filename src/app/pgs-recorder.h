/* pgs-recorder.h: recording the live machine's memory over time from the app
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define PGS_TYPE_RECORDER (pgs_recorder_get_type ())

G_DECLARE_FINAL_TYPE (PgsRecorder, pgs_recorder, PGS, RECORDER, GObject)

/* Properties: "recording" (between start and the end of the worker), "n-samples" (written
 * so far), "elapsed" (seconds since start), "file". Signal "finished" (GFile *file,
 * guint n_samples, GError *error): the recording stopped and the file is closed; @error
 * says why it stopped early (a write failed), else NULL. */
PgsRecorder *pgs_recorder_new           (void);
/* Every @interval_ms totals of every process (smaps_rollup) and the machine's counters,
 * and every @pages_every_ms (0: never) a page-level picture, as pagescope-cli record
 * writes them, in a worker thread until pgs_recorder_stop. FALSE with a message when
 * @file cannot be created; TRUE also when already recording (nothing then). */
gboolean     pgs_recorder_start         (PgsRecorder  *self,
                                         GFile        *file,
                                         guint         interval_ms,
                                         guint         pages_every_ms,
                                         GError      **error);
/* Asks the worker to stop; "finished" follows once the file is closed. */
void         pgs_recorder_stop          (PgsRecorder  *self);
gboolean     pgs_recorder_is_recording  (PgsRecorder  *self);
guint        pgs_recorder_get_n_samples (PgsRecorder  *self);
guint        pgs_recorder_get_elapsed   (PgsRecorder  *self);
GFile       *pgs_recorder_get_file      (PgsRecorder  *self);

G_END_DECLS
