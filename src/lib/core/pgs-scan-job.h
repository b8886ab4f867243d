/* pgs-scan-job.h: one scan's state, shared by the scanner's phases (private)
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * pgs-scanner.c drives the job; pgs-scan-process.c reads a process's files (phase 1), with
 * pgs-scan-identity.c (user, cmdline, cgroup, the name filter) and pgs-scan-maps.c;
 * pgs-scan-pages.c reads pagemap and accounts exclusive pages (phase 1); pgs-scan-frames.c
 * reads the kpage files for the shared frames and finishes the accounting (phases 2, 3);
 * pgs-scan-rollup.c takes the kernel's own figures.
 */

#pragma once

#include <gio/gio.h>

#include "pgs-frames.h"
#include "pgs-physmap.h"
#include "pgs-process-private.h"
#include "pgs-scanner.h"
#include "pgs-helper.h"
#include "pgs-swap.h"

G_BEGIN_DECLS

/* 64 Ki entries (512 KiB) per pagemap read. */
#define PAGEMAP_BATCH 65536
/* Present regions from PAGEMAP_SCAN closer than this are read in one pread. */
#define PAGEMAP_MERGE_GAP 512
/* Virtual size beyond RSS from which a process is worth a PAGEMAP_SCAN first. */
#define SPARSE_THRESHOLD (G_GUINT64_CONSTANT (256) << 20)
/* kpagecount/kpageflags are read in chunks of this many frames where any frame in them is
 * needed: 8 KiB reads, the small end of what DESIGN.md measured as fastest, so that few
 * frames are read for nothing. */
#define SPARSE_CHUNK_FRAMES 1024

typedef struct _PgsScanProgress Progress;

typedef struct
{
  char          *root;
  PgsScanFlags   flags;
  GArray        *pids;            /* int, or NULL for every process */
  GStrv          names;           /* the name filter, or NULL */
  gint64         uid;             /* the user filter, or -1 */
  guint          page_size;
  guint          page_shift;

  gboolean       privileged;
  gboolean       no_pagemap_scan;
  PgsSwapState   swap_state;
  int            root_fd;
  int            count_fd;
  int            flags_fd;

  guint64       *pm_buf;
  GArray        *regions;
  GHashTable    *users;

  GPtrArray     *processes;
  GArray        *skipped;

  /* Phase 2: the kpage entries of the frames we need, sparse (pgs-frames.h). */
  PgsFrameTable *count_table;
  PgsFrameTable *flag_table;

  Progress      *progress;         /* NULL for a synchronous scan */
  PgsHelper     *helper;           /* opens root's files; NULL to open them directly */
} ScanJob;

/* A shared (not exclusively mapped) present page, waiting for its frame's map count. */
typedef struct
{
  guint64 pfn;       /* or, once its count is known and not 0, PENDING_COUNT | count */
  guint32 mapping;
  guint32 index;     /* its entry in the process's page arrays, or G_MAXUINT32 */
} Pending;

/* Frame numbers have 55 bits: the top bit marks a count already looked up, so that phase 3
 * need not look it up again. */
#define PENDING_COUNT (G_GUINT64_CONSTANT (1) << 63)

gboolean _pgs_scan_read_pages  (ScanJob       *job,
                                PgsProcess    *proc,
                                int            dirfd,
                                int            pagemap_fd,
                                gboolean       sparse,
                                GError       **error);
gboolean _pgs_scan_read_frames (ScanJob       *job,
                                GCancellable  *cancellable,
                                PgsPhysMap   **physmap_out,
                                GError       **error);

/* pgs-scan-process.c: NULL without an error for a process the filter leaves out. */
PgsProcess *_pgs_scan_process        (ScanJob    *job,
                                      int         pid,
                                      GError    **error);

/* pgs-scan-identity.c */
const char *_pgs_scan_lookup_user    (ScanJob    *job,
                                      guint       uid);
char       *_pgs_scan_read_cmdline   (int         dirfd);
/* NULL where there is none. */
char       *_pgs_scan_read_cgroup    (int         dirfd);
gboolean    _pgs_scan_name_matches   (ScanJob    *job,
                                      const char *name);
gboolean    _pgs_scan_comm_may_match (ScanJob    *job,
                                      int         pid);

/* pgs-scan-maps.c: appends the mappings of @buf to @proc and sums its VSS. */
gboolean    _pgs_scan_parse_maps     (ScanJob     *job,
                                      PgsProcess  *proc,
                                      const char  *buf,
                                      gsize        len,
                                      GError     **error);

G_END_DECLS
