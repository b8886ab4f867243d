/* pgs-render-physical-row.c: a block row of the linear layout from the class runs
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every block of a row at once: small blocks (a few frames a pixel) from the row laid out a
 * byte a frame, larger ones from one walk over the runs of each row of frames.
 */

#include "config.h"

#include <string.h>

#include "pgs-category.h"
#include "pgs-render-physical-private.h"

/* Blocks this small or smaller (a <= BYTES_MAX_SIDE) are drawn from a byte a frame. */
#define BYTES_MAX_SIDE 4

/* Whether the @a bytes at @p are all @c (@a a constant where inlined). */
static inline __attribute__ ((always_inline)) gboolean
bytes_all (const guint8 *p,
           guint         a,
           guint8        c)
{
  guint16 x2;
  guint32 x4;

  switch (a)
    {
    case 1:
      return p[0] == c;
    case 2:
      memcpy (&x2, p, 2);
      return x2 == c * 0x0101u;
    case 4:
      memcpy (&x4, p, 4);
      return x4 == c * 0x01010101u;
    default:
      for (guint x = 0; x < a; x++)
        if (p[x] != c)
          return FALSE;
      return TRUE;
    }
}

/* Blocks 0 to @n_blocks - 1, each @ay rows of @a bytes (@a a constant where inlined, @ay
 * <= @a). Most are one byte throughout: that is checked first, a row a compare. */
static inline __attribute__ ((always_inline)) void
blocks_whole (const guint8 *bytes,
              guint64       stride,
              guint64       n_blocks,
              guint         a,
              guint         ay,
              gboolean      mode,
              guint8       *out)
{
  for (guint64 b = 0; b < n_blocks; b++)
    {
      const guint8 *p = bytes + b * a;
      guint8 v[BYTES_MAX_SIDE * BYTES_MAX_SIDE], c = p[0];
      gboolean same = bytes_all (p, a, c);

      /* Spelt out so that a constant @a leaves no loop. */
      if (ay > 1)
        same = same && bytes_all (p + stride, a, c);
      if (ay > 2)
        same = same && bytes_all (p + 2 * stride, a, c);
      if (ay > 3)
        same = same && bytes_all (p + 3 * stride, a, c);
      if (same)
        {
          out[b] = !mode || (c & PGS_CLASS_MASK) < PGS_N_CATEGORIES ? c : c & PGS_CLASS_HIGHLIGHT;
          continue;
        }
      /* (v[0] is p[0]: said first, so the compiler sees it set whatever ay is.) */
      v[0] = c;
      for (guint k = 0; k < ay; k++)
        for (guint x = 0; x < a; x++)
          v[k * a + x] = p[k * stride + x];
      out[b] = mode && a == 2 && ay == 2 ? bytes_mode4 (v) : bytes_class (v, a * ay, mode);
    }
}

#if G_BYTE_ORDER == G_LITTLE_ENDIAN
/* blocks_whole() for 2 x 2 blocks, four at a time: the bytes of two rows as two words,
 * which say at once which of the four blocks are one class throughout (one word
 * compare, the usual case) and, in mode, whether any class is past the categories. */
static void
blocks_2x2 (const guint8 *bytes,
            guint64       stride,
            guint64       n_blocks,
            gboolean      mode,
            guint8       *out)
{
  const guint64 ones = G_GUINT64_CONSTANT (0x0101010101010101);
  const guint64 even = G_GUINT64_CONSTANT (0x00ff00ff00ff00ff);
  guint64 b = 0;

  for (; b + 4 <= n_blocks; b += 4)
    {
      const guint8 *p = bytes + b * 2;
      guint64 r0, r1, m, ok;

      memcpy (&r0, p, 8);
      memcpy (&r1, p + stride, 8);
      /* Lane i (16 bits) of m is 0 when block i is one class: its two rows alike, the
       * two bytes of its first row alike. */
      m = (r0 ^ r1) | ((r0 ^ (r0 >> 8)) & even);
      /* High bit of a byte of ok: that class is past the categories (no carry between
       * bytes of 0x7f or less). */
      ok = mode ? (((r0 & 0x7f * ones) + (0x80 - PGS_N_CATEGORIES) * ones) & 0x80 * ones) : 0;
      if (m == 0 && ok == 0)
        {
          guint64 x = r0 & even;

          x = (x | x >> 8) & G_GUINT64_CONSTANT (0x0000ffff0000ffff);
          x = x | x >> 16;
          out[b] = (guint8) x;
          out[b + 1] = (guint8) (x >> 8);
          out[b + 2] = (guint8) (x >> 16);
          out[b + 3] = (guint8) (x >> 24);
          continue;
        }
      for (guint i = 0; i < 4; i++)
        {
          const guint8 *q = p + 2 * i;
          guint8 c = q[0];

          if (!mode)
            {
              /* The highest class: cheap enough to work out for every block and keep
               * or not, which beats a branch that a dense map takes at random. */
              guint8 v[4] = { q[0], q[1], q[stride], q[stride + 1] };
              guint8 mixed = bytes_class (v, 4, FALSE);

              out[b + i] = ((m >> (16 * i)) & 0xffff) == 0 ? c : mixed;
            }
          else if (((m >> (16 * i)) & 0xffff) == 0)
            out[b + i] = (c & PGS_CLASS_MASK) < PGS_N_CATEGORIES ? c : c & PGS_CLASS_HIGHLIGHT;
          else
            {
              guint8 v[4] = { q[0], q[1], q[stride], q[stride + 1] };

              out[b + i] = bytes_mode4 (v);
            }
        }
    }
  blocks_whole (bytes + b * 2, stride, n_blocks - b, 2, 2, mode, out + b);
}
#endif

/* A block at the edge: the bytes from @x0 of each row of @len[k] bytes. */
static guint8
block_row_class (const guint8  *bytes,
                 guint64        stride,
                 guint64        x0,
                 guint          rows,
                 const guint64 *len,
                 guint64        a,
                 gboolean       mode)
{
  guint8 v[BYTES_MAX_SIDE * BYTES_MAX_SIDE];
  guint nv = 0;

  for (guint k = 0; k < rows; k++)
    for (guint64 x = x0; x < MIN (x0 + a, len[k]); x++)
      v[nv++] = bytes[k * stride + x];
  return nv > 0 ? bytes_class (v, nv, mode) : 0xff;
}

/* Bytes a fill_bytes() may write past its end. */
#define FILL_SLACK 16

/* memset() for the pieces of a row, mostly a few bytes long (a run every 10 to 60
 * frames): two 8-byte stores, which may spill up to FILL_SLACK bytes past @n. The row is
 * laid out left to right and row after row, so the next piece or row writes over the
 * spill; the buffer has the slack past its last row. */
static inline void
fill_bytes (guint8 *p,
            guint8  c,
            guint64 n)
{
  guint64 word = c * G_GUINT64_CONSTANT (0x0101010101010101);

  memcpy (p, &word, 8);
  memcpy (p + 8, &word, 8);
  if (G_UNLIKELY (n > 16))
    memset (p + 16, c, n - 16);
}

/* pgs_class_runs_linear_row() for small blocks (a few frames a pixel, as on a machine
 * of tens of GiB): the classes of the block row's frames laid out a byte a frame (one
 * memset a run), then each block from its a x a bytes. Walking the runs block by block
 * costs more than this when a run holds only a few blocks. */
static void
linear_row_bytes (PgsClassRuns *self,
                  gboolean      mode,
                  guint64       n,
                  guint64       mw,
                  guint64       mh,
                  guint64       a,
                  guint64       ay,
                  guint64       by,
                  guint64       bx0,
                  guint64       bx1,
                  guint8       *out)
{
  const guint8 *klass = self->cur->klass;
  guint64 nb = bx1 - bx0 + 1, stride = nb * a, len[BYTES_MAX_SIDE] = { 0 };
  g_autofree guint8 *bytes = NULL;
  guint rows = 0;

  /* One run over the whole block row (free memory, a large file): every block is one
   * class, what blocks_whole() gives a uniform block. Only when every block is whole. */
  if ((by + 1) * ay <= mh && (bx1 + 1) * a <= mw &&
      ((by + 1) * ay - 1) * mw + (bx1 + 1) * a <= n)
    {
      Walk walk = walk_start (self, by * ay * mw + bx0 * a);

      if (walk.re >= ((by + 1) * ay - 1) * mw + (bx1 + 1) * a)
        {
          guint8 c = klass[walk.i];

          memset (out, !mode || (c & PGS_CLASS_MASK) < PGS_N_CATEGORIES ? c : c & PGS_CLASS_HIGHLIGHT,
                  nb);
          return;
        }
    }
  /* FILL_SLACK past the last row: fill_bytes() may write that far. */
  bytes = g_malloc (stride * ay + FILL_SLACK);

  for (guint64 y = by * ay; y < MIN ((by + 1) * ay, mh); y++)
    {
      guint64 row = y * mw, s = row + bx0 * a, e = MIN (row + MIN ((bx1 + 1) * a, mw), n);
      guint8 *line = bytes + rows * stride;
      Walk walk;

      if (s >= e)
        break;
      walk = walk_start (self, s);
      if (self->cur->epochs->len == 0)
        {
          /* Below 2^32 frames (always, short of 16 TiB): each run's end is the next one's
           * low bits, read straight (a dense map has a run every few frames). */
          const guint32 *lo = self->cur->lo;
          guint64 i = walk.i, last = self->cur->n - 1, rs = walk.rs, re = walk.re, ps = s;

          for (;;)
            {
              fill_bytes (line + (ps - s), klass[i], MIN (re, e) - ps);
              if (re >= e || i == last)
                break;
              ps = rs = re;
              i++;
              re = i < last ? lo[i + 1] : self->cur->n_frames;
            }
          cursor_set (self, i, rs, re);
        }
      else
        do
          {
            guint64 ps = MAX (walk.rs, s), pe = MIN (walk.re, e);

            fill_bytes (line + (ps - s), klass[walk.i], pe - ps);
          }
        while (walk_next (self, &walk, e));
      len[rows++] = e - s;
    }

  /* Whole blocks (ay rows, a frames each) with a known at compile time, then the rest. */
  {
    guint64 full = rows == ay ? nb : 0;

    for (guint k = 0; k < rows; k++)
      full = MIN (full, len[k] / a);

    switch (a)
      {
      case 1: blocks_whole (bytes, stride, full, 1, ay, mode, out); break;
      case 2:
#if G_BYTE_ORDER == G_LITTLE_ENDIAN
        if (ay == 2)
          {
            blocks_2x2 (bytes, stride, full, mode, out);
            break;
          }
#endif
        blocks_whole (bytes, stride, full, 2, ay, mode, out);
        break;
      case 3: blocks_whole (bytes, stride, full, 3, ay, mode, out); break;
      case 4: blocks_whole (bytes, stride, full, 4, ay, mode, out); break;
      default: g_assert_not_reached ();
      }
    /* Blocks at the right or bottom edge of the map: fewer rows or frames. */
    for (guint64 b = full; b < nb; b++)
      out[b] = block_row_class (bytes, stride, b * a, rows, len, a, mode);
  }
}

/* pgs_class_runs_linear_row() for larger blocks: one walk over the runs of each row of
 * frames, each run's piece added to the blocks it covers. */
static void
linear_row_runs (PgsClassRuns *self,
                 gboolean      mode,
                 guint64       n,
                 guint64       mw,
                 guint64       mh,
                 guint64       a,
                 guint64       ay,
                 guint64       by,
                 guint64       bx0,
                 guint64       bx1,
                 guint8       *out)
{
  const Runs *r = self->cur;
  guint64 nb = bx1 - bx0 + 1, width = PGS_N_CATEGORIES;
  /* Most blocks hold one class or a few: their (class, weight) pairs in a short list, and
   * a histogram only for a block with more (SMALL + 1 in n_small). */
  g_autofree guint8 *small_class = mode ? g_new (guint8, nb * SMALL) : NULL;
  g_autofree guint64 *small_weight = mode ? g_new (guint64, nb * SMALL) : NULL;
  g_autofree guint8 *n_small = mode ? g_new0 (guint8, nb) : NULL;
  g_autofree guint64 *hist = NULL;
  g_autofree guint8 *any = g_new0 (guint8, nb);
  g_autofree guint8 *best = g_new0 (guint8, nb);
  g_autofree guint64 *weight = g_new0 (guint64, nb);

  for (guint64 y = by * ay; y < MIN ((by + 1) * ay, mh); y++)
    {
      guint64 row = y * mw, s = row + bx0 * a, e = MIN (row + MIN ((bx1 + 1) * a, mw), n);
      /* Block b of the row and where it ends: moved on as the pieces pass, no division. */
      guint64 b = 0, block_end = s + a, ps = s;
      Walk walk;

      if (s >= e)
        break;
      walk = walk_start (self, s);
      do
        {
          guint8 c = r->klass[walk.i], cm = c & PGS_CLASS_MASK;
          guint64 pe = MIN (walk.re, e);

          /* The run's piece of the row, block by block. */
          while (ps < pe)
            {
              guint64 be = MIN (pe, block_end), w = be - ps;

              if (mode && cm < PGS_N_CATEGORIES)
                {
                  guint k = n_small[b];

                  if (k == 1 && small_class[b * SMALL] == cm)
                    small_weight[b * SMALL] += w;
                  else if (k <= SMALL)
                    {
                      guint j;

                      for (j = 0; j < k && small_class[b * SMALL + j] != cm; j++)
                        ;
                      if (j < k)
                        small_weight[b * SMALL + j] += w;
                      else if (k < SMALL)
                        {
                          small_class[b * SMALL + k] = cm;
                          small_weight[b * SMALL + k] = w;
                          n_small[b]++;
                        }
                      else
                        {
                          if (hist == NULL)
                            hist = g_new (guint64, nb * width);
                          memset (hist + b * width, 0, width * sizeof *hist);
                          for (j = 0; j < SMALL; j++)
                            hist[b * width + small_class[b * SMALL + j]] = small_weight[b * SMALL + j];
                          hist[b * width + cm] += w;
                          n_small[b] = SMALL + 1;
                        }
                    }
                  else
                    hist[b * width + cm] += w;
                }
              best[b] = MAX (best[b], cm);
              any[b] |= c;
              weight[b] += w;
              ps = be;
              if (ps == block_end)
                {
                  b++;
                  block_end += a;
                }
            }
        }
      while (walk_next (self, &walk, e));
    }

  for (guint64 b = 0; b < nb; b++)
    {
      guint8 c = best[b];

      if (weight[b] == 0)
        {
          out[b] = 0xff;
          continue;
        }
      if (mode)
        {
          guint64 best_n = 0;

          /* Most common, ties to the lowest class. */
          c = 0;
          if (n_small[b] <= SMALL)
            for (guint j = 0; j < n_small[b]; j++)
              {
                guint8 k = small_class[b * SMALL + j];
                guint64 wk = small_weight[b * SMALL + j];

                if (wk > best_n || (wk == best_n && k < c))
                  {
                    best_n = wk;
                    c = k;
                  }
              }
          else
            for (guint k = 0; k < PGS_N_CATEGORIES; k++)
              if (hist[b * width + k] > best_n)
                {
                  best_n = hist[b * width + k];
                  c = k;
                }
        }
      out[b] = c | (any[b] & PGS_CLASS_HIGHLIGHT);
    }
}

void
pgs_class_runs_linear_row (PgsClassRuns *self,
                           gboolean      mode,
                           guint64       n,
                           guint64       mw,
                           guint64       mh,
                           guint64       a,
                           guint64       ay,
                           guint64       by,
                           guint64       bx0,
                           guint64       bx1,
                           guint8       *out)
{
  n = MIN (n, self->n_frames);
  /* Blocks may have fewer rows than columns (the rows layout filling the canvas,
   * pgs-render-layout.c): ay <= a. */
  if (a <= BYTES_MAX_SIDE && ay <= a)
    linear_row_bytes (self, mode, n, mw, mh, a, ay, by, bx0, bx1, out);
  else
    linear_row_runs (self, mode, n, mw, mh, a, ay, by, bx0, bx1, out);
}
