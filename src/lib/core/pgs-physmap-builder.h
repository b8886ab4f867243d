/* pgs-physmap-builder.h: making the runs of a physical map (private to libpagescope)
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Frames go in as (count, flags, how many), in frame order; neighbours that are the same
 * join one run. Used by the constructors (pgs-physmap-make.c) and the reader of the kpage
 * files (pgs-physmap-read.c); the builder itself calls neither.
 */

#pragma once

#include <glib.h>

#include "pgs-types.h"

G_BEGIN_DECLS

typedef struct
{
  guint32    *lo;
  guint32    *pair;
  guint64     n, cap;
  guint64     n_frames;
  GArray     *epochs;       /* guint32 */
  /* The pairs, and an open-addressing table of their indices + 1 (0: empty). */
  guint32    *pair_count;
  guint64    *pair_flags;
  guint32     n_pairs, pair_cap;
  guint32    *table;
  guint32     table_mask;
  guint32     last_count;
  guint64     last_flags;
} RunBuilder;

void         pgs_run_builder_init   (RunBuilder *b);
/* Frees what the builder holds (when it is given up, not finished). */
void         pgs_run_builder_clear  (RunBuilder *b);
/* The index of the pair (@count, @flags), added if new. */
guint32      pgs_run_builder_pair   (RunBuilder *b,
                                     guint32     count,
                                     guint64     flags);
/* pgs-physmap-make.c: the physical map of the runs (the builder's arrays move into it) and the
 * texts of /proc/meminfo and /proc/zoneinfo (either may be NULL). */
PgsPhysMap  *pgs_physmap_new_from_builder (RunBuilder *b,
                                           const char *meminfo_text,
                                           const char *zoneinfo_text);

/* Appends @n frames of (@count, @flags), joining the last run when it is the same. */
static inline void
pgs_run_builder_add (RunBuilder *b,
                     guint32     count,
                     guint64     flags,
                     guint64     n)
{
  if (n == 0)
    return;
  if (b->n > 0 && count == b->last_count && flags == b->last_flags)
    {
      b->n_frames += n;
      return;
    }
  if (b->n == b->cap)
    {
      b->cap = MAX (b->cap * 3 / 2, 4096);
      b->lo = g_renew (guint32, b->lo, b->cap);
      b->pair = g_renew (guint32, b->pair, b->cap);
    }
  while (((guint64) b->epochs->len + 1) << 32 <= b->n_frames)
    {
      guint32 first = (guint32) b->n;

      g_array_append_val (b->epochs, first);
    }
  b->lo[b->n] = (guint32) b->n_frames;
  b->pair[b->n] = pgs_run_builder_pair (b, count, flags);
  b->n++;
  b->last_count = count;
  b->last_flags = flags;
  b->n_frames += n;
}

G_END_DECLS
