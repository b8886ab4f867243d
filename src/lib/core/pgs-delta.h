/* pgs-delta.h: one buffer as a difference from another, for a recording's pictures
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Two pictures a minute apart are mostly the same bytes, at shifted places (a process that
 * grew moves everything after it). The difference is a list of operations, varints: (length
 * << 1 | 1, signed change of the source offset from the end of the copy before) copies
 * bytes from the old buffer, (length << 1) takes that many literal bytes that follow.
 * Matches are found with a rolling hash over 32-byte windows of the new buffer looked up in
 * a table of the old buffer's aligned 32-byte blocks, as rsync and xdelta do.
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The difference that turns @old into @new_data, appended to @out. */
void     pgs_delta_encode (const guint8  *old,
                           gsize          old_len,
                           const guint8  *new_data,
                           gsize          new_len,
                           GByteArray    *out);
/* Applies @delta to @old into @out, which must come out exactly @out_len bytes long. FALSE,
 * with a message, for a difference that reaches outside @old or does not fill @out. */
gboolean pgs_delta_apply  (const guint8  *old,
                           gsize          old_len,
                           const guint8  *delta,
                           gsize          delta_len,
                           guint8        *out,
                           gsize          out_len,
                           GError       **error);

G_END_DECLS
