/* pgs-picture-diff.c: a recording's picture as a structural difference from the one before
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Both pictures are snapshot GVariants (pgs-snapshot-format.h, little endian). A block
 * difference of the two encodings saves little: page-cache flags flip all over the physical
 * map and split or join its runs, which moves every byte after them. This difference follows
 * the structure instead (varints; the recording format's version 2):
 *
 *   blob meta           the a{sv}, serialised (varint length, bytes)
 *   blob skipped        the a(iayiay)
 *   varint n            processes, then per process one of
 *     0, blob, varint at, varint n, n svarints
 *                         a new one, serialised, but for its pagemap entries (differences
 *                         of 8 bytes each, mostly small): taken out of the blob at @at and
 *                         given as signed varints
 *     1, svarint          the same bytes as the process before's at this index (the change
 *                         from the index after the last one used)
 *     2, svarint, varint size, blob
 *                         a pgs-delta.h difference from that process's bytes, @size long
 *     3, svarint, varint length, bytes
 *                         as many bytes as that process's, XOR its bytes: pairs of varints
 *                         (bytes the same, bytes that differ) each followed by the
 *                         differing bytes XOR the old ones; the pairs take @length bytes
 *   varint physmap      0: none; 1: then varint frames, blob meminfo (may), blob
 *                       zoneinfo (may), and the runs (pgs-picture-map.c)
 *
 * Processes are matched by PID and start time. A key picture is the difference from the
 * empty picture (_pgs_picture_empty).
 *
 * Version 3: the physical map first, then the processes as pgs-picture-proc.c gives them
 * (each page predicted; map counts from this physical map).
 */

#include "config.h"

#include <string.h>

#include "pgs-delta.h"
#include "pgs-error.h"
#include "pgs-picture-diff.h"
#include "pgs-recording-format.h"
#include "pgs-snapshot-format.h"

#define PROCESSES_TYPE "a" PGS_SNAPSHOT_PROCESS_TYPE

enum
{
  OP_NEW,
  OP_SAME,
  OP_CHANGED,
  OP_XOR,
};

static void
put_blob (GByteArray *out,
          GVariant   *v)
{
  gsize len = g_variant_get_size (v);

  _pgs_put_varint (out, len);
  if (len > 0)
    g_byte_array_append (out, g_variant_get_data (v), len);
}

/* Child 21 of a process: its pagemap entries. */
#define ENTRIES_CHILD 21

static void
put_new_process (GByteArray *out,
                 GVariant   *p)
{
  g_autoptr(GVariant) e = g_variant_get_child_value (p, ENTRIES_CHILD);
  const guint8 *data = g_variant_get_data (p);
  const guint8 *edata = g_variant_get_data (e);
  gsize size = g_variant_get_size (p), esize = g_variant_get_size (e), at = 0, n = 0;

  /* A serialised child lies inside its parent's bytes. */
  if (edata != NULL && data != NULL && edata >= data && esize % 8 == 0 &&
      (gsize) (edata - data) <= size && esize <= size - (gsize) (edata - data))
    {
      at = edata - data;
      n = esize / 8;
    }
  _pgs_put_varint (out, size - n * 8);
  g_byte_array_append (out, data, at);
  g_byte_array_append (out, data + at + n * 8, size - at - n * 8);
  _pgs_put_varint (out, at);
  _pgs_put_varint (out, n);
  for (gsize i = 0; i < n; i++)
    {
      guint64 v;

      memcpy (&v, data + at + i * 8, 8);
      _pgs_put_svarint (out, (gint64) GUINT64_FROM_LE (v));
    }
}

static GVariant *
get_new_process (PgsVarReader *r,
                 guint64      *budget)
{
  guint64 len = _pgs_get_varint (r), at, n;
  const guint8 *rest = r->pos;
  guint8 *data;
  GBytes *bytes;
  GVariant *v;

  if (r->bad || len > (guint64) (r->end - r->pos) || len > *budget)
    return NULL;
  r->pos += len;
  at = _pgs_get_varint (r);
  n = _pgs_get_count (r, 1);
  if (r->bad || at > len || n > (*budget - len) / 8)
    return NULL;
  data = g_try_malloc (MAX (len + n * 8, 1));
  if (data == NULL)
    return NULL;
  memcpy (data, rest, at);
  for (guint64 i = 0; i < n; i++)
    {
      guint64 e = GUINT64_TO_LE ((guint64) _pgs_get_svarint (r));

      memcpy (data + at + i * 8, &e, 8);
    }
  memcpy (data + at + n * 8, rest + at, len - at);
  if (r->bad)
    {
      g_free (data);
      return NULL;
    }
  *budget -= len + n * 8;
  bytes = g_bytes_new_take (data, len + n * 8);
  v = g_variant_ref_sink (g_variant_new_from_bytes (G_VARIANT_TYPE (PGS_SNAPSHOT_PROCESS_TYPE), bytes, FALSE));
  g_bytes_unref (bytes);
  return v;
}

static void
encode_processes (GVariant   *old,
                  GVariant   *cur,
                  GByteArray *out)
{
  g_autoptr(GHashTable) index = g_hash_table_new (g_int64_hash, g_int64_equal);
  gsize n_old = g_variant_n_children (old), n = g_variant_n_children (cur);
  g_autofree guint64 *keys = g_new (guint64, MAX (n_old, 1));
  gint64 next = 0;

  for (gsize i = 0; i < n_old; i++)
    {
      g_autoptr(GVariant) p = g_variant_get_child_value (old, i);

      keys[i] = _pgs_picture_process_key (p);
      g_hash_table_insert (index, &keys[i], GSIZE_TO_POINTER (i + 1));
    }
  _pgs_put_varint (out, n);
  for (gsize i = 0; i < n; i++)
    {
      g_autoptr(GVariant) p = g_variant_get_child_value (cur, i);
      guint64 key = _pgs_picture_process_key (p);
      gsize at = GPOINTER_TO_SIZE (g_hash_table_lookup (index, &key));
      g_autoptr(GVariant) was = NULL;

      if (at == 0)
        {
          _pgs_put_varint (out, OP_NEW);
          put_new_process (out, p);
          continue;
        }
      was = g_variant_get_child_value (old, at - 1);
      if (g_variant_get_size (was) == g_variant_get_size (p) &&
          memcmp (g_variant_get_data (was), g_variant_get_data (p), g_variant_get_size (p)) == 0)
        {
          _pgs_put_varint (out, OP_SAME);
          _pgs_put_svarint (out, (gint64) (at - 1) - next);
        }
      else
        {
          g_autoptr(GByteArray) delta = g_byte_array_new ();

          /* In place where the size did not change (figures, map counts and pagemap flags
           * that moved), else copies and literals. */
          if (g_variant_get_size (was) == g_variant_get_size (p))
            {
              _pgs_xor_encode (g_variant_get_data (was), g_variant_get_data (p), g_variant_get_size (p), delta);
              _pgs_put_varint (out, OP_XOR);
              _pgs_put_svarint (out, (gint64) (at - 1) - next);
              _pgs_put_varint (out, delta->len);
              g_byte_array_append (out, delta->data, delta->len);
              next = (gint64) at;
              continue;
            }
          pgs_delta_encode (g_variant_get_data (was), g_variant_get_size (was),
                            g_variant_get_data (p), g_variant_get_size (p), delta);
          _pgs_put_varint (out, OP_CHANGED);
          _pgs_put_svarint (out, (gint64) (at - 1) - next);
          _pgs_put_varint (out, g_variant_get_size (p));
          _pgs_put_varint (out, delta->len);
          g_byte_array_append (out, delta->data, delta->len);
        }
      next = (gint64) at;
    }
}

static void
encode_physmap (GVariant   *old_inner,
                GVariant   *inner,
                GByteArray *out)
{
  _pgs_put_varint (out, inner != NULL);
  if (inner != NULL)
    {
      g_autoptr(GVariant) meminfo = g_variant_get_child_value (inner, 4);
      g_autoptr(GVariant) zoneinfo = g_variant_get_child_value (inner, 5);
      guint64 frames;

      g_variant_get_child (inner, 0, "t", &frames);
      _pgs_put_varint (out, frames);
      put_blob (out, meminfo);
      put_blob (out, zoneinfo);
      _pgs_picture_runs_encode (old_inner, inner, out);
    }
}

void
_pgs_picture_diff_encode_version (GBytes     *before,
                                  GBytes     *picture,
                                  guint       version,
                                  GByteArray *out)
{
  _pgs_picture_diff_encode_cached (before, picture, version, NULL, out);
}

void
_pgs_picture_diff_encode_cached (GBytes           *before,
                                 GBytes           *picture,
                                 guint             version,
                                 PgsPictureProcs **cache,
                                 GByteArray       *out)
{
  g_autoptr(GVariant) old = g_variant_new_from_bytes (G_VARIANT_TYPE (PGS_SNAPSHOT_TYPE), before, TRUE);
  g_autoptr(GVariant) cur = g_variant_new_from_bytes (G_VARIANT_TYPE (PGS_SNAPSHOT_TYPE), picture, TRUE);
  g_autoptr(GVariant) meta = g_variant_get_child_value (cur, 0);
  g_autoptr(GVariant) skipped = g_variant_get_child_value (cur, 2);
  g_autoptr(GVariant) old_procs = g_variant_get_child_value (old, 1);
  g_autoptr(GVariant) procs = g_variant_get_child_value (cur, 1);
  g_autoptr(GVariant) old_map = g_variant_get_child_value (old, 3);
  g_autoptr(GVariant) map = g_variant_get_child_value (cur, 3);
  g_autoptr(GVariant) old_inner = g_variant_get_maybe (old_map);
  g_autoptr(GVariant) inner = g_variant_get_maybe (map);

  put_blob (out, meta);
  put_blob (out, skipped);
  /* From version 3 on the physical map comes first: the processes' counts follow from it. */
  if (version >= 3)
    {
      encode_physmap (old_inner, inner, out);
      _pgs_picture_procs_encode (old_procs, procs, inner, cache, out);
      return;
    }
  encode_processes (old_procs, procs, out);
  encode_physmap (old_inner, inner, out);
}

void
_pgs_picture_diff_encode (GBytes     *before,
                          GBytes     *picture,
                          GByteArray *out)
{
  _pgs_picture_diff_encode_version (before, picture, 2, out);
}

/* A blob of @type, copied out (the difference's buffer does not outlive the picture), or
 * NULL (and r->bad) when it runs past the end or past what is left of @budget. */
static GVariant *
get_blob (PgsVarReader       *r,
          const GVariantType *type,
          guint64            *budget)
{
  guint64 len = _pgs_get_varint (r);
  GBytes *bytes;
  GVariant *v;

  if (r->bad || len > (guint64) (r->end - r->pos) || len > *budget)
    {
      r->bad = TRUE;
      return NULL;
    }
  bytes = g_bytes_new (r->pos, len);
  r->pos += len;
  *budget -= len;
  v = g_variant_ref_sink (g_variant_new_from_bytes (type, bytes, FALSE));
  g_bytes_unref (bytes);
  return v;
}

static GVariant *
apply_processes (PgsVarReader  *r,
                 GVariant      *old,
                 guint64       *budget,
                 GError       **error)
{
  g_auto(GVariantBuilder) b = G_VARIANT_BUILDER_INIT (G_VARIANT_TYPE (PROCESSES_TYPE));
  gsize n_old = g_variant_n_children (old);
  guint64 n = _pgs_get_count (r, 2);
  gint64 next = 0;
  guint64 i;

  for (i = 0; i < n; i++)
    {
      guint64 op = _pgs_get_varint (r);
      g_autoptr(GVariant) was = NULL;
      gint64 at;

      if (r->bad)
        break;
      if (op == OP_NEW)
        {
          g_autoptr(GVariant) p = get_new_process (r, budget);

          if (p == NULL)
            {
              r->bad = TRUE;
              break;
            }
          g_variant_builder_add_value (&b, p);
          continue;
        }
      at = next + _pgs_get_svarint (r);
      if (r->bad || op > OP_XOR || at < 0 || (guint64) at >= n_old)
        {
          _pgs_picture_diff_bad (error, "a process that is not in the picture before");
          return NULL;
        }
      next = at + 1;
      was = g_variant_get_child_value (old, at);
      if (op == OP_SAME)
        {
          if (g_variant_get_size (was) > *budget)
            break;
          *budget -= g_variant_get_size (was);
          g_variant_builder_add_value (&b, was);
        }
      else if (op == OP_XOR)
        {
          gsize size = g_variant_get_size (was);
          guint64 len = _pgs_get_varint (r);
          PgsVarReader x;
          g_autoptr(GBytes) bytes = NULL;
          guint8 *data;

          if (r->bad || size > *budget || len > (guint64) (r->end - r->pos))
            break;
          data = g_try_malloc (MAX (size, 1));
          if (data == NULL)
            {
              g_set_error (error, PGS_ERROR, PGS_ERROR_FAILED,
                           "not enough memory for a process of %" G_GSIZE_FORMAT " bytes", size);
              return NULL;
            }
          memcpy (data, g_variant_get_data (was), size);
          bytes = g_bytes_new_take (data, size);
          x = (PgsVarReader) { r->pos, r->pos + len, FALSE };
          if (!_pgs_xor_apply (data, size, &x))
            break;
          r->pos += len;
          *budget -= size;
          g_variant_builder_add_value (&b, g_variant_new_from_bytes (G_VARIANT_TYPE (PGS_SNAPSHOT_PROCESS_TYPE),
                                                                     bytes, FALSE));
        }
      else
        {
          guint64 size = _pgs_get_varint (r);
          guint64 len = _pgs_get_varint (r);
          g_autofree guint8 *data = NULL;
          g_autoptr(GBytes) bytes = NULL;

          if (r->bad || size > *budget || len > (guint64) (r->end - r->pos))
            break;
          data = g_try_malloc (MAX (size, 1));
          if (data == NULL)
            {
              g_set_error (error, PGS_ERROR, PGS_ERROR_FAILED,
                           "not enough memory for a process of %" G_GUINT64_FORMAT " bytes", size);
              return NULL;
            }
          if (!pgs_delta_apply (g_variant_get_data (was), g_variant_get_size (was), r->pos, len, data, size, error))
            return NULL;
          r->pos += len;
          *budget -= size;
          bytes = g_bytes_new_take (g_steal_pointer (&data), size);
          g_variant_builder_add_value (&b, g_variant_new_from_bytes (G_VARIANT_TYPE (PGS_SNAPSHOT_PROCESS_TYPE),
                                                                     bytes, FALSE));
        }
    }
  if (r->bad || i < n)
    {
      _pgs_picture_diff_bad (error, "processes");
      return NULL;
    }
  return g_variant_ref_sink (g_variant_builder_end (&b));
}

/* The runs of the map before (@old, NULL for none) with the difference at @r applied: the
 * physical map's inner tuple, or NULL. */
static GVariant *
apply_physmap (PgsVarReader *r,
               GVariant     *old_inner,
               guint64      *budget,
               GError      **error)
{
  g_autoptr(GVariant) meminfo = NULL;
  g_autoptr(GVariant) zoneinfo = NULL;
  g_autofree guint32 *lengths = NULL;
  g_autofree guint64 *flags = NULL;
  g_autofree guint32 *counts = NULL;
  guint64 frames, n;

  frames = _pgs_get_varint (r);
  meminfo = get_blob (r, G_VARIANT_TYPE ("may"), budget);
  zoneinfo = get_blob (r, G_VARIANT_TYPE ("may"), budget);
  if (r->bad || meminfo == NULL || zoneinfo == NULL)
    {
      _pgs_picture_diff_bad (error, "physical map");
      return NULL;
    }
  if (!_pgs_picture_runs_apply (r, old_inner, budget, &n, &lengths, &flags, &counts, error))
    return NULL;
  return g_variant_ref_sink (g_variant_new ("(t@au@at@au@may@may)", frames,
                                            g_variant_new_fixed_array (G_VARIANT_TYPE_UINT32, lengths, n, 4),
                                            g_variant_new_fixed_array (G_VARIANT_TYPE_UINT64, flags, n, 8),
                                            g_variant_new_fixed_array (G_VARIANT_TYPE_UINT32, counts, n, 4),
                                            meminfo, zoneinfo));
}

GBytes *
_pgs_picture_diff_apply_version (GBytes        *before,
                                 const guint8  *diff,
                                 gsize          len,
                                 guint64        size,
                                 guint          version,
                                 GError       **error)
{
  return _pgs_picture_diff_apply_cached (before, diff, len, size, version, NULL, error);
}

GBytes *
_pgs_picture_diff_apply_cached (GBytes           *before,
                                const guint8     *diff,
                                gsize             len,
                                guint64           size,
                                guint             version,
                                PgsPictureProcs **cache,
                                GError          **error)
{
  PgsVarReader r = { diff, diff + len, FALSE };
  g_autoptr(GVariant) old = g_variant_new_from_bytes (G_VARIANT_TYPE (PGS_SNAPSHOT_TYPE), before, FALSE);
  g_autoptr(GVariant) old_procs = g_variant_get_child_value (old, 1);
  g_autoptr(GVariant) old_map = g_variant_get_child_value (old, 3);
  g_autoptr(GVariant) old_inner = g_variant_get_maybe (old_map);
  g_autoptr(GVariant) meta = NULL;
  g_autoptr(GVariant) skipped = NULL;
  g_autoptr(GVariant) procs = NULL;
  g_autoptr(GVariant) inner = NULL;
  g_autoptr(GVariant) picture = NULL;
  guint64 budget = size, has_map;

  meta = get_blob (&r, G_VARIANT_TYPE_VARDICT, &budget);
  skipped = get_blob (&r, G_VARIANT_TYPE ("a" PGS_SNAPSHOT_SKIPPED_TYPE), &budget);
  if (meta == NULL || skipped == NULL)
    {
      _pgs_picture_diff_bad (error, "metadata");
      return NULL;
    }
  if (version < 3)
    {
      procs = apply_processes (&r, old_procs, &budget, error);
      if (procs == NULL)
        return NULL;
    }
  has_map = _pgs_get_varint (&r);
  if (r.bad || has_map > 1)
    {
      _pgs_picture_diff_bad (error, "physical map");
      return NULL;
    }
  if (has_map)
    {
      inner = apply_physmap (&r, old_inner, &budget, error);
      if (inner == NULL)
        return NULL;
    }
  if (version >= 3)
    {
      procs = _pgs_picture_procs_apply (&r, old_procs, inner, cache, &budget, error);
      if (procs == NULL)
        return NULL;
    }
  if (r.pos != r.end)
    {
      _pgs_picture_diff_bad (error, "bytes left over");
      return NULL;
    }
  picture = g_variant_ref_sink (g_variant_new ("(@a{sv}@" PROCESSES_TYPE "@a" PGS_SNAPSHOT_SKIPPED_TYPE "@"
                                               PGS_SNAPSHOT_PHYSMAP_TYPE ")", meta, procs, skipped,
                                               g_variant_new_maybe (G_VARIANT_TYPE (PHYSMAP_INNER), inner)));
  if (g_variant_get_size (picture) != size)
    {
      g_set_error (error, PGS_ERROR, PGS_ERROR_BAD_SNAPSHOT,
                   "inconsistent picture: %" G_GSIZE_FORMAT " bytes where it says %" G_GUINT64_FORMAT,
                   g_variant_get_size (picture), size);
      return NULL;
    }
  return g_variant_get_data_as_bytes (picture);
}

GBytes *
_pgs_picture_diff_apply (GBytes        *before,
                         const guint8  *diff,
                         gsize          len,
                         guint64        size,
                         GError       **error)
{
  return _pgs_picture_diff_apply_version (before, diff, len, size, 2, error);
}

GBytes *
_pgs_picture_empty (void)
{
  g_autoptr(GVariant) v = g_variant_ref_sink (g_variant_new ("(@a{sv}@" PROCESSES_TYPE "@a" PGS_SNAPSHOT_SKIPPED_TYPE
                                                             "@" PGS_SNAPSHOT_PHYSMAP_TYPE ")",
                                                             g_variant_new_array (G_VARIANT_TYPE ("{sv}"), NULL, 0),
                                                             g_variant_new_array (G_VARIANT_TYPE (PGS_SNAPSHOT_PROCESS_TYPE), NULL, 0),
                                                             g_variant_new_array (G_VARIANT_TYPE (PGS_SNAPSHOT_SKIPPED_TYPE), NULL, 0),
                                                             g_variant_new_maybe (G_VARIANT_TYPE (PHYSMAP_INNER), NULL)));

  return g_variant_get_data_as_bytes (v);
}
