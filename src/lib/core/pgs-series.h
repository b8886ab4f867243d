/* pgs-series.h: figures over time from a recording
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A series is a table in long form: one row per sample and per key (a process, a group, or
 * the machine), in time order. A PID used again within the recording is another process
 * (its own key, "PID@START"). For the app's timeline and Growth column, and for
 * pagescope-cli series.
 */

#pragma once

#include <glib.h>

#include "pgs-recording.h"
#include "pgs-sample.h"

G_BEGIN_DECLS

typedef enum
{
  PGS_SERIES_MACHINE,    /* one key, "machine": the counters of meminfo, zram, pressure */
  PGS_SERIES_PROCESS,    /* every process (or those of one PID) */
  PGS_SERIES_USER,       /* processes summed by UID */
  PGS_SERIES_NAME,       /* processes summed by name */
} PgsSeriesKind;

typedef struct
{
  guint        sample;     /* index in the recording */
  gint64       time;       /* microseconds since the epoch */
  const char  *key;        /* "1234@5678" (PID@start), "uid 1000", the name, "machine" */
  int          pid;        /* PGS_SERIES_PROCESS; 0 otherwise */
  guint64      start_time; /* PGS_SERIES_PROCESS: clock ticks after boot */
  const char  *name;       /* process name (PGS_SERIES_PROCESS), group name, "machine" */
  guint        n_members;  /* processes summed */
  guint        known;      /* PgsMetric: known for every member */
  guint64      figures[PGS_SAMPLE_N_FIGURES];  /* bytes; sums over the members */
} PgsSeriesRow;

typedef struct _PgsSeries PgsSeries;

/* The figures of every sample of @recording. @pid (PGS_SERIES_PROCESS) keeps one PID's
 * processes only; 0 all. For PGS_SERIES_MACHINE the figures are unused and the counters
 * come from pgs_series_get_counter(). NULL with a message when a sample cannot be read
 * (those before it are not returned either: a series has no holes). */
PgsSeries          *pgs_series_new           (PgsRecording   *recording,
                                              PgsSeriesKind   kind,
                                              int             pid,
                                              GError        **error);
void                pgs_series_free          (PgsSeries      *self);
guint               pgs_series_get_n_rows    (PgsSeries      *self);
const PgsSeriesRow *pgs_series_get_row       (PgsSeries      *self,
                                              guint           index);
/* PGS_SERIES_MACHINE: the counter names (meminfo/MemAvailable, zram/zram0/mem_used_total,
 * psi/some, cgroup/v1/…/usage_in_bytes), and the value of counter @counter in row @row
 * (PGS_SAMPLE_ABSENT where that sample did not have it). */
guint               pgs_series_get_n_counters (PgsSeries     *self);
const char         *pgs_series_get_counter_name (PgsSeries   *self,
                                                 guint        counter);
guint64             pgs_series_get_counter   (PgsSeries      *self,
                                              guint           row,
                                              guint           counter);
/* The change of @figure of @key from the first row to the last that has it (a process that
 * came or went inside the range counts from or to 0: @came / @went say so). FALSE where the
 * key is not in the series or the figure is unknown at either end. */
gboolean            pgs_series_get_growth    (PgsSeries      *self,
                                              const char     *key,
                                              PgsSampleFigure figure,
                                              gint64         *change,
                                              gboolean       *came,
                                              gboolean       *went);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PgsSeries, pgs_series_free)

G_END_DECLS
