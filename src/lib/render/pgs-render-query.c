/* pgs-render-query.c: what the pixels of a renderer show, asked afterwards
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The hit test, which maps a pixel back to the page or frame that decided its colour, the
 * same way pgs_renderer_render() samples it; map fractions to pixels and back; where a
 * page lies (locate); and the fold markers. Above the renderer: it asks the renderer for
 * its geometry and the layout (pgs-render-layout.c, pgs-render-fold.c) for the rest;
 * nothing below calls back up here.
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "pgs-pagemap.h"
#include "pgs-physmap.h"
#include "pgs-render-fold.h"
#include "pgs-render-private.h"

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
  g = pgs_render_get_geometry (self, width, height);
  if (!g->valid || x < 0 || y < 0 || x >= width || y >= height)
    return FALSE;
  if (self->view != PGS_VIEW_RESIDENCY && self->classes == NULL)
    return FALSE;

  /* The pixel's centre, as render() samples it. */
  bx = pgs_render_pixel_to_block (g->x0, g->scale, g->a, g->mw, floor (x) + 0.5);
  by = pgs_render_pixel_to_block (g->y0, g->scale_y, g->ay, g->mh, floor (y) + 0.5);
  if (bx < 0 || by < 0)
    return FALSE;

  ranges = g_new (Range, MAX (g->a, g->ay));
  c = pgs_render_block_class (self, g, bx, by, ranges);
  if (c == 0xff || (self->view == PGS_VIEW_RESIDENCY && c == PGS_RES_NONE))
    return FALSE;

  hit->legend_index = c & CLASS_MASK;
  hit->highlighted = (c & HIGHLIGHT) != 0;

  if (self->view == PGS_VIEW_RESIDENCY)
    {
      PgsPageInfo info;

      pgs_render_residency_first (self, g, bx, by, hit);
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
    guint n = pgs_render_block_ranges (g, bx, by, ranges);
    guint8 want = c & CLASS_MASK;

    for (guint r = 0; r < n; r++)
      {
        hit->n_pages += ranges[r].end - ranges[r].start;
        if (!hit->valid)
          {
            guint64 i = pgs_class_runs_find (self->classes, ranges[r].start, ranges[r].end, want);

            hit->valid = i != G_MAXUINT64;
            /* A cell, which is a frame number unless free memory is folded away. */
            hit->pfn = hit->valid ? pgs_render_cell_to_pfn (self->folds, i) : 0;
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

  g = pgs_render_get_geometry (self, width, height);
  if (!g->valid)
    return FALSE;
  if (map_x != NULL)
    *map_x = (g->x0 + x * g->scale) / g->mw;
  if (map_y != NULL)
    *map_y = (g->y0 + y * g->scale_y) / g->mh;
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
      *cell = pgs_render_pfn_to_cell (self->folds, hit->pfn, &hidden);
      return !hidden;
    }
  if (hit->is_frame || self->process == NULL)
    return FALSE;
  /* By address, not by mapping index: after a rescan the indices may have moved. */
  for (guint b = 0; b < self->bands->len; b++)
    {
      const Band *band = &g_array_index (self->bands, Band, b);
      guint64 size = band->n_pages * self->pages.page_size;

      if (hit->address >= band->start && hit->address - band->start < size)
        {
          *cell = band->first_page + (hit->address - band->start) / self->pages.page_size;
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

  g = pgs_render_get_geometry (self, width, height);
  if (!g->valid || !hit->valid || !cell_of_hit (self, hit, &cell, &band))
    return FALSE;
  a = g->a;

  if (self->layout == PGS_LAYOUT_HILBERT && cell / (g->tile * g->tile) >= g->n_tiles)
    return FALSE;
  if (self->layout == PGS_LAYOUT_LINEAR && self->view == PGS_VIEW_RESIDENCY)
    {
      const Band *b = &g_array_index (self->bands, Band, band);
      guint64 p = cell - b->first_page;

      bx = (p % g->mw) / a;
      by = (g->band_row[band] + p / g->mw) / a;
    }
  else
    pgs_render_cell_block (g, cell, &bx, &by);

  /* The middle of the block, clipped to the map: a last block may be cut short. */
  if (map_x != NULL)
    *map_x = (MIN ((bx + 0.5) * a, (bx * a + g->mw) / 2.0)) / g->mw;
  if (map_y != NULL)
    *map_y = (MIN ((by + 0.5) * g->ay, (by * g->ay + g->mh) / 2.0)) / g->mh;
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

  g = pgs_render_get_geometry (self, width, height);
  if (!g->valid)
    return FALSE;
  if (x != NULL)
    *x = (map_x * g->mw - g->x0) / g->scale;
  if (y != NULL)
    *y = (map_y * g->mh - g->y0) / g->scale_y;
  return TRUE;
}

guint64
pgs_renderer_get_pages_per_pixel (PgsRenderer *self,
                                  int          width,
                                  int          height)
{
  const Geometry *g;

  g_return_val_if_fail (PGS_IS_RENDERER (self), 0);

  g = pgs_render_get_geometry (self, width, height);
  return g->valid ? g->a * g->ay : 0;
}

guint
pgs_renderer_get_n_folds (PgsRenderer *self)
{
  g_return_val_if_fail (PGS_IS_RENDERER (self), 0);

  pgs_render_prepare (self);   /* folds are made with the classes */
  return self->folds != NULL ? self->folds->len : 0;
}

guint64
pgs_renderer_get_hidden_frames (PgsRenderer *self)
{
  g_return_val_if_fail (PGS_IS_RENDERER (self), 0);

  pgs_render_prepare (self);
  return pgs_render_fold_hidden (self->folds);
}

gboolean
pgs_renderer_get_fold (PgsRenderer *self,
                       int          width,
                       int          height,
                       guint        index,
                       guint64     *first_pfn,
                       guint64     *n_frames,
                       double      *x,
                       double      *y,
                       double      *cell_height)
{
  const Geometry *g = pgs_render_get_geometry (self, width, height);
  guint64 pfn, n, cell, bx, by, a;
  gboolean after = FALSE;

  g_return_val_if_fail (PGS_IS_RENDERER (self), FALSE);

  if (self->folds == NULL || index >= self->folds->len)
    return FALSE;
  pgs_render_fold_get (self->folds, index, &pfn, &n, &cell);
  if (first_pfn != NULL)
    *first_pfn = pfn;
  if (n_frames != NULL)
    *n_frames = n;
  if (!g->valid || g->n == 0)
    return FALSE;
  /* The marker goes before the first cell after the fold, or after the last cell. */
  if (cell >= g->n)
    {
      cell = g->n - 1;
      after = TRUE;
    }
  a = g->a;
  pgs_render_cell_block (g, cell, &bx, &by);
  if (self->layout == PGS_LAYOUT_LINEAR)
    {
      /* A row holds consecutive cells: the marker goes between two of them. */
      if (x != NULL)
        *x = ((double) (cell % g->mw + after) - g->x0) / g->scale;
    }
  else if (x != NULL)
    *x = ((double) (bx + after) * a - g->x0) / g->scale;
  if (y != NULL)
    *y = ((double) by * g->ay - g->y0) / g->scale_y;
  if (cell_height != NULL)
    *cell_height = MAX (1.0, g->ay / g->scale_y);
  return TRUE;
}

gboolean
pgs_renderer_get_band_square (PgsRenderer  *self,
                              int           width,
                              int           height,
                              guint         index,
                              double       *x,
                              double       *y,
                              double       *side,
                              const char  **label)
{
  const Geometry *g;
  const Band *band;
  guint64 cx, cy, n;

  g_return_val_if_fail (PGS_IS_RENDERER (self), FALSE);

  if (self->view != PGS_VIEW_RESIDENCY || self->layout != PGS_LAYOUT_HILBERT)
    return FALSE;
  pgs_render_prepare (self);
  g = pgs_render_get_geometry (self, width, height);
  if (!g->valid || index >= self->bands->len)
    return FALSE;
  band = &g_array_index (self->bands, Band, index);
  if (!pgs_render_hilbert_square (g, band->first_page, band->first_page + band->n_pages,
                                  &cx, &cy, &n))
    return FALSE;
  if (x != NULL)
    *x = (cx - g->x0) / g->scale;
  if (y != NULL)
    *y = (cy - g->y0) / g->scale_y;
  if (side != NULL)
    *side = n / g->scale;
  if (label != NULL)
    *label = band->label;
  return TRUE;
}
