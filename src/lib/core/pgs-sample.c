/* pgs-sample.c: one instant's figures
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "pgs-sample.h"

static void
clear_process (gpointer data)
{
  PgsSampleProcess *p = data;

  g_clear_pointer (&p->name, g_ref_string_release);
}

/* Reference counted so that a recording kept in memory (pgs_recording_new_for_samples)
 * and each version of it after a sample is added share the samples, threads included. */
static void
clear_sample (gpointer data)
{
  PgsSample *sample = data;

  g_array_unref (sample->processes);
  g_ptr_array_unref (sample->names);
  g_array_unref (sample->values);
}

PgsSample *
pgs_sample_new (void)
{
  PgsSample *sample = g_atomic_rc_box_new0 (PgsSample);

  sample->processes = g_array_new (FALSE, TRUE, sizeof (PgsSampleProcess));
  g_array_set_clear_func (sample->processes, clear_process);
  sample->names = g_ptr_array_new_with_free_func (g_free);
  sample->values = g_array_new (FALSE, TRUE, sizeof (guint64));
  return sample;
}

void
pgs_sample_free (PgsSample *sample)
{
  if (sample == NULL)
    return;
  g_atomic_rc_box_release_full (sample, clear_sample);
}

PgsSample *
pgs_sample_ref (PgsSample *sample)
{
  g_return_val_if_fail (sample != NULL, NULL);
  return g_atomic_rc_box_acquire (sample);
}

PgsSample *
pgs_sample_copy (const PgsSample *sample)
{
  PgsSample *copy = g_atomic_rc_box_new0 (PgsSample);

  g_return_val_if_fail (sample != NULL, NULL);
  copy->time = sample->time;
  copy->processes = g_array_sized_new (FALSE, TRUE, sizeof (PgsSampleProcess), sample->processes->len);
  g_array_set_clear_func (copy->processes, clear_process);
  g_array_append_vals (copy->processes, sample->processes->data, sample->processes->len);
  for (guint i = 0; i < copy->processes->len; i++)
    {
      PgsSampleProcess *p = &g_array_index (copy->processes, PgsSampleProcess, i);

      if (p->name != NULL)
        g_ref_string_acquire (p->name);
    }
  copy->names = g_ptr_array_ref (sample->names);
  copy->values = g_array_copy (sample->values);
  return copy;
}

const PgsSampleProcess *
pgs_sample_lookup (const PgsSample *sample,
                   int              pid,
                   guint64          start_time)
{
  guint lo = 0, hi;

  g_return_val_if_fail (sample != NULL, NULL);
  hi = sample->processes->len;
  /* The first entry with this PID, then the one with this start among its few. */
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (g_array_index (sample->processes, PgsSampleProcess, mid).pid < pid)
        lo = mid + 1;
      else
        hi = mid;
    }
  for (; lo < sample->processes->len; lo++)
    {
      const PgsSampleProcess *p = &g_array_index (sample->processes, PgsSampleProcess, lo);

      if (p->pid != pid)
        break;
      if (start_time == 0 || p->start_time == start_time)
        return p;
    }
  return NULL;
}

guint64
pgs_sample_get_value (const PgsSample *sample,
                      const char      *name)
{
  g_return_val_if_fail (sample != NULL, PGS_SAMPLE_ABSENT);
  for (guint i = 0; i < sample->names->len && i < sample->values->len; i++)
    if (strcmp (g_ptr_array_index (sample->names, i), name) == 0)
      return g_array_index (sample->values, guint64, i);
  return PGS_SAMPLE_ABSENT;
}

int
pgs_sample_figure_for_metric (PgsMetric metric)
{
  switch (metric)
    {
    case PGS_METRIC_VSS: return PGS_SAMPLE_VSS;
    case PGS_METRIC_RSS: return PGS_SAMPLE_RSS;
    case PGS_METRIC_PSS: return PGS_SAMPLE_PSS;
    case PGS_METRIC_USS: return PGS_SAMPLE_USS;
    case PGS_METRIC_SWAP: return PGS_SAMPLE_SWAP;
    case PGS_METRIC_SWAP_PSS: return PGS_SAMPLE_SWAP_PSS;
    default: return -1;
    }
}
