/* pgs-picture-proc.c: a picture's processes as predictions of their pages (version 3)
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Version 2 gave a process that changed as the XOR of all its bytes, and a new one with its
 * pagemap entries whole. Both cost most of a picture: a page faulted in moves every entry
 * after it (the XOR then differs everywhere), and the processes that come and go between
 * two pictures map the same library pages as the others, whose frames are already known.
 * Here a process is its bytes without its pagemap entries and map counts (its "rest", given
 * as before: the same, XOR'd, a block difference or whole), and each page's entry and count
 * a residual from a prediction both sides can make:
 *
 *   entry  1. the entry of the same process (PID and start time) at the same address in the
 *             picture before;
 *          2. else, for a page of a file mapping, the last entry seen for that file page
 *             (a 64-bit hash of device, inode and offset): the picture before's processes,
 *             then this picture's in order (a page-cache frame is the same in every
 *             process that maps it);
 *          3. else the entry before plus one (consecutive frames).
 *          Stored as the XOR of its top 9 bits (present, swap, file, exclusive, soft-dirty…)
 *          with the prediction's, a varint, and the signed difference of the low 55 bits.
 *   count  1 for a present exclusive page, else the physical map's count of the frame (this
 *          picture's: the physical map comes first), else unknown (2^32 − 1); stored as
 *          the signed difference.
 *
 * Layout: varint n processes, four streams (each a varint length and its bytes): procs,
 * entry flags, entry differences, count differences; in procs, per process:
 *   varint op   0 new, 1 rest the same, 2 rest XOR'd, 3 rest a block difference (pgs-delta.h),
 *               4 the same bytes as before (nothing follows but the index; its pages are
 *               seen all the same)
 *   op > 0      svarint: index in the picture before, from the index after the last used
 *   op 0        varint length, the rest;  op 2: varint length, XOR pairs (as version 2)
 *   op 3        varint size of the rest, varint length, the difference
 *   varint at   where the entries lie in the process's bytes, varint n pages,
 *   varint at   where the counts lie in the rest, varint n counts (0 or n pages)
 * then per page its entry's residuals, and per count its residual, in the other streams.
 */

#include "config.h"

#include <string.h>

#include "pgs-delta.h"
#include "pgs-error.h"
#include "pgs-pagemap.h"
#include "pgs-picture-diff.h"
#include "pgs-picture-model-private.h"
#include "pgs-snapshot-format.h"

enum
{
  OP_NEW,
  OP_SAME,
  OP_XOR,
  OP_DELTA,
  OP_IDENTICAL,
};

enum
{
  S_PROCS,
  S_FLAGS,
  S_LOWS,
  S_COUNTS,
  N_STREAMS
};

/* Here, below pgs-picture-diff.c, which keys its processes the same way. */
guint64
_pgs_picture_process_key (GVariant *process)
{
  gint32 pid;
  guint64 start;

  g_variant_get_child (process, 0, "i", &pid);
  g_variant_get_child (process, 3, "t", &start);
  /* Start times are clock ticks after boot: far below 2^40 for centuries. */
  return start << 23 ^ (guint32) pid;
}

void
_pgs_picture_procs_encode (GVariant         *old,
                           GVariant         *cur,
                           GVariant         *inner,
                           PgsPictureProcs **cache,
                           GByteArray       *out)
{
  g_autoptr(GHashTable) index = g_hash_table_new (g_int64_hash, g_int64_equal);
  gsize n_old = g_variant_n_children (old), n = g_variant_n_children (cur);
  g_autofree guint64 *keys = g_new (guint64, MAX (n_old, 1));
  OldProc *olds = g_new0 (OldProc, MAX (n_old, 1));
  Dict dict = { g_new0 (Slot, 1024), 1023, 0 };
  Frames frames;
  GByteArray *s[N_STREAMS];
  PgsPictureProcs *made = g_new0 (PgsPictureProcs, 1);
  gint64 next = 0;

  _pgs_pic_frames_init (&frames, inner);
  for (guint k = 0; k < N_STREAMS; k++)
    s[k] = g_byte_array_new ();
  made->procs = g_new0 (OldProc, MAX (n, 1));
  made->n = n;
  _pgs_pic_olds_init (old, olds, cache != NULL ? *cache : NULL, &dict);
  for (gsize i = 0; i < n_old; i++)
    {
      g_autoptr(GVariant) p = g_variant_get_child_value (old, i);

      keys[i] = _pgs_picture_process_key (p);
      g_hash_table_insert (index, &keys[i], GSIZE_TO_POINTER (i + 1));
    }
  for (gsize i = 0; i < n; i++)
    {
      g_autoptr(GVariant) p = g_variant_get_child_value (cur, i);
      guint64 key = _pgs_picture_process_key (p);
      gsize at = GPOINTER_TO_SIZE (g_hash_table_lookup (index, &key));
      g_autoptr(GByteArray) rest = NULL;
      g_autofree PageAt *pages = NULL;
      g_autofree guint64 *entries = NULL;
      Predictor pr = { at > 0 ? &olds[at - 1] : NULL, 0, 0, &dict };
      Layout l;

      if (at > 0 && g_variant_get_size (olds[at - 1].whole) == g_variant_get_size (p) &&
          memcmp (g_variant_get_data (olds[at - 1].whole), g_variant_get_data (p), g_variant_get_size (p)) == 0)
        {
          /* Nothing to say but which; its pages are seen again all the same. */
          _pgs_put_varint (s[S_PROCS], OP_IDENTICAL);
          _pgs_put_svarint (s[S_PROCS], (gint64) (at - 1) - next);
          next = (gint64) at;
          _pgs_pic_dict_add (&dict, olds[at - 1].at, olds[at - 1].entries, olds[at - 1].n);
          _pgs_pic_old_copy (&made->procs[i], &olds[at - 1]);
          continue;
        }
      _pgs_pic_locate (p, &l);
      rest = _pgs_pic_rest_of (&l);
      if (at == 0)
        {
          _pgs_put_varint (s[S_PROCS], OP_NEW);
          _pgs_put_varint (s[S_PROCS], rest->len);
          g_byte_array_append (s[S_PROCS], rest->data, rest->len);
        }
      else
        {
          GByteArray *was = olds[at - 1].rest;
          g_autoptr(GByteArray) delta = g_byte_array_new ();
          guint op = was->len != rest->len ? OP_DELTA
                     : memcmp (was->data, rest->data, rest->len) == 0 ? OP_SAME : OP_XOR;

          _pgs_put_varint (s[S_PROCS], op);
          _pgs_put_svarint (s[S_PROCS], (gint64) (at - 1) - next);
          next = (gint64) at;
          if (op == OP_XOR)
            {
              _pgs_xor_encode (was->data, rest->data, rest->len, delta);
              _pgs_put_varint (s[S_PROCS], delta->len);
              g_byte_array_append (s[S_PROCS], delta->data, delta->len);
            }
          else if (op == OP_DELTA)
            {
              pgs_delta_encode (was->data, was->len, rest->data, rest->len, delta);
              _pgs_put_varint (s[S_PROCS], rest->len);
              _pgs_put_varint (s[S_PROCS], delta->len);
              g_byte_array_append (s[S_PROCS], delta->data, delta->len);
            }
        }
      _pgs_put_varint (s[S_PROCS], l.at_e);
      _pgs_put_varint (s[S_PROCS], l.n);
      _pgs_put_varint (s[S_PROCS], l.at_c - l.n * 8);
      _pgs_put_varint (s[S_PROCS], l.nc);

      pages = _pgs_pic_pages_of (p, l.n);
      entries = _pgs_pic_entries_of (&l);

      for (gsize k = 0; k < l.n; k++)
        {
          guint64 guess = predict (&pr, &pages[k]), e = entries[k];

          _pgs_put_varint (s[S_FLAGS], (e ^ guess) >> TOP_SHIFT);
          _pgs_put_svarint (s[S_LOWS], (gint64) (e & LOW_MASK) - (gint64) (guess & LOW_MASK));
          pr.prev = e;
        }
      for (gsize k = 0; k < l.nc; k++)
        {
          guint32 c;

          memcpy (&c, l.data + l.at_c + k * 4, 4);
          _pgs_put_svarint (s[S_COUNTS], (gint64) GUINT32_FROM_LE (c) - (gint64) predict_count (&frames, entries[k]));
        }
      _pgs_pic_dict_add (&dict, pages, entries, l.n);
      made->procs[i] = (OldProc) { g_steal_pointer (&pages), g_steal_pointer (&entries), l.n,
                                   g_byte_array_ref (rest), g_variant_ref (p) };
    }
  if (cache != NULL)
    {
      _pgs_picture_procs_free (*cache);
      *cache = made;
    }
  else
    _pgs_picture_procs_free (made);
  _pgs_put_varint (out, n);
  for (guint k = 0; k < N_STREAMS; k++)
    {
      _pgs_put_varint (out, s[k]->len);
      g_byte_array_append (out, s[k]->data, s[k]->len);
      g_byte_array_unref (s[k]);
    }
  _pgs_pic_olds_clear (olds, n_old);
  g_free (dict.slots);
  g_free (frames.starts);
  g_free (frames.block);
}

/* Here, below pgs-picture-diff.c, which reads the processes through this file. */
gboolean
_pgs_picture_diff_bad (GError    **error,
                       const char *what)
{
  g_set_error (error, PGS_ERROR, PGS_ERROR_BAD_SNAPSHOT,
               "inconsistent picture: its difference from the picture before does not add up (%s)", what);
  return FALSE;
}

/* One process from the streams: its bytes, or NULL (with @error set when it is not just
 * a matter of the streams not adding up). */
static GBytes *
apply_process (PgsVarReader  *st,
               OldProc       *olds,
               gsize          n_old,
               gint64        *next,
               Dict          *dict,
               Frames        *frames,
               guint64       *budget,
               OldProc       *made,
               GError       **error)
{
  PgsVarReader *r = &st[S_PROCS];
  guint64 op = _pgs_get_varint (r), at_e, n, at_c, nc, size;
  g_autoptr(GByteArray) rest = g_byte_array_new ();
  g_autofree guint8 *data = NULL;
  g_autofree PageAt *pages = NULL;
  g_autofree guint64 *entries = NULL;
  const OldProc *old = NULL;
  Predictor pr = { NULL, 0, 0, dict };
  guint64 prev_delta = 0;

  if (r->bad || op > OP_IDENTICAL)
    return NULL;
  if (op == OP_NEW)
    {
      guint64 len = _pgs_get_varint (r);

      if (r->bad || len > (guint64) (r->end - r->pos) || len > *budget)
        return NULL;
      g_byte_array_append (rest, r->pos, len);
      r->pos += len;
    }
  else
    {
      gint64 i = *next + _pgs_get_svarint (r);

      if (r->bad || i < 0 || (guint64) i >= n_old)
        return NULL;
      *next = i + 1;
      old = pr.old = &olds[i];
      if (op == OP_IDENTICAL)
        {
          if (g_variant_get_size (old->whole) > *budget)
            return NULL;
          *budget -= g_variant_get_size (old->whole);
          _pgs_pic_dict_add (dict, old->at, old->entries, old->n);
          _pgs_pic_old_copy (made, old);
          return g_variant_get_data_as_bytes (old->whole);
        }
      if (op == OP_SAME || op == OP_XOR)
        {
          if (old->rest->len > *budget)
            return NULL;
          g_byte_array_append (rest, old->rest->data, old->rest->len);
        }
      if (op == OP_XOR)
        {
          guint64 len = _pgs_get_varint (r);
          PgsVarReader x;

          if (r->bad || len > (guint64) (r->end - r->pos))
            return NULL;
          x = (PgsVarReader) { r->pos, r->pos + len, FALSE };
          if (!_pgs_xor_apply (rest->data, rest->len, &x))
            return NULL;
          r->pos += len;
        }
      else if (op == OP_DELTA)
        {
          guint64 rsize = _pgs_get_varint (r), len = _pgs_get_varint (r);

          if (r->bad || rsize > *budget || len > (guint64) (r->end - r->pos))
            return NULL;
          g_byte_array_set_size (rest, rsize);
          if (!pgs_delta_apply (old->rest->data, old->rest->len, r->pos, len, rest->data, rsize, NULL))
            return NULL;
          r->pos += len;
        }
    }
  at_e = _pgs_get_varint (r);
  n = _pgs_get_varint (r);
  at_c = _pgs_get_varint (r);
  nc = _pgs_get_varint (r);
  /* Each page takes at least a byte of each of two streams. */
  if (r->bad || at_e > at_c || at_c > rest->len || (nc != 0 && nc != n) ||
      n > (guint64) (st[S_FLAGS].end - st[S_FLAGS].pos) || n > (guint64) (st[S_LOWS].end - st[S_LOWS].pos) ||
      nc > (guint64) (st[S_COUNTS].end - st[S_COUNTS].pos))
    return NULL;
  size = rest->len + n * 8 + nc * 4;
  if (size > *budget)
    return NULL;
  data = g_try_malloc0 (MAX (size, 1));
  if (data == NULL)
    {
      g_set_error (error, PGS_ERROR, PGS_ERROR_FAILED,
                   "not enough memory for a process of %" G_GUINT64_FORMAT " bytes", size);
      return NULL;
    }
  /* The rest with room for the entries and counts: enough to read its runs and mappings. */
  memcpy (data, rest->data, at_e);
  memcpy (data + at_e + n * 8, rest->data + at_e, at_c - at_e);
  memcpy (data + at_c + n * 8 + nc * 4, rest->data + at_c, rest->len - at_c);
  {
    g_autoptr(GBytes) b = g_bytes_new_static (data, size);
    g_autoptr(GVariant) v = g_variant_ref_sink (g_variant_new_from_bytes (G_VARIANT_TYPE (PGS_SNAPSHOT_PROCESS_TYPE),
                                                                          b, FALSE));

    pages = _pgs_pic_pages_of (v, n);
  }
  entries = g_new (guint64, MAX (n, 1));
  for (guint64 k = 0; k < n; k++)
    {
      guint64 guess = predict (&pr, &pages[k]);
      guint64 top = _pgs_get_varint (&st[S_FLAGS]);
      gint64 d = _pgs_get_svarint (&st[S_LOWS]);
      guint64 low = (guess & LOW_MASK) + (guint64) d, e, delta;

      if (st[S_FLAGS].bad || st[S_LOWS].bad || top >> (64 - TOP_SHIFT) != 0 || low > LOW_MASK)
        return NULL;
      e = ((guess >> TOP_SHIFT ^ top) << TOP_SHIFT) | low;
      entries[k] = e;
      pr.prev = e;
      delta = GUINT64_TO_LE (e - prev_delta);
      prev_delta = e;
      memcpy (data + at_e + k * 8, &delta, 8);
    }
  for (guint64 k = 0; k < nc; k++)
    {
      gint64 d = _pgs_get_svarint (&st[S_COUNTS]), c;
      guint32 le;

      if (d < -((gint64) 1 << 33) || d > (gint64) 1 << 33)
        return NULL;
      c = d + (gint64) predict_count (frames, entries[k]);
      if (st[S_COUNTS].bad || c < 0 || c > G_MAXUINT32)
        return NULL;
      le = GUINT32_TO_LE ((guint32) c);
      memcpy (data + at_c + n * 8 + k * 4, &le, 4);
    }
  _pgs_pic_dict_add (dict, pages, entries, n);
  *budget -= size;
  *made = (OldProc) { g_steal_pointer (&pages), g_steal_pointer (&entries), n, g_byte_array_ref (rest), NULL };
  return g_bytes_new_take (g_steal_pointer (&data), size);
}

GVariant *
_pgs_picture_procs_apply (PgsVarReader     *r,
                          GVariant         *old,
                          GVariant         *inner,
                          PgsPictureProcs **cache,
                          guint64          *budget,
                          GError          **error)
{
  g_auto(GVariantBuilder) b = G_VARIANT_BUILDER_INIT (G_VARIANT_TYPE ("a" PGS_SNAPSHOT_PROCESS_TYPE));
  gsize n_old = g_variant_n_children (old);
  OldProc *olds = g_new0 (OldProc, MAX (n_old, 1));
  Dict dict = { g_new0 (Slot, 1024), 1023, 0 };
  PgsVarReader st[N_STREAMS];
  Frames frames;
  GVariant *result = NULL;
  PgsPictureProcs *made = NULL;
  gint64 next = 0;
  guint64 n, i = 0;

  _pgs_pic_frames_init (&frames, inner);
  n = _pgs_get_varint (r);
  for (guint k = 0; k < N_STREAMS; k++)
    {
      guint64 slen = _pgs_get_varint (r);

      if (r->bad || slen > (guint64) (r->end - r->pos))
        {
          r->bad = TRUE;
          break;
        }
      st[k] = (PgsVarReader) { r->pos, r->pos + slen, FALSE };
      r->pos += slen;
    }
  /* A process takes at least two bytes of its stream. */
  if (!r->bad && n <= (guint64) (st[S_PROCS].end - st[S_PROCS].pos) / 2)
    {
      made = g_new0 (PgsPictureProcs, 1);
      made->procs = g_new0 (OldProc, MAX (n, 1));
      _pgs_pic_olds_init (old, olds, cache != NULL ? *cache : NULL, &dict);
      for (i = 0; i < n; i++)
        {
          g_autoptr(GBytes) p = apply_process (st, olds, n_old, &next, &dict, &frames, budget,
                                               &made->procs[i], error);
          GVariant *v;

          made->n = i + 1;
          if (p == NULL)
            break;
          v = g_variant_ref_sink (g_variant_new_from_bytes (G_VARIANT_TYPE (PGS_SNAPSHOT_PROCESS_TYPE), p, FALSE));
          g_variant_builder_add_value (&b, v);
          /* What the next difference in a chain predicts from (the identical keep theirs). */
          if (made->procs[i].whole == NULL)
            made->procs[i].whole = v;
          else
            g_variant_unref (v);
        }
      for (guint k = 0; i == n && k < N_STREAMS; k++)
        if (st[k].pos != st[k].end)
          i = n + 1;
    }
  if (!r->bad && i == n)
    {
      result = g_variant_ref_sink (g_variant_builder_end (&b));
      if (cache != NULL)
        {
          _pgs_picture_procs_free (*cache);
          *cache = g_steal_pointer (&made);
        }
    }
  else if (error == NULL || *error == NULL)
    _pgs_picture_diff_bad (error, "processes");
  _pgs_picture_procs_free (made);
  _pgs_pic_olds_clear (olds, n_old);
  g_free (dict.slots);
  g_free (frames.starts);
  g_free (frames.block);
  return result;
}
