/* pgs-librank.c
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "pgs-librank.h"
#include "pgs-process-private.h"

void
pgs_lib_file_free (PgsLibFile *file)
{
  if (file == NULL)
    return;
  g_free (file->path);
  g_array_unref (file->pids);
  g_free (file);
}

gboolean
pgs_librank_is_file (const char *path)
{
  /* The kernel prints a file mapping's d_path, which is absolute; everything else it names
   * in brackets ([heap], [anon:name], [anon_shmem:name]) or leaves empty. */
  return path != NULL && path[0] == '/';
}

static int
compare_files (gconstpointer a,
               gconstpointer b)
{
  const PgsLibFile *fa = *(PgsLibFile * const *) a;
  const PgsLibFile *fb = *(PgsLibFile * const *) b;
  gboolean ka = (fa->known & PGS_METRIC_PSS) != 0;
  gboolean kb = (fb->known & PGS_METRIC_PSS) != 0;

  if (ka != kb)
    return ka ? -1 : 1;
  if (fa->pss_fp != fb->pss_fp)
    return fa->pss_fp > fb->pss_fp ? -1 : 1;
  if (fa->rss != fb->rss)
    return fa->rss > fb->rss ? -1 : 1;
  return strcmp (fa->path, fb->path);
}

GPtrArray *
pgs_librank (GPtrArray *processes,
             guint     *n_unmapped)
{
  g_autoptr(GHashTable) index = g_hash_table_new (g_str_hash, g_str_equal);
  GPtrArray *files = g_ptr_array_new_with_free_func ((GDestroyNotify) pgs_lib_file_free);
  guint unmapped = 0;

  g_return_val_if_fail (processes != NULL, files);

  for (guint i = 0; i < processes->len; i++)
    {
      PgsProcess *p = g_ptr_array_index (processes, i);

      if (p->mappings == NULL || p->mappings->len == 0)
        {
          unmapped++;
          continue;
        }

      for (guint k = 0; k < p->mappings->len; k++)
        {
          const PgsMappingData *m = &g_array_index (p->mappings, PgsMappingData, k);
          PgsLibFile *file;

          if (!pgs_librank_is_file (m->path))
            continue;
          file = g_hash_table_lookup (index, m->path);
          if (file == NULL)
            {
              file = g_new0 (PgsLibFile, 1);
              file->path = g_strdup (m->path);
              file->pids = g_array_new (FALSE, FALSE, sizeof (int));
              file->known = PGS_METRIC_ALL;
              g_ptr_array_add (files, file);
              g_hash_table_insert (index, file->path, file);
            }
          /* Mappings are in address order, so a process's mappings of one file need not
           * be adjacent: count the process once by its last PID. */
          if (file->pids->len == 0 ||
              g_array_index (file->pids, int, file->pids->len - 1) != p->pid)
            g_array_append_val (file->pids, p->pid);
          file->n_mappings++;
          file->vss += m->end - m->start;
          file->rss += m->rss;
          file->pss_fp += m->pss_fp;
          file->uss += m->uss;
          file->swap += m->swap;
          file->known &= m->known | PGS_METRIC_VSS;
        }
    }

  g_ptr_array_sort (files, compare_files);
  if (n_unmapped != NULL)
    *n_unmapped = unmapped;
  return files;
}
