/* pgs-ledger.h: every byte of MemTotal in one table, from the frames and the kernel's counters
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "pgs-category.h"
#include "pgs-types.h"

G_BEGIN_DECLS

/* The rows, in the order of the table and the bar. */
typedef enum
{
  PGS_LEDGER_PROCESS_ANON,      /* mapped by a process: anonymous (ANON, count > 0) */
  PGS_LEDGER_PROCESS_FILE,      /* mapped by a process: file pages */
  PGS_LEDGER_PROCESS_SHMEM,     /* mapped by a process: shmem, tmpfs, memfd, SysV */
  PGS_LEDGER_ANON_UNMAPPED,     /* anonymous, no process maps it: swap cache, being freed */
  PGS_LEDGER_CACHE_CLEAN,       /* page cache no process maps, clean */
  PGS_LEDGER_CACHE_DIRTY,       /* page cache no process maps, dirty or under writeback */
  PGS_LEDGER_SHMEM_UNMAPPED,    /* shmem and tmpfs no process maps */
  PGS_LEDGER_SLAB_RECLAIMABLE,
  PGS_LEDGER_SLAB_UNRECLAIMABLE,
  PGS_LEDGER_PAGE_TABLES,
  PGS_LEDGER_KERNEL_STACKS,
  PGS_LEDGER_VMALLOC,
  PGS_LEDGER_PERCPU,
  PGS_LEDGER_KERNEL_OTHER,      /* kernel memory no counter names */
  PGS_LEDGER_HUGETLB,           /* the hugetlbfs pool, free or used */
  PGS_LEDGER_ZRAM,              /* zsmalloc: what zram (and zswap) hold, in RAM */
  PGS_LEDGER_FREE,              /* in the page allocator's free lists */
  PGS_LEDGER_FREE_PCP,          /* free, on the per-CPU lists */
  PGS_LEDGER_UNINIT,            /* counted in MemTotal, struct pages not yet initialised */
  PGS_LEDGER_N_ROWS
} PgsLedgerRow;

typedef enum
{
  PGS_LEDGER_SOURCE_FRAMES,     /* counted from kpageflags and kpagecount */
  PGS_LEDGER_SOURCE_COUNTER,    /* a kernel counter (meminfo, vmstat, zoneinfo) */
} PgsLedgerSource;

typedef struct
{
  gboolean        known;
  guint64         bytes;
  PgsLedgerSource source;
  /* The /proc/meminfo field (or sum of fields) the row answers to, or NULL. Rows that
   * share one answer to it together (Free and not yet initialised: MemFree). */
  const char     *counter;
  gboolean        counter_known;
  guint64         counter_value;
} PgsLedgerEntry;

typedef struct
{
  guint64        mem_total;
  PgsLedgerEntry rows[PGS_LEDGER_N_ROWS];
  /* MemTotal minus the rows: signed (the rows can overshoot when the counters and the
   * frames disagree), known only when every row is. */
  gboolean       unexplained_known;
  gint64         unexplained;
  /* MemTotal minus the known rows: what the unknown rows and the unexplained rest hold
   * together (equals unexplained when every row is known). */
  gint64         unknown;
  /* Memory the firmware and the kernel kept at boot: zoneinfo's present pages less
   * MemTotal (present − managed on mainline); beside MemTotal, not in it. */
  gboolean       outside_known;
  guint64        outside_mem_total;
  gboolean       from_frames;   /* the frame rows were counted (root) */
} PgsLedger;

/* Frames counted by what the ledger needs of them, from a physical map's runs. */
typedef struct
{
  guint64 process_anon, process_file, process_shmem;
  guint64 anon_unmapped, cache_clean, cache_dirty, shmem_unmapped;
  guint64 slab, page_tables, hugetlb, free, uninit;
  guint64 kernel;      /* no telling flag (flagless, reserved, zero page, offline, …), inside a zone */
  guint64 holes;       /* NOPAGE, holes found by the counters, frames outside every zone */
} PgsLedgerFrames;

/* Counts the frames of @physmap (its spans applied: never initialised, holes). */
void         pgs_ledger_count_frames  (PgsPhysMap            *physmap,
                                       PgsLedgerFrames       *out);

/* The ledger from the texts of /proc/meminfo (required), /proc/zoneinfo and /proc/vmstat
 * (either may be NULL: the rows they give are unknown) and, when not NULL, a physical map
 * whose frames answer the rows they can. */
PgsLedger   *pgs_ledger_compute       (PgsPhysMap            *physmap,
                                       const char            *meminfo,
                                       const char            *zoneinfo,
                                       const char            *vmstat,
                                       guint                  page_size,
                                       GError               **error);
/* The ledger of a scan or a snapshot file: its physical map (if any) with the counters
 * read with it. */
PgsLedger   *pgs_ledger_new_for_snapshot (PgsSnapshot        *snapshot,
                                          GError            **error);
void         pgs_ledger_free          (PgsLedger             *ledger);

/* Untranslated, stable: "processes-anon". */
const char  *pgs_ledger_row_get_id    (PgsLedgerRow           row);
/* Translated: "Processes: anonymous". */
const char  *pgs_ledger_row_get_label (PgsLedgerRow           row);
/* Translated: where the figure comes from, for a tooltip. */
const char  *pgs_ledger_row_get_description (PgsLedgerRow     row);
/* The map category whose colour the row takes (kernel rows share the kernel's). */
PgsCategory  pgs_ledger_row_get_category (PgsLedgerRow        row);
/* Untranslated: "frames", "counter". */
const char  *pgs_ledger_source_get_id (PgsLedgerSource        source);

/* Checks a row's counter: the sum of the known rows that share it against the counter,
 * within 1 % of the counter or @slack bytes, whichever is larger. FALSE when unknown. */
gboolean     pgs_ledger_counter_agrees (const PgsLedger      *ledger,
                                        PgsLedgerRow          row,
                                        guint64               slack,
                                        guint64              *rows_sum);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PgsLedger, pgs_ledger_free)

G_END_DECLS
