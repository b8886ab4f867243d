/* pgs-map-hover.h: the outline round the cell under the pointer
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "pgs-map-overlay.h"

G_BEGIN_DECLS

#define PGS_TYPE_MAP_HOVER (pgs_map_hover_get_type ())

G_DECLARE_FINAL_TYPE (PgsMapHover, pgs_map_hover, PGS, MAP_HOVER, GObject)

PgsMapHover *pgs_map_hover_new       (void);
/* The pointer at (x, y) in widget coordinates; @inside FALSE when it left. */
void         pgs_map_hover_set_point (PgsMapHover *self,
                                      gboolean     inside,
                                      double       x,
                                      double       y);
/* FALSE when the pointer is not over the map. */
gboolean     pgs_map_hover_get_point (PgsMapHover *self,
                                      double      *x,
                                      double      *y);

G_END_DECLS
