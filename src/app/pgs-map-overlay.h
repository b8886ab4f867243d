/* pgs-map-overlay.h: what is drawn over a map's pixels, and the one hit test it reads
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "pagescope.h"

G_BEGIN_DECLS

/* The pixels on screen, as every overlay sees them: their renderer and size, the widget's
 * scale and size. Built by the map view for each call; overlays keep none of it. */
typedef struct _PgsMapShown
{
  PgsRenderer *renderer;    /* NULL before the first pixels */
  int          width;       /* of the pixels, in device pixels */
  int          height;
  int          scale;
  double       area_width;  /* the map's rectangle, in widget coordinates */
  double       area_height;
  double       zoom;        /* the viewport the pixels were drawn at */
  double       center_x;
  double       center_y;
  gboolean     ready;       /* the pixels are those wanted: nothing on its way */
  gboolean     focused;     /* the map has the keyboard focus */
  PangoContext *pango;      /* the widget's, for text */
} PgsMapShown;

#define PGS_TYPE_MAP_OVERLAY (pgs_map_overlay_get_type ())

G_DECLARE_INTERFACE (PgsMapOverlay, pgs_map_overlay, PGS, MAP_OVERLAY, GObject)

/* The contract: an overlay draws itself over the pixels from what it holds and @shown. */
struct _PgsMapOverlayInterface
{
  GTypeInterface parent_iface;

  void (*snapshot) (PgsMapOverlay     *self,
                    GtkSnapshot       *snapshot,
                    const PgsMapShown *shown);
};

void     pgs_map_overlay_snapshot (PgsMapOverlay     *self,
                                   GtkSnapshot       *snapshot,
                                   const PgsMapShown *shown);

/* Widget coordinates to the page or frame drawn there: the one hit test that hover,
 * tooltip, click, the focus cell and tests share. */
gboolean pgs_map_hit_test         (const PgsMapShown *shown,
                                   double             x,
                                   double             y,
                                   PgsHit            *hit);
gboolean pgs_map_same_cell        (const PgsHit      *a,
                                   const PgsHit      *b);
/* The rectangle (widget coordinates, first to last pixel) of the cell under (x, y) that
 * @hit describes, found through the hit test. */
void     pgs_map_cell_bounds      (const PgsMapShown *shown,
                                   const PgsHit      *hit,
                                   double             x,
                                   double             y,
                                   graphene_rect_t   *bounds);
gboolean pgs_map_inside           (const PgsMapShown *shown,
                                   double             x,
                                   double             y);
/* Map fractions to widget coordinates and back, through the renderer on screen. */
gboolean pgs_map_to_widget        (const PgsMapShown *shown,
                                   double             map_x,
                                   double             map_y,
                                   double            *x,
                                   double            *y);
gboolean pgs_map_from_widget      (const PgsMapShown *shown,
                                   double             x,
                                   double             y,
                                   double            *map_x,
                                   double            *map_y);

G_END_DECLS
