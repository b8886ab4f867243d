/* pgs-test-snapshot.h: snapshot files written by hand, for tests of the reader
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A hostile writer does not go through pgs_snapshot_save(): these build the GVariant a
 * field at a time (any value, consistent or not) and wrap it in the 64-byte header with
 * its own SHA-256, as pgs-snapshot-format.h describes the layout, so that the reader's
 * checks are what stands between the file and the views.
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  guint64     start, end, offset, inode;
  guint32     dev_major, dev_minor;
  const char *perms;           /* NULL: "rw-p" */
  const char *path;            /* NULL: "" (anonymous) */
  guint64     rss, pss_fp, uss, swap;
  guint32     known;
  guint64     swap_pss;
} PgsTestMapping;

typedef struct
{
  guint64 start;
  guint32 n_pages, first, mapping, flags;
} PgsTestRun;

typedef struct
{
  int                   pid, ppid;
  guint32               uid;
  guint64               start_time;
  const char           *user, *name, *cmdline, *unknown_reason, *cgroup;  /* NULL: absent */
  guint64               vss, rss, pss_fp, uss, swap, swap_pss;
  guint32               known, source, page_size;
  gboolean              pfn_hidden, has_pages, has_counts;
  const PgsTestMapping *mappings;
  guint                 n_mappings;
  const PgsTestRun     *runs;
  guint                 n_runs;
  const guint64        *deltas;
  gsize                 n_deltas;
  const guint32        *counts;
  gsize                 n_counts;
} PgsTestProcess;

/* The uncompressed GVariant (little endian) of a snapshot with page size 4096, taken as
 * root at 2023-11-14 22:13:20 UTC, of @procs in the order given and, when @physmap_n_frames
 * is not 0, a physical map of @n_runs runs (no kernel counters). */
GBytes *pgs_test_snapshot_payload (const PgsTestProcess *procs,
                                   guint                 n_procs,
                                   guint64               physmap_n_frames,
                                   const guint32        *run_lengths,
                                   const guint64        *run_flags,
                                   const guint32        *run_counts,
                                   gsize                 n_runs);

/* A whole file: @payload compressed (zlib, level 1) behind a header that declares its size
 * and a checksum that holds. */
GBytes *pgs_test_snapshot_file     (GBytes               *payload);

/* A whole file around an already compressed stream, declaring @plain_size uncompressed. */
GBytes *pgs_test_snapshot_file_raw (const guint8         *compressed,
                                    gsize                 len,
                                    guint64               plain_size);

/* A zlib stream of @n_zeros zero bytes (a whole number of MiB), built from one compressed
 * MiB repeated, in about n_zeros / 1000 bytes and without compressing them all. */
GBytes *pgs_test_zlib_zeros        (guint64               n_zeros);

G_END_DECLS
