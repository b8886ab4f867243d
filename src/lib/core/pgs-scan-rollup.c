/* pgs-scan-rollup.c: a process's figures from the kernel's own smaps_rollup and smaps
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The kernel's rollups are exact: Rss, Pss (its own truncation of the fixed-point sum the
 * page walk makes too), Private_Clean + Private_Dirty (USS), Swap and SwapPss, with hugetlb
 * pages, the zero page and PFN mappings left out of Rss as in the page walk
 * (fs/proc/task_mmu.c). They are the route for a report of totals (PGS_SCAN_KERNEL_TOTALS)
 * and, without the privilege to read frame numbers, the only route to PSS and USS.
 */

#include "config.h"

#include <unistd.h>

#include "pgs-error.h"
#include "pgs-procfs.h"
#include "pgs-scan-rollup.h"

typedef struct
{
  PgsProcess *proc;
  guint       next;
} SmapsMatch;

static void
take_smaps_mapping (const PgsMapsEntry   *entry,
                    const PgsSmapsFields *fields,
                    gpointer              user_data)
{
  SmapsMatch *match = user_data;
  PgsMappingData *m = _pgs_process_match_mapping (match->proc, &match->next, entry->start,
                                                  entry->end);

  if (m == NULL)
    return;
  m->rss = fields->rss;
  m->pss_fp = fields->pss << PGS_PSS_SHIFT;
  m->uss = fields->private_clean + fields->private_dirty;
  m->swap = fields->swap;
  m->swap_pss = fields->swap_pss;
  m->known = PGS_METRIC_ALL | ((fields->seen & PGS_SMAPS_SEEN_SWAP_PSS) ? PGS_METRIC_SWAP_PSS : 0);
}

/* Whether status, read again, says the process exited: gone, a zombie, or no mm. */
static gboolean
status_says_exited (int dirfd)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *buf = NULL;
  PgsStatus status;
  gsize len;

  buf = pgs_read_record_at (dirfd, "status", &len, &error);
  if (buf == NULL)
    return g_error_matches (error, PGS_ERROR, PGS_ERROR_PROCESS_GONE);
  if (!pgs_status_parse (buf, len, &status, NULL))
    return FALSE;
  return status.state == 'Z' || status.state == 'X' || !status.has_vm;
}

static void
take_split (PgsProcess           *proc,
            const PgsSmapsFields *fields)
{
  /* Kernels since 4.14 print all four; a rollup without them leaves the split unknown. */
  if ((fields->seen & PGS_SMAPS_SEEN_SHARED) != PGS_SMAPS_SEEN_SHARED)
    return;
  proc->shared_clean = fields->shared_clean;
  proc->shared_dirty = fields->shared_dirty;
  proc->private_clean = fields->private_clean;
  proc->private_dirty = fields->private_dirty;
  proc->known |= PGS_METRIC_SPLIT;
}

static void
take_thp (PgsProcess           *proc,
          const PgsSmapsFields *fields)
{
  /* AnonHugePages since 2.6.38; the PMD-mapped shmem and file lines are later additions
   * (4.8, 5.4): absent, they count as none of it, which is what older kernels could map. */
  if (!(fields->seen & PGS_SMAPS_SEEN_ANON_HUGE))
    return;
  proc->thp_anon = fields->anon_huge;
  proc->thp_shmem = fields->shmem_pmd;
  proc->thp_file = fields->file_pmd;
  proc->known |= PGS_METRIC_THP;
}

gboolean
_pgs_scan_rollup_split (PgsProcess *proc,
                        PgsHelper  *helper,
                        int         dirfd)
{
  g_autofree char *buf = NULL;
  PgsSmapsFields fields;
  gsize len;

  buf = pgs_helper_read_record_at (helper, dirfd, proc->pid, "smaps_rollup", &len, NULL);
  if (buf == NULL || !pgs_smaps_rollup_parse (buf, len, &fields, NULL))
    return FALSE;
  take_split (proc, &fields);
  take_thp (proc, &fields);
  return (proc->known & PGS_METRIC_SPLIT) != 0;
}

gboolean
_pgs_scan_rollup_read (PgsProcess  *proc,
                       PgsHelper   *helper,
                       int          dirfd,
                       gboolean     mappings,
                       GError     **error)
{
  g_autofree char *buf = NULL;
  PgsSmapsFields fields;
  gsize len;

  buf = pgs_helper_read_record_at (helper, dirfd, proc->pid, "smaps_rollup", &len, error);
  if (buf == NULL || !pgs_smaps_rollup_parse (buf, len, &fields, error))
    return FALSE;

  proc->rss = fields.rss;
  proc->pss_fp = fields.pss << PGS_PSS_SHIFT;
  proc->uss = fields.private_clean + fields.private_dirty;
  proc->swap = fields.swap;
  proc->swap_pss = fields.swap_pss;
  proc->known |= PGS_METRIC_ALL | ((fields.seen & PGS_SMAPS_SEEN_SWAP_PSS) ? PGS_METRIC_SWAP_PSS : 0);
  proc->source = PGS_SOURCE_KERNEL;
  take_split (proc, &fields);
  take_thp (proc, &fields);

  if (mappings)
    {
      g_autofree char *smaps = pgs_helper_read_at (helper, dirfd, proc->pid, "smaps", &len, NULL);
      SmapsMatch match = { proc, 0 };
      PgsSmapsReader reader;
      PgsMapsEntry entry;
      PgsSmapsFields mapping;

      pgs_smaps_reader_init (&reader, smaps, smaps != NULL ? len : 0);
      while (smaps != NULL && pgs_smaps_reader_next (&reader, &entry, &mapping, NULL))
        take_smaps_mapping (&entry, &mapping, &match);
    }
  return TRUE;
}

gboolean
_pgs_scan_rollup (PgsProcess       *proc,
                  PgsHelper        *helper,
                  int               dirfd,
                  const PgsStatus  *status,
                  gboolean          mappings,
                  GError          **error_out)
{
  g_autoptr(GError) error = NULL;

  if (_pgs_scan_rollup_read (proc, helper, dirfd, mappings, &error))
    return TRUE;

  /* An exited process has an empty smaps_rollup (or none): not a process to report. */
  if (!g_error_matches (error, PGS_ERROR, PGS_ERROR_NO_PERMISSION) && status_says_exited (dirfd))
    {
      g_set_error (error_out, PGS_ERROR, PGS_ERROR_PROCESS_GONE,
                   "the process exited while its smaps_rollup was read");
      return FALSE;
    }

  /* status is readable for everyone: RSS and swap at least. */
  proc->rss = status->vm_rss;
  proc->swap = status->vm_swap;
  proc->known |= PGS_METRIC_RSS | PGS_METRIC_SWAP;
  proc->source = PGS_SOURCE_STATUS;
  if (g_error_matches (error, PGS_ERROR, PGS_ERROR_NO_PERMISSION) && proc->uid != geteuid ())
    _pgs_process_set_unknown (proc, PGS_METRIC_PSS | PGS_METRIC_USS,
                              "PSS and USS of another user's process need root");
  else if (g_error_matches (error, PGS_ERROR, PGS_ERROR_NO_PERMISSION))
    _pgs_process_set_unknown (proc, PGS_METRIC_PSS | PGS_METRIC_USS,
                              "smaps_rollup is not readable (the process is not dumpable, "
                              "or ptrace access is restricted)");
  else
    {
      g_autofree char *reason = g_strdup_printf ("smaps_rollup: %s", error->message);

      _pgs_process_set_unknown (proc, PGS_METRIC_PSS | PGS_METRIC_USS, reason);
    }
  return TRUE;
}
