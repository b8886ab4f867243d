/* pgs-compare.c: two snapshots side by side
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A PID alone does not name a process across time: the kernel reuses them. The start time
 * (clock ticks after boot, from /proc/PID/stat) does, within one boot; snapshots of
 * different boots share no process, so there every one of them is gone or new.
 */

#include "config.h"

#include "pgs-compare.h"
#include "pgs-process.h"
#include "pgs-snapshot.h"

static void
clear_entry (gpointer data)
{
  PgsCompareEntry *entry = data;

  g_clear_object (&entry->old_process);
  g_clear_object (&entry->new_process);
}

gboolean
pgs_compare_entry_get_diff (const PgsCompareEntry *entry,
                            PgsMetric              metric,
                            gint64                *diff)
{
  gint64 d = 0;

  g_return_val_if_fail (entry != NULL, FALSE);

  if (entry->old_process != NULL)
    {
      if (!pgs_process_is_known (entry->old_process, metric))
        return FALSE;
      d -= (gint64) pgs_process_get_metric (entry->old_process, metric);
    }
  if (entry->new_process != NULL)
    {
      if (!pgs_process_is_known (entry->new_process, metric))
        return FALSE;
      d += (gint64) pgs_process_get_metric (entry->new_process, metric);
    }
  if (diff != NULL)
    *diff = d;
  return TRUE;
}

static int
compare_entries (gconstpointer a,
                 gconstpointer b)
{
  const PgsCompareEntry *ea = a, *eb = b;
  gint64 da, db;
  gboolean ka = pgs_compare_entry_get_diff (ea, PGS_METRIC_PSS, &da);
  gboolean kb = pgs_compare_entry_get_diff (eb, PGS_METRIC_PSS, &db);

  if (ka != kb)
    return ka ? -1 : 1;
  if (ka)
    {
      guint64 ma = da < 0 ? -(guint64) da : (guint64) da;
      guint64 mb = db < 0 ? -(guint64) db : (guint64) db;

      if (ma != mb)
        return ma > mb ? -1 : 1;
    }
  if (ea->pid != eb->pid)
    return ea->pid < eb->pid ? -1 : 1;
  /* The same PID gone and new: the gone one first. */
  return (ea->status == PGS_COMPARE_NEW) - (eb->status == PGS_COMPARE_NEW);
}

static void
add_entry (GArray           *entries,
           PgsCompareStatus  status,
           PgsProcess       *old_process,
           PgsProcess       *new_process)
{
  PgsCompareEntry entry = {
    .pid = pgs_process_get_pid (old_process != NULL ? old_process : new_process),
    .status = status,
    .old_process = old_process != NULL ? g_object_ref (old_process) : NULL,
    .new_process = new_process != NULL ? g_object_ref (new_process) : NULL,
  };

  g_array_append_val (entries, entry);
}

/* Whether a PID in both snapshots (of one boot) is the same process, not a reused PID: by
 * its start time, or, where a snapshot has none (the kernel-totals route reads no stat,
 * PGS_SCAN_KERNEL_TOTALS), by its name. */
static gboolean
same_process (PgsProcess *o,
              PgsProcess *n)
{
  guint64 to = pgs_process_get_start_time (o), tn = pgs_process_get_start_time (n);

  if (to == 0 || tn == 0)
    return g_strcmp0 (pgs_process_get_name (o), pgs_process_get_name (n)) == 0;
  return to == tn;
}

GArray *
pgs_compare_snapshots (PgsSnapshot *old_snapshot,
                       PgsSnapshot *new_snapshot)
{
  GArray *entries;
  const char *old_boot, *new_boot;
  gboolean same_boot;
  guint i = 0, j = 0;
  guint n_old, n_new;

  g_return_val_if_fail (PGS_IS_SNAPSHOT (old_snapshot), NULL);
  g_return_val_if_fail (PGS_IS_SNAPSHOT (new_snapshot), NULL);

  entries = g_array_new (FALSE, FALSE, sizeof (PgsCompareEntry));
  g_array_set_clear_func (entries, clear_entry);

  /* Both unknown (a fixture tree) counts as the same boot; one known, one not, does not. */
  old_boot = pgs_snapshot_get_boot_id (old_snapshot);
  new_boot = pgs_snapshot_get_boot_id (new_snapshot);
  same_boot = g_strcmp0 (old_boot, new_boot) == 0;

  /* Both lists are in PID order: one merge. */
  n_old = pgs_snapshot_get_n_processes (old_snapshot);
  n_new = pgs_snapshot_get_n_processes (new_snapshot);
  while (i < n_old || j < n_new)
    {
      PgsProcess *o = i < n_old ? pgs_snapshot_get_process (old_snapshot, i) : NULL;
      PgsProcess *n = j < n_new ? pgs_snapshot_get_process (new_snapshot, j) : NULL;

      if (n == NULL || (o != NULL && pgs_process_get_pid (o) < pgs_process_get_pid (n)))
        {
          add_entry (entries, PGS_COMPARE_GONE, o, NULL);
          i++;
        }
      else if (o == NULL || pgs_process_get_pid (n) < pgs_process_get_pid (o))
        {
          add_entry (entries, PGS_COMPARE_NEW, NULL, n);
          j++;
        }
      else
        {
          if (same_boot && same_process (o, n))
            add_entry (entries, PGS_COMPARE_BOTH, o, n);
          else
            {
              add_entry (entries, PGS_COMPARE_GONE, o, NULL);
              add_entry (entries, PGS_COMPARE_NEW, NULL, n);
            }
          i++;
          j++;
        }
    }

  g_array_sort (entries, compare_entries);
  return entries;
}
