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
  guint64 cursor;    /* the run last looked up in cur */
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
  for (guint64 i = 0; i < n_runs; i++)
    {
      guint64 n;
      guint32 count;
      guint64 flags;

      pgs_physmap_get_run (physmap, i, NULL, &n, &count, &flags);
      stream_push (&st, pos, pos + n,
                   by_category ? pgs_category_classify_run (flags, &head) : share_class (count, flags));
      pos += n;
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
  self->cursor = 0;

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

/* The run of cur holding @pfn: a few steps on from the last one, else by bisection. */
static inline guint64
find (PgsClassRuns *self,
      guint64       pfn)
{
  const Runs *r = self->cur;
  guint64 hint = self->cursor, lo = 0, hi = r->n;

  if (hint < r->n && rstart (r, hint) <= pfn)
    {
      for (guint step = 0; step < 4 && hint < r->n; step++, hint++)
        if (pfn < rstart (r, hint + 1))
          return self->cursor = hint;
      lo = hint;
    }
  else if (hint < r->n)
    hi = hint;
  while (hi - lo > 1)
    {
      guint64 mid = lo + (hi - lo) / 2;

      if (rstart (r, mid) <= pfn)
        lo = mid;
      else
        hi = mid;
    }
  return self->cursor = lo;
}

guint8
pgs_class_runs_at (PgsClassRuns *self,
                   guint64       pfn)
{
  g_return_val_if_fail (pfn < self->n_frames, 0);
  return self->cur->klass[find (self, pfn)];
}

guint8
pgs_class_runs_max (PgsClassRuns        *self,
                    const PgsFrameRange *ranges,
                    guint                n_ranges)
{
  const Runs *r = self->cur;
  guint8 best = 0, any = 0;

  for (guint k = 0; k < n_ranges; k++)
    {
      guint64 i;

      if (ranges[k].start >= ranges[k].end)
        continue;
      for (i = find (self, ranges[k].start); i < r->n && rstart (r, i) < ranges[k].end; i++)
        {
          best = MAX (best, r->klass[i] & PGS_CLASS_MASK);
          any |= r->klass[i];
        }
      self->cursor = MIN (i, r->n) > 0 ? MIN (i, r->n) - 1 : 0;
    }
  return best | (any & PGS_CLASS_HIGHLIGHT);
}

guint8
pgs_class_runs_mode (PgsClassRuns        *self,
                     const PgsFrameRange *ranges,
                     guint                n_ranges)
{
  const Runs *r = self->cur;
  guint64 hist[PGS_N_CATEGORIES], best_n = 0;
  guint8 any = 0, best = 0, first = 0xff;
  gboolean uniform = TRUE;

  /* Most blocks are one class throughout, often inside one run: check that first. */
  for (guint k = 0; k < n_ranges && uniform; k++)
    {
      guint64 i;

      if (ranges[k].start >= ranges[k].end)
        continue;
      for (i = find (self, ranges[k].start); i < r->n && rstart (r, i) < ranges[k].end; i++)
        {
          guint8 c = r->klass[i];

          if (first == 0xff)
            first = c & PGS_CLASS_MASK;
          else if ((c & PGS_CLASS_MASK) != first)
            {
              uniform = FALSE;
              break;
            }
          any |= c;
        }
      self->cursor = MIN (i, r->n) > 0 ? MIN (i, r->n) - 1 : 0;
    }
  if (uniform)
    return first == 0xff ? 0 : first | (any & PGS_CLASS_HIGHLIGHT);

  memset (hist, 0, sizeof hist);
  any = 0;
  for (guint k = 0; k < n_ranges; k++)
    {
      guint64 i;

      if (ranges[k].start >= ranges[k].end)
        continue;
      for (i = find (self, ranges[k].start); i < r->n && rstart (r, i) < ranges[k].end; i++)
        {
          guint64 s = MAX (rstart (r, i), ranges[k].start), e = MIN (rstart (r, i + 1), ranges[k].end);
          guint8 c = r->klass[i];

          if ((c & PGS_CLASS_MASK) < PGS_N_CATEGORIES)
            hist[c & PGS_CLASS_MASK] += e - s;
          any |= c;
        }
      self->cursor = MIN (i, r->n) > 0 ? MIN (i, r->n) - 1 : 0;
    }
  for (guint c = 0; c < PGS_N_CATEGORIES; c++)
    if (hist[c] > best_n)
      {
        best_n = hist[c];
        best = c;
      }
  return best | (any & PGS_CLASS_HIGHLIGHT);
}

guint64
pgs_class_runs_find (PgsClassRuns *self,
                     guint64       start,
                     guint64       end,
                     guint8        want)
{
  const Runs *r = self->cur;

  end = MIN (end, self->n_frames);
  if (start >= end)
    return G_MAXUINT64;
  for (guint64 i = find (self, start); i < r->n && rstart (r, i) < end; i++)
    if ((r->klass[i] & PGS_CLASS_MASK) == want)
      return MAX (rstart (r, i), start);
  return G_MAXUINT64;
}

/* Per block of a linear row: up to SMALL (class, weight) pairs, then a full histogram. */
#define SMALL 4

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

  n = MIN (n, self->n_frames);
  for (guint64 y = by * a; y < MIN ((by + 1) * a, mh); y++)
    {
      guint64 row = y * mw, s = row + bx0 * a, e = MIN (row + MIN ((bx1 + 1) * a, mw), n);

      if (s >= e)
        break;
      for (guint64 i = find (self, s); i < r->n && rstart (r, i) < e; i++)
        {
          guint64 ps = MAX (rstart (r, i), s), pe = MIN (rstart (r, i + 1), e);
          guint8 c = r->klass[i], cm = c & PGS_CLASS_MASK;

          /* The piece, block by block: one division a piece, not a block. */
          guint64 b = (ps - row) / a - bx0, block_end = row + (b + bx0 + 1) * a;

          for (; ps < pe; b++, block_end += a)
            {
              guint64 be = MIN (pe, block_end), w = be - ps;

              if (mode && cm < PGS_N_CATEGORIES)
                {
                  guint k = n_small[b];

                  if (k <= SMALL)
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
            }
          self->cursor = i;
        }
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

/* ---- folding (pgs-render-fold.c) ---- */

guint64
pgs_class_runs_get_n_runs (PgsClassRuns *self)
{
  return self->base.n;
}

void
pgs_class_runs_get_run (PgsClassRuns *self,
                        guint64       i,
                        guint64      *start,
                        guint64      *end,
                        guint8       *klass)
{
  g_return_if_fail (i < self->base.n);
  *start = rstart (&self->base, i);
  *end = rstart (&self->base, i + 1);
  *klass = self->base.klass[i];
}

PgsClassRuns *
pgs_class_runs_cut (PgsClassRuns        *self,
                    const PgsFrameRange *cuts,
                    gsize                n_cuts)
{
  PgsClassRuns *out = g_new0 (PgsClassRuns, 1);
  guint64 pos = 0;
  gsize k = 0;

  for (guint64 r = 0; r < self->base.n; r++)
    {
      guint64 s = rstart (&self->base, r), e = rstart (&self->base, r + 1);

      while (s < e)
        {
          while (k < n_cuts && cuts[k].end <= s)
            k++;
          if (k < n_cuts && cuts[k].start <= s)
            s = MIN (e, cuts[k].end);
          else
            {
              guint64 piece = k < n_cuts ? MIN (e, cuts[k].start) : e;

              runs_push (&out->base, &pos, piece - s, self->base.klass[r]);
              s = piece;
            }
        }
    }
  runs_finish (&out->base, pos);
  out->n_frames = pos;
  out->cur = &out->base;
  return out;
}
