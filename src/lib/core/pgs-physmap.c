/* pgs-physmap.c
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Runs of frames with the same map count and flags, never an array per frame: a machine's
 * frames fall into far fewer runs (145 k to 650 k runs in 6.5 M frames on a 24 GiB guest).
 * Two packed arrays, one entry a run, 6 bytes a run: the low 32 bits of its first frame
 * (the high bits, 0 below 16 TiB of 4 KiB pages, from a short list of the first run past
 * each multiple of 2^32) and an index into a table of the distinct (count, flags) pairs
 * (u16 for the usual few thousand, u32 past 65536). Counts are u32: a map count over 4
 * billion saturates. Made in pgs-physmap-make.c; here, looked up and classified.
 */

#include "config.h"

#include <string.h>

#include "pgs-kpage.h"
#include "pgs-palette.h"
#include "pgs-physmap-private.h"

G_DEFINE_BOXED_TYPE (PgsPhysMap, pgs_physmap, pgs_physmap_ref, pgs_physmap_unref)

/* ---- lookup ---- */

/* The index of the run holding @pfn (< n_frames): from the last one looked up when @pfn is
 * in it or a few runs on (sequential access), else by bisection. */
static guint64
find_run (PgsPhysMap *self,
          guint64     pfn)
{
  guint64 hint = __atomic_load_n (&self->cursor, __ATOMIC_RELAXED);
  guint64 lo = 0, hi = self->n_runs;

  if (hint < self->n_runs && run_start (self, hint) <= pfn)
    {
      for (guint step = 0; step < 4 && hint < self->n_runs; step++, hint++)
        if (pfn < run_start (self, hint + 1))
          goto found;
      lo = hint;
    }
  else if (hint < self->n_runs)
    hi = hint;

  while (hi - lo > 1)
    {
      guint64 mid = lo + (hi - lo) / 2;

      if (run_start (self, mid) <= pfn)
        lo = mid;
      else
        hi = mid;
    }
  hint = lo;
found:
  __atomic_store_n (&self->cursor, hint, __ATOMIC_RELAXED);
  return hint;
}

guint64
pgs_physmap_find_run (PgsPhysMap *self,
                      guint64     pfn)
{
  g_return_val_if_fail (self != NULL, 0);
  if (pfn >= self->n_frames)
    return self->n_runs;
  return find_run (self, pfn);
}

gboolean
pgs_physmap_get_frame (PgsPhysMap *self,
                       guint64     pfn,
                       guint32    *count,
                       guint64    *flags)
{
  guint64 r;

  g_return_val_if_fail (self != NULL, FALSE);
  if (pfn >= self->n_frames)
    {
      if (count != NULL)
        *count = 0;
      if (flags != NULL)
        *flags = 0;
      return FALSE;
    }
  r = find_run (self, pfn);
  if (count != NULL)
    *count = RUN_COUNT (self, r);
  if (flags != NULL)
    *flags = RUN_FLAGS (self, r);
  return TRUE;
}

guint64
pgs_physmap_get_n_runs (PgsPhysMap *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->n_runs;
}

void
pgs_physmap_get_run (PgsPhysMap *self,
                     guint64     i,
                     guint64    *start,
                     guint64    *n_frames,
                     guint32    *count,
                     guint64    *flags)
{
  guint64 s;
  guint32 pair;

  g_return_if_fail (self != NULL);
  g_return_if_fail (i < self->n_runs);

  /* Called once a run by whoever walks them all: each lookup once. */
  s = run_start (self, i);
  pair = RUN_PAIR (self, i);
  if (start != NULL)
    *start = s;
  if (n_frames != NULL)
    *n_frames = run_start (self, i + 1) - s;
  if (count != NULL)
    *count = self->pair_count[pair];
  if (flags != NULL)
    *flags = self->pair_flags[pair];
}

/* Where run @i + 1 starts (the map's end past the last run), for walks that carry the
 * epoch in *@epoch forward from one run to the next. */
static inline guint64
next_start (PgsPhysMap *self,
            guint64     i,
            guint      *epoch)
{
  if (i + 1 >= self->n_runs)
    return self->n_frames;
  while (*epoch < self->n_epochs && self->epochs[*epoch] <= i + 1)
    (*epoch)++;
  return (guint64) *epoch << 32 | self->run_lo[i + 1];
}

guint64
pgs_physmap_get_runs (PgsPhysMap *self,
                      guint64     first,
                      guint64     n,
                      guint64    *lengths,
                      guint32    *counts,
                      guint64    *flags)
{
  guint64 end, start;
  guint epoch = 0;

  g_return_val_if_fail (self != NULL, 0);

  if (first >= self->n_runs)
    return 0;
  end = first + MIN (n, self->n_runs - first);
  /* The high bits of each start move on with the epochs, not looked up a run at a time. */
  while (epoch < self->n_epochs && self->epochs[epoch] <= first)
    epoch++;
  start = (guint64) epoch << 32 | self->run_lo[first];
  for (guint64 i = first; i < end; i++)
    {
      guint64 next = next_start (self, i, &epoch);
      guint32 pair = RUN_PAIR (self, i);

      if (lengths != NULL)
        lengths[i - first] = next - start;
      if (counts != NULL)
        counts[i - first] = self->pair_count[pair];
      if (flags != NULL)
        flags[i - first] = self->pair_flags[pair];
      start = next;
    }
  return end - first;
}

guint32
pgs_physmap_get_pairs (PgsPhysMap     *self,
                       const guint32 **counts,
                       const guint64 **flags)
{
  g_return_val_if_fail (self != NULL, 0);

  if (counts != NULL)
    *counts = self->pair_count;
  if (flags != NULL)
    *flags = self->pair_flags;
  return self->n_pairs;
}

guint64
pgs_physmap_get_run_pairs (PgsPhysMap *self,
                           guint64     first,
                           guint64     n,
                           guint64    *lengths,
                           guint32    *pairs)
{
  guint64 end, start;
  guint epoch = 0;

  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (lengths != NULL && pairs != NULL, 0);

  if (first >= self->n_runs)
    return 0;
  end = first + MIN (n, self->n_runs - first);
  while (epoch < self->n_epochs && self->epochs[epoch] <= first)
    epoch++;
  if (end < self->n_runs && (epoch >= self->n_epochs || self->epochs[epoch] > end))
    {
      /* No epoch starts inside the batch, nor with the run past it (the usual case, and
       * always below 16 TiB): the lengths are differences of the low bits, in a loop the
       * compiler can widen. */
      const guint32 *lo = self->run_lo + first;

      for (guint64 k = 0; k < end - first; k++)
        lengths[k] = lo[k + 1] - lo[k];
    }
  else
    {
      start = (guint64) epoch << 32 | self->run_lo[first];
      for (guint64 i = first; i < end; i++)
        {
          guint64 next = next_start (self, i, &epoch);

          lengths[i - first] = next - start;
          start = next;
        }
    }
  if (self->run_pair16 != NULL)
    for (guint64 i = first; i < end; i++)
      pairs[i - first] = self->run_pair16[i];
  else
    memcpy (pairs, self->run_pair + first, (end - first) * sizeof *pairs);
  return end - first;
}

PgsPhysMap *
pgs_physmap_ref (PgsPhysMap *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
pgs_physmap_unref (PgsPhysMap *self)
{
  g_return_if_fail (self != NULL);
  if (g_atomic_ref_count_dec (&self->ref_count))
    {
      g_free (self->run_lo);
      g_free (self->run_pair);
      g_free (self->run_pair16);
      g_free (self->epochs);
      g_free (self->pair_count);
      g_free (self->pair_flags);
      g_mutex_clear (&self->arrays_lock);
      g_free (self->counts);
      g_free (self->flags);
      g_free (self->meminfo_text);
      g_free (self->zoneinfo_text);
      g_array_unref (self->zones);
      g_array_unref (self->spans);
      g_free (self->counters_error);
      g_free (self);
    }
}

guint64
pgs_physmap_get_n_frames (PgsPhysMap *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->n_frames;
}

/* The arrays, expanded from the runs once and kept: 12 bytes a frame. */
static void
ensure_arrays (PgsPhysMap *self)
{
  g_mutex_lock (&self->arrays_lock);
  if (self->counts == NULL)
    {
      guint32 *counts = g_new (guint32, MAX (self->n_frames, 1));
      guint64 *flags = g_new (guint64, MAX (self->n_frames, 1));

      for (guint64 r = 0; r < self->n_runs; r++)
        {
          guint32 c = RUN_COUNT (self, r);
          guint64 f = RUN_FLAGS (self, r);

          for (guint64 i = run_start (self, r); i < run_start (self, r + 1); i++)
            {
              counts[i] = c;
              flags[i] = f;
            }
        }
      self->flags = flags;
      g_atomic_pointer_set (&self->counts, counts);
    }
  g_mutex_unlock (&self->arrays_lock);
}

const guint32 *
pgs_physmap_get_counts (PgsPhysMap *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  ensure_arrays (self);
  return self->counts;
}

const guint64 *
pgs_physmap_get_flags (PgsPhysMap *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  ensure_arrays (self);
  return self->flags;
}

const char *
pgs_physmap_get_meminfo_text (PgsPhysMap *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->meminfo_text;
}

const char *
pgs_physmap_get_zoneinfo_text (PgsPhysMap *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->zoneinfo_text;
}

const PgsMeminfo *
pgs_physmap_get_meminfo (PgsPhysMap *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->has_meminfo ? &self->meminfo : NULL;
}

const PgsZone *
pgs_physmap_get_zones (PgsPhysMap *self,
                       guint      *n_zones)
{
  g_return_val_if_fail (self != NULL, NULL);
  if (n_zones != NULL)
    *n_zones = self->zones->len;
  return (const PgsZone *) (gpointer) self->zones->data;
}

const char *
pgs_physmap_get_counters_error (PgsPhysMap *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->counters_error;
}

const PgsFrameSpan *
pgs_physmap_get_spans (PgsPhysMap *self,
                       guint      *n_spans)
{
  g_return_val_if_fail (self != NULL, NULL);
  if (n_spans != NULL)
    *n_spans = self->spans->len;
  return (const PgsFrameSpan *) (gpointer) self->spans->data;
}

void
pgs_physmap_classify (PgsPhysMap *self,
                      guint8     *out,
                      guint64    *counts)
{
  guint8 head = PGS_CATEGORY_RESERVED;

  g_return_if_fail (self != NULL);

  for (guint64 r = 0; r < self->n_runs; r++)
    {
      guint8 c = pgs_category_classify_run (RUN_FLAGS (self, r), &head);
      guint64 n = run_start (self, r + 1) - run_start (self, r);

      memset (out + run_start (self, r), c, n);
      if (counts != NULL)
        counts[c] += n;
    }
  for (guint i = 0; i < self->spans->len; i++)
    {
      const PgsFrameSpan *s = &g_array_index (self->spans, PgsFrameSpan, i);

      /* Spans hold flagless frames only, which classify as "reserved". */
      for (guint64 pfn = s->start; pfn < s->start + s->n_frames; pfn++)
        {
          if (counts != NULL)
            {
              counts[out[pfn]]--;
              counts[s->category]++;
            }
          out[pfn] = s->category;
        }
    }
}

void
pgs_physmap_override_classes (PgsPhysMap   *self,
                              guint8       *classes,
                              guint64      *counts,
                              const guint8 *class_of)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (class_of != NULL);

  for (guint i = 0; i < self->spans->len; i++)
    {
      const PgsFrameSpan *s = &g_array_index (self->spans, PgsFrameSpan, i);
      guint8 to = class_of[s->category];

      for (guint64 pfn = s->start; pfn < s->start + s->n_frames; pfn++)
        {
          if (counts != NULL)
            {
              counts[classes[pfn]]--;
              counts[to]++;
            }
          classes[pfn] = to;
        }
    }
}

void
pgs_physmap_override_share_classes (PgsPhysMap *self,
                                    guint8     *classes,
                                    guint64    *counts)
{
  static const guint8 share_of[PGS_N_CATEGORIES] = {
    [PGS_CATEGORY_HOLE] = PGS_SHARE_HOLE,
    [PGS_CATEGORY_FREE_UNINIT] = PGS_SHARE_FREE,
  };

  pgs_physmap_override_classes (self, classes, counts, share_of);
}

PgsCategory
pgs_physmap_get_category (PgsPhysMap *self,
                          guint64     pfn)
{
  guint lo = 0, hi;

  g_return_val_if_fail (self != NULL, PGS_CATEGORY_HOLE);
  if (pfn >= self->n_frames)
    return PGS_CATEGORY_HOLE;

  /* Binary search of the spans: the last one starting at or before @pfn. */
  hi = self->spans->len;
  while (lo < hi)
    {
      guint mid = (lo + hi) / 2;

      if (g_array_index (self->spans, PgsFrameSpan, mid).start <= pfn)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo > 0)
    {
      const PgsFrameSpan *s = &g_array_index (self->spans, PgsFrameSpan, lo - 1);

      if (pfn < s->start + s->n_frames)
        return s->category;
    }

  /* The largest folio is a 1 GiB hugetlb page, 2^18 frames: back to the head over the
   * runs of tail pages, then classified forward from there as a run of frames would be. */
  {
    guint64 r = find_run (self, pfn), h = r;
    guint8 state = PGS_CATEGORY_RESERVED, c = PGS_CATEGORY_RESERVED;

    while ((RUN_FLAGS (self, h) & PGS_KPF_BIT (PGS_KPF_COMPOUND_TAIL)) &&
           run_start (self, h) > 0 && pfn - run_start (self, h) < (1u << 18))
      h--;
    for (; h <= r; h++)
      c = pgs_category_classify_run (RUN_FLAGS (self, h), &state);
    return c;
  }
}
