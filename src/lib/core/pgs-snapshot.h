/* pgs-snapshot.h
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "pgs-types.h"

G_BEGIN_DECLS

#define PGS_TYPE_SNAPSHOT (pgs_snapshot_get_type ())

G_DECLARE_FINAL_TYPE (PgsSnapshot, pgs_snapshot, PGS, SNAPSHOT, GObject)

/* A process that was listed but could not be measured (it exited, or a file was
 * unreadable or malformed). */
typedef struct
{
  int     pid;
  GError *error;
} PgsSkipped;

gboolean        pgs_snapshot_is_privileged   (PgsSnapshot *self);
guint           pgs_snapshot_get_page_size   (PgsSnapshot *self);
gint64          pgs_snapshot_get_time        (PgsSnapshot *self);
guint           pgs_snapshot_get_n_skipped   (PgsSnapshot *self);
const PgsSkipped *pgs_snapshot_get_skipped   (PgsSnapshot *self,
                                              guint        index);
guint           pgs_snapshot_get_n_processes (PgsSnapshot *self);
PgsProcess     *pgs_snapshot_get_process     (PgsSnapshot *self,
                                              guint        index);
PgsProcess     *pgs_snapshot_lookup_pid      (PgsSnapshot *self,
                                              int          pid);
guint64         pgs_snapshot_get_total       (PgsSnapshot *self,
                                              PgsMetric    metric,
                                              guint       *n_unknown);
PgsPhysMap     *pgs_snapshot_get_physmap     (PgsSnapshot *self);

/* Where and by what the snapshot was taken; NULL where unknown. */
const char     *pgs_snapshot_get_hostname       (PgsSnapshot *self);
const char     *pgs_snapshot_get_kernel_release (PgsSnapshot *self);
const char     *pgs_snapshot_get_boot_id        (PgsSnapshot *self);
const char     *pgs_snapshot_get_version        (PgsSnapshot *self);
const char     *pgs_snapshot_get_meminfo_text   (PgsSnapshot *self);
const char     *pgs_snapshot_get_zoneinfo_text  (PgsSnapshot *self);
const char     *pgs_snapshot_get_vmstat_text    (PgsSnapshot *self);
/* The file it was loaded from; NULL for a live scan. */
GFile          *pgs_snapshot_get_file           (PgsSnapshot *self);
/* The local path of that file (or of a file read without GFile); NULL for a live scan. */
const char     *pgs_snapshot_get_path           (PgsSnapshot *self);

/* A process that maps a page frame, and where. */
typedef struct
{
  int     pid;
  guint64 address;
} PgsFrameUser;

/* The processes of the snapshot (scanned with PGS_SCAN_PAGES, as root) that map frame @pfn,
 * in PID then address order: an array of PgsFrameUser, empty when none. The index behind
 * it is built on first call. */
GArray         *pgs_snapshot_find_frame_users (PgsSnapshot *self,
                                               guint64      pfn);

typedef struct
{
  int         pid;
  const char *path;    /* the mapping's file; "" for anonymous memory (the snapshot's) */
  guint64     pages;   /* its pages at the frames asked, each process counting its own */
} PgsFrameHolding;

/* What frames [@first_pfn, @end_pfn) hold: the pages each process maps there, by process
 * and mapped file, in PID then path order (an array of PgsFrameHolding). A frame mapped by
 * three processes counts for each. Built on the index of pgs_snapshot_find_frame_users. */
GArray         *pgs_snapshot_sum_frame_range  (PgsSnapshot *self,
                                               guint64      first_pfn,
                                               guint64      end_pfn);

G_END_DECLS
