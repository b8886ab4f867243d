/* pgs-memory-notes.h: the RAM behind a process's swap (zram) and its huge pages, in words
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "pagescope.h"
#include "pgs-units.h"

G_BEGIN_DECLS

/* Where swaps and zram devices are read: "/proc" and "/sys" unless set (tests). Drops the
 * figures read so far. */
void         pgs_memory_notes_set_roots  (const char *procfs_root,
                                          const char *sysfs_root);
/* The swap devices and zram figures, read again when older than a second; NULL where
 * /proc/swaps cannot be read. */
PgsSwapCost *pgs_memory_notes_get_swap_cost (void);

/* "1.2 GiB swapped, ≈ 410 MiB of RAM in zram (estimate: device ratio)"; for swap on disk
 * "1.2 GiB swapped, to disk: no RAM"; NULL where the process has no swap or it is unknown. */
char        *pgs_memory_notes_swap       (PgsProcess  *process,
                                          PgsUnits     units);
/* "Transparent huge pages: 4.0 MiB mapped whole (smaps_rollup) · 4.0 MiB of its pages in
 * THP or large-folio frames, mapped whole or in pieces (kpageflags)", each part unknown where it is; NULL where neither is
 * known. @physmap may be NULL. */
char        *pgs_memory_notes_thp        (PgsProcess  *process,
                                          PgsPhysMap  *physmap,
                                          PgsUnits     units);
/* Machine-wide, exact: "zram: 1.5 GiB of swap in 500 MiB of RAM (exact, mm_stat)"; NULL
 * where no swap is on zram. */
char        *pgs_memory_notes_system_swap (PgsUnits    units);

/* Puts the process's swap and THP notes, one a line, in @label, hidden when there are
 * none. */
void         pgs_memory_notes_fill_label (GtkLabel    *label,
                                          PgsProcess  *process,
                                          PgsPhysMap  *physmap,
                                          PgsUnits     units);

G_END_DECLS
