/* pgs-thp.h: how much of a process is in transparent huge pages
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "pgs-physmap.h"
#include "pgs-types.h"

G_BEGIN_DECLS

/* The kernel's figures from smaps_rollup, in bytes: anonymous THP mapped whole
 * (AnonHugePages), shmem and file THP mapped whole (ShmemPmdMapped, FilePmdMapped; 0 on
 * kernels without those lines). FALSE where the rollup was not read (another user's
 * process without root, a snapshot file): unknown, not none. Any out may be NULL. */
gboolean pgs_process_get_thp        (PgsProcess *self,
                                     guint64    *anon,
                                     guint64    *shmem,
                                     guint64    *file);
/* The same as one figure: anon + shmem + file. */
gboolean pgs_process_get_thp_total  (PgsProcess *self,
                                     guint64    *bytes);
/* From the pages: the bytes of @self's present pages whose frames carry KPF_THP in
 * @physmap's kpageflags, whether the huge page is mapped whole or in 4 KiB pieces (after a
 * partial munmap or mprotect); newer kernels set KPF_THP on every large folio (multi-size
 * THP, large page-cache folios of files) too. So it can exceed the rollup's figure. FALSE where the pages,
 * their frame numbers or the flags are not known. */
gboolean pgs_process_count_thp_pages (PgsProcess *self,
                                      PgsPhysMap *physmap,
                                      guint64    *bytes);

G_END_DECLS
