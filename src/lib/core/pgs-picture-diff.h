/* pgs-picture-diff.h: the physical map's runs in a picture's difference from the one before
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "pgs-recording-format.h"

G_BEGIN_DECLS

/* The physical map's tuple inside a snapshot GVariant's maybe. */
#define PHYSMAP_INNER "(tauataumaymay)"

/* The runs of @inner (a PHYSMAP_INNER) as a difference from those of @old_inner (NULL:
 * none), appended to @out. */
void     _pgs_picture_runs_encode (GVariant      *old_inner,
                                   GVariant      *inner,
                                   GByteArray    *out);
/* The reverse, from @r: the three arrays (little endian, @n each), taking 16 bytes a run
 * from @budget; FALSE with a message (and @r bad) for runs that do not add up. */
gboolean _pgs_picture_runs_apply  (PgsVarReader  *r,
                                   GVariant      *old_inner,
                                   guint64       *budget,
                                   guint64       *n,
                                   guint32      **lengths,
                                   guint64      **flags,
                                   guint32      **counts,
                                   GError       **error);

G_END_DECLS
