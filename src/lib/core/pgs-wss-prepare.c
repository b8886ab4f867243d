/* pgs-wss-prepare.c: pgs_wss_prepare, which finds out all that can fail before the clearing
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * (The kernel facts are in pgs-wss.c.)
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "pgs-error.h"
#include "pgs-parse.h"
#include "pgs-procfs.h"
#include "pgs-wss-private.h"

/* g_clear_fd is GLib 2.76. */
static void
close_fd (int *fd)
{
  pgs_close (*fd);
  *fd = -1;
}

static gboolean
is_live (PgsWss *self)
{
  return g_str_equal (self->procfs_root, PGS_PROCFS_DEFAULT_ROOT);
}

/* Opens what the per-page sources need, or leaves a source out with the reason. Sources
 * the caller forced fail the preparation instead: a test must not pass on a fallback. */
static gboolean
open_page_sources (PgsWss  *self,
                   GError **error)
{
  g_autofree char *idle_why = NULL;
  g_autofree char *dirty_why = NULL;
  g_autofree char *who = pgs_wss_describe (self);
  PgsWssPages wanted;

  if (self->sources_forced)
    {
      wanted = self->forced_sources;
      if (!(wanted & PGS_WSS_PAGES_IDLE))
        idle_why = g_strdup ("not asked for");
      if (!(wanted & PGS_WSS_PAGES_SOFT_DIRTY))
        dirty_why = g_strdup ("not asked for");
    }
  else if (!is_live (self))
    {
      wanted = PGS_WSS_PAGES_NONE;
      idle_why = g_strdup_printf ("per-page data needs the live kernel, and this reads %s",
                                  self->procfs_root);
      dirty_why = g_strdup (idle_why);
    }
  else
    wanted = pgs_wss_probe_page_sources (self->sysfs_root, &idle_why, &dirty_why);

  if (wanted != PGS_WSS_PAGES_NONE)
    {
      g_autoptr(GError) local = NULL;

      self->pagemap_fd = pgs_helper_open_at (pgs_wss_usable_helper (self), self->dir_fd, self->pid,
                                             "pagemap", &local);
      if (self->pagemap_fd < 0)
        {
          if (self->sources_forced)
            {
              g_set_error (error, PGS_ERROR, local->code, "%s: cannot read its pagemap: %s",
                           who, local->message);
              return FALSE;
            }
          if (wanted & PGS_WSS_PAGES_IDLE)
            idle_why = g_strdup_printf ("cannot read the pagemap of %s (%s)", who, local->message);
          if (wanted & PGS_WSS_PAGES_SOFT_DIRTY)
            dirty_why = g_strdup_printf ("cannot read the pagemap of %s (%s)", who, local->message);
          wanted = PGS_WSS_PAGES_NONE;
        }
    }

  if (wanted & PGS_WSS_PAGES_IDLE)
    {
      g_autofree char *bitmap = g_build_filename (self->sysfs_root, PAGE_IDLE_BITMAP, NULL);
      g_autofree char *kpageflags = g_build_filename (self->procfs_root, "kpageflags", NULL);
      g_autoptr(GError) local = NULL;

      self->kpageflags_fd = pgs_wss_usable_helper (self) != NULL
                            ? pgs_helper_open (self->helper, 0, "kpageflags", &local)
                            : pgs_open_at (AT_FDCWD, kpageflags, O_RDONLY, &local);
      if (self->kpageflags_fd >= 0)
        self->idle_fd = pgs_open_at (AT_FDCWD, bitmap, O_RDWR, &local);
      if (self->idle_fd < 0)
        {
          if (self->sources_forced)
            {
              g_propagate_prefixed_error (error, g_steal_pointer (&local),
                                          "idle page tracking: ");
              return FALSE;
            }
          idle_why = g_strdup_printf ("idle page tracking is not usable (%s)", local->message);
          wanted &= ~PGS_WSS_PAGES_IDLE;
        }
    }

  self->sources = wanted;
  g_clear_pointer (&self->idle_reason, g_free);
  g_clear_pointer (&self->soft_dirty_reason, g_free);
  if (!(wanted & PGS_WSS_PAGES_IDLE))
    self->idle_reason = g_steal_pointer (&idle_why);
  if (!(wanted & PGS_WSS_PAGES_SOFT_DIRTY))
    self->soft_dirty_reason = g_steal_pointer (&dirty_why);
  return TRUE;
}

/* An empty smaps, or one that cannot be opened any more, means the mm is gone. */
static gboolean
read_status (PgsWss     *self,
             PgsStatus  *status,
             GError    **error)
{
  g_autofree char *text = NULL;
  g_autoptr(GError) local = NULL;
  gsize len;

  text = pgs_read_file_at (self->dir_fd, "status", &len, &local);
  if (text == NULL)
    {
      if (g_error_matches (local, PGS_ERROR, PGS_ERROR_PROCESS_GONE))
        pgs_wss_set_gone_error (self, error, "before it could be measured");
      else
        g_propagate_prefixed_error (error, g_steal_pointer (&local), "PID %d: ", self->pid);
      return FALSE;
    }
  if (!pgs_status_parse (text, len, status, &local))
    {
      g_propagate_prefixed_error (error, g_steal_pointer (&local), "PID %d: ", self->pid);
      return FALSE;
    }
  return TRUE;
}

/* The fields a sample needs from each smaps record: the kernel prints them for every VMA. */
#define SMAPS_SEEN_RSS        (1u << 1)
#define SMAPS_SEEN_REFERENCED (1u << 6)

gboolean
pgs_wss_check_fields (int                   pid,
                      const PgsMapsEntry   *entry,
                      const PgsSmapsFields *fields,
                      GError              **error)
{
  guint need = SMAPS_SEEN_RSS | SMAPS_SEEN_REFERENCED;

  if ((fields->seen & need) == need)
    return TRUE;
  g_set_error (error, PGS_ERROR, PGS_ERROR_MALFORMED,
               "PID %d: smaps has no %s line for the mapping at 0x%" G_GINT64_MODIFIER "x",
               pid, (fields->seen & SMAPS_SEEN_RSS) ? "Referenced" : "Rss", entry->start);
  return FALSE;
}

typedef struct
{
  int     pid;
  GError *error;
} ValidateContext;

static void
validate_mapping (const PgsMapsEntry   *entry,
                  const PgsSmapsFields *fields,
                  gpointer              user_data)
{
  ValidateContext *ctx = user_data;

  if (ctx->error == NULL)
    pgs_wss_check_fields (ctx->pid, entry, fields, &ctx->error);
}

gboolean
pgs_wss_prepare (PgsWss  *self,
                 GError **error)
{
  g_autoptr(GError) local = NULL;
  g_autofree char *smaps = NULL;
  g_autofree char *who = NULL;
  PgsStatus status;
  gsize len;

  g_return_val_if_fail (PGS_IS_WSS (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (self->prepared)
    return TRUE;

  /* After a failed attempt: start again from nothing. */
  close_fd (&self->dir_fd);
  close_fd (&self->clear_fd);
  close_fd (&self->pidfd);
  close_fd (&self->pagemap_fd);
  close_fd (&self->kpageflags_fd);
  close_fd (&self->idle_fd);

  if (is_live (self) && self->pid == getpid ())
    {
      g_set_error (error, PGS_ERROR, PGS_ERROR_FAILED,
                   "PID %d is this process: measuring its own working set would count its "
                   "own reading as use; measure it from another process", self->pid);
      return FALSE;
    }

  self->page_size = (guint) sysconf (_SC_PAGESIZE);
  self->dir_fd = pgs_open_pid_dir (self->procfs_root, self->pid, &local);
  if (self->dir_fd < 0)
    {
      if (g_error_matches (local, PGS_ERROR, PGS_ERROR_PROCESS_GONE))
        g_set_error (error, PGS_ERROR, PGS_ERROR_NO_SUCH_PROCESS, "no process with PID %d",
                     self->pid);
      else
        g_propagate_prefixed_error (error, g_steal_pointer (&local), "PID %d: ", self->pid);
      return FALSE;
    }

  if (!read_status (self, &status, error))
    return FALSE;
  g_free (self->name);
  self->name = g_strdup (status.name);
  who = pgs_wss_describe (self);

  /* A zombie has no Vm lines either: the state goes first. Before "Kthread:" (6.8), no Vm
   * lines on a live task is what marks a kernel thread. */
  if (status.state == 'Z' || status.state == 'X')
    {
      g_set_error (error, PGS_ERROR, PGS_ERROR_PROCESS_GONE,
                   "%s has exited (it is a zombie): nothing left to measure", who);
      return FALSE;
    }
  if (status.kthread == 1 || (status.kthread < 0 && !status.has_vm))
    {
      g_set_error (error, PGS_ERROR, PGS_ERROR_KERNEL_THREAD,
                   "%s is a kernel thread: it has no user memory, so no working set", who);
      return FALSE;
    }
  if (!status.has_vm)
    {
      pgs_wss_set_gone_error (self, error, "before it could be measured");
      return FALSE;
    }

  /* The write is the point of no return, so its permission is checked first, by opening. */
  self->clear_fd = pgs_wss_usable_helper (self) != NULL
                   ? pgs_helper_open (self->helper, self->pid, "clear_refs", &local)
                   : pgs_open_at (self->dir_fd, "clear_refs", O_WRONLY, &local);
  if (self->clear_fd < 0)
    {
      /* Through the helper, a refusal says why itself (polkit's change action). */
      if (g_error_matches (local, PGS_ERROR, PGS_ERROR_NO_PERMISSION) &&
          pgs_wss_usable_helper (self) == NULL)
        g_set_error (error, PGS_ERROR, PGS_ERROR_NO_PERMISSION,
                     "%s: cannot clear its referenced bits: %s/%d/clear_refs: %s "
                     "(only the process's owner or root may write it)",
                     who, self->procfs_root, self->pid, g_strerror (EACCES));
      else if (g_error_matches (local, PGS_ERROR, PGS_ERROR_PROCESS_GONE))
        pgs_wss_set_gone_error (self, error, "before it could be measured");
      else
        g_propagate_prefixed_error (error, g_steal_pointer (&local), "%s: ", who);
      return FALSE;
    }

  smaps = pgs_helper_read_at (pgs_wss_usable_helper (self), self->dir_fd, self->pid, "smaps", &len, &local);
  if (smaps == NULL)
    {
      if (g_error_matches (local, PGS_ERROR, PGS_ERROR_NO_PERMISSION))
        g_set_error (error, PGS_ERROR, PGS_ERROR_NO_PERMISSION,
                     "%s: cannot read %s/%d/smaps: %s (root or the process's owner only)",
                     who, self->procfs_root, self->pid, g_strerror (EACCES));
      else if (g_error_matches (local, PGS_ERROR, PGS_ERROR_PROCESS_GONE))
        pgs_wss_set_gone_error (self, error, "before it could be measured");
      else
        g_propagate_prefixed_error (error, g_steal_pointer (&local), "%s: ", who);
      return FALSE;
    }
  if (len == 0)
    {
      /* No mm: exiting since status was read, or a kernel thread status did not show as
       * one. Either way there is nothing to clear. */
      if (read_status (self, &status, NULL) && (status.state == 'Z' || status.state == 'X'))
        pgs_wss_set_gone_error (self, error, "before it could be measured");
      else
        g_set_error (error, PGS_ERROR, PGS_ERROR_KERNEL_THREAD,
                     "%s has no user memory (empty smaps), so no working set", who);
      return FALSE;
    }

  /* A format this code does not understand is found now, not after the clearing. */
  {
    ValidateContext validate = { self->pid, NULL };
    PgsSmapsReader reader;
    PgsMapsEntry entry;
    PgsSmapsFields fields;

    pgs_smaps_reader_init (&reader, smaps, len);
    while (pgs_smaps_reader_next (&reader, &entry, &fields, &local))
      validate_mapping (&entry, &fields, &validate);
    if (local != NULL)
      {
        g_clear_error (&validate.error);
        g_propagate_prefixed_error (error, g_steal_pointer (&local), "%s: ", who);
        return FALSE;
      }
    if (validate.error != NULL)
      {
        g_propagate_error (error, validate.error);
        return FALSE;
      }
  }

  if (!open_page_sources (self, error))
    return FALSE;

#ifdef SYS_pidfd_open
  /* A pidfd wakes the wait when the process exits. The directory fd held since the start
   * still resolving afterwards proves the pidfd is the same process, not a PID reuse. */
  if (is_live (self))
    {
      self->pidfd = (int) syscall (SYS_pidfd_open, self->pid, 0);
      if (self->pidfd >= 0 && faccessat (self->dir_fd, "stat", F_OK, 0) != 0)
        {
          pgs_wss_set_gone_error (self, error, "before it could be measured");
          return FALSE;
        }
    }
#endif

  self->prepared = TRUE;
  return TRUE;
}
