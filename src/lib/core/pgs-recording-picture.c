/* pgs-recording-picture.c: a recording's page-level pictures, from their differences
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A picture's payload: u64 size of the snapshot GVariant, u64 size of what the zlib stream
 * inflates to, then the stream: from version 2 on the structural difference
 * (pgs-picture-diff.c) from the picture before, or from the empty picture for a key one; in
 * version 1 the GVariant itself for a key picture, else a block difference (pgs-delta.h).
 */

#include "config.h"

#include <string.h>

#include <gio/gio.h>

#include "pgs-delta.h"
#include "pgs-error.h"
#include "pgs-format.h"
#include "pgs-recording-format.h"
#include "pgs-snapshot-format.h"
#include "pgs-zlib-private.h"

static guint64
le64 (const guint8 *p)
{
  guint64 v;

  memcpy (&v, p, 8);
  return GUINT64_FROM_LE (v);
}

static gboolean
inflate_exact (const guint8  *in,
               gsize          in_len,
               guint8        *out,
               gsize          out_len,
               GError       **error)
{
  g_autoptr(PgsZlib) z = _pgs_zlib_new_inflate ();
  gsize at = 0;

  for (;;)
    {
      g_autoptr(GError) local = NULL;
      gsize read = 0, written = 0;
      gsize in_chunk = MIN (in_len, (gsize) 1 << 30);
      gsize out_chunk = MIN (out_len + 1 - at, (gsize) 1 << 30);
      GConverterResult result;

      result = _pgs_zlib_convert (z, in, in_chunk, out + at, out_chunk,
                                 in_chunk == in_len ? G_CONVERTER_INPUT_AT_END : G_CONVERTER_NO_FLAGS,
                                 &read, &written, &local);
      if (result == G_CONVERTER_ERROR)
        {
          g_set_error (error, PGS_ERROR, PGS_ERROR_BAD_SNAPSHOT, "inconsistent picture: %s", local->message);
          return FALSE;
        }
      in += read;
      in_len -= read;
      at += written;
      if (at > out_len)
        break;
      if (result == G_CONVERTER_FINISHED)
        break;
      if (read == 0 && written == 0)
        break;
    }
  if (at != out_len || in_len != 0)
    {
      g_set_error (error, PGS_ERROR, PGS_ERROR_BAD_SNAPSHOT,
                   "inconsistent picture: it inflates to other than the %" G_GSIZE_FORMAT " bytes it says", out_len);
      return FALSE;
    }
  return TRUE;
}

GBytes *
_pgs_picture_apply (GBytes        *before,
                    const guint8  *payload,
                    gsize          len,
                    gboolean       key,
                    guint          version,
                    PgsPictureProcs **cache,
                    GError       **error)
{
  guint64 variant_size, raw_size;
  g_autofree guint8 *raw = NULL;
  g_autofree guint8 *variant = NULL;
  g_autoptr(GBytes) empty = NULL;
  const guint8 *old;
  gsize old_len;

  if (len < 16)
    {
      g_set_error (error, PGS_ERROR, PGS_ERROR_BAD_SNAPSHOT, "inconsistent picture: %" G_GSIZE_FORMAT " bytes", len);
      return NULL;
    }
  variant_size = le64 (payload);
  raw_size = le64 (payload + 8);
  /* Deflate packs at most 1032 to 1, and no snapshot is larger than the ceiling. */
  if (variant_size > PGS_SNAPSHOT_MAX_PAYLOAD || raw_size > PGS_SNAPSHOT_MAX_PAYLOAD ||
      raw_size / PGS_SNAPSHOT_MAX_RATIO > len - 16 || (key && version < 2 && raw_size != variant_size))
    {
      g_set_error (error, PGS_ERROR, PGS_ERROR_BAD_SNAPSHOT,
                   "inconsistent picture: sizes of %" G_GUINT64_FORMAT " and %" G_GUINT64_FORMAT
                   " bytes from %" G_GSIZE_FORMAT, variant_size, raw_size, len);
      return NULL;
    }
  if (!key && before == NULL)
    {
      g_set_error (error, PGS_ERROR, PGS_ERROR_BAD_SNAPSHOT,
                   "inconsistent picture: a difference from no picture");
      return NULL;
    }
  raw = g_try_malloc (raw_size + 1);
  if (raw == NULL)
    {
      g_set_error (error, PGS_ERROR, PGS_ERROR_FAILED, "not enough memory for a picture of %" G_GUINT64_FORMAT " bytes", raw_size);
      return NULL;
    }
  if (!inflate_exact (payload + 16, len - 16, raw, raw_size, error))
    return NULL;
  if (key && version < 2)
    return g_bytes_new_take (g_steal_pointer (&raw), raw_size);
  /* From version 2 on a key picture is the difference from the empty picture. */
  if (key)
    before = empty = _pgs_picture_empty ();

  /* A difference copies at most what the picture before holds, plus its own literals (a
   * structural one: a run of the physical map, 16 bytes of picture, from 3 bytes). */
  old = g_bytes_get_data (before, &old_len);
  if (variant_size > 4 * (guint64) old_len + (version >= 2 ? 8 * raw_size + 1024 : raw_size))
    {
      g_set_error (error, PGS_ERROR, PGS_ERROR_BAD_SNAPSHOT,
                   "inconsistent picture: %" G_GUINT64_FORMAT " bytes from a picture of %" G_GSIZE_FORMAT
                   " and %" G_GUINT64_FORMAT " bytes of difference", variant_size, old_len, raw_size);
      return NULL;
    }
  if (version >= 2)
    return _pgs_picture_diff_apply_cached (before, raw, raw_size, variant_size, version, cache, error);
  variant = g_try_malloc (variant_size + 1);
  if (variant == NULL)
    {
      g_set_error (error, PGS_ERROR, PGS_ERROR_FAILED, "not enough memory for a picture of %" G_GUINT64_FORMAT " bytes", variant_size);
      return NULL;
    }
  if (!pgs_delta_apply (old, old_len, raw, raw_size, variant, variant_size, error))
    return NULL;
  return g_bytes_new_take (g_steal_pointer (&variant), variant_size);
}
