/* pgs-render-layout.c: where the map lies on the output, and what each pixel covers
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Geometry. The map is a grid of cells, one page (or frame) each, mw x mh cells. At zoom 1
 * a pixel is s0 x s0 cells, s0 a whole number (or 1/k, any whole k, when the map is small
 * and is magnified), chosen as the smallest that fits, so every pixel of the unzoomed picture
 * stands for the same number of pages. At other zooms a pixel is s = s0 / zoom cells wide
 * and shows the aligned block of A x A cells under its centre, A the smallest power of two
 * >= s: since a block is at least as wide as a pixel, no block falls between two pixel
 * centres, so no page is ever dropped from the picture.
 *
 * One exception, for filling the canvas: on the rows layout of a physical map with more
 * frames than pixels, a pixel may be s0 columns by s0y < s0 rows (s0y >= s0 / 2), and
 * blocks A x Ay cells; magnified, rows and columns are one scale again (square cells).
 *
 * Aligned power-of-two blocks are what make this fast. On the Hilbert layout (square tiles
 * of T x T cells, each filled along a Hilbert curve, tiles in rows) every aligned block of
 * A x A cells is one contiguous range of A² frames; on the linear layout it is A ranges of A.
 * Per frame, the work is one byte of a class array (computed once per snapshot through the
 * lookup tables of pgs-category.c and kept) and a max or a histogram; per pixel, one colour
 * table lookup. Pixel rows and columns that fall on the same block are copied, not
 * recomputed. No cairo call touches the map itself.
 *
 * Here: the geometry (linear and Hilbert layouts, zoom and centre), the cell ranges of a
 * block and the block of a cell, and the Hilbert block order tables: numbers only. The
 * renderer (pgs-render.c) and its queries (pgs-render-query.c) use them.
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "pgs-render-layout.h"

void
pgs_render_geometry_clear (Geometry *g)
{
  g_clear_pointer (&g->band_row, g_free);
  memset (g, 0, sizeof *g);
}

/* ---- geometry ---- */

/* (x, y) → index along a Hilbert curve filling a side x side square (side a power of two),
 * starting at (0, 0) and ending at (side - 1, 0). */
static guint64
hilbert_xy2d (guint64 side,
              guint64 x,
              guint64 y)
{
  guint64 d = 0;

  for (guint64 s = side / 2; s > 0; s /= 2)
    {
      guint64 rx = (x & s) > 0, ry = (y & s) > 0;

      d += s * s * ((3 * rx) ^ ry);
      if (ry == 0)
        {
          guint64 t;

          if (rx == 1)
            {
              x = side - 1 - x;
              y = side - 1 - y;
            }
          t = x;
          x = y;
          y = t;
        }
    }
  return d;
}

static void
hilbert_d2xy (guint64  side,
              guint64  d,
              guint64 *xp,
              guint64 *yp)
{
  guint64 x = 0, y = 0, t = d;

  for (guint64 s = 1; s < side; s *= 2)
    {
      guint64 rx = 1 & (t / 2), ry = 1 & (t ^ rx);

      if (ry == 0)
        {
          guint64 tmp;

          if (rx == 1)
            {
              x = s - 1 - x;
              y = s - 1 - y;
            }
          tmp = x;
          x = y;
          y = tmp;
        }
      x += s * rx;
      y += s * ry;
      t /= 4;
    }
  *xp = x;
  *yp = y;
}

/* Rows the bands take at @mw columns, each band starting a row. */
static guint64
band_rows (const guint64 *band_pages,
           guint          n_bands,
           guint64        mw,
           guint64       *row_starts)
{
  guint64 rows = 0;

  for (guint b = 0; b < n_bands; b++)
    {
      if (row_starts != NULL)
        row_starts[b] = rows;
      rows += (band_pages[b] + mw - 1) / mw;
    }
  if (row_starts != NULL)
    row_starts[n_bands] = rows;
  return rows;
}

/* Tries cells per pixel @s0 across and @s0y down (whole numbers, or the same inverse of
 * one): does the map fit? */
static gboolean
try_fit (Geometry      *g,
         const guint64 *band_pages,
         guint          n_bands,
         double         s0,
         double         s0y)
{
  /* 1e-9: a third times 900 must give 300 columns, not 299.99… */
  guint64 wc = (guint64) floor (g->width * s0 + 1e-9), hc = (guint64) floor (g->height * s0y + 1e-9);
  guint64 a0 = s0 >= 1 ? (guint64) s0 : 1;

  if (wc == 0 || hc == 0)
    return FALSE;

  if (g->layout == PGS_LAYOUT_HILBERT)
    {
      /* The largest tile that fits, for the most locality; at least one block. */
      for (guint64 t = G_GUINT64_CONSTANT (1) << 31; t >= a0; t /= 2)
        {
          guint64 tx, ty, need;

          if (t > wc || t > hc)
            continue;
          tx = wc / t;
          ty = hc / t;
          need = (g->n + t * t - 1) / (t * t);
          if (tx * ty < need)
            continue;
          /* As compact as the tile count allows. */
          tx = MIN (tx, need);
          ty = (need + tx - 1) / tx;
          tx = (need + ty - 1) / ty;
          g->tile = t;
          g->tiles_x = tx;
          g->n_tiles = need;
          g->mw = tx * t;
          g->mh = ty * t;
          return TRUE;
        }
      return FALSE;
    }

  g->mw = wc;
  if (band_pages != NULL)
    g->mh = band_rows (band_pages, n_bands, wc, NULL);
  else
    g->mh = (g->n + wc - 1) / wc;
  return g->mh <= hc;
}

/* 8 × (1 / 3) × 3 is 8, not 8.000000001, which would double the Hilbert block side. */
static double
snap_scale (double s)
{
  if (s >= 1 && fabs (s - round (s)) < 1e-9 * s)
    return round (s);
  if (s < 1 && fabs (1 / s - round (1 / s)) < 1e-9 / s)
    return 1 / round (1 / s);
  return s;
}

void
pgs_render_geometry_fit (Geometry      *g,
                         PgsLayout      layout,
                         guint64        n,
                         const guint64 *band_pages,
                         guint          n_bands,
                         int            width,
                         int            height,
                         int            fit_width,
                         int            fit_height,
                         double         zoom,
                         double         center_x,
                         double         center_y)
{
  double s, sy, map_w, map_h, ratio = 1.0;

  pgs_render_geometry_clear (g);
  g->layout = layout;
  g->n = n;
  if (width <= 0 || height <= 0 || g->n == 0)
    return;
  /* The cells are laid out (tiles, row width) for the fit size, the output's by default. */
  if (fit_width <= 0 || fit_height <= 0)
    {
      fit_width = width;
      fit_height = height;
    }
  g->width = fit_width;
  g->height = fit_height;

  /* The smallest scale (most pixels per page) that fits: magnifications 1/64 … 1/1, then
   * whole numbers of cells per pixel. A magnified cell is k x k whole pixels for any k, so
   * every k is tried: powers of two alone left up to three quarters of the output empty
   * (a map that missed 8 x 8 pixel cells got 4 x 4 and filled a quarter). Above one cell a
   * pixel, the Hilbert layout needs powers of two, for blocks that are whole sub-squares
   * of a tile; rows take any whole number, which fills the output better. */
  for (int k = MAX_MAGNIFY; k >= 1 && !g->valid; k--)
    if (try_fit (g, band_pages, n_bands, 1.0 / k, 1.0 / k))
      {
        g->s0 = g->s0y = 1.0 / k;
        g->valid = TRUE;
      }
  /* Rows of a physical map, more frames than pixels: a pixel is sx frames of each of sy
   * rows, sy from sx / 2 to sx, the fewest frames a pixel that fit. Square blocks alone
   * give 1, 4, 9, 16 … frames a pixel and a map that missed one drew on as little as a
   * quarter of the canvas; 2, 3 (no: sy >= sx / 2), 4, 6, 8, 9, 12 … fill it far better.
   * Residency keeps square blocks (its bands start rows), Hilbert its powers of two. */
  if (!g->valid && layout == PGS_LAYOUT_LINEAR && band_pages == NULL)
    {
      guint64 best = G_MAXUINT64;

      for (guint64 sx = 2; sx <= 64; sx++)
        for (guint64 sy = (sx + 1) / 2; sy <= sx; sy++)
          if (sx * sy < best && try_fit (g, band_pages, n_bands, sx, sy))
            {
              best = sx * sy;
              g->s0 = sx;
              g->s0y = sy;
            }
      if (best != G_MAXUINT64)
        g->valid = try_fit (g, band_pages, n_bands, g->s0, g->s0y);
    }
  for (guint64 s0 = 2; !g->valid && s0 < (G_GUINT64_CONSTANT (1) << 40);
       s0 = layout == PGS_LAYOUT_HILBERT || s0 >= 64 ? s0 * 2 : s0 + 1)
    if (try_fit (g, band_pages, n_bands, s0, s0))
      {
        g->s0 = g->s0y = s0;
        g->valid = TRUE;
      }
  g->width = width;
  g->height = height;
  if (!g->valid)
    return;
  if (fit_width != width || fit_height != height)
    ratio = MAX ((double) fit_width / width, (double) fit_height / height);

  if (band_pages != NULL && layout == PGS_LAYOUT_LINEAR)
    {
      g->band_row = g_new (guint64, n_bands + 1);
      band_rows (band_pages, n_bands, g->mw, g->band_row);
    }

  zoom = CLAMP (zoom, 1.0, g->s0 * MAX_MAGNIFY);
  s = g->s0 / zoom;
  /* Down the map: fewer rows a pixel than columns, until a pixel is one row; from there
   * rows wait for columns to reach one a pixel too, so magnified cells are square. */
  sy = MAX (g->s0y / zoom, MIN (1.0, s));
  /* Drawn at another size than fitted: the picture of the fit size, each pixel covering
   * more or fewer cells both ways (a pixel's shape kept), as large as fits both ways. */
  if (ratio != 1.0)
    {
      s = snap_scale (s * ratio);
      sy = snap_scale (sy * ratio);
      g->s0 = snap_scale (g->s0 * ratio);
      g->s0y = snap_scale (g->s0y * ratio);
    }
  g->scale = s;
  g->scale_y = sy;
  g->a = 1;
  if (layout == PGS_LAYOUT_HILBERT)
    while ((double) g->a < s)
      g->a *= 2;
  else
    g->a = (guint64) MAX (1.0, ceil (s - 1e-9));
  g->ay = g->s0y == g->s0 ? g->a : (guint64) MAX (1.0, ceil (sy - 1e-9));

  map_w = g->mw / s;
  map_h = g->mh / sy;
  /* A map narrower than the output is centred on a whole pixel; a wider one follows the
   * centre, clamped so no empty space shows on one side while map hides on the other. */
  if (map_w <= width)
    g->x0 = -floor ((width - map_w) / 2) * s;
  else
    g->x0 = CLAMP (center_x * g->mw, width * s / 2, g->mw - width * s / 2) - width * s / 2;
  if (map_h <= height)
    g->y0 = -floor ((height - map_h) / 2) * sy;
  else
    g->y0 = CLAMP (center_y * g->mh, height * sy / 2, g->mh - height * sy / 2) - height * sy / 2;
}

/* Pixel column → block column, -1 outside the map. */
gint64
pgs_render_pixel_to_block (double  origin,
                           double  scale,
                           guint64 a,
                           guint64 extent,
                           double  pixel)
{
  double cell = origin + pixel * scale;

  if (cell < 0 || cell >= (double) extent)
    return -1;
  return (gint64) ((guint64) cell / a);
}

guint
pgs_render_block_ranges (const Geometry *g,
                         guint64         bx,
                         guint64         by,
                         Range          *ranges)
{
  guint64 a = g->a;
  guint n = 0;

  if (g->layout == PGS_LAYOUT_HILBERT)
    {
      guint64 t = g->tile, sub = t / a;
      guint64 tile = (by * a / t) * g->tiles_x + (bx * a / t);
      guint64 cx = (bx * a % t) / a, cy = (by * a % t) / a, d, start;

      if ((bx * a) / t >= g->tiles_x || tile >= g->n_tiles)
        return 0;
      if (g->hilbert_table != NULL && g->hilbert_side == sub)
        d = g->hilbert_table[cy * sub + cx];
      else
        d = hilbert_xy2d (sub, cx, cy);
      start = tile * t * t + d * a * a;
      if (start < g->n)
        {
          ranges[0].start = start;
          ranges[0].end = MIN (start + a * a, g->n);
          n = 1;
        }
      return n;
    }

  for (guint64 y = by * g->ay; y < MIN ((by + 1) * g->ay, g->mh); y++)
    {
      guint64 s = y * g->mw + bx * a, e = y * g->mw + MIN ((bx + 1) * a, g->mw);

      if (s >= g->n)
        break;
      ranges[n].start = s;
      ranges[n].end = MIN (e, g->n);
      n++;
    }
  return n;
}

void
pgs_render_cell_block (const Geometry *g,
                       guint64         cell,
                       guint64        *bx,
                       guint64        *by)
{
  guint64 a = g->a;

  if (g->layout == PGS_LAYOUT_HILBERT)
    {
      /* Tiles in rows; inside a tile, blocks of a² consecutive cells along the curve. */
      guint64 t = g->tile, sub = t / a, tile = cell / (t * t), bxi, byi;

      hilbert_d2xy (sub, (cell % (t * t)) / (a * a), &bxi, &byi);
      *bx = (tile % g->tiles_x) * sub + bxi;
      *by = (tile / g->tiles_x) * sub + byi;
    }
  else
    {
      *bx = (cell % g->mw) / a;
      *by = (cell / g->mw) / g->ay;
    }
}

gboolean
pgs_render_hilbert_square (const Geometry *g,
                           guint64         first,
                           guint64         end,
                           guint64        *cx,
                           guint64        *cy,
                           guint64        *side)
{
  guint64 t, sq;

  if (g->layout != PGS_LAYOUT_HILBERT || !g->valid || end <= first)
    return FALSE;
  t = g->tile;
  /* Aligned runs of 4^k cells along the curve are squares of 2^k (a tile's cells are such
   * a run of t², so none crosses tiles): the largest one inside [first, end), the first of
   * that size. */
  for (sq = t; sq >= 1; sq /= 2)
    {
      guint64 b = sq * sq, start = (first + b - 1) / b * b, tile, bx, by;

      if (start + b > end)
        continue;
      tile = start / (t * t);
      hilbert_d2xy (t / sq, (start % (t * t)) / b, &bx, &by);
      *cx = (tile % g->tiles_x) * t + bx * sq;
      *cy = (tile / g->tiles_x) * t + by * sq;
      *side = sq;
      return TRUE;
    }
  return FALSE;
}

/* Block order tables, one per sub-grid side and direction, shared by every renderer and
 * never freed: sides are powers of two up to HILBERT_TABLE_MAX, so at most a dozen small
 * tables each way (the largest 16 MiB). Building one costs a few milliseconds; a refresh
 * should not pay it. The forward table maps (y * side + x) → curve index d, the inverse
 * maps d → (y << 16 | x), to walk a tile in curve order. */
#define HILBERT_TABLE_MAX 2048

/* The curve of side 2s is four curves of side s, each turned as hilbert_d2xy() turns
 * them last: d → (y << 16 | x) built side by side from 1 in @t (side * side long), about
 * ten instructions an entry rather than a hilbert_d2xy() each. */
static void
hilbert_inverse_table (guint64  side,
                       guint32 *t)
{
  t[0] = 0;
  for (guint64 s = 1; s < side; s *= 2)
    /* Quarter q of the larger curve from the smaller one in t[0, s²): the quarters past
     * the first first, so that t[r] is read before quarter 0 writes over it. */
    for (guint64 q = 4; q-- > 0; )
      {
        guint64 rx = 1 & (q / 2), ry = 1 & (q ^ rx);

        for (guint64 r = 0; r < s * s; r++)
          {
            guint64 x = t[r] & 0xffff, y = t[r] >> 16;

            if (ry == 0)
              {
                guint64 tmp;

                if (rx == 1)
                  {
                    x = s - 1 - x;
                    y = s - 1 - y;
                  }
                tmp = x;
                x = y;
                y = tmp;
              }
            t[q * s * s + r] = (guint32) ((y + s * ry) << 16 | (x + s * rx));
          }
      }
}

static const guint32 *
get_hilbert_cached (guint64  side,
                    gboolean inverse)
{
  static const guint32 *tables[2][32];
  static GMutex lock;
  guint level = 0;
  const guint32 *table;

  if (side > HILBERT_TABLE_MAX || side == 0)
    return NULL;
  while ((G_GUINT64_CONSTANT (1) << level) < side)
    level++;

  g_mutex_lock (&lock);
  if (tables[inverse][level] == NULL)
    {
      const guint32 *other = tables[!inverse][level];
      guint32 *t = g_new (guint32, side * side);

      if (inverse && other != NULL)
        /* Each table is the other turned round. */
        for (guint64 i = 0; i < side * side; i++)
          t[other[i]] = (guint32) ((i / side) << 16 | (i % side));
      else if (inverse)
        hilbert_inverse_table (side, t);
      else
        {
          g_autofree guint32 *inv = NULL;

          if (other == NULL)
            hilbert_inverse_table (side, (guint32 *) (other = inv = g_new (guint32, side * side)));
          for (guint64 d = 0; d < side * side; d++)
            t[(other[d] >> 16) * side + (other[d] & 0xffff)] = (guint32) d;
        }
      tables[inverse][level] = t;
    }
  table = tables[inverse][level];
  g_mutex_unlock (&lock);
  return table;
}

void
pgs_render_ensure_hilbert_table (Geometry *g,
                                 guint64   visible_blocks)
{
  guint64 sub;

  if (g->layout != PGS_LAYOUT_HILBERT || !g->valid)
    return;
  sub = g->tile / g->a;
  if (g->hilbert_table != NULL && g->hilbert_side == sub)
    return;
  /* Worth it only when much of a tile shows; a deep zoom computes its few blocks. */
  if (sub * sub > 4 * visible_blocks)
    return;
  g->hilbert_table = get_hilbert_cached (sub, FALSE);
  g->hilbert_side = g->hilbert_table != NULL ? sub : 0;
}

/* Hilbert, with much of the map showing: the class of every visible block, found by
 * walking each tile in curve order, so that consecutive blocks are consecutive frames: one
 * walk over the runs a tile. Returns NULL where the general path must
 * do it. */
guint8 *
pgs_render_hilbert_grid (const Geometry *g,
                         PgsClassRuns   *classes,
                         gboolean        mode,
                         gint64          bx_first,
                         gint64          bx_last,
                         gint64          by_first,
                         gint64          by_last)
{
  guint64 a = g->a, aa = a * a, t = g->tile, sub = t / a;
  guint64 gw = bx_last - bx_first + 1, gh = by_last - by_first + 1;
  const guint32 *inv;
  guint8 *grid;
  g_autofree guint8 *tile_classes = NULL;
  g_autofree guint32 *offsets = NULL;

  if (g->layout != PGS_LAYOUT_HILBERT || bx_last < 0 || by_last < 0)
    return NULL;
  /* Only when most of each tile shows: a deep zoom gathers its few blocks instead. */
  if (gw * gh * 2 < MIN (g->n_tiles * sub * sub, (guint64) g->width * g->height / 4))
    return NULL;
  inv = get_hilbert_cached (sub, TRUE);
  if (inv == NULL)
    return NULL;

  grid = g_malloc (gw * gh);
  memset (grid, 0xff, gw * gh);
  tile_classes = g_malloc (sub * sub);
  for (guint64 ti = 0; ti < g->n_tiles; ti++)
    {
      gint64 ox = (ti % g->tiles_x) * sub, oy = (ti / g->tiles_x) * sub;
      guint64 base = ti * t * t, n_blocks;
      gboolean one;

      if (ox + (gint64) sub <= bx_first || ox > bx_last ||
          oy + (gint64) sub <= by_first || oy > by_last || base >= g->n)
        continue;
      /* The tile's blocks in curve order are consecutive frames: their classes in one
       * walk over the runs, then each put where the curve places it. */
      n_blocks = MIN (sub * sub, (g->n - base + aa - 1) / aa);
      one = pgs_class_runs_blocks (classes, mode, base, aa, n_blocks, g->n, tile_classes);
      if (ox >= bx_first && ox + (gint64) sub - 1 <= bx_last &&
          oy >= by_first && oy + (gint64) sub - 1 <= by_last)
        {
          /* Wholly visible (the usual case): no check a block. */
          guint8 *corner = grid + (oy - by_first) * gw + (ox - bx_first);

          if (one && n_blocks == sub * sub)
            {
              /* A whole tile of one class: its rows at once. */
              for (guint64 y = 0; y < sub; y++)
                memset (corner + y * gw, tile_classes[0], sub);
              continue;
            }

          if (offsets == NULL && sub * gw <= G_MAXUINT32)
            {
              /* Where each block of a tile goes in the grid, from its corner: the same
               * for every tile (4 bytes a block of a tile, a few MiB at most: the grid is
               * made only when the tiles show, a block a pixel or more). */
              offsets = g_new (guint32, sub * sub);
              for (guint64 d = 0; d < sub * sub; d++)
                offsets[d] = (guint32) ((inv[d] >> 16) * gw + (inv[d] & 0xffff));
            }
          if (offsets != NULL)
            for (guint64 d = 0; d < n_blocks; d++)
              corner[offsets[d]] = tile_classes[d];
          else
            for (guint64 d = 0; d < n_blocks; d++)
              corner[(inv[d] >> 16) * gw + (inv[d] & 0xffff)] = tile_classes[d];
          continue;
        }
      for (guint64 d = 0; d < n_blocks; d++)
        {
          gint64 bx = ox + (inv[d] & 0xffff), by = oy + (inv[d] >> 16);

          if (bx < bx_first || bx > bx_last || by < by_first || by > by_last)
            continue;
          grid[(by - by_first) * gw + (bx - bx_first)] = tile_classes[d];
        }
    }
  return grid;
}
