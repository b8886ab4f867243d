/* pgs-sample-snapshot.c: a sample's totals as a snapshot, and back
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every command that reads a snapshot (memrank, compare…) reads an instant of a recording
 * this way: processes with their totals and no mappings, as a PGS_SCAN_KERNEL_TOTALS scan
 * makes them.
 */

#include "config.h"

#include <pwd.h>
#include <string.h>

#include "pgs-process-private.h"
#include "pgs-process.h"
#include "pgs-sample-private.h"
#include "pgs-snapshot-private.h"

static char *
user_name (guint       uid,
           GHashTable *cache)
{
  const char *found = g_hash_table_lookup (cache, GUINT_TO_POINTER (uid + 1));
  struct passwd pwd, *result = NULL;
  char buf[1024];

  if (found != NULL)
    return g_strdup (found);
  /* The recording machine's users are not this one's: a name only where this machine has
   * one for the UID, as a snapshot file read elsewhere would. */
  if (getpwuid_r (uid, &pwd, buf, sizeof buf, &result) == 0 && result != NULL)
    found = result->pw_name;
  g_hash_table_insert (cache, GUINT_TO_POINTER (uid + 1), g_strdup (found != NULL ? found : ""));
  return found != NULL && *found != '\0' ? g_strdup (found) : NULL;
}

PgsSnapshot *
_pgs_sample_to_snapshot (const PgsSample *sample,
                         gboolean         privileged,
                         guint            page_size,
                         const char      *hostname,
                         const char      *kernel_release,
                         const char      *boot_id)
{
  g_autoptr(GPtrArray) processes = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GArray) skipped = g_array_new (FALSE, TRUE, sizeof (PgsSkipped));
  g_autoptr(GHashTable) users = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  PgsSnapshot *snapshot;

  for (guint i = 0; i < sample->processes->len; i++)
    {
      const PgsSampleProcess *s = &g_array_index (sample->processes, PgsSampleProcess, i);
      PgsProcess *p = _pgs_process_new (s->pid);
      char *user = user_name (s->uid, users);

      p->uid = s->uid;
      p->user = user != NULL && *user != '\0' ? user : (g_free (user), NULL);
      p->name = g_strdup (s->name);
      p->start_time = s->start_time;
      p->vss = s->figures[PGS_SAMPLE_VSS];
      p->rss = s->figures[PGS_SAMPLE_RSS];
      p->pss_fp = s->figures[PGS_SAMPLE_PSS] << PGS_PSS_SHIFT;
      p->uss = s->figures[PGS_SAMPLE_USS];
      p->swap = s->figures[PGS_SAMPLE_SWAP];
      p->swap_pss = s->figures[PGS_SAMPLE_SWAP_PSS];
      p->known = s->known & (PGS_METRIC_ALL | PGS_METRIC_SWAP_PSS);
      p->source = (p->known & PGS_METRIC_PSS) ? PGS_SOURCE_KERNEL : PGS_SOURCE_STATUS;
      p->page_size = page_size;
      if ((p->known & PGS_METRIC_PSS) == 0)
        p->unknown_reason = g_strdup ("not readable by the user who recorded");
      g_ptr_array_add (processes, p);
    }
  snapshot = _pgs_snapshot_new (processes, skipped, privileged, page_size, NULL);
  _pgs_snapshot_set_info (snapshot, hostname, kernel_release, boot_id, NULL, NULL, sample->time);
  return snapshot;
}

PgsSample *
_pgs_sample_from_snapshot (PgsSnapshot *snapshot)
{
  PgsSample *sample = pgs_sample_new ();

  sample->time = pgs_snapshot_get_time (snapshot);
  for (guint i = 0; i < pgs_snapshot_get_n_processes (snapshot); i++)
    {
      PgsProcess *p = pgs_snapshot_get_process (snapshot, i);
      PgsSampleProcess s = { 0 };

      s.pid = p->pid;
      s.uid = p->uid;
      s.start_time = p->start_time;
      /* Interned: the live history keeps a sample a scan, the same names in each. */
      s.name = p->name != NULL ? g_ref_string_new_intern (p->name) : NULL;
      s.known = p->known & (PGS_METRIC_ALL | PGS_METRIC_SWAP_PSS);
      s.figures[PGS_SAMPLE_VSS] = p->vss;
      s.figures[PGS_SAMPLE_RSS] = p->rss;
      s.figures[PGS_SAMPLE_PSS] = p->pss_fp >> PGS_PSS_SHIFT;
      s.figures[PGS_SAMPLE_USS] = p->uss;
      s.figures[PGS_SAMPLE_SWAP] = p->swap;
      s.figures[PGS_SAMPLE_SWAP_PSS] = p->swap_pss;
      g_array_append_val (sample->processes, s);
    }
  return sample;
}

PgsSample *
pgs_sample_new_for_snapshot (PgsSnapshot *snapshot)
{
  g_return_val_if_fail (PGS_IS_SNAPSHOT (snapshot), NULL);
  return _pgs_sample_from_snapshot (snapshot);
}
