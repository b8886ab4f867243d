/* pgs-picture-map.c: the physical map's runs as a difference from the picture before's
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Varint n runs, then six streams, each a varint length and its bytes (deflate packs like
 * with like):
 *
 *   ops      pairs until n runs: copy (the runs of the map before from the current frame
 *            on, which must start there, the same), literal (runs given below)
 *   lengths  per literal run, its length in frames
 *   ranks    per literal run, where its flags stand in the list of flags seen so far after
 *            the flags of the run before that held its first frame (the context; past the
 *            end of that map, or in a key picture, the flags of the run before in this map):
 *            most often seen first (the latest first among equals), at most MODEL_CAP long
 *            (a new one replaces the last); the list's length: flags not in it, given in
 *            the next stream
 *   flags    per run whose rank is the list's length, its flags XOR the context
 *   counts   per run whose count rank is its list's length, signed: its map count less the
 *            context count
 *   count ranks  per literal run, its map count's rank as the flags' above, after the
 *            count of the old run that holds the frame (the context count; past its end
 *            or in a key picture, the count of the run before in this map)
 *
 * A run that did not change costs nothing beyond its copy's share. Where page-cache flags
 * moved, a frame's new flags are mostly one of a few that follow from its old ones (an
 * active page turned inactive, a referenced one not): a rank of 0 or 1, one byte that
 * deflate packs to a few bits, where the flags themselves took several; so with map counts.
 */

#include "config.h"

#include <string.h>

#include "pgs-error.h"
#include "pgs-picture-diff.h"

#define MODEL_CAP 64

enum
{
  S_OPS,
  S_LENGTHS,
  S_RANKS,
  S_FLAGS,
  S_COUNTS,
  S_COUNT_RANKS,
  N_STREAMS
};

/* The physical map's three arrays as the GVariant holds them (little endian). */
typedef struct
{
  const guint32 *lengths;
  const guint64 *flags;
  const guint32 *counts;
  gsize          n;
} Runs;

static void
runs_of (GVariant *inner,
         Runs     *runs)
{
  g_autoptr(GVariant) l = g_variant_get_child_value (inner, 1);
  g_autoptr(GVariant) f = g_variant_get_child_value (inner, 2);
  g_autoptr(GVariant) c = g_variant_get_child_value (inner, 3);
  gsize nl, nf, nc;

  /* The parent holds the data: the pointers outlive the children. */
  runs->lengths = g_variant_get_fixed_array (l, &nl, 4);
  runs->flags = g_variant_get_fixed_array (f, &nf, 8);
  runs->counts = g_variant_get_fixed_array (c, &nc, 4);
  runs->n = MIN (nl, MIN (nf, nc));
}

/* Where the walk over the map before stands: run @j, which starts at frame @start. */
typedef struct
{
  const Runs *runs;
  gsize       j;
  guint64     start;
} OldWalk;

/* Moves @w to the run that holds frame @pos (or past the end). */
static void
walk_to (OldWalk *w,
         guint64  pos)
{
  while (w->j < w->runs->n && w->start + GUINT32_FROM_LE (w->runs->lengths[w->j]) <= pos)
    {
      w->start += GUINT32_FROM_LE (w->runs->lengths[w->j]);
      w->j++;
    }
}

static gboolean
same_run (const OldWalk *w,
          const Runs    *cur,
          gsize          i,
          guint64        pos)
{
  const Runs *old = w->runs;

  return w->j < old->n && w->start == pos && cur->lengths[i] == old->lengths[w->j] &&
         cur->flags[i] == old->flags[w->j] && cur->counts[i] == old->counts[w->j];
}

/* The flags of the old run that holds the frame; past the end of the map before (or with
 * none, in a key picture), those of the run before in this map (@prev). */
static guint64
context_flags (const OldWalk *w,
               guint64        prev)
{
  return w->j < w->runs->n ? GUINT64_FROM_LE (w->runs->flags[w->j]) : prev;
}

static guint32
context_count (const OldWalk *w)
{
  return w->j < w->runs->n ? GUINT32_FROM_LE (w->runs->counts[w->j]) : 0;
}

/* Flags that followed a context, and how often. */
typedef struct
{
  guint64 flags;
  guint64 seen;
} Entry;

/* Per context flags, the flags that followed them, most often seen first. */
static GHashTable *
model_new (void)
{
  return g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, (GDestroyNotify) g_array_unref);
}

static GArray *
model_list (GHashTable *model,
            guint64     context)
{
  GArray *list = g_hash_table_lookup (model, &context);

  if (list == NULL)
    {
      list = g_array_sized_new (FALSE, FALSE, sizeof (Entry), 4);
      g_hash_table_insert (model, g_memdup2 (&context, 8), list);
    }
  return list;
}

/* Counts a sighting of @flags at @rank (the list's length: not in it) and keeps the list in
 * order of sightings, the latest first among equals. */
static void
model_seen (GArray  *list,
            guint    rank,
            guint64  flags)
{
  Entry e = { flags, 1 };

  if (rank < list->len)
    {
      e = g_array_index (list, Entry, rank);
      e.seen++;
    }
  else if (list->len == MODEL_CAP)
    {
      /* The least seen goes. */
      rank = list->len - 1;
    }
  else
    {
      g_array_append_val (list, e);
      rank = list->len - 1;
    }
  while (rank > 0 && g_array_index (list, Entry, rank - 1).seen <= e.seen)
    {
      g_array_index (list, Entry, rank) = g_array_index (list, Entry, rank - 1);
      rank--;
    }
  g_array_index (list, Entry, rank) = e;
}

void
_pgs_picture_runs_encode (GVariant   *old_inner,
                          GVariant   *inner,
                          GByteArray *out)
{
  g_autoptr(GHashTable) model = model_new ();
  g_autoptr(GHashTable) count_model = model_new ();
  GByteArray *s[N_STREAMS];
  Runs old = { NULL, NULL, NULL, 0 }, cur;
  OldWalk w = { &old, 0, 0 };
  guint64 pos = 0;
  gsize i = 0;

  if (old_inner != NULL)
    runs_of (old_inner, &old);
  runs_of (inner, &cur);
  for (guint k = 0; k < N_STREAMS; k++)
    s[k] = g_byte_array_sized_new (cur.n / 4 + 16);
  while (i < cur.n)
    {
      gsize copy = 0, lit = 0;

      /* Runs that start where the map before's do and are the same. */
      for (walk_to (&w, pos); i < cur.n && same_run (&w, &cur, i, pos); walk_to (&w, pos))
        {
          pos += GUINT32_FROM_LE (cur.lengths[i]);
          i++;
          copy++;
        }
      /* Then the others, each against the run before that held its first frame. */
      for (; i < cur.n && !same_run (&w, &cur, i, pos); walk_to (&w, pos))
        {
          guint64 f = GUINT64_FROM_LE (cur.flags[i]);
          guint64 context = context_flags (&w, i > 0 ? GUINT64_FROM_LE (cur.flags[i - 1]) : 0);
          GArray *list = model_list (model, context);
          guint rank = 0;

          while (rank < list->len && g_array_index (list, Entry, rank).flags != f)
            rank++;
          _pgs_put_varint (s[S_LENGTHS], GUINT32_FROM_LE (cur.lengths[i]));
          _pgs_put_varint (s[S_RANKS], rank);
          if (rank == list->len)
            _pgs_put_varint (s[S_FLAGS], f ^ context);
          model_seen (list, rank, f);
          {
            guint32 c = GUINT32_FROM_LE (cur.counts[i]);
            guint64 cc = w.j < old.n ? context_count (&w) : (i > 0 ? GUINT32_FROM_LE (cur.counts[i - 1]) : 0);
            GArray *cl = model_list (count_model, cc);
            guint cr = 0;

            while (cr < cl->len && g_array_index (cl, Entry, cr).flags != c)
              cr++;
            _pgs_put_varint (s[S_COUNT_RANKS], cr);
            if (cr == cl->len)
              _pgs_put_svarint (s[S_COUNTS], (gint64) c - (gint64) cc);
            model_seen (cl, cr, c);
          }
          pos += GUINT32_FROM_LE (cur.lengths[i]);
          i++;
          lit++;
        }
      _pgs_put_varint (s[S_OPS], copy);
      _pgs_put_varint (s[S_OPS], lit);
    }
  _pgs_put_varint (out, cur.n);
  for (guint k = 0; k < N_STREAMS; k++)
    {
      _pgs_put_varint (out, s[k]->len);
      g_byte_array_append (out, s[k]->data, s[k]->len);
      g_byte_array_unref (s[k]);
    }
}

/* One literal run from the streams, against the context at @w; FALSE where they do not
 * add up. */
static gboolean
get_literal (PgsVarReader  *st,
             GHashTable    *model,
             GHashTable    *count_model,
             const OldWalk *w,
             guint64        prev,
             guint32        prev_count,
             guint64       *len,
             guint64       *flags,
             guint32       *count)
{
  guint64 context = context_flags (w, prev);
  GArray *list = model_list (model, context);
  GArray *clist;
  guint64 rank, f, cc;
  gint64 c;

  *len = _pgs_get_varint (&st[S_LENGTHS]);
  rank = _pgs_get_varint (&st[S_RANKS]);
  if (rank < list->len)
    f = g_array_index (list, Entry, rank).flags;
  else if (rank == list->len)
    f = _pgs_get_varint (&st[S_FLAGS]) ^ context;
  else
    return FALSE;
  model_seen (list, (guint) rank, f);
  cc = w->j < w->runs->n ? context_count (w) : prev_count;
  clist = model_list (count_model, cc);
  rank = _pgs_get_varint (&st[S_COUNT_RANKS]);
  if (rank < clist->len)
    c = (gint64) g_array_index (clist, Entry, rank).flags;
  else if (rank == clist->len)
    c = _pgs_get_svarint (&st[S_COUNTS]) + (gint64) cc;
  else
    return FALSE;
  if (c >= 0 && c <= G_MAXUINT32)
    model_seen (clist, (guint) rank, (guint64) c);
  if (st[S_LENGTHS].bad || st[S_RANKS].bad || st[S_FLAGS].bad || st[S_COUNTS].bad || st[S_COUNT_RANKS].bad ||
      *len > G_MAXUINT32 || c < 0 || c > G_MAXUINT32)
    return FALSE;
  *flags = f;
  *count = (guint32) c;
  return TRUE;
}

static gboolean
bad (PgsVarReader  *r,
     GError       **error)
{
  r->bad = TRUE;
  g_set_error (error, PGS_ERROR, PGS_ERROR_BAD_SNAPSHOT,
               "inconsistent picture: its difference from the picture before does not add up (physical map)");
  return FALSE;
}

gboolean
_pgs_picture_runs_apply (PgsVarReader  *r,
                         GVariant      *old_inner,
                         guint64       *budget,
                         guint64       *n_out,
                         guint32      **lengths_out,
                         guint64      **flags_out,
                         guint32      **counts_out,
                         GError       **error)
{
  g_autoptr(GHashTable) model = model_new ();
  g_autoptr(GHashTable) count_model = model_new ();
  g_autofree guint32 *lengths = NULL;
  g_autofree guint64 *flags = NULL;
  g_autofree guint32 *counts = NULL;
  Runs old = { NULL, NULL, NULL, 0 };
  OldWalk w = { &old, 0, 0 };
  PgsVarReader st[N_STREAMS];
  guint64 n, i = 0, pos = 0;

  n = _pgs_get_varint (r);
  /* 16 bytes of the picture a run. */
  if (r->bad || n > *budget / 16)
    return bad (r, error);
  for (guint k = 0; k < N_STREAMS; k++)
    {
      guint64 slen = _pgs_get_varint (r);

      if (r->bad || slen > (guint64) (r->end - r->pos))
        return bad (r, error);
      st[k] = (PgsVarReader) { r->pos, r->pos + slen, FALSE };
      r->pos += slen;
    }
  lengths = g_try_new (guint32, MAX (n, 1));
  flags = g_try_new (guint64, MAX (n, 1));
  counts = g_try_new (guint32, MAX (n, 1));
  if (lengths == NULL || flags == NULL || counts == NULL)
    {
      g_set_error (error, PGS_ERROR, PGS_ERROR_FAILED,
                   "not enough memory for a physical map of %" G_GUINT64_FORMAT " runs", n);
      return FALSE;
    }
  if (old_inner != NULL)
    runs_of (old_inner, &old);
  while (i < n)
    {
      guint64 copy = _pgs_get_varint (&st[S_OPS]);
      guint64 lit = _pgs_get_varint (&st[S_OPS]);

      if (st[S_OPS].bad || copy > n - i || lit > n - i - copy || copy + lit == 0)
        return bad (r, error);
      walk_to (&w, pos);
      if (copy > 0 && (w.start != pos || w.j >= old.n || copy > old.n - w.j))
        return bad (r, error);
      for (guint64 k = 0; k < copy; k++, i++)
        {
          lengths[i] = old.lengths[w.j + k];
          flags[i] = old.flags[w.j + k];
          counts[i] = old.counts[w.j + k];
          pos += GUINT32_FROM_LE (lengths[i]);
        }
      for (guint64 k = 0; k < lit; k++, i++)
        {
          guint64 len, f;
          guint32 c;

          walk_to (&w, pos);
          if (!get_literal (st, model, count_model, &w, i > 0 ? GUINT64_FROM_LE (flags[i - 1]) : 0,
                            i > 0 ? GUINT32_FROM_LE (counts[i - 1]) : 0, &len, &f, &c))
            return bad (r, error);
          lengths[i] = GUINT32_TO_LE ((guint32) len);
          flags[i] = GUINT64_TO_LE (f);
          counts[i] = GUINT32_TO_LE (c);
          pos += len;
        }
    }
  for (guint k = 0; k < N_STREAMS; k++)
    if (st[k].pos != st[k].end)
      return bad (r, error);
  *budget -= n * 16;
  *n_out = n;
  *lengths_out = g_steal_pointer (&lengths);
  *flags_out = g_steal_pointer (&flags);
  *counts_out = g_steal_pointer (&counts);
  return TRUE;
}
