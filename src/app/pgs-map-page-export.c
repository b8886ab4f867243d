/* pgs-map-page-export.c: the map page written to a PNG file
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>

#include "pgs-map-page-private.h"

#define EXPORT_MAX_SIDE 4096

/* Full resolution: the view as on screen, enlarged until each page has a pixel of its own
 * (or the image reaches EXPORT_MAX_SIDE), so detail the screen aggregates is in the file. */
void
pgs_map_page_get_export_size (PgsMapPage *self,
                              int        *width,
                              int        *height)
{
  PgsRenderer *renderer;
  graphene_rect_t area;
  int scale;
  double factor = 1.0;
  guint64 ppp;

  g_return_if_fail (PGS_IS_MAP_PAGE (self));

  renderer = pgs_map_view_get_renderer (self->map_view);
  pgs_map_view_get_map_area (self->map_view, &area);
  scale = gtk_widget_get_scale_factor (GTK_WIDGET (self));
  *width = MAX (1, (int) area.size.width * scale);
  *height = MAX (1, (int) area.size.height * scale);
  if (renderer == NULL)
    return;

  /* Pages per pixel is per cell edge squared on a 2-D map: grow both sides by its root. */
  ppp = pgs_renderer_get_pages_per_pixel (renderer, *width, *height);
  if (ppp > 1)
    factor = ceil (sqrt ((double) ppp));
  factor = MIN (factor, (double) EXPORT_MAX_SIDE / MAX (*width, *height));
  factor = MAX (factor, 1.0);
  *width = (int) (*width * factor);
  *height = (int) (*height * factor);
}

static void
export_done (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  GError *error = NULL;

  if (pgs_map_view_write_png_finish (PGS_MAP_VIEW (object), result, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

void
pgs_map_page_export_png_async (PgsMapPage          *self,
                               const char          *path,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  GTask *task;
  int width, height;

  g_return_if_fail (PGS_IS_MAP_PAGE (self));

  task = g_task_new (self, NULL, callback, user_data);
  g_task_set_source_tag (task, pgs_map_page_export_png_async);
  pgs_map_page_get_export_size (self, &width, &height);
  pgs_map_view_write_png_async (self->map_view, path, width, height, export_done, task);
}

gboolean
pgs_map_page_export_png_finish (PgsMapPage    *self,
                                GAsyncResult  *result,
                                GError       **error)
{
  g_return_val_if_fail (PGS_IS_MAP_PAGE (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}
