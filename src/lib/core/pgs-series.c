/* pgs-series.c: figures over time from a recording
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "pgs-error.h"
#include "pgs-series.h"

struct _PgsSeries
{
  PgsSeriesKind kind;
  GArray       *rows;       /* PgsSeriesRow */
  GStringChunk *strings;
  GHashTable   *keys;       /* interned key → itself */
  GPtrArray    *names;      /* counter names (the last sample's) */
  GArray       *values;     /* machine: n_rows × names->len, PGS_SAMPLE_ABSENT where missing */
  guint         first_sample;
  guint         last_sample;
};

static const char *
intern (PgsSeries  *self,
        const char *s)
{
  const char *found = g_hash_table_lookup (self->keys, s);

  if (found == NULL)
    {
      found = g_string_chunk_insert (self->strings, s);
      g_hash_table_insert (self->keys, (char *) found, (char *) found);
    }
  return found;
}

static void
add_group_rows (PgsSeries       *self,
                const PgsSample *sample,
                guint            index)
{
  g_autoptr(GHashTable) groups = g_hash_table_new (g_str_hash, g_str_equal);
  guint first = self->rows->len;

  for (guint i = 0; i < sample->processes->len; i++)
    {
      const PgsSampleProcess *p = &g_array_index (sample->processes, PgsSampleProcess, i);
      char buf[64];
      const char *key;
      gpointer found;
      PgsSeriesRow *row;

      if (self->kind == PGS_SERIES_USER)
        {
          g_snprintf (buf, sizeof buf, "uid %u", p->uid);
          key = intern (self, buf);
        }
      else
        key = intern (self, p->name != NULL ? p->name : "");
      found = g_hash_table_lookup (groups, key);
      if (found == NULL)
        {
          PgsSeriesRow fresh = { 0 };

          fresh.sample = index;
          fresh.time = sample->time;
          fresh.key = key;
          fresh.name = key;
          fresh.known = PGS_METRIC_ALL | PGS_METRIC_SWAP_PSS;
          g_array_append_val (self->rows, fresh);
          found = GUINT_TO_POINTER (self->rows->len - first);
          g_hash_table_insert (groups, (char *) key, found);
        }
      row = &g_array_index (self->rows, PgsSeriesRow, first + GPOINTER_TO_UINT (found) - 1);
      row->n_members++;
      row->known &= p->known;
      for (guint f = 0; f < PGS_SAMPLE_N_FIGURES; f++)
        row->figures[f] += p->figures[f];
    }
}

PgsSeries *
pgs_series_new (PgsRecording   *recording,
                PgsSeriesKind   kind,
                int             pid,
                GError        **error)
{
  g_autoptr(PgsSeries) self = g_new0 (PgsSeries, 1);
  guint n = pgs_recording_get_n_samples (recording);

  g_return_val_if_fail (PGS_IS_RECORDING (recording), NULL);
  self->kind = kind;
  self->rows = g_array_new (FALSE, TRUE, sizeof (PgsSeriesRow));
  self->strings = g_string_chunk_new (4096);
  self->keys = g_hash_table_new (g_str_hash, g_str_equal);
  self->values = g_array_new (FALSE, FALSE, sizeof (guint64));
  self->first_sample = 0;
  self->last_sample = n - 1;

  for (guint s = 0; s < n; s++)
    {
      g_autoptr(PgsSample) sample = pgs_recording_get_sample (recording, s, error);

      if (sample == NULL)
        return NULL;
      if (kind == PGS_SERIES_MACHINE)
        {
          PgsSeriesRow row = { 0 };
          guint64 width;

          g_clear_pointer (&self->names, g_ptr_array_unref);
          self->names = g_ptr_array_ref (sample->names);
          row.sample = s;
          row.time = sample->time;
          row.key = row.name = intern (self, "machine");
          g_array_append_val (self->rows, row);
          /* Rows are as wide as the names so far; later names widen the table. */
          width = sample->values->len;
          g_array_append_val (self->values, width);
          g_array_append_vals (self->values, sample->values->data, width);
          continue;
        }
      if (kind == PGS_SERIES_USER || kind == PGS_SERIES_NAME)
        {
          add_group_rows (self, sample, s);
          continue;
        }
      for (guint i = 0; i < sample->processes->len; i++)
        {
          const PgsSampleProcess *p = &g_array_index (sample->processes, PgsSampleProcess, i);
          PgsSeriesRow row = { 0 };
          char key[64];

          if (pid != 0 && p->pid != pid)
            continue;
          g_snprintf (key, sizeof key, "%d@%" G_GUINT64_FORMAT, p->pid, p->start_time);
          row.sample = s;
          row.time = sample->time;
          row.key = intern (self, key);
          row.pid = p->pid;
          row.start_time = p->start_time;
          row.name = intern (self, p->name != NULL ? p->name : "");
          row.n_members = 1;
          row.known = p->known;
          memcpy (row.figures, p->figures, sizeof row.figures);
          g_array_append_val (self->rows, row);
        }
    }
  if (kind == PGS_SERIES_MACHINE)
    {
      /* Rows of their own width, as read, to one width. */
      guint width = self->names != NULL ? self->names->len : 0;
      g_autoptr(GArray) table = g_array_sized_new (FALSE, FALSE, sizeof (guint64), (gsize) width * self->rows->len);
      guint at = 0;

      for (guint r = 0; r < self->rows->len; r++)
        {
          guint w = (guint) g_array_index (self->values, guint64, at);

          for (guint c = 0; c < width; c++)
            {
              guint64 v = c < w ? g_array_index (self->values, guint64, at + 1 + c) : PGS_SAMPLE_ABSENT;

              g_array_append_val (table, v);
            }
          at += 1 + w;
        }
      g_array_unref (self->values);
      self->values = g_steal_pointer (&table);
    }
  return g_steal_pointer (&self);
}

void
pgs_series_free (PgsSeries *self)
{
  if (self == NULL)
    return;
  g_array_unref (self->rows);
  g_string_chunk_free (self->strings);
  g_hash_table_unref (self->keys);
  g_clear_pointer (&self->names, g_ptr_array_unref);
  g_array_unref (self->values);
  g_free (self);
}

guint
pgs_series_get_n_rows (PgsSeries *self)
{
  return self->rows->len;
}

const PgsSeriesRow *
pgs_series_get_row (PgsSeries *self,
                    guint      index)
{
  g_return_val_if_fail (index < self->rows->len, NULL);
  return &g_array_index (self->rows, PgsSeriesRow, index);
}

guint
pgs_series_get_n_counters (PgsSeries *self)
{
  return self->kind == PGS_SERIES_MACHINE && self->names != NULL ? self->names->len : 0;
}

const char *
pgs_series_get_counter_name (PgsSeries *self,
                             guint      counter)
{
  g_return_val_if_fail (counter < pgs_series_get_n_counters (self), NULL);
  return g_ptr_array_index (self->names, counter);
}

guint64
pgs_series_get_counter (PgsSeries *self,
                        guint      row,
                        guint      counter)
{
  guint width = pgs_series_get_n_counters (self);

  g_return_val_if_fail (row < self->rows->len && counter < width, PGS_SAMPLE_ABSENT);
  return g_array_index (self->values, guint64, (gsize) row * width + counter);
}

gboolean
pgs_series_get_growth (PgsSeries       *self,
                       const char      *key,
                       PgsSampleFigure  figure,
                       gint64          *change,
                       gboolean        *came,
                       gboolean        *went)
{
  const PgsSeriesRow *first = NULL, *last = NULL;
  guint metric_bit[] = { PGS_METRIC_VSS, PGS_METRIC_RSS, PGS_METRIC_PSS, PGS_METRIC_USS, PGS_METRIC_SWAP,
                         PGS_METRIC_SWAP_PSS };
  guint64 from, to;

  g_return_val_if_fail (figure < PGS_SAMPLE_N_FIGURES, FALSE);
  for (guint r = 0; r < self->rows->len; r++)
    {
      const PgsSeriesRow *row = &g_array_index (self->rows, PgsSeriesRow, r);

      if (strcmp (row->key, key) != 0)
        continue;
      if (first == NULL)
        first = row;
      last = row;
    }
  if (first == NULL || !(first->known & metric_bit[figure]) || !(last->known & metric_bit[figure]))
    return FALSE;
  *came = first->sample != self->first_sample;
  *went = last->sample != self->last_sample;
  from = *came ? 0 : first->figures[figure];
  to = *went ? 0 : last->figures[figure];
  *change = (gint64) to - (gint64) from;
  return TRUE;
}
