/* pgs-kernel-util.h: helpers for tests against the live kernel
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "pgs-parse.h"

G_BEGIN_DECLS

/* Exits 77 (skipped) unless root: kpagecount, kpageflags and other users' pagemaps need it. */
void     pgs_kernel_require_root  (void);
/* The kernel's own figures for PID, read by the caller (so the observer is the same). */
gboolean pgs_kernel_read_rollup   (int             pid,
                                   PgsSmapsFields *fields);
/* Makes sure some swap is active, on a zram device set up for the test when there is none.
 * Returns FALSE (with a message) where that is impossible; undo with _teardown_swap. */
gboolean pgs_kernel_setup_swap    (char          **message);
void     pgs_kernel_teardown_swap (void);

G_END_DECLS
