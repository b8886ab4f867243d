/* pgs-scan-pages.c: phase 1 of a scan, a process's pagemap
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Reads pagemap for the mapped ranges in large preads through one reused buffer (for sparse
 * processes, only the present or swapped parts, found with PAGEMAP_SCAN), keeps the pages
 * for residency maps when asked, accounts exclusively mapped pages at once and leaves the
 * shared ones waiting for their frame's map count (pgs-scan-frames.c).
 */

#include "config.h"

#include <errno.h>
#include <string.h>

#include "pgs-error.h"
#include "pgs-kpage.h"
#include "pgs-pagemap.h"
#include "pgs-procfs.h"
#include "pgs-scan-job.h"

/* The pieces of [start, end) to read: whole mappings, or with PAGEMAP_SCAN the present and
 * swapped regions clipped to mappings. */
typedef struct
{
  guint64 start;
  guint64 end;
  guint32 mapping;
  guint32 flags;
} Piece;

static void
add_piece (GArray  *pieces,
           guint64  start,
           guint64  end,
           guint32  mapping,
           guint32  flags)
{
  Piece piece = { start, end, mapping, flags };

  g_array_append_val (pieces, piece);
}

static GArray *
plan_pieces (ScanJob     *job,
             PgsProcess  *proc,
             int          pagemap_fd,
             gboolean     sparse,
             GError     **error)
{
  g_autoptr(GArray) pieces = g_array_new (FALSE, FALSE, sizeof (Piece));
  const PgsMappingData *maps = (const PgsMappingData *) proc->mappings->data;
  guint n_maps = proc->mappings->len;

  if (n_maps == 0)
    return g_steal_pointer (&pieces);

  if (sparse && !job->no_pagemap_scan)
    {
      g_autoptr(GError) local_error = NULL;

      g_array_set_size (job->regions, 0);
      if (pgs_pagemap_scan (pagemap_fd, maps[0].start, maps[n_maps - 1].end, job->regions,
                            &local_error))
        {
          guint m = 0;

          for (guint r = 0; r < job->regions->len; r++)
            {
              const PgsPageRegion *region = &g_array_index (job->regions, PgsPageRegion, r);
              guint32 flags = 0;

              if (region->categories & PGS_PAGE_IS_PFNZERO)
                flags |= PGS_RUN_ZERO;

              while (m < n_maps && maps[m].end <= region->start)
                m++;
              for (guint k = m; k < n_maps && maps[k].start < region->end; k++)
                add_piece (pieces, MAX (region->start, maps[k].start),
                           MIN (region->end, maps[k].end), k, flags);
            }
          return g_steal_pointer (&pieces);
        }

      if (!g_error_matches (local_error, PGS_ERROR, PGS_ERROR_UNSUPPORTED))
        {
          g_propagate_error (error, g_steal_pointer (&local_error));
          return NULL;
        }
      /* Remember for the rest of this scan; fixture files and old kernels land here. */
      job->no_pagemap_scan = TRUE;
    }

  for (guint k = 0; k < n_maps; k++)
    add_piece (pieces, maps[k].start, maps[k].end, k, 0);
  return g_steal_pointer (&pieces);
}

/* Phase 1 state for one process. Exclusively mapped pages are accounted at once: their map
 * count is 1 by the kernel's own test, so they need no kpagecount lookup (most anonymous
 * memory is private, so this is most pages). Only the others wait for phase 2. */
typedef struct
{
  ScanJob    *job;
  PgsProcess *proc;
  gboolean    keep;      /* store runs and entries for residency maps */
  gboolean    account;   /* privileged: account pages for PSS/USS */
  GArray     *runs;
  GArray     *entries;
  GArray     *pending;
  gboolean    open;
} PageWalk;

static void
walk_keep (PageWalk *w,
           guint64   address,
           guint64   entry,
           guint32   mapping,
           guint32   flags)
{
  PgsPageRun *last = w->runs->len ? &g_array_index (w->runs, PgsPageRun, w->runs->len - 1) : NULL;

  if (w->open && last != NULL && last->mapping == mapping && last->flags == flags &&
      last->start + ((guint64) last->n_pages << w->job->page_shift) == address)
    last->n_pages++;
  else
    {
      PgsPageRun run = { address, 1, w->entries->len, mapping, flags };

      g_array_append_val (w->runs, run);
      w->open = TRUE;
    }
  g_array_append_val (w->entries, entry);
}

static void
walk_account (PageWalk *w,
              guint64   entry,
              guint32   mapping)
{
  ScanJob *job = w->job;
  PgsMappingData *m = &g_array_index (w->proc->mappings, PgsMappingData, mapping);

  if (pgs_pm_is_present (entry))
    {
      guint64 pfn = pgs_pm_pfn (entry);

      if (pfn == 0)
        {
          /* PFN 0 is never user memory: pagemap hides frame numbers (no CAP_SYS_ADMIN). */
          w->proc->pfn_hidden = TRUE;
          w->account = FALSE;
          return;
        }

      /* A VMA is hugetlb or not as a whole: one frame's flags tell. */
      if (m->probe_pfn == 0)
        {
          m->probe_pfn = pfn;
          pgs_frame_table_want (job->flag_table, pfn);
        }

      if (entry & PGS_PM_EXCLUSIVE)
        {
          m->rss += job->page_size;
          m->pss_fp += (guint64) job->page_size << PGS_PSS_SHIFT;
          m->uss += job->page_size;
        }
      else
        {
          Pending p = { pfn, mapping, w->keep ? w->entries->len - 1 : G_MAXUINT32 };

          g_array_append_val (w->pending, p);
          pgs_frame_table_want (job->count_table, pfn);
        }
    }
  else if (pgs_pm_is_swapped (entry))
    m->swap += job->page_size;
}

static inline void
walk_entry (PageWalk *w,
            guint64   address,
            guint64   entry,
            guint32   mapping,
            guint32   flags)
{
  if (!(entry & (PGS_PM_PRESENT | PGS_PM_SWAP)))
    {
      w->open = FALSE;
      return;
    }
  if (w->keep)
    walk_keep (w, address, entry, mapping, flags);
  if (w->account)
    walk_account (w, entry, mapping);
}

/* A pagemap read that ends early means the process exited (its mm is gone) or, in a
 * fixture, that the file is truncated. Tell the two apart by whether the process is still
 * there: a zombie keeps its status file, so look at what it says (_pgs_process_has_exited). */
static void
set_short_read_error (int          dirfd,
                      guint64      address,
                      GError     **error)
{
  if (_pgs_process_has_exited (dirfd))
    g_set_error (error, PGS_ERROR, PGS_ERROR_PROCESS_GONE,
                 "the process exited while its pagemap was read");
  else
    g_set_error (error, PGS_ERROR, PGS_ERROR_TRUNCATED,
                 "pagemap ends at 0x%" G_GINT64_MODIFIER "x, inside a mapping (truncated)",
                 address);
}

static void
forget_page_metrics (PgsProcess *proc)
{
  for (guint i = 0; i < proc->mappings->len; i++)
    {
      PgsMappingData *m = &g_array_index (proc->mappings, PgsMappingData, i);

      m->rss = m->pss_fp = m->uss = m->swap = 0;
      m->known = PGS_METRIC_VSS;
    }
}

gboolean
_pgs_scan_read_pages (ScanJob     *job,
                      PgsProcess  *proc,
                      int          dirfd,
                      int          pagemap_fd,
                      gboolean     sparse,
                      GError     **error)
{
  g_autoptr(GArray) pieces = NULL;
  g_autoptr(GArray) runs = g_array_new (FALSE, FALSE, sizeof (PgsPageRun));
  g_autoptr(GArray) entries = g_array_new (FALSE, FALSE, sizeof (guint64));
  g_autoptr(GArray) pending = g_array_new (FALSE, FALSE, sizeof (Pending));
  PageWalk w = { job, proc, (job->flags & PGS_SCAN_PAGES) != 0, job->privileged,
                 runs, entries, pending, FALSE };
  guint i = 0;

  pieces = plan_pieces (job, proc, pagemap_fd, sparse, error);
  if (pieces == NULL)
    return FALSE;

  while (i < pieces->len)
    {
      const Piece *first = &g_array_index (pieces, Piece, i);
      guint64 start = first->start;
      guint64 end = first->end;
      guint j = i + 1;

      /* Merge nearby pieces into one read, up to the buffer's size. */
      while (j < pieces->len)
        {
          const Piece *next = &g_array_index (pieces, Piece, j);

          if (next->start - end > (guint64) PAGEMAP_MERGE_GAP << job->page_shift ||
              (next->end - start) >> job->page_shift > PAGEMAP_BATCH)
            break;
          end = next->end;
          j++;
        }

      /* 512 KiB, from the first process whose pages are read: a name filter that keeps
       * none needs none. */
      if (job->pm_buf == NULL)
        job->pm_buf = g_new (guint64, PAGEMAP_BATCH);
      for (guint64 pos = start; pos < end;)
        {
          guint64 n = MIN ((end - pos) >> job->page_shift, PAGEMAP_BATCH);
          gssize got = pgs_pread_full (pagemap_fd, job->pm_buf, n * 8,
                                       (pos >> job->page_shift) * 8);

          if (got < 0)
            {
              pgs_set_error_from_errno (error, errno, "pagemap");
              return FALSE;
            }
          if ((guint64) got < n * 8)
            {
              set_short_read_error (dirfd, pos + ((guint64) got / 8 << job->page_shift), error);
              return FALSE;
            }

          /* Hand each entry of the window to the piece that covers it. */
          for (guint k = i; k < j; k++)
            {
              const Piece *piece = &g_array_index (pieces, Piece, k);
              guint64 lo = MAX (piece->start, pos);
              guint64 hi = MIN (piece->end, pos + (n << job->page_shift));

              if (lo >= hi)
                continue;
              /* A piece continued from the previous batch may extend its open run. */
              if (lo == piece->start)
                w.open = FALSE;
              for (guint64 a = lo; a < hi; a += job->page_size)
                walk_entry (&w, a, job->pm_buf[(a - pos) >> job->page_shift],
                            piece->mapping, piece->flags);
            }
          pos += n << job->page_shift;
        }

      i = j;
    }

  if (w.keep)
    {
      proc->runs = g_steal_pointer (&runs);
      proc->n_pages = entries->len;
      proc->entries = (guint64 *) (void *) g_array_free (g_steal_pointer (&entries), FALSE);
    }
  if (job->privileged && !proc->pfn_hidden)
    {
      proc->pending = g_steal_pointer (&pending);
      proc->source = PGS_SOURCE_PAGES;
    }
  else
    forget_page_metrics (proc);
  return TRUE;
}
