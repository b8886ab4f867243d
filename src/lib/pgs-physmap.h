/* pgs-physmap.h: the map count and flags of every page frame
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "pgs-types.h"

G_BEGIN_DECLS

#define PGS_TYPE_PHYSMAP (pgs_physmap_get_type ())

GType          pgs_physmap_get_type     (void) G_GNUC_CONST;
PgsPhysMap    *pgs_physmap_ref          (PgsPhysMap    *self);
void           pgs_physmap_unref        (PgsPhysMap    *self);

/* Reads ROOT/kpagecount and ROOT/kpageflags whole. */
PgsPhysMap    *pgs_physmap_read         (const char    *procfs_root,
                                         GCancellable  *cancellable,
                                         GError       **error);
PgsPhysMap    *pgs_physmap_read_fds     (int            count_fd,
                                         int            flags_fd,
                                         GCancellable  *cancellable,
                                         GError       **error);
/* Takes ownership of both arrays (g_free), each @n_frames long. */
PgsPhysMap    *pgs_physmap_new_take     (guint32       *counts,
                                         guint64       *flags,
                                         guint64        n_frames);

guint64        pgs_physmap_get_n_frames (PgsPhysMap    *self);
const guint32 *pgs_physmap_get_counts   (PgsPhysMap    *self);
const guint64 *pgs_physmap_get_flags    (PgsPhysMap    *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PgsPhysMap, pgs_physmap_unref)

G_END_DECLS
