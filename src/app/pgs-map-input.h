/* pgs-map-input.h: what the pointer, the wheel and the keys do to a map
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "pgs-map-canvas.h"
#include "pgs-map-focus.h"
#include "pgs-map-hover.h"
#include "pgs-map-viewport.h"

G_BEGIN_DECLS

#define PGS_TYPE_MAP_INPUT (pgs_map_input_get_type ())

G_DECLARE_FINAL_TYPE (PgsMapInput, pgs_map_input, PGS, MAP_INPUT, GObject)

/* Adds its controllers to @widget, which shows @canvas and owns the input. */
PgsMapInput *pgs_map_input_new             (GtkWidget      *widget,
                                            PgsMapCanvas   *canvas,
                                            PgsMapViewport *viewport,
                                            PgsMapHover    *hover,
                                            PgsMapFocus    *focus);
/* Installs map.zoom-in, -out, -reset, map.pan and map.focus-* on @widget_class, and their
 * keys; each runs on the input a widget of the class was given by pgs_map_input_new(). */
void         pgs_map_input_add_keys        (GtkWidgetClass *widget_class);
/* Zooms by @factor keeping the point under widget point (@x, @y) in place; a negative @x
 * zooms about the centre. */
void         pgs_map_input_zoom_by         (PgsMapInput    *self,
                                            double          factor,
                                            double          x,
                                            double          y);

G_END_DECLS
