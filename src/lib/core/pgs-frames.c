/* pgs-frames.c
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "pgs-error.h"
#include "pgs-frames.h"
#include "pgs-procfs.h"

/* Neighbouring chunks are read together, up to this many bytes a pread (DESIGN.md: 8-64 KiB
 * reads are fastest; the kernel generates the data, larger buys nothing). */
#define MAX_READ_BYTES (64 * 1024)
/* A direct-mapped filter of recently asked chunks, so that the want list stays short. */
#define FILTER_SIZE 4096

struct _PgsFrameTable
{
  guint     chunk_frames;
  guint     chunk_shift;
  GArray   *wanted;        /* guint64 chunk numbers, unsorted, some repeated */
  guint64  *filter;        /* FILTER_SIZE of chunk + 1 (0: empty), from the first want: a
                            * scan whose filter keeps no process never touches its 32 KiB */

  /* After pgs_frame_table_read(): */
  guint64  *chunks;        /* sorted, distinct */
  gsize     n_chunks;
  gpointer  values;        /* chunk_frames entries per chunk, in the order of chunks */
  gboolean  as_u32;        /* saturated to 32 bits (map counts): half the memory */
  guint64  *buf;           /* a read's worth of u64 entries, for as_u32 */
  guint32  *n_read;        /* per chunk: how many of its frames the file covered */

  /* chunk → slot, open addressing: frames shared between processes are scattered over all
   * of RAM, so lookups jump about, and a binary search costs a cache miss a step. */
  struct {
    guint64 key;           /* chunk + 1; 0 is empty */
    guint32 slot;
    guint32 n_read;        /* a copy of n_read[slot]: one cache line per lookup */
  }        *hash;
  guint     hash_bits;
  gsize     last;          /* the entry of the last lookup: neighbouring pages often share
                            * a chunk */
};

static inline gsize
hash_index (const PgsFrameTable *table,
            guint64              chunk)
{
  return (gsize) ((chunk * G_GUINT64_CONSTANT (0x9e3779b97f4a7c15)) >> (64 - table->hash_bits));
}

PgsFrameTable *
pgs_frame_table_new (guint    chunk_frames,
                     gboolean as_u32)
{
  PgsFrameTable *table = g_new0 (PgsFrameTable, 1);

  g_return_val_if_fail (chunk_frames > 0 && (chunk_frames & (chunk_frames - 1)) == 0, NULL);
  g_return_val_if_fail (chunk_frames <= MAX_READ_BYTES / 8, NULL);

  table->chunk_frames = chunk_frames;
  table->chunk_shift = g_bit_nth_lsf (chunk_frames, -1);
  table->wanted = g_array_new (FALSE, FALSE, sizeof (guint64));
  table->as_u32 = as_u32;
  return table;
}

void
pgs_frame_table_free (PgsFrameTable *table)
{
  if (table == NULL)
    return;
  g_array_unref (table->wanted);
  g_free (table->filter);
  g_free (table->chunks);
  g_free (table->values);
  g_free (table->buf);
  g_free (table->n_read);
  g_free (table->hash);
  g_free (table);
}

void
pgs_frame_table_want (PgsFrameTable *table,
                      guint64        pfn)
{
  guint64 chunk = pfn >> table->chunk_shift;
  guint64 *slot;

  if (G_UNLIKELY (table->filter == NULL))
    table->filter = g_new0 (guint64, FILTER_SIZE);
  slot = &table->filter[(chunk ^ (chunk >> 12)) % FILTER_SIZE];

  if (*slot == chunk + 1)
    return;
  *slot = chunk + 1;
  g_array_append_val (table->wanted, chunk);
}

gboolean
pgs_frame_table_is_empty (PgsFrameTable *table)
{
  return table->wanted->len == 0 && table->n_chunks == 0;
}

static int
compare_u64 (gconstpointer a,
             gconstpointer b)
{
  guint64 x = *(const guint64 *) a, y = *(const guint64 *) b;

  return x < y ? -1 : x > y;
}

/* The want list becomes the sorted set of chunks, with room for their entries. */
static gboolean
seal (PgsFrameTable  *table,
      GError        **error)
{
  guint64 *w = (guint64 *) (void *) table->wanted->data;
  gsize n = table->wanted->len, n_values, n_bytes;
  gsize k = 0;

  if (n > 0)
    qsort (w, n, sizeof (guint64), compare_u64);
  for (gsize i = 0; i < n; i++)
    if (k == 0 || w[i] != w[k - 1])
      w[k++] = w[i];

  /* k is at most the number of pages asked about, so this cannot overflow in practice;
   * checked all the same, as everything sized from kernel data here. */
  if (!g_size_checked_mul (&n_values, k, table->chunk_frames) ||
      !g_size_checked_mul (&n_bytes, n_values, table->as_u32 ? sizeof (guint32) : sizeof (guint64)))
    {
      g_set_error (error, PGS_ERROR, PGS_ERROR_MALFORMED,
                   "too many page frames to look up (%" G_GSIZE_FORMAT " chunks)", k);
      return FALSE;
    }

  g_free (table->chunks);
  g_free (table->values);
  g_free (table->n_read);
  g_free (table->hash);
  table->chunks = g_memdup2 (w, MAX (k, 1) * sizeof (guint64));
  table->n_chunks = k;
  table->values = g_malloc (MAX (n_bytes, 8));
  table->n_read = g_new0 (guint32, MAX (k, 1));

  /* At most half full. k < 2^32: each chunk came from a page of some process. */
  if (k > G_MAXUINT32 / 2)
    {
      g_set_error (error, PGS_ERROR, PGS_ERROR_MALFORMED,
                   "too many page frames to look up (%" G_GSIZE_FORMAT " chunks)", k);
      return FALSE;
    }
  table->hash_bits = 4;
  while (((gsize) 1 << table->hash_bits) < 2 * k)
    table->hash_bits++;
  table->last = 0;
  table->hash = g_malloc0_n ((gsize) 1 << table->hash_bits, sizeof *table->hash);

  g_array_set_size (table->wanted, 0);
  if (table->filter != NULL)
    memset (table->filter, 0, FILTER_SIZE * sizeof *table->filter);
  return TRUE;
}

gboolean
pgs_frame_table_read (PgsFrameTable  *table,
                      int             fd,
                      GError        **error)
{
  const gsize max_chunks = MAX_READ_BYTES / 8 / table->chunk_frames;
  gsize i = 0;

  if (!seal (table, error))
    return FALSE;
  if (table->as_u32 && table->buf == NULL && table->n_chunks > 0)
    table->buf = g_new (guint64, MAX_READ_BYTES / 8);

  while (i < table->n_chunks)
    {
      gsize j = i + 1;
      guint64 first, bytes;
      gssize got;

      /* Slots of consecutive chunks are consecutive: one pread fills them all. */
      while (j < table->n_chunks && j - i < max_chunks && table->chunks[j] == table->chunks[j - 1] + 1)
        j++;

      first = table->chunks[i] << table->chunk_shift;
      bytes = (guint64) (j - i) * table->chunk_frames * 8;
      /* The frame number came from pagemap (at most 2^55), so first * 8 fits in an off_t;
       * a larger one (a damaged file) is past any kpage file, so unknown. */
      if (first > (G_GUINT64_CONSTANT (1) << 58))
        break;

      got = pgs_pread_full (fd, table->as_u32 ? table->buf : (guint64 *) table->values + i * table->chunk_frames,
                            bytes, first * 8);
      if (got < 0 && (errno == EINVAL || errno == EOVERFLOW))
        got = 0;
      else if (got < 0)
        {
          pgs_set_error_from_errno (error, errno, "kpage read at frame %" G_GUINT64_FORMAT, first);
          return FALSE;
        }

      if (table->as_u32 && got > 0)
        {
          guint32 *out = (guint32 *) table->values + i * table->chunk_frames;

          for (gssize e = 0; e < got / 8; e++)
            out[e] = (guint32) MIN (table->buf[e], G_MAXUINT32);
        }
      for (gsize c = i; c < j; c++)
        {
          guint64 start = (guint64) (c - i) * table->chunk_frames * 8;

          if ((guint64) got > start)
            table->n_read[c] = (guint32) (MIN ((guint64) got - start,
                                               (guint64) table->chunk_frames * 8) / 8);
        }
      /* A short read is the end of the file: every later chunk lies beyond it. */
      if ((guint64) got < bytes)
        break;
      i = j;
    }

  for (gsize c = 0; c < table->n_chunks; c++)
    {
      gsize mask = ((gsize) 1 << table->hash_bits) - 1;
      gsize h = hash_index (table, table->chunks[c]);

      while (table->hash[h].key != 0)
        h = (h + 1) & mask;
      table->hash[h].key = table->chunks[c] + 1;
      table->hash[h].slot = (guint32) c;
      table->hash[h].n_read = table->n_read[c];
    }

  return TRUE;
}

gboolean
pgs_frame_table_lookup (PgsFrameTable *table,
                        guint64        pfn,
                        guint64       *value)
{
  guint64 chunk = pfn >> table->chunk_shift;
  guint64 offset = pfn & (table->chunk_frames - 1);
  gsize slot;
  gsize mask, h;

  if (table->hash == NULL)
    return FALSE;

  mask = ((gsize) 1 << table->hash_bits) - 1;
  h = table->hash[table->last].key == chunk + 1 ? table->last : hash_index (table, chunk);
  while (table->hash[h].key != chunk + 1)
    {
      if (table->hash[h].key == 0)
        return FALSE;
      h = (h + 1) & mask;
    }
  table->last = h;
  slot = table->hash[h].slot;
  if (offset >= table->hash[h].n_read)
    return FALSE;
  if (table->as_u32)
    *value = ((const guint32 *) table->values)[slot * table->chunk_frames + offset];
  else
    *value = ((const guint64 *) table->values)[slot * table->chunk_frames + offset];
  return TRUE;
}
