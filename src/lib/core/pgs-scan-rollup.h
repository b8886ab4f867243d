/* pgs-scan-rollup.h: a process's figures from the kernel's own smaps_rollup and smaps
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "pgs-parse.h"
#include "pgs-process-private.h"

#include "pgs-helper.h"

G_BEGIN_DECLS

/* Fills RSS, PSS, USS, swap and SwapPss of @proc from smaps_rollup (and its mappings'
 * from smaps when @mappings), source PGS_SOURCE_KERNEL. Where smaps_rollup cannot be read,
 * RSS and swap come from @status and PSS/USS are unknown with the reason, unless the
 * process exited meanwhile: then FALSE and PGS_ERROR_PROCESS_GONE. */
/* smaps_rollup alone: FALSE, @proc untouched, where it cannot be read or parsed. */
gboolean _pgs_scan_rollup_read (PgsProcess  *proc,
                                PgsHelper   *helper,
                                int          dirfd,
                                gboolean     mappings,
                                GError     **error);
/* Only the split of @proc's resident pages (PGS_METRIC_SPLIT), for a process whose other
 * figures came from its pages: FALSE, the split unknown, where smaps_rollup has none. */
gboolean _pgs_scan_rollup_split (PgsProcess  *proc,
                                 PgsHelper   *helper,
                                 int          dirfd);
gboolean _pgs_scan_rollup (PgsProcess       *proc,
                           PgsHelper        *helper,
                           int               dirfd,
                           const PgsStatus  *status,
                           gboolean          mappings,
                           GError          **error);

G_END_DECLS
