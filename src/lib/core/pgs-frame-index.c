/* pgs-frame-index.c: which processes map a page frame, and where
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One record per run of pages that a process has at consecutive frames, in page order
 * (which is address order), not one per page: file pages read ahead, anonymous huge pages
 * and memory faulted in one go sit at consecutive frames, so a run often holds many pages.
 *
 * A record is 8 bytes: the run's first frame within its bucket of 2^16 frames, its length
 * and a 32-bit page reference (the page's position when the processes' pages are counted
 * one after the other). The buckets that hold runs are listed in frame order with where
 * their records start. A run never crosses a multiple of RUN_FRAMES frames, so that it
 * stays in one bucket and every run holding a frame starts in that frame's block: a lookup
 * is a bisection to the bucket, one to the block's first record, and a scan of the records
 * that start in the block up to the frame.
 *
 * Page references must fit in 32 bits: past 2^32 pages (16 TiB mapped, summed over the
 * processes) the processes are indexed in parts, each part an index of its own.
 */

#include "config.h"

#include <stdlib.h>

#include "pgs-frame-index.h"
#include "pgs-pagemap.h"
#include "pgs-process-private.h"

#define RUN_BITS    6
#define RUN_FRAMES  (G_GUINT64_CONSTANT (1) << RUN_BITS)
#define BUCKET_BITS 16

/* A record: frame within the bucket << 48 | (frames - 1) << 32 | page reference. Sorted
 * as numbers, they are in frame order. */
#define RECORD(low, frames, ref) ((guint64) (low) << 48 | (guint64) ((frames) - 1) << 32 | (ref))
#define RECORD_LOW(r)            ((r) >> 48)
#define RECORD_FRAMES(r)         ((((r) >> 32) & (RUN_FRAMES - 1)) + 1)
#define RECORD_REF(r)            ((guint32) (r))

typedef struct
{
  guint64 high;      /* frame >> BUCKET_BITS */
  gsize   first;     /* its first record */
} Bucket;

typedef struct
{
  guint    first_process;
  guint    n_processes;
  guint64 *base;     /* n_processes + 1: the first page reference of each */
  Bucket  *buckets;  /* n_buckets + 1, the last one only marking the end of the records */
  gsize    n_buckets;
  guint64 *records;
  gsize    n_records;
} Part;

struct _PgsFrameIndex
{
  Part  *parts;
  guint  n_parts;
};

typedef void (*RunFunc) (guint64  first,
                         guint64  frames,
                         guint32  ref,
                         gpointer user_data);

static gboolean
has_frames (PgsProcess *p)
{
  return p->entries != NULL && !p->pfn_hidden && p->n_pages > 0;
}

/* The pages of @p that the index takes: page indices are 32-bit (PgsPageRun.first). */
static guint64
indexed_pages (PgsProcess *p)
{
  return has_frames (p) ? MIN ((guint64) p->n_pages, (guint64) G_MAXUINT32 + 1) : 0;
}

/* Calls @func for each run of @p: pages k, k + 1… at frames f, f + 1…, cut at multiples
 * of RUN_FRAMES. @base is the page reference of the process's first page. */
static void
process_runs (PgsProcess *p,
              guint64     base,
              RunFunc     func,
              gpointer    user_data)
{
  gsize n_pages = indexed_pages (p);
  guint64 first = 0, frames = 0;
  gsize page = 0;

  for (gsize k = 0; k <= n_pages; k++)
    {
      guint64 pfn = k < n_pages ? pgs_pm_pfn (p->entries[k]) : 0;

      if (frames > 0 && pfn == first + frames && pfn % RUN_FRAMES != 0)
        {
          frames++;
          continue;
        }
      if (frames > 0)
        func (first, frames, (guint32) (base + page), user_data);
      frames = 0;
      if (pfn != 0)
        {
          first = pfn;
          frames = 1;
          page = k;
        }
    }
}

static void
count_run (guint64  first,
           guint64  frames,
           guint32  ref,
           gpointer user_data)
{
  GHashTable *counts = user_data;
  guint64 high = first >> BUCKET_BITS;
  gsize *count = g_hash_table_lookup (counts, &high);

  if (count == NULL)
    {
      guint64 *key = g_new (guint64, 1);

      *key = high;
      count = g_new0 (gsize, 1);
      g_hash_table_insert (counts, key, count);
    }
  (*count)++;
}

typedef struct
{
  Part       *part;
  GHashTable *cursors;   /* high → where the bucket's next record goes */
} StoreContext;

static void
store_run (guint64  first,
           guint64  frames,
           guint32  ref,
           gpointer user_data)
{
  StoreContext *ctx = user_data;
  guint64 high = first >> BUCKET_BITS;
  gsize *cursor = g_hash_table_lookup (ctx->cursors, &high);

  ctx->part->records[(*cursor)++] = RECORD (first & ((1u << BUCKET_BITS) - 1), frames, ref);
}

static int
compare_bucket (gconstpointer a,
                gconstpointer b)
{
  const Bucket *x = a, *y = b;

  return (x->high > y->high) - (x->high < y->high);
}

static inline void
swap_u64 (guint64 *a,
          guint64 *b)
{
  guint64 t = *a;

  *a = *b;
  *b = t;
}

static void
insertion_sort (guint64 *r,
                gsize    n)
{
  for (gsize i = 1; i < n; i++)
    {
      guint64 x = r[i];
      gsize j = i;

      for (; j > 0 && r[j - 1] > x; j--)
        r[j] = r[j - 1];
      r[j] = x;
    }
}

static void
sift_down (guint64 *r,
           gsize    root,
           gsize    n)
{
  for (;;)
    {
      gsize child = 2 * root + 1;

      if (child >= n)
        return;
      if (child + 1 < n && r[child + 1] > r[child])
        child++;
      if (r[root] >= r[child])
        return;
      swap_u64 (&r[root], &r[child]);
      root = child;
    }
}

static void
heap_sort (guint64 *r,
           gsize    n)
{
  for (gsize i = n / 2; i-- > 0;)
    sift_down (r, i, n);
  for (gsize end = n; end-- > 1;)
    {
      swap_u64 (&r[0], &r[end]);
      sift_down (r, 0, end);
    }
}

/* Introsort, in place: g_array_sort's merge sort would take a buffer as large as the
 * index, doubling the peak. Quicksort (median of three, Hoare partition around the middle
 * element), heapsort past @depth levels, insertion sort for short ranges. */
static void
sort_records (guint64 *r,
              gsize    n,
              guint    depth)
{
  while (n > 16)
    {
      gsize mid = (n - 1) / 2;
      guint64 pivot;
      gsize i, j;

      if (depth-- == 0)
        {
          heap_sort (r, n);
          return;
        }
      if (r[mid] < r[0])
        swap_u64 (&r[mid], &r[0]);
      if (r[n - 1] < r[0])
        swap_u64 (&r[n - 1], &r[0]);
      if (r[n - 1] < r[mid])
        swap_u64 (&r[n - 1], &r[mid]);
      pivot = r[mid];

      /* Afterwards r[0..j] <= pivot <= r[j+1..n), and 0 <= j < n - 1. */
      i = 0;
      j = n - 1;
      for (;;)
        {
          while (r[i] < pivot)
            i++;
          while (r[j] > pivot)
            j--;
          if (i >= j)
            break;
          swap_u64 (&r[i], &r[j]);
          i++;
          j--;
        }

      /* Recurse into the smaller side, loop on the larger: the stack stays O(log n). */
      if (j + 1 < n - (j + 1))
        {
          sort_records (r, j + 1, depth);
          r += j + 1;
          n -= j + 1;
        }
      else
        {
          sort_records (r + j + 1, n - (j + 1), depth);
          n = j + 1;
        }
    }
  insertion_sort (r, n);
}

/* Indexes processes [@first, @first + @n) of @processes, whose pages number at most 2^32. */
static void
build_part (Part      *part,
            GPtrArray *processes,
            guint      first,
            guint      n)
{
  g_autoptr(GHashTable) table = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  StoreContext ctx = { part, table };
  GHashTableIter iter;
  gpointer key, value;
  gsize b = 0, offset = 0;

  part->first_process = first;
  part->n_processes = n;
  part->base = g_new (guint64, n + 1);
  part->base[0] = 0;
  for (guint i = 0; i < n; i++)
    {
      PgsProcess *p = g_ptr_array_index (processes, first + i);

      part->base[i + 1] = part->base[i] + indexed_pages (p);
    }

  /* Runs counted per bucket first, then stored in place: the records are allocated once,
   * at their size, and sorted in place, so the peak is the index itself. */
  for (guint i = 0; i < n; i++)
    {
      PgsProcess *p = g_ptr_array_index (processes, first + i);

      if (has_frames (p))
        process_runs (p, part->base[i], count_run, table);
    }

  part->n_buckets = g_hash_table_size (table);
  part->buckets = g_new (Bucket, part->n_buckets + 1);
  g_hash_table_iter_init (&iter, table);
  while (g_hash_table_iter_next (&iter, &key, &value))
    part->buckets[b++] = (Bucket) { *(guint64 *) key, *(gsize *) value };
  qsort (part->buckets, part->n_buckets, sizeof (Bucket), compare_bucket);
  for (b = 0; b < part->n_buckets; b++)
    {
      gsize count = part->buckets[b].first;

      part->buckets[b].first = offset;
      /* The count's slot in the table becomes the bucket's write cursor. */
      *(gsize *) g_hash_table_lookup (table, &part->buckets[b].high) = offset;
      offset += count;
    }
  part->buckets[part->n_buckets] = (Bucket) { G_MAXUINT64, offset };
  part->n_records = offset;

  part->records = g_new (guint64, part->n_records);
  for (guint i = 0; i < n; i++)
    {
      PgsProcess *p = g_ptr_array_index (processes, first + i);

      if (has_frames (p))
        process_runs (p, part->base[i], store_run, &ctx);
    }

  for (b = 0; b < part->n_buckets; b++)
    {
      gsize len = part->buckets[b + 1].first - part->buckets[b].first;
      guint depth = 0;

      for (gsize m = len; m > 1; m /= 2)
        depth += 2;
      sort_records (part->records + part->buckets[b].first, len, depth);
    }
}

PgsFrameIndex *
pgs_frame_index_new (GPtrArray *processes)
{
  return pgs_frame_index_new_in_parts (processes, (guint64) G_MAXUINT32 + 1);
}

PgsFrameIndex *
pgs_frame_index_new_in_parts (GPtrArray *processes,
                              guint64    part_pages)
{
  PgsFrameIndex *self = g_new0 (PgsFrameIndex, 1);
  GArray *parts = g_array_new (FALSE, TRUE, sizeof (Part));
  guint first = 0;
  guint64 pages = 0;

  g_return_val_if_fail (processes != NULL, self);
  g_return_val_if_fail (part_pages > 0 && part_pages <= (guint64) G_MAXUINT32 + 1, self);

  for (guint i = 0; i <= processes->len; i++)
    {
      PgsProcess *p = i < processes->len ? g_ptr_array_index (processes, i) : NULL;
      guint64 n = p != NULL ? indexed_pages (p) : 0;

      if (i == processes->len || pages + n > part_pages)
        {
          Part part = { 0 };

          if (i > first)
            {
              build_part (&part, processes, first, i - first);
              g_array_append_val (parts, part);
            }
          first = i;
          pages = 0;
        }
      pages += n;
    }

  self->n_parts = parts->len;
  self->parts = (Part *) g_array_free (parts, FALSE);
  return self;
}

void
pgs_frame_index_free (PgsFrameIndex *self)
{
  if (self == NULL)
    return;
  for (guint i = 0; i < self->n_parts; i++)
    {
      g_free (self->parts[i].base);
      g_free (self->parts[i].buckets);
      g_free (self->parts[i].records);
    }
  g_free (self->parts);
  g_free (self);
}

gsize
pgs_frame_index_get_n_runs (PgsFrameIndex *self)
{
  gsize n = 0;

  for (guint i = 0; i < self->n_parts; i++)
    n += self->parts[i].n_records;
  return n;
}

gsize
pgs_frame_index_get_size (PgsFrameIndex *self)
{
  gsize size = sizeof *self + self->n_parts * sizeof (Part);

  for (guint i = 0; i < self->n_parts; i++)
    {
      const Part *part = &self->parts[i];

      size += (part->n_processes + 1) * sizeof (guint64) + (part->n_buckets + 1) * sizeof (Bucket) +
              part->n_records * sizeof (guint64);
    }
  return size;
}

/* The process of page reference @ref: the last one whose first reference is at most @ref
 * (processes without pages share their reference with the next one). */
static PgsFramePage
resolve (const Part *part,
         guint32     ref)
{
  guint lo = 0, hi = part->n_processes - 1;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo + 1) / 2;

      if (part->base[mid] <= ref)
        lo = mid;
      else
        hi = mid - 1;
    }
  return (PgsFramePage) { part->first_process + lo, (guint32) (ref - part->base[lo]) };
}

/* Appends the pages at @pfn in @part to @pages, in the order of their records. */
static void
find_pages (const Part *part,
            guint64     pfn,
            GArray     *pages)
{
  guint64 high = pfn >> BUCKET_BITS;
  guint64 low = pfn & ((1u << BUCKET_BITS) - 1);
  guint64 from = RECORD (low & ~(RUN_FRAMES - 1), 1, 0);
  gsize lo = 0, hi = part->n_buckets;
  const Bucket *bucket;

  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;

      if (part->buckets[mid].high < high)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo == part->n_buckets || part->buckets[lo].high != high)
    return;
  bucket = &part->buckets[lo];

  /* The first record that starts in the block of @pfn. */
  lo = bucket->first;
  hi = bucket[1].first;
  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;

      if (part->records[mid] < from)
        lo = mid + 1;
      else
        hi = mid;
    }

  for (gsize i = lo; i < bucket[1].first && RECORD_LOW (part->records[i]) <= low; i++)
    {
      guint64 r = part->records[i];

      if (low - RECORD_LOW (r) < RECORD_FRAMES (r))
        {
          PgsFramePage page = resolve (part, RECORD_REF (r) + (guint32) (low - RECORD_LOW (r)));

          g_array_append_val (pages, page);
        }
    }
}

static inline guint64
page_key (const PgsFramePage *page)
{
  return (guint64) page->process << 32 | page->page;
}

static int
compare_pages (const void *a,
               const void *b)
{
  guint64 x = page_key (a), y = page_key (b);

  return (x > y) - (x < y);
}

void
pgs_frame_index_lookup (PgsFrameIndex *self,
                        guint64        pfn,
                        GArray        *pages)
{
  guint start = pages->len;
  PgsFramePage *found;

  if (pfn == 0)
    return;

  for (guint i = 0; i < self->n_parts; i++)
    find_pages (&self->parts[i], pfn, pages);

  /* Process then page order. The records of each start and length come in reference
   * order already: few are out of place, and where many are, qsort. */
  found = &g_array_index (pages, PgsFramePage, start);
  if (pages->len - start > 64)
    {
      qsort (found, pages->len - start, sizeof (PgsFramePage), compare_pages);
      return;
    }
  for (guint i = 1; i < pages->len - start; i++)
    {
      PgsFramePage x = found[i];
      guint j = i;

      for (; j > 0 && page_key (&found[j - 1]) > page_key (&x); j--)
        found[j] = found[j - 1];
      found[j] = x;
    }
}

/* The runs of @part in frames [@first, @end): from the first bucket that can hold one (a run
 * starts at most RUN_FRAMES - 1 frames before @first, in the same bucket) to the last. */
static void
collect_in_part (const Part *part,
                 guint64     first,
                 guint64     end,
                 GArray     *runs)
{
  guint64 high = first >> BUCKET_BITS;
  gsize lo = 0, hi = part->n_buckets;

  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;

      if (part->buckets[mid].high < high)
        lo = mid + 1;
      else
        hi = mid;
    }
  for (gsize b = lo; b < part->n_buckets && part->buckets[b].high << BUCKET_BITS < end; b++)
    for (gsize i = part->buckets[b].first; i < part->buckets[b + 1].first; i++)
      {
        guint64 r = part->records[i];
        guint64 start = part->buckets[b].high << BUCKET_BITS | RECORD_LOW (r);
        guint64 from = MAX (start, first);
        guint64 to = MIN (start + RECORD_FRAMES (r), end);
        PgsFramePage page;
        PgsFrameRun run;

        if (start >= end)
          break;
        if (from >= to)
          continue;
        page = resolve (part, RECORD_REF (r) + (guint32) (from - start));
        run = (PgsFrameRun) { page.process, page.page, (guint32) (to - from) };
        g_array_append_val (runs, run);
      }
}

void
pgs_frame_index_collect_range (PgsFrameIndex *self,
                               guint64        first,
                               guint64        end,
                               GArray        *runs)
{
  g_return_if_fail (self != NULL && runs != NULL);

  /* Frame 0 is never indexed (no frame number), as in lookup. */
  first = MAX (first, 1);
  for (guint i = 0; i < self->n_parts && first < end; i++)
    collect_in_part (&self->parts[i], first, end, runs);
}
