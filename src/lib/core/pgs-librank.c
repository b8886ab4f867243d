/* pgs-librank.c
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "pgs-librank.h"
#include "pgs-pagemap.h"
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

GArray *
pgs_librank_file_users (GPtrArray  *processes,
                        const char *path)
{
  GArray *users = g_array_new (FALSE, TRUE, sizeof (PgsLibUser));

  g_return_val_if_fail (processes != NULL, users);
  g_return_val_if_fail (path != NULL, users);

  for (guint i = 0; i < processes->len; i++)
    {
      PgsProcess *p = g_ptr_array_index (processes, i);
      PgsLibUser user = { .pid = p->pid, .known = PGS_METRIC_ALL };

      if (p->mappings == NULL)
        continue;
      for (guint k = 0; k < p->mappings->len; k++)
        {
          const PgsMappingData *m = &g_array_index (p->mappings, PgsMappingData, k);

          if (g_strcmp0 (m->path, path) != 0)
            continue;
          user.n_mappings++;
          user.vss += m->end - m->start;
          user.rss += m->rss;
          user.pss_fp += m->pss_fp;
          user.uss += m->uss;
          user.swap += m->swap;
          user.known &= m->known | PGS_METRIC_VSS;
        }
      if (user.n_mappings > 0)
        g_array_append_val (users, user);
    }
  return users;
}

void
pgs_file_frames_free (PgsFileFrames *frames)
{
  if (frames == NULL)
    return;
  g_free (frames->pfns);
  g_free (frames);
}

static int
compare_pfn (gconstpointer a,
             gconstpointer b)
{
  guint64 x = *(const guint64 *) a;
  guint64 y = *(const guint64 *) b;

  return x < y ? -1 : x > y;
}

PgsFileFrames *
pgs_librank_file_frames (PgsSnapshot *snapshot,
                         const char  *path)
{
  PgsFileFrames *frames = g_new0 (PgsFileFrames, 1);
  g_autoptr(GArray) pfns = g_array_new (FALSE, FALSE, sizeof (guint64));
  g_autofree gboolean *wanted = NULL;
  guint n_wanted = 0;

  g_return_val_if_fail (PGS_IS_SNAPSHOT (snapshot), frames);
  g_return_val_if_fail (path != NULL, frames);

  for (guint i = 0; i < pgs_snapshot_get_n_processes (snapshot); i++)
    {
      PgsProcess *p = pgs_snapshot_get_process (snapshot, i);
      gboolean maps_it = FALSE;
      gboolean hidden;
      guint before;

      if (p->mappings == NULL)
        continue;
      /* Which of its mappings are of the file: their pages are wanted. */
      if (n_wanted < p->mappings->len)
        {
          g_free (wanted);
          n_wanted = p->mappings->len;
          wanted = g_new (gboolean, n_wanted);
        }
      for (guint k = 0; k < p->mappings->len; k++)
        {
          const PgsMappingData *m = &g_array_index (p->mappings, PgsMappingData, k);

          wanted[k] = g_strcmp0 (m->path, path) == 0;
          maps_it |= wanted[k];
        }
      if (!maps_it)
        continue;

      frames->n_processes++;
      before = pfns->len;
      hidden = FALSE;
      if (p->entries == NULL || p->runs == NULL)
        {
          frames->n_without_pages++;
          continue;
        }
      if (p->pfn_hidden)
        {
          frames->n_pfn_hidden++;
          continue;
        }
      for (guint r = 0; r < p->runs->len && !hidden; r++)
        {
          const PgsPageRun *run = &g_array_index (p->runs, PgsPageRun, r);

          /* The shared zero page is no page of the file. */
          if (run->mapping >= p->mappings->len || !wanted[run->mapping] ||
              (run->flags & PGS_RUN_ZERO))
            continue;
          for (guint32 j = 0; j < run->n_pages; j++)
            {
              guint64 entry = p->entries[run->first + j];
              guint64 pfn = pgs_pm_pfn (entry);

              if (pfn != 0)
                g_array_append_val (pfns, pfn);
              else if (pgs_pm_is_present (entry))
                {
                  /* PFN 0 is never user memory: pagemap read without CAP_SYS_ADMIN (a
                   * scan as a normal user keeps such pages for the residency map). */
                  hidden = TRUE;
                  break;
                }
            }
        }
      if (hidden)
        {
          g_array_set_size (pfns, before);
          frames->n_pfn_hidden++;
        }
    }

  /* Distinct: the frames of a library's text are mapped by every process. */
  g_array_sort (pfns, compare_pfn);
  for (guint i = 0; i < pfns->len; i++)
    {
      guint64 pfn = g_array_index (pfns, guint64, i);

      if (frames->n_pfns == 0 || g_array_index (pfns, guint64, frames->n_pfns - 1) != pfn)
        g_array_index (pfns, guint64, frames->n_pfns++) = pfn;
    }
  g_array_set_size (pfns, frames->n_pfns);
  frames->pfns = (guint64 *) (void *) g_array_free (g_steal_pointer (&pfns), FALSE);
  return frames;
}
