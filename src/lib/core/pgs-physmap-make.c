/* pgs-physmap-make.c: a physical map made, its runs packed and its never-initialised
 * frames found
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>
#include <unistd.h>

#include "pgs-physmap-builder.h"
#include "pgs-physmap-private.h"
#include "pgs-procfs.h"

/* MemTotal is in bytes, zoneinfo in frames of the kernel's page size: this machine's, as
 * the frames are (a snapshot is read back on the machine type that wrote it). */
static guint
page_size (void)
{
  long size = sysconf (_SC_PAGESIZE);

  return size > 0 ? (guint) size : 4096;
}

/* Scans frames [0, n) of two arrays into the builder, comparing in place. */
static void
builder_add_frames (RunBuilder    *b,
                    const guint32 *counts,
                    const guint64 *flags,
                    guint64        n)
{
  guint64 i = 0;

  while (i < n)
    {
      guint64 j = i + 1;

      while (j < n && counts[j] == counts[i] && flags[j] == flags[i])
        j++;
      pgs_run_builder_add (b, counts[i], flags[i], j - i);
      i = j;
    }
}

PgsPhysMap *
pgs_physmap_new_full (guint32    *counts,
                      guint64    *flags,
                      guint64     n_frames,
                      const char *meminfo_text,
                      const char *zoneinfo_text)
{
  RunBuilder b;

  g_return_val_if_fail ((counts != NULL && flags != NULL) || n_frames == 0, NULL);

  pgs_run_builder_init (&b);
  builder_add_frames (&b, counts, flags, n_frames);
  g_free (counts);
  g_free (flags);
  return pgs_physmap_new_from_builder (&b, meminfo_text, zoneinfo_text);
}

PgsPhysMap *
pgs_physmap_new_take (guint32 *counts,
                      guint64 *flags,
                      guint64  n_frames)
{
  return pgs_physmap_new_full (counts, flags, n_frames, NULL, NULL);
}

PgsPhysMap *
pgs_physmap_new_from_runs (const guint64 *run_lengths,
                           const guint32 *run_counts,
                           const guint64 *run_flags,
                           guint64        n_runs,
                           const char    *meminfo_text,
                           const char    *zoneinfo_text)
{
  RunBuilder b;

  g_return_val_if_fail ((run_lengths != NULL && run_counts != NULL && run_flags != NULL) ||
                        n_runs == 0, NULL);

  pgs_run_builder_init (&b);
  for (guint64 i = 0; i < n_runs; i++)
    {
      if (run_lengths[i] > G_MAXUINT64 - b.n_frames)
        break;
      pgs_run_builder_add (&b, run_counts[i], run_flags[i], run_lengths[i]);
    }
  return pgs_physmap_new_from_builder (&b, meminfo_text, zoneinfo_text);
}

/* For find_spans(): walks back over the runs that have no flags and no count. */
static guint64
flagless_start (gpointer data,
                guint64  first,
                guint64  end)
{
  PgsPhysMap *self = data;
  guint64 r;

  if (end <= first || end > self->n_frames)
    return end;
  r = pgs_physmap_find_run (self, end - 1);
  for (;;)
    {
      if (RUN_COUNT (self, r) != 0 || RUN_FLAGS (self, r) != 0)
        return MAX (run_start (self, r + 1), first);
      if (run_start (self, r) <= first || r == 0)
        return MAX (run_start (self, r), first);
      r--;
    }
}

/* What the kernel shows for memory it has not initialised, and why the rule of find_spans() is right.
 *
 * fs/proc/page.c answers kpageflags from the struct page: a frame whose memory section has
 * no memmap reads NOPAGE (pfn_to_online_page() is NULL), any other frame reads what its
 * struct page says (stable_page_flags(): BUDDY when is_free_buddy_page() finds it inside a
 * free block, and so on). With CONFIG_DEFERRED_STRUCT_PAGE_INIT the memmap of the top of
 * each node is filled in after boot; mainline waits for that to finish
 * (page_alloc_init_late()) before starting init, so user space never sees it. A kernel
 * booted with `deferred_init=lazy` (a vendor patch; Linux 6.18 on Firecracker here)
 * initialises a section at a time when the allocator runs short, and until then the
 * struct pages are zero: the frames read flags 0 and map count 0, exactly as a vmalloc
 * page, a kernel stack or a page on a per-CPU free list does. What tells them apart is
 * the kernel's counters, measured on that machine (24 GiB, 6,553,600 frames):
 *
 *   zone Normal: start_pfn 1048576, spanned = present = 5505024, managed 491520; the frames
 *   from 1540096 (= start + managed) to the end of the zone, 5013504 = present − managed,
 *   all read flags 0 and count 0, a run aligned to a 128 MiB section. The zone's first
 *   491520 frames hold no RESERVED frame at all.
 *   MemTotal − Σ managed = 4902738 frames and MemFree − Σ nr_free_pages the same (to the
 *   per-CPU lists): the patch counts never-initialised memory as total and as free. The
 *   110766 frames of the run it does not count are Σ (present − managed) − that figure
 *   − the RESERVED frames of DMA and DMA32: the boot allocations (the memmap itself, 400
 *   MiB for 24 GiB) that memblock placed top-down, at the highest addresses, where their
 *   struct pages were never initialised either.
 *   zone DMA32: spanned − present = 262144 frames, the 3–4 GiB PCI hole, also read flags 0
 *   and count 0 (this kernel has a memmap for them) instead of NOPAGE.
 *
 * The rule, per zone, from zoneinfo:
 *  1. A never-initialised tail: the frames with flags 0 and count 0 that run up to the end
 *     of the zone, cut to whole max-order blocks (1024 frames, 4 MiB; sections are
 *     multiples of it). Deferred init, mainline and lazy alike, fills a zone from the
 *     bottom up, so what is left is the top. It is taken only when it fits in present −
 *     managed: memory the kernel has and has not handed to the allocator. Every page the
 *     kernel has allocated (vmalloc, stacks, page tables, per-CPU lists) came from the
 *     allocator and is inside managed, so a tail that fits cannot be made of them alone.
 *  2. Holes with a memmap: the other flagless runs of whole max-order blocks, taken as holes
 *     only when all of them together fit in spanned − present.
 *  3. With meminfo: of the tails, MemTotal − Σ managed frames are counted as free ("free, not
 *     yet initialised"): what the kernel itself counts as memory. The rest, taken from the
 *     highest frames down (memblock allocates top-down), stay "reserved or other kernel".
 *     On mainline MemTotal = Σ managed, so a tail (only during boot) would not count as
 *     free, as the kernel does not count it.
 */


/* MAX_PAGE_ORDER 10 on every 4 KiB-page architecture: the unit the allocator, and deferred
 * init, work in. */
#define BLOCK_FRAMES 1024u

static gint
compare_spans (gconstpointer a,
               gconstpointer b)
{
  const PgsFrameSpan *x = a, *y = b;

  return x->start < y->start ? -1 : x->start > y->start;
}

/* The frames the kernel has never initialised (and, on kernels that give the holes in a
 * zone a struct page without NOPAGE, the holes): PgsFrameSpans, sorted and disjoint.
 * @meminfo may be NULL (then nothing is reconciled with MemTotal). */
static GArray *
find_spans (PgsPhysMap       *data,
            const PgsZone    *zones,
            guint             n_zones,
            const PgsMeminfo *meminfo,
            guint64           n_frames,
            guint             page_size)
{
  GArray *spans = g_array_new (FALSE, TRUE, sizeof (PgsFrameSpan));
  g_autoptr(GArray) tails = g_array_new (FALSE, TRUE, sizeof (PgsFrameSpan));
  guint64 managed = 0, tail_frames = 0, counted;

  g_return_val_if_fail (zones != NULL || n_zones == 0, spans);
  if (n_frames == 0)
    return spans;

  for (guint z = 0; z < n_zones; z++)
    {
      const PgsZone *zone = &zones[z];
      guint64 first, end, tail_start, holes = 0;
      g_autoptr(GArray) hole_spans = g_array_new (FALSE, TRUE, sizeof (PgsFrameSpan));

      managed += zone->managed;
      if (!zone->has_start || zone->spanned == 0 || zone->start_pfn >= n_frames)
        continue;
      first = zone->start_pfn;
      end = MIN (zone->start_pfn + zone->spanned, n_frames);

      /* 1. The flagless tail, in whole blocks. */
      tail_start = flagless_start (data, first, end);
      tail_start = (tail_start + BLOCK_FRAMES - 1) / BLOCK_FRAMES * BLOCK_FRAMES;
      if (tail_start < end && end - tail_start >= BLOCK_FRAMES &&
          end - tail_start <= zone->present - zone->managed)
        {
          PgsFrameSpan s = { tail_start, end - tail_start, PGS_CATEGORY_FREE_UNINIT };

          g_array_append_val (tails, s);
          tail_frames += s.n_frames;
          end = tail_start;
        }

      /* 2. Flagless whole blocks elsewhere in the zone, as holes if they fit. */
      if (zone->spanned == zone->present)
        continue;
      for (guint64 b = (first + BLOCK_FRAMES - 1) / BLOCK_FRAMES * BLOCK_FRAMES;
           b + BLOCK_FRAMES <= end; b += BLOCK_FRAMES)
        {
          PgsFrameSpan *last;

          if (flagless_start (data, b, b + BLOCK_FRAMES) != b)
            continue;
          last = hole_spans->len > 0
                 ? &g_array_index (hole_spans, PgsFrameSpan, hole_spans->len - 1) : NULL;
          if (last != NULL && last->start + last->n_frames == b)
            last->n_frames += BLOCK_FRAMES;
          else
            {
              PgsFrameSpan s = { b, BLOCK_FRAMES, PGS_CATEGORY_HOLE };

              g_array_append_val (hole_spans, s);
            }
          holes += BLOCK_FRAMES;
        }
      if (holes > 0 && holes <= zone->spanned - zone->present)
        g_array_append_vals (spans, hole_spans->data, hole_spans->len);
    }

  /* 3. Reconcile the tails with what the kernel counts as memory. */
  counted = tail_frames;
  if (meminfo != NULL && PGS_MEMINFO_HAS (meminfo, PGS_MEMINFO_MEM_TOTAL))
    {
      guint64 total = meminfo->value[PGS_MEMINFO_MEM_TOTAL] / MAX (page_size, 1);

      counted = total > managed ? MIN (total - managed, tail_frames) : 0;
    }
  {
    guint64 excess = tail_frames - counted;

    /* Highest tails first: the uncounted frames are the top of memory. */
    for (guint i = tails->len; i-- > 0 && excess > 0;)
      {
        PgsFrameSpan *t = &g_array_index (tails, PgsFrameSpan, i);
        guint64 take = MIN (excess, t->n_frames);

        t->n_frames -= take;
        excess -= take;
      }
  }
  for (guint i = 0; i < tails->len; i++)
    if (g_array_index (tails, PgsFrameSpan, i).n_frames > 0)
      g_array_append_val (spans, g_array_index (tails, PgsFrameSpan, i));

  g_array_sort (spans, compare_spans);
  return spans;
}

PgsPhysMap *
pgs_physmap_new_from_builder (RunBuilder *b,
                              const char *meminfo_text,
                              const char *zoneinfo_text)
{
  PgsPhysMap *self = g_new0 (PgsPhysMap, 1);
  g_autoptr(GError) error = NULL;
  GString *why = g_string_new (NULL);

  g_atomic_ref_count_init (&self->ref_count);
  g_mutex_init (&self->arrays_lock);
  /* Shrunk to fit: what stays is 6 bytes a run (8 with over 65536 distinct pairs). */
  self->n_runs = b->n;
  self->n_frames = b->n_frames;
  self->run_lo = g_renew (guint32, b->lo, MAX (b->n, 1));
  if (b->n_pairs <= G_MAXUINT16 + 1u)
    {
      /* 6 bytes a run rather than 8. */
      self->run_pair16 = g_new (guint16, MAX (b->n, 1));
      for (guint64 i = 0; i < b->n; i++)
        self->run_pair16[i] = (guint16) b->pair[i];
      g_free (b->pair);
    }
  else
    self->run_pair = g_renew (guint32, b->pair, MAX (b->n, 1));
  self->n_epochs = b->epochs->len;
  self->epochs = (guint32 *) (gpointer) g_array_free (b->epochs, FALSE);
  self->n_pairs = b->n_pairs;
  self->pair_count = b->pair_count;
  self->pair_flags = b->pair_flags;
  g_free (b->table);

  self->meminfo_text = g_strdup (meminfo_text);
  self->zoneinfo_text = g_strdup (zoneinfo_text);

  if (meminfo_text == NULL)
    g_string_append (why, "no meminfo");
  else if (!(self->has_meminfo = pgs_meminfo_parse (meminfo_text, strlen (meminfo_text),
                                                    &self->meminfo, &error)))
    {
      g_string_append (why, error->message);
      g_clear_error (&error);
    }

  if (zoneinfo_text != NULL)
    self->zones = pgs_zoneinfo_parse (zoneinfo_text, strlen (zoneinfo_text), &error);
  if (self->zones == NULL)
    {
      g_string_append_printf (why, "%s%s", why->len > 0 ? "; " : "",
                              error != NULL ? error->message : "no zoneinfo");
      self->zones = g_array_new (FALSE, TRUE, sizeof (PgsZone));
    }

  self->spans = find_spans (self, (const PgsZone *) (gpointer) self->zones->data,
                             self->zones->len, self->has_meminfo ? &self->meminfo : NULL,
                             self->n_frames, page_size ());
  self->counters_error = why->len > 0 ? g_string_free (why, FALSE) : (g_string_free (why, TRUE), NULL);
  return self;
}
