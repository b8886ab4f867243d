/* pgs-picture-model-private.h: what format 3's process coder predicts pages from
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The layout of a process's bytes, its pages' addresses and file pages, the dictionary of
 * file pages, the physical map's counts by frame and the processes of the picture before
 * (pgs-picture-model.c); pgs-picture-proc.c encodes and reads with them. The lookups of
 * every page are inline here.
 */

#pragma once

#include <glib.h>

#include "pgs-pagemap.h"
#include "pgs-recording-format.h"

G_BEGIN_DECLS

#define TOP_SHIFT      55
#define LOW_MASK       ((G_GUINT64_CONSTANT (1) << TOP_SHIFT) - 1)
#define COUNT_UNKNOWN  G_MAXUINT32

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

/* Per page of a process: its address and the file page it shows, as a 64-bit hash of
 * device, inode and offset (0: none). Two file pages with one hash share their prediction,
 * the same on both sides: a worse guess, never a wrong picture. */
typedef struct
{
  guint64 va;
  guint64 key;
} PageAt;

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

/* Walks the pages of a process in index order, predicting each entry. */
typedef struct
{
  const OldProc *old;
  gsize          j;
  guint64        prev;
  const Dict    *dict;
} Predictor;

struct _PgsPictureProcs
{
  OldProc *procs;
  gsize    n;
};

void _pgs_pic_locate (GVariant *p,
                      Layout   *l);

/* The process's bytes without its entries and counts. */
GByteArray *_pgs_pic_rest_of (const Layout *l);

/* The pages' addresses and file pages, from the process's runs and mappings (@p may be
 * anything a file holds: what does not add up gives address 0 and no file). */
PageAt *_pgs_pic_pages_of (GVariant *p,
                           gsize     n);

void _pgs_pic_dict_put (Dict    *d,
                        guint64  key,
                        guint64  entry);

/* The file pages of a process whose entries are known, into @d. */
void _pgs_pic_dict_add (Dict          *d,
                        const PageAt  *at,
                        const guint64 *entries,
                        gsize          n);

/* The entries (absolute) of a process's bytes, which hold differences. */
guint64 *_pgs_pic_entries_of (const Layout *l);

/* From the physical map's tuple (NULL: none, every count unknown). */
void _pgs_pic_frames_init (Frames   *f,
                           GVariant *inner);

void _pgs_pic_old_copy (OldProc       *to,
                        const OldProc *from);

/* The processes of the picture before ready to predict from: @cache's when it describes
 * exactly those bytes (the picture a chain of differences just made), else read anew. */
void _pgs_pic_olds_init (GVariant        *old,
                         OldProc         *procs,
                         PgsPictureProcs *cache,
                         Dict            *dict);

void _pgs_pic_olds_clear (OldProc *procs,
                          gsize    n);

static inline Slot *
dict_find (const Dict *d,
           guint64     key)
{
  gsize i = (gsize) key & d->mask;

  while (d->slots[i].key != 0 && d->slots[i].key != key)
    i = (i + 1) & d->mask;
  return &d->slots[i];
}

static inline guint32
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

static inline guint32
predict_count (Frames  *f,
               guint64  entry)
{
  if (!(entry & PGS_PM_PRESENT))
    return COUNT_UNKNOWN;
  if (entry & PGS_PM_EXCLUSIVE)
    return 1;
  return frames_count (f, entry & PGS_PM_PFN_MASK);
}

static inline guint64
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

G_END_DECLS
