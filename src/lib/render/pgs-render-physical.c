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
#include "pgs-render-physical-private.h"

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

/* Runs of the map read at once by pgs_class_runs_new(): 12 bytes each, on the stack. */
#define RUN_BATCH 512

/* Not a class: a pair whose category is its compound head's (a tail page). */
#define INHERIT 0xfe

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
  const guint32 *pair_counts;
  const guint64 *pair_flags;
  guint32 n_pairs = pgs_physmap_get_pairs (physmap, &pair_counts, &pair_flags);
  g_autofree guint8 *pair_class = g_malloc (MAX (n_pairs, 1));
  g_autofree guint8 *pair_head = g_malloc (MAX (n_pairs, 1));
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
  /* A class depends on the run's (count, flags) pair only, bar a tail page's, which is its
   * head's: a few thousand pairs classified once, not half a million runs.
   * pgs_category_classify_run() with INHERIT as the head tells a tail page. */
  for (guint32 p = 0; p < n_pairs; p++)
    {
      guint8 mark = INHERIT;

      pair_class[p] = by_category ? pgs_category_classify_run (pair_flags[p], &mark)
                                  : share_class (pair_counts[p], pair_flags[p]);
      pair_head[p] = (pair_flags[p] & PGS_KPF_BIT (PGS_KPF_COMPOUND_HEAD)) != 0;
    }
  /* The spans go on as the runs are made: no second copy. */
  st.over = over;
  st.n_over = n_spans;
  st.out = &self->base;
  /* The map's runs a batch at a time (no call a run); a run before the next span goes
   * straight on, joining the last class run when it has its class. */
  {
    guint64 limit = n_spans > 0 ? over[0].start : G_MAXUINT64;
    guint8 last = 0xff;   /* the last class run's class; none yet */
    guint64 epoch_end = 0;  /* where the next epoch starts; 0: ask runs_push() */

    for (guint64 i = 0; i < n_runs; )
      {
        guint64 lengths[RUN_BATCH];
        guint32 pairs[RUN_BATCH];
        guint64 got = pgs_physmap_get_run_pairs (physmap, i, RUN_BATCH, lengths, pairs);

        for (guint64 k = 0; k < got; k++)
          {
            guint8 c = pair_class[pairs[k]];

            /* As pgs_category_classify_run(): a tail takes the last head's class. */
            if (by_category)
              {
                c = c == INHERIT ? head : c;
                head = pair_head[pairs[k]] ? c : head;
              }
            if (G_UNLIKELY (pos + lengths[k] > limit))
              {
                stream_push (&st, pos, pos + lengths[k], c);
                pos += lengths[k];
                limit = st.k < st.n_over ? MAX (st.over[st.k].start, pos) : G_MAXUINT64;
                last = self->base.n > 0 ? self->base.klass[self->base.n - 1] : 0xff;
                epoch_end = 0;
                continue;
              }
            if (c != last)
              {
                Runs *r = &self->base;

                /* A new class run: straight in while there is room and no epoch to
                 * start (runs_push() makes both). */
                if (G_LIKELY (r->n < r->cap && st.pos < epoch_end))
                  {
                    r->lo[r->n] = (guint32) st.pos;
                    r->klass[r->n++] = c;
                    st.pos += lengths[k];
                  }
                else
                  {
                    runs_push (r, &st.pos, lengths[k], c);
                    epoch_end = ((guint64) r->epochs->len + 1) << 32;
                  }
                last = c;
              }
            else
              st.pos += lengths[k];
            pos += lengths[k];
          }
        i += got;
      }
  }
  runs_finish (&self->base, self->n_frames);

  if (frame_counts != NULL && self->base.epochs->len == 0)
    {
      /* Below 2^32 frames: each run's end is the next one's low bits. */
      const guint32 *lo = self->base.lo;

      for (guint64 r = 0; r + 1 < self->base.n; r++)
        frame_counts[self->base.klass[r]] += lo[r + 1] - lo[r];
      if (self->base.n > 0)
        frame_counts[self->base.klass[self->base.n - 1]] += self->n_frames - lo[self->base.n - 1];
    }
  else if (frame_counts != NULL)
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

gboolean
pgs_class_runs_blocks (PgsClassRuns *self,
                       gboolean      mode,
                       guint64       start,
                       guint64       size,
                       guint64       n_blocks,
                       guint64       end,
                       guint8       *out)
{
  const guint8 *klass = self->cur->klass;
  guint64 k = 0;
  Walk w;

  end = MIN (end, self->n_frames);
  if (start >= end || n_blocks == 0)
    return FALSE;
  n_blocks = MIN (n_blocks, (end - start + size - 1) / size);
  w = walk_start (self, start);
  if (w.re >= MIN (start + n_blocks * size, end))
    {
      /* All in one run. */
      memset (out, klass[w.i], n_blocks);
      return TRUE;
    }
  while (k < n_blocks)
    {
      guint64 bs = start + k * size, be = MIN (bs + size, end);

      while (w.re <= bs)
        walk_next (self, &w, end);
      if (be <= w.re)
        {
          /* The blocks wholly inside this run (the last one perhaps cut short by @end):
           * its class, as _max() and _mode() give on one run. */
          guint64 whole = w.re >= end ? n_blocks - k : MIN ((w.re - bs) / size, n_blocks - k);

          memset (out + k, klass[w.i], whole);
          k += whole;
        }
      else if (mode && size == 4 && be - bs == 4)
        {
          /* The mode of four frames (2 x 2 blocks, a machine of tens of GiB) over a few
           * runs: their class bytes, then the sorting network of the linear layout (the
           * highest class, for the sharing view, costs less from the runs). */
          guint8 v[4], top = 0;
          Walk u = w;

          for (guint f = 0; f < 4; f++)
            {
              while (u.re <= bs + f)
                {
                  u.i++;
                  u.rs = u.re;
                  u.re = rstart (self->cur, u.i + 1);
                }
              v[f] = klass[u.i];
              top = MAX (top, v[f] & PGS_CLASS_MASK);
            }
          if (top < PGS_N_CATEGORIES)
            out[k++] = bytes_mode4 (v);
          else
            {
              /* A class past the categories: mode_walk() says what a block of one such
               * class is, which the bytes do not. */
              PgsFrameRange range = { bs, be };

              out[k++] = mode_walk (self, &range, 1);
            }
          w = u;
        }
      else
        {
          /* A block over a few runs (the run ends inside it): their classes and frames in
           * a short list, as mode_walk() would count them, which takes over should a
           * block hold more than SMALL classes. */
          guint8 small_c[SMALL], any = 0, best = 0, first = klass[w.i] & PGS_CLASS_MASK;
          guint64 small_w[SMALL], best_n = 0;
          guint n_small = 0;
          gboolean uniform = TRUE, many = FALSE;
          Walk v = w;

          for (;;)
            {
              guint8 c = klass[v.i], cm = c & PGS_CLASS_MASK;
              guint64 weight = MIN (v.re, be) - MAX (v.rs, bs);
              guint j;

              any |= c;
              best = MAX (best, cm);
              uniform &= cm == first;
              if (mode && cm < PGS_N_CATEGORIES)
                {
                  for (j = 0; j < n_small && small_c[j] != cm; j++)
                    ;
                  if (j < n_small)
                    small_w[j] += weight;
                  else if (n_small < SMALL)
                    {
                      small_c[n_small] = cm;
                      small_w[n_small++] = weight;
                    }
                  else
                    many = TRUE;
                }
              if (v.re >= be)
                break;
              v.i++;
              v.rs = v.re;
              v.re = rstart (self->cur, v.i + 1);
            }
          if (G_UNLIKELY (many))
            {
              PgsFrameRange range = { bs, be };

              out[k++] = mode_walk (self, &range, 1);
            }
          else if (!mode)
            out[k++] = best | (any & PGS_CLASS_HIGHLIGHT);
          else if (uniform)
            out[k++] = first | (any & PGS_CLASS_HIGHLIGHT);
          else
            {
              /* Most common, ties to the lowest class. */
              best = 0;
              for (guint j = 0; j < n_small; j++)
                if (small_w[j] > best_n || (small_w[j] == best_n && small_c[j] < best))
                  {
                    best_n = small_w[j];
                    best = small_c[j];
                  }
              out[k++] = best | (any & PGS_CLASS_HIGHLIGHT);
            }
          /* On from the block's last run. */
          w = v;
        }
    }
  cursor_set (self, w.i, w.rs, w.re);
  return FALSE;
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
