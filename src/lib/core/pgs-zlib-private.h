/* pgs-zlib-private.h: zlib streams with GZlibCompressor's contract, without GIO's file code
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * GZlibCompressor carries a GFileInfo (the gzip header's name and time), and GFileInfo
 * brings GIcon, GFile and GIO's local files: linking it drags libmount, libselinux and
 * libblkid into pagescope-cli (issue 22). _pgs_zlib_convert () behaves as
 * g_converter_convert () on a GZlibCompressor or GZlibDecompressor in the zlib format: the
 * same calls into zlib, hence the same bytes, the same results and the same messages.
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

typedef struct _PgsZlib PgsZlib;

PgsZlib          *_pgs_zlib_new_deflate (int              level);
PgsZlib          *_pgs_zlib_new_inflate (void);
void              _pgs_zlib_free        (PgsZlib         *self);
GConverterResult  _pgs_zlib_convert     (PgsZlib         *self,
                                         const void      *inbuf,
                                         gsize            inbuf_size,
                                         void            *outbuf,
                                         gsize            outbuf_size,
                                         GConverterFlags  flags,
                                         gsize           *bytes_read,
                                         gsize           *bytes_written,
                                         GError         **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PgsZlib, _pgs_zlib_free)

G_END_DECLS
