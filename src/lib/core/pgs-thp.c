/* pgs-thp.c
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "pgs-kpage.h"
#include "pgs-pagemap.h"
#include "pgs-process-private.h"
#include "pgs-thp.h"

gboolean
pgs_process_get_thp (PgsProcess *self,
                     guint64    *anon,
                     guint64    *shmem,
                     guint64    *file)
{
  gboolean known;

  g_return_val_if_fail (PGS_IS_PROCESS (self), FALSE);

  known = (self->known & PGS_METRIC_THP) != 0;
  if (anon != NULL)
    *anon = known ? self->thp_anon : 0;
  if (shmem != NULL)
    *shmem = known ? self->thp_shmem : 0;
  if (file != NULL)
    *file = known ? self->thp_file : 0;
  return known;
}

gboolean
pgs_process_get_thp_total (PgsProcess *self,
                           guint64    *bytes)
{
  guint64 anon, shmem, file;

  if (!pgs_process_get_thp (self, &anon, &shmem, &file))
    {
      *bytes = 0;
      return FALSE;
    }
  *bytes = anon + shmem + file;
  return TRUE;
}

gboolean
pgs_process_count_thp_pages (PgsProcess *self,
                             PgsPhysMap *physmap,
                             guint64    *bytes)
{
  guint64 n = 0;

  g_return_val_if_fail (PGS_IS_PROCESS (self), FALSE);

  *bytes = 0;
  if (physmap == NULL || self->entries == NULL || self->pfn_hidden)
    return FALSE;
  for (gsize k = 0; k < self->n_pages; k++)
    {
      guint64 pfn = pgs_pm_pfn (self->entries[k]);
      guint64 flags = 0;

      if (pfn != 0 && pgs_physmap_get_frame (physmap, pfn, NULL, &flags) &&
          (flags & PGS_KPF_BIT (PGS_KPF_THP)))
        n++;
    }
  *bytes = n * self->page_size;
  return TRUE;
}
