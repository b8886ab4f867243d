/* pgs-render-fill.c: the map's pixels
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * pgs_renderer_render(): each pixel the colour of the block of cells under its centre
 * (pgs-render-layout.c says which block, the residency and physical files what class it
 * has), then what is drawn over the cells: the ring round the highlighted frames of the
 * physical views, and the mappings' outlines of the residency view's Hilbert layout
 * (pgs-render-outline.c). It uses the renderer (pgs-render.c) and is never called back.
 */

#include "config.h"

#include <string.h>

#include "pgs-palette.h"
#include "pgs-render-private.h"

/* Outline mode: a marked pixel with an unmarked one within @thick pixels left, right,
 * above or below takes the halo, and one at @thick + 1 the highlight colour: a two-tone
 * ring. The halo, outside, has 3:1 or more against every class colour (see pgs-palette.c),
 * so a lone pixel of the process, all ring, stands out wherever it lies. The
 * edge of the output is no edge (the map may go on past it). Each row is made opaque
 * again once no later row reads it. */
#define AT(px, py) (((const guint32 *) (pixels + (gsize) (py) * stride))[px])

static void
make_opaque (guint8 *pixels,
             int     width,
             int     stride,
             int     y)
{
  guint32 *row = (guint32 *) (pixels + (gsize) y * stride);

  for (int x = 0; x < width; x++)
    row[x] |= 0xff000000u;
}

static void
outline_highlight (guint8  *pixels,
                   int      width,
                   int      height,
                   int      stride,
                   int      thick,
                   guint32  color,
                   guint32  halo)
{
  int reach = thick + 1;

  /* Both written with OUTLINE_ALPHA: neither counts as "outside" for later pixels. */
  color = (color & 0x00ffffffu) | OUTLINE_ALPHA;
  halo = (halo & 0x00ffffffu) | OUTLINE_ALPHA;
  for (int y = 0; y < height; y++)
    {
      guint32 *row = (guint32 *) (pixels + (gsize) y * stride);

      for (int x = 0; x < width; x++)
        {
          int edge = 0;

          if ((row[x] & 0xff000000u) != MARK_ALPHA)
            continue;
          for (int d = 1; d <= reach && edge == 0; d++)
            if ((x - d >= 0 && row[x - d] >> 24 == 0xff) ||
                (x + d < width && row[x + d] >> 24 == 0xff) ||
                (y - d >= 0 && AT (x, y - d) >> 24 == 0xff) ||
                (y + d < height && AT (x, y + d) >> 24 == 0xff))
              edge = d;
          if (edge > 0)
            row[x] = edge <= thick ? halo : color;
        }
      if (y >= reach)
        make_opaque (pixels, width, stride, y - reach);
    }
  for (int y = MAX (height - reach, 0); y < height; y++)
    make_opaque (pixels, width, stride, y);
}

#undef AT

/* A row of pixels from the class bytes of its blocks: columns [x_lo, x_hi] show block
 * @col[x] of @classes (@one_to_one: block x - x_lo, a pixel a block), the others the
 * background, as does class byte 0xff (a block without frames; @lut has it so, no class
 * comes that high). */
static inline void
fill_row (guint32       *row,
          int            width,
          int            x_lo,
          int            x_hi,
          const guint32 *col,
          gboolean       one_to_one,
          const guint8  *classes,
          const guint32 *lut,
          guint32        background)
{
  int x = 0;

  for (; x < x_lo; x++)
    row[x] = background;
  if (one_to_one && x_hi >= x_lo)
    {
      const guint64 ones = G_GUINT64_CONSTANT (0x0101010101010101);
      const guint8 *c = classes + col[x_lo];
      guint32 *out = row + x_lo;
      int n = x_hi - x_lo + 1, i = 0;

      /* Eight blocks of one class (most, on a map of any size) are eight pixels of one
       * colour: one compare, then stores the compiler can widen. */
      for (; i + 8 <= n; i += 8)
        {
          guint64 w;

          memcpy (&w, c + i, 8);
          if (w == (w & 0xff) * ones)
            {
              guint32 color = lut[w & 0xff];

              for (int k = 0; k < 8; k++)
                out[i + k] = color;
            }
          else
            for (int k = 0; k < 8; k++)
              out[i + k] = lut[c[i + k]];
        }
      for (; i < n; i++)
        out[i] = lut[c[i]];
      x = x_hi + 1;
    }
  for (; x <= x_hi; x++)
    row[x] = lut[classes[col[x]]];
  for (; x < width; x++)
    row[x] = background;
}

void
pgs_renderer_render (PgsRenderer *self,
                     guint8      *pixels,
                     int          width,
                     int          height,
                     int          stride)
{
  const Geometry *g;
  g_autofree gint64 *col_block = NULL;
  g_autofree Range *ranges = NULL;
  g_autofree guint8 *row_classes = NULL;
  g_autofree guint32 *col = NULL;
  g_autofree guint8 *grid = NULL;
  gint64 prev_by = -2, bx_first = -1, bx_last = -1, grid_by_first = 0;
  int x_lo = 0, x_hi = -1;
  gboolean one_to_one = TRUE;
  guint32 background, lut[256];

  g_return_if_fail (PGS_IS_RENDERER (self));
  g_return_if_fail (pixels != NULL);
  g_return_if_fail (width > 0 && height > 0 && stride >= width * 4);

  pgs_render_prepare (self);
  g = pgs_render_get_geometry (self, width, height);
  background = self->background;
  memcpy (lut, self->lut, sizeof lut);
  lut[0xff] = background;

  if (!g->valid || (self->view != PGS_VIEW_RESIDENCY && self->classes == NULL))
    {
      for (int y = 0; y < height; y++)
        {
          guint32 *row = (guint32 *) (pixels + (gsize) y * stride);

          for (int x = 0; x < width; x++)
            row[x] = background;
        }
      return;
    }

  col_block = g_new (gint64, width);
  {
    guint64 n_cols = 0;
    gint64 last = -1;

    for (int x = 0; x < width; x++)
      {
        col_block[x] = pgs_render_pixel_to_block (g->x0, g->scale, g->a, g->mw, x + 0.5);
        if (col_block[x] >= 0)
          {
            if (bx_first < 0)
              bx_first = col_block[x];
            bx_last = col_block[x];
          }
        if (col_block[x] >= 0 && col_block[x] != last)
          n_cols++;
        last = col_block[x];
      }
    pgs_render_ensure_hilbert_table (&self->geometry,
                                     n_cols * MAX (1, (guint64) (height * g->scale / g->a)));
  }
  ranges = g_new (Range, MAX (g->a, g->ay));
  if (bx_last >= 0)
    {
      row_classes = g_malloc (bx_last - bx_first + 1);
      /* The columns on the map are one stretch (blocks grow with x): each one's block,
       * from the first. */
      col = g_new (guint32, width);
      for (int x = width - 1; x >= 0; x--)
        if (col_block[x] >= 0)
          {
            x_lo = x;
            x_hi = MAX (x_hi, x);
            col[x] = col_block[x] - bx_first;
          }
      for (int x = x_lo; x <= x_hi; x++)
        one_to_one &= col[x] == (guint32) (x - x_lo);
    }
  if (self->view != PGS_VIEW_RESIDENCY && self->layout == PGS_LAYOUT_HILBERT)
    {
      gint64 by_first = -1, by_last = -1;

      for (int y = 0; y < height; y++)
        {
          gint64 by = pgs_render_pixel_to_block (g->y0, g->scale_y, g->ay, g->mh, y + 0.5);

          if (by >= 0)
            {
              if (by_first < 0)
                by_first = by;
              by_last = by;
            }
        }
      grid = pgs_render_hilbert_grid (g, self->classes, self->view == PGS_VIEW_FLAGS,
                                      bx_first, bx_last, by_first, by_last);
      grid_by_first = by_first;
    }

  for (int y = 0; y < height; y++)
    {
      guint32 *row = (guint32 *) (pixels + (gsize) y * stride);
      gint64 by = pgs_render_pixel_to_block (g->y0, g->scale_y, g->ay, g->mh, y + 0.5);
      gint64 prev_bx = -2;
      guint32 color = background;

      /* Rows on the same block row as the row above are the same pixels. */
      if (by == prev_by && y > 0)
        {
          memcpy (row, pixels + (gsize) (y - 1) * stride, (gsize) width * 4);
          continue;
        }
      prev_by = by;

      if (grid != NULL && by >= 0)
        {
          fill_row (row, width, x_lo, x_hi, col, one_to_one,
                    grid + (by - grid_by_first) * (bx_last - bx_first + 1), lut, background);
          continue;
        }

      /* Linear: every block of the row at once, in one walk over the runs of each row. */
      if (by >= 0 && bx_last >= 0 && self->view != PGS_VIEW_RESIDENCY &&
          self->layout == PGS_LAYOUT_LINEAR)
        {
          pgs_class_runs_linear_row (self->classes, self->view == PGS_VIEW_FLAGS, g->n, g->mw,
                                     g->mh, g->a, g->ay, by, bx_first, bx_last, row_classes);
          fill_row (row, width, x_lo, x_hi, col, one_to_one, row_classes, lut, background);
          continue;
        }

      for (int x = 0; x < width; x++)
        {
          gint64 bx = col_block[x];

          if (bx != prev_bx)
            {
              prev_bx = bx;
              if (bx < 0 || by < 0)
                color = background;
              else
                {
                  guint8 c = pgs_render_block_class (self, g, bx, by, ranges);

                  color = c == 0xff ? background : self->lut[c];
                }
            }
          row[x] = color;
        }
    }

  pgs_render_outline_bands (self, g, pixels, width, height, stride);
  if (self->highlighted && self->highlight_mode == PGS_HIGHLIGHT_OUTLINE &&
      self->view != PGS_VIEW_RESIDENCY)
    /* Cells a few pixels wide get a ring they can be seen with; a pixel over many frames
     * is all ring. */
    outline_highlight (pixels, width, height, stride,
                       g->scale >= 1.0 / 5 ? 1 : g->scale >= 1.0 / 10 ? 2 : 3,
                       pgs_palette_style (self->style)->highlight,
                       pgs_palette_style (self->style)->halo);
}
