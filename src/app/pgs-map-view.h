/* pgs-map-view.h: a residency, sharing or page-flag map on screen
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "pagescope.h"
#include "pgs-render.h"
#include "pgs-map-viewport.h"
#include "pgs-units.h"

G_BEGIN_DECLS

#define PGS_TYPE_MAP_VIEW (pgs_map_view_get_type ())

/* Properties a page binds (each also has a setter below): snapshot, process, layout (a
 * PgsLayout, as uint), hide-free, units (a PgsUnits, as uint), highlight-mode (a
 * PgsHighlightMode, as uint), highlight-name then highlight-frames (GBytes), wss-sample;
 * construct-only view (a PgsView, as uint); read-only renderer (of the pixels on screen:
 * what a PgsMapLegend describes) and status. */
G_DECLARE_FINAL_TYPE (PgsMapView, pgs_map_view, PGS, MAP_VIEW, GtkWidget)

#define PGS_MAP_VIEW_MAX_ZOOM PGS_MAP_VIEWPORT_MAX_ZOOM

/* Property "process" (for bindings): what pgs_map_view_set_process() sets. */

/* A rescan of the same process: a new PgsProcess, the same PID. */
static inline gboolean
pgs_same_pid (PgsProcess *a,
              PgsProcess *b)
{
  return a != NULL && b != NULL && pgs_process_get_pid (a) == pgs_process_get_pid (b);
}

GtkWidget   *pgs_map_view_new            (PgsView      view);
PgsView      pgs_map_view_get_view       (PgsMapView  *self);
/* The zoom and centre: what the zoom buttons and the keys change. */
PgsMapViewport *pgs_map_view_get_viewport (PgsMapView *self);
void         pgs_map_view_set_snapshot   (PgsMapView  *self,
                                          PgsSnapshot *snapshot);
void         pgs_map_view_set_process    (PgsMapView  *self,
                                          PgsProcess  *process);
/* Physical views: highlight these frames (guint64) instead of the process's; NULL for the
 * process's. */
void         pgs_map_view_set_highlight_frames (PgsMapView *self,
                                                GBytes     *pfns,
                                                const char *name);
void         pgs_map_view_set_layout     (PgsMapView  *self,
                                          PgsLayout    layout);
/* Physical views: fold long runs of free frames out of the map. */
void         pgs_map_view_set_hide_free  (PgsMapView  *self,
                                          gboolean     hide_free);
void         pgs_map_view_set_units      (PgsMapView  *self,
                                          PgsUnits     units);
/* How the physical maps mark the process's frames (the "highlight" setting). */
void         pgs_map_view_set_highlight_mode (PgsMapView      *self,
                                              PgsHighlightMode mode);
/* The style the map is drawn in: the theme's (light, dark, high contrast), followed as it
 * changes. */
PgsRenderStyle pgs_map_view_get_style    (PgsMapView  *self);
double       pgs_map_view_get_zoom       (PgsMapView  *self);
void         pgs_map_view_set_viewport   (PgsMapView  *self,
                                          double       zoom,
                                          double       center_x,
                                          double       center_y);
void         pgs_map_view_zoom_by        (PgsMapView  *self,
                                          double       factor,
                                          double       x,
                                          double       y);

/* The renderer whose pixels are on screen (NULL before the first one is ready). It is
 * never touched by a worker thread once it is returned here. */
PgsRenderer *pgs_map_view_get_renderer   (PgsMapView  *self);
/* The pixels on screen (NULL before the first are ready), for tests. */
GdkTexture  *pgs_map_view_get_texture    (PgsMapView  *self);
/* TRUE once the pixels on screen are those of the current snapshot, process, layout,
 * viewport and size. */
gboolean     pgs_map_view_is_ready       (PgsMapView  *self);
/* The map's own rectangle inside the widget. */
void         pgs_map_view_get_map_area   (PgsMapView  *self,
                                          graphene_rect_t *area);
/* Widget coordinates to the page or frame drawn there: the one function hover, tooltip,
 * click and tests share. */
gboolean     pgs_map_view_hit_test       (PgsMapView  *self,
                                          double       x,
                                          double       y,
                                          PgsHit      *hit);
/* Residency: marks the pages @sample says were accessed (only where it has a per-page
 * source: PGS_WSS_PAGES_IDLE); NULL for none. The caller keeps it to the process shown. */
void          pgs_map_view_set_wss_sample (PgsMapView   *self,
                                           PgsWssSample *sample);
PgsWssSample *pgs_map_view_get_wss_sample (PgsMapView   *self);
/* The status line: the hovered cell's description, else the focused cell's, on one line;
 * also the view's accessible description. Changes are signalled by ::status-changed. */
const char  *pgs_map_view_get_status     (PgsMapView   *self);
/* The keyboard focus cell, FALSE when there is none. */
gboolean     pgs_map_view_get_focus_cell (PgsMapView   *self,
                                          PgsHit       *hit);
/* Hide free memory: the tooltip of fold marker @index ("12.3 GiB free, hidden (frames
 * 0x…–0x…, N frames)"), NULL when there is no such fold. */
char        *pgs_map_view_describe_fold  (PgsMapView   *self,
                                          guint         index);
/* Tooltip text for a hit, as markup-free text lines. */
char        *pgs_map_view_describe_hit   (PgsMapView   *self,
                                          const PgsHit *hit);
/* Renders the map on screen (same view, process, layout and viewport) with its legend at
 * @width × @height map pixels into a PNG, in a worker thread: a large export takes seconds
 * of PNG encoding. */
void         pgs_map_view_write_png_async  (PgsMapView          *self,
                                            const char          *path,
                                            int                  width,
                                            int                  height,
                                            GAsyncReadyCallback  callback,
                                            gpointer             user_data);
gboolean     pgs_map_view_write_png_finish (PgsMapView          *self,
                                            GAsyncResult        *result,
                                            GError             **error);

G_END_DECLS
