/* pgs-frame-index.c: which processes map a page frame, and where
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One record per run of pages that a process has at consecutive frames, in page order
 * (which is address order), not one per page: file pages read ahead, anonymous huge pages
 * and memory faulted in one go sit at consecutive frames, so runs hold many pages each.
 * A run never crosses a multiple of RUN_FRAMES frames, so that every run holding a frame
 * starts in that frame's block: a lookup is one bisection to the block's first run and a
 * scan of the runs that start in the block up to the frame.
 */

#include "config.h"

#include "pgs-frame-index.h"
#include "pgs-pagemap.h"
#include "pgs-process-private.h"
#include "pgs-snapshot.h"

#define RUN_BITS   6
#define RUN_FRAMES (G_GUINT64_CONSTANT (1) << RUN_BITS)

/* 16 bytes, the size one FrameRef a page took before. */
typedef struct
{
  guint64 key;      /* first frame << RUN_BITS | (frames - 1) */
  guint32 process;  /* position in the processes array */
  guint32 page;     /* index of the first page in that process's page arrays */
} FrameRun;

struct _PgsFrameIndex
{
  FrameRun *runs;   /* sorted by key, that is by first frame */
  gsize     n_runs;
};

static inline guint64
run_first (const FrameRun *run)
{
  return run->key >> RUN_BITS;
}

static inline guint64
run_frames (const FrameRun *run)
{
  return (run->key & (RUN_FRAMES - 1)) + 1;
}

/* The runs of process @process: pages k, k + 1… at frames f, f + 1…, cut at multiples of
 * RUN_FRAMES. Stores them at @runs unless it is NULL; returns how many there are. */
static gsize
process_runs (PgsProcess *p,
              guint32     process,
              FrameRun   *runs)
{
  gsize n = 0;
  guint64 first = 0, frames = 0;
  guint32 page = 0;

  for (gsize k = 0; k <= p->n_pages; k++)
    {
      guint64 pfn = k < p->n_pages ? pgs_pm_pfn (p->entries[k]) : 0;

      if (frames > 0 && pfn == first + frames && pfn % RUN_FRAMES != 0)
        {
          frames++;
          continue;
        }
      if (frames > 0)
        {
          if (runs != NULL)
            runs[n] = (FrameRun) { first << RUN_BITS | (frames - 1), process, page };
          n++;
        }
      frames = 0;
      if (pfn != 0)
        {
          first = pfn;
          frames = 1;
          page = (guint32) k;
        }
    }
  return n;
}

static inline void
swap_runs (FrameRun *a,
           FrameRun *b)
{
  FrameRun t = *a;

  *a = *b;
  *b = t;
}

static void
insertion_sort (FrameRun *r,
                gsize     n)
{
  for (gsize i = 1; i < n; i++)
    {
      FrameRun x = r[i];
      gsize j = i;

      for (; j > 0 && r[j - 1].key > x.key; j--)
        r[j] = r[j - 1];
      r[j] = x;
    }
}

static void
sift_down (FrameRun *r,
           gsize     root,
           gsize     n)
{
  for (;;)
    {
      gsize child = 2 * root + 1;

      if (child >= n)
        return;
      if (child + 1 < n && r[child + 1].key > r[child].key)
        child++;
      if (r[root].key >= r[child].key)
        return;
      swap_runs (&r[root], &r[child]);
      root = child;
    }
}

static void
heap_sort (FrameRun *r,
           gsize     n)
{
  for (gsize i = n / 2; i-- > 0;)
    sift_down (r, i, n);
  for (gsize end = n; end-- > 1;)
    {
      swap_runs (&r[0], &r[end]);
      sift_down (r, 0, end);
    }
}

/* Introsort, in place: g_array_sort's merge sort would take a buffer as large as the
 * index, doubling the peak. Quicksort (median of three, Hoare partition around the middle
 * element), heapsort past @depth levels, insertion sort for short ranges. */
static void
sort_runs (FrameRun *r,
           gsize     n,
           guint     depth)
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
      if (r[mid].key < r[0].key)
        swap_runs (&r[mid], &r[0]);
      if (r[n - 1].key < r[0].key)
        swap_runs (&r[n - 1], &r[0]);
      if (r[n - 1].key < r[mid].key)
        swap_runs (&r[n - 1], &r[mid]);
      pivot = r[mid].key;

      /* Afterwards r[0..j] <= pivot <= r[j+1..n), and 0 <= j < n - 1. */
      i = 0;
      j = n - 1;
      for (;;)
        {
          while (r[i].key < pivot)
            i++;
          while (r[j].key > pivot)
            j--;
          if (i >= j)
            break;
          swap_runs (&r[i], &r[j]);
          i++;
          j--;
        }

      /* Recurse into the smaller side, loop on the larger: the stack stays O(log n). */
      if (j + 1 < n - (j + 1))
        {
          sort_runs (r, j + 1, depth);
          r += j + 1;
          n -= j + 1;
        }
      else
        {
          sort_runs (r + j + 1, n - (j + 1), depth);
          n = j + 1;
        }
    }
  insertion_sort (r, n);
}

PgsFrameIndex *
pgs_frame_index_new (GPtrArray *processes)
{
  PgsFrameIndex *self = g_new0 (PgsFrameIndex, 1);
  gsize n = 0;
  guint depth = 0;

  g_return_val_if_fail (processes != NULL, self);

  /* Counted first, then stored: the array is allocated once, at its size. */
  for (guint i = 0; i < processes->len; i++)
    {
      PgsProcess *p = g_ptr_array_index (processes, i);

      if (p->entries != NULL && !p->pfn_hidden)
        self->n_runs += process_runs (p, i, NULL);
    }
  self->runs = g_new (FrameRun, self->n_runs);
  for (guint i = 0; i < processes->len; i++)
    {
      PgsProcess *p = g_ptr_array_index (processes, i);

      if (p->entries != NULL && !p->pfn_hidden)
        n += process_runs (p, i, self->runs + n);
    }
  g_assert (n == self->n_runs);

  for (gsize m = self->n_runs; m > 1; m /= 2)
    depth += 2;
  sort_runs (self->runs, self->n_runs, depth);
  return self;
}

void
pgs_frame_index_free (PgsFrameIndex *self)
{
  if (self == NULL)
    return;
  g_free (self->runs);
  g_free (self);
}

gsize
pgs_frame_index_get_n_runs (PgsFrameIndex *self)
{
  return self->n_runs;
}

gsize
pgs_frame_index_get_size (PgsFrameIndex *self)
{
  return sizeof *self + self->n_runs * sizeof (FrameRun);
}

/* The address of page @k of @p, from its runs. */
static guint64
page_address (PgsProcess *p,
              guint32     k)
{
  guint lo = 0, hi = p->runs->len;

  while (hi - lo > 1)
    {
      guint mid = (lo + hi) / 2;

      if (g_array_index (p->runs, PgsPageRun, mid).first <= k)
        lo = mid;
      else
        hi = mid;
    }
  {
    const PgsPageRun *run = &g_array_index (p->runs, PgsPageRun, lo);

    return run->start + (guint64) (k - run->first) * p->page_size;
  }
}

static int
compare_u64 (gconstpointer a,
             gconstpointer b)
{
  guint64 x = *(const guint64 *) a, y = *(const guint64 *) b;

  return (x > y) - (x < y);
}

void
pgs_frame_index_lookup (PgsFrameIndex *self,
                        GPtrArray     *processes,
                        guint64        pfn,
                        GArray        *users)
{
  g_autoptr(GArray) found = NULL;
  guint64 from = (pfn & ~(RUN_FRAMES - 1)) << RUN_BITS;
  gsize lo = 0, hi = self->n_runs;

  if (pfn == 0 || pfn > G_MAXUINT64 >> RUN_BITS)
    return;

  /* The first run that starts in the block of @pfn. */
  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;

      if (self->runs[mid].key < from)
        lo = mid + 1;
      else
        hi = mid;
    }

  /* (process << 32 | page) of each page at @pfn: sorted, process then page order. */
  found = g_array_new (FALSE, FALSE, sizeof (guint64));
  for (gsize i = lo; i < self->n_runs && run_first (&self->runs[i]) <= pfn; i++)
    {
      const FrameRun *run = &self->runs[i];

      if (pfn - run_first (run) < run_frames (run))
        {
          guint64 ref = (guint64) run->process << 32 | (run->page + (pfn - run_first (run)));

          g_array_append_val (found, ref);
        }
    }
  if (found->len > 1)
    g_array_sort (found, compare_u64);

  for (guint i = 0; i < found->len; i++)
    {
      guint64 ref = g_array_index (found, guint64, i);
      PgsProcess *p = g_ptr_array_index (processes, ref >> 32);
      PgsFrameUser user;

      user.pid = p->pid;
      user.address = page_address (p, (guint32) ref);
      g_array_append_val (users, user);
    }
}
