/* pgs-process-pages.c: a process's packed pages, looked up, walked and lent to the renderer
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Read-only once the scan is done, so safe from any thread (the render worker's too).
 */

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "pgs-process-private.h"

gboolean
pgs_process_has_pages (PgsProcess *self)
{
  g_return_val_if_fail (PGS_IS_PROCESS (self), FALSE);
  return self->runs != NULL;
}

gsize
pgs_process_get_n_pages (PgsProcess *self)
{
  g_return_val_if_fail (PGS_IS_PROCESS (self), 0);
  return self->n_pages;
}

void
pgs_process_get_mapping_extent (PgsProcess  *self,
                                guint        index,
                                guint64     *start,
                                guint64     *end,
                                gboolean    *file,
                                const char **path)
{
  const PgsMappingData *m;

  g_return_if_fail (PGS_IS_PROCESS (self));
  g_return_if_fail (index < self->mappings->len);

  m = &g_array_index (self->mappings, PgsMappingData, index);
  *start = m->start;
  *end = m->end;
  *file = m->inode != 0;
  *path = m->path != NULL ? m->path : "";
}

gboolean
pgs_process_get_pages (PgsProcess *self,
                       PgsPages   *pages)
{
  g_return_val_if_fail (PGS_IS_PROCESS (self), FALSE);
  g_return_val_if_fail (pages != NULL, FALSE);

  memset (pages, 0, sizeof *pages);
  pages->page_size = self->page_size;
  pages->entries = self->entries;
  pages->counts = self->counts;
  pages->n_pages = self->n_pages;
  if (self->runs == NULL)
    return FALSE;
  pages->runs = (const PgsPageRun *) (gconstpointer) self->runs->data;
  pages->n_runs = self->runs->len;
  return TRUE;
}

static gint
compare_mapping (gconstpointer key,
                 gconstpointer elem)
{
  guint64 address = *(const guint64 *) key;
  const PgsMappingData *m = elem;

  if (address < m->start)
    return -1;
  if (address >= m->end)
    return 1;
  return 0;
}

static gint
compare_run (gconstpointer key,
             gconstpointer elem,
             gpointer      user_data)
{
  guint64 address = *(const guint64 *) key;
  const PgsPageRun *run = elem;
  guint page_size = GPOINTER_TO_UINT (user_data);

  if (address < run->start)
    return -1;
  if (address >= run->start + (guint64) run->n_pages * page_size)
    return 1;
  return 0;
}

gboolean
pgs_process_lookup_page (PgsProcess  *self,
                         guint64      address,
                         PgsPageInfo *info)
{
  const PgsMappingData *m;
  const PgsPageRun *run = NULL;

  g_return_val_if_fail (PGS_IS_PROCESS (self), FALSE);
  g_return_val_if_fail (info != NULL, FALSE);

  address -= address % self->page_size;
  memset (info, 0, sizeof *info);
  info->address = address;
  info->count = PGS_COUNT_UNKNOWN;

  m = bsearch (&address, self->mappings->data, self->mappings->len, sizeof *m, compare_mapping);
  if (m == NULL)
    return FALSE;
  info->in_mapping = TRUE;
  info->mapping = m - (const PgsMappingData *) self->mappings->data;

  if (self->runs != NULL && self->runs->len > 0)
    {
      /* g_bsearch_array is private; a hand-rolled bisection keeps this O(log n). */
      guint lo = 0, hi = self->runs->len;

      while (lo < hi)
        {
          guint mid = (lo + hi) / 2;
          const PgsPageRun *r = &g_array_index (self->runs, PgsPageRun, mid);
          gint c = compare_run (&address, r, GUINT_TO_POINTER (self->page_size));

          if (c == 0)
            {
              run = r;
              break;
            }
          if (c < 0)
            hi = mid;
          else
            lo = mid + 1;
        }
    }

  if (run != NULL)
    {
      gsize i = run->first + (address - run->start) / self->page_size;

      info->entry = self->entries[i];
      info->count = self->counts != NULL ? self->counts[i] : PGS_COUNT_UNKNOWN;
    }

  return TRUE;
}

void
pgs_process_foreach_page (PgsProcess  *self,
                          PgsPageFunc  func,
                          gpointer     user_data)
{
  g_return_if_fail (PGS_IS_PROCESS (self));
  g_return_if_fail (func != NULL);

  if (self->runs == NULL)
    return;

  for (guint r = 0; r < self->runs->len; r++)
    {
      const PgsPageRun *run = &g_array_index (self->runs, PgsPageRun, r);

      for (guint32 j = 0; j < run->n_pages; j++)
        {
          PgsPageInfo info = {
            .address = run->start + (guint64) j * self->page_size,
            .entry = self->entries[run->first + j],
            .count = self->counts != NULL ? self->counts[run->first + j] : PGS_COUNT_UNKNOWN,
            .mapping = run->mapping,
            .in_mapping = TRUE,
          };

          func (&info, user_data);
        }
    }
}

PgsMappingData *
_pgs_process_match_mapping (PgsProcess *self,
                            guint      *next,
                            guint64     start,
                            guint64     end)
{
  GArray *mappings = self->mappings;
  PgsMappingData *m;

  while (*next < mappings->len && g_array_index (mappings, PgsMappingData, *next).start < start)
    (*next)++;
  if (*next >= mappings->len)
    return NULL;
  m = &g_array_index (mappings, PgsMappingData, *next);
  if (m->start != start || m->end != end)
    return NULL;
  (*next)++;
  return m;
}
