/* pgs-types.h
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _PgsMapping  PgsMapping;
typedef struct _PgsProcess  PgsProcess;
typedef struct _PgsScanner  PgsScanner;
typedef struct _PgsSnapshot PgsSnapshot;
typedef struct _PgsPhysMap  PgsPhysMap;

/* The metrics a process or mapping carries. Each may be unknown on its own: a normal user
 * can read another user's RSS from status but not its PSS. */
typedef enum
{
  PGS_METRIC_VSS  = 1 << 0,
  PGS_METRIC_RSS  = 1 << 1,
  PGS_METRIC_PSS  = 1 << 2,
  PGS_METRIC_USS  = 1 << 3,
  PGS_METRIC_SWAP = 1 << 4,
  /* The kernel's SwapPss: swapped pages shared by swap count. Not in PGS_METRIC_ALL nor in
   * what pgs_process_get_known() returns: ask pgs_process_is_known() for it. */
  PGS_METRIC_SWAP_PSS = 1 << 5,
  /* The resident pages split two ways, from the kernel's smaps_rollup (Shared_Clean,
   * Shared_Dirty, Private_Clean, Private_Dirty): clean + dirty = shared + private = its
   * RSS. Shared means mapped by more than one process, dirty written since read from its
   * file (or anonymous). Known together or not at all; like SwapPss, not in
   * PGS_METRIC_ALL nor in what pgs_process_get_known() returns, and not kept in snapshot
   * files. */
  PGS_METRIC_CLEAN   = 1 << 6,
  PGS_METRIC_DIRTY   = 1 << 7,
  PGS_METRIC_SHARED  = 1 << 8,
  PGS_METRIC_PRIVATE = 1 << 9,
  /* Memory in transparent huge pages mapped whole (by a PMD), from the kernel's
   * smaps_rollup: AnonHugePages + ShmemPmdMapped + FilePmdMapped. Like SwapPss, not in
   * PGS_METRIC_ALL and not kept in snapshot files. */
  PGS_METRIC_THP     = 1 << 10,
} PgsMetric;

#define PGS_METRIC_SPLIT (PGS_METRIC_CLEAN | PGS_METRIC_DIRTY | PGS_METRIC_SHARED | PGS_METRIC_PRIVATE)

#define PGS_METRIC_ALL (PGS_METRIC_VSS | PGS_METRIC_RSS | PGS_METRIC_PSS | PGS_METRIC_USS | PGS_METRIC_SWAP)

/* Where a process's numbers came from. */
typedef enum
{
  PGS_SOURCE_NONE,      /* nothing beyond status could be read */
  PGS_SOURCE_PAGES,     /* computed page by page from pagemap and kpagecount */
  PGS_SOURCE_KERNEL,    /* the kernel's own smaps_rollup / smaps */
  PGS_SOURCE_STATUS,    /* only /proc/PID/status (VmSize, VmRSS, VmSwap) */
} PgsSource;

/* The kernel's PSS arithmetic: fixed point with 12 fractional bits (fs/proc/task_mmu.c). */
#define PGS_PSS_SHIFT 12

G_END_DECLS
