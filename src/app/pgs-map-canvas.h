/* pgs-map-canvas.h: a map's pixels, rendered in a worker thread
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "pagescope.h"
#include "pgs-render.h"

G_BEGIN_DECLS

/* What a render is asked for. */
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
} PgsMapParams;

#define PGS_TYPE_MAP_CANVAS (pgs_map_canvas_get_type ())

G_DECLARE_FINAL_TYPE (PgsMapCanvas, pgs_map_canvas, PGS, MAP_CANVAS, GObject)

PgsMapCanvas       *pgs_map_canvas_new          (PgsView       view);
/* The parameters wanted: change them, then call pgs_map_canvas_update(). */
PgsMapParams       *pgs_map_canvas_get_wanted   (PgsMapCanvas *self);
/* Starts a render when what is wanted differs from what is shown and none runs. Not
 * @visible, nothing is rendered and pixels out of date are dropped, with their renderer. */
void                pgs_map_canvas_update       (PgsMapCanvas *self,
                                                 gboolean      visible);
/* Unmapped: the pixels are dropped (the renderer that drew them is kept) and nothing is
 * rendered until pgs_map_canvas_update() says visible, which draws the same ones again at
 * once. */
void                pgs_map_canvas_release      (PgsMapCanvas *self);
/* The renderer and the pixels on screen (NULL before the first render). */
PgsRenderer        *pgs_map_canvas_get_renderer (PgsMapCanvas *self);
GdkTexture         *pgs_map_canvas_get_texture  (PgsMapCanvas *self);
/* TRUE once the pixels on screen are those wanted. */
gboolean            pgs_map_canvas_is_ready     (PgsMapCanvas *self);
/* The pixels on screen again, with the library's legend, at @width x @height into a PNG,
 * in a worker thread; the task's source is @source_object, and g_task_propagate_boolean()
 * its result. */
void                pgs_map_canvas_write_png_async (PgsMapCanvas        *self,
                                                    gpointer             source_object,
                                                    const char          *path,
                                                    int                  width,
                                                    int                  height,
                                                    GAsyncReadyCallback  callback,
                                                    gpointer             user_data);

/* The pixels on screen as overlays see them, in @widget, which shows them. */
struct _PgsMapShown;
void                pgs_map_canvas_fill_shown   (PgsMapCanvas        *self,
                                                 GtkWidget           *widget,
                                                 struct _PgsMapShown *shown);

G_END_DECLS
