/* pgs-timeline-data.c: a recording's memory by kind, sample by sample, for the timeline
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every sample of the recording is decoded once, in a worker thread, into packed arrays
 * the timeline draws from: nothing here knows GTK, so a test reads the same figures. A
 * counter a sample lacks stays PGS_SAMPLE_ABSENT, never 0: the timeline leaves a gap there
 * rather than draw a drop that did not happen.
 */

#include "config.h"

#include <stdlib.h>

#include "pgs-report.h"
#include "pgs-timeline-data.h"

void
pgs_timeline_data_free (PgsTimelineData *data)
{
  if (data == NULL)
    return;
  g_free (data->times);
  g_free (data->values);
  g_free (data->pss);
  g_free (data);
}

guint64
pgs_timeline_data_get (const PgsTimelineData *data,
                       guint                  sample,
                       PgsTimelineKind        kind)
{
  g_return_val_if_fail (data != NULL, PGS_SAMPLE_ABSENT);
  g_return_val_if_fail (kind < PGS_TIMELINE_N_KINDS, PGS_SAMPLE_ABSENT);
  if (sample >= data->n_samples)
    return PGS_SAMPLE_ABSENT;
  return data->values[(gsize) sample * PGS_TIMELINE_N_KINDS + kind];
}

/* The sum of those of @names the sample has; absent when it has none. */
static guint64
sum_present (const PgsSample  *sample,
             const char *const names[])
{
  guint64 sum = PGS_SAMPLE_ABSENT;

  for (guint i = 0; names[i] != NULL; i++)
    {
      guint64 v = pgs_sample_get_value (sample, names[i]);

      if (v != PGS_SAMPLE_ABSENT)
        sum = (sum == PGS_SAMPLE_ABSENT ? 0 : sum) + v;
    }
  return sum;
}

/* The memory every zram device takes ("zram/NAME/mem_used_total"), which no meminfo
 * counter above holds (zsmalloc's pages are not slab); absent without a device. */
static guint64
zram_used (const PgsSample *sample)
{
  guint64 sum = PGS_SAMPLE_ABSENT;

  for (guint i = 0; i < sample->names->len && i < sample->values->len; i++)
    {
      const char *name = g_ptr_array_index (sample->names, i);
      guint64 v = g_array_index (sample->values, guint64, i);

      if (v != PGS_SAMPLE_ABSENT && g_str_has_prefix (name, "zram/") &&
          g_str_has_suffix (name, "/mem_used_total"))
        sum = (sum == PGS_SAMPLE_ABSENT ? 0 : sum) + v;
    }
  return sum;
}

static void
fill_row (const PgsSample *sample,
          guint64         *row)
{
  guint64 cached = pgs_sample_get_value (sample, "meminfo/Cached");
  guint64 mapped = pgs_sample_get_value (sample, "meminfo/Mapped");
  guint64 shmem = pgs_sample_get_value (sample, "meminfo/Shmem");

  row[PGS_TIMELINE_ANON] = pgs_sample_get_value (sample, "meminfo/AnonPages");
  row[PGS_TIMELINE_MAPPED] = mapped;
  row[PGS_TIMELINE_SHMEM] = shmem;
  /* Shmem counts in Cached too, and so do mapped file pages: what is left is cache no
   * process maps. The counters are read one after another, so the difference can dip
   * below 0 for an instant. */
  if (cached != PGS_SAMPLE_ABSENT)
    {
      guint64 taken = (mapped != PGS_SAMPLE_ABSENT ? mapped : 0) +
                      (shmem != PGS_SAMPLE_ABSENT ? shmem : 0);

      row[PGS_TIMELINE_CACHE] = cached > taken ? cached - taken : 0;
    }
  else
    row[PGS_TIMELINE_CACHE] = PGS_SAMPLE_ABSENT;
  row[PGS_TIMELINE_KERNEL] =
    sum_present (sample, (const char *const[]) { "meminfo/Slab", "meminfo/KernelStack",
                                                 "meminfo/PageTables", NULL });
  row[PGS_TIMELINE_ZRAM] = zram_used (sample);
  row[PGS_TIMELINE_FREE] = pgs_sample_get_value (sample, "meminfo/MemFree");
}

gboolean
pgs_timeline_data_gap_after (const PgsTimelineData *data,
                             guint                  sample)
{
  return data->step > 0 && sample + 1 < data->n_samples &&
         data->times[sample + 1] - data->times[sample] > 3 * data->step;
}

static int
compare_gint64 (gconstpointer a,
                gconstpointer b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;

  return (x > y) - (x < y);
}

/* The recording's interval, or where it has none (the live history: one sample a scan) the
 * median time between samples. */
static gint64
typical_step (PgsRecording          *recording,
              const PgsTimelineData *data)
{
  g_autofree gint64 *steps = NULL;

  if (pgs_recording_get_interval_ms (recording) > 0)
    return (gint64) pgs_recording_get_interval_ms (recording) * 1000;
  if (data->n_samples < 2)
    return 0;
  steps = g_new (gint64, data->n_samples - 1);
  for (guint i = 0; i + 1 < data->n_samples; i++)
    steps[i] = data->times[i + 1] - data->times[i];
  qsort (steps, data->n_samples - 1, sizeof *steps, compare_gint64);
  return steps[(data->n_samples - 1) / 2];
}

PgsTimelineData *
pgs_timeline_data_build (PgsRecording  *recording,
                         int            pid,
                         guint64        start_time,
                         GCancellable  *cancellable,
                         GError       **error)
{
  g_autoptr(PgsTimelineData) data = g_new0 (PgsTimelineData, 1);
  guint n;

  g_return_val_if_fail (PGS_IS_RECORDING (recording), NULL);

  n = pgs_recording_get_n_samples (recording);
  data->n_samples = n;
  data->times = g_new (gint64, MAX (n, 1));
  data->values = g_new (guint64, (gsize) MAX (n, 1) * PGS_TIMELINE_N_KINDS);
  if (pid != 0)
    data->pss = g_new (guint64, MAX (n, 1));

  for (guint i = 0; i < n; i++)
    {
      guint64 *row = &data->values[(gsize) i * PGS_TIMELINE_N_KINDS];
      g_autoptr(PgsSample) sample = NULL;
      guint64 stack = 0, total;

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return NULL;
      data->times[i] = pgs_recording_get_sample_time (recording, i);
      /* A damaged sample is a gap, as its neighbours still read. */
      sample = pgs_recording_get_sample (recording, i, NULL);
      if (sample == NULL)
        {
          for (guint k = 0; k < PGS_TIMELINE_N_KINDS; k++)
            row[k] = PGS_SAMPLE_ABSENT;
          if (data->pss != NULL)
            data->pss[i] = PGS_SAMPLE_ABSENT;
          continue;
        }
      fill_row (sample, row);
      for (guint k = 0; k < PGS_TIMELINE_N_KINDS; k++)
        if (row[k] != PGS_SAMPLE_ABSENT)
          stack += row[k];
      total = pgs_sample_get_value (sample, "meminfo/MemTotal");
      data->top = MAX (data->top, stack);
      if (total != PGS_SAMPLE_ABSENT)
        data->top = MAX (data->top, total);

      if (data->pss != NULL)
        {
          const PgsSampleProcess *p = pgs_sample_lookup (sample, pid, start_time);

          data->pss[i] = p != NULL && (p->known & PGS_METRIC_PSS) != 0
                         ? p->figures[PGS_SAMPLE_PSS] : PGS_SAMPLE_ABSENT;
          if (data->pss[i] != PGS_SAMPLE_ABSENT)
            data->pss_top = MAX (data->pss_top, data->pss[i]);
        }
    }
  data->step = typical_step (recording, data);
  return g_steal_pointer (&data);
}

typedef struct
{
  PgsRecording *recording;
  int           pid;
  guint64       start_time;
} Job;

static void
job_free (Job *job)
{
  g_clear_object (&job->recording);
  g_free (job);
}

static void
build_thread (GTask        *task,
              gpointer      source,
              gpointer      task_data,
              GCancellable *cancellable)
{
  Job *job = task_data;
  GError *error = NULL;
  PgsTimelineData *data;

  data = pgs_timeline_data_build (job->recording, job->pid, job->start_time, cancellable, &error);
  if (data == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, data, (GDestroyNotify) pgs_timeline_data_free);
}

void
pgs_timeline_data_build_async (PgsRecording        *recording,
                               int                  pid,
                               guint64              start_time,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  Job *job;

  g_return_if_fail (PGS_IS_RECORDING (recording));

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, pgs_timeline_data_build_async);
  g_task_set_return_on_cancel (task, FALSE);
  job = g_new0 (Job, 1);
  job->recording = g_object_ref (recording);
  job->pid = pid;
  job->start_time = start_time;
  g_task_set_task_data (task, job, (GDestroyNotify) job_free);
  g_task_run_in_thread (task, build_thread);
}

PgsTimelineData *
pgs_timeline_data_build_finish (GAsyncResult  *result,
                                GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == pgs_timeline_data_build_async, NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

/* The CSV columns of the bands, in PgsTimelineKind order. */
static const char *const kind_columns[PGS_TIMELINE_N_KINDS] = {
  "anon_bytes", "mapped_bytes", "shmem_bytes", "cache_bytes", "kernel_bytes", "zram_bytes",
  "free_bytes",
};

static void
append_figure (GString *out,
               guint64  value)
{
  g_string_append_c (out, ',');
  if (value != PGS_SAMPLE_ABSENT)
    g_string_append_printf (out, "%" G_GUINT64_FORMAT, value);
}

char *
pgs_timeline_data_to_csv (const PgsTimelineData *data,
                          const char            *process)
{
  GString *out = g_string_new ("time,time_us");

  g_return_val_if_fail (data != NULL, NULL);
  for (guint k = 0; k < PGS_TIMELINE_N_KINDS; k++)
    g_string_append_printf (out, ",%s", kind_columns[k]);
  g_string_append (out, ",process,pss_bytes\n");
  for (guint i = 0; i < data->n_samples; i++)
    {
      gint64 time = data->times[i];
      g_autoptr(GDateTime) utc = g_date_time_new_from_unix_utc (time / G_USEC_PER_SEC);
      g_autofree char *when = utc != NULL ? g_date_time_format (utc, "%Y-%m-%dT%H:%M:%S") : NULL;

      g_string_append_printf (out, "%s.%06dZ,%" G_GINT64_FORMAT, when != NULL ? when : "",
                              (int) (time % G_USEC_PER_SEC), time);
      for (guint k = 0; k < PGS_TIMELINE_N_KINDS; k++)
        append_figure (out, pgs_timeline_data_get (data, i, k));
      /* The process's name as the report's CSV writes one: never the raw bytes a process
       * chose (a formula, a terminal escape), quoted where it holds a comma or a quote. */
      g_string_append_c (out, ',');
      if (data->pss != NULL)
        pgs_csv_append_field (out, process);
      append_figure (out, data->pss != NULL ? data->pss[i] : PGS_SAMPLE_ABSENT);
      g_string_append_c (out, '\n');
    }
  return g_string_free (out, FALSE);
}
