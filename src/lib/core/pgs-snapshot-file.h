/* pgs-snapshot-file.h: saving a snapshot to a file and loading it back
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "pgs-types.h"

G_BEGIN_DECLS

#define PGS_SNAPSHOT_FILE_EXTENSION ".pgsnap"
#define PGS_SNAPSHOT_MIME_TYPE      "application/x-pagescope-snapshot"

/* Writes @snapshot to @file atomically (a temporary file renamed over it). */
gboolean     pgs_snapshot_save        (PgsSnapshot          *snapshot,
                                       GFile                *file,
                                       GCancellable         *cancellable,
                                       GError              **error);
void         pgs_snapshot_save_async  (PgsSnapshot          *snapshot,
                                       GFile                *file,
                                       GCancellable         *cancellable,
                                       GAsyncReadyCallback   callback,
                                       gpointer              user_data);
gboolean     pgs_snapshot_save_finish (PgsSnapshot          *snapshot,
                                       GAsyncResult         *result,
                                       GError              **error);

/* Reads a snapshot file back into the PgsSnapshot the scan produced. A file that is not a
 * snapshot, cut short, damaged or from a newer Pagescope is refused (PGS_ERROR_NOT_A_SNAPSHOT,
 * _SNAPSHOT_TRUNCATED, _SNAPSHOT_DAMAGED, _SNAPSHOT_NEWER_VERSION; PGS_ERROR_BAD_SNAPSHOT for
 * contents that do not add up), never half read. */
PgsSnapshot *pgs_snapshot_load        (GFile                *file,
                                       GCancellable         *cancellable,
                                       GError              **error);
void         pgs_snapshot_load_async  (GFile                *file,
                                       GCancellable         *cancellable,
                                       GAsyncReadyCallback   callback,
                                       gpointer              user_data);
PgsSnapshot *pgs_snapshot_load_finish (GAsyncResult         *result,
                                       GError              **error);

/* The same for the local file @path, without GFile (pagescope-cli: pgs-local-file.h), with
 * the errors GFile gives for it. The snapshot has a path and no file. */
gboolean     pgs_snapshot_save_path   (PgsSnapshot          *snapshot,
                                       const char           *path,
                                       GError              **error);
PgsSnapshot *pgs_snapshot_load_path   (const char           *path,
                                       GError              **error);

G_END_DECLS
