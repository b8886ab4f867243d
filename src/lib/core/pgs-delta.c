/* pgs-delta.c: one buffer as a difference from another
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "pgs-delta.h"
#include "pgs-error.h"
#include "pgs-recording-format.h"

#define BLOCK 32
/* Odd multiplier of the rolling hash (polynomial, modulo 2^32). */
#define MULT  0x01000193u

static guint32
hash_block (const guint8 *p)
{
  guint32 h = 0;

  for (guint i = 0; i < BLOCK; i++)
    h = h * MULT + p[i];
  return h;
}

static void
flush_literal (GByteArray   *out,
               const guint8 *from,
               gsize         len)
{
  if (len == 0)
    return;
  _pgs_put_varint (out, (guint64) len << 1);
  g_byte_array_append (out, from, len);
}

void
pgs_delta_encode (const guint8 *old,
                  gsize         old_len,
                  const guint8 *new_data,
                  gsize         new_len,
                  GByteArray   *out)
{
  gsize n_blocks = old_len / BLOCK;
  guint bits = 10;
  g_autofree guint32 *table = NULL;
  guint32 mask, pow = 1, h = 0;
  gsize lit = 0, pos = 0, last_copy_end = 0;

  while (bits < 28 && ((gsize) 1 << bits) < n_blocks * 2)
    bits++;
  mask = (1u << bits) - 1;
  /* Entry: block number + 1, 0 empty. The first block of a hash wins: on equal blocks
   * (runs of zeros) any is as good. */
  table = g_new0 (guint32, (gsize) 1 << bits);
  for (gsize b = 0; b < n_blocks && b < G_MAXUINT32 - 1; b++)
    {
      guint32 slot = (hash_block (old + b * BLOCK) * 2654435761u) >> (32 - bits) & mask;

      if (table[slot] == 0)
        table[slot] = (guint32) b + 1;
    }
  for (guint i = 0; i < BLOCK - 1; i++)
    pow *= MULT;

  if (new_len >= BLOCK)
    h = hash_block (new_data);
  while (pos + BLOCK <= new_len)
    {
      guint32 slot = (h * 2654435761u) >> (32 - bits) & mask;
      guint32 entry = n_blocks > 0 ? table[slot] : 0;

      if (entry != 0)
        {
          gsize src = (gsize) (entry - 1) * BLOCK;

          if (memcmp (old + src, new_data + pos, BLOCK) == 0)
            {
              gsize len = BLOCK, back = 0;

              /* Grow the match both ways. */
              while (src + len < old_len && pos + len < new_len && old[src + len] == new_data[pos + len])
                len++;
              while (back < src && back < pos - lit && old[src - back - 1] == new_data[pos - back - 1])
                back++;
              flush_literal (out, new_data + lit, pos - back - lit);
              _pgs_put_varint (out, ((guint64) (len + back) << 1) | 1);
              _pgs_put_svarint (out, (gint64) (src - back) - (gint64) last_copy_end);
              last_copy_end = src + len;
              pos += len;
              lit = pos;
              if (pos + BLOCK <= new_len)
                h = hash_block (new_data + pos);
              continue;
            }
        }
      /* Roll one byte on. */
      if (pos + BLOCK < new_len)
        h = (h - new_data[pos] * pow) * MULT + new_data[pos + BLOCK];
      pos++;
    }
  flush_literal (out, new_data + lit, new_len - lit);
}

gboolean
pgs_delta_apply (const guint8  *old,
                 gsize          old_len,
                 const guint8  *delta,
                 gsize          delta_len,
                 guint8        *out,
                 gsize          out_len,
                 GError       **error)
{
  PgsVarReader r = { delta, delta + delta_len, FALSE };
  gsize at = 0, last_copy_end = 0;

  while (r.pos < r.end)
    {
      guint64 op = _pgs_get_varint (&r);
      guint64 len = op >> 1;

      if (r.bad || len > out_len - at)
        goto bad;
      if (op & 1)
        {
          gint64 change = _pgs_get_svarint (&r);
          gint64 src = (gint64) last_copy_end + change;

          if (r.bad || src < 0 || (guint64) src > old_len || len > old_len - (guint64) src)
            goto bad;
          memcpy (out + at, old + src, len);
          last_copy_end = (gsize) src + len;
        }
      else
        {
          if (len > (guint64) (r.end - r.pos))
            goto bad;
          memcpy (out + at, r.pos, len);
          r.pos += len;
        }
      at += len;
    }
  if (at == out_len)
    return TRUE;

bad:
  g_set_error (error, PGS_ERROR, PGS_ERROR_BAD_SNAPSHOT,
               "inconsistent picture: its difference from the picture before does not add up");
  return FALSE;
}
