/* pgs-scanner.h
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "pgs-helper.h"
#include "pgs-types.h"

G_BEGIN_DECLS

typedef enum
{
  PGS_SCAN_METRICS  = 0,       /* process totals only */
  PGS_SCAN_MAPPINGS = 1 << 0,  /* per-mapping metrics too */
  PGS_SCAN_PAGES    = 1 << 1,  /* keep per-page data for residency maps */
  PGS_SCAN_PHYSMAP  = 1 << 2,  /* read and keep the whole physical map */
  /* Totals alone, from the kernel's own smaps_rollup (source PGS_SOURCE_KERNEL): exact,
   * and no page walk. Reads status, cmdline, stat (the start time) and smaps_rollup only
   * (no maps, no cgroup); ignored with MAPPINGS or PAGES, which need the mappings or the
   * pages. With PHYSMAP: these totals, and the physical map read whole. */
  PGS_SCAN_KERNEL_TOTALS = 1 << 3,
  /* With PHYSMAP: the physical map's counts read only where kpageflags says a frame is
   * mapped (pgs_physmap_read_fds_mapped), a sixth of kpagecount at rest; a frame mapped
   * between the two files' reads then counts 0. The recorder's pictures. */
  PGS_SCAN_MAPPED_COUNTS = 1 << 4,
  /* Without the host name, kernel release, boot id, meminfo, zoneinfo and vmstat (their
   * getters give NULL): for a report that shows none of them (memrank). zoneinfo and
   * vmstat alone took 37 µs, 2 % of `memrank nosuchname`. */
  PGS_SCAN_NO_HOST_INFO = 1 << 5,
  /* Without each process's start time (pgs_process_get_start_time() gives 0, unknown):
   * for a report never compared with another scan (memrank), which then reads one file
   * fewer per process, its stat: a tenth of its time at 800 processes. */
  PGS_SCAN_NO_START_TIME = 1 << 6,
} PgsScanFlags;

#define PGS_TYPE_SCANNER (pgs_scanner_get_type ())

G_DECLARE_FINAL_TYPE (PgsScanner, pgs_scanner, PGS, SCANNER, GObject)

PgsScanner   *pgs_scanner_new             (void);
const char   *pgs_scanner_get_procfs_root (PgsScanner           *self);
void          pgs_scanner_set_procfs_root (PgsScanner           *self,
                                           const char           *root);
PgsScanFlags  pgs_scanner_get_flags       (PgsScanner           *self);
void          pgs_scanner_set_flags       (PgsScanner           *self,
                                           PgsScanFlags          flags);
/* Restricts the scan to these PIDs (NULL or 0 for all). A PID that does not exist or is a
 * kernel thread is reported among the snapshot's skipped entries. */
void          pgs_scanner_set_pids        (PgsScanner           *self,
                                           const int            *pids,
                                           guint                 n_pids);

/* With a helper, maps, smaps, smaps_rollup, pagemap and kpage* of the live /proc are opened
 * by it: an unprivileged process then gets root's figures. NULL opens them directly. */
void          pgs_scanner_set_helper      (PgsScanner           *self,
                                           PgsHelper            *helper);
/* Keeps only processes whose name (status Name) contains one of @names (NULL: all), and
 * of user @uid (-1: all). The others are not read beyond what the test needs (comm, or
 * status) and are not reported, not even among the skipped. */
void          pgs_scanner_set_filter      (PgsScanner           *self,
                                           const char * const   *names,
                                           gint64                uid);

PgsSnapshot  *pgs_scanner_scan            (PgsScanner           *self,
                                           GCancellable         *cancellable,
                                           GError              **error);
void          pgs_scanner_scan_async      (PgsScanner           *self,
                                           GCancellable         *cancellable,
                                           GAsyncReadyCallback   callback,
                                           gpointer              user_data);
PgsSnapshot  *pgs_scanner_scan_finish     (PgsScanner           *self,
                                           GAsyncResult         *result,
                                           GError              **error);

G_END_DECLS
