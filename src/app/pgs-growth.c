/* pgs-growth.c
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The Growth column asks one question of a recording: who grew between two samples. The
 * answer for every process at once is one pass over the samples of the range, made here in
 * a worker thread whenever the range changes (never per cell: a cell only looks its
 * process up). Every sample is read, not only the sparkline's points: samples are stored
 * as changes from the one before, so skipping some saves no decoding, and a process that
 * ran only between two points still gets its row ("came and went").
 */

#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <glib/gi18n.h>

#include "pgs-growth.h"

struct _PgsGrowth
{
  GObject  parent_instance;

  guint    from;
  guint    to;
  gint64   duration;  /* µs from the first sample to the last */
  guint    n_points;
  GArray  *entries;   /* PgsGrowthEntry, in (pid, start_time) order */
  GBytes  *points;    /* float[n_entries][n_points] */
};

G_DEFINE_FINAL_TYPE (PgsGrowth, pgs_growth, G_TYPE_OBJECT)

static void
pgs_growth_finalize (GObject *object)
{
  PgsGrowth *self = PGS_GROWTH (object);

  g_clear_pointer (&self->entries, g_array_unref);
  g_clear_pointer (&self->points, g_bytes_unref);

  G_OBJECT_CLASS (pgs_growth_parent_class)->finalize (object);
}

static void
pgs_growth_class_init (PgsGrowthClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = pgs_growth_finalize;
}

static void
pgs_growth_init (PgsGrowth *self)
{
}

/* One process while the samples are read. */
typedef struct
{
  int      pid;
  guint64  start_time;
  gboolean at_first;
  gboolean at_last;
  gboolean pss_everywhere;   /* PSS known at every sample it ran in */
  float   *pss;              /* n_points each, NaN where not running */
  float   *rss;
  guint64  first[2];         /* PSS, RSS at the first sample */
  guint64  last[2];          /* and at the last */
} Acc;

static void
acc_free (gpointer data)
{
  Acc *acc = data;

  g_free (acc->pss);
  g_free (acc->rss);
  g_free (acc);
}

static guint
key_hash (gconstpointer key)
{
  const Acc *acc = key;

  return g_int_hash (&acc->pid) ^ g_int64_hash (&acc->start_time);
}

static gboolean
key_equal (gconstpointer a,
           gconstpointer b)
{
  const Acc *x = a, *y = b;

  return x->pid == y->pid && x->start_time == y->start_time;
}

static int
compare_entries (gconstpointer a,
                 gconstpointer b)
{
  const PgsGrowthEntry *x = a, *y = b;

  if (x->pid != y->pid)
    return x->pid < y->pid ? -1 : 1;
  if (x->start_time != y->start_time)
    return x->start_time < y->start_time ? -1 : 1;
  return 0;
}

PgsGrowth *
pgs_growth_new (PgsRecording  *recording,
                guint          from,
                guint          to,
                GCancellable  *cancellable,
                GError       **error)
{
  g_autoptr(PgsGrowth) self = NULL;
  g_autoptr(GHashTable) accs = NULL;
  g_autofree float *points = NULL;
  GHashTableIter iter;
  Acc *acc;
  guint n_samples, n, k;

  g_return_val_if_fail (PGS_IS_RECORDING (recording), NULL);

  n_samples = pgs_recording_get_n_samples (recording);
  g_return_val_if_fail (n_samples > 0, NULL);
  to = MIN (MAX (from, to), n_samples - 1);
  from = MIN (from, to);
  n = to - from + 1;

  self = g_object_new (PGS_TYPE_GROWTH, NULL);
  self->from = from;
  self->to = to;
  self->duration = pgs_recording_get_sample_time (recording, to) - pgs_recording_get_sample_time (recording, from);
  self->n_points = MIN (n, PGS_GROWTH_MAX_POINTS);
  accs = g_hash_table_new_full (key_hash, key_equal, acc_free, NULL);

  for (guint i = from; i <= to; i++)
    {
      g_autoptr(PgsSample) sample = NULL;

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return NULL;
      sample = pgs_recording_get_sample (recording, i, error);
      if (sample == NULL)
        return NULL;
      /* The point this sample draws: the first sample point 0, the last the last point, and
       * each point the last sample that falls on it (rounded up, so none but the first
       * falls on point 0). */
      k = n == 1 ? 0 : (guint) (((guint64) (i - from) * (self->n_points - 1) + (n - 2)) / (n - 1));
      for (guint p = 0; p < sample->processes->len; p++)
        {
          const PgsSampleProcess *sp = &g_array_index (sample->processes, PgsSampleProcess, p);
          Acc key = { .pid = sp->pid, .start_time = sp->start_time };
          gboolean pss_known = (sp->known & PGS_METRIC_PSS) != 0;
          guint64 pss = pss_known ? sp->figures[PGS_SAMPLE_PSS] : 0;
          guint64 rss = (sp->known & PGS_METRIC_RSS) ? sp->figures[PGS_SAMPLE_RSS] : 0;

          acc = g_hash_table_lookup (accs, &key);
          if (acc == NULL)
            {
              acc = g_new0 (Acc, 1);
              acc->pid = sp->pid;
              acc->start_time = sp->start_time;
              acc->pss_everywhere = TRUE;
              acc->at_first = i == from;
              acc->first[0] = pss;
              acc->first[1] = rss;
              acc->pss = g_new (float, self->n_points);
              acc->rss = g_new (float, self->n_points);
              for (guint j = 0; j < self->n_points; j++)
                acc->pss[j] = acc->rss[j] = NAN;
              g_hash_table_add (accs, acc);
            }
          acc->pss_everywhere = acc->pss_everywhere && pss_known;
          acc->at_last = i == to;
          acc->last[0] = pss;
          acc->last[1] = rss;
          acc->pss[k] = pss;
          acc->rss[k] = rss;
        }
    }

  self->entries = g_array_sized_new (FALSE, FALSE, sizeof (PgsGrowthEntry), g_hash_table_size (accs));
  points = g_new (float, (gsize) g_hash_table_size (accs) * self->n_points);
  g_hash_table_iter_init (&iter, accs);
  while (g_hash_table_iter_next (&iter, (gpointer *) &acc, NULL))
    {
      /* Where PSS is unknown at any sample (another user's process, recorded as a user),
       * RSS is what is known of it all along: a change of RSS beats none. */
      guint f = acc->pss_everywhere ? 0 : 1;
      PgsGrowthEntry entry = { 0 };
      guint64 first = acc->at_first ? acc->first[f] : 0;
      guint64 last = acc->at_last ? acc->last[f] : 0;

      entry.pid = acc->pid;
      entry.start_time = acc->start_time;
      entry.change = (gint64) last - (gint64) first;
      entry.flags = (acc->at_first ? 0 : PGS_GROWTH_NEW) | (acc->at_last ? 0 : PGS_GROWTH_GONE) |
                    (f == 1 ? PGS_GROWTH_RSS : 0);
      entry.first_point = self->entries->len * self->n_points;
      memcpy (points + entry.first_point, f == 0 ? acc->pss : acc->rss, self->n_points * sizeof (float));
      g_array_append_val (self->entries, entry);
    }
  /* Sorted after the points were placed: each entry carries its own offset. */
  g_array_sort (self->entries, compare_entries);
  self->points = g_bytes_new_take (g_steal_pointer (&points),
                                   (gsize) self->entries->len * self->n_points * sizeof (float));
  return g_steal_pointer (&self);
}

typedef struct
{
  PgsRecording *recording;
  guint         from;
  guint         to;
} Job;

static void
job_free (gpointer data)
{
  Job *job = data;

  g_object_unref (job->recording);
  g_free (job);
}

static void
growth_thread (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  Job *job = task_data;
  GError *error = NULL;
  PgsGrowth *growth = pgs_growth_new (job->recording, job->from, job->to, cancellable, &error);

  if (growth == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, growth, g_object_unref);
}

void
pgs_growth_new_async (PgsRecording        *recording,
                      guint                from,
                      guint                to,
                      GCancellable        *cancellable,
                      GAsyncReadyCallback  callback,
                      gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  Job *job;

  g_return_if_fail (PGS_IS_RECORDING (recording));

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, pgs_growth_new_async);
  job = g_new0 (Job, 1);
  job->recording = g_object_ref (recording);
  job->from = from;
  job->to = to;
  g_task_set_task_data (task, job, job_free);
  g_task_run_in_thread (task, growth_thread);
}

PgsGrowth *
pgs_growth_new_finish (GAsyncResult  *result,
                       GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

guint
pgs_growth_get_from (PgsGrowth *self)
{
  g_return_val_if_fail (PGS_IS_GROWTH (self), 0);
  return self->from;
}

guint
pgs_growth_get_to (PgsGrowth *self)
{
  g_return_val_if_fail (PGS_IS_GROWTH (self), 0);
  return self->to;
}

gint64
pgs_growth_get_duration (PgsGrowth *self)
{
  g_return_val_if_fail (PGS_IS_GROWTH (self), 0);
  return self->duration;
}

guint
pgs_growth_get_n_entries (PgsGrowth *self)
{
  g_return_val_if_fail (PGS_IS_GROWTH (self), 0);
  return self->entries->len;
}

const PgsGrowthEntry *
pgs_growth_get_entry (PgsGrowth *self,
                      guint      index)
{
  g_return_val_if_fail (PGS_IS_GROWTH (self), NULL);
  g_return_val_if_fail (index < self->entries->len, NULL);
  return &g_array_index (self->entries, PgsGrowthEntry, index);
}

const PgsGrowthEntry *
pgs_growth_lookup (PgsGrowth *self,
                   int        pid,
                   guint64    start_time)
{
  PgsGrowthEntry key = { .pid = pid, .start_time = start_time };

  g_return_val_if_fail (PGS_IS_GROWTH (self), NULL);
  return bsearch (&key, self->entries->data, self->entries->len, sizeof (PgsGrowthEntry),
                  compare_entries);
}

guint
pgs_growth_get_n_points (PgsGrowth *self)
{
  g_return_val_if_fail (PGS_IS_GROWTH (self), 0);
  return self->n_points;
}

GBytes *
pgs_growth_get_points (PgsGrowth            *self,
                       const PgsGrowthEntry *entry)
{
  g_return_val_if_fail (PGS_IS_GROWTH (self), NULL);
  g_return_val_if_fail (entry != NULL, NULL);
  return g_bytes_new_from_bytes (self->points, entry->first_point * sizeof (float),
                                 self->n_points * sizeof (float));
}

char *
pgs_growth_format (const PgsGrowthEntry *entry,
                   PgsUnits              units)
{
  g_autofree char *size = NULL;
  g_autofree char *signed_size = NULL;
  guint64 magnitude;

  g_return_val_if_fail (entry != NULL, NULL);

  magnitude = entry->change < 0 ? -(guint64) entry->change : (guint64) entry->change;
  size = pgs_units_format (units, magnitude);
  /* A real minus sign (U+2212): as wide as the plus, so figures line up. */
  signed_size = g_strconcat (entry->change > 0 ? "+" : entry->change < 0 ? "\u2212" : "", size, NULL);
  if ((entry->flags & PGS_GROWTH_NEW) && (entry->flags & PGS_GROWTH_GONE))
    /* Translators: a Growth cell, a process that ran only inside the range: "+0 B, came and went" */
    return g_strdup_printf (_("%s, came and went"), signed_size);
  if (entry->flags & PGS_GROWTH_NEW)
    /* Translators: a Growth cell, a process started inside the range: "+12.0 MiB, new" */
    return g_strdup_printf (_("%s, new"), signed_size);
  if (entry->flags & PGS_GROWTH_GONE)
    /* Translators: a Growth cell, a process that ended inside the range: "−12.0 MiB, gone" */
    return g_strdup_printf (_("%s, gone"), signed_size);
  return g_steal_pointer (&signed_size);
}
