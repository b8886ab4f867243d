/* pgs-zlib.c: zlib streams with GZlibCompressor's contract
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * GLib 2.74's gzlibcompressor.c and gzlibdecompressor.c, zlib format only: deflateInit or
 * inflateInit, one deflate (Z_FINISH at the end of the input, Z_SYNC_FLUSH on a flush) or
 * one inflate (Z_NO_FLUSH) a call, zlib's results mapped to the same GIOErrorEnum codes and
 * GLib's own translated messages (the glib20 domain).
 */

#include "config.h"

#include <zlib.h>

#include "pgs-zlib-private.h"

struct _PgsZlib
{
  z_stream z;
  gboolean deflating;
};

static const char *
glib_message (const char *msgid)
{
  return g_dgettext ("glib20", msgid);
}

PgsZlib *
_pgs_zlib_new_deflate (int level)
{
  PgsZlib *self = g_new0 (PgsZlib, 1);
  int res;

  self->deflating = TRUE;
  res = deflateInit (&self->z, level);
  if (res == Z_MEM_ERROR)
    g_error ("GZlibCompressor: Not enough memory for zlib use");
  if (res != Z_OK)
    g_warning ("unexpected zlib error: %s\n", self->z.msg);
  return self;
}

PgsZlib *
_pgs_zlib_new_inflate (void)
{
  PgsZlib *self = g_new0 (PgsZlib, 1);
  int res;

  res = inflateInit (&self->z);
  if (res == Z_MEM_ERROR)
    g_error ("GZlibDecompressor: Not enough memory for zlib use");
  if (res != Z_OK)
    g_warning ("unexpected zlib error: %s\n", self->z.msg);
  return self;
}

void
_pgs_zlib_free (PgsZlib *self)
{
  if (self == NULL)
    return;
  if (self->deflating)
    deflateEnd (&self->z);
  else
    inflateEnd (&self->z);
  g_free (self);
}

GConverterResult
_pgs_zlib_convert (PgsZlib          *self,
                   const void       *inbuf,
                   gsize             inbuf_size,
                   void             *outbuf,
                   gsize             outbuf_size,
                   GConverterFlags   flags,
                   gsize            *bytes_read,
                   gsize            *bytes_written,
                   GError          **error)
{
  int res;

  g_return_val_if_fail (outbuf_size > 0, G_CONVERTER_ERROR);

  *bytes_read = 0;
  *bytes_written = 0;
  self->z.next_in = (void *) inbuf;
  self->z.avail_in = inbuf_size;
  self->z.next_out = outbuf;
  self->z.avail_out = outbuf_size;

  if (self->deflating)
    {
      int flush = Z_NO_FLUSH;

      if (flags & G_CONVERTER_INPUT_AT_END)
        flush = Z_FINISH;
      else if (flags & G_CONVERTER_FLUSH)
        flush = Z_SYNC_FLUSH;
      res = deflate (&self->z, flush);
    }
  else
    {
      res = inflate (&self->z, Z_NO_FLUSH);
      if (res == Z_DATA_ERROR || res == Z_NEED_DICT)
        {
          g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                               glib_message ("Invalid compressed data"));
          return G_CONVERTER_ERROR;
        }
    }

  if (res == Z_MEM_ERROR)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED, glib_message ("Not enough memory"));
      return G_CONVERTER_ERROR;
    }
  if (res == Z_STREAM_ERROR)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, glib_message ("Internal error: %s"), self->z.msg);
      return G_CONVERTER_ERROR;
    }
  if (res == Z_BUF_ERROR)
    {
      if (flags & G_CONVERTER_FLUSH)
        return G_CONVERTER_FLUSHED;
      /* There is room for output: no progress means the stream wants more input. */
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_PARTIAL_INPUT, glib_message ("Need more input"));
      return G_CONVERTER_ERROR;
    }

  g_assert (res == Z_OK || res == Z_STREAM_END);
  *bytes_read = inbuf_size - self->z.avail_in;
  *bytes_written = outbuf_size - self->z.avail_out;
  if (res == Z_STREAM_END)
    return G_CONVERTER_FINISHED;
  return G_CONVERTER_CONVERTED;
}
