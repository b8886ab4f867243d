/* pgs-physmap-private.h: a physical map's runs, shared by pgs-physmap.c and
 * pgs-physmap-make.c (which calls pgs-physmap.c, never the other way)
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "pgs-physmap.h"

G_BEGIN_DECLS

struct _PgsPhysMap
{
  gatomicrefcount  ref_count;
  guint64          n_frames;
  guint64          n_runs;
  guint32         *run_lo;      /* first frame, low 32 bits */
  guint32         *run_pair;    /* index into pair_count, pair_flags; or NULL and */
  guint16         *run_pair16;  /* this, when there are at most 65536 pairs (usual) */
  guint32         *epochs;      /* [k]: the first run starting at or past (k + 1) << 32 */
  guint            n_epochs;
  guint32         *pair_count;  /* the distinct (count, flags) pairs */
  guint64         *pair_flags;
  guint32          n_pairs;
  guint64          cursor;      /* the run last looked up: a hint, read and written relaxed */

  /* pgs_physmap_get_counts/get_flags, made on first use. */
  GMutex           arrays_lock;
  guint32         *counts;
  guint64         *flags;

  /* The kernel's counters, read with the frames. */
  char            *meminfo_text;
  char            *zoneinfo_text;
  PgsMeminfo       meminfo;
  gboolean         has_meminfo;
  GArray          *zones;     /* PgsZone */
  GArray          *spans;     /* PgsFrameSpan */
  char            *counters_error;
};

/* The first frame of run @i (n_runs: n_frames). */
static inline guint64
run_start (PgsPhysMap *self,
           guint64     i)
{
  guint64 hi = 0;

  if (i >= self->n_runs)
    return self->n_frames;
  while (hi < self->n_epochs && self->epochs[hi] <= i)
    hi++;
  return hi << 32 | self->run_lo[i];
}

#define RUN_PAIR(self, i) ((self)->run_pair16 != NULL ? (self)->run_pair16[i] : (self)->run_pair[i])
#define RUN_COUNT(self, i) ((self)->pair_count[RUN_PAIR (self, i)])
#define RUN_FLAGS(self, i) ((self)->pair_flags[RUN_PAIR (self, i)])

G_END_DECLS
