/* pgs-snapshot-private.h
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "pgs-snapshot.h"

G_BEGIN_DECLS

PgsSnapshot *_pgs_snapshot_new (GPtrArray  *processes,
                                GArray     *skipped,
                                gboolean    privileged,
                                guint       page_size,
                                PgsPhysMap *physmap);

/* Host name, kernel release, boot id and meminfo from the procfs directory @root_fd (any
 * that is missing stays NULL), and this Pagescope's version. */
void         _pgs_snapshot_read_host_info (PgsSnapshot *self,
                                           int          root_fd);
/* For the snapshot file reader: the metadata a live scan takes from the machine. Strings
 * are copied; any may be NULL. */
void         _pgs_snapshot_set_info       (PgsSnapshot *self,
                                           const char  *hostname,
                                           const char  *kernel_release,
                                           const char  *boot_id,
                                           const char  *version,
                                           const char  *meminfo_text,
                                           gint64       time);
/* The ledger's counters beyond meminfo (pgs-ledger.c); either may be NULL. */
void         _pgs_snapshot_set_counters   (PgsSnapshot *self,
                                           const char  *zoneinfo_text,
                                           const char  *vmstat_text);
void         _pgs_snapshot_set_file       (PgsSnapshot *self,
                                           GFile       *file);
void         _pgs_snapshot_set_path       (PgsSnapshot *self,
                                           const char  *path);
GPtrArray   *_pgs_snapshot_get_processes  (PgsSnapshot *self);

G_END_DECLS
