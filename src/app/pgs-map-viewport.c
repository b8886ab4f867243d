/* pgs-map-viewport.c: which part of a map is on screen (zoom and centre)
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Numbers only, in fractions of the whole map: the map view renders what it says, the
 * focus ring pans it, the page's buttons zoom it. It knows nothing of pixels; a point
 * under the pointer comes in as a map fraction, from the renderer on screen.
 */

#include "config.h"

#include "pgs-map-viewport.h"

struct _PgsMapViewport
{
  GObject parent_instance;
  double  zoom;
  double  center_x;
  double  center_y;
};

enum {
  PROP_0,
  PROP_ZOOM,
  PROP_CENTER_X,
  PROP_CENTER_Y,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (PgsMapViewport, pgs_map_viewport, G_TYPE_OBJECT)

static void
pgs_map_viewport_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  PgsMapViewport *self = PGS_MAP_VIEWPORT (object);

  switch (prop_id)
    {
    case PROP_ZOOM:
      g_value_set_double (value, self->zoom);
      break;
    case PROP_CENTER_X:
      g_value_set_double (value, self->center_x);
      break;
    case PROP_CENTER_Y:
      g_value_set_double (value, self->center_y);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pgs_map_viewport_class_init (PgsMapViewportClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  /* Read-only: pgs_map_viewport_set() changes them together. */
  GParamFlags flags = G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->get_property = pgs_map_viewport_get_property;

  properties[PROP_ZOOM] = g_param_spec_double ("zoom", NULL, NULL, 1.0,
                                               PGS_MAP_VIEWPORT_MAX_ZOOM, 1.0, flags);
  properties[PROP_CENTER_X] = g_param_spec_double ("center-x", NULL, NULL, 0, 1, 0.5, flags);
  properties[PROP_CENTER_Y] = g_param_spec_double ("center-y", NULL, NULL, 0, 1, 0.5, flags);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
pgs_map_viewport_init (PgsMapViewport *self)
{
  self->zoom = 1.0;
  self->center_x = self->center_y = 0.5;
}

PgsMapViewport *
pgs_map_viewport_new (void)
{
  return g_object_new (PGS_TYPE_MAP_VIEWPORT, NULL);
}

double
pgs_map_viewport_get_zoom (PgsMapViewport *self)
{
  g_return_val_if_fail (PGS_IS_MAP_VIEWPORT (self), 1.0);
  return self->zoom;
}

double
pgs_map_viewport_get_center_x (PgsMapViewport *self)
{
  g_return_val_if_fail (PGS_IS_MAP_VIEWPORT (self), 0.5);
  return self->center_x;
}

double
pgs_map_viewport_get_center_y (PgsMapViewport *self)
{
  g_return_val_if_fail (PGS_IS_MAP_VIEWPORT (self), 0.5);
  return self->center_y;
}

void
pgs_map_viewport_set (PgsMapViewport *self,
                      double          zoom,
                      double          center_x,
                      double          center_y)
{
  double half;
  gboolean z, x, y;

  g_return_if_fail (PGS_IS_MAP_VIEWPORT (self));

  zoom = CLAMP (zoom, 1.0, PGS_MAP_VIEWPORT_MAX_ZOOM);
  half = 0.5 / zoom;
  center_x = CLAMP (center_x, half, 1.0 - half);
  center_y = CLAMP (center_y, half, 1.0 - half);
  z = zoom != self->zoom;
  x = center_x != self->center_x;
  y = center_y != self->center_y;
  self->zoom = zoom;
  self->center_x = center_x;
  self->center_y = center_y;
  /* All values first, then the notifications: a listener sees the whole new state. */
  g_object_freeze_notify (G_OBJECT (self));
  if (z)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ZOOM]);
  if (x)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CENTER_X]);
  if (y)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CENTER_Y]);
  g_object_thaw_notify (G_OBJECT (self));
}

void
pgs_map_viewport_pan (PgsMapViewport *self,
                      double          dx,
                      double          dy)
{
  g_return_if_fail (PGS_IS_MAP_VIEWPORT (self));
  pgs_map_viewport_set (self, self->zoom, self->center_x + dx / self->zoom,
                        self->center_y + dy / self->zoom);
}

void
pgs_map_viewport_zoom_by (PgsMapViewport *self,
                          double          factor,
                          double          map_x,
                          double          map_y)
{
  double zoom, cx, cy;

  g_return_if_fail (PGS_IS_MAP_VIEWPORT (self));

  zoom = CLAMP (self->zoom * factor, 1.0, PGS_MAP_VIEWPORT_MAX_ZOOM);
  if (zoom == self->zoom)
    return;
  /* The map point under the pointer stays put: every point moves towards it by the ratio
   * of the zooms. */
  cx = self->center_x;
  cy = self->center_y;
  if (map_x >= 0 && map_y >= 0)
    {
      cx = map_x + (cx - map_x) * self->zoom / zoom;
      cy = map_y + (cy - map_y) * self->zoom / zoom;
    }
  pgs_map_viewport_set (self, zoom, cx, cy);
}
