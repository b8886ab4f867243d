/* pgs-meminfo.h: the kernel's own memory counters (/proc/meminfo, /proc/zoneinfo), and
 * which frames of the page-flag map the kernel has never initialised
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "pgs-category.h"

G_BEGIN_DECLS

/* The /proc/meminfo figures the flag map is checked against, in bytes. */
typedef enum
{
  PGS_MEMINFO_MEM_TOTAL,
  PGS_MEMINFO_MEM_FREE,
  PGS_MEMINFO_BUFFERS,
  PGS_MEMINFO_CACHED,        /* page cache, shmem included, swap cache and Buffers not */
  PGS_MEMINFO_SWAP_CACHED,
  PGS_MEMINFO_ANON_PAGES,    /* mapped anonymous pages */
  PGS_MEMINFO_SHMEM,
  PGS_MEMINFO_SLAB,          /* SReclaimable + SUnreclaim (or Slab) */
  PGS_MEMINFO_PAGE_TABLES,   /* PageTables + SecPageTables */
  PGS_MEMINFO_KERNEL_STACK,
  PGS_MEMINFO_HUGETLB,       /* Hugetlb, or HugePages_Total × Hugepagesize */
  PGS_MEMINFO_UNEVICTABLE,   /* on the unevictable LRU: mlocked, ramfs, SHM_LOCKed */
  PGS_MEMINFO_N_FIELDS
} PgsMeminfoField;

typedef struct
{
  guint64 value[PGS_MEMINFO_N_FIELDS];
  guint32 has;               /* bit f set when value[f] was read */
} PgsMeminfo;

#define PGS_MEMINFO_HAS(mi, f) (((mi)->has >> (f)) & 1u)

/* Parses @len bytes of /proc/meminfo. Unknown keys are ignored; MemTotal and MemFree are
 * required; a malformed value of a key we use is an error naming the line. */
gboolean     pgs_meminfo_parse          (const char    *text,
                                         gsize          len,
                                         PgsMeminfo    *out,
                                         GError       **error);

/* One zone of /proc/zoneinfo, in frames. */
typedef struct
{
  guint   node;
  char    name[16];
  gboolean has_start;        /* start_pfn is absent for empty zones */
  guint64 start_pfn;
  guint64 spanned;           /* frames from the zone's first to its last, holes included */
  guint64 present;           /* frames with RAM behind them */
  guint64 managed;           /* frames the page allocator has been given */
  guint64 nr_free;           /* nr_free_pages (older kernels: "pages free") */
} PgsZone;

/* Parses @len bytes of /proc/zoneinfo into an array of PgsZone. */
GArray      *pgs_zoneinfo_parse         (const char    *text,
                                         gsize          len,
                                         GError       **error);

/* A run of frames whose category comes from the kernel's counters, not their flags. */
typedef struct
{
  guint64     start;
  guint64     n_frames;
  PgsCategory category;
} PgsFrameSpan;

/* The legend rows that put the kernel's counters beside the map's categories. */
typedef enum
{
  PGS_COUNTER_FREE,          /* MemFree ↔ Free + Free, not yet initialised */
  PGS_COUNTER_CACHED,        /* Cached + Buffers ↔ page cache, dirty, shmem */
  PGS_COUNTER_ANON,          /* AnonPages ↔ anonymous, anonymous huge, KSM */
  PGS_COUNTER_SHMEM,         /* Shmem ↔ shared memory */
  PGS_COUNTER_SLAB,          /* SReclaimable + SUnreclaim ↔ slab */
  PGS_COUNTER_PAGE_TABLES,   /* PageTables ↔ page table */
  PGS_COUNTER_HUGETLB,       /* HugePages ↔ HugeTLB */
  PGS_COUNTER_UNEVICTABLE,   /* Unevictable ↔ unevictable or locked (anon, file or shmem:
                              * the map shows them here, not under their own kind) */
  PGS_COUNTER_KERNEL_STACK,  /* KernelStack: no flag, so inside "Reserved or other kernel" */
  PGS_COUNTER_UNACCOUNTED,   /* MemTotal minus every counter above and SwapCached */
  PGS_N_COUNTERS
} PgsCounter;

typedef struct
{
  const char *kernel_label;  /* translated: "MemFree", "Slab (SReclaimable + SUnreclaim)" */
  const char *map_label;     /* translated: the map categories it is compared with, or NULL */
  gboolean    has_kernel;
  guint64     kernel_bytes;
  gboolean    has_map;
  guint64     map_bytes;
} PgsCounterRow;

/* Fills @row for @counter from @meminfo (NULL: no kernel figure) and @category_counts
 * (PGS_N_CATEGORIES frames each; NULL: no map figure). */
void         pgs_counter_get_row        (PgsCounter        counter,
                                         const PgsMeminfo *meminfo,
                                         const guint64    *category_counts,
                                         guint             page_size,
                                         PgsCounterRow    *row);

/* "MemFree 23.4 GiB · map 23.5 GiB (Free + not yet initialised)": one legend line. */
char        *pgs_counter_format_row     (const PgsCounterRow *row);

G_END_DECLS
