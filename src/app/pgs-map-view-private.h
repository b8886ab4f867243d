/* pgs-map-view-private.h: the map view's internals, shared by the pgs-map-view-*.c files
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "pgs-map-view.h"

G_BEGIN_DECLS

#define LEGEND_GAP       12
#define LEGEND_SWATCH    12
#define LEGEND_ROW_GAP    4
#define LEGEND_MAX_WIDTH 340
#define ZOOM_STEP        1.25

typedef struct
{
  PgsSnapshot *snapshot;
  PgsProcess  *process;
  GBytes      *highlight;  /* physical views: PFNs highlighted instead of the process's */
  char        *highlight_name; /* what they are, for the legend ("libc.so.6") */
  PgsView      view;
  PgsLayout    layout;
  gboolean     hide_free;
  double       zoom;
  double       center_x;
  double       center_y;
  int          width;     /* device pixels */
  int          height;
  PgsRenderStyle   style;
  PgsHighlightMode highlight_mode;
} Params;

typedef struct
{
  Params       params;
  PgsRenderer *renderer;
  GBytes      *pixels;
  int          stride;
} RenderJob;

struct _PgsMapView
{
  GtkWidget     parent_instance;

  Params        wanted;
  Params        shown;
  PgsRenderer  *renderer;     /* the one that drew the texture */
  GdkTexture   *texture;
  gboolean      job_running;
  GCancellable *cancellable;
  PgsUnits      units;

  /* legend, laid out once per renderer and units: snapshot() only draws it */
  GArray       *legend;         /* LegendRow */
  PangoLayout  *legend_rule;
  int           legend_width;
  int           legend_height;
  int           band_line_height;

  /* working set: marks on the pages accessed during the sample, where the kernel said so
   * per page (idle page tracking); drawn once per texture and sample, then reused */
  PgsWssSample  *wss_sample;
  GskRenderNode *wss_node;

  /* hover */
  gboolean      hovering;
  double        hover_x;
  double        hover_y;

  /* keyboard focus cell, kept by its frame or address (focus_hit) across refreshes;
   * focus_x, focus_y: its middle in widget coordinates on the pixels shown */
  gboolean      focus_valid;
  PgsHit        focus_hit;
  double        focus_x;
  double        focus_y;
  gboolean      focus_pending;   /* a move that waits for the map to pan */
  double        pending_x;       /* map fractions of where it goes */
  double        pending_y;
  char         *status;          /* what the status line says */

  /* drag */
  double        drag_center_x;
  double        drag_center_y;
  double        drag_scale_x;
  double        drag_scale_y;
  gboolean      dragged;
};

/* pgs-map-view.c */
gboolean pgs_map_view_params_equal        (const Params   *a,
                                           const Params   *b);
void     pgs_map_view_update_wanted_size  (PgsMapView     *self);
/* Asks for a render when what is wanted differs from what is shown, and redraws. */
void     pgs_map_view_invalidate          (PgsMapView     *self);
/* Emits PgsMapView::page-activated for @hit. */
void     pgs_map_view_activate_page       (PgsMapView     *self,
                                           PgsHit         *hit);

/* pgs-map-view-legend.c */
/* A label in the widget's font, @small at 85 %. */
PangoLayout *pgs_map_view_legend_layout (PgsMapView *self,
                                         const char *text,
                                         gboolean    small);
void     pgs_map_view_legend_rows_free    (GArray         *rows);
void     pgs_map_view_update_legend_size  (PgsMapView     *self);
void     pgs_map_view_snapshot_legend     (PgsMapView     *self,
                                           GtkSnapshot    *snapshot,
                                           float           x);

/* pgs-map-view-style.c */
/* Renders again when the theme asks for another style (see the file). */
void     pgs_map_view_update_style        (PgsMapView     *self);
void     pgs_map_view_style_init          (PgsMapView     *self);

/* pgs-map-view-hover.c */
/* Connects the tooltip and the pointer tracking. */
void     pgs_map_view_hover_init          (PgsMapView     *self);
void     pgs_map_view_snapshot_hover      (PgsMapView     *self,
                                           GtkSnapshot    *snapshot);

/* The rectangle (widget coordinates, first to last pixel) of the cell under (x, y) that
 * @hit describes, found through the hit test. */
void     pgs_map_view_cell_bounds         (PgsMapView     *self,
                                           const PgsHit   *hit,
                                           double          x,
                                           double          y,
                                           graphene_rect_t *bounds);
gboolean pgs_map_view_same_cell           (const PgsHit   *a,
                                           const PgsHit   *b);

/* pgs-map-view-focus.c */
/* Installs the map.focus-* actions and their keys (arrows, Home, End, Page Up/Down, Enter). */
void     pgs_map_view_focus_class_init    (GtkWidgetClass *widget_class);
void     pgs_map_view_focus_init          (PgsMapView     *self);
/* New pixels on screen: finds the focus cell again by its frame or address. */
void     pgs_map_view_focus_after_render  (PgsMapView     *self);
/* Makes the cell at (x, y) the focus cell (a click does); FALSE where there is none. */
gboolean pgs_map_view_focus_at            (PgsMapView     *self,
                                           double          x,
                                           double          y);
void     pgs_map_view_snapshot_focus      (PgsMapView     *self,
                                           GtkSnapshot    *snapshot);
/* Works out the status line again (hovered cell, else focused cell) and announces it. */
void     pgs_map_view_update_status       (PgsMapView     *self);

/* pgs-map-view-fold.c */
/* The fold marker under (x, y), -1 for none. */
int      pgs_map_view_fold_at             (PgsMapView     *self,
                                           double          x,
                                           double          y);
void     pgs_map_view_snapshot_folds      (PgsMapView     *self,
                                           GtkSnapshot    *snapshot);
/* The legend's line about hidden free memory, NULL when none is hidden. */
char    *pgs_map_view_hidden_note         (PgsMapView     *self);

/* pgs-map-view-viewport.c */
/* Installs the map.zoom-* and map.pan actions and the arrow keys. */
void     pgs_map_view_viewport_class_init (GtkWidgetClass *widget_class);
/* Adds the scroll and drag controllers. */
void     pgs_map_view_viewport_init       (PgsMapView     *self);

G_END_DECLS
