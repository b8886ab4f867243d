/* pgs-render-physical.c: the physical views' classes of frames, as runs
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The sharing and flag maps give every frame a class byte. Rather than a byte a frame (a
 * quarter of a GiB on a 1 TiB machine), the classes are kept as runs of one byte, made from
 * the physical map's runs: neighbouring runs of the map that fall in one class join, so
 * there are fewer of these. A block of frames (what a pixel shows) costs a walk over the
 * runs it covers, weighted by their lengths, which gives what counting frame by frame gives.
 */

#include "config.h"

#include <string.h>

#include "pgs-category.h"
#include "pgs-kpage.h"
#include "pgs-palette.h"
#include "pgs-render-physical.h"

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

/* A stretch [start, end) to overlay on runs. */
typedef struct
{
  guint64 start;
  guint64 end;
  guint8  value;
} Overlay;

static void
runs_clear (Runs *r)
{
  g_free (r->lo);
  g_free (r->klass);
  if (r->epochs != NULL)
    g_array_unref (r->epochs);
  memset (r, 0, sizeof *r);
}

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

/* Appends @n frames of class @c, joining the last run when it has the same class. */
static inline void
runs_push (Runs    *r,
           guint64 *pos,
           guint64  n,
           guint8   c)
{
  if (n == 0)
    return;
  if (r->n > 0 && r->klass[r->n - 1] == c)
    {
      *pos += n;
      return;
    }
  if (r->n == r->cap)
    {
      r->cap = MAX (r->cap * 3 / 2, 1024);
      r->lo = g_renew (guint32, r->lo, r->cap);
      r->klass = g_renew (guint8, r->klass, r->cap);
    }
  if (r->epochs == NULL)
    r->epochs = g_array_new (FALSE, FALSE, sizeof (guint32));
  while (((guint64) r->epochs->len + 1) << 32 <= *pos)
    {
      guint32 first = (guint32) r->n;

      g_array_append_val (r->epochs, first);
    }
  r->lo[r->n] = (guint32) *pos;
  r->klass[r->n] = c;
  r->n++;
  *pos += n;
}

static void
runs_finish (Runs    *r,
             guint64  n_frames)
{
  if (r->epochs == NULL)
    r->epochs = g_array_new (FALSE, FALSE, sizeof (guint32));
  r->n_frames = n_frames;
  r->cap = r->n;
  r->lo = g_renew (guint32, r->lo, MAX (r->n, 1));
  r->klass = g_renew (guint8, r->klass, MAX (r->n, 1));
}

/* Runs made piece by piece with the stretches of @over (sorted, disjoint) set to their
 * value, or with their value OR'ed in. */
typedef struct
{
  const Overlay *over;
  gsize          n_over;
  gsize          k;
  gboolean       or;
  Runs          *out;
  guint64        pos;
} Stream;

static void
stream_push (Stream  *st,
             guint64  s,
             guint64  e,
             guint8   c)
{
  while (s < e)
    {
      guint64 piece;

      while (st->k < st->n_over && st->over[st->k].end <= s)
        st->k++;
      if (st->k < st->n_over && st->over[st->k].start <= s)
        {
          piece = MIN (e, st->over[st->k].end);
          runs_push (st->out, &st->pos, piece - s,
                     st->or ? (c | st->over[st->k].value) : st->over[st->k].value);
        }
      else
        {
          piece = st->k < st->n_over ? MIN (e, st->over[st->k].start) : e;
          runs_push (st->out, &st->pos, piece - s, c);
        }
      s = piece;
    }
}

static inline guint8
share_class (guint32 count,
             guint64 flags)
{
  if (count > 1)
    return MIN (PGS_SHARE_1 + (32 - __builtin_clz (count - 1)), PGS_SHARE_129_PLUS);
  if (count == 1)
    return PGS_SHARE_1;
  return (flags & PGS_KPF_BIT (PGS_KPF_NOPAGE)) ? PGS_SHARE_HOLE
         : (flags & PGS_KPF_BIT (PGS_KPF_BUDDY)) ? PGS_SHARE_FREE : PGS_SHARE_0;
}

/* Runs of the map read at once by pgs_class_runs_new(): 20 bytes each, on the stack. */
#define RUN_BATCH 512

PgsClassRuns *
pgs_class_runs_new (PgsPhysMap *physmap,
                    gboolean    by_category,
                    guint64    *frame_counts)
{
  /* As pgs_physmap_override_share_classes(): never initialised → free, hole → hole. */
  static const guint8 share_of[PGS_N_CATEGORIES] = {
    [PGS_CATEGORY_HOLE] = PGS_SHARE_HOLE,
    [PGS_CATEGORY_FREE_UNINIT] = PGS_SHARE_FREE,
  };
  PgsClassRuns *self = g_new0 (PgsClassRuns, 1);
  guint64 n_runs = pgs_physmap_get_n_runs (physmap), pos = 0;
  Stream st = { 0 };
  const PgsFrameSpan *spans;
  g_autofree Overlay *over = NULL;
  guint n_spans;
  guint8 head = PGS_CATEGORY_RESERVED;

  self->n_frames = pgs_physmap_get_n_frames (physmap);
  spans = pgs_physmap_get_spans (physmap, &n_spans);
  over = g_new (Overlay, MAX (n_spans, 1));
  for (guint i = 0; i < n_spans; i++)
    {
      over[i].start = spans[i].start;
      over[i].end = MIN (spans[i].start + spans[i].n_frames, self->n_frames);
      over[i].value = by_category ? spans[i].category : share_of[spans[i].category];
    }
  /* The spans go on as the runs are made: no second copy. */
  st.over = over;
  st.n_over = n_spans;
  st.out = &self->base;
  /* The map's runs a batch at a time (no call a run); a run before the next span goes
   * straight on. */
  for (guint64 i = 0; i < n_runs; )
    {
      guint64 lengths[RUN_BATCH], flags[RUN_BATCH];
      guint32 counts[RUN_BATCH];
      guint64 got = pgs_physmap_get_runs (physmap, i, RUN_BATCH, lengths, counts, flags);

      for (guint64 k = 0; k < got; k++)
        {
          guint8 c = by_category ? pgs_category_classify_run (flags[k], &head)
                                 : share_class (counts[k], flags[k]);

          if (st.k >= st.n_over || st.over[st.k].start >= pos + lengths[k])
            runs_push (st.out, &st.pos, lengths[k], c);
          else
            stream_push (&st, pos, pos + lengths[k], c);
          pos += lengths[k];
        }
      i += got;
    }
  runs_finish (&self->base, self->n_frames);

  if (frame_counts != NULL)
    for (guint64 r = 0; r < self->base.n; r++)
      frame_counts[self->base.klass[r]] += rstart (&self->base, r + 1) - rstart (&self->base, r);
  self->cur = &self->base;
  return self;
}

void
pgs_class_runs_free (PgsClassRuns *self)
{
  if (self == NULL)
    return;
  runs_clear (&self->base);
  runs_clear (&self->shown);
  g_free (self);
}

static int
compare_u64 (gconstpointer a,
             gconstpointer b)
{
  guint64 x = *(const guint64 *) a, y = *(const guint64 *) b;

  return (x > y) - (x < y);
}

gboolean
pgs_class_runs_highlight (PgsClassRuns *self,
                          guint64      *pfns,
                          gsize         n_pfns)
{
  g_autoptr(GArray) over = g_array_new (FALSE, FALSE, sizeof (Overlay));

  runs_clear (&self->shown);
  self->cur = &self->base;
  cursor_reset (self);

  if (n_pfns > 1)
    qsort (pfns, n_pfns, sizeof *pfns, compare_u64);
  for (gsize i = 0; i < n_pfns && pfns[i] < self->n_frames; i++)
    {
      Overlay *last = over->len > 0 ? &g_array_index (over, Overlay, over->len - 1) : NULL;

      if (last != NULL && pfns[i] <= last->end)
        last->end = MAX (last->end, pfns[i] + 1);
      else
        {
          Overlay o = { pfns[i], pfns[i] + 1, PGS_CLASS_HIGHLIGHT };

          g_array_append_val (over, o);
        }
    }
  if (over->len == 0)
    return FALSE;
  {
    Stream st = { (const Overlay *) (gpointer) over->data, over->len, 0, TRUE, &self->shown, 0 };

    for (guint64 r = 0; r < self->base.n; r++)
      stream_push (&st, rstart (&self->base, r), rstart (&self->base, r + 1), self->base.klass[r]);
    runs_finish (&self->shown, self->n_frames);
  }
  self->cur = &self->shown;
  return TRUE;
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

guint8
pgs_class_runs_at (PgsClassRuns *self,
                   guint64       pfn)
{
  g_return_val_if_fail (pfn < self->n_frames, 0);
  return self->cur->klass[find (self, pfn)];
}

/* pgs_class_runs_max() over more than one run. */
static G_GNUC_NO_INLINE guint8
max_walk (PgsClassRuns        *self,
          const PgsFrameRange *ranges,
          guint                n_ranges)
{
  const guint8 *klass = self->cur->klass;
  guint8 best = 0, any = 0;

  for (guint k = 0; k < n_ranges; k++)
    {
      Walk w;

      if (ranges[k].start >= ranges[k].end)
        continue;
      w = walk_start (self, ranges[k].start);
      do
        {
          best = MAX (best, klass[w.i] & PGS_CLASS_MASK);
          any |= klass[w.i];
        }
      while (walk_next (self, &w, ranges[k].end));
    }
  return best | (any & PGS_CLASS_HIGHLIGHT);
}

guint8
pgs_class_runs_max (PgsClassRuns        *self,
                    const PgsFrameRange *ranges,
                    guint                n_ranges)
{
  /* One run holds the whole block (the usual case): its class. */
  if (n_ranges == 1 && ranges[0].start < ranges[0].end &&
      ranges[0].start >= self->cur_lo && ranges[0].end <= self->cur_hi)
    return self->cur->klass[self->cursor];
  return max_walk (self, ranges, n_ranges);
}

/* Up to SMALL (class, weight) pairs, then a full histogram. */
#define SMALL 4

/* pgs_class_runs_mode() over more than one run: apart, so that the usual case (one run)
 * has no stack frame to set up. */
static G_GNUC_NO_INLINE guint8
mode_walk (PgsClassRuns        *self,
           const PgsFrameRange *ranges,
           guint                n_ranges)
{
  const guint8 *klass = self->cur->klass;
  guint64 hist[PGS_N_CATEGORIES], best_n = 0, small_w[SMALL];
  guint8 small_c[SMALL], any = 0, best = 0, first = 0xff;
  guint n_small = 0;
  gboolean uniform = TRUE;

  /* One walk: whether the block is one class throughout, and the frames of each class
   * (a short list, a histogram past SMALL classes). */
  for (guint k = 0; k < n_ranges; k++)
    {
      Walk w;

      if (ranges[k].start >= ranges[k].end)
        continue;
      w = walk_start (self, ranges[k].start);
      do
        {
          guint8 c = klass[w.i], cm = c & PGS_CLASS_MASK;
          guint64 weight = MIN (w.re, ranges[k].end) - MAX (w.rs, ranges[k].start);

          if (first == 0xff)
            first = cm;
          else if (cm != first)
            uniform = FALSE;
          any |= c;
          if (cm >= PGS_N_CATEGORIES)
            continue;
          if (n_small <= SMALL)
            {
              guint j;

              for (j = 0; j < n_small && small_c[j] != cm; j++)
                ;
              if (j < n_small)
                {
                  small_w[j] += weight;
                  continue;
                }
              if (n_small < SMALL)
                {
                  small_c[n_small] = cm;
                  small_w[n_small++] = weight;
                  continue;
                }
              memset (hist, 0, sizeof hist);
              for (j = 0; j < SMALL; j++)
                hist[small_c[j]] = small_w[j];
              n_small = SMALL + 1;
            }
          hist[cm] += weight;
        }
      while (walk_next (self, &w, ranges[k].end));
    }
  if (uniform)
    return first == 0xff ? 0 : first | (any & PGS_CLASS_HIGHLIGHT);

  /* Most common, ties to the lowest class. */
  if (n_small <= SMALL)
    for (guint j = 0; j < n_small; j++)
      {
        if (small_w[j] > best_n || (small_w[j] == best_n && small_c[j] < best))
          {
            best_n = small_w[j];
            best = small_c[j];
          }
      }
  else
    for (guint c = 0; c < PGS_N_CATEGORIES; c++)
      if (hist[c] > best_n)
        {
          best_n = hist[c];
          best = c;
        }
  return best | (any & PGS_CLASS_HIGHLIGHT);
}

guint8
pgs_class_runs_mode (PgsClassRuns        *self,
                     const PgsFrameRange *ranges,
                     guint                n_ranges)
{
  /* One run holds the whole block (the usual case): its class. */
  if (n_ranges == 1 && ranges[0].start < ranges[0].end &&
      ranges[0].start >= self->cur_lo && ranges[0].end <= self->cur_hi)
    return self->cur->klass[self->cursor];
  return mode_walk (self, ranges, n_ranges);
}

guint64
pgs_class_runs_find (PgsClassRuns *self,
                     guint64       start,
                     guint64       end,
                     guint8        want)
{
  Walk w;

  end = MIN (end, self->n_frames);
  if (start >= end)
    return G_MAXUINT64;
  w = walk_start (self, start);
  do
    if ((self->cur->klass[w.i] & PGS_CLASS_MASK) == want)
      {
        cursor_set (self, w.i, w.rs, w.re);
        return MAX (w.rs, start);
      }
  while (walk_next (self, &w, end));
  return G_MAXUINT64;
}

/* Blocks this small or smaller (a <= BYTES_MAX_SIDE) are drawn from a byte a frame. */
#define BYTES_MAX_SIDE 4

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

/* Whether the @a bytes at @p are all @c (@a a constant where inlined). */
static inline __attribute__ ((always_inline)) gboolean
bytes_all (const guint8 *p,
           guint         a,
           guint8        c)
{
  guint16 x2;
  guint32 x4;

  switch (a)
    {
    case 1:
      return p[0] == c;
    case 2:
      memcpy (&x2, p, 2);
      return x2 == c * 0x0101u;
    case 4:
      memcpy (&x4, p, 4);
      return x4 == c * 0x01010101u;
    default:
      for (guint x = 0; x < a; x++)
        if (p[x] != c)
          return FALSE;
      return TRUE;
    }
}

/* Blocks 0 to @n_blocks - 1, each @a rows of @a bytes (@a a constant where inlined). Most
 * are one byte throughout: that is checked first, a row a compare. */
static inline __attribute__ ((always_inline)) void
blocks_whole (const guint8 *bytes,
              guint64       stride,
              guint64       n_blocks,
              guint         a,
              gboolean      mode,
              guint8       *out)
{
  for (guint64 b = 0; b < n_blocks; b++)
    {
      const guint8 *p = bytes + b * a;
      guint8 v[BYTES_MAX_SIDE * BYTES_MAX_SIDE], c = p[0];
      gboolean same = bytes_all (p, a, c);

      /* Spelt out so that a constant @a leaves no loop. */
      if (a > 1)
        same = same && bytes_all (p + stride, a, c);
      if (a > 2)
        same = same && bytes_all (p + 2 * stride, a, c);
      if (a > 3)
        same = same && bytes_all (p + 3 * stride, a, c);
      if (same)
        {
          out[b] = !mode || (c & PGS_CLASS_MASK) < PGS_N_CATEGORIES ? c : c & PGS_CLASS_HIGHLIGHT;
          continue;
        }
      for (guint k = 0; k < a; k++)
        for (guint x = 0; x < a; x++)
          v[k * a + x] = p[k * stride + x];
      out[b] = bytes_class (v, a * a, mode);
    }
}

/* A block at the edge: the bytes from @x0 of each row of @len[k] bytes. */
static guint8
block_row_class (const guint8  *bytes,
                 guint64        stride,
                 guint64        x0,
                 guint          rows,
                 const guint64 *len,
                 guint64        a,
                 gboolean       mode)
{
  guint8 v[BYTES_MAX_SIDE * BYTES_MAX_SIDE];
  guint nv = 0;

  for (guint k = 0; k < rows; k++)
    for (guint64 x = x0; x < MIN (x0 + a, len[k]); x++)
      v[nv++] = bytes[k * stride + x];
  return nv > 0 ? bytes_class (v, nv, mode) : 0xff;
}

/* pgs_class_runs_linear_row() for small blocks (a few frames a pixel, as on a machine
 * of tens of GiB): the classes of the block row's frames laid out a byte a frame (one
 * memset a run), then each block from its a x a bytes. Walking the runs block by block
 * costs more than this when a run holds only a few blocks. */
static void
linear_row_bytes (PgsClassRuns *self,
                  gboolean      mode,
                  guint64       n,
                  guint64       mw,
                  guint64       mh,
                  guint64       a,
                  guint64       by,
                  guint64       bx0,
                  guint64       bx1,
                  guint8       *out)
{
  const guint8 *klass = self->cur->klass;
  guint64 nb = bx1 - bx0 + 1, stride = nb * a, len[BYTES_MAX_SIDE] = { 0 };
  g_autofree guint8 *bytes = g_malloc (stride * a);
  guint rows = 0;

  for (guint64 y = by * a; y < MIN ((by + 1) * a, mh); y++)
    {
      guint64 row = y * mw, s = row + bx0 * a, e = MIN (row + MIN ((bx1 + 1) * a, mw), n);
      guint8 *line = bytes + rows * stride;
      Walk walk;

      if (s >= e)
        break;
      walk = walk_start (self, s);
      do
        {
          guint64 ps = MAX (walk.rs, s), pe = MIN (walk.re, e);

          memset (line + (ps - s), klass[walk.i], pe - ps);
        }
      while (walk_next (self, &walk, e));
      len[rows++] = e - s;
    }

  /* Whole blocks (a rows, a frames each) with a known at compile time, then the rest. */
  {
    guint64 full = rows == a ? nb : 0;

    for (guint k = 0; k < rows; k++)
      full = MIN (full, len[k] / a);

    switch (a)
      {
      case 1: blocks_whole (bytes, stride, full, 1, mode, out); break;
      case 2: blocks_whole (bytes, stride, full, 2, mode, out); break;
      case 3: blocks_whole (bytes, stride, full, 3, mode, out); break;
      case 4: blocks_whole (bytes, stride, full, 4, mode, out); break;
      default: g_assert_not_reached ();
      }
    /* Blocks at the right or bottom edge of the map: fewer rows or frames. */
    for (guint64 b = full; b < nb; b++)
      out[b] = block_row_class (bytes, stride, b * a, rows, len, a, mode);
  }
}

/* pgs_class_runs_linear_row() for larger blocks: one walk over the runs of each row of
 * frames, each run's piece added to the blocks it covers. */
static void
linear_row_runs (PgsClassRuns *self,
                 gboolean      mode,
                 guint64       n,
                 guint64       mw,
                 guint64       mh,
                 guint64       a,
                 guint64       by,
                 guint64       bx0,
                 guint64       bx1,
                 guint8       *out)
{
  const Runs *r = self->cur;
  guint64 nb = bx1 - bx0 + 1, width = PGS_N_CATEGORIES;
  /* Most blocks hold one class or a few: their (class, weight) pairs in a short list, and
   * a histogram only for a block with more (SMALL + 1 in n_small). */
  g_autofree guint8 *small_class = mode ? g_new (guint8, nb * SMALL) : NULL;
  g_autofree guint64 *small_weight = mode ? g_new (guint64, nb * SMALL) : NULL;
  g_autofree guint8 *n_small = mode ? g_new0 (guint8, nb) : NULL;
  g_autofree guint64 *hist = NULL;
  g_autofree guint8 *any = g_new0 (guint8, nb);
  g_autofree guint8 *best = g_new0 (guint8, nb);
  g_autofree guint64 *weight = g_new0 (guint64, nb);

  for (guint64 y = by * a; y < MIN ((by + 1) * a, mh); y++)
    {
      guint64 row = y * mw, s = row + bx0 * a, e = MIN (row + MIN ((bx1 + 1) * a, mw), n);
      /* Block b of the row and where it ends: moved on as the pieces pass, no division. */
      guint64 b = 0, block_end = s + a, ps = s;
      Walk walk;

      if (s >= e)
        break;
      walk = walk_start (self, s);
      do
        {
          guint8 c = r->klass[walk.i], cm = c & PGS_CLASS_MASK;
          guint64 pe = MIN (walk.re, e);

          /* The run's piece of the row, block by block. */
          while (ps < pe)
            {
              guint64 be = MIN (pe, block_end), w = be - ps;

              if (mode && cm < PGS_N_CATEGORIES)
                {
                  guint k = n_small[b];

                  if (k == 1 && small_class[b * SMALL] == cm)
                    small_weight[b * SMALL] += w;
                  else if (k <= SMALL)
                    {
                      guint j;

                      for (j = 0; j < k && small_class[b * SMALL + j] != cm; j++)
                        ;
                      if (j < k)
                        small_weight[b * SMALL + j] += w;
                      else if (k < SMALL)
                        {
                          small_class[b * SMALL + k] = cm;
                          small_weight[b * SMALL + k] = w;
                          n_small[b]++;
                        }
                      else
                        {
                          if (hist == NULL)
                            hist = g_new (guint64, nb * width);
                          memset (hist + b * width, 0, width * sizeof *hist);
                          for (j = 0; j < SMALL; j++)
                            hist[b * width + small_class[b * SMALL + j]] = small_weight[b * SMALL + j];
                          hist[b * width + cm] += w;
                          n_small[b] = SMALL + 1;
                        }
                    }
                  else
                    hist[b * width + cm] += w;
                }
              best[b] = MAX (best[b], cm);
              any[b] |= c;
              weight[b] += w;
              ps = be;
              if (ps == block_end)
                {
                  b++;
                  block_end += a;
                }
            }
        }
      while (walk_next (self, &walk, e));
    }

  for (guint64 b = 0; b < nb; b++)
    {
      guint8 c = best[b];

      if (weight[b] == 0)
        {
          out[b] = 0xff;
          continue;
        }
      if (mode)
        {
          guint64 best_n = 0;

          /* Most common, ties to the lowest class. */
          c = 0;
          if (n_small[b] <= SMALL)
            for (guint j = 0; j < n_small[b]; j++)
              {
                guint8 k = small_class[b * SMALL + j];
                guint64 wk = small_weight[b * SMALL + j];

                if (wk > best_n || (wk == best_n && k < c))
                  {
                    best_n = wk;
                    c = k;
                  }
              }
          else
            for (guint k = 0; k < PGS_N_CATEGORIES; k++)
              if (hist[b * width + k] > best_n)
                {
                  best_n = hist[b * width + k];
                  c = k;
                }
        }
      out[b] = c | (any[b] & PGS_CLASS_HIGHLIGHT);
    }
}

void
pgs_class_runs_linear_row (PgsClassRuns *self,
                           gboolean      mode,
                           guint64       n,
                           guint64       mw,
                           guint64       mh,
                           guint64       a,
                           guint64       by,
                           guint64       bx0,
                           guint64       bx1,
                           guint8       *out)
{
  n = MIN (n, self->n_frames);
  if (a <= BYTES_MAX_SIDE)
    linear_row_bytes (self, mode, n, mw, mh, a, by, bx0, bx1, out);
  else
    linear_row_runs (self, mode, n, mw, mh, a, by, bx0, bx1, out);
}
