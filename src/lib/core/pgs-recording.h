/* pgs-recording.h: a recording of memory over time, read back
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A recording (.pgrec, pagescope-cli record) holds samples (every process's totals and the
 * machine's counters, every --interval) and page-level pictures (a whole snapshot, every
 * --pages-every). Opening one reads its header and index only; samples and pictures are
 * decoded when asked for, each checked against its CRC then, so a damaged one is refused
 * with a message while the others still read.
 *
 * For the app: pgs_recording_find_sample / _find_picture turn a time (a click on a
 * timeline) into the nearest instant; pgs_recording_get_sample gives the totals there
 * (fast: at most PGS_RECORDING_KEY_SAMPLES small decodings, and sequential reads reuse the
 * last one), pgs_recording_get_snapshot_at_sample a PgsSnapshot of those totals for the
 * process list, pgs_recording_get_picture the full PgsSnapshot for Pages, Sharing and Page
 * Flags; the _async variant of the last runs in a thread (up to a second for a 24 GiB
 * machine). PgsSeries (pgs-series.h) gives figures over time. A snapshot file opens as a
 * recording of one instant (one sample, one picture).
 */

#pragma once

#include <gio/gio.h>

#include "pgs-sample.h"
#include "pgs-types.h"

G_BEGIN_DECLS

#define PGS_RECORDING_FILE_EXTENSION ".pgrec"
#define PGS_RECORDING_MIME_TYPE      "application/x-pagescope-recording"

#define PGS_TYPE_RECORDING (pgs_recording_get_type ())

G_DECLARE_FINAL_TYPE (PgsRecording, pgs_recording, PGS, RECORDING, GObject)

/* Opens a recording, or a snapshot file as a recording of one instant. A recording cut
 * short opens up to its last whole sample (pgs_recording_get_end_note says where it ends);
 * one that is not a recording, or from a newer Pagescope, is refused (PGS_ERROR_NOT_A_SNAPSHOT,
 * PGS_ERROR_SNAPSHOT_NEWER_VERSION), as is one without a single whole sample. */
PgsRecording *pgs_recording_open              (GFile         *file,
                                               GCancellable  *cancellable,
                                               GError       **error);
/* The same for the local file @path without GFile (pagescope-cli), with the errors GFile
 * gives for it: the recording has a path and no file. */
PgsRecording *pgs_recording_open_path         (const char    *path,
                                               GError       **error);
/* The same from bytes in memory (tests, the fuzz target). */
PgsRecording *pgs_recording_new_from_bytes    (GBytes        *bytes,
                                               GError       **error);
/* @samples (PgsSample, in time order, at least one; shared, not copied) as a recording
 * kept in memory, without pictures or file; host, kernel, privilege and page size from
 * @like. The app's live history (pgs-history.c). */
PgsRecording *pgs_recording_new_for_samples   (GPtrArray     *samples,
                                               PgsSnapshot   *like,
                                               guint          interval_ms);
/* @snapshot as a recording of one instant. */
PgsRecording *pgs_recording_new_for_snapshot  (PgsSnapshot   *snapshot);

/* NULL for a whole recording; otherwise why it ends where it does ("cut short after
 * sample 41 (12:00:41), at byte 5123 of 5160; the index was rebuilt"), and which samples or
 * pictures are damaged. */
const char   *pgs_recording_get_end_note      (PgsRecording  *self);
GFile        *pgs_recording_get_file          (PgsRecording  *self);

const char   *pgs_recording_get_hostname      (PgsRecording  *self);
const char   *pgs_recording_get_kernel_release (PgsRecording *self);
const char   *pgs_recording_get_boot_id       (PgsRecording  *self);
/* The recording machine's time zone (clock times are read and shown in it). */
GTimeZone    *pgs_recording_get_time_zone     (PgsRecording  *self);
gboolean      pgs_recording_is_privileged     (PgsRecording  *self);
guint         pgs_recording_get_interval_ms   (PgsRecording  *self);
guint         pgs_recording_get_pages_every_ms (PgsRecording *self);
/* Seconds since the epoch when the machine booted (start times are clock ticks after it). */
gint64        pgs_recording_get_boot_time     (PgsRecording  *self);
guint         pgs_recording_get_clock_ticks   (PgsRecording  *self);

guint         pgs_recording_get_n_samples     (PgsRecording  *self);
guint         pgs_recording_get_n_pictures    (PgsRecording  *self);
/* Microseconds since the epoch. */
gint64        pgs_recording_get_sample_time   (PgsRecording  *self,
                                               guint          index);
gint64        pgs_recording_get_picture_time  (PgsRecording  *self,
                                               guint          index);
gint64        pgs_recording_get_start_time    (PgsRecording  *self);
gint64        pgs_recording_get_end_time      (PgsRecording  *self);
/* The sample or picture nearest @time (the earlier on a tie); G_MAXUINT when there is none. */
guint         pgs_recording_find_sample       (PgsRecording  *self,
                                               gint64         time);
guint         pgs_recording_find_picture      (PgsRecording  *self,
                                               gint64         time);

/* Sample @index (free it with pgs_sample_free; do not change it), or NULL with a message for a damaged one
 * (or one that builds on a damaged one). */
PgsSample    *pgs_recording_get_sample        (PgsRecording  *self,
                                               guint          index,
                                               GError       **error);
/* The totals of sample @index as a PgsSnapshot: processes with figures, no mappings, no
 * pages; its time is the sample's. */
PgsSnapshot  *pgs_recording_get_snapshot_at_sample (PgsRecording *self,
                                                    guint         index,
                                                    GError      **error);
/* Picture @index: the whole snapshot, as pagescope-cli snapshot writes one. */
PgsSnapshot  *pgs_recording_get_picture       (PgsRecording  *self,
                                               guint          index,
                                               GError       **error);
void          pgs_recording_get_picture_async (PgsRecording        *self,
                                               guint                index,
                                               GCancellable        *cancellable,
                                               GAsyncReadyCallback  callback,
                                               gpointer             user_data);
PgsSnapshot  *pgs_recording_get_picture_finish (PgsRecording *self,
                                                GAsyncResult *result,
                                                GError      **error);

/* A time from the command line: "+SECONDS" after the start, "HH:MM[:SS]" in the recording's
 * time zone (the first such time in the recording), or an ISO 8601 date and time (without a
 * zone: the recording's). Microseconds since the epoch; FALSE with a message otherwise. */
gboolean      pgs_recording_parse_time        (PgsRecording  *self,
                                               const char    *text,
                                               gint64        *time,
                                               GError       **error);
/* @time as the recording's clock shows it, "2026-12-05 10:04:07 CET (+67 s)". */
char         *pgs_recording_format_time       (PgsRecording  *self,
                                               gint64         time);

G_END_DECLS
