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

G_END_DECLS
