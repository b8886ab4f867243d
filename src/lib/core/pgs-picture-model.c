/* pgs-picture-model.c: what format 3's process coder predicts pages from
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * See pgs-picture-proc.c for the predictions; here the pieces both its encoder and its
 * reader build the same way from the same bytes.
 */

#include "config.h"

#include <string.h>

#include "pgs-picture-model-private.h"
#include "pgs-snapshot-format.h"

#define ENTRIES_CHILD  21
#define COUNTS_CHILD   23
#define MAPPINGS_CHILD 19
#define RUNS_CHILD     20
#define PAGE_SIZE_CHILD 16

void
_pgs_pic_locate (GVariant *p,
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
GByteArray *
_pgs_pic_rest_of (const Layout *l)
{
  GByteArray *rest = g_byte_array_sized_new (l->size - l->n * 8 - l->nc * 4 + 1);

  g_byte_array_append (rest, l->data, l->at_e);
  g_byte_array_append (rest, l->data + l->at_e + l->n * 8, l->at_c - l->at_e - l->n * 8);
  g_byte_array_append (rest, l->data + l->at_c + l->nc * 4, l->size - l->at_c - l->nc * 4);
  return rest;
}

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
PageAt *
_pgs_pic_pages_of (GVariant *p,
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

void
_pgs_pic_dict_put (Dict    *d,
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
void
_pgs_pic_dict_add (Dict          *d,
                   const PageAt  *at,
                   const guint64 *entries,
                   gsize          n)
{
  for (gsize k = 0; k < n; k++)
    if (at[k].key != 0 && (entries[k] & PGS_PM_PRESENT) && (entries[k] & PGS_PM_FILE))
      _pgs_pic_dict_put (d, at[k].key, entries[k]);
}

/* The entries (absolute) of a process's bytes, which hold differences. */
guint64 *
_pgs_pic_entries_of (const Layout *l)
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

/* From the physical map's tuple (NULL: none, every count unknown). */
void
_pgs_pic_frames_init (Frames   *f,
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

void
_pgs_picture_procs_free (PgsPictureProcs *self)
{
  if (self == NULL)
    return;
  _pgs_pic_olds_clear (self->procs, self->n);
  g_free (self);
}

void
_pgs_pic_old_copy (OldProc       *to,
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
void
_pgs_pic_olds_init (GVariant        *old,
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
          _pgs_pic_dict_add (dict, procs[i].at, procs[i].entries, procs[i].n);
          continue;
        }
      p = g_variant_get_child_value (old, i);
      _pgs_pic_locate (p, &l);
      procs[i].n = l.n;
      procs[i].at = _pgs_pic_pages_of (p, l.n);
      procs[i].entries = _pgs_pic_entries_of (&l);
      procs[i].rest = _pgs_pic_rest_of (&l);
      procs[i].whole = g_variant_ref (p);
      _pgs_pic_dict_add (dict, procs[i].at, procs[i].entries, l.n);
    }
}

void
_pgs_pic_olds_clear (OldProc *procs,
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
