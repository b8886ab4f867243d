/* pgs-damon-access.c: DAMON's trace lines gathered into an access picture
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "pgs-damon-access.h"
#include "pgs-error.h"

#define MAX_MESSAGES 16
/* A line longer than this is not the tracepoint's (its longest is ~150 bytes). */
#define MAX_LINE 4096

struct _PgsDamonAccess
{
  guint64               ram_end;
  GHashTable           *addr_units;    /* pid → guint64* */
  GPtrArray            *done;          /* PgsDamonAggregation */
  GPtrArray            *pending;       /* PgsDamonAggregation, one per (pid, target) */
  GPtrArray            *messages;
  GString              *partial;       /* a line cut between two feeds */
  gboolean              skipping;      /* inside an over-long line */
  PgsDamonAccessCounts  counts;
};

static void
aggregation_free (gpointer data)
{
  PgsDamonAggregation *a = data;

  g_array_unref (a->regions);
  g_free (a);
}

PgsDamonAccess *
pgs_damon_access_new (guint64 ram_end)
{
  PgsDamonAccess *self = g_new0 (PgsDamonAccess, 1);

  self->ram_end = ram_end;
  self->addr_units = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, g_free);
  self->done = g_ptr_array_new_with_free_func (aggregation_free);
  self->pending = g_ptr_array_new_with_free_func (aggregation_free);
  self->messages = g_ptr_array_new_with_free_func (g_free);
  self->partial = g_string_new (NULL);
  return self;
}

void
pgs_damon_access_free (PgsDamonAccess *self)
{
  if (self == NULL)
    return;
  g_hash_table_unref (self->addr_units);
  g_ptr_array_unref (self->done);
  g_ptr_array_unref (self->pending);
  g_ptr_array_unref (self->messages);
  g_string_free (self->partial, TRUE);
  g_free (self);
}

void
pgs_damon_access_set_addr_unit (PgsDamonAccess *self,
                                int             pid,
                                guint64         addr_unit)
{
  g_return_if_fail (self != NULL);
  g_hash_table_insert (self->addr_units, GINT_TO_POINTER (pid),
                       g_memdup2 (&addr_unit, sizeof addr_unit));
}

static void
note (PgsDamonAccess *self,
      GError         *error)
{
  self->counts.errors++;
  if (self->messages->len < MAX_MESSAGES)
    g_ptr_array_add (self->messages, g_strdup (error->message));
}

/* One line's region into its (pid, target)'s aggregation. The kdamond prints an
 * aggregation's regions in one go, in address order: a region that does not follow the
 * last one, or a different count, starts a new aggregation and the one before was seen
 * only in part (the read began inside it, or lines were lost). */
static void
take_event (PgsDamonAccess      *self,
            const PgsDamonEvent *e)
{
  PgsDamonAggregation *a = NULL;
  PgsDamonRegion r = { e->start, e->end, e->nr_accesses, e->age };

  for (guint i = 0; i < self->pending->len; i++)
    {
      PgsDamonAggregation *p = g_ptr_array_index (self->pending, i);
      const PgsDamonRegion *last;

      if (p->pid != e->pid || p->target_id != e->target_id)
        continue;
      last = &g_array_index (p->regions, PgsDamonRegion, p->regions->len - 1);
      if (p->nr_regions == e->nr_regions && e->start >= last->end)
        a = p;
      else
        {
          self->counts.incomplete++;
          g_ptr_array_remove_index_fast (self->pending, i);
        }
      break;
    }
  if (a == NULL)
    {
      a = g_new0 (PgsDamonAggregation, 1);
      a->timestamp_ns = e->timestamp_ns;
      memcpy (a->timestamp, e->timestamp, sizeof a->timestamp);
      a->pid = e->pid;
      a->target_id = e->target_id;
      a->nr_regions = e->nr_regions;
      a->regions = g_array_sized_new (FALSE, FALSE, sizeof (PgsDamonRegion),
                                      MIN (e->nr_regions, 65536));
      g_ptr_array_add (self->pending, a);
    }
  g_array_append_val (a->regions, r);
  if (a->regions->len == a->nr_regions)
    {
      guint index;

      if (g_ptr_array_find (self->pending, a, &index))
        g_ptr_array_add (self->done, g_ptr_array_steal_index_fast (self->pending, index));
    }
}

static void
take_line (PgsDamonAccess *self,
           const char     *line,
           gsize           len)
{
  g_autoptr(GError) error = NULL;
  PgsDamonEvent e;
  guint64 lost = 0;
  guint64 *unit;
  const char *mark;

  self->counts.lines++;
  /* The scale is the kdamond's: find its PID before parsing (the parser scales). */
  unit = NULL;
  mark = memchr (line, '[', len);
  if (mark != NULL && g_hash_table_size (self->addr_units) > 0)
    {
      const char *dash = mark;
      int pid = 0;

      while (dash > line && (dash[-1] == ' ' || g_ascii_isdigit (dash[-1])))
        dash--;
      if (dash > line && dash[-1] == '-')
        pid = atoi (dash);
      unit = g_hash_table_lookup (self->addr_units, GINT_TO_POINTER (pid));
    }
  switch (pgs_damon_trace_parse_line (line, len, unit ? *unit : 1, self->ram_end, &e, &lost,
                                      &error))
    {
    case PGS_DAMON_LINE_EVENT:
      self->counts.events++;
      take_event (self, &e);
      break;
    case PGS_DAMON_LINE_LOST:
      /* The lost lines may be any aggregation's: none under way can be trusted whole. */
      self->counts.lost += lost;
      self->counts.incomplete += self->pending->len;
      g_ptr_array_set_size (self->pending, 0);
      break;
    case PGS_DAMON_LINE_ERROR:
      note (self, error);
      break;
    case PGS_DAMON_LINE_OTHER:
    default:
      break;
    }
}

void
pgs_damon_access_feed (PgsDamonAccess *self,
                       const char     *buf,
                       gsize           len)
{
  const char *p = buf;
  const char *end = buf + len;

  g_return_if_fail (self != NULL);
  g_return_if_fail (buf != NULL || len == 0);

  while (p < end)
    {
      const char *nl = memchr (p, '\n', end - p);
      gsize n = (nl ? nl : end) - p;

      if (self->skipping)
        ;
      else if (self->partial->len + n > MAX_LINE)
        {
          g_autoptr(GError) error = g_error_new (PGS_ERROR, PGS_ERROR_MALFORMED,
                                                 _("A trace line longer than %u bytes"),
                                                 MAX_LINE);

          self->counts.lines++;
          note (self, error);
          g_string_truncate (self->partial, 0);
          self->skipping = TRUE;
        }
      else if (nl == NULL || self->partial->len > 0)
        g_string_append_len (self->partial, p, n);
      if (nl == NULL)
        break;
      if (!self->skipping)
        {
          if (self->partial->len > 0)
            {
              take_line (self, self->partial->str, self->partial->len);
              g_string_truncate (self->partial, 0);
            }
          else
            take_line (self, p, n);
        }
      self->skipping = FALSE;
      p = nl + 1;
    }
}

void
pgs_damon_access_finish (PgsDamonAccess *self)
{
  g_return_if_fail (self != NULL);

  if (self->partial->len > 0)
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *text = g_strndup (self->partial->str, MIN (self->partial->len, 160));

      /* trace_pipe ends lines; an unended one was cut. */
      self->counts.lines++;
      error = g_error_new (PGS_ERROR, PGS_ERROR_TRUNCATED, _("A trace line cut short: “%s”"),
                           g_strcanon (text, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .:=-_[]", '?'));
      note (self, error);
      g_string_truncate (self->partial, 0);
    }
  self->skipping = FALSE;
  self->counts.incomplete += self->pending->len;
  g_ptr_array_set_size (self->pending, 0);
}

GPtrArray *
pgs_damon_access_get_aggregations (PgsDamonAccess *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->done;
}

void
pgs_damon_access_get_counts (PgsDamonAccess       *self,
                             PgsDamonAccessCounts *counts)
{
  g_return_if_fail (self != NULL && counts != NULL);
  *counts = self->counts;
}

GPtrArray *
pgs_damon_access_get_messages (PgsDamonAccess *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->messages;
}
