/* pgs-scan-process.c: phase 1 for one process: status, identity, maps, then its pages or
 * the kernel's totals
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "pgs-error.h"
#include "pgs-parse.h"
#include "pgs-procfs.h"
#include "pgs-scan-job.h"
#include "pgs-scan-rollup.h"

/* VmSize comes from status, the rest from smaps_rollup: two reads. A process that execs or
 * maps between them (one being started or replaced, by the hundred a second on a busy
 * machine) gives figures of two address spaces that disagree though nothing is damaged:
 * RSS above VmSize. Both are read again, status after the rollup too, until the address
 * space held still across the rollup; a process that exited meanwhile is gone, one whose
 * figures still disagree is reported as before (in *@error).
 * An execve in progress holds such figures still for a while: the new address space has its
 * argument pages but accounts one page of stack (seen on 6.18 under ASan: RSS 8 KiB, VmSize
 * 4 KiB, unchanged across three reads). So each try after the first waits longer, 1, 4 and
 * 16 ms: 21 ms at most, and only for a process whose figures disagree. */
static gboolean
totals_again (ScanJob     *job,
              PgsProcess  *proc,
              int          dirfd,
              GError     **error)
{
  for (guint attempt = 0; attempt < 4; attempt++)
    {
      g_autofree char *before_buf = NULL, *after_buf = NULL;
      PgsStatus before, after;
      gsize len;

      if (attempt > 0)
        g_usleep (1000 << (2 * (attempt - 1)));
      before_buf = pgs_read_record_at (dirfd, "status", &len, NULL);
      if (before_buf == NULL || !pgs_status_parse (before_buf, len, &before, NULL) ||
          !_pgs_scan_rollup_read (proc, job->helper, dirfd, FALSE, NULL))
        break;
      after_buf = pgs_read_record_at (dirfd, "status", &len, NULL);
      if (after_buf == NULL || !pgs_status_parse (after_buf, len, &after, NULL))
        break;
      if (!before.has_vm || !after.has_vm || after.state == 'Z' || after.state == 'X')
        break;
      if (before.vm_size != after.vm_size)
        continue;
      proc->vss = after.vm_size;
      g_clear_error (error);
      if (_pgs_process_check_sane (proc, error))
        return TRUE;
    }
  if (_pgs_process_has_exited (dirfd))
    {
      g_clear_error (error);
      g_set_error (error, PGS_ERROR, PGS_ERROR_PROCESS_GONE, "the process exited during the scan");
    }
  return FALSE;
}

PgsProcess *
_pgs_scan_process (ScanJob  *job,
                   int       pid,
                   GError  **error)
{
  g_autoptr(PgsProcess) proc = NULL;
  g_auto(PgsFd) dirfd = -1;
  g_auto(PgsFd) pagemap_fd = -1;
  g_autofree char *status_buf = NULL;
  g_autofree char *maps_buf = NULL;
  g_autoptr(GError) local_error = NULL;
  PgsStatus status;
  gboolean sparse;
  gsize len;

  if (job->names != NULL && !_pgs_scan_comm_may_match (job, pid))
    return NULL;

  dirfd = pgs_open_pid_dir (job->root, pid, error);
  if (dirfd < 0)
    return NULL;

  status_buf = pgs_read_record_at (dirfd, "status", &len, error);
  if (status_buf == NULL || !pgs_status_parse (status_buf, len, &status, error))
    return NULL;
  if ((job->uid >= 0 && status.uid != job->uid) ||
      (job->names != NULL && !_pgs_scan_name_matches (job, status.name)))
    return NULL;

  if (!status.has_vm)
    {
      /* An exiting process has no Vm lines once its mm is released, before it is a zombie:
       * "Kthread: 0" (6.8+) tells it from a kernel thread. */
      if (status.state == 'Z' || status.state == 'X' || status.kthread == 0)
        g_set_error (error, PGS_ERROR, PGS_ERROR_PROCESS_GONE, "the process has exited (zombie)");
      else
        g_set_error (error, PGS_ERROR, PGS_ERROR_KERNEL_THREAD,
                     "a kernel thread has no user memory");
      return NULL;
    }

  proc = _pgs_process_new (pid);
  proc->ppid = status.ppid;
  proc->uid = status.uid;
  proc->name = g_strdup (status.name);
  proc->user = g_strdup (_pgs_scan_lookup_user (job, status.uid));
  proc->cmdline = _pgs_scan_read_cmdline (dirfd);
  proc->page_size = job->page_size;

  if (!(job->flags & PGS_SCAN_NO_START_TIME))
    {
      g_autofree char *stat_buf = pgs_read_record_at (dirfd, "stat", &len, NULL);
      PgsStatFields stat;

      /* To tell a reused PID apart (snapshots compared, the live history's Growth): unknown
       * (0) if unreadable. Read for totals alone too: one small file more per process. */
      if (stat_buf != NULL && pgs_stat_parse (stat_buf, len, &stat, NULL))
        proc->start_time = stat.start_time;
    }

  /* Totals alone: the kernel's rollup has them all, exactly; no maps, no page walk. VSS
   * is VmSize, the sum of the mappings. Where there is no rollup to read, the usual way.
   * The physical map, if asked for too, is read whole afterwards and needs no page here. */
  if ((job->flags & PGS_SCAN_KERNEL_TOTALS) &&
      !(job->flags & (PGS_SCAN_MAPPINGS | PGS_SCAN_PAGES)) &&
      _pgs_scan_rollup_read (proc, job->helper, dirfd, FALSE, NULL))
    {
      proc->vss = status.vm_size;
      proc->known |= PGS_METRIC_VSS;
      if (!_pgs_process_check_sane (proc, error) && !totals_again (job, proc, dirfd, error))
        return NULL;
      return g_steal_pointer (&proc);
    }

  proc->cgroup = _pgs_scan_read_cgroup (dirfd);

  maps_buf = pgs_helper_read_at (job->helper, dirfd, pid, "maps", &len, &local_error);
  if (maps_buf == NULL)
    {
      if (!g_error_matches (local_error, PGS_ERROR, PGS_ERROR_NO_PERMISSION))
        {
          g_propagate_error (error, g_steal_pointer (&local_error));
          return NULL;
        }
      /* Another user's process: status is all we get. */
      proc->vss = status.vm_size;
      proc->known |= PGS_METRIC_VSS;
      if (!_pgs_scan_rollup (proc, job->helper, dirfd, &status, (job->flags & PGS_SCAN_MAPPINGS) != 0, error))
        return NULL;
      return g_steal_pointer (&proc);
    }

  if (!_pgs_scan_parse_maps (job, proc, maps_buf, len, error))
    return NULL;

  if (proc->mappings->len == 0)
    {
      g_set_error (error, PGS_ERROR, PGS_ERROR_PROCESS_GONE,
                   "the process exited (its maps are empty)");
      return NULL;
    }

  if (job->privileged || (job->flags & PGS_SCAN_PAGES))
    {
      pagemap_fd = pgs_helper_open_at (job->helper, dirfd, pid, "pagemap", &local_error);
      if (pagemap_fd < 0 && !g_error_matches (local_error, PGS_ERROR, PGS_ERROR_NO_PERMISSION))
        {
          g_propagate_error (error, g_steal_pointer (&local_error));
          return NULL;
        }
      g_clear_error (&local_error);
    }

  /* PAGEMAP_SCAN finds the present parts without reading pagemap for the holes, but walks
   * the page tables a second time; it pays only where most of the address space is not
   * resident (a browser's 20 GiB of reservations for 500 MiB of RSS). */
  sparse = status.vm_size > status.vm_rss + SPARSE_THRESHOLD;

  if (pagemap_fd >= 0 && !_pgs_scan_read_pages (job, proc, dirfd, pagemap_fd, sparse, error))
    return NULL;
  if (proc->source == PGS_SOURCE_PAGES)
    _pgs_swap_fill (proc, dirfd, job->swap_state);
  /* Clean/dirty and shared/private are the kernel's page-table bits: only its rollup has
   * them, whichever route the other figures took. */
  if (proc->source == PGS_SOURCE_PAGES)
    _pgs_scan_rollup_split (proc, job->helper, dirfd);

  if (proc->source != PGS_SOURCE_PAGES &&
      !_pgs_scan_rollup (proc, job->helper, dirfd, &status, (job->flags & PGS_SCAN_MAPPINGS) != 0, error))
    return NULL;
  if (!_pgs_process_check_sane (proc, error))
    return NULL;

  return g_steal_pointer (&proc);
}
