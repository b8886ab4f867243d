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
 * Only where a cell is MIN_CELL_PIXELS wide or more: with smaller cells a line would cover
 * a third of the map or more, a grey mush over the small mappings. One cell a block then,
 * so the work is a band lookup per visible cell (the last band first: neighbours along the
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

/* The cell under the centre of each pixel from @first - 1 to @n (one beyond each side, for
 * the neighbours of the output's edge cells), -1 off the map. */
static gint64 *
cells_across (double   origin,
              double   scale,
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
      gint64 c = pgs_render_pixel_to_block (origin, scale, 1, extent, i + 0.5);

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
  guint64 gw;
  guint n_bands, band = 0;

  if (self->view != PGS_VIEW_RESIDENCY || self->layout != PGS_LAYOUT_HILBERT || !g->valid ||
      self->bands == NULL || self->bands->len < 2 ||
      g->scale * MIN_CELL_PIXELS > 1 + 1e-9 || g->scale_y * MIN_CELL_PIXELS > 1 + 1e-9)
    return;
  g_assert (g->a == 1);
  n_bands = self->bands->len;

  cols = cells_across (g->x0, g->scale, g->mw, width, &cx_first, &cx_last);
  rows = cells_across (g->y0, g->scale_y, g->mh, height, &cy_first, &cy_last);
  if (cx_last < 0 || cy_last < 0)
    return;

  /* The band of every cell in view and of those just beyond. */
  gw = cx_last - cx_first + 1;
  grid = g_new (guint32, gw * (cy_last - cy_first + 1));
  for (gint64 cy = cy_first; cy <= cy_last; cy++)
    for (gint64 cx = cx_first; cx <= cx_last; cx++)
      {
        guint32 *out = &grid[(cy - cy_first) * gw + (cx - cx_first)];
        const Band *b = &g_array_index (self->bands, Band, band);
        Range range;

        if (pgs_render_block_ranges (g, cx, cy, &range) == 0)
          {
            *out = NO_BAND;
            continue;
          }
        if (range.start < b->first_page || range.start >= b->first_page + b->n_pages)
          band = pgs_render_band_for_page (self, range.start);
        *out = band < n_bands ? band : NO_BAND;
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
