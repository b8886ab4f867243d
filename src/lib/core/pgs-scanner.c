/* pgs-scanner.c
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Turns a procfs tree into a PgsSnapshot in three phases:
 *
 *  1. per process: status, cmdline, maps, then pagemap for the mapped ranges in large preads
 *     through one reused buffer (for sparse processes, only the present or swapped parts,
 *     found with PAGEMAP_SCAN). A page pagemap marks exclusively mapped is accounted at
 *     once: that bit is the kernel's own test for a private page, so it needs no lookup.
 *     Shared pages wait as (frame, mapping) pairs.
 *  2. once for all processes: the chunks of kpagecount that hold any waiting frame, then the
 *     kpageflags wherever a count of 0 or a hugetlb mapping must be told apart; or both files
 *     whole when the physical map is wanted anyway. A frame shared by 50 processes is read
 *     once, and nothing is read per page.
 *  3. per process: the rest of the kernel's arithmetic (fs/proc/task_mmu.c smaps_account):
 *     PSS accumulates (PAGE_SIZE << 12) / mapcount per shared page and is truncated once;
 *     the zero page, PFN mappings (map count 0) and hugetlb mappings are not in Rss; swapped
 *     entries count as swap.
 *
 * Without the privilege to read frame numbers, a process's totals come from the kernel's
 * own smaps_rollup (and smaps per mapping) where readable, else what status says, and the
 * rest is unknown with the reason. Never 0 for unknown.
 */

#include "config.h"

#include <errno.h>
#include <dirent.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "pgs-error.h"
#include "pgs-frames.h"
#include "pgs-helper.h"
#include "pgs-pagemap.h"
#include "pgs-physmap.h"
#include "pgs-process-private.h"
#include "pgs-procfs.h"
#include "pgs-scan-job.h"
#include "pgs-scanner.h"
#include "pgs-snapshot-private.h"
#include "pgs-swap.h"

struct _PgsScanner
{
  GObject       parent_instance;
  char         *procfs_root;
  PgsScanFlags  flags;
  GArray       *pids;
  PgsHelper    *helper;
  GStrv         names;
  gint64        uid;
};

G_DEFINE_FINAL_TYPE (PgsScanner, pgs_scanner, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_PROCFS_ROOT,
  PROP_FLAGS,
  N_PROPS
};

enum {
  PROGRESS,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

/* Progress goes from the worker to the caller's main context through one coalesced idle.
 * Refcounted on its own: the idle may outlive the job, which can be freed on either thread. */
struct _PgsScanProgress
{
  gatomicrefcount  ref_count;
  GMutex           lock;
  double           fraction;
  gboolean         pending;
  GMainContext    *context;
  PgsScanner      *scanner;
};

static Progress *
progress_new (PgsScanner *scanner)
{
  Progress *progress = g_new0 (Progress, 1);

  g_atomic_ref_count_init (&progress->ref_count);
  g_mutex_init (&progress->lock);
  progress->context = g_main_context_ref_thread_default ();
  progress->scanner = g_object_ref (scanner);
  return progress;
}

static Progress *
progress_ref (Progress *progress)
{
  g_atomic_ref_count_inc (&progress->ref_count);
  return progress;
}

static void
progress_unref (Progress *progress)
{
  if (!g_atomic_ref_count_dec (&progress->ref_count))
    return;
  g_mutex_clear (&progress->lock);
  g_main_context_unref (progress->context);
  g_object_unref (progress->scanner);
  g_free (progress);
}

static void
scan_job_free (ScanJob *job)
{
  pgs_close (job->root_fd);
  pgs_close (job->count_fd);
  pgs_close (job->flags_fd);
  g_free (job->root);
  g_clear_pointer (&job->pids, g_array_unref);
  g_strfreev (job->names);
  g_free (job->pm_buf);
  g_clear_pointer (&job->regions, g_array_unref);
  g_clear_pointer (&job->users, g_hash_table_unref);
  g_clear_pointer (&job->processes, g_ptr_array_unref);
  g_clear_pointer (&job->skipped, g_array_unref);
  g_clear_pointer (&job->count_table, pgs_frame_table_free);
  g_clear_pointer (&job->flag_table, pgs_frame_table_free);
  g_clear_pointer (&job->progress, progress_unref);
  g_clear_object (&job->helper);
  g_free (job);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (ScanJob, scan_job_free)

static ScanJob *
scan_job_new (PgsScanner *self)
{
  ScanJob *job = g_new0 (ScanJob, 1);
  long page_size = sysconf (_SC_PAGESIZE);

  job->root = g_strdup (self->procfs_root);
  job->flags = self->flags;
  if (self->pids != NULL && self->pids->len > 0)
    {
      job->pids = g_array_sized_new (FALSE, FALSE, sizeof (int), self->pids->len);
      g_array_append_vals (job->pids, self->pids->data, self->pids->len);
    }
  job->names = g_strdupv (self->names);
  /* The helper opens the live /proc only; one that has exited leaves the user's view. */
  if (self->helper != NULL && pgs_helper_is_running (self->helper) &&
      g_str_equal (self->procfs_root, PGS_PROCFS_DEFAULT_ROOT))
    job->helper = g_object_ref (self->helper);
  job->uid = self->uid;
  job->page_size = page_size > 0 ? (guint) page_size : 4096;
  job->page_shift = g_bit_nth_lsf (job->page_size, -1);
  job->root_fd = job->count_fd = job->flags_fd = -1;
  job->regions = g_array_new (FALSE, FALSE, sizeof (PgsPageRegion));
  job->users = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  job->processes = g_ptr_array_new_with_free_func (g_object_unref);
  job->skipped = g_array_new (FALSE, TRUE, sizeof (PgsSkipped));
  job->count_table = pgs_frame_table_new (SPARSE_CHUNK_FRAMES, TRUE);
  job->flag_table = pgs_frame_table_new (SPARSE_CHUNK_FRAMES, FALSE);
  return job;
}

static gboolean
emit_progress (gpointer data)
{
  Progress *progress = data;
  double fraction;

  g_mutex_lock (&progress->lock);
  fraction = progress->fraction;
  progress->pending = FALSE;
  g_mutex_unlock (&progress->lock);

  g_signal_emit (progress->scanner, signals[PROGRESS], 0, fraction);
  return G_SOURCE_REMOVE;
}

/* Called from the worker; at most one idle is pending however often this runs. */
static void
report_progress (ScanJob *job,
                 double   fraction)
{
  Progress *progress = job->progress;
  gboolean schedule;

  if (progress == NULL)
    return;

  g_mutex_lock (&progress->lock);
  progress->fraction = fraction;
  schedule = !progress->pending;
  progress->pending = TRUE;
  g_mutex_unlock (&progress->lock);

  if (schedule)
    {
      g_autoptr(GSource) source = g_idle_source_new ();

      g_source_set_priority (source, G_PRIORITY_DEFAULT_IDLE);
      g_source_set_callback (source, emit_progress, progress_ref (progress),
                             (GDestroyNotify) progress_unref);
      g_source_set_static_name (source, "[pagescope] scan progress");
      g_source_attach (source, progress->context);
    }
}

static void
add_skipped (ScanJob *job,
             int      pid,
             GError  *error)
{
  PgsSkipped skipped = { pid, error };

  g_array_append_val (job->skipped, skipped);
}

static GArray *
list_pids (ScanJob  *job,
           GError  **error)
{
  g_autoptr(GArray) pids = g_array_new (FALSE, FALSE, sizeof (int));
  DIR *dir;
  struct dirent *de;
  int fd;

  fd = pgs_open_at (job->root_fd, ".", O_RDONLY | O_DIRECTORY, error);
  if (fd < 0)
    return NULL;
  dir = fdopendir (fd);
  if (dir == NULL)
    {
      pgs_set_error_from_errno (error, errno, "%s", job->root);
      close (fd);
      return NULL;
    }

  while ((de = readdir (dir)) != NULL)
    {
      int pid;

      if (pgs_is_pid_name (de->d_name, &pid))
        g_array_append_val (pids, pid);
    }
  closedir (dir);

  return g_steal_pointer (&pids);
}

static PgsSnapshot *
scan_job_run (ScanJob       *job,
              GCancellable  *cancellable,
              GError       **error)
{
  g_autoptr(GArray) pids = NULL;
  g_autoptr(PgsPhysMap) physmap = NULL;
  gboolean explicit_pids = job->pids != NULL;

  job->root_fd = pgs_open_at (AT_FDCWD, job->root, O_RDONLY | O_DIRECTORY, error);
  if (job->root_fd < 0)
    return NULL;

  /* Privileged means we may read frame counts; without them everything falls back to the
   * kernel's own rollups. */
  job->count_fd = pgs_helper_open_at (job->helper, job->root_fd, 0, "kpagecount", NULL);
  if (job->count_fd >= 0)
    job->flags_fd = pgs_helper_open_at (job->helper, job->root_fd, 0, "kpageflags", NULL);
  job->privileged = job->count_fd >= 0 && job->flags_fd >= 0;

  if ((job->flags & PGS_SCAN_PHYSMAP) && !job->privileged)
    {
      g_set_error (error, PGS_ERROR, PGS_ERROR_NO_PERMISSION,
                   "the physical memory map needs root: /proc/kpagecount and "
                   "/proc/kpageflags are readable by root only");
      return NULL;
    }

  job->swap_state = _pgs_swap_state (job->root_fd);

  pids = explicit_pids ? g_array_ref (job->pids) : list_pids (job, error);
  if (pids == NULL)
    return NULL;

  for (guint i = 0; i < pids->len; i++)
    {
      int pid = g_array_index (pids, int, i);
      g_autoptr(GError) local_error = NULL;
      PgsProcess *proc;

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return NULL;

      proc = _pgs_scan_process (job, pid, &local_error);
      if (proc != NULL)
        g_ptr_array_add (job->processes, proc);
      else if (local_error == NULL)
        ;  /* left out by the filter */
      else if (explicit_pids)
        {
          /* The user named this PID: say exactly what is wrong with it. */
          char name[32];

          g_snprintf (name, sizeof name, "%d", pid);
          if (g_error_matches (local_error, PGS_ERROR, PGS_ERROR_PROCESS_GONE) &&
              faccessat (job->root_fd, name, F_OK, 0) < 0)
            {
              g_clear_error (&local_error);
              g_set_error (&local_error, PGS_ERROR, PGS_ERROR_NO_SUCH_PROCESS,
                           "no process with PID %d", pid);
            }
          add_skipped (job, pid, g_steal_pointer (&local_error));
        }
      else if (!g_error_matches (local_error, PGS_ERROR, PGS_ERROR_KERNEL_THREAD))
        add_skipped (job, pid, g_steal_pointer (&local_error));

      report_progress (job, 0.9 * (i + 1) / pids->len);
    }

  if (job->privileged && !_pgs_scan_read_frames (job, cancellable, &physmap, error))
    return NULL;

  report_progress (job, 1.0);

  {
    PgsSnapshot *snapshot = _pgs_snapshot_new (job->processes, job->skipped, job->privileged,
                                               job->page_size, physmap);

    if (!(job->flags & PGS_SCAN_NO_HOST_INFO))
      _pgs_snapshot_read_host_info (snapshot, job->root_fd);
    return snapshot;
  }
}

static void
pgs_scanner_finalize (GObject *object)
{
  PgsScanner *self = (PgsScanner *) object;

  g_clear_pointer (&self->procfs_root, g_free);
  g_clear_pointer (&self->pids, g_array_unref);
  g_clear_pointer (&self->names, g_strfreev);
  g_clear_object (&self->helper);

  G_OBJECT_CLASS (pgs_scanner_parent_class)->finalize (object);
}

static void
pgs_scanner_get_property (GObject    *object,
                          guint       prop_id,
                          GValue     *value,
                          GParamSpec *pspec)
{
  PgsScanner *self = PGS_SCANNER (object);

  switch (prop_id)
    {
    case PROP_PROCFS_ROOT:
      g_value_set_string (value, self->procfs_root);
      break;
    case PROP_FLAGS:
      g_value_set_uint (value, self->flags);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pgs_scanner_set_property (GObject      *object,
                          guint         prop_id,
                          const GValue *value,
                          GParamSpec   *pspec)
{
  PgsScanner *self = PGS_SCANNER (object);

  switch (prop_id)
    {
    case PROP_PROCFS_ROOT:
      pgs_scanner_set_procfs_root (self, g_value_get_string (value));
      break;
    case PROP_FLAGS:
      pgs_scanner_set_flags (self, g_value_get_uint (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pgs_scanner_class_init (PgsScannerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = pgs_scanner_finalize;
  object_class->get_property = pgs_scanner_get_property;
  object_class->set_property = pgs_scanner_set_property;

  properties[PROP_PROCFS_ROOT] =
    g_param_spec_string ("procfs-root", NULL, NULL, PGS_PROCFS_DEFAULT_ROOT,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_FLAGS] =
    g_param_spec_uint ("flags", NULL, NULL, 0, G_MAXUINT, 0,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * PgsScanner::progress:
   * @fraction: 0 to 1
   *
   * Emitted on the main context of the caller of pgs_scanner_scan_async(), at most once
   * per main-loop iteration however fast the worker goes.
   */
  signals[PROGRESS] = g_signal_new ("progress", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                    0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_DOUBLE);
}

static void
pgs_scanner_init (PgsScanner *self)
{
  self->procfs_root = g_strdup (PGS_PROCFS_DEFAULT_ROOT);
  self->uid = -1;
}

PgsScanner *
pgs_scanner_new (void)
{
  return g_object_new (PGS_TYPE_SCANNER, NULL);
}

const char *
pgs_scanner_get_procfs_root (PgsScanner *self)
{
  g_return_val_if_fail (PGS_IS_SCANNER (self), NULL);
  return self->procfs_root;
}

void
pgs_scanner_set_procfs_root (PgsScanner *self,
                             const char *root)
{
  g_return_if_fail (PGS_IS_SCANNER (self));

  if (root == NULL)
    root = PGS_PROCFS_DEFAULT_ROOT;
  if (g_strcmp0 (root, self->procfs_root) == 0)
    return;
  g_free (self->procfs_root);
  self->procfs_root = g_strdup (root);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROCFS_ROOT]);
}

PgsScanFlags
pgs_scanner_get_flags (PgsScanner *self)
{
  g_return_val_if_fail (PGS_IS_SCANNER (self), 0);
  return self->flags;
}

void
pgs_scanner_set_flags (PgsScanner   *self,
                       PgsScanFlags  flags)
{
  g_return_if_fail (PGS_IS_SCANNER (self));

  if (self->flags == flags)
    return;
  self->flags = flags;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FLAGS]);
}

void
pgs_scanner_set_helper (PgsScanner *self,
                        PgsHelper  *helper)
{
  g_return_if_fail (PGS_IS_SCANNER (self));
  g_return_if_fail (helper == NULL || PGS_IS_HELPER (helper));

  g_set_object (&self->helper, helper);
}

void
pgs_scanner_set_pids (PgsScanner *self,
                      const int  *pids,
                      guint       n_pids)
{
  g_return_if_fail (PGS_IS_SCANNER (self));
  g_return_if_fail (pids != NULL || n_pids == 0);

  g_clear_pointer (&self->pids, g_array_unref);
  if (n_pids > 0)
    {
      self->pids = g_array_sized_new (FALSE, FALSE, sizeof (int), n_pids);
      g_array_append_vals (self->pids, pids, n_pids);
    }
}

void
pgs_scanner_set_filter (PgsScanner         *self,
                        const char * const *names,
                        gint64              uid)
{
  g_return_if_fail (PGS_IS_SCANNER (self));

  g_clear_pointer (&self->names, g_strfreev);
  if (names != NULL && names[0] != NULL)
    self->names = g_strdupv ((char **) names);
  self->uid = uid;
}

PgsSnapshot *
pgs_scanner_scan (PgsScanner    *self,
                  GCancellable  *cancellable,
                  GError       **error)
{
  g_autoptr(ScanJob) job = NULL;

  g_return_val_if_fail (PGS_IS_SCANNER (self), NULL);
  g_return_val_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable), NULL);

  job = scan_job_new (self);
  return scan_job_run (job, cancellable, error);
}

static void
scan_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  ScanJob *job = task_data;
  GError *error = NULL;
  PgsSnapshot *snapshot;

  snapshot = scan_job_run (job, cancellable, &error);
  if (snapshot == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, snapshot, g_object_unref);
}

void
pgs_scanner_scan_async (PgsScanner          *self,
                        GCancellable        *cancellable,
                        GAsyncReadyCallback  callback,
                        gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  ScanJob *job;

  g_return_if_fail (PGS_IS_SCANNER (self));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  job = scan_job_new (self);
  job->progress = progress_new (self);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, pgs_scanner_scan_async);
  g_task_set_task_data (task, job, (GDestroyNotify) scan_job_free);
  g_task_set_return_on_cancel (task, FALSE);
  g_task_run_in_thread (task, scan_thread);
}

PgsSnapshot *
pgs_scanner_scan_finish (PgsScanner    *self,
                         GAsyncResult  *result,
                         GError       **error)
{
  g_return_val_if_fail (PGS_IS_SCANNER (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == pgs_scanner_scan_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
