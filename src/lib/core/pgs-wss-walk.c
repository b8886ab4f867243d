/* pgs-wss-walk.c: the present pages of a process's mappings in scope, from pagemap
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <string.h>

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

/* Finds the resident regions of [start, end) (PAGEMAP_SCAN, or the whole range where it
 * is missing), to be read in large batches by pgs_wss_walk_next. */
void
pgs_wss_walk_init (PgsWssWalk *walk,
                   PgsWss     *self,
                   guint64     start,
                   guint64     end)
{
  memset (walk, 0, sizeof *walk);
  walk->self = self;
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
}

/* Gives the next present page and its pagemap entry: TRUE, or FALSE at the end or on an
 * error reading pagemap (then @error is set). */
gboolean
pgs_wss_walk_next (PgsWssWalk  *walk,
                   guint64     *address,
                   guint64     *entry,
                   GError     **error)
{
  PgsWss *self = walk->self;
  guint64 ps = self->page_size;

  for (;;)
    {
      guint64 n;
      gssize got;

      while (walk->i < walk->n_got)
        {
          guint64 i = walk->i++;

          if (pgs_pm_is_present (self->pm_buf[i]))
            {
              *address = walk->batch_addr + i * ps;
              *entry = self->pm_buf[i];
              return TRUE;
            }
        }
      walk->i = walk->n_got = 0;

      if (walk->short_read || walk->addr >= walk->end)
        {
          const PgsPageRegion *region;

          if (walk->next_region >= self->regions->len)
            return FALSE;
          region = &g_array_index (self->regions, PgsPageRegion, walk->next_region++);
          walk->short_read = FALSE;
          if (region->categories & PGS_PAGE_IS_PFNZERO)
            continue;
          walk->addr = region->start;
          walk->end = region->end;
        }

      n = MIN ((guint64) WALK_BATCH, (walk->end - walk->addr) / ps);
      if (n == 0)
        {
          walk->addr = walk->end;
          continue;
        }
      got = pgs_pread_full (self->pagemap_fd, self->pm_buf, n * sizeof (guint64),
                            walk->addr / ps * sizeof (guint64));
      if (got < 0)
        {
          int errsv = errno;

          walk->next_region = self->regions->len;
          walk->short_read = TRUE;
          if (errsv == ESRCH || errsv == ENOENT)
            pgs_wss_set_gone_error (self, error, "during the interval");
          else
            pgs_set_error_from_errno (error, errsv, "PID %d: pagemap", self->pid);
          return FALSE;
        }
      walk->batch_addr = walk->addr;
      walk->n_got = (guint64) got / sizeof (guint64);
      /* Short: past the end of the address space, or the mm went away. */
      walk->short_read = walk->n_got < n;
      walk->addr += n * ps;
    }
}
