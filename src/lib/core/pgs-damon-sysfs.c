/* pgs-damon-sysfs.c: what DAMON's sysfs says, read only
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <glib/gi18n-lib.h>
#include <gio/gio.h>

#include "pgs-damon-sysfs.h"
#include "pgs-error.h"

/* The DAMON modules that run a kdamond of their own, outside the admin tree. */
static const char *const module_names[] = { "damon_reclaim", "damon_lru_sort", "damon_stat" };

static char *
read_text (const char *dir,
           const char *name)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  char *text = NULL;

  if (!g_file_get_contents (path, &text, NULL, NULL))
    return NULL;
  g_strchomp (text);
  return text;
}

/* A decimal u64 file; FALSE when missing or not a number. */
static gboolean
read_u64 (const char *dir,
          const char *name,
          guint64    *value)
{
  g_autofree char *text = read_text (dir, name);
  char *end = NULL;
  guint64 v;

  if (text == NULL || !g_ascii_isdigit (text[0]))
    return FALSE;
  errno = 0;
  v = g_ascii_strtoull (text, &end, 10);
  if (errno != 0 || *end != '\0')
    return FALSE;
  *value = v;
  return TRUE;
}

static gboolean
read_int (const char *dir,
          const char *name,
          int        *value)
{
  g_autofree char *text = read_text (dir, name);
  char *end = NULL;
  gint64 v;

  if (text == NULL || text[0] == '\0')
    return FALSE;
  errno = 0;
  v = g_ascii_strtoll (text, &end, 10);
  if (errno != 0 || *end != '\0' || v < G_MININT || v > G_MAXINT)
    return FALSE;
  *value = (int) v;
  return TRUE;
}

static void
target_free (gpointer data)
{
  PgsDamonTarget *t = data;

  g_array_unref (t->regions);
  g_free (t);
}

static void
context_free (gpointer data)
{
  PgsDamonContext *c = data;

  g_free (c->operations);
  g_ptr_array_unref (c->targets);
  g_free (c);
}

static void
kdamond_free (gpointer data)
{
  PgsDamonKdamond *k = data;

  g_ptr_array_unref (k->contexts);
  g_free (k);
}

static void
module_free (gpointer data)
{
  PgsDamonModule *m = data;

  g_free (m->name);
  g_free (m);
}

static PgsDamonTarget *
read_target (const char *dir)
{
  PgsDamonTarget *t = g_new0 (PgsDamonTarget, 1);
  g_autofree char *regions_dir = g_build_filename (dir, "regions", NULL);
  guint64 n = 0;

  t->regions = g_array_new (FALSE, FALSE, sizeof (PgsDamonRange));
  t->has_pid_target = read_int (dir, "pid_target", &t->pid_target);
  /* Bounded: a hostile or broken tree must not make us loop for long. */
  if (read_u64 (regions_dir, "nr_regions", &n))
    for (guint64 i = 0; i < n && i < 65536; i++)
      {
        g_autofree char *name = g_strdup_printf ("%" G_GUINT64_FORMAT, i);
        g_autofree char *rdir = g_build_filename (regions_dir, name, NULL);
        PgsDamonRange r;

        if (read_u64 (rdir, "start", &r.start) && read_u64 (rdir, "end", &r.end))
          g_array_append_val (t->regions, r);
      }
  return t;
}

static PgsDamonContext *
read_context (const char *dir)
{
  PgsDamonContext *c = g_new0 (PgsDamonContext, 1);
  g_autofree char *attrs = g_build_filename (dir, "monitoring_attrs", NULL);
  g_autofree char *intervals = g_build_filename (attrs, "intervals", NULL);
  g_autofree char *nr_regions = g_build_filename (attrs, "nr_regions", NULL);
  g_autofree char *targets = g_build_filename (dir, "targets", NULL);
  g_autofree char *schemes = g_build_filename (dir, "schemes", NULL);
  guint64 n = 0;

  c->targets = g_ptr_array_new_with_free_func (target_free);
  c->operations = read_text (dir, "operations");
  c->has_addr_unit = read_u64 (dir, "addr_unit", &c->addr_unit) && c->addr_unit > 0;
  if (!c->has_addr_unit)
    c->addr_unit = 1;
  c->intervals_known = read_u64 (intervals, "sample_us", &c->sample_us) &&
                       read_u64 (intervals, "aggr_us", &c->aggr_us) &&
                       read_u64 (intervals, "update_us", &c->update_us);
  c->nr_regions_known = read_u64 (nr_regions, "min", &c->min_nr_regions) &&
                        read_u64 (nr_regions, "max", &c->max_nr_regions);
  if (read_u64 (schemes, "nr_schemes", &n))
    c->n_schemes = (guint) MIN (n, G_MAXUINT);
  n = 0;
  if (read_u64 (targets, "nr_targets", &n))
    for (guint64 i = 0; i < n && i < 1024; i++)
      {
        g_autofree char *name = g_strdup_printf ("%" G_GUINT64_FORMAT, i);
        g_autofree char *tdir = g_build_filename (targets, name, NULL);

        g_ptr_array_add (c->targets, read_target (tdir));
      }
  return c;
}

static PgsDamonKdamond *
read_kdamond (const char *dir,
              guint       index)
{
  PgsDamonKdamond *k = g_new0 (PgsDamonKdamond, 1);
  g_autofree char *state = read_text (dir, "state");
  g_autofree char *contexts = g_build_filename (dir, "contexts", NULL);
  guint64 n = 0;

  k->index = index;
  k->contexts = g_ptr_array_new_with_free_func (context_free);
  k->state_known = state != NULL;
  k->on = g_strcmp0 (state, "on") == 0;
  if (!read_int (dir, "pid", &k->pid) || k->pid <= 0)
    k->pid = -1;
  if (read_u64 (contexts, "nr_contexts", &n))
    for (guint64 i = 0; i < n && i < 64; i++)
      {
        g_autofree char *name = g_strdup_printf ("%" G_GUINT64_FORMAT, i);
        g_autofree char *cdir = g_build_filename (contexts, name, NULL);

        g_ptr_array_add (k->contexts, read_context (cdir));
      }
  return k;
}

static void
read_modules (PgsDamonSysfs *self,
              const char    *sysfs_root)
{
  for (guint i = 0; i < G_N_ELEMENTS (module_names); i++)
    {
      g_autofree char *dir = g_build_filename (sysfs_root, "module", module_names[i],
                                               "parameters", NULL);
      g_autofree char *enabled = NULL;
      PgsDamonModule *m;

      if (!g_file_test (dir, G_FILE_TEST_IS_DIR))
        continue;
      m = g_new0 (PgsDamonModule, 1);
      m->name = g_strdup (module_names[i]);
      enabled = read_text (dir, "enabled");
      m->enabled = g_strcmp0 (enabled, "Y") == 0 || g_strcmp0 (enabled, "1") == 0;
      if (!read_int (dir, "kdamond_pid", &m->kdamond_pid) || m->kdamond_pid <= 0)
        m->kdamond_pid = -1;
      g_ptr_array_add (self->modules, m);
    }
}

PgsDamonSysfs *
pgs_damon_sysfs_new_unreadable (const char *sysfs_root)
{
  PgsDamonSysfs *self = g_new0 (PgsDamonSysfs, 1);

  self->admin_dir = g_build_filename (sysfs_root ? sysfs_root : "/sys", "kernel", "mm", "damon",
                                      "admin", NULL);
  self->present = TRUE;
  self->kdamonds = g_ptr_array_new_with_free_func (kdamond_free);
  self->modules = g_ptr_array_new_with_free_func (module_free);
  return self;
}

PgsDamonSysfs *
pgs_damon_sysfs_read (const char  *sysfs_root,
                      GError     **error)
{
  g_autoptr(PgsDamonSysfs) self = g_new0 (PgsDamonSysfs, 1);
  g_autofree char *kdamonds = NULL;
  g_autofree char *nr_path = NULL;
  g_autofree char *nr_text = NULL;
  g_autoptr(GError) local = NULL;
  guint64 n = 0;

  if (sysfs_root == NULL)
    sysfs_root = "/sys";
  self->admin_dir = g_build_filename (sysfs_root, "kernel", "mm", "damon", "admin", NULL);
  self->kdamonds = g_ptr_array_new_with_free_func (kdamond_free);
  self->modules = g_ptr_array_new_with_free_func (module_free);
  read_modules (self, sysfs_root);

  kdamonds = g_build_filename (self->admin_dir, "kdamonds", NULL);
  nr_path = g_build_filename (kdamonds, "nr_kdamonds", NULL);
  if (!g_file_get_contents (nr_path, &nr_text, NULL, &local))
    {
      if (g_error_matches (local, G_FILE_ERROR, G_FILE_ERROR_NOENT))
        return g_steal_pointer (&self);   /* no DAMON sysfs: present stays FALSE */
      g_set_error (error, PGS_ERROR, g_error_matches (local, G_FILE_ERROR, G_FILE_ERROR_ACCES)
                   ? PGS_ERROR_NO_PERMISSION : PGS_ERROR_FAILED,
                   _("Cannot read DAMON’s sysfs: %s"), local->message);
      return NULL;
    }
  self->present = TRUE;
  if (!read_u64 (kdamonds, "nr_kdamonds", &n))
    {
      g_set_error (error, PGS_ERROR, PGS_ERROR_MALFORMED,
                   _("%s is not a number: “%s”"), nr_path, g_strchomp (nr_text));
      return NULL;
    }
  self->nr_kdamonds = (guint) MIN (n, 1024);
  for (guint i = 0; i < self->nr_kdamonds; i++)
    {
      g_autofree char *name = g_strdup_printf ("%u", i);
      g_autofree char *kdir = g_build_filename (kdamonds, name, NULL);

      g_ptr_array_add (self->kdamonds, read_kdamond (kdir, i));
    }
  return g_steal_pointer (&self);
}

void
pgs_damon_sysfs_free (PgsDamonSysfs *self)
{
  if (self == NULL)
    return;
  g_free (self->admin_dir);
  g_clear_pointer (&self->kdamonds, g_ptr_array_unref);
  g_clear_pointer (&self->modules, g_ptr_array_unref);
  g_free (self);
}

GPtrArray *
pgs_damon_sysfs_running (PgsDamonSysfs *self)
{
  GPtrArray *running = g_ptr_array_new ();

  g_return_val_if_fail (self != NULL, running);
  for (guint i = 0; i < self->kdamonds->len; i++)
    {
      PgsDamonKdamond *k = g_ptr_array_index (self->kdamonds, i);

      if (k->on)
        g_ptr_array_add (running, k);
    }
  return running;
}

guint64
pgs_damon_sysfs_slowest_aggr_us (PgsDamonSysfs *self)
{
  guint64 slowest = 0;

  g_return_val_if_fail (self != NULL, 0);
  for (guint i = 0; i < self->kdamonds->len; i++)
    {
      PgsDamonKdamond *k = g_ptr_array_index (self->kdamonds, i);

      for (guint j = 0; k->on && j < k->contexts->len; j++)
        {
          PgsDamonContext *c = g_ptr_array_index (k->contexts, j);

          if (c->intervals_known)
            slowest = MAX (slowest, c->aggr_us);
        }
    }
  return slowest;
}

const PgsDamonContext *
pgs_damon_sysfs_context_for_pid (PgsDamonSysfs *self,
                                 int            pid)
{
  g_return_val_if_fail (self != NULL, NULL);
  for (guint i = 0; i < self->kdamonds->len; i++)
    {
      PgsDamonKdamond *k = g_ptr_array_index (self->kdamonds, i);

      if (k->on && k->pid == pid && k->contexts->len > 0)
        return g_ptr_array_index (k->contexts, 0);
    }
  return NULL;
}

gboolean
pgs_damon_sysfs_can_start (PgsDamonSysfs  *self,
                           char          **reason)
{
  g_return_val_if_fail (self != NULL, FALSE);

  if (!self->present)
    {
      if (reason)
        *reason = g_strdup (_("The kernel has no DAMON sysfs interface "
                              "(/sys/kernel/mm/damon/admin)"));
      return FALSE;
    }
  for (guint i = 0; i < self->kdamonds->len; i++)
    {
      PgsDamonKdamond *k = g_ptr_array_index (self->kdamonds, i);

      /* An unreadable state could be "on": not free. */
      if (k->on || !k->state_known)
        {
          if (reason)
            *reason = k->on
              ? g_strdup_printf (_("kdamond %u runs already (PID %d): DAMON’s sysfs is "
                                   "someone else’s"), k->index, k->pid)
              : g_strdup_printf (_("The state of kdamond %u cannot be read"), k->index);
          return FALSE;
        }
    }
  for (guint i = 0; i < self->modules->len; i++)
    {
      PgsDamonModule *m = g_ptr_array_index (self->modules, i);

      if (m->enabled || m->kdamond_pid > 0)
        {
          if (reason)
            *reason = g_strdup_printf (_("The DAMON module %s runs a kdamond (PID %d)"),
                                       m->name, m->kdamond_pid);
          return FALSE;
        }
    }
  return TRUE;
}
