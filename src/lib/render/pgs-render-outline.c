/* pgs-render-outline.c: where one mapping ends and the next begins, on the Hilbert layout
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * On the rows layout each mapping starts a row, so bands show where mappings meet. On the
 * Hilbert layout a mapping is a run of the curve, a blob of cells whose edge nothing
 * marked: two mappings of the same class (two reservations never touched) read as one.
 * Here, once the fill is done, each boundary between cells of two mappings becomes a line
 * one pixel wide, on the first pixel column (or row) of the cell right of (or below) it,
 * so the line never lies over the other mapping's cells, nor over a cell's last pixel.
 *
 * Its colour is the cell's own, mixed most of the way towards the background: a gap in the
 * map, as between the tiles of a treemap. Every class colour has a contrast of 3:1 or more
 * against its style's background (pgs-palette.c, in all four styles), so a line of nearly
 * that colour reads on every cell, light or dark; a line of one colour (the text colour,
 * or black with a halo) cannot: the light style's classes run from L* 20 to L* 62, the dark
 * style's from 45 to 95, and whichever end the line takes, the classes at that end hide
 * it. Mixed rather than the background itself, a line is never taken for the background
 * round the map, and it keeps a trace of the cell's hue. Where a mapping meets no mapping
 * (the curve's empty end, the map's edge) the background is the line already.
 *
 * Where a cell is MIN_CELL_PIXELS wide or more, between cells. Where cells are smaller, a
 * line between every two would cover a third of the map or more, a grey mush over the
 * small mappings: the lines go between aligned blocks of cells instead, the smallest that
 * are MIN_CELL_PIXELS wide, and only between two blocks each wholly of one mapping. A block
 * is a run of the curve, so a mapping shares a block with another at each end of its run
 * at most: a large mapping is outlined nearly whole, on its cells' own borders, while
 * mappings smaller than a block, which share their blocks, are left without lines.
 *
 * The work is a band lookup per visible block (the last band first: neighbours along the
 * curve are mostly of one mapping) and a comparison per pixel, a few milliseconds for a
 * full-screen map, paid once per render, not per frame: the app keeps the pixels.
 */

#include "config.h"

#include "pgs-render-private.h"

#define MIN_CELL_PIXELS 3
#define NO_BAND         G_MAXUINT32
/* The background's share of a line's colour, out of 256. */
#define OUTLINE_MIX     208

static inline guint32
mix (guint32 color,
     guint32 background)
{
  guint32 out = 0xff000000u;

  for (int shift = 0; shift < 24; shift += 8)
    {
      guint32 c = (color >> shift) & 0xff, b = (background >> shift) & 0xff;

      out |= ((b * OUTLINE_MIX + c * (256 - OUTLINE_MIX) + 128) >> 8) << shift;
    }
  return out;
}

/* The block (of @side cells) under the centre of each pixel from -1 to @n (one beyond each
 * side, for the neighbours of the output's edge blocks), -1 off the map. */
static gint64 *
cells_across (double   origin,
              double   scale,
              guint64  side,
              guint64  extent,
              int      n,
              gint64  *lo,
              gint64  *hi)
{
  gint64 *cells = g_new (gint64, n + 2);

  *lo = G_MAXINT64;
  *hi = -1;
  for (int i = -1; i <= n; i++)
    {
      gint64 c = pgs_render_pixel_to_block (origin, scale, side, extent, i + 0.5);

      cells[i + 1] = c;
      if (c >= 0)
        {
          *lo = MIN (*lo, c);
          *hi = MAX (*hi, c);
        }
    }
  return cells;
}

void
pgs_render_outline_bands (PgsRenderer    *self,
                          const Geometry *g,
                          guint8         *pixels,
                          int             width,
                          int             height,
                          int             stride)
{
  g_autofree gint64 *cols = NULL;
  g_autofree gint64 *rows = NULL;
  g_autofree guint32 *grid = NULL;
  gint64 cx_first, cx_last, cy_first, cy_last;
  guint64 gw, side = g->a;
  guint band = 0;
  Geometry blocks;

  if (self->view != PGS_VIEW_RESIDENCY || self->layout != PGS_LAYOUT_HILBERT || !g->valid ||
      self->bands == NULL || self->bands->len < 2 || g->scale != g->scale_y)
    return;
  /* Blocks of side x side cells, MIN_CELL_PIXELS wide or more: single cells from 3 pixels
   * a cell, aligned squares of cells below. Each is a run of the curve inside one tile. */
  while ((double) side < g->scale * MIN_CELL_PIXELS - 1e-9)
    side *= 2;
  if (side > g->tile)
    return;
  blocks = *g;
  blocks.a = blocks.ay = side;
  blocks.band_row = NULL;
  blocks.hilbert_table = NULL;
  blocks.hilbert_side = 0;

  cols = cells_across (g->x0, g->scale, side, g->mw, width, &cx_first, &cx_last);
  rows = cells_across (g->y0, g->scale_y, side, g->mh, height, &cy_first, &cy_last);
  if (cx_last < 0 || cy_last < 0)
    return;

  /* The band of every block in view and of those just beyond: NO_BAND where it is empty,
   * in part or whole, or holds pages of two mappings. A mapping's run of the curve has one
   * such block at each end at most, so its outline is whole but there; a small mapping
   * shares its blocks with others and gets none, rather than a grid of lines. */
  gw = cx_last - cx_first + 1;
  grid = g_new (guint32, gw * (cy_last - cy_first + 1));
  for (gint64 cy = cy_first; cy <= cy_last; cy++)
    for (gint64 cx = cx_first; cx <= cx_last; cx++)
      {
        guint32 *out = &grid[(cy - cy_first) * gw + (cx - cx_first)];
        const Band *b = &g_array_index (self->bands, Band, band);
        Range range;

        *out = NO_BAND;
        if (pgs_render_block_ranges (&blocks, cx, cy, &range) == 0 ||
            range.end - range.start < side * side)
          continue;
        if (range.start < b->first_page || range.start >= b->first_page + b->n_pages)
          {
            band = pgs_render_band_for_page (self, range.start);
            b = &g_array_index (self->bands, Band, band);
          }
        if (range.end <= b->first_page + b->n_pages)
          *out = band;
      }

  for (int y = 0; y < height; y++)
    {
      guint32 *row = (guint32 *) (pixels + (gsize) y * stride);
      gint64 cy = rows[y + 1], up = rows[y];
      const guint32 *here, *above;

      if (cy < 0)
        continue;
      here = grid + (cy - cy_first) * gw;
      /* The cell's first pixel row, below another cell of the map. */
      above = up >= 0 && up != cy ? grid + (up - cy_first) * gw : NULL;
      for (int x = 0; x < width; x++)
        {
          gint64 cx = cols[x + 1], left = cols[x];
          guint32 m;
          gboolean line = FALSE;

          if (cx < 0 || (m = here[cx - cx_first]) == NO_BAND)
            continue;
          if (left >= 0 && left != cx)
            line = here[left - cx_first] != NO_BAND && here[left - cx_first] != m;
          if (!line && above != NULL)
            line = above[cx - cx_first] != NO_BAND && above[cx - cx_first] != m;
          if (line)
            row[x] = mix (row[x], self->background);
        }
    }
}
