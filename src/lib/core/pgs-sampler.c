/* pgs-sampler.c: each process's totals and the machine's counters, once a second
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The cost of a sample is the kernel's: smaps_rollup walks every page table of a process,
 * and a large process takes milliseconds. Most processes do nothing from one second to the
 * next, so a process's rollup is read again only when its /proc/PID/stat (one short line the
 * kernel prints from counters) says something moved:
 *
 *   - utime + stime: it ran (a munmap or madvise costs system time);
 *   - minflt, majflt: it faulted pages in (every page a process maps itself arrives by a
 *     fault, populate and GUP included: mm_account_fault counts those too);
 *   - vsize: it mapped or unmapped;
 *   - rss: the kernel's own resident counters moved, whoever moved them (reclaim, swap-out,
 *     the OOM reaper, khugepaged).
 *
 * When none moved, the figures of the sample before are repeated. Where that is not sound:
 * a process's PSS changes when others start or stop sharing its pages (a library mapped by
 * one more process, a forked child), and since Linux 6.2 the rss field is an approximate
 * per-CPU counter that can hide a change of up to 32 pages a CPU. Both are bounded in time:
 * every --refresh-every samples (default 60, a minute) every rollup is read, and the file's
 * key samples are the ones after such a full read. Measured on the test machine (168
 * tasks, 2 shared cores): samples alone, once a second, cost the recorder 1.96 % of a core
 * (1.18 s of CPU in 60 s, 0.97 s of it in the kernel; bench-record with --pages-every 0).
 *
 * Files stay open between samples and are read with pread (a path walk through /proc costs
 * more than the read); a PID used again is told by the start time in its stat, and its old
 * descriptors (which the kernel ties to the old process) are closed.
 */

#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pgs-parse.h"
#include "pgs-procfs.h"
#include "pgs-sampler-private.h"
#include "pgs-sampler.h"

#define STAT_BUF   4096
#define ROLLUP_BUF 8192
#define PF_KTHREAD 0x00200000

typedef struct
{
  int      pid;
  guint64  start_time;
  int      stat_fd;
  int      rollup_fd;        /* -1: not open (denied, or no descriptors left) */
  gboolean rollup_denied;
  gboolean kernel;           /* a kernel thread: no memory of its own, not in samples */
  guint64  activity[5];      /* utime + stime, minflt, majflt, vsize, rss */
  guint64  generation;
  PgsSampleProcess fig;      /* owns fig.name */
} Tracked;

struct _PgsSampler
{
  char       *procfs_root;
  int         proc_fd;
  DIR        *proc_dir;
  GHashTable *tracked;       /* pid → Tracked */
  PgsSample  *sample;
  PgsCounters *counters;
  char       *stat_buf;
  char       *rollup_buf;
  guint64     generation;
  guint       refresh_every;
  gboolean    privileged;
  guint       page_size;
  guint64     n_read;
  guint64     n_reused;
};

static void
tracked_free (gpointer data)
{
  Tracked *t = data;

  if (t->stat_fd >= 0)
    close (t->stat_fd);
  if (t->rollup_fd >= 0)
    close (t->rollup_fd);
  g_clear_pointer (&t->fig.name, g_ref_string_release);
  g_free (t);
}

static void
clear_process (gpointer data)
{
  PgsSampleProcess *p = data;

  g_clear_pointer (&p->name, g_ref_string_release);
}

PgsSampler *
pgs_sampler_new (const char *procfs_root,
                 const char *sysfs_root)
{
  PgsSampler *self = g_new0 (PgsSampler, 1);

  self->procfs_root = g_strdup (procfs_root != NULL ? procfs_root : "/proc");
  self->proc_fd = open (self->procfs_root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  self->tracked = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, tracked_free);
  self->sample = pgs_sample_new ();
  g_array_set_clear_func (self->sample->processes, clear_process);
  self->counters = _pgs_counters_new (self->procfs_root, sysfs_root != NULL ? sysfs_root : "/sys",
                                      self->sample->names);
  self->stat_buf = g_malloc (STAT_BUF);
  self->rollup_buf = g_malloc (ROLLUP_BUF);
  self->refresh_every = 60;
  self->privileged = geteuid () == 0;
  self->page_size = (guint) sysconf (_SC_PAGESIZE);
  return self;
}

void
pgs_sampler_free (PgsSampler *self)
{
  if (self == NULL)
    return;
  if (self->proc_dir != NULL)
    closedir (self->proc_dir);
  if (self->proc_fd >= 0)
    close (self->proc_fd);
  g_hash_table_unref (self->tracked);
  _pgs_counters_free (self->counters);
  pgs_sample_free (self->sample);
  g_free (self->stat_buf);
  g_free (self->rollup_buf);
  g_free (self->procfs_root);
  g_free (self);
}

void
pgs_sampler_set_refresh_every (PgsSampler *self,
                               guint       n)
{
  g_return_if_fail (self != NULL);
  self->refresh_every = MAX (n, 1);
}

gboolean
pgs_sampler_is_privileged (PgsSampler *self)
{
  return self->privileged;
}

void
pgs_sampler_get_counts (PgsSampler *self,
                        guint64    *n_read,
                        guint64    *n_reused)
{
  *n_read = self->n_read;
  *n_reused = self->n_reused;
}

static int
open_pid_file (PgsSampler *self,
               const char *pid,
               const char *name)
{
  char path[64];

  g_snprintf (path, sizeof path, "%s/%s", pid, name);
  return openat (self->proc_fd, path, O_RDONLY | O_CLOEXEC);
}

static Tracked *
track_new (PgsSampler *self,
           int         pid,
           const char *name,
           int         stat_fd)
{
  Tracked *t = g_new0 (Tracked, 1);
  struct stat st;

  t->pid = pid;
  t->stat_fd = stat_fd;
  t->rollup_fd = -1;
  t->fig.pid = pid;
  if (fstatat (self->proc_fd, name, &st, 0) == 0)
    t->fig.uid = st.st_uid;
  return t;
}

static void
read_rollup (PgsSampler *self,
             Tracked    *t,
             const char *name)
{
  PgsSmapsFields fields = { 0 };
  gssize n;

  t->fig.known = PGS_METRIC_VSS | PGS_METRIC_RSS;
  if (t->rollup_denied)
    return;
  if (t->rollup_fd < 0)
    {
      t->rollup_fd = open_pid_file (self, name, "smaps_rollup");
      if (t->rollup_fd < 0)
        {
          if (errno == EACCES || errno == EPERM)
            {
              t->rollup_denied = TRUE;
              self->privileged = FALSE;
            }
          return;
        }
    }
  n = pgs_pread_full (t->rollup_fd, self->rollup_buf, ROLLUP_BUF - 1, 0);
  if (n <= 0)
    {
      if (n < 0 && (errno == EACCES || errno == EPERM))
        {
          t->rollup_denied = TRUE;
          self->privileged = FALSE;
        }
      return;
    }
  self->rollup_buf[n] = '\0';
  if (!pgs_smaps_rollup_parse (self->rollup_buf, n, &fields, NULL))
    return;
  self->n_read++;
  t->fig.figures[PGS_SAMPLE_RSS] = fields.rss;
  t->fig.figures[PGS_SAMPLE_PSS] = fields.pss;
  t->fig.figures[PGS_SAMPLE_USS] = fields.private_clean + fields.private_dirty;
  t->fig.figures[PGS_SAMPLE_SWAP] = fields.swap;
  t->fig.figures[PGS_SAMPLE_SWAP_PSS] = fields.swap_pss;
  t->fig.known |= PGS_METRIC_PSS | PGS_METRIC_USS | PGS_METRIC_SWAP |
                  ((fields.seen & PGS_SMAPS_SEEN_SWAP_PSS) ? PGS_METRIC_SWAP_PSS : 0);
}

/* One process: its stat, and its rollup when something moved. FALSE when it is gone or
 * has no memory of its own (a kernel thread, a zombie). */
static gboolean
sample_process (PgsSampler *self,
                int         pid,
                const char *name,
                gboolean    full)
{
  Tracked *t = g_hash_table_lookup (self->tracked, GINT_TO_POINTER (pid));
  PgsStatFields st;
  gssize n;
  guint64 activity[5];
  gboolean fresh = FALSE;

  if (t == NULL)
    {
      int fd = open_pid_file (self, name, "stat");

      if (fd < 0)
        return FALSE;
      t = track_new (self, pid, name, fd);
      g_hash_table_insert (self->tracked, GINT_TO_POINTER (pid), t);
      fresh = TRUE;
    }
  t->generation = self->generation;
  n = pgs_pread_full (t->stat_fd, self->stat_buf, STAT_BUF - 1, 0);
  if (n <= 0 || !pgs_stat_parse (self->stat_buf, n, &st, NULL))
    {
      /* Gone, or the descriptor belongs to a process that ended: a new one may have the
       * PID already. */
      g_hash_table_remove (self->tracked, GINT_TO_POINTER (pid));
      return fresh ? FALSE : sample_process (self, pid, name, full);
    }
  if (!fresh && st.start_time != t->start_time)
    {
      /* The PID was used again: another process. */
      g_hash_table_remove (self->tracked, GINT_TO_POINTER (pid));
      return sample_process (self, pid, name, full);
    }
  t->start_time = st.start_time;
  if ((st.flags & PF_KTHREAD) != 0)
    t->kernel = TRUE;
  if (t->kernel || st.state == 'Z' || st.state == 'X' || st.vsize == 0)
    return FALSE;

  activity[0] = st.utime + st.stime;
  activity[1] = st.minflt;
  activity[2] = st.majflt;
  activity[3] = st.vsize;
  activity[4] = st.rss;
  if (fresh || t->fig.name == NULL || strlen (t->fig.name) != st.comm_len ||
      memcmp (t->fig.name, st.comm, st.comm_len) != 0)
    {
      g_autofree char *comm = g_strndup (st.comm, st.comm_len);

      g_clear_pointer (&t->fig.name, g_ref_string_release);
      t->fig.name = g_ref_string_new (comm);
    }
  t->fig.start_time = st.start_time;
  t->fig.figures[PGS_SAMPLE_VSS] = st.vsize;
  if (fresh || full || memcmp (activity, t->activity, sizeof activity) != 0)
    {
      memcpy (t->activity, activity, sizeof activity);
      t->fig.figures[PGS_SAMPLE_RSS] = st.rss * self->page_size;
      read_rollup (self, t, name);
    }
  else
    self->n_reused++;
  {
    PgsSampleProcess copy = t->fig;

    copy.name = g_ref_string_acquire (t->fig.name);
    g_array_append_val (self->sample->processes, copy);
  }
  return TRUE;
}

static gboolean
forget_old (gpointer key,
            gpointer value,
            gpointer user_data)
{
  Tracked *t = value;

  return t->generation != *(guint64 *) user_data;
}

static int
compare_identity (gconstpointer a,
                  gconstpointer b)
{
  const PgsSampleProcess *pa = a, *pb = b;

  if (pa->pid != pb->pid)
    return pa->pid < pb->pid ? -1 : 1;
  return pa->start_time < pb->start_time ? -1 : pa->start_time > pb->start_time;
}

const PgsSample *
pgs_sampler_sample (PgsSampler *self)
{
  struct dirent *de;
  gboolean full;

  g_return_val_if_fail (self != NULL, NULL);
  full = self->generation % self->refresh_every == 0;
  self->generation++;
  self->sample->time = g_get_real_time ();
  g_array_set_size (self->sample->processes, 0);
  _pgs_counters_read (self->counters, self->sample->values, full);

  if (self->proc_dir == NULL && self->proc_fd >= 0)
    self->proc_dir = fdopendir (dup (self->proc_fd));
  if (self->proc_dir != NULL)
    {
      rewinddir (self->proc_dir);
      while ((de = readdir (self->proc_dir)) != NULL)
        {
          int pid;

          if (!pgs_is_pid_name (de->d_name, &pid))
            continue;
          sample_process (self, pid, de->d_name, full);
        }
    }
  g_hash_table_foreach_remove (self->tracked, forget_old, &self->generation);
  g_array_sort (self->sample->processes, compare_identity);
  return self->sample;
}
