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
 * Aligned power-of-two blocks are what make this fast. On the Hilbert layout (square tiles
 * of T x T cells, each filled along a Hilbert curve, tiles in rows) every aligned block of
 * A x A cells is one contiguous range of A² frames; on the linear layout it is A ranges of A.
 * Per frame, the work is one byte of a class array (computed once per snapshot through the
 * lookup tables of pgs-category.c and kept) and a max or a histogram; per pixel, one colour
 * table lookup. Pixel rows and columns that fall on the same block are copied, not
 * recomputed. No cairo call touches the map itself.
 *
 * Here: the geometry (linear and Hilbert layouts, zoom and centre), the frame ranges of a
 * block, the Hilbert block order tables, and the hit test, which maps a pixel back to the
 * page or frame that decided its colour, the same way pgs_renderer_render() samples it.
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "pgs-pagemap.h"
#include "pgs-palette.h"
#include "pgs-physmap.h"
#include "pgs-process-private.h"
#include "pgs-render-private.h"

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

void
pgs_render_hilbert_d2xy (guint64  side,
                         guint64  d,
                         guint64 *x,
                         guint64 *y)
{
  hilbert_d2xy (side, d, x, y);
}

static guint64
n_cells (PgsRenderer *self)
{
  if (self->view == PGS_VIEW_RESIDENCY)
    {
      pgs_render_ensure_bands (self);
      return self->n_pages;
    }
  return self->folds != NULL ? self->n_cells : self->n_frames;
}

/* Rows the bands take at @mw columns, each band starting a row. */
static guint64
band_rows (PgsRenderer *self,
           guint64      mw,
           guint64     *row_starts)
{
  guint64 rows = 0;

  for (guint b = 0; b < self->bands->len; b++)
    {
      const Band *band = &g_array_index (self->bands, Band, b);

      if (row_starts != NULL)
        row_starts[b] = rows;
      rows += (band->n_pages + mw - 1) / mw;
    }
  if (row_starts != NULL)
    row_starts[self->bands->len] = rows;
  return rows;
}

/* Tries cells per pixel @s0 (a whole number, or its inverse): does the map fit? */
static gboolean
try_fit (PgsRenderer *self,
         Geometry    *g,
         double       s0)
{
  /* 1e-9: a third times 900 must give 300 columns, not 299.99… */
  guint64 wc = (guint64) floor (g->width * s0 + 1e-9), hc = (guint64) floor (g->height * s0 + 1e-9);
  guint64 a0 = s0 >= 1 ? (guint64) s0 : 1;

  if (wc == 0 || hc == 0)
    return FALSE;

  if (self->layout == PGS_LAYOUT_HILBERT)
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
  if (self->view == PGS_VIEW_RESIDENCY)
    g->mh = band_rows (self, wc, NULL);
  else
    g->mh = (g->n + wc - 1) / wc;
  return g->mh <= hc;
}

const Geometry *
pgs_render_get_geometry (PgsRenderer *self,
                         int          width,
                         int          height)
{
  Geometry *g = &self->geometry;
  double s, map_w, map_h, zoom;

  if (g->width == width && g->height == height && g->width > 0)
    return g;

  pgs_render_geometry_clear (g);
  g->width = width;
  g->height = height;
  g->n = n_cells (self);
  if (width <= 0 || height <= 0 || g->n == 0)
    return g;

  /* The smallest scale (most pixels per page) that fits: magnifications 1/64 … 1/1, then
   * whole numbers of cells per pixel. A magnified cell is k x k whole pixels for any k, so
   * every k is tried: powers of two alone left up to three quarters of the output empty
   * (a map that missed 8 x 8 pixel cells got 4 x 4 and filled a quarter). Above one cell a
   * pixel, the Hilbert layout needs powers of two, for blocks that are whole sub-squares
   * of a tile; rows take any whole number, which fills the output better. */
  for (int k = MAX_MAGNIFY; k >= 1 && !g->valid; k--)
    if (try_fit (self, g, 1.0 / k))
      {
        g->s0 = 1.0 / k;
        g->valid = TRUE;
      }
  for (guint64 s0 = 2; !g->valid && s0 < (G_GUINT64_CONSTANT (1) << 40);
       s0 = self->layout == PGS_LAYOUT_HILBERT || s0 >= 64 ? s0 * 2 : s0 + 1)
    if (try_fit (self, g, s0))
      {
        g->s0 = s0;
        g->valid = TRUE;
      }
  if (!g->valid)
    return g;

  if (self->view == PGS_VIEW_RESIDENCY && self->layout == PGS_LAYOUT_LINEAR)
    {
      g->band_row = g_new (guint64, self->bands->len + 1);
      band_rows (self, g->mw, g->band_row);
    }

  zoom = CLAMP (self->zoom, 1.0, g->s0 * MAX_MAGNIFY);
  s = g->s0 / zoom;
  g->scale = s;
  g->a = 1;
  if (self->layout == PGS_LAYOUT_HILBERT)
    while ((double) g->a < s)
      g->a *= 2;
  else
    g->a = (guint64) MAX (1.0, ceil (s - 1e-9));

  map_w = g->mw / s;
  map_h = g->mh / s;
  /* A map narrower than the output is centred on a whole pixel; a wider one follows the
   * centre, clamped so no empty space shows on one side while map hides on the other. */
  if (map_w <= width)
    g->x0 = -floor ((width - map_w) / 2) * s;
  else
    g->x0 = CLAMP (self->center_x * g->mw, width * s / 2, g->mw - width * s / 2) - width * s / 2;
  if (map_h <= height)
    g->y0 = -floor ((height - map_h) / 2) * s;
  else
    g->y0 = CLAMP (self->center_y * g->mh, height * s / 2, g->mh - height * s / 2) - height * s / 2;

  return g;
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

/* The frame ranges of block (bx, by) on a physical view: at most a of them. */
guint
pgs_render_block_ranges (PgsRenderer    *self,
                         const Geometry *g,
                         guint64         bx,
                         guint64         by,
                         Range          *ranges)
{
  guint64 a = g->a;
  guint n = 0;

  if (self->layout == PGS_LAYOUT_HILBERT)
    {
      guint64 t = g->tile, sub = t / a;
      guint64 tile = (by * a / t) * g->tiles_x + (bx * a / t);
      guint64 cx = (bx * a % t) / a, cy = (by * a % t) / a, d, start;

      if ((bx * a) / t >= g->tiles_x || tile >= g->n_tiles)
        return 0;
      if (self->hilbert_table != NULL && self->hilbert_side == sub)
        d = self->hilbert_table[cy * sub + cx];
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

  for (guint64 y = by * a; y < MIN ((by + 1) * a, g->mh); y++)
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

/* Block order tables, one per sub-grid side and direction, shared by every renderer and
 * never freed: sides are powers of two up to HILBERT_TABLE_MAX, so at most a dozen small
 * tables each way (the largest 16 MiB). Building one costs a few milliseconds; a refresh
 * should not pay it. The forward table maps (y * side + x) → curve index d, the inverse
 * maps d → (y << 16 | x), to walk a tile in curve order. */
#define HILBERT_TABLE_MAX 2048

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
      guint32 *t = g_new (guint32, side * side);

      for (guint64 d = 0; d < side * side; d++)
        {
          guint64 x, y;

          hilbert_d2xy (side, d, &x, &y);
          if (inverse)
            t[d] = (guint32) (y << 16 | x);
          else
            t[y * side + x] = (guint32) d;
        }
      tables[inverse][level] = t;
    }
  table = tables[inverse][level];
  g_mutex_unlock (&lock);
  return table;
}

void
pgs_render_ensure_hilbert_table (PgsRenderer    *self,
                                 const Geometry *g,
                                 guint64         visible_blocks)
{
  guint64 sub;

  if (self->layout != PGS_LAYOUT_HILBERT || !g->valid)
    return;
  sub = g->tile / g->a;
  if (self->hilbert_table != NULL && self->hilbert_side == sub)
    return;
  /* Worth it only when much of a tile shows; a deep zoom computes its few blocks. */
  if (sub * sub > 4 * visible_blocks)
    return;
  self->hilbert_table = (guint32 *) get_hilbert_cached (sub, FALSE);
  self->hilbert_side = self->hilbert_table != NULL ? sub : 0;
}

/* Hilbert, with much of the map showing: the class of every visible block, found by
 * walking each tile in curve order, so that consecutive blocks are consecutive frames and
 * each finds its runs a step on from the last. Returns NULL where the general path must
 * do it. */
guint8 *
pgs_render_hilbert_grid (PgsRenderer    *self,
                         const Geometry *g,
                         gint64          bx_first,
                         gint64          bx_last,
                         gint64          by_first,
                         gint64          by_last,
                         Range          *ranges)
{
  guint64 a = g->a, aa = a * a, t = g->tile, sub = t / a;
  guint64 gw = bx_last - bx_first + 1, gh = by_last - by_first + 1;
  const guint32 *inv;
  guint8 *grid;

  if (self->layout != PGS_LAYOUT_HILBERT || bx_last < 0 || by_last < 0)
    return NULL;
  /* Only when most of each tile shows: a deep zoom gathers its few blocks instead. */
  if (gw * gh * 2 < MIN (g->n_tiles * sub * sub, (guint64) g->width * g->height / 4))
    return NULL;
  inv = get_hilbert_cached (sub, TRUE);
  if (inv == NULL)
    return NULL;

  grid = g_malloc (gw * gh);
  memset (grid, 0xff, gw * gh);
  for (guint64 ti = 0; ti < g->n_tiles; ti++)
    {
      guint64 ox = (ti % g->tiles_x) * sub, oy = (ti / g->tiles_x) * sub;
      guint64 base = ti * t * t;

      if ((gint64) (ox + sub) <= bx_first || (gint64) ox > bx_last ||
          (gint64) (oy + sub) <= by_first || (gint64) oy > by_last)
        continue;
      for (guint64 d = 0; d < sub * sub; d++)
        {
          guint64 start = base + d * aa;
          gint64 bx = ox + (inv[d] & 0xffff), by = oy + (inv[d] >> 16);

          if (start >= g->n)
            break;
          if (bx < bx_first || bx > bx_last || by < by_first || by > by_last)
            continue;
          ranges[0].start = start;
          ranges[0].end = MIN (start + aa, g->n);
          grid[(by - by_first) * gw + (bx - bx_first)] =
            self->view == PGS_VIEW_FLAGS ? pgs_class_runs_mode (self->classes, ranges, 1)
                                         : pgs_class_runs_max (self->classes, ranges, 1);
        }
    }
  return grid;
}

/* Linear: every block of block row @by from @bx0 to @bx1 (inclusive) at once, into @out
 * (one class byte each, 0xff for no frame), in one walk over the runs of each row.
 * Returns FALSE where the caller should go block by block. */
gboolean
pgs_render_aggregate_block_row (PgsRenderer    *self,
                                const Geometry *g,
                                guint64         by,
                                guint64         bx0,
                                guint64         bx1,
                                guint8         *out,
                                guint8         *mixed)
{
  if (self->layout == PGS_LAYOUT_HILBERT)
    return FALSE;
  pgs_class_runs_linear_row (self->classes, self->view == PGS_VIEW_FLAGS, g->n, g->mw, g->mh,
                             g->a, by, bx0, bx1, out);
  memset (mixed, 0, bx1 - bx0 + 1);
  return TRUE;
}

/* ---- hit test ---- */

static gboolean
piece_first (PgsRenderer *self,
             const Band  *band,
             guint64      p0,
             guint64      p1,
             gpointer     data)
{
  PgsHit *hit = data;
  guint64 index;

  hit->n_pages += p1 - p0;
  if (hit->valid)
    return TRUE;
  pgs_render_band_max (self, band, p0, p1, hit->legend_index, &index);
  if (index != G_MAXUINT64)
    {
      hit->valid = TRUE;
      hit->mapping = band->mapping;
      hit->first_page = index;
      hit->address = band->start + index * self->process->page_size;
    }
  return TRUE;
}

/* The category of a frame, following a tail page back to its head. */
static PgsCategory
frame_category (PgsRenderer *self,
                guint64      pfn)
{
  if (self->view == PGS_VIEW_FLAGS && self->unfolded != NULL)
    return pgs_class_runs_at (self->unfolded, pfn) & CLASS_MASK;
  if (self->view == PGS_VIEW_FLAGS && self->classes != NULL)
    return pgs_class_runs_at (self->classes, pfn) & CLASS_MASK;
  return pgs_physmap_get_category (self->physmap, pfn);
}

gboolean
pgs_renderer_hit_test (PgsRenderer *self,
                       int          width,
                       int          height,
                       double       x,
                       double       y,
                       PgsHit      *hit)
{
  const Geometry *g;
  gint64 bx, by;
  g_autofree Range *ranges = NULL;
  guint8 c;

  g_return_val_if_fail (PGS_IS_RENDERER (self), FALSE);
  g_return_val_if_fail (hit != NULL, FALSE);

  memset (hit, 0, sizeof *hit);
  hit->count = PGS_COUNT_UNKNOWN;
  pgs_render_prepare (self);
  g = pgs_render_get_geometry (self, width, height);
  if (!g->valid || x < 0 || y < 0 || x >= width || y >= height)
    return FALSE;
  if (self->view != PGS_VIEW_RESIDENCY && self->classes == NULL)
    return FALSE;

  /* The pixel's centre, as render() samples it. */
  bx = pgs_render_pixel_to_block (g->x0, g->scale, g->a, g->mw, floor (x) + 0.5);
  by = pgs_render_pixel_to_block (g->y0, g->scale, g->a, g->mh, floor (y) + 0.5);
  if (bx < 0 || by < 0)
    return FALSE;

  ranges = g_new (Range, g->a);
  c = pgs_render_block_class (self, g, bx, by, ranges);
  if (c == 0xff || (self->view == PGS_VIEW_RESIDENCY && c == PGS_RES_NONE))
    return FALSE;

  hit->legend_index = c & CLASS_MASK;
  hit->highlighted = (c & HIGHLIGHT) != 0;

  if (self->view == PGS_VIEW_RESIDENCY)
    {
      PgsPageInfo info;

      pgs_render_residency_pieces (self, g, bx, by, piece_first, hit);
      if (!hit->valid)
        return FALSE;
      pgs_process_lookup_page (self->process, hit->address, &info);
      hit->entry = info.entry;
      hit->count = info.count;
      hit->pfn = pgs_pm_pfn (info.entry);
      hit->category = PGS_CATEGORY_HOLE;
      if (self->physmap != NULL && hit->pfn != 0 && hit->pfn < self->n_frames)
        {
          pgs_physmap_get_frame (self->physmap, hit->pfn, NULL, &hit->flags);
          hit->category = frame_category (self, hit->pfn);
        }
      return TRUE;
    }

  {
    guint n = pgs_render_block_ranges (self, g, bx, by, ranges);
    guint8 want = c & CLASS_MASK;

    for (guint r = 0; r < n; r++)
      {
        hit->n_pages += ranges[r].end - ranges[r].start;
        if (!hit->valid)
          {
            guint64 i = pgs_class_runs_find (self->classes, ranges[r].start, ranges[r].end, want);

            hit->valid = i != G_MAXUINT64;
            /* A cell, which is a frame number unless free memory is folded away. */
            hit->pfn = hit->valid ? pgs_render_cell_to_pfn (self, i) : 0;
          }
      }
    if (!hit->valid)
      return FALSE;
    hit->is_frame = TRUE;
    hit->first_page = hit->pfn;
    pgs_physmap_get_frame (self->physmap, hit->pfn, &hit->count, &hit->flags);
    hit->category = frame_category (self, hit->pfn);
  }
  return TRUE;
}

gboolean
pgs_renderer_pixel_to_map (PgsRenderer *self,
                           int          width,
                           int          height,
                           double       x,
                           double       y,
                           double      *map_x,
                           double      *map_y)
{
  const Geometry *g;

  g_return_val_if_fail (PGS_IS_RENDERER (self), FALSE);

  pgs_render_prepare (self);
  g = pgs_render_get_geometry (self, width, height);
  if (!g->valid)
    return FALSE;
  if (map_x != NULL)
    *map_x = (g->x0 + x * g->scale) / g->mw;
  if (map_y != NULL)
    *map_y = (g->y0 + y * g->scale) / g->mh;
  return TRUE;
}

/* The cell index of @hit on the map, with the band it is in (residency linear). */
static gboolean
cell_of_hit (PgsRenderer  *self,
             const PgsHit *hit,
             guint64      *cell,
             guint        *band_index)
{
  if (self->view != PGS_VIEW_RESIDENCY)
    {
      gboolean hidden;

      if (!hit->is_frame || hit->pfn >= self->n_frames)
        return FALSE;
      *cell = pgs_render_pfn_to_cell (self, hit->pfn, &hidden);
      return !hidden;
    }
  if (hit->is_frame || self->process == NULL)
    return FALSE;
  /* By address, not by mapping index: after a rescan the indices may have moved. */
  for (guint b = 0; b < self->bands->len; b++)
    {
      const Band *band = &g_array_index (self->bands, Band, b);
      guint64 size = band->n_pages * self->process->page_size;

      if (hit->address >= band->start && hit->address - band->start < size)
        {
          *cell = band->first_page + (hit->address - band->start) / self->process->page_size;
          *band_index = b;
          return TRUE;
        }
    }
  return FALSE;
}

gboolean
pgs_renderer_locate (PgsRenderer  *self,
                     int           width,
                     int           height,
                     const PgsHit *hit,
                     double       *map_x,
                     double       *map_y)
{
  const Geometry *g;
  guint64 cell, bx, by, a;
  guint band = 0;

  g_return_val_if_fail (PGS_IS_RENDERER (self), FALSE);
  g_return_val_if_fail (hit != NULL, FALSE);

  pgs_render_prepare (self);
  g = pgs_render_get_geometry (self, width, height);
  if (!g->valid || !hit->valid || !cell_of_hit (self, hit, &cell, &band))
    return FALSE;
  a = g->a;

  if (self->layout == PGS_LAYOUT_HILBERT)
    {
      /* Tiles in rows; inside a tile, blocks of a² consecutive cells along the curve. */
      guint64 t = g->tile, sub = t / a, tile = cell / (t * t), bxi, byi;

      if (tile >= g->n_tiles)
        return FALSE;
      hilbert_d2xy (sub, (cell % (t * t)) / (a * a), &bxi, &byi);
      bx = (tile % g->tiles_x) * sub + bxi;
      by = (tile / g->tiles_x) * sub + byi;
    }
  else if (self->view == PGS_VIEW_RESIDENCY)
    {
      const Band *b = &g_array_index (self->bands, Band, band);
      guint64 p = cell - b->first_page;

      bx = (p % g->mw) / a;
      by = (g->band_row[band] + p / g->mw) / a;
    }
  else
    {
      bx = (cell % g->mw) / a;
      by = (cell / g->mw) / a;
    }

  /* The middle of the block, clipped to the map: a last block may be cut short. */
  if (map_x != NULL)
    *map_x = (MIN ((bx + 0.5) * a, (bx * a + g->mw) / 2.0)) / g->mw;
  if (map_y != NULL)
    *map_y = (MIN ((by + 0.5) * a, (by * a + g->mh) / 2.0)) / g->mh;
  return TRUE;
}

gboolean
pgs_renderer_map_to_pixel (PgsRenderer *self,
                           int          width,
                           int          height,
                           double       map_x,
                           double       map_y,
                           double      *x,
                           double      *y)
{
  const Geometry *g;

  g_return_val_if_fail (PGS_IS_RENDERER (self), FALSE);

  pgs_render_prepare (self);
  g = pgs_render_get_geometry (self, width, height);
  if (!g->valid)
    return FALSE;
  if (x != NULL)
    *x = (map_x * g->mw - g->x0) / g->scale;
  if (y != NULL)
    *y = (map_y * g->mh - g->y0) / g->scale;
  return TRUE;
}

guint64
pgs_renderer_get_pages_per_pixel (PgsRenderer *self,
                                  int          width,
                                  int          height)
{
  const Geometry *g;

  g_return_val_if_fail (PGS_IS_RENDERER (self), 0);

  pgs_render_prepare (self);
  g = pgs_render_get_geometry (self, width, height);
  return g->valid ? g->a * g->a : 0;
}
