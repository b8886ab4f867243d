/* pgs-wss-pageout-run.c: paging out, recording the baseline, reading back
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The page-out goes a chunk at a time (at most CHUNK_PAGES, aligned so that no PMD-mapped
 * huge page is cut): advise the chunk's present pages, read the chunk's pagemap back at
 * once, and advise again what is still present and mapped once, up to RETRIES times. A page
 * that the process touched between its page-out and the read is present at the read, just
 * as a page the kernel would not page out is; advising it again while the window is
 * microseconds long tells the two apart: the first is then swapped, the second still there
 * (reported as not measured). The entries read after the last attempt are the baseline the
 * read-back compares with.
 */

#include "config.h"

#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include <glib/gi18n-lib.h>

#include "pgs-error.h"
#include "pgs-pagemap.h"
#include "pgs-procfs.h"
#include "pgs-wss-pageout-private.h"

#ifndef MADV_PAGEOUT
#define MADV_PAGEOUT 21
#endif
#if !defined(SYS_process_madvise) && defined(__NR_process_madvise)
#define SYS_process_madvise __NR_process_madvise
#endif
#ifndef SYS_process_madvise
#define SYS_process_madvise 440   /* the same number on every architecture (asm-generic) */
#endif

#define CHUNK_PAGES 1024          /* 4 MiB: the window between page-out and read stays short */
/* Advice rounds per chunk: each after the first advises only what is still present, so a
 * round costs what the process touched in the last one. Three left 3.35 MiB of a hot
 * child's 128 MiB present (so not measured) on a fresh CI machine whose zram compressed
 * slowly; six shrink that window geometrically at the cost of a few small calls. */
#define RETRIES     6
#define READ_BATCH  65536         /* pagemap entries per read at the read-back */
#define MAX_IOV     1024          /* UIO_MAXIOV */
/* In a baseline entry: the page was neither present nor swapped before the page-out (the
 * runs cover whole ranges where PAGEMAP_SCAN is missing). pagemap leaves bit 60 zero. */
#define BASE_ABSENT (G_GUINT64_CONSTANT (1) << 60)

gboolean
pgs_process_madvise_pageout (int            pidfd,
                             const guint64 *starts,
                             const guint64 *ends,
                             guint          n_ranges,
                             guint64       *advised_bytes,
                             GCancellable  *cancellable,
                             GError       **error)
{
  struct iovec iov[MAX_IOV];
  guint i = 0;

  *advised_bytes = 0;
  while (i < n_ranges)
    {
      guint n = MIN (n_ranges - i, (guint) MAX_IOV);
      long ret;

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return FALSE;
      for (guint k = 0; k < n; k++)
        {
          iov[k].iov_base = (void *) (guintptr) starts[i + k];
          iov[k].iov_len = ends[i + k] - starts[i + k];
        }
      do
        ret = syscall (SYS_process_madvise, pidfd, iov, (size_t) n, MADV_PAGEOUT, 0u);
      while (ret < 0 && errno == EINTR);

      if (ret < 0)
        {
          int errsv = errno;

          switch (errsv)
            {
            case ESRCH:
              g_set_error_literal (error, PGS_ERROR, PGS_ERROR_PROCESS_GONE,
                                   _("the process exited during the page-out"));
              return FALSE;
            case EPERM:
            case EACCES:
              g_set_error (error, PGS_ERROR, PGS_ERROR_NO_PERMISSION,
                           _("process_madvise: %s (paging another process out needs "
                             "CAP_SYS_NICE and the right to trace it: root)"),
                           g_strerror (errsv));
              return FALSE;
            case ENOSYS:
              g_set_error_literal (error, PGS_ERROR, PGS_ERROR_UNSUPPORTED,
                                   _("this kernel has no process_madvise (Linux 5.10+)"));
              return FALSE;
            case EINVAL:
            case ENOMEM:
              /* The first range was refused (its mapping changed or went): skip it. */
              i++;
              continue;
            default:
              pgs_set_error_from_errno (error, errsv, "process_madvise");
              return FALSE;
            }
        }
      /* Partial: the kernel stopped at the range it refused; skip that one. */
      {
        guint64 left = (guint64) ret;
        guint k = 0;

        *advised_bytes += left;
        while (k < n && left >= ends[i + k] - starts[i + k])
          left -= ends[i + k] - starts[i + k], k++;
        i += k < n ? k + 1 : n;
      }
    }
  return TRUE;
}

typedef struct
{
  GArray *starts;
  GArray *ends;
} Ranges;

static void
ranges_add (Ranges  *r,
            guint64  start,
            guint64  end)
{
  if (r->ends->len > 0 && g_array_index (r->ends, guint64, r->ends->len - 1) == start)
    g_array_index (r->ends, guint64, r->ends->len - 1) = end;
  else
    {
      g_array_append_val (r->starts, start);
      g_array_append_val (r->ends, end);
    }
}

static gboolean
read_entries (PoProc   *proc,
              guint64   start,
              guint64   n_pages,
              guint     page_size,
              guint64  *buf,
              GError  **error)
{
  gssize got = pgs_pread_full (proc->pagemap_fd, buf, n_pages * sizeof (guint64),
                               start / page_size * sizeof (guint64));

  if (got < 0)
    {
      int errsv = errno;

      if (errsv == ESRCH || errsv == ENOENT)
        g_set_error_literal (error, PGS_ERROR, PGS_ERROR_PROCESS_GONE, "pagemap");
      else
        pgs_set_error_from_errno (error, errsv, "pagemap");
      return FALSE;
    }
  /* A short read: the mm went away under us. */
  if ((guint64) got < n_pages * sizeof (guint64))
    {
      g_set_error_literal (error, PGS_ERROR, PGS_ERROR_PROCESS_GONE, "pagemap");
      return FALSE;
    }
  return TRUE;
}

/* The runs of pages present or swapped in [start, end), from PAGEMAP_SCAN where the kernel
 * has it (the zero page left out), else the whole range. */
static void
occupied (PoProc  *proc,
          guint64  start,
          guint64  end,
          GArray  *regions)
{
  g_array_set_size (regions, 0);
  if (!pgs_pagemap_scan (proc->pagemap_fd, start, end, regions, NULL))
    {
      PgsPageRegion all = { start, end, PGS_PAGE_IS_PRESENT };

      g_array_set_size (regions, 0);
      g_array_append_val (regions, all);
    }
}

static gboolean
call_func (PgsPageout    *self,
           PoProc        *proc,
           Ranges        *r,
           GCancellable  *cancellable,
           GError       **error)
{
  guint64 advised = 0;
  gboolean ok;

  if (r->starts->len == 0)
    return TRUE;
  if (self->func != NULL)
    ok = self->func (self->func_data, proc->pid, (guint64 *) r->starts->data,
                     (guint64 *) r->ends->data, r->starts->len, &advised, cancellable, error);
  else
    ok = pgs_process_madvise_pageout (proc->pidfd, (guint64 *) r->starts->data,
                                      (guint64 *) r->ends->data, r->starts->len, &advised,
                                      cancellable, error);
  g_array_set_size (r->starts, 0);
  g_array_set_size (r->ends, 0);
  return ok;
}

static inline gboolean
pageable (guint64 entry)
{
  return pgs_pm_is_present (entry) && (entry & PGS_PM_EXCLUSIVE) != 0;
}

/* One chunk of one mapping: advise, read back, advise again what stayed. */
static gboolean
page_out_chunk (PgsPageout    *self,
                PoProc        *proc,
                guint64        start,
                guint64        n_pages,
                guint64       *buf,
                Ranges        *r,
                GCancellable  *cancellable,
                GError       **error)
{
  guint ps = self->page_size;
  PoRun run = { start, n_pages, proc->entries->len };
  guint64 present = 0;
  gboolean was_present[CHUNK_PAGES];
  gboolean was_absent[CHUNK_PAGES];

  g_assert (n_pages <= CHUNK_PAGES);
  if (!read_entries (proc, start, n_pages, ps, buf, error))
    return FALSE;
  for (guint64 i = 0; i < n_pages; i++)
    {
      was_present[i] = pgs_pm_is_present (buf[i]);
      was_absent[i] = !was_present[i] && !pgs_pm_is_swapped (buf[i]);
      if (was_present[i])
        {
          ranges_add (r, start + i * ps, start + (i + 1) * ps);
          present++;
        }
    }

  for (guint attempt = 0; attempt < RETRIES && r->starts->len > 0; attempt++)
    {
      if (!call_func (self, proc, r, cancellable, error) ||
          !read_entries (proc, start, n_pages, ps, buf, error))
        return FALSE;
      for (guint64 i = 0; i < n_pages; i++)
        if (pageable (buf[i]))
          ranges_add (r, start + i * ps, start + (i + 1) * ps);
    }
  g_array_set_size (r->starts, 0);
  g_array_set_size (r->ends, 0);

  /* What the page-out moved: present before, not after. */
  for (guint64 i = 0; i < n_pages; i++)
    {
      if (was_present[i] && !pgs_pm_is_present (buf[i]))
        proc->paged_out += ps;
      if (was_absent[i])
        buf[i] = BASE_ABSENT;
    }
  g_array_append_vals (proc->entries, buf, (guint) n_pages);
  g_array_append_val (proc->runs, run);
  __atomic_add_fetch (&self->progress_done, present * ps, __ATOMIC_RELAXED);
  return TRUE;
}

static gboolean
page_out_proc (PgsPageout    *self,
               PoProc        *proc,
               guint64       *buf,
               GCancellable  *cancellable,
               GError       **error)
{
  g_autoptr(GArray) regions = g_array_new (FALSE, FALSE, sizeof (PgsPageRegion));
  g_autoptr(GArray) starts = g_array_new (FALSE, FALSE, sizeof (guint64));
  g_autoptr(GArray) ends = g_array_new (FALSE, FALSE, sizeof (guint64));
  Ranges r = { starts, ends };
  guint64 chunk_bytes = (guint64) CHUNK_PAGES * self->page_size;
  gint64 begin = g_get_monotonic_time ();

  g_clear_pointer (&proc->runs, g_array_unref);
  g_clear_pointer (&proc->entries, g_array_unref);
  proc->runs = g_array_new (FALSE, FALSE, sizeof (PoRun));
  proc->entries = g_array_new (FALSE, FALSE, sizeof (guint64));
  proc->paged_out = 0;

  for (guint v = 0; v < proc->vmas->len; v++)
    {
      const PoVma *vma = &g_array_index (proc->vmas, PoVma, v);
      guint64 done = vma->start;

      if (vma->refused != NULL || (vma->anonymous && !self->swap))
        continue;
      occupied (proc, vma->start, vma->end, regions);
      for (guint k = 0; k < regions->len; k++)
        {
          const PgsPageRegion *region = &g_array_index (regions, PgsPageRegion, k);
          /* Each page once: where PAGEMAP_SCAN's output filled up, the next call can start
           * inside the last region it gave (seen once in CI with a kdamond running: two
           * pages paged out and counted twice, touched + stayed + not measured one mapping
           * plus 8 KiB). */
          guint64 addr = MAX (region->start, done);

          done = MAX (done, region->end);
          if (region->categories & PGS_PAGE_IS_PFNZERO)
            continue;
          while (addr < region->end)
            {
              guint64 next = MIN (region->end, (addr / chunk_bytes + 1) * chunk_bytes);

              if (!page_out_chunk (self, proc, addr, (next - addr) / self->page_size, buf, &r,
                                   cancellable, error))
                return FALSE;
              addr = next;
            }
        }
    }
  proc->pageout_end = g_get_monotonic_time ();
  proc->pageout_time = proc->pageout_end - begin;
  return TRUE;
}

gboolean
pgs_pageout_page_out (PgsPageout    *self,
                      GCancellable  *cancellable,
                      GError       **error)
{
  g_autofree guint64 *buf = NULL;
  gint64 begin = g_get_monotonic_time ();
  guint alive = 0;

  g_return_val_if_fail (PGS_IS_PAGEOUT (self), FALSE);

  if (!pgs_pageout_prepare (self, error))
    return FALSE;
  buf = g_new (guint64, MAX (CHUNK_PAGES, READ_BATCH));
  /* After the first cycle: the mappings as they are now. */
  if (self->pageout_time > 0)
    for (guint i = 0; i < self->procs->len; i++)
      {
        PoProc *proc = &g_array_index (self->procs, PoProc, i);

        if (!proc->gone && !_pgs_pageout_read_vmas (self, proc, NULL))
          _pgs_pageout_mark_gone (self, proc);
      }
  __atomic_store_n (&self->progress_done, 0, __ATOMIC_RELAXED);
  __atomic_store_n (&self->progress_total, pgs_pageout_get_bytes (self), __ATOMIC_RELAXED);
  g_atomic_int_set (&self->paging, 1);
  /* From the start: a swapoff during the page-out brings back what is already out. */
  g_free (self->swap_areas);
  self->swap_areas = _pgs_pageout_swap_areas (self);

  for (guint i = 0; i < self->procs->len; i++)
    {
      PoProc *proc = &g_array_index (self->procs, PoProc, i);
      g_autoptr(GError) local = NULL;

      if (proc->gone)
        continue;
      if (!page_out_proc (self, proc, buf, cancellable, &local))
        {
          g_autofree char *who = _pgs_pageout_describe (proc);

          /* An exit shows as ESRCH from the page-out, or a pagemap cut short. */
          if (g_error_matches (local, PGS_ERROR, PGS_ERROR_PROCESS_GONE) ||
              _pgs_pageout_has_exited (proc))
            {
              _pgs_pageout_mark_gone (self, proc);
              continue;
            }
          g_propagate_prefixed_error (error, g_steal_pointer (&local), "%s: ", who);
          self->pageout_time = g_get_monotonic_time () - begin;
          g_atomic_int_set (&self->paging, 0);
          return FALSE;
        }
      alive++;
    }
  self->pageout_time = g_get_monotonic_time () - begin;
  g_atomic_int_set (&self->paging, 0);
  if (alive == 0)
    {
      g_set_error (error, PGS_ERROR, PGS_ERROR_PROCESS_GONE,
                   g_dngettext (GETTEXT_PACKAGE, "%s exited during the page-out",
                                "%s exited during the page-out", self->procs->len),
                   ((const char **) self->gone->pdata)[0]);
      return FALSE;
    }
  return TRUE;
}

/* Not paged out: why, from the baseline entry. */
static PgsPageoutPage
left_state (PgsPageout *self,
            guint64     entry)
{
  if (!(entry & PGS_PM_EXCLUSIVE))
    return PGS_PAGEOUT_PAGE_SHARED;
  if (!self->swap && !(entry & PGS_PM_FILE))
    return PGS_PAGEOUT_PAGE_NO_SWAP;
  return PGS_PAGEOUT_PAGE_NOT_PAGED;
}

static PgsPageoutPage
classify (PgsPageout *self,
          gboolean    measured,
          guint64     base,
          guint64     now)
{
  if (!measured)
    {
      /* Not there at the page-out, there now: first touched during the interval. */
      if (pgs_pm_is_present (now))
        return (now & PGS_PM_EXCLUSIVE) ? PGS_PAGEOUT_PAGE_TOUCHED : PGS_PAGEOUT_PAGE_SHARED;
      return pgs_pm_is_swapped (now) ? PGS_PAGEOUT_PAGE_TOUCHED : PGS_PAGEOUT_PAGE_UNKNOWN;
    }
  if (pgs_pm_is_present (base))
    return left_state (self, base);
  if (pgs_pm_is_swapped (base))
    {
      if (pgs_pm_is_present (now))
        return PGS_PAGEOUT_PAGE_TOUCHED;
      if (pgs_pm_is_swapped (now))
        return (now & PGS_PM_PFN_MASK) == (base & PGS_PM_PFN_MASK)
               ? PGS_PAGEOUT_PAGE_STAYED_OUT : PGS_PAGEOUT_PAGE_TOUCHED;
      /* Swapped, now nothing: discarded or unmapped by the process. */
      return PGS_PAGEOUT_PAGE_UNKNOWN;
    }
  /* A file page dropped from the mapping. */
  return pgs_pm_is_present (now) || pgs_pm_is_swapped (now)
         ? PGS_PAGEOUT_PAGE_TOUCHED : PGS_PAGEOUT_PAGE_STAYED_OUT;
}

static int
compare_spans (gconstpointer a,
               gconstpointer b)
{
  const guint64 *x = a, *y = b;

  return x[0] < y[0] ? -1 : x[0] > y[0];
}

/* The spans to read back in one mapping: the baseline runs and what is there now, merged,
 * as pairs of addresses. */
static void
spans_for (PoProc  *proc,
           guint    page_size,
           guint64  vstart,
           guint64  vend,
           GArray  *regions,
           GArray  *spans)
{
  guint n = 0;

  g_array_set_size (spans, 0);
  for (guint a = 0; a < proc->runs->len; a++)
    {
      const PoRun *run = &g_array_index (proc->runs, PoRun, a);
      guint64 pair[2] = { run->start, run->start + run->n_pages * page_size };

      if (pair[0] >= vstart && pair[0] < vend)
        g_array_append_vals (spans, pair, 1);
    }
  for (guint b = 0; b < regions->len; b++)
    {
      const PgsPageRegion *reg = &g_array_index (regions, PgsPageRegion, b);
      guint64 pair[2] = { MAX (reg->start, vstart), MIN (reg->end, vend) };

      if (!(reg->categories & PGS_PAGE_IS_PFNZERO) && pair[0] < pair[1])
        g_array_append_vals (spans, pair, 1);
    }
  g_array_sort (spans, compare_spans);
  for (guint i = 0; i < spans->len; i++)
    {
      guint64 *cur = &g_array_index (spans, guint64, 2 * i);
      guint64 *last = n > 0 ? &g_array_index (spans, guint64, 2 * (n - 1)) : NULL;

      if (last != NULL && cur[0] <= last[1])
        last[1] = MAX (last[1], cur[1]);
      else
        {
          guint64 pair[2] = { cur[0], cur[1] };

          memcpy (&g_array_index (spans, guint64, 2 * n), pair, sizeof pair);
          n++;
        }
    }
  g_array_set_size (spans, n);
}

static gboolean
collect_proc (PgsPageout        *self,
              PoProc            *proc,
              guint64           *buf,
              PgsPageoutResult  *result,
              GError           **error)
{
  g_autoptr(GArray) regions = g_array_new (FALSE, FALSE, sizeof (PgsPageRegion));
  g_autoptr(GArray) spans = g_array_new (FALSE, FALSE, 2 * sizeof (guint64));
  guint ps = self->page_size;
  guint cursor = 0;

  for (guint v = 0; v < proc->vmas->len; v++)
    {
      const PoVma *vma = &g_array_index (proc->vmas, PoVma, v);
      guint index = _pgs_pageout_result_add_mapping (result, vma);

      occupied (proc, vma->start, vma->end, regions);
      spans_for (proc, ps, vma->start, vma->end, regions, spans);
      for (guint s = 0; s < spans->len; s++)
        {
          guint64 addr = g_array_index (spans, guint64, 2 * s);
          guint64 end = g_array_index (spans, guint64, 2 * s + 1);

          while (addr < end)
            {
              guint64 n = MIN ((guint64) READ_BATCH, (end - addr) / ps);

              if (n == 0)
                break;
              if (!read_entries (proc, addr, n, ps, buf, error))
                return FALSE;
              for (guint64 i = 0; i < n; i++, addr += ps)
                {
                  const PoRun *run = NULL;
                  PgsPageoutPage state;

                  while (cursor < proc->runs->len &&
                         (run = &g_array_index (proc->runs, PoRun, cursor),
                          run->start + run->n_pages * ps <= addr))
                    {
                      cursor++;
                      run = NULL;
                    }
                  if (run != NULL && run->start > addr)
                    run = NULL;

                  if (vma->refused != NULL)
                    state = !pgs_pm_is_present (buf[i]) ? PGS_PAGEOUT_PAGE_UNKNOWN
                            : (buf[i] & PGS_PM_EXCLUSIVE) ? PGS_PAGEOUT_PAGE_NOT_PAGED
                            : PGS_PAGEOUT_PAGE_SHARED;
                  else if (vma->anonymous && !self->swap)
                    state = pgs_pm_is_present (buf[i]) ? left_state (self, buf[i])
                            : PGS_PAGEOUT_PAGE_UNKNOWN;
                  else if (run != NULL &&
                           !(g_array_index (proc->entries, guint64,
                                            run->first + (addr - run->start) / ps) & BASE_ABSENT))
                    state = classify (self, TRUE,
                                      g_array_index (proc->entries, guint64,
                                                     run->first + (addr - run->start) / ps),
                                      buf[i]);
                  else
                    state = classify (self, FALSE, 0, buf[i]);
                  if (state != PGS_PAGEOUT_PAGE_UNKNOWN)
                    _pgs_pageout_result_add_pages (result, index, addr, 1, state);
                }
            }
        }
    }
  return TRUE;
}

GPtrArray *
pgs_pageout_collect (PgsPageout  *self,
                     gint64       interval_us,
                     GError     **error)
{
  g_autoptr(GPtrArray) results = g_ptr_array_new_with_free_func ((GDestroyNotify) pgs_pageout_result_unref);
  g_autofree guint64 *buf = g_new (guint64, READ_BATCH);
  g_autofree char *areas = NULL;
  gboolean swapoff;

  g_return_val_if_fail (PGS_IS_PAGEOUT (self), NULL);
  g_return_val_if_fail (self->prepared, NULL);

  /* swapoff brings every page of its area back in, touched or not. */
  areas = _pgs_pageout_swap_areas (self);
  swapoff = _pgs_pageout_swap_area_removed (self->swap_areas, areas);

  for (guint i = 0; i < self->procs->len; i++)
    {
      PoProc *proc = &g_array_index (self->procs, PoProc, i);
      g_autoptr(PgsPageoutResult) result = NULL;
      g_autoptr(GError) local = NULL;
      gint64 now;

      if (proc->gone || proc->runs == NULL)
        continue;
      result = _pgs_pageout_result_new (proc->pid, proc->name, self->page_size, self->swap);
      if (!collect_proc (self, proc, buf, result, &local) || _pgs_pageout_has_exited (proc))
        {
          g_autofree char *who = _pgs_pageout_describe (proc);

          if (local == NULL || g_error_matches (local, PGS_ERROR, PGS_ERROR_PROCESS_GONE) ||
              _pgs_pageout_has_exited (proc))
            {
              _pgs_pageout_mark_gone (self, proc);
              continue;
            }
          g_propagate_prefixed_error (error, g_steal_pointer (&local), "%s: ", who);
          return NULL;
        }
      now = g_get_monotonic_time ();
      _pgs_pageout_result_set_swapoff (result, swapoff);
      _pgs_pageout_result_set_times (result, interval_us, now - proc->pageout_end,
                                     proc->pageout_time, proc->paged_out);
      g_ptr_array_add (results, g_steal_pointer (&result));
    }
  if (results->len == 0)
    {
      g_set_error (error, PGS_ERROR, PGS_ERROR_PROCESS_GONE,
                   _("%s exited during the measurement"),
                   self->gone->len > 1 ? (const char *) self->gone->pdata[0] : "the process");
      return NULL;
    }
  return g_steal_pointer (&results);
}
