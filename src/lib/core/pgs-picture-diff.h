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

/* XOR pairs (version 2's changed process, version 3's changed rest of one): pairs of
 * varints (bytes the same, bytes that differ), each followed by the differing bytes XOR
 * the old ones. */
void     _pgs_xor_encode          (const guint8  *old,
                                   const guint8  *cur,
                                   gsize          n,
                                   GByteArray    *out);
gboolean _pgs_xor_apply           (guint8        *data,
                                   gsize          n,
                                   PgsVarReader  *r);

/* Version 3's processes (pgs-picture-proc.c): @old and @cur the processes' arrays, @inner
 * the current picture's physical map tuple (NULL: none), which predicts map counts.
 * @cache (may be NULL): in, what the last call made of the processes it wrote or read
 * (used when they are @old's exactly, else ignored); out, the same for @cur. */
void      _pgs_picture_procs_encode (GVariant         *old,
                                     GVariant         *cur,
                                     GVariant         *inner,
                                     PgsPictureProcs **cache,
                                     GByteArray       *out);
/* The reverse: the processes' array, or NULL with a message; every process's size is
 * taken from @budget before it is allocated. */
GVariant *_pgs_picture_procs_apply  (PgsVarReader     *r,
                                     GVariant         *old,
                                     GVariant         *inner,
                                     PgsPictureProcs **cache,
                                     guint64          *budget,
                                     GError          **error);

/* A process's key in a picture: its start time and PID (pgs-picture-proc.c). */
guint64   _pgs_picture_process_key  (GVariant         *process);
/* Sets @error: a difference that does not add up to a picture (@what of it); FALSE
 * (pgs-picture-proc.c). */
gboolean  _pgs_picture_diff_bad     (GError          **error,
                                     const char       *what);

G_END_DECLS
