/* pgs-map-focus.c: the keyboard's cell on a map, and the ring drawn round it
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A focus cell that the arrow keys move one cell at a time (Home and End to the first and
 * last cell, Page Up and Page Down by a screen), drawn with a ring of its own. Moves go
 * through the same hit test as hover and click; the focus cell is kept by its frame or
 * address, not by a pixel, so a refresh, a pan or a resize finds it again. A move off the
 * screen pans the viewport and lands when the new pixels are in.
 */

#include "config.h"

#include <math.h>

#include "pgs-map-focus.h"

struct _PgsMapFocus
{
  GObject         parent_instance;
  PgsMapViewport *viewport;
  gboolean        valid;
  PgsHit          hit;
  double          x;           /* its middle in widget coordinates on the pixels shown */
  double          y;
  gboolean        pending;     /* a move that waits for the map to pan */
  double          pending_x;   /* map fractions of where it goes */
  double          pending_y;
};

static void overlay_iface_init (PgsMapOverlayInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (PgsMapFocus, pgs_map_focus, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (PGS_TYPE_MAP_OVERLAY, overlay_iface_init))

static double
pixel_step (const PgsMapShown *shown)
{
  return 1.0 / shown->scale;
}

/* The pixels shown are still those wanted after this move's own pan (which, to the same
 * place, changes nothing). */
static gboolean
still_ready (PgsMapFocus       *self,
             const PgsMapShown *shown)
{
  return shown->ready && pgs_map_viewport_get_zoom (self->viewport) == shown->zoom &&
         pgs_map_viewport_get_center_x (self->viewport) == shown->center_x &&
         pgs_map_viewport_get_center_y (self->viewport) == shown->center_y;
}

/* Makes @hit, found at (x, y), the focus cell, its point the middle of its block. */
static void
set_focus_hit (PgsMapFocus       *self,
               const PgsMapShown *shown,
               const PgsHit      *hit,
               double             x,
               double             y)
{
  int scale = shown->scale;
  double mx, my, cx, cy;
  PgsHit check;

  self->valid = TRUE;
  self->hit = *hit;
  self->x = x;
  self->y = y;
  /* The middle, so the next move starts from the cell and not from its edge; only where
   * the hit test agrees it is the same cell (an aggregated block may show another page). */
  if (pgs_renderer_locate (shown->renderer, shown->width, shown->height, hit, &mx, &my) &&
      pgs_map_to_widget (shown, mx, my, &cx, &cy) && pgs_map_inside (shown, cx, cy) &&
      pgs_map_hit_test (shown, cx, cy, &check) && pgs_map_same_cell (hit, &check))
    {
      self->x = floor (cx * scale) / scale + 0.5 / scale;
      self->y = floor (cy * scale) / scale + 0.5 / scale;
    }
}

gboolean
pgs_map_focus_at (PgsMapFocus       *self,
                  const PgsMapShown *shown,
                  double             x,
                  double             y)
{
  PgsHit hit;

  if (!pgs_map_inside (shown, x, y) || !pgs_map_hit_test (shown, x, y, &hit) || !hit.valid)
    return FALSE;
  set_focus_hit (self, shown, &hit, x, y);
  return TRUE;
}

/* The first cell of the map (or the last): its top left (bottom right) block, then along
 * its row towards the other end, for a last row that stops short. */
gboolean
pgs_map_focus_end (PgsMapFocus       *self,
                   const PgsMapShown *shown,
                   gboolean           last)
{
  double x0, y0, x1, y1, step = pixel_step (shown);

  if (!pgs_map_to_widget (shown, 0, 0, &x0, &y0) || !pgs_map_to_widget (shown, 1, 1, &x1, &y1))
    return FALSE;
  if (!last)
    return pgs_map_focus_at (self, shown, x0 + step / 2, y0 + step / 2);
  for (double y = y1 - step / 2; y >= y0; y -= step)
    {
      for (double x = x1 - step / 2; x >= x0; x -= step)
        if (pgs_map_focus_at (self, shown, x, y))
          return TRUE;
    }
  return FALSE;
}

/* Pans so that widget point (x, y), outside the area, comes into view, and moves the focus
 * there once the new pixels are on screen. */
static void
pan_to (PgsMapFocus       *self,
        const PgsMapShown *shown,
        double             x,
        double             y)
{
  int scale = shown->scale;
  double mx, my, cx, cy;

  if (pgs_map_viewport_get_zoom (self->viewport) <= 1.0 || shown->renderer == NULL)
    return;
  if (!pgs_renderer_pixel_to_map (shown->renderer, shown->width, shown->height,
                                  x * scale, y * scale, &mx, &my) ||
      mx < 0 || my < 0 || mx >= 1 || my >= 1)
    return;
  pgs_renderer_pixel_to_map (shown->renderer, shown->width, shown->height,
                             CLAMP (x, 0, shown->area_width - 1) * scale,
                             CLAMP (y, 0, shown->area_height - 1) * scale, &cx, &cy);
  self->pending = TRUE;
  self->pending_x = mx;
  self->pending_y = my;
  pgs_map_viewport_set (self->viewport, pgs_map_viewport_get_zoom (self->viewport),
                        pgs_map_viewport_get_center_x (self->viewport) + (mx - cx),
                        pgs_map_viewport_get_center_y (self->viewport) + (my - cy));
}

void
pgs_map_focus_move (PgsMapFocus       *self,
                    const PgsMapShown *shown,
                    PgsMapFocusMove    kind,
                    int                dx,
                    int                dy)
{
  graphene_rect_t cell;
  double step = pixel_step (shown), x, y;

  if (shown->renderer == NULL || !shown->ready)
    return;   /* a pan or refresh on its way: its pixels decide where the focus lands */

  if (kind == PGS_MAP_FOCUS_HOME || kind == PGS_MAP_FOCUS_END ||
      !self->valid || !pgs_map_inside (shown, self->x, self->y))
    {
      if (kind == PGS_MAP_FOCUS_END)
        {
          if (pgs_map_viewport_get_zoom (self->viewport) > 1.0)
            pgs_map_viewport_set (self->viewport, 1.0, 0.5, 0.5);
          if (!still_ready (self, shown))
            {
              self->pending = TRUE;
              self->pending_x = self->pending_y = -1;   /* the last cell */
              return;
            }
        }
      if (kind == PGS_MAP_FOCUS_HOME && pgs_map_viewport_get_zoom (self->viewport) > 1.0)
        {
          self->pending = TRUE;
          self->pending_x = self->pending_y = 0;
          pgs_map_viewport_set (self->viewport, pgs_map_viewport_get_zoom (self->viewport), 0, 0);
          if (!still_ready (self, shown))
            return;
          self->pending = FALSE;
        }
      pgs_map_focus_end (self, shown, kind == PGS_MAP_FOCUS_END);
      return;
    }

  pgs_map_cell_bounds (shown, &self->hit, self->x, self->y, &cell);
  x = self->x;
  y = self->y;
  if (kind == PGS_MAP_FOCUS_SCREEN)
    y += dy * shown->area_height;
  else if (dx > 0)
    x = cell.origin.x + cell.size.width + step;
  else if (dx < 0)
    x = cell.origin.x - step;
  else if (dy > 0)
    y = cell.origin.y + cell.size.height + step;
  else if (dy < 0)
    y = cell.origin.y - step;

  if (kind == PGS_MAP_FOCUS_SCREEN && !pgs_map_inside (shown, x, y) && pgs_map_viewport_get_zoom (self->viewport) <= 1.0)
    {
      /* Unzoomed, a screen is the whole map: go to its first or last row. */
      pgs_map_focus_end (self, shown, dy > 0);
      return;
    }
  if (!pgs_map_inside (shown, x, y))
    {
      pan_to (self, shown, x, y);
      return;
    }
  if (pgs_map_focus_at (self, shown, x, y))
    return;

  /* Off the end of a row (or into the margin): on to the next row, or back to the last. */
  if (dx != 0)
    {
      double x0, y0, x1, y1;

      if (!pgs_map_to_widget (shown, 0, 0, &x0, &y0) || !pgs_map_to_widget (shown, 1, 1, &x1, &y1))
        return;
      if (dx > 0)
        {
          x = MAX (x0, 0) + step / 2;
          y = cell.origin.y + cell.size.height + step;
        }
      else
        {
          x = MIN (x1, shown->area_width) - step / 2;
          y = cell.origin.y - step;
        }
      if (pgs_map_inside (shown, x, y))
        {
          /* A last row that stops short: walk back to its last cell. */
          for (; x >= 0 && x < shown->area_width; x -= step)
            if (pgs_map_focus_at (self, shown, x, y) || dx > 0)
              return;
        }
    }
}

void
pgs_map_focus_after_render (PgsMapFocus       *self,
                            const PgsMapShown *shown)
{
  double mx, my, x, y;

  if (self->pending && shown->ready)
    {
      self->pending = FALSE;
      if (self->pending_x < 0)
        pgs_map_focus_end (self, shown, TRUE);
      else if (pgs_map_to_widget (shown, self->pending_x, self->pending_y, &x, &y) &&
               !pgs_map_focus_at (self, shown, x, y))
        pgs_map_focus_end (self, shown, self->pending_x > 0.5);
      return;
    }
  if (!self->valid)
    return;

  /* Found again by its frame or address: after a refresh it may be drawn elsewhere, or
   * in another colour, and its numbers have changed. */
  if (pgs_renderer_locate (shown->renderer, shown->width, shown->height,
                           &self->hit, &mx, &my) &&
      pgs_map_to_widget (shown, mx, my, &x, &y))
    {
      PgsHit hit;

      if (pgs_map_inside (shown, x, y) && pgs_map_hit_test (shown, x, y, &hit) && hit.valid)
        {
          /* Keep asking about the same frame or page, with its new numbers. */
          self->x = x;
          self->y = y;
          if (pgs_map_same_cell (&hit, &self->hit))
            self->hit = hit;
        }
      else
        {
          /* Scrolled out of view: it stays the focus cell, drawn when it is back. */
          self->x = x;
          self->y = y;
        }
    }
}

static void
focus_snapshot (PgsMapOverlay     *overlay,
                GtkSnapshot       *snapshot,
                const PgsMapShown *shown)
{
  PgsMapFocus *self = PGS_MAP_FOCUS (overlay);
  graphene_rect_t cell, rect;
  GskRoundedRect outline;
  float inner[4] = { 2, 2, 2, 2 };
  float outer[4] = { 2, 2, 2, 2 };
  /* Black inside white, the reverse of the hover outline, and neither a legend colour:
   * the ring cannot be read as a category, and one always contrasts with the cell. */
  GdkRGBA black = { 0, 0, 0, 1 }, white = { 1, 1, 1, 1 };
  GdkRGBA inner_colors[4] = { black, black, black, black };
  GdkRGBA outer_colors[4] = { white, white, white, white };
  double x0, y0, x1, y1;

  if (!self->valid || !shown->focused ||
      shown->renderer == NULL || !pgs_map_inside (shown, self->x, self->y))
    return;

  pgs_map_cell_bounds (shown, &self->hit, self->x, self->y, &cell);
  x0 = floor (cell.origin.x);
  y0 = floor (cell.origin.y);
  x1 = MAX (ceil (cell.origin.x + cell.size.width) + 1, x0 + 2);
  y1 = MAX (ceil (cell.origin.y + cell.size.height) + 1, y0 + 2);

  graphene_rect_init (&rect, x0 - 2, y0 - 2, x1 - x0 + 4, y1 - y0 + 4);
  gsk_rounded_rect_init_from_rect (&outline, &rect, 0);
  gtk_snapshot_append_border (snapshot, &outline, inner, inner_colors);
  graphene_rect_init (&rect, x0 - 4, y0 - 4, x1 - x0 + 8, y1 - y0 + 8);
  gsk_rounded_rect_init_from_rect (&outline, &rect, 0);
  gtk_snapshot_append_border (snapshot, &outline, outer, outer_colors);
}


static void
overlay_iface_init (PgsMapOverlayInterface *iface)
{
  iface->snapshot = focus_snapshot;
}

static void
pgs_map_focus_dispose (GObject *object)
{
  g_clear_object (&PGS_MAP_FOCUS (object)->viewport);
  G_OBJECT_CLASS (pgs_map_focus_parent_class)->dispose (object);
}

static void
pgs_map_focus_class_init (PgsMapFocusClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = pgs_map_focus_dispose;
}

static void
pgs_map_focus_init (PgsMapFocus *self)
{
}

PgsMapFocus *
pgs_map_focus_new (PgsMapViewport *viewport)
{
  PgsMapFocus *self = g_object_new (PGS_TYPE_MAP_FOCUS, NULL);

  self->viewport = g_object_ref (viewport);
  return self;
}

gboolean
pgs_map_focus_get_cell (PgsMapFocus *self,
                        PgsHit      *hit,
                        double      *x,
                        double      *y)
{
  g_return_val_if_fail (PGS_IS_MAP_FOCUS (self), FALSE);

  if (!self->valid)
    return FALSE;
  if (hit != NULL)
    *hit = self->hit;
  if (x != NULL)
    *x = self->x;
  if (y != NULL)
    *y = self->y;
  return TRUE;
}
