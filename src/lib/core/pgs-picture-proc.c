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
#include "pgs-snapshot-format.h"

#define ENTRIES_CHILD  21
#define COUNTS_CHILD   23
#define MAPPINGS_CHILD 19
#define RUNS_CHILD     20
#define PAGE_SIZE_CHILD 16
#define TOP_SHIFT      55
#define LOW_MASK       ((G_GUINT64_CONSTANT (1) << TOP_SHIFT) - 1)
#define NO_MAPPING     G_MAXUINT32
#define COUNT_UNKNOWN  G_MAXUINT32

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

/* Where a process's entries and counts lie in its bytes. */
typedef struct
{
  const guint8 *data;
  gsize         size;
  gsize         at_e;
  gsize         n;
  gsize         at_c;
  gsize         nc;
} Layout;

static void
locate (GVariant *p,
        Layout   *l)
{
  g_autoptr(GVariant) e = g_variant_get_child_value (p, ENTRIES_CHILD);
  g_autoptr(GVariant) c = g_variant_get_child_value (p, COUNTS_CHILD);
  const guint8 *edata = g_variant_get_data (e), *cdata = g_variant_get_data (c);
  gsize esize = g_variant_get_size (e), csize = g_variant_get_size (c);

  l->data = g_variant_get_data (p);
  l->size = g_variant_get_size (p);
  l->at_e = l->n = l->nc = 0;
  /* A serialised child lies inside its parent's bytes; an empty one need not. */
  if (esize == 0 || l->data == NULL || edata == NULL || edata < l->data || esize % 8 != 0 ||
      (gsize) (edata - l->data) > l->size || esize > l->size - (gsize) (edata - l->data))
    {
      l->at_c = 0;
      return;
    }
  l->at_e = edata - l->data;
  l->n = esize / 8;
  l->at_c = l->at_e + esize;
  if (csize == l->n * 4 && cdata != NULL && cdata >= l->data + l->at_e + esize &&
      (gsize) (cdata - l->data) <= l->size && csize <= l->size - (gsize) (cdata - l->data))
    {
      l->at_c = cdata - l->data;
      l->nc = l->n;
    }
}

/* The process's bytes without its entries and counts. */
static GByteArray *
rest_of (const Layout *l)
{
  GByteArray *rest = g_byte_array_sized_new (l->size - l->n * 8 - l->nc * 4 + 1);

  g_byte_array_append (rest, l->data, l->at_e);
  g_byte_array_append (rest, l->data + l->at_e + l->n * 8, l->at_c - l->at_e - l->n * 8);
  g_byte_array_append (rest, l->data + l->at_c + l->nc * 4, l->size - l->at_c - l->nc * 4);
  return rest;
}

/* Per page of a process: its address and the file page it shows, as a 64-bit hash of
 * device, inode and offset (0: none). Two file pages with one hash share their prediction,
 * the same on both sides: a worse guess, never a wrong picture. */
typedef struct
{
  guint64 va;
  guint64 key;
} PageAt;

static inline guint64
file_key (guint64 dev,
          guint64 inode,
          guint64 offset)
{
  guint64 h = inode * G_GUINT64_CONSTANT (0x9e3779b97f4a7c15) ^ (offset >> 12) * G_GUINT64_CONSTANT (0xc2b2ae3d27d4eb4f) ^
              dev * G_GUINT64_CONSTANT (0x165667b19e3779f9);

  h ^= h >> 31;
  h *= G_GUINT64_CONSTANT (0xff51afd7ed558ccd);
  h ^= h >> 29;
  return h | G_GUINT64_CONSTANT (1) << 63;
}

/* The pages' addresses and file pages, from the process's runs and mappings (@p may be
 * anything a file holds: what does not add up gives address 0 and no file). */
static PageAt *
pages_of (GVariant *p,
          gsize     n)
{
  g_autoptr(GVariant) runs = g_variant_get_child_value (p, RUNS_CHILD);
  g_autoptr(GVariant) maps = g_variant_get_child_value (p, MAPPINGS_CHILD);
  g_autoptr(GVariant) ps = g_variant_get_child_value (p, PAGE_SIZE_CHILD);
  PageAt *at = g_new0 (PageAt, MAX (n, 1));
  gsize n_runs = 0, n_maps = g_variant_n_children (maps);
  const guint8 *r = g_variant_get_fixed_array (runs, &n_runs, 24);
  guint64 page_size = g_variant_get_uint32 (ps);
  /* Per mapping: start, offset, inode, device: its first fixed-size fields, at fixed
   * places in its bytes (one child a mapping, not five a run). */
  g_autofree guint64 *m = g_new0 (guint64, 4 * MAX (n_maps, 1));

  for (gsize i = 0; r != NULL && n_runs > 0 && i < n_maps; i++)
    {
      g_autoptr(GVariant) child = g_variant_get_child_value (maps, i);
      const guint8 *d = g_variant_get_data (child);
      guint32 major, minor;

      if (d == NULL || g_variant_get_size (child) < 40)
        continue;
      memcpy (&m[4 * i], d, 8);
      memcpy (&m[4 * i + 1], d + 16, 8);
      memcpy (&m[4 * i + 2], d + 24, 8);
      memcpy (&major, d + 32, 4);
      memcpy (&minor, d + 36, 4);
      m[4 * i] = GUINT64_FROM_LE (m[4 * i]);
      m[4 * i + 1] = GUINT64_FROM_LE (m[4 * i + 1]);
      m[4 * i + 2] = GUINT64_FROM_LE (m[4 * i + 2]);
      m[4 * i + 3] = (guint64) GUINT32_FROM_LE (major) << 32 | GUINT32_FROM_LE (minor);
    }
  for (gsize i = 0; r != NULL && i < n_runs; i++)
    {
      guint64 start;
      guint32 n_pages, first, mapping;
      const guint64 *mi;
      static const guint64 none[4] = { 0, 0, 0, 0 };

      memcpy (&start, r + i * 24, 8);
      memcpy (&n_pages, r + i * 24 + 8, 4);
      memcpy (&first, r + i * 24 + 12, 4);
      memcpy (&mapping, r + i * 24 + 16, 4);
      start = GUINT64_FROM_LE (start);
      n_pages = GUINT32_FROM_LE (n_pages);
      first = GUINT32_FROM_LE (first);
      mapping = GUINT32_FROM_LE (mapping);
      if (first >= n || n_pages > n - first)
        continue;
      mi = mapping < n_maps ? &m[4 * (gsize) mapping] : none;
      for (guint32 k = 0; k < n_pages; k++)
        {
          PageAt *a = &at[first + k];

          a->va = start + k * page_size;
          a->key = mi[2] != 0 ? file_key (mi[3], mi[2], mi[1] + (a->va - mi[0])) : 0;
        }
    }
  return at;
}

/* File page → the last entry seen for it: open addressing, doubling. */
typedef struct
{
  guint64 key;    /* 0: empty */
  guint64 entry;
} Slot;

typedef struct
{
  Slot  *slots;
  gsize  mask;
  gsize  used;
} Dict;

static Slot *
dict_find (const Dict *d,
           guint64     key)
{
  gsize i = (gsize) key & d->mask;

  while (d->slots[i].key != 0 && d->slots[i].key != key)
    i = (i + 1) & d->mask;
  return &d->slots[i];
}

static void
dict_put (Dict    *d,
          guint64  key,
          guint64  entry)
{
  Slot *s;

  if ((d->used + 1) * 2 > d->mask + 1)
    {
      Slot *old = d->slots;
      gsize n_old = d->mask + 1;

      d->mask = n_old * 2 - 1;
      d->slots = g_new0 (Slot, d->mask + 1);
      for (gsize i = 0; i < n_old; i++)
        if (old[i].key != 0)
          *dict_find (d, old[i].key) = old[i];
      g_free (old);
    }
  s = dict_find (d, key);
  if (s->key == 0)
    d->used++;
  *s = (Slot) { key, entry };
}

/* The file pages of a process whose entries are known, into @d. */
static void
dict_add (Dict          *d,
          const PageAt  *at,
          const guint64 *entries,
          gsize          n)
{
  for (gsize k = 0; k < n; k++)
    if (at[k].key != 0 && (entries[k] & PGS_PM_PRESENT) && (entries[k] & PGS_PM_FILE))
      dict_put (d, at[k].key, entries[k]);
}

/* The entries (absolute) of a process's bytes, which hold differences. */
static guint64 *
entries_of (const Layout *l)
{
  guint64 *e = g_new (guint64, MAX (l->n, 1)), prev = 0;

  for (gsize k = 0; k < l->n; k++)
    {
      guint64 v;

      memcpy (&v, l->data + l->at_e + k * 8, 8);
      prev += GUINT64_FROM_LE (v);
      e[k] = prev;
    }
  return e;
}

/* A process of the picture before, ready to predict from. */
typedef struct
{
  PageAt  *at;
  guint64 *entries;
  gsize    n;
  /* The process's rest, for those that are matched, and its bytes. */
  GByteArray *rest;
  GVariant   *whole;
} OldProc;

/* The physical map's counts by frame. */
typedef struct
{
  guint64       *starts;   /* n + 1 */
  const guint32 *counts;
  gsize          n;
  gsize          last;
  /* Per block of 2^shift frames, the run that holds its first frame: a lookup searches
   * only the runs of its block. */
  guint32       *block;
  guint          shift;
  gsize          n_blocks;
} Frames;

/* From the physical map's tuple (NULL: none, every count unknown). */
static void
frames_init (Frames   *f,
             GVariant *inner)
{
  g_autoptr(GVariant) l = inner != NULL ? g_variant_get_child_value (inner, 1) : NULL;
  g_autoptr(GVariant) c = inner != NULL ? g_variant_get_child_value (inner, 3) : NULL;
  gsize nl = 0, nc = 0, n;
  /* The tuple holds the data: the pointers outlive the children. */
  const guint32 *lengths = l != NULL ? g_variant_get_fixed_array (l, &nl, 4) : NULL;
  const guint32 *counts = c != NULL ? g_variant_get_fixed_array (c, &nc, 4) : NULL;

  n = MIN (nl, nc);
  f->starts = g_new (guint64, n + 1);
  f->counts = counts;
  f->n = n;
  f->last = 0;
  f->starts[0] = 0;
  for (gsize i = 0; i < n; i++)
    f->starts[i + 1] = f->starts[i] + GUINT32_FROM_LE (lengths[i]);
  /* About two blocks a run, whatever the map claims to cover. */
  for (f->shift = 0; f->shift < 63 && (f->starts[n] >> f->shift) > 2 * (guint64) n + 1024; f->shift++)
    ;
  f->n_blocks = (gsize) (f->starts[n] >> f->shift) + 1;
  f->block = g_new (guint32, f->n_blocks + 1);
  for (gsize b = 0, j = 0; b <= f->n_blocks; b++)
    {
      guint64 first = (guint64) b << f->shift;

      while (j < n && f->starts[j + 1] <= first)
        j++;
      f->block[b] = (guint32) j;
    }
}

static guint32
frames_count (Frames  *f,
              guint64  pfn)
{
  gsize lo, hi;

  if (f->n == 0 || pfn >= f->starts[f->n])
    return COUNT_UNKNOWN;
  if (pfn >= f->starts[f->last] && pfn < f->starts[f->last + 1])
    return GUINT32_FROM_LE (f->counts[f->last]);
  lo = f->block[pfn >> f->shift];
  hi = MIN (f->block[(pfn >> f->shift) + 1] + 1, f->n);
  while (hi - lo > 1)
    {
      gsize mid = lo + (hi - lo) / 2;

      if (f->starts[mid] <= pfn)
        lo = mid;
      else
        hi = mid;
    }
  f->last = lo;
  return GUINT32_FROM_LE (f->counts[lo]);
}

static guint32
predict_count (Frames  *f,
               guint64  entry)
{
  if (!(entry & PGS_PM_PRESENT))
    return COUNT_UNKNOWN;
  if (entry & PGS_PM_EXCLUSIVE)
    return 1;
  return frames_count (f, entry & PGS_PM_PFN_MASK);
}

/* Walks the pages of a process in index order, predicting each entry. */
typedef struct
{
  const OldProc *old;
  gsize          j;
  guint64        prev;
  const Dict    *dict;
} Predictor;

static guint64
predict (Predictor    *p,
         const PageAt *a)
{
  if (p->old != NULL)
    {
      while (p->j < p->old->n && p->old->at[p->j].va < a->va)
        p->j++;
      if (p->j < p->old->n && p->old->at[p->j].va == a->va)
        return p->old->entries[p->j];
    }
  if (a->key != 0)
    {
      const Slot *s = dict_find (p->dict, a->key);

      if (s->key != 0)
        return s->entry;
    }
  return p->prev + 1;
}

struct _PgsPictureProcs
{
  OldProc *procs;
  gsize    n;
};

static void old_procs_clear (OldProc *procs,
                             gsize    n);

void
_pgs_picture_procs_free (PgsPictureProcs *self)
{
  if (self == NULL)
    return;
  old_procs_clear (self->procs, self->n);
  g_free (self);
}

static void
old_proc_copy (OldProc       *to,
               const OldProc *from)
{
  to->n = from->n;
  to->at = g_memdup2 (from->at, sizeof (PageAt) * MAX (from->n, 1));
  to->entries = g_memdup2 (from->entries, 8 * MAX (from->n, 1));
  to->rest = g_byte_array_ref (from->rest);
  to->whole = g_variant_ref (from->whole);
}

/* The processes of the picture before ready to predict from: @cache's when it describes
 * exactly those bytes (the picture a chain of differences just made), else read anew. */
static void
old_procs_init (GVariant        *old,
                OldProc         *procs,
                PgsPictureProcs *cache,
                Dict            *dict)
{
  gsize n_old = g_variant_n_children (old);
  gboolean reuse = cache != NULL && cache->n == n_old;

  for (gsize i = 0; reuse && i < n_old; i++)
    {
      g_autoptr(GVariant) p = g_variant_get_child_value (old, i);
      GVariant *w = cache->procs[i].whole;

      reuse = g_variant_get_size (w) == g_variant_get_size (p) &&
              memcmp (g_variant_get_data (w), g_variant_get_data (p), g_variant_get_size (p)) == 0;
    }
  for (gsize i = 0; i < n_old; i++)
    {
      g_autoptr(GVariant) p = NULL;
      Layout l;

      if (reuse)
        {
          procs[i] = cache->procs[i];
          cache->procs[i] = (OldProc) { NULL };
          dict_add (dict, procs[i].at, procs[i].entries, procs[i].n);
          continue;
        }
      p = g_variant_get_child_value (old, i);
      locate (p, &l);
      procs[i].n = l.n;
      procs[i].at = pages_of (p, l.n);
      procs[i].entries = entries_of (&l);
      procs[i].rest = rest_of (&l);
      procs[i].whole = g_variant_ref (p);
      dict_add (dict, procs[i].at, procs[i].entries, l.n);
    }
}

static void
old_procs_clear (OldProc *procs,
                 gsize    n)
{
  for (gsize i = 0; i < n; i++)
    {
      g_free (procs[i].at);
      g_free (procs[i].entries);
      g_clear_pointer (&procs[i].rest, g_byte_array_unref);
      g_clear_pointer (&procs[i].whole, g_variant_unref);
    }
  g_free (procs);
}

static guint64
process_key (GVariant *process)
{
  gint32 pid;
  guint64 start;

  g_variant_get_child (process, 0, "i", &pid);
  g_variant_get_child (process, 3, "t", &start);
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

  frames_init (&frames, inner);
  for (guint k = 0; k < N_STREAMS; k++)
    s[k] = g_byte_array_new ();
  made->procs = g_new0 (OldProc, MAX (n, 1));
  made->n = n;
  old_procs_init (old, olds, cache != NULL ? *cache : NULL, &dict);
  for (gsize i = 0; i < n_old; i++)
    {
      g_autoptr(GVariant) p = g_variant_get_child_value (old, i);

      keys[i] = process_key (p);
      g_hash_table_insert (index, &keys[i], GSIZE_TO_POINTER (i + 1));
    }
  for (gsize i = 0; i < n; i++)
    {
      g_autoptr(GVariant) p = g_variant_get_child_value (cur, i);
      guint64 key = process_key (p);
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
          dict_add (&dict, olds[at - 1].at, olds[at - 1].entries, olds[at - 1].n);
          old_proc_copy (&made->procs[i], &olds[at - 1]);
          continue;
        }
      locate (p, &l);
      rest = rest_of (&l);
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

      pages = pages_of (p, l.n);
      entries = entries_of (&l);

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
      dict_add (&dict, pages, entries, l.n);
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
  old_procs_clear (olds, n_old);
  g_free (dict.slots);
  g_free (frames.starts);
  g_free (frames.block);
}

static gboolean
bad (GError    **error,
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
          dict_add (dict, old->at, old->entries, old->n);
          old_proc_copy (made, old);
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

    pages = pages_of (v, n);
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
  dict_add (dict, pages, entries, n);
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

  frames_init (&frames, inner);
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
      old_procs_init (old, olds, cache != NULL ? *cache : NULL, &dict);
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
    bad (error, "processes");
  _pgs_picture_procs_free (made);
  old_procs_clear (olds, n_old);
  g_free (dict.slots);
  g_free (frames.starts);
  g_free (frames.block);
  return result;
}
