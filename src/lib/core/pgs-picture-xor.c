/* pgs-picture-xor.c: bytes given as the XOR of those that differ from the ones before
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A changed process of a recording's picture (format version 2), the rest of one but its
 * pages (version 3): pairs of varints (bytes the same, bytes that differ), each followed by
 * the differing bytes XOR the old ones.
 */

#include "config.h"

#include "pgs-picture-diff.h"

/* Pairs (same, differing) and the differing bytes XOR: a gap of fewer than 4 same bytes
 * between differing ones costs less inside the XOR than as a pair of its own. */
void
_pgs_xor_encode (const guint8 *old,
                 const guint8 *cur,
                 gsize         n,
                 GByteArray   *out)
{
  gsize i = 0;

  while (i < n)
    {
      gsize z = i, d;

      while (z < n && old[z] == cur[z])
        z++;
      d = z;
      while (d < n)
        {
          gsize gap = d;

          while (gap < n && gap - d < 4 && old[gap] == cur[gap])
            gap++;
          if (gap == n || gap - d == 4)
            break;
          d = gap + 1;
        }
      _pgs_put_varint (out, z - i);
      _pgs_put_varint (out, d - z);
      for (gsize k = z; k < d; k++)
        {
          guint8 x = old[k] ^ cur[k];

          g_byte_array_append (out, &x, 1);
        }
      i = d;
    }
}

gboolean
_pgs_xor_apply (guint8       *data,
                gsize         n,
                PgsVarReader *r)
{
  gsize i = 0;

  while (r->pos < r->end)
    {
      guint64 same = _pgs_get_varint (r);
      guint64 differ = _pgs_get_varint (r);

      if (r->bad || same > n - i || differ > n - i - same || differ > (guint64) (r->end - r->pos))
        return FALSE;
      i += same;
      for (guint64 k = 0; k < differ; k++)
        data[i++] ^= *r->pos++;
    }
  return TRUE;
}
