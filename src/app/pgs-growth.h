/* pgs-growth.h: how much each process of a recording grew over a range of samples
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "pagescope.h"
#include "pgs-recording.h"
#include "pgs-units.h"

G_BEGIN_DECLS

typedef enum
{
  PGS_GROWTH_NEW  = 1 << 0,   /* not running at the first sample: counted from 0 */
  PGS_GROWTH_GONE = 1 << 1,   /* not running at the last sample: counted to 0 */
  PGS_GROWTH_RSS  = 1 << 2,   /* PSS unknown somewhere (another user's): RSS instead */
} PgsGrowthFlags;

typedef struct
{
  int      pid;
  guint64  start_time;   /* a PID used again is another process */
  gint64   change;       /* bytes, last sample minus first */
  guint    flags;        /* PgsGrowthFlags */
  guint    first_point;  /* its points in the packed array (pgs_growth_get_points) */
} PgsGrowthEntry;

/* Most points a sparkline gets, whatever the range's length. */
#define PGS_GROWTH_MAX_POINTS 96

#define PGS_TYPE_GROWTH (pgs_growth_get_type ())

G_DECLARE_FINAL_TYPE (PgsGrowth, pgs_growth, PGS, GROWTH, GObject)

/* Reads samples @from to @to of @recording (every one: a process that lived only between
 * two points is there too) and keeps each process's change of PSS from the first to the
 * last, and its PSS at up to PGS_GROWTH_MAX_POINTS evenly spread samples. Immutable once
 * made. Reading a long range takes a while: the _async variant runs in a thread. */
PgsGrowth            *pgs_growth_new          (PgsRecording        *recording,
                                               guint                from,
                                               guint                to,
                                               GCancellable        *cancellable,
                                               GError             **error);
void                  pgs_growth_new_async    (PgsRecording        *recording,
                                               guint                from,
                                               guint                to,
                                               GCancellable        *cancellable,
                                               GAsyncReadyCallback  callback,
                                               gpointer             user_data);
PgsGrowth            *pgs_growth_new_finish   (GAsyncResult        *result,
                                               GError             **error);

guint                 pgs_growth_get_from     (PgsGrowth           *self);
guint                 pgs_growth_get_to       (PgsGrowth           *self);
/* Microseconds from the range's first sample to its last. */
gint64                pgs_growth_get_duration (PgsGrowth           *self);
guint                 pgs_growth_get_n_entries (PgsGrowth          *self);
const PgsGrowthEntry *pgs_growth_get_entry    (PgsGrowth           *self,
                                               guint                index);
/* The process (@pid, @start_time), or NULL when it ran at none of the range's samples. */
const PgsGrowthEntry *pgs_growth_lookup       (PgsGrowth           *self,
                                               int                  pid,
                                               guint64              start_time);
/* @entry's PSS (RSS with PGS_GROWTH_RSS) over the range: pgs_growth_get_n_points floats,
 * bytes, NaN where it was not running. */
guint                 pgs_growth_get_n_points (PgsGrowth           *self);
GBytes               *pgs_growth_get_points   (PgsGrowth           *self,
                                               const PgsGrowthEntry *entry);
/* "+50.0 MiB", "−12.0 MiB, gone", "+12.0 MiB, new" in @units. */
char                 *pgs_growth_format       (const PgsGrowthEntry *entry,
                                               PgsUnits             units);

G_END_DECLS
