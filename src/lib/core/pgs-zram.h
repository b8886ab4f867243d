/* pgs-zram.h: swap devices, and the RAM a zram swap costs
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Swapped-out pages on zram are not free: they sit compressed in RAM. The machine-wide cost
 * is exact (/sys/block/zramN/mm_stat: mem_used_total); a process's share can only be
 * estimated (the kernel does not say which of its pages compressed how well), as its swap
 * times the devices' mem_used_total / orig_data_size.
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* /sys/block/zramN/mm_stat (Documentation/admin-guide/blockdev/zram.rst), in bytes except
 * where said. */
typedef struct
{
  guint64 orig_data_size;   /* uncompressed data stored */
  guint64 compr_data_size;  /* compressed */
  guint64 mem_used_total;   /* RAM the device uses, allocator overhead included */
  guint64 mem_limit;        /* 0: no limit */
  guint64 mem_used_max;
  guint64 same_pages;       /* pages (same-filled, stored without memory) */
  guint64 pages_compacted;  /* pages */
  guint64 huge_pages;       /* pages (incompressible) */
} PgsZramStat;

gboolean pgs_zram_parse_mm_stat (const char  *buf,
                                 gsize        len,
                                 PgsZramStat *stat,
                                 GError     **error);

/* One line of /proc/swaps, sizes in bytes. */
typedef struct
{
  char    *device;          /* as listed: "/dev/zram0", "/swapfile" */
  char    *type;            /* "partition", "file" */
  guint64  size;
  guint64  used;
  int      priority;
  char    *zram;            /* "zram0" when the device is a zram device, else NULL */
} PgsSwapDevice;

void       pgs_swap_device_free (PgsSwapDevice *device);
/* Parses /proc/swaps into PgsSwapDevice; skips the header. */
GPtrArray *pgs_swaps_parse      (const char    *buf,
                                 gsize          len);

/* A zram device and its figures. */
typedef struct
{
  char        *name;        /* "zram0" */
  gboolean     is_swap;     /* active swap in /proc/swaps */
  PgsZramStat  stat;
} PgsZramDevice;

void       pgs_zram_device_free (PgsZramDevice *device);

/* What swap costs in RAM, machine-wide. */
typedef struct
{
  GPtrArray *swaps;         /* PgsSwapDevice */
  GPtrArray *zram;          /* PgsZramDevice: every initialised zram device */
  guint      n_zram_swap;   /* zram devices among the active swaps */
  guint      n_other_swap;  /* other swap devices (disk partitions, files) */
  guint64    zram_orig;     /* over the zram swap devices */
  guint64    zram_used;     /* mem_used_total over the zram swap devices: exact */
} PgsSwapCost;

void         pgs_swap_cost_free (PgsSwapCost *cost);
/* Reads @procfs_root/swaps and @sysfs_root/block/zram*\/mm_stat (roots "/proc" and "/sys"
 * when NULL). */
PgsSwapCost *pgs_swap_cost_read (const char  *procfs_root,
                                 const char  *sysfs_root,
                                 GError     **error);
/* A process's swap in RAM, an estimate: @swap × zram_used / zram_orig (with several zram
 * swap devices, their combined ratio). 0 where swap is on disk only. FALSE, with @reason,
 * where it cannot be estimated (swap on zram and other devices, nothing stored). */
gboolean     pgs_swap_cost_estimate (const PgsSwapCost *cost,
                                     guint64            swap,
                                     guint64           *ram,
                                     const char       **reason);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PgsSwapCost, pgs_swap_cost_free)

G_END_DECLS
