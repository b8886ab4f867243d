/* pgs-pagemap.h: /proc/PID/pagemap entries and the PAGEMAP_SCAN ioctl
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Bit layout from Documentation/admin-guide/mm/pagemap.rst (Linux 6.x).
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define PGS_PM_PFN_MASK    ((G_GUINT64_CONSTANT (1) << 55) - 1)
#define PGS_PM_SOFT_DIRTY  (G_GUINT64_CONSTANT (1) << 55)
#define PGS_PM_EXCLUSIVE   (G_GUINT64_CONSTANT (1) << 56)
#define PGS_PM_UFFD_WP     (G_GUINT64_CONSTANT (1) << 57)
#define PGS_PM_GUARD       (G_GUINT64_CONSTANT (1) << 58)
#define PGS_PM_FILE        (G_GUINT64_CONSTANT (1) << 61)
#define PGS_PM_SWAP        (G_GUINT64_CONSTANT (1) << 62)
#define PGS_PM_PRESENT     (G_GUINT64_CONSTANT (1) << 63)

static inline gboolean
pgs_pm_is_present (guint64 entry)
{
  return (entry & PGS_PM_PRESENT) != 0;
}

static inline gboolean
pgs_pm_is_swapped (guint64 entry)
{
  return (entry & (PGS_PM_PRESENT | PGS_PM_SWAP)) == PGS_PM_SWAP;
}

/* Zero without CAP_SYS_ADMIN. */
static inline guint64
pgs_pm_pfn (guint64 entry)
{
  return pgs_pm_is_present (entry) ? (entry & PGS_PM_PFN_MASK) : 0;
}

static inline guint
pgs_pm_swap_type (guint64 entry)
{
  return (guint) (entry & 0x1f);
}

static inline guint64
pgs_pm_swap_offset (guint64 entry)
{
  return (entry & PGS_PM_PFN_MASK) >> 5;
}

/* PAGEMAP_SCAN (Linux 6.7): the 6.1 uapi headers on Debian 12 lack it. */
#define PGS_PAGE_IS_WPALLOWED  (1u << 0)
#define PGS_PAGE_IS_WRITTEN    (1u << 1)
#define PGS_PAGE_IS_FILE       (1u << 2)
#define PGS_PAGE_IS_PRESENT    (1u << 3)
#define PGS_PAGE_IS_SWAPPED    (1u << 4)
#define PGS_PAGE_IS_PFNZERO    (1u << 5)
#define PGS_PAGE_IS_HUGE       (1u << 6)
#define PGS_PAGE_IS_SOFT_DIRTY (1u << 7)

typedef struct
{
  guint64 start;
  guint64 end;
  guint64 categories;
} PgsPageRegion;

/* Fills @regions (PgsPageRegion) with the present or swapped regions of [start, end).
 * Returns FALSE with PGS_ERROR_UNSUPPORTED where the kernel (or a fixture file) has no
 * PAGEMAP_SCAN, so the caller falls back to reading pagemap for whole mappings. */
gboolean pgs_pagemap_scan (int       fd,
                           guint64   start,
                           guint64   end,
                           GArray   *regions,
                           GError  **error);

G_END_DECLS
