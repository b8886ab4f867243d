/* pgs-map-hover.c: the outline round the cell under the pointer
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * White inside black, round the whole cell as the hit test finds it, and never smaller
 * than a few pixels round the pointer, so a one-pixel frame can still be seen.
 */

#include "config.h"

#include <math.h>

#include "pgs-map-hover.h"

struct _PgsMapHover
{
  GObject  parent_instance;
  gboolean hovering;
  double   x;
  double   y;
};

static void overlay_iface_init (PgsMapOverlayInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (PgsMapHover, pgs_map_hover, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (PGS_TYPE_MAP_OVERLAY, overlay_iface_init))

static void
hover_snapshot (PgsMapOverlay     *overlay,
                GtkSnapshot       *snapshot,
                const PgsMapShown *shown)
{
  PgsMapHover *self = PGS_MAP_HOVER (overlay);
  PgsHit hit;
  double x0, x1, y0, y1;
  graphene_rect_t rect;
  GskRoundedRect outline;
  float inner[4] = { 1.5f, 1.5f, 1.5f, 1.5f };
  float outer[4] = { 1, 1, 1, 1 };
  GdkRGBA white = { 1, 1, 1, 1 }, black = { 0, 0, 0, 0.8f };
  GdkRGBA inner_colors[4] = { white, white, white, white };
  GdkRGBA outer_colors[4] = { black, black, black, black };

  if (!self->hovering || !pgs_map_hit_test (shown, self->x, self->y, &hit) || !hit.valid)
    return;

  pgs_map_cell_bounds (shown, &hit, self->x, self->y, &rect);
  x0 = rect.origin.x;
  y0 = rect.origin.y;
  x1 = x0 + rect.size.width;
  y1 = y0 + rect.size.height;

  /* At least a few pixels around the pointer, so a one-pixel frame can still be seen. */
  x0 = MIN (floor (x0), self->x - 3);
  y0 = MIN (floor (y0), self->y - 3);
  x1 = MAX (ceil (x1) + 1, self->x + 3);
  y1 = MAX (ceil (y1) + 1, self->y + 3);

  graphene_rect_init (&rect, x0 - 1.5, y0 - 1.5, x1 - x0 + 3, y1 - y0 + 3);
  gsk_rounded_rect_init_from_rect (&outline, &rect, 0);
  gtk_snapshot_append_border (snapshot, &outline, inner, inner_colors);
  graphene_rect_init (&rect, x0 - 2.5, y0 - 2.5, x1 - x0 + 5, y1 - y0 + 5);
  gsk_rounded_rect_init_from_rect (&outline, &rect, 0);
  gtk_snapshot_append_border (snapshot, &outline, outer, outer_colors);
}

static void
overlay_iface_init (PgsMapOverlayInterface *iface)
{
  iface->snapshot = hover_snapshot;
}

static void
pgs_map_hover_class_init (PgsMapHoverClass *klass)
{
}

static void
pgs_map_hover_init (PgsMapHover *self)
{
}

PgsMapHover *
pgs_map_hover_new (void)
{
  return g_object_new (PGS_TYPE_MAP_HOVER, NULL);
}

void
pgs_map_hover_set_point (PgsMapHover *self,
                         gboolean     inside,
                         double       x,
                         double       y)
{
  g_return_if_fail (PGS_IS_MAP_HOVER (self));

  self->hovering = inside;
  if (inside)
    {
      self->x = x;
      self->y = y;
    }
}

gboolean
pgs_map_hover_get_point (PgsMapHover *self,
                         double      *x,
                         double      *y)
{
  g_return_val_if_fail (PGS_IS_MAP_HOVER (self), FALSE);

  *x = self->x;
  *y = self->y;
  return self->hovering;
}
