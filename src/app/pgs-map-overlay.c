/* pgs-map-overlay.c: what is drawn over a map's pixels, and the one hit test it reads
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A map view is its canvas (the pixels) and overlays drawn fresh on top: the fold markers,
 * the hover outline, the focus ring, the marks of the pages a working-set sample saw. Each
 * overlay is an object with its own state and one vfunc; overlays know the pixels only
 * through PgsMapShown and the renderer's hit test, here, and never know each other.
 */

#include "config.h"

#include <string.h>

#include "pgs-map-overlay.h"

G_DEFINE_INTERFACE (PgsMapOverlay, pgs_map_overlay, G_TYPE_OBJECT)

static void
pgs_map_overlay_default_init (PgsMapOverlayInterface *iface)
{
}

void
pgs_map_overlay_snapshot (PgsMapOverlay     *self,
                          GtkSnapshot       *snapshot,
                          const PgsMapShown *shown)
{
  g_return_if_fail (PGS_IS_MAP_OVERLAY (self));

  if (shown->renderer != NULL)
    PGS_MAP_OVERLAY_GET_IFACE (self)->snapshot (self, snapshot, shown);
}

gboolean
pgs_map_hit_test (const PgsMapShown *shown,
                  double             x,
                  double             y,
                  PgsHit            *hit)
{
  memset (hit, 0, sizeof *hit);
  if (shown->renderer == NULL)
    return FALSE;
  /* The renderer's geometry is that of the texture, in device pixels. */
  if (x < 0 || y < 0 || x * shown->scale >= shown->width || y * shown->scale >= shown->height)
    return FALSE;
  return pgs_renderer_hit_test (shown->renderer, shown->width, shown->height,
                                x * shown->scale, y * shown->scale, hit);
}

gboolean
pgs_map_same_cell (const PgsHit *a,
                   const PgsHit *b)
{
  if (a->valid != b->valid)
    return FALSE;
  if (!a->valid)
    return TRUE;
  return a->is_frame ? a->pfn == b->pfn : a->address == b->address;
}

gboolean
pgs_map_inside (const PgsMapShown *shown,
                double             x,
                double             y)
{
  return x >= 0 && y >= 0 && x < shown->area_width && y < shown->area_height;
}

/* How far the cell under (x, y) reaches in one direction, found by asking the hit test,
 * so the outline matches whatever geometry the renderer uses. Bounded: a cell wider than
 * the limit is outlined at the limit. */
static double
cell_reach (const PgsMapShown *shown,
            const PgsHit      *hit,
            double             x,
            double             y,
            double             dx,
            double             dy,
            double             step)
{
  double reach = 0;

  for (int i = 1; i <= 256; i++)
    {
      double px = x + dx * step * i, py = y + dy * step * i;
      PgsHit other;

      if (!pgs_map_inside (shown, px, py))
        break;
      if (!pgs_map_hit_test (shown, px, py, &other) || !pgs_map_same_cell (hit, &other))
        break;
      reach = step * i;
    }
  return reach;
}

void
pgs_map_cell_bounds (const PgsMapShown *shown,
                     const PgsHit      *hit,
                     double             x,
                     double             y,
                     graphene_rect_t   *bounds)
{
  double step = 1.0 / shown->scale;
  double x0 = x - cell_reach (shown, hit, x, y, -1, 0, step);
  double x1 = x + cell_reach (shown, hit, x, y, 1, 0, step);
  double y0 = y - cell_reach (shown, hit, x, y, 0, -1, step);
  double y1 = y + cell_reach (shown, hit, x, y, 0, 1, step);

  graphene_rect_init (bounds, x0, y0, x1 - x0, y1 - y0);
}

gboolean
pgs_map_to_widget (const PgsMapShown *shown,
                   double             map_x,
                   double             map_y,
                   double            *x,
                   double            *y)
{
  if (shown->renderer == NULL ||
      !pgs_renderer_map_to_pixel (shown->renderer, shown->width, shown->height,
                                  map_x, map_y, x, y))
    return FALSE;
  *x /= shown->scale;
  *y /= shown->scale;
  return TRUE;
}

gboolean
pgs_map_from_widget (const PgsMapShown *shown,
                     double             x,
                     double             y,
                     double            *map_x,
                     double            *map_y)
{
  return shown->renderer != NULL &&
         pgs_renderer_pixel_to_map (shown->renderer, shown->width, shown->height,
                                    x * shown->scale, y * shown->scale, map_x, map_y);
}
