/* pgs-wss-pageout.c: the PgsPageout object and its preparation; the page-out and the
 * read-back are in pgs-wss-pageout-run.c
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Kernel facts this rests on (mm/madvise.c, fs/proc/task_mmu.c, Linux 6.x):
 *
 *  - MADV_PAGEOUT refuses VMAs that are locked, hugetlb or PFN maps (EINVAL), and inside a
 *    VMA leaves every folio that may be mapped by another process; it reclaims the rest
 *    ignoring the accessed bits: anonymous pages go to swap (not without swap), clean file
 *    pages leave the page cache, dirty shared file pages stay (no writeback from madvise).
 *  - pagemap's exclusive bit (56) is set for a present page mapped exactly once; a swapped
 *    page shows its swap type and offset, a page of a file that is not mapped shows nothing
 *    (shmem pages in swap included: their swap entry is in the page cache, not the PTE).
 *  - Swapping in from a synchronous device (zram) reads the page alone; from others the
 *    neighbours go to the swap cache but stay unmapped, so pagemap still shows them
 *    swapped. A file fault maps the neighbours already in the page cache (fault-around).
 *  - transparent_hugepage/hugepages-<size>kB/enabled (6.8+) may let large anonymous folios
 *    be swapped in whole: those mappings' figures are then upper bounds.
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <glib/gi18n-lib.h>

#include "pgs-error.h"
#include "pgs-helper.h"
#include "pgs-parse.h"
#include "pgs-procfs.h"
#include "pgs-wss-pageout-private.h"

#define DEFAULT_SYSFS_ROOT "/sys"

G_DEFINE_FINAL_TYPE (PgsPageout, pgs_pageout, G_TYPE_OBJECT)

static void
proc_clear (PoProc *proc)
{
  g_free (proc->name);
  pgs_close (proc->dir_fd);
  pgs_close (proc->pidfd);
  pgs_close (proc->pagemap_fd);
  for (guint i = 0; proc->vmas != NULL && i < proc->vmas->len; i++)
    g_free (g_array_index (proc->vmas, PoVma, i).path);
  g_clear_pointer (&proc->vmas, g_array_unref);
  g_clear_pointer (&proc->runs, g_array_unref);
  g_clear_pointer (&proc->entries, g_array_unref);
}

static void
pgs_pageout_finalize (GObject *object)
{
  PgsPageout *self = PGS_PAGEOUT (object);

  g_array_unref (self->procs);
  g_ptr_array_unref (self->gone);
  g_free (self->swap_areas);
  g_clear_object (&self->helper);
  g_free (self->procfs_root);
  g_free (self->sysfs_root);
  if (self->func_notify != NULL)
    self->func_notify (self->func_data);

  G_OBJECT_CLASS (pgs_pageout_parent_class)->finalize (object);
}

static void
pgs_pageout_class_init (PgsPageoutClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = pgs_pageout_finalize;
}

static void
pgs_pageout_init (PgsPageout *self)
{
  self->procfs_root = g_strdup (PGS_PROCFS_DEFAULT_ROOT);
  self->sysfs_root = g_strdup (DEFAULT_SYSFS_ROOT);
  self->swap_forced = -1;
  self->procs = g_array_new (FALSE, TRUE, sizeof (PoProc));
  g_array_set_clear_func (self->procs, (GDestroyNotify) proc_clear);
  self->gone = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (self->gone, NULL);
}

PgsPageout *
pgs_pageout_new (const int *pids,
                 guint      n_pids)
{
  PgsPageout *self;

  g_return_val_if_fail (pids != NULL && n_pids > 0, NULL);

  self = g_object_new (PGS_TYPE_PAGEOUT, NULL);
  for (guint i = 0; i < n_pids; i++)
    {
      PoProc proc = { 0 };

      g_return_val_if_fail (pids[i] > 0, self);
      proc.pid = pids[i];
      proc.dir_fd = proc.pidfd = proc.pagemap_fd = -1;
      g_array_append_val (self->procs, proc);
    }
  return self;
}

void
pgs_pageout_set_procfs_root (PgsPageout *self,
                             const char *root)
{
  g_return_if_fail (PGS_IS_PAGEOUT (self));
  g_return_if_fail (!self->prepared);

  g_free (self->procfs_root);
  self->procfs_root = g_strdup (root != NULL ? root : PGS_PROCFS_DEFAULT_ROOT);
}

void
pgs_pageout_set_sysfs_root (PgsPageout *self,
                            const char *root)
{
  g_return_if_fail (PGS_IS_PAGEOUT (self));
  g_return_if_fail (!self->prepared);

  g_free (self->sysfs_root);
  self->sysfs_root = g_strdup (root != NULL ? root : DEFAULT_SYSFS_ROOT);
}

void
pgs_pageout_set_func (PgsPageout     *self,
                      PgsPageoutFunc  func,
                      gpointer        user_data,
                      GDestroyNotify  notify)
{
  g_return_if_fail (PGS_IS_PAGEOUT (self));
  g_return_if_fail (!self->busy);

  if (self->func_notify != NULL)
    self->func_notify (self->func_data);
  self->func = func;
  self->func_data = user_data;
  self->func_notify = notify;
}

void
pgs_pageout_set_swap (PgsPageout *self,
                      gboolean    swap)
{
  g_return_if_fail (PGS_IS_PAGEOUT (self));
  g_return_if_fail (!self->prepared);

  self->swap_forced = swap ? 1 : 0;
}

gboolean
_pgs_pageout_is_live (PgsPageout *self)
{
  return g_str_equal (self->procfs_root, PGS_PROCFS_DEFAULT_ROOT);
}

/* The helper opens files of the live /proc only, and only while it runs. */
static PgsHelper *
usable_helper (PgsPageout *self)
{
  if (self->helper != NULL && pgs_helper_is_running (self->helper) && _pgs_pageout_is_live (self))
    return self->helper;
  return NULL;
}

void
pgs_pageout_set_helper (PgsPageout *self,
                        PgsHelper  *helper)
{
  g_return_if_fail (PGS_IS_PAGEOUT (self));
  g_return_if_fail (helper == NULL || PGS_IS_HELPER (helper));
  g_return_if_fail (!self->prepared);

  g_set_object (&self->helper, helper);
}

char *
_pgs_pageout_describe (PoProc *proc)
{
  if (proc->name != NULL)
    return g_strdup_printf ("PID %d (%s)", proc->pid, proc->name);
  return g_strdup_printf ("PID %d", proc->pid);
}

void
_pgs_pageout_mark_gone (PgsPageout *self,
                        PoProc     *proc)
{
  if (proc->gone)
    return;
  proc->gone = TRUE;
  g_ptr_array_insert (self->gone, self->gone->len - 1, _pgs_pageout_describe (proc));
}

gboolean
_pgs_pageout_has_exited (PoProc *proc)
{
  if (proc->pidfd >= 0)
    {
      struct pollfd pfd = { proc->pidfd, POLLIN, 0 };

      return poll (&pfd, 1, 0) > 0;
    }
  return faccessat (proc->dir_fd, "status", F_OK, 0) != 0;
}

/* "always", "madvise" or "never" for one enabled file; "inherit" gives @parent's. */
static const char *
thp_setting (const char *path,
             const char *parent)
{
  g_autofree char *text = NULL;
  const char *open, *close;

  if (!g_file_get_contents (path, &text, NULL, NULL) ||
      (open = strchr (text, '[')) == NULL || (close = strchr (open, ']')) == NULL)
    return "never";
  if (g_str_has_prefix (open, "[always]"))
    return "always";
  if (g_str_has_prefix (open, "[madvise]"))
    return "madvise";
  if (g_str_has_prefix (open, "[inherit]") && parent != NULL)
    return parent;
  return "never";
}

/* Which mappings may get large anonymous folios: some size on "always" (every mapping but
 * MADV_NOHUGEPAGE ones) or on "madvise" (MADV_HUGEPAGE ones). */
static void
probe_thp (PgsPageout *self)
{
  g_autofree char *dir = g_build_filename (self->sysfs_root, "kernel/mm/transparent_hugepage", NULL);
  g_autofree char *top_path = g_build_filename (dir, "enabled", NULL);
  const char *top = thp_setting (top_path, NULL);
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;
  gboolean sizes = FALSE;

  self->thp_always = self->thp_madvise = FALSE;
  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = NULL;
      const char *setting;

      if (!g_str_has_prefix (name, "hugepages-"))
        continue;
      sizes = TRUE;
      path = g_build_filename (dir, name, "enabled", NULL);
      setting = thp_setting (path, top);
      self->thp_always |= g_str_equal (setting, "always");
      self->thp_madvise |= g_str_equal (setting, "madvise") || g_str_equal (setting, "always");
    }
  /* Before 6.8 there are no per-size files: the PMD size follows the top setting. */
  if (!sizes)
    {
      self->thp_always = g_str_equal (top, "always");
      self->thp_madvise = !g_str_equal (top, "never");
    }
}

/* The active swap areas by name, one a line, for telling whether one was turned off during
 * the interval; NULL where /proc/swaps cannot be read. */
char *
_pgs_pageout_swap_areas (PgsPageout *self)
{
  g_autofree char *path = g_build_filename (self->procfs_root, "swaps", NULL);
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  GString *names;

  if (!g_file_get_contents (path, &text, NULL, NULL))
    return NULL;
  names = g_string_new (NULL);
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 1; lines[i] != NULL; i++)
    if (lines[i][0] != '\0')
      {
        g_string_append_len (names, lines[i], strcspn (lines[i], " \t"));
        g_string_append_c (names, '\n');
      }
  return g_string_free (names, FALSE);
}

/* Whether an area of @before is missing from @after. */
gboolean
_pgs_pageout_swap_area_removed (const char *before,
                                const char *after)
{
  g_auto(GStrv) names = NULL;

  if (before == NULL || after == NULL)
    return FALSE;
  names = g_strsplit (before, "\n", -1);
  for (guint i = 0; names[i] != NULL; i++)
    if (names[i][0] != '\0')
      {
        g_autofree char *line = g_strconcat (names[i], "\n", NULL);
        const char *p = after;
        gboolean found = FALSE;

        while (!found && (p = strstr (p, line)) != NULL)
          {
            found = p == after || p[-1] == '\n';
            p++;
          }
        if (!found)
          return TRUE;
      }
  return FALSE;
}

/* /proc/swaps: "Filename Type Size Used Priority", sizes in KiB. */
static void
probe_swap (PgsPageout *self)
{
  g_autofree char *path = g_build_filename (self->procfs_root, "swaps", NULL);
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  guint n = 0;

  self->swap_free = 0;
  if (!g_file_get_contents (path, &text, NULL, NULL))
    {
      self->swap = self->swap_forced == 1;
      self->swap_free = G_MAXUINT64;
      return;
    }
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 1; lines[i] != NULL; i++)
    {
      char name[256], type[64];
      guint64 size, used;

      if (sscanf (lines[i], "%255s %63s %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT,
                  name, type, &size, &used) != 4)
        continue;
      self->swap_free += (size > used ? size - used : 0) * 1024;
      n++;
    }
  self->swap = self->swap_forced >= 0 ? self->swap_forced == 1 : n > 0;
}

static gboolean
has_vm_flag (const char *flags,
             const char *flag)
{
  for (const char *p = flags; p != NULL && *p != '\0';)
    {
      while (*p == ' ')
        p++;
      if (p[0] == flag[0] && p[1] == flag[1] && (p[2] == ' ' || p[2] == '\0' || p[2] == '\n'))
        return TRUE;
      while (*p != '\0' && *p != ' ')
        p++;
    }
  return FALSE;
}

static void
finish_vma (PgsPageout           *self,
            PoProc               *proc,
            PoVma                *vma,
            const PgsSmapsFields *fields,
            const char           *vm_flags)
{
  guint64 private = fields->private_clean + fields->private_dirty;

  if (g_str_equal (vma->path, "[vvar]") || g_str_equal (vma->path, "[vvar_vclock]") ||
      g_str_equal (vma->path, "[vdso]") || g_str_equal (vma->path, "[vsyscall]") ||
      g_str_equal (vma->path, "[uprobes]"))
    vma->refused = N_("memory the kernel provides");
  else if (has_vm_flag (vm_flags, "lo"))
    vma->refused = N_("locked in memory (mlock)");
  else if (has_vm_flag (vm_flags, "ht"))
    vma->refused = N_("hugetlbfs pages");
  else if (has_vm_flag (vm_flags, "pf") || has_vm_flag (vm_flags, "io"))
    vma->refused = N_("device memory (PFN map)");

  if (vma->anonymous)
    {
      if ((self->thp_always && !has_vm_flag (vm_flags, "nh")) ||
          (self->thp_madvise && has_vm_flag (vm_flags, "hg")))
        vma->bound |= PGS_PAGEOUT_LARGE_FOLIOS;
    }
  else
    vma->bound |= PGS_PAGEOUT_FAULT_AROUND;

  if (vma->refused != NULL || (vma->anonymous && !self->swap))
    proc->left_bytes += fields->rss;
  else
    {
      proc->bytes += private;
      proc->left_bytes += fields->rss - MIN (fields->rss, private);
    }
  g_array_append_val (proc->vmas, *vma);
  memset (vma, 0, sizeof *vma);
}

/* The mappings, with what each needs: smaps for the sizes and VmFlags. Again at each
 * page-out: the process maps and unmaps as it runs. */
gboolean
_pgs_pageout_read_vmas (PgsPageout  *self,
                        PoProc      *proc,
                        GError     **error)
{
  g_autoptr(GError) local = NULL;
  g_autofree char *who = _pgs_pageout_describe (proc);
  g_autofree char *text = NULL;
  PgsLineReader reader;
  PgsSmapsFields fields = { 0 };
  PoVma vma = { 0 };
  gboolean open = FALSE;
  char vm_flags[256] = "";
  const char *line;
  gsize len;
  gboolean complete;

  text = pgs_helper_read_at (usable_helper (self), proc->dir_fd, proc->pid, "smaps", &len, &local);
  if (text == NULL)
    {
      if (g_error_matches (local, PGS_ERROR, PGS_ERROR_PROCESS_GONE))
        g_set_error (error, PGS_ERROR, PGS_ERROR_PROCESS_GONE,
                     _("%s exited before it could be measured"), who);
      else
        g_propagate_prefixed_error (error, g_steal_pointer (&local), "%s: ", who);
      return FALSE;
    }
  if (len == 0)
    {
      g_set_error (error, PGS_ERROR, PGS_ERROR_KERNEL_THREAD,
                   _("%s has no user memory (empty smaps), so no working set"), who);
      return FALSE;
    }

  for (guint i = 0; proc->vmas != NULL && i < proc->vmas->len; i++)
    g_free (g_array_index (proc->vmas, PoVma, i).path);
  g_clear_pointer (&proc->vmas, g_array_unref);
  proc->vmas = g_array_new (FALSE, TRUE, sizeof (PoVma));
  proc->bytes = proc->left_bytes = 0;
  pgs_line_reader_init (&reader, text, len);
  while (pgs_line_reader_next (&reader, &line, &len, &complete))
    {
      PgsMapsEntry entry;

      if (pgs_maps_parse_line (line, len, &entry))
        {
          if (open)
            finish_vma (self, proc, &vma, &fields, vm_flags);
          open = FALSE;
          memset (&fields, 0, sizeof fields);
          vm_flags[0] = '\0';
          vma.start = entry.start;
          vma.end = entry.end;
          vma.inode = entry.inode;
          memcpy (vma.perms, entry.perms, sizeof vma.perms);
          vma.path = g_strndup (entry.path != NULL ? entry.path : "", entry.path_len);
          vma.anonymous = entry.inode == 0;
          /* [vsyscall] lies beyond the address space pagemap covers: nothing to measure. */
          open = g_strcmp0 (vma.path, "[vsyscall]") != 0;
          if (!open)
            g_clear_pointer (&vma.path, g_free);
        }
      else if (len > 8 && strncmp (line, "VmFlags:", 8) == 0)
        g_strlcpy (vm_flags, line + 8, MIN (sizeof vm_flags, len - 8 + 1));
      else
        pgs_smaps_parse_field (line, len, &fields);
    }
  if (open)
    finish_vma (self, proc, &vma, &fields, vm_flags);
  return TRUE;
}

static gboolean
prepare_proc (PgsPageout  *self,
              PoProc      *proc,
              GError     **error)
{
  g_autoptr(GError) local = NULL;
  g_autofree char *text = NULL;
  g_autofree char *who = NULL;
  PgsStatus status;
  gsize len;

  if (_pgs_pageout_is_live (self) && proc->pid == getpid ())
    {
      g_set_error (error, PGS_ERROR, PGS_ERROR_FAILED,
                   _("PID %d is this process: it cannot page itself out and watch"), proc->pid);
      return FALSE;
    }
  proc->dir_fd = pgs_open_pid_dir (self->procfs_root, proc->pid, &local);
  if (proc->dir_fd < 0)
    {
      if (g_error_matches (local, PGS_ERROR, PGS_ERROR_PROCESS_GONE))
        g_set_error (error, PGS_ERROR, PGS_ERROR_NO_SUCH_PROCESS, _("no process with PID %d"),
                     proc->pid);
      else
        g_propagate_prefixed_error (error, g_steal_pointer (&local), "PID %d: ", proc->pid);
      return FALSE;
    }
  text = pgs_read_file_at (proc->dir_fd, "status", &len, &local);
  if (text == NULL || !pgs_status_parse (text, len, &status, &local))
    {
      if (g_error_matches (local, PGS_ERROR, PGS_ERROR_PROCESS_GONE))
        g_set_error (error, PGS_ERROR, PGS_ERROR_PROCESS_GONE,
                     _("PID %d exited before it could be measured"), proc->pid);
      else
        g_propagate_prefixed_error (error, g_steal_pointer (&local), "PID %d: ", proc->pid);
      return FALSE;
    }
  proc->name = g_strdup (status.name);
  who = _pgs_pageout_describe (proc);
  if (status.state == 'Z' || status.state == 'X')
    {
      g_set_error (error, PGS_ERROR, PGS_ERROR_PROCESS_GONE,
                   _("%s has exited (it is a zombie): nothing left to measure"), who);
      return FALSE;
    }
  if (status.kthread == 1 || !status.has_vm)
    {
      g_set_error (error, PGS_ERROR, PGS_ERROR_KERNEL_THREAD,
                   _("%s is a kernel thread: it has no user memory, so no working set"), who);
      return FALSE;
    }

  proc->pagemap_fd = pgs_helper_open_at (usable_helper (self), proc->dir_fd, proc->pid, "pagemap",
                                         &local);
  if (proc->pagemap_fd < 0)
    {
      g_propagate_prefixed_error (error, g_steal_pointer (&local),
                                  _("%s: cannot read its pagemap: "), who);
      return FALSE;
    }

#ifdef SYS_pidfd_open
  /* The page-out goes through this pidfd: a PID reused meanwhile is never touched. The
   * directory fd held from before still resolving proves it is the same process. */
  if (_pgs_pageout_is_live (self))
    {
      proc->pidfd = (int) syscall (SYS_pidfd_open, proc->pid, 0);
      if (proc->pidfd < 0 && errno == ESRCH)
        {
          g_set_error (error, PGS_ERROR, PGS_ERROR_PROCESS_GONE,
                       _("%s exited before it could be measured"), who);
          return FALSE;
        }
      if (proc->pidfd >= 0 && faccessat (proc->dir_fd, "stat", F_OK, 0) != 0)
        {
          g_set_error (error, PGS_ERROR, PGS_ERROR_PROCESS_GONE,
                       _("%s exited before it could be measured"), who);
          return FALSE;
        }
    }
#endif
  if (self->func == NULL && proc->pidfd < 0)
    {
      g_set_error (error, PGS_ERROR, PGS_ERROR_UNSUPPORTED,
                   _("%s: cannot page it out: no pidfd (Linux 5.3+) for process_madvise"), who);
      return FALSE;
    }

  return _pgs_pageout_read_vmas (self, proc, error);
}

gboolean
pgs_pageout_prepare (PgsPageout  *self,
                     GError     **error)
{
  g_return_val_if_fail (PGS_IS_PAGEOUT (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (self->prepared)
    return TRUE;

  self->page_size = (guint) sysconf (_SC_PAGESIZE);
  probe_swap (self);
  probe_thp (self);
  for (guint i = 0; i < self->procs->len; i++)
    {
      PoProc *proc = &g_array_index (self->procs, PoProc, i);
      int pid = proc->pid;

      proc_clear (proc);
      memset (proc, 0, sizeof *proc);
      proc->pid = pid;
      proc->dir_fd = proc->pidfd = proc->pagemap_fd = -1;
      if (!prepare_proc (self, proc, error))
        return FALSE;
    }
  self->prepared = TRUE;
  return TRUE;
}

guint64
pgs_pageout_get_bytes (PgsPageout *self)
{
  guint64 sum = 0;

  g_return_val_if_fail (PGS_IS_PAGEOUT (self), 0);
  for (guint i = 0; i < self->procs->len; i++)
    sum += g_array_index (self->procs, PoProc, i).bytes;
  return sum;
}

guint64
pgs_pageout_get_left_bytes (PgsPageout *self)
{
  guint64 sum = 0;

  g_return_val_if_fail (PGS_IS_PAGEOUT (self), 0);
  for (guint i = 0; i < self->procs->len; i++)
    sum += g_array_index (self->procs, PoProc, i).left_bytes;
  return sum;
}

gboolean
pgs_pageout_get_swap (PgsPageout *self)
{
  g_return_val_if_fail (PGS_IS_PAGEOUT (self), FALSE);
  return self->swap;
}

guint64
pgs_pageout_get_swap_free (PgsPageout *self)
{
  g_return_val_if_fail (PGS_IS_PAGEOUT (self), G_MAXUINT64);
  return self->swap_free;
}

guint
pgs_pageout_get_n_processes (PgsPageout *self)
{
  g_return_val_if_fail (PGS_IS_PAGEOUT (self), 0);
  return self->procs->len;
}

int
pgs_pageout_get_pid (PgsPageout *self,
                     guint       index)
{
  g_return_val_if_fail (PGS_IS_PAGEOUT (self), 0);
  g_return_val_if_fail (index < self->procs->len, 0);
  return g_array_index (self->procs, PoProc, index).pid;
}

const char *
pgs_pageout_get_name (PgsPageout *self,
                      guint       index)
{
  g_return_val_if_fail (PGS_IS_PAGEOUT (self), NULL);
  g_return_val_if_fail (index < self->procs->len, NULL);
  return g_array_index (self->procs, PoProc, index).name;
}

const char * const *
pgs_pageout_get_gone (PgsPageout *self)
{
  g_return_val_if_fail (PGS_IS_PAGEOUT (self), NULL);
  return (const char * const *) self->gone->pdata;
}

gboolean
pgs_pageout_get_progress (PgsPageout *self,
                          guint64    *done,
                          guint64    *total)
{
  g_return_val_if_fail (PGS_IS_PAGEOUT (self), FALSE);

  /* 64-bit loads and stores are atomic on the machines this runs on; the GLib atomics are
   * for gint and pointers only. */
  if (done != NULL)
    *done = __atomic_load_n (&self->progress_done, __ATOMIC_RELAXED);
  if (total != NULL)
    *total = __atomic_load_n (&self->progress_total, __ATOMIC_RELAXED);
  return g_atomic_int_get (&self->paging) != 0;
}

gint64
pgs_pageout_get_pageout_time (PgsPageout *self)
{
  g_return_val_if_fail (PGS_IS_PAGEOUT (self), 0);
  return self->pageout_time;
}
