/* pgs-damon-collect.c: read a running kdamond's aggregations for a while
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <math.h>
#include <poll.h>
#include <string.h>
#include <unistd.h>

#include <glib/gi18n-lib.h>

#include "pgs-damon-collect.h"
#include "pgs-damon-own.h"
#include "pgs-damon-reader.h"
#include "pgs-error.h"
#include "src/helper/pgs-helper-protocol.h"

guint64
pgs_damon_ram_end (const char *procfs_root)
{
  g_autofree char *path = g_build_filename (procfs_root ? procfs_root : "/proc", "iomem", NULL);
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  guint64 ram_end = 0;

  if (!g_file_get_contents (path, &text, NULL, NULL))
    return 0;
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *l = lines[i];
      char *end = NULL;
      guint64 last;

      /* Top-level entries only: "100000000-5ffffffff : System RAM". */
      if (!g_ascii_isxdigit (l[0]) || strstr (l, " : System RAM") == NULL)
        continue;
      l = strchr (l, '-');
      if (l == NULL)
        continue;
      last = g_ascii_strtoull (l + 1, &end, 16);
      if (end != l + 1 && last + 1 > ram_end)
        ram_end = last + 1;
    }
  /* Without CAP_SYS_ADMIN every address reads 0: unknown, not "no RAM". */
  return ram_end > 1 ? ram_end : 0;
}

void
pgs_damon_collection_free (PgsDamonCollection *self)
{
  if (self == NULL)
    return;
  g_clear_pointer (&self->before, pgs_damon_sysfs_free);
  g_clear_pointer (&self->access, pgs_damon_access_free);
  g_clear_pointer (&self->messages, g_ptr_array_unref);
  g_free (self->instance);
  g_free (self);
}

const PgsDamonContext *
pgs_damon_collection_context (PgsDamonCollection        *self,
                              const PgsDamonAggregation *aggregation)
{
  g_return_val_if_fail (self != NULL && aggregation != NULL, NULL);
  return pgs_damon_sysfs_context_for_pid (self->before, aggregation->pid);
}

/* A kdamond that was on and is now off, or runs under another PID: its events stopped
 * (or restarted) during the read. */
static void
compare_after (PgsDamonCollection *self,
               const char         *sysfs_root)
{
  g_autoptr(PgsDamonSysfs) after = pgs_damon_sysfs_read (sysfs_root, NULL);

  for (guint i = 0; i < self->before->kdamonds->len; i++)
    {
      PgsDamonKdamond *b = g_ptr_array_index (self->before->kdamonds, i);
      PgsDamonKdamond *a = NULL;

      if (!b->on)
        continue;
      if (after != NULL && i < after->kdamonds->len)
        a = g_ptr_array_index (after->kdamonds, i);
      if (a == NULL || !a->on)
        g_ptr_array_add (self->messages,
                         g_strdup_printf (_("kdamond %u (PID %d) stopped during the read: its "
                                            "last aggregation may be missing"), b->index, b->pid));
      else if (a->pid != b->pid)
        g_ptr_array_add (self->messages,
                         g_strdup_printf (_("kdamond %u was restarted during the read (PID %d, "
                                            "then %d)"), b->index, b->pid, a->pid));
    }
}

/* What both reads do first: DAMON's sysfs, a kdamond running, the RAM's end, and each
 * kdamond's address unit. *SECONDS becomes two aggregations (at least 5 s) when 0.
 * UNREADABLE_OK: a sysfs only root may read is taken as DAMON with no kdamond known (the
 * helper reads the events whichever runs), and *SECONDS 10 s when 0. */
static PgsDamonCollection *
collect_begin (const char  *sysfs_root,
               const char  *procfs_root,
               gboolean     unreadable_ok,
               double      *seconds,
               GError     **error)
{
  g_autoptr(PgsDamonCollection) self = g_new0 (PgsDamonCollection, 1);
  g_autoptr(GPtrArray) running = NULL;
  g_autoptr(GError) local = NULL;

  self->messages = g_ptr_array_new_with_free_func (g_free);
  self->before = pgs_damon_sysfs_read (sysfs_root, &local);
  if (self->before == NULL && unreadable_ok &&
      g_error_matches (local, PGS_ERROR, PGS_ERROR_NO_PERMISSION))
    {
      self->before = pgs_damon_sysfs_new_unreadable (sysfs_root);
      self->ram_end = pgs_damon_ram_end (procfs_root);
      self->access = pgs_damon_access_new (self->ram_end);
      if (*seconds <= 0)
        *seconds = 10;
      return g_steal_pointer (&self);
    }
  if (self->before == NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local));
      return NULL;
    }
  if (!self->before->present)
    {
      g_set_error (error, PGS_ERROR, PGS_ERROR_UNSUPPORTED,
                   _("This kernel has no DAMON sysfs interface (/sys/kernel/mm/damon/admin): "
                     "built without CONFIG_DAMON_SYSFS"));
      return NULL;
    }
  running = pgs_damon_sysfs_running (self->before);
  if (running->len == 0)
    {
      g_autofree char *reason = NULL;

      if (pgs_damon_own_can_start (sysfs_root, &reason))
        g_set_error (error, PGS_ERROR, PGS_ERROR_UNSUPPORTED,
                     _("No kdamond runs: there is no access monitor to read. DAMON’s sysfs "
                       "is free, so Pagescope may start one of its own for the read "
                       "(--start-monitor)"));
      else
        g_set_error (error, PGS_ERROR, PGS_ERROR_UNSUPPORTED,
                     _("No kdamond runs, and none can be started: %s"), reason);
      return NULL;
    }

  self->ram_end = pgs_damon_ram_end (procfs_root);
  self->access = pgs_damon_access_new (self->ram_end);
  for (guint i = 0; i < running->len; i++)
    {
      PgsDamonKdamond *k = g_ptr_array_index (running, i);
      PgsDamonContext *first = k->contexts->len > 0 ? g_ptr_array_index (k->contexts, 0) : NULL;

      if (first != NULL)
        pgs_damon_access_set_addr_unit (self->access, k->pid, first->addr_unit);
    }
  if (*seconds <= 0)
    *seconds = MAX (5.0, 2.0 * pgs_damon_sysfs_slowest_aggr_us (self->before) / 1e6);
  return g_steal_pointer (&self);
}

PgsDamonCollection *
pgs_damon_collect (const char          *sysfs_root,
                   const char          *procfs_root,
                   double               seconds,
                   volatile const int  *stop,
                   GError             **error)
{
  g_autoptr(PgsDamonCollection) self =
    collect_begin (sysfs_root, procfs_root, FALSE, &seconds, error);
  g_autoptr(PgsDamonReader) reader = NULL;
  g_autoptr(GError) local = NULL;
  gint64 start, deadline;
  static char buf[65536];

  if (self == NULL)
    return NULL;
  reader = pgs_damon_reader_start (error);
  if (reader == NULL)
    return NULL;
  self->instance = g_strdup (pgs_damon_reader_get_instance (reader));
  self->private_mount = pgs_damon_reader_get_private_mount (reader);

  start = g_get_monotonic_time ();
  deadline = start + (gint64) (seconds * G_USEC_PER_SEC);
  for (;;)
    {
      gint64 now = g_get_monotonic_time ();
      struct pollfd p = { pgs_damon_reader_get_fd (reader), POLLIN, 0 };
      ssize_t n;

      if (now >= deadline || (stop != NULL && *stop))
        break;
      if (poll (&p, 1, (int) MIN ((deadline - now) / 1000 + 1, 1000)) <= 0)
        continue;
      n = read (p.fd, buf, sizeof buf);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        {
          g_ptr_array_add (self->messages,
                           g_strdup (_("The tracefs reader stopped before the time was up")));
          break;
        }
      pgs_damon_access_feed (self->access, buf, n);
    }
  self->interrupted = stop != NULL && *stop;
  self->seconds = (g_get_monotonic_time () - start) / (double) G_USEC_PER_SEC;

  if (!pgs_damon_reader_stop (reader, &local))
    g_ptr_array_add (self->messages, g_strdup (local->message));
  /* What the worker had read but not yet passed on is still in the pipe. */
  for (;;)
    {
      ssize_t n = read (pgs_damon_reader_get_fd (reader), buf, sizeof buf);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        break;
      pgs_damon_access_feed (self->access, buf, n);
    }
  pgs_damon_access_finish (self->access);
  compare_after (self, sysfs_root);
  return g_steal_pointer (&self);
}

PgsDamonCollection *
pgs_damon_collect_through_helper (PgsHelper     *helper,
                                  const char    *sysfs_root,
                                  const char    *procfs_root,
                                  double         seconds,
                                  GCancellable  *cancellable,
                                  GError       **error)
{
  g_autoptr(PgsDamonCollection) self = NULL;
  gint64 start;
  guint whole;

  g_return_val_if_fail (PGS_IS_HELPER (helper), NULL);

  self = collect_begin (sysfs_root, procfs_root, TRUE, &seconds, error);
  if (self == NULL)
    return NULL;
  whole = (guint) CLAMP (ceil (seconds), 1, PGS_HELPER_MAX_ACCESS_SECONDS);
  start = g_get_monotonic_time ();
  /* The same bytes as the root reader's, fed to the same parser as they come. */
  if (!pgs_helper_read_access (helper, whole, self->access, &self->instance,
                               &self->private_mount, cancellable, error))
    return NULL;
  self->seconds = (g_get_monotonic_time () - start) / (double) G_USEC_PER_SEC;
  pgs_damon_access_finish (self->access);
  compare_after (self, sysfs_root);
  return g_steal_pointer (&self);
}
