/* pgs-render-physical-private.h: the class runs and their lookup, for the files that draw
 * from them (pgs-render-physical.c, pgs-render-physical-row.c)
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "pgs-category.h"
#include "pgs-render-physical.h"

G_BEGIN_DECLS

/* 5 bytes a run: the low 32 bits of its first frame (the high bits from the list of the
 * first run past each multiple of 2^32, as in pgs-physmap.c) and its class byte. */
typedef struct
{
  guint32 *lo;
  guint8  *klass;
  guint64  n;
  guint64  cap;
  GArray  *epochs;   /* guint32 */
  guint64  n_frames;
} Runs;

struct _PgsClassRuns
{
  guint64 n_frames;
  Runs    base;      /* without the highlight */
  Runs    shown;     /* with it; empty when nothing is highlighted (base then) */
  Runs   *cur;
  guint64 cursor;    /* the run last looked up in cur, */
  guint64 cur_lo;    /* its frames [cur_lo, cur_hi); empty when it is not known */
  guint64 cur_hi;
};

/* The first frame of run @i (n: n_frames). */
static inline guint64
rstart (const Runs *r,
        guint64     i)
{
  guint64 hi = 0;

  if (i >= r->n)
    return r->n_frames;
  if (G_LIKELY (r->epochs->len == 0))
    return r->lo[i];
  while (hi < r->epochs->len && g_array_index (r->epochs, guint32, hi) <= i)
    hi++;
  return hi << 32 | r->lo[i];
}

/* Forgets the run last looked up (cur changed). */
static inline void
cursor_reset (PgsClassRuns *self)
{
  self->cursor = 0;
  self->cur_lo = self->cur_hi = 0;
}

/* ---- lookup: runs walked in step with the blocks ----
 *
 * Blocks are looked up in frame order (a row of a linear map, a Hilbert tile along its
 * curve), so the run holding the next block is almost always the one the last lookup
 * ended in, or the next: the cursor keeps that run and its frames, and a walk over runs
 * carries each run's end over as the next one's start (one rstart() a run). */

static inline guint64
cursor_set (PgsClassRuns *self,
            guint64       i,
            guint64       lo,
            guint64       hi)
{
  self->cursor = i;
  self->cur_lo = lo;
  self->cur_hi = hi;
  return i;
}

/* The run of cur holding @pfn (< n_frames): the cursor's, a few steps on from it, else by
 * bisection. Leaves the cursor on it. */
static inline guint64
find (PgsClassRuns *self,
      guint64       pfn)
{
  const Runs *r = self->cur;
  guint64 lo = 0, hi = r->n;

  if (pfn < self->cur_hi && pfn >= self->cur_lo)
    return self->cursor;
  if (self->cur_hi > self->cur_lo)
    {
      if (pfn >= self->cur_hi)
        {
          guint64 s = self->cur_hi;

          /* Invariant below: rstart (lo) <= pfn < rstart (hi). */
          lo = self->cursor + 1;
          for (guint step = 0; step < 4 && lo < r->n; step++)
            {
              guint64 e = rstart (r, lo + 1);

              if (pfn < e)
                return cursor_set (self, lo, s, e);
              s = e;
              lo++;
            }
          if (lo >= r->n)
            lo = r->n - 1;
        }
      else
        hi = self->cursor;
    }
  while (hi - lo > 1)
    {
      guint64 mid = lo + (hi - lo) / 2;

      if (rstart (r, mid) <= pfn)
        lo = mid;
      else
        hi = mid;
    }
  return cursor_set (self, lo, rstart (r, lo), rstart (r, lo + 1));
}

/* A walk over the runs of cur that meet [s, e) (s < e <= n_frames): run i, its frames
 * [rs, re). */
typedef struct
{
  guint64 i;
  guint64 rs;
  guint64 re;
} Walk;

static inline Walk
walk_start (PgsClassRuns *self,
            guint64       s)
{
  Walk w;

  w.i = find (self, s);
  w.rs = self->cur_lo;
  w.re = self->cur_hi;
  return w;
}

/* On to the next run; FALSE (the cursor left on the last run) when the walk is past @e. */
static inline gboolean
walk_next (PgsClassRuns *self,
           Walk         *w,
           guint64       e)
{
  if (w->re >= e || w->i + 1 >= self->cur->n)
    {
      cursor_set (self, w->i, w->rs, w->re);
      return FALSE;
    }
  w->i++;
  w->rs = w->re;
  w->re = rstart (self->cur, w->i + 1);
  return TRUE;
}

/* Up to SMALL (class, weight) pairs, then a full histogram. */
#define SMALL 4

/* ---- blocks of a few frames, from their class bytes (pgs-render-physical-row.c lays
 * the bytes out for linear blocks, pgs-render-physical.c reads them off the runs for
 * Hilbert blocks of four) ---- */

/* The class byte of a block from its frames' bytes @v (@nv of them, > 0): the highest
 * class, or the most common (ties to the lowest; classes past the categories not counted),
 * with the highlight bit if any frame has it. */
static inline __attribute__ ((always_inline)) guint8
bytes_class (const guint8 *v,
             guint         nv,
             gboolean      mode)
{
  guint8 any = 0, best = 0, first = v[0] & PGS_CLASS_MASK;
  gboolean uniform = TRUE;

  for (guint k = 0; k < nv; k++)
    {
      any |= v[k];
      best = MAX (best, v[k] & PGS_CLASS_MASK);
      uniform &= (v[k] & PGS_CLASS_MASK) == first;
    }
  if (!mode)
    return best | (any & PGS_CLASS_HIGHLIGHT);
  if (uniform)
    return (first < PGS_N_CATEGORIES ? first : 0) | (any & PGS_CLASS_HIGHLIGHT);
  /* Most common, ties to the lowest class: a few frames, so counted by comparing. */
  {
    guint best_n = 0;

    best = 0;
    for (guint i = 0; i < nv; i++)
      {
        guint8 ci = v[i] & PGS_CLASS_MASK;
        guint n_i = 0;

        if (ci >= PGS_N_CATEGORIES)
          continue;
        for (guint j = 0; j < nv; j++)
          n_i += (v[j] & PGS_CLASS_MASK) == ci;
        if (n_i > best_n || (n_i == best_n && ci < best))
          {
            best_n = n_i;
            best = ci;
          }
      }
  }
  return best | (any & PGS_CLASS_HIGHLIGHT);
}

/* bytes_class() in mode for four frames (2 x 2 blocks, the usual size on a machine of
 * tens of GiB, where half the blocks of a linear map are mixed: the rows of a block lie a
 * map's width apart). Sorted by a network of min/max, the most common class of four is
 * the second one when it matches a neighbour, else the third when it matches the fourth,
 * else the first (ties to the lowest). Classes past the categories are not counted: that
 * rare case goes the long way. */
static inline __attribute__ ((always_inline)) guint8
bytes_mode4 (const guint8 *v)
{
  guint8 any = v[0] | v[1] | v[2] | v[3];
  guint8 s0 = v[0] & PGS_CLASS_MASK, s1 = v[1] & PGS_CLASS_MASK;
  guint8 s2 = v[2] & PGS_CLASS_MASK, s3 = v[3] & PGS_CLASS_MASK, t;

#define SORT2(x, y) (t = MIN (x, y), y = MAX (x, y), x = t)
  SORT2 (s0, s1);
  SORT2 (s2, s3);
  SORT2 (s0, s2);
  SORT2 (s1, s3);
  SORT2 (s1, s2);
#undef SORT2
  if (G_UNLIKELY (s3 >= PGS_N_CATEGORIES))
    return bytes_class (v, 4, TRUE);
  return ((s1 == s2 || s0 == s1) ? s1 : s2 == s3 ? s2 : s0) | (any & PGS_CLASS_HIGHLIGHT);
}

G_END_DECLS
