/* pgs-kernel-util.h: helpers for tests against the live kernel
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Tests that change the machine leave it as they found it, also when an assertion fails
 * (SIGABRT) or they are interrupted (SIGINT, SIGTERM, SIGHUP): every temporary directory,
 * child and swap device is registered here and undone from atexit and from the signal
 * handlers. SIGKILL cannot be caught, so pgs_kernel_init() first sweeps what an earlier run
 * that was killed left behind, where it is provably a test's: directories named
 * "pagescope-test-PID-…" and zram swap labelled "pgstest-PID" whose PID is no longer a
 * running kernel test.
 */

#pragma once

#include <glib.h>

#include "pgs-parse.h"

G_BEGIN_DECLS

/* Exits 77 (skipped) unless root: kpagecount, kpageflags and other users' pagemaps need it. */
void     pgs_kernel_require_root  (void);
/* require_root, the sweep of leftovers, the cleanup handlers, and the probe (printed as TAP
 * comments). Call first in every kernel test. */
void     pgs_kernel_init          (void);
/* A new empty directory /tmp/pagescope-test-PID-@what-XXXXXX, removed (with the files in
 * it; it is flat) at exit. */
char    *pgs_kernel_make_tmpdir   (const char     *what);
/* A copy of the program @path that user @uid can run, for tests that run programs as
 * another user: the build tree may lie where that user cannot enter (a clone under a 0700
 * folder). The copy is in a new directory from pgs_kernel_make_tmpdir() opened to all
 * (0755) and removed at exit; @path must stand alone (a static program, or one whose
 * libraries are installed). NULL, with the reason in @why, where @uid still cannot run it
 * (the temporary folder itself closed to it): the caller skips with that reason. */
char    *pgs_kernel_copy_for_user (const char     *path,
                                   unsigned int    uid,
                                   char          **why);
/* Kill @pid at exit (SIGKILL) unless forgotten first. */
void     pgs_kernel_track_child   (int             pid);
void     pgs_kernel_forget_child  (int             pid);
/* Removes leftovers of killed runs (see above); returns how many. Called by _init. */
guint    pgs_kernel_sweep         (void);
/* The kernel's own figures for PID, read by the caller (so the observer is the same). */
gboolean pgs_kernel_read_rollup   (int             pid,
                                   PgsSmapsFields *fields);
/* Makes sure some swap is active, on a zram device set up for the test when there is none
 * other than an earlier test's. Returns FALSE (with a message) where that is impossible;
 * undone by _teardown_swap, and at exit. */
gboolean pgs_kernel_setup_swap    (char          **message);
/* The same with a device of @bytes (the data it can hold, uncompressed). */
gboolean pgs_kernel_setup_swap_sized (guint64      bytes,
                                      char       **message);
void     pgs_kernel_teardown_swap (void);

G_END_DECLS
