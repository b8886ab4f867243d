/* pgs-map-focus.h: the keyboard's cell on a map, and the ring drawn round it
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "pgs-map-overlay.h"
#include "pgs-map-viewport.h"

G_BEGIN_DECLS

typedef enum
{
  PGS_MAP_FOCUS_CELL,    /* (dx, dy) cells */
  PGS_MAP_FOCUS_SCREEN,  /* dy screens */
  PGS_MAP_FOCUS_HOME,
  PGS_MAP_FOCUS_END,
} PgsMapFocusMove;

#define PGS_TYPE_MAP_FOCUS (pgs_map_focus_get_type ())

G_DECLARE_FINAL_TYPE (PgsMapFocus, pgs_map_focus, PGS, MAP_FOCUS, GObject)

/* Moves that leave the view pan @viewport. */
PgsMapFocus *pgs_map_focus_new          (PgsMapViewport    *viewport);
/* Makes the cell at (x, y) the focus cell (a click does); FALSE where there is none. */
gboolean     pgs_map_focus_at           (PgsMapFocus       *self,
                                         const PgsMapShown *shown,
                                         double             x,
                                         double             y);
/* The first (or last) cell of the map. */
gboolean     pgs_map_focus_end          (PgsMapFocus       *self,
                                         const PgsMapShown *shown,
                                         gboolean           last);
void         pgs_map_focus_move         (PgsMapFocus       *self,
                                         const PgsMapShown *shown,
                                         PgsMapFocusMove    move,
                                         int                dx,
                                         int                dy);
/* New pixels on screen: finds the focus cell again by its frame or address, or lands a
 * move that waited for a pan. */
void         pgs_map_focus_after_render (PgsMapFocus       *self,
                                         const PgsMapShown *shown);
/* The focus cell and its point in widget coordinates; FALSE when there is none. */
gboolean     pgs_map_focus_get_cell     (PgsMapFocus       *self,
                                         PgsHit            *hit,
                                         double            *x,
                                         double            *y);

G_END_DECLS
