/* pgs-pagemap.c
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <sys/ioctl.h>

#include "pgs-error.h"
#include "pgs-pagemap.h"
#include "pgs-procfs.h"

struct pgs_pm_scan_arg
{
  guint64 size;
  guint64 flags;
  guint64 start;
  guint64 end;
  guint64 walk_end;
  guint64 vec;
  guint64 vec_len;
  guint64 max_pages;
  guint64 category_inverted;
  guint64 category_mask;
  guint64 category_anyof_mask;
  guint64 return_mask;
};

#define PGS_PAGEMAP_SCAN _IOWR ('f', 16, struct pgs_pm_scan_arg)

G_STATIC_ASSERT (sizeof (PgsPageRegion) == 24);
G_STATIC_ASSERT (sizeof (struct pgs_pm_scan_arg) == 96);

#define REGIONS_PER_CALL 4096

gboolean
pgs_pagemap_scan (int       fd,
                  guint64   start,
                  guint64   end,
                  GArray   *regions,
                  GError  **error)
{
  guint64 pos = start;

  g_assert (g_array_get_element_size (regions) == sizeof (PgsPageRegion));

  while (pos < end)
    {
      struct pgs_pm_scan_arg arg = { 0 };
      guint old_len = regions->len;
      int ret;

      g_array_set_size (regions, old_len + REGIONS_PER_CALL);

      arg.size = sizeof arg;
      arg.start = pos;
      arg.end = end;
      arg.vec = (guint64) (guintptr) &g_array_index (regions, PgsPageRegion, old_len);
      arg.vec_len = REGIONS_PER_CALL;
      arg.category_anyof_mask = PGS_PAGE_IS_PRESENT | PGS_PAGE_IS_SWAPPED;
      arg.return_mask = PGS_PAGE_IS_PRESENT | PGS_PAGE_IS_SWAPPED | PGS_PAGE_IS_FILE |
                        PGS_PAGE_IS_PFNZERO | PGS_PAGE_IS_HUGE;

      do
        ret = ioctl (fd, PGS_PAGEMAP_SCAN, &arg);
      while (ret < 0 && errno == EINTR);

      if (ret < 0)
        {
          int errsv = errno;

          g_array_set_size (regions, old_len);
          if (errsv == ENOTTY || errsv == EINVAL || errsv == EOPNOTSUPP)
            g_set_error (error, PGS_ERROR, PGS_ERROR_UNSUPPORTED,
                         "PAGEMAP_SCAN is not available: %s", g_strerror (errsv));
          else
            pgs_set_error_from_errno (error, errsv, "PAGEMAP_SCAN");
          return FALSE;
        }

      g_array_set_size (regions, old_len + ret);

      /* walk_end < end only when the vector filled up. */
      if (arg.walk_end <= pos)
        break;
      pos = arg.walk_end;
      if ((guint) ret < REGIONS_PER_CALL)
        break;
    }

  return TRUE;
}
