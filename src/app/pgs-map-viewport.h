/* pgs-map-viewport.h: which part of a map is on screen (zoom and centre)
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

#define PGS_TYPE_MAP_VIEWPORT (pgs_map_viewport_get_type ())

G_DECLARE_FINAL_TYPE (PgsMapViewport, pgs_map_viewport, PGS, MAP_VIEWPORT, GObject)

#define PGS_MAP_VIEWPORT_MAX_ZOOM 4096.0

PgsMapViewport *pgs_map_viewport_new          (void);
double          pgs_map_viewport_get_zoom     (PgsMapViewport *self);
double          pgs_map_viewport_get_center_x (PgsMapViewport *self);
double          pgs_map_viewport_get_center_y (PgsMapViewport *self);
/* Zoom clamped to 1 … PGS_MAP_VIEWPORT_MAX_ZOOM, the centre so that the view stays on the
 * map; notifies what changed. */
void            pgs_map_viewport_set          (PgsMapViewport *self,
                                               double          zoom,
                                               double          center_x,
                                               double          center_y);
/* Moves the centre by (@dx, @dy) of what is visible. */
void            pgs_map_viewport_pan          (PgsMapViewport *self,
                                               double          dx,
                                               double          dy);
/* Zooms by @factor keeping map point (@map_x, @map_y) in place; a negative @map_x zooms
 * about the centre. */
void            pgs_map_viewport_zoom_by      (PgsMapViewport *self,
                                               double          factor,
                                               double          map_x,
                                               double          map_y);

G_END_DECLS
