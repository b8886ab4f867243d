/* pgs-scan-frames.c: phases 2 and 3 of a scan, the frames' map counts and the accounting
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Reads the kpagecount (and, where needed, kpageflags) entries of every waiting frame once
 * for all processes, then finishes the kernel's smaps_account() arithmetic per process.
 */

#include "config.h"

#include <errno.h>
#include <string.h>

#include "pgs-error.h"
#include "pgs-kpage.h"
#include "pgs-pagemap.h"
#include "pgs-procfs.h"
#include "pgs-scan-job.h"

/* Whether a present, shared page counts in Rss, given its frame's map count and flags.
 * Mirrors smaps_pte_entry(): vm_normal_page() is NULL for the zero page and PFN mappings
 * (map count 0, not part of a folio). A page of a large folio may read map count 0 under
 * CONFIG_NO_PAGE_MAPCOUNT, where kpagecount gives the folio's rounded average: it is still
 * mapped, and counted. */
static inline gboolean
page_counts_in_rss (guint32 count,
                    guint64 flags)
{
  if (flags & PGS_KPF_BIT (PGS_KPF_ZERO_PAGE))
    return FALSE;
  if (count == 0)
    return (flags & (PGS_KPF_BIT (PGS_KPF_COMPOUND_HEAD) | PGS_KPF_BIT (PGS_KPF_COMPOUND_TAIL))) != 0;
  return TRUE;
}

/* Phase 3 for one process: the rest of the kernel's smaps_account(). A shared page adds
 * (PAGE_SIZE << 12) / mapcount to PSS and nothing to USS. Hugetlb mappings are in neither
 * Rss nor Pss (smaps_hugetlb_range counts them apart). */
static void
account_pending (ScanJob              *job,
                 PgsProcess           *proc,
                 const PgsFrameLookup *frames)
{
  const guint64 page_fp = (guint64) job->page_size << PGS_PSS_SHIFT;
  PgsMappingData *maps = (PgsMappingData *) proc->mappings->data;
  g_autofree gboolean *hugetlb = g_new0 (gboolean, MAX (proc->mappings->len, 1));

  for (guint i = 0; i < proc->mappings->len; i++)
    {
      guint64 probe = maps[i].probe_pfn;

      maps[i].known |= PGS_METRIC_ALL;
      if (probe != 0 && (pgs_frame_lookup_flags (frames, probe) & PGS_KPF_BIT (PGS_KPF_HUGE)))
        {
          hugetlb[i] = TRUE;
          maps[i].rss = maps[i].pss_fp = maps[i].uss = 0;
        }
    }

  /* The per-page counts a residency map shows: 1 for exclusive pages, read for the rest. */
  if (proc->entries != NULL)
    {
      proc->counts = g_new (guint32, MAX (proc->n_pages, 1));
      for (gsize k = 0; k < proc->n_pages; k++)
        proc->counts[k] = (proc->entries[k] & PGS_PM_EXCLUSIVE) && pgs_pm_is_present (proc->entries[k])
                          ? 1 : PGS_COUNT_UNKNOWN;
    }

  for (guint k = 0; k < proc->pending->len; k++)
    {
      const Pending *p = &g_array_index (proc->pending, Pending, k);
      PgsMappingData *m = &maps[p->mapping];
      guint32 count = (guint32) p->pfn;
      /* A frame the kpage files do not cover (device memory far above RAM, a damaged file)
       * has no map count: like a PFN mapping's, it is not in Rss. */
      gboolean known = (p->pfn & PENDING_COUNT) || pgs_frame_lookup_count (frames, p->pfn, &count);

      if (!known)
        count = PGS_COUNT_UNKNOWN;
      if (proc->counts != NULL && p->index != G_MAXUINT32)
        proc->counts[p->index] = count;
      /* Flags were read only where a count of 0 must be told apart. */
      if (!known || hugetlb[p->mapping] ||
          !page_counts_in_rss (count, count == 0 ? pgs_frame_lookup_flags (frames, p->pfn) : 0))
        continue;
      m->rss += job->page_size;
      m->pss_fp += count >= 2 ? page_fp / count : page_fp;
    }
  g_clear_pointer (&proc->pending, g_array_unref);

  for (guint i = 0; i < proc->mappings->len; i++)
    {
      proc->rss += maps[i].rss;
      proc->pss_fp += maps[i].pss_fp;
      proc->uss += maps[i].uss;
      proc->swap += maps[i].swap;
    }
  proc->known |= PGS_METRIC_ALL;
}

/* After the counts are in: the flags are needed wherever a count of 0 must be told apart
 * (zero page, PFN mapping, or a large folio's rounded-down average). */
static void
note_zero_count_frames (ScanJob              *job,
                        const PgsFrameLookup *frames)
{
  for (guint i = 0; i < job->processes->len; i++)
    {
      PgsProcess *proc = g_ptr_array_index (job->processes, i);

      if (proc->pending == NULL)
        continue;
      for (guint k = 0; k < proc->pending->len; k++)
        {
          Pending *p = &g_array_index (proc->pending, Pending, k);
          guint32 count;

          if (!pgs_frame_lookup_count (frames, p->pfn, &count))
            continue;
          if (count == 0)
            pgs_frame_table_want (job->flag_table, p->pfn);
          else
            p->pfn = PENDING_COUNT | count;
        }
    }
}

gboolean
_pgs_scan_read_frames (ScanJob       *job,
                       GCancellable  *cancellable,
                       PgsPhysMap   **physmap_out,
                       GError       **error)
{
  g_autoptr(PgsPhysMap) physmap = NULL;
  PgsFrameLookup frames = { NULL };

  if (job->flags & PGS_SCAN_PHYSMAP)
    {
      physmap = pgs_physmap_read_fds_mapped (job->root_fd, job->count_fd, job->flags_fd,
                                             (job->flags & PGS_SCAN_MAPPED_COUNTS) != 0,
                                             cancellable, error);
      if (physmap == NULL)
        return FALSE;
      /* Looked up in its runs: no array of frames. */
      frames.physmap = physmap;
      frames.n_frames = pgs_physmap_get_n_frames (physmap);
    }
  else
    {
      frames.count_table = job->count_table;
      if (!pgs_frame_table_read (job->count_table, job->count_fd, error))
        return FALSE;
      note_zero_count_frames (job, &frames);
      if (!pgs_frame_table_is_empty (job->flag_table))
        {
          frames.flag_table = job->flag_table;
          if (!pgs_frame_table_read (job->flag_table, job->flags_fd, error))
            return FALSE;
        }
    }

  for (guint i = 0; i < job->processes->len; i++)
    {
      PgsProcess *proc = g_ptr_array_index (job->processes, i);

      if (proc->pending != NULL)
        account_pending (job, proc, &frames);
    }

  if (physmap_out != NULL)
    *physmap_out = g_steal_pointer (&physmap);
  return TRUE;
}
