/* pgs-timeline-data.h: a recording's memory by kind, sample by sample, for the timeline
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "pgs-recording.h"

G_BEGIN_DECLS

/* The bands of the timeline, bottom to top. */
typedef enum
{
  PGS_TIMELINE_ANON,      /* AnonPages */
  PGS_TIMELINE_MAPPED,    /* Mapped: file pages some process maps */
  PGS_TIMELINE_SHMEM,     /* Shmem */
  PGS_TIMELINE_CACHE,     /* Cached - Mapped - Shmem, at least 0: cache no process maps */
  PGS_TIMELINE_KERNEL,    /* Slab + KernelStack + PageTables, those the sample has */
  PGS_TIMELINE_ZRAM,      /* every zram device's mem_used_total: compressed swap in RAM */
  PGS_TIMELINE_FREE,      /* MemFree */
  PGS_TIMELINE_N_KINDS,
} PgsTimelineKind;

/* Packed figures: one row of PGS_TIMELINE_N_KINDS values per sample (bytes;
 * PGS_SAMPLE_ABSENT where the sample lacks the counters, or could not be read). */
typedef struct
{
  guint    n_samples;
  gint64  *times;        /* µs since the epoch, per sample */
  guint64 *values;       /* n_samples × PGS_TIMELINE_N_KINDS */
  guint64 *pss;          /* per sample: the process's PSS, PGS_SAMPLE_ABSENT where it is
                          * not running or its PSS unknown; NULL for no process */
  guint64  top;          /* the largest stack of bands, or MemTotal if larger */
  guint64  pss_top;      /* the largest PSS */
  gint64   step;         /* µs: the recording's interval, else the median between samples;
                          * samples further apart than 3 steps have a gap between them */
} PgsTimelineData;

void             pgs_timeline_data_free        (PgsTimelineData *data);
/* Whether the machine went unrecorded between @sample and the next (suspended, the app
 * showing a file): the strip draws nothing there rather than a line across. */
gboolean         pgs_timeline_data_gap_after   (const PgsTimelineData *data,
                                                guint            sample);
/* Value of @kind at @sample, or PGS_SAMPLE_ABSENT. */
guint64          pgs_timeline_data_get         (const PgsTimelineData *data,
                                                guint            sample,
                                                PgsTimelineKind  kind);
/* The figures of every sample of @recording, and the PSS of process (@pid, @start_time)
 * when @pid is not 0, read in a worker thread (a 3600-sample recording is thousands of
 * decodings). */
void             pgs_timeline_data_build_async (PgsRecording        *recording,
                                                int                  pid,
                                                guint64              start_time,
                                                GCancellable        *cancellable,
                                                GAsyncReadyCallback  callback,
                                                gpointer             user_data);
PgsTimelineData *pgs_timeline_data_build_finish (GAsyncResult       *result,
                                                 GError            **error);
/* The same, here and now (tests, benchmarks). */
PgsTimelineData *pgs_timeline_data_build       (PgsRecording        *recording,
                                                int                  pid,
                                                guint64              start_time,
                                                GCancellable        *cancellable,
                                                GError             **error);

/* The figures as CSV: time (ISO 8601, UTC), time_us (since the epoch), each band in bytes
 * (anon_bytes … zram_bytes, free_bytes, empty where absent), process (@process's name, escaped; empty
 * without one) and pss_bytes; a header line first. */
char            *pgs_timeline_data_to_csv      (const PgsTimelineData *data,
                                                const char            *process);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PgsTimelineData, pgs_timeline_data_free)

G_END_DECLS
