/* pgs-wss-walk.c: the present pages of a process's mappings in scope, from pagemap
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <errno.h>

#include "pgs-error.h"
#include "pgs-pagemap.h"
#include "pgs-procfs.h"
#include "pgs-wss-private.h"

/* pagemap entries per read: 512 KiB through one reused buffer. */
#define WALK_BATCH 65536

gboolean
pgs_wss_in_scope (PgsWssScope  scope,
                  guint64      inode)
{
  /* clear_refs selects by vma->vm_file, which maps prints as a non-zero inode. */
  switch (scope)
    {
    case PGS_WSS_SCOPE_ANON:
      return inode == 0;
    case PGS_WSS_SCOPE_FILE:
      return inode != 0;
    case PGS_WSS_SCOPE_ALL:
    default:
      return TRUE;
    }
}

/* Calls @func for each present page of [start, end), reading pagemap in large batches for
 * the resident regions only (PAGEMAP_SCAN, or the whole range where it is missing). */
gboolean
pgs_wss_walk_present (PgsWss         *self,
                      guint64         start,
                      guint64         end,
                      PgsWssPageFunc  func,
                      gpointer        user_data,
                      GError        **error)
{
  guint64 ps = self->page_size;

  if (self->pm_buf == NULL)
    self->pm_buf = g_new (guint64, WALK_BATCH);

  g_array_set_size (self->regions, 0);
  if (!pgs_pagemap_scan (self->pagemap_fd, start, end, self->regions, NULL))
    {
      /* Unsupported (before 6.7, or a fixture file) or refused for this range: read it all. */
      PgsPageRegion all = { start, end, 0 };

      g_array_set_size (self->regions, 0);
      g_array_append_val (self->regions, all);
    }

  for (guint r = 0; r < self->regions->len; r++)
    {
      const PgsPageRegion *region = &g_array_index (self->regions, PgsPageRegion, r);
      guint64 addr = region->start;

      if (region->categories & PGS_PAGE_IS_PFNZERO)
        continue;
      while (addr < region->end)
        {
          guint64 n = MIN ((guint64) WALK_BATCH, (region->end - addr) / ps);
          gssize got;
          guint64 n_got;

          if (n == 0)
            break;
          got = pgs_pread_full (self->pagemap_fd, self->pm_buf, n * sizeof (guint64),
                                addr / ps * sizeof (guint64));
          if (got < 0)
            {
              int errsv = errno;

              if (errsv == ESRCH || errsv == ENOENT)
                {
                  pgs_wss_set_gone_error (self, error, "during the interval");
                  return FALSE;
                }
              pgs_set_error_from_errno (error, errsv, "PID %d: pagemap", self->pid);
              return FALSE;
            }
          n_got = (guint64) got / sizeof (guint64);
          for (guint64 i = 0; i < n_got; i++)
            if (pgs_pm_is_present (self->pm_buf[i]) &&
                !func (addr + i * ps, self->pm_buf[i], user_data, error))
              return FALSE;
          /* Short: past the end of the address space, or the mm went away. */
          if (n_got < n)
            break;
          addr += n * ps;
        }
    }
  return TRUE;
}
