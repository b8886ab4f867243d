/* pgs-map-canvas.c: a map's pixels, rendered in a worker thread
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The pixels come from the library's renderer (the same ones the CLI writes to PNG), filled
 * in a worker thread and shown as a GdkMemoryTexture at device pixel size, so the map is
 * never scaled by the toolkit.
 *
 * Each render is a job with its own renderer, configured on the main thread from the
 * parameters wanted at the time and then handed to the worker: no renderer is ever shared
 * between threads. When the job is done its renderer becomes the canvas's current one, so
 * hit tests, the legend and exports always describe the pixels on screen. At most one job
 * runs; parameters that change meanwhile (a drag, a resize) are rendered next, skipping
 * the states in between. ::rendered says new pixels are in; notify::renderer with them.
 */

#include "config.h"

#include <glib/gi18n.h>

#include "pgs-background.h"
#include "pgs-map-canvas.h"
#include "pgs-map-overlay.h"
#include "pgs-release.h"

struct _PgsMapCanvas
{
  GObject       parent_instance;
  PgsMapParams  wanted;
  PgsMapParams  shown;
  PgsRenderer  *renderer;     /* the one that drew the texture */
  GdkTexture   *texture;
  gboolean      job_running;
  gboolean      visible;
  guint         start_source;
  GCancellable *cancellable;
};

typedef struct
{
  PgsMapParams  params;
  PgsRenderer  *renderer;
  GBytes       *pixels;
  int           stride;
} RenderJob;

enum {
  RENDERED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (PgsMapCanvas, pgs_map_canvas, G_TYPE_OBJECT)

static void
params_clear (PgsMapParams *params)
{
  pgs_clear_release (&params->snapshot);
  pgs_clear_release (&params->process);
  g_clear_pointer (&params->highlight, g_bytes_unref);
  g_clear_pointer (&params->highlight_name, g_free);
}

static void
params_copy (PgsMapParams       *dest,
             const PgsMapParams *src)
{
  PgsMapParams old = *dest;

  if (dest == src)
    return;
  *dest = *src;
  if (dest->snapshot != NULL)
    g_object_ref (dest->snapshot);
  if (dest->process != NULL)
    g_object_ref (dest->process);
  if (dest->highlight != NULL)
    g_bytes_ref (dest->highlight);
  dest->highlight_name = g_strdup (src->highlight_name);
  params_clear (&old);
}

static gboolean
pgs_map_params_equal (const PgsMapParams *a,
                      const PgsMapParams *b)
{
  return a->snapshot == b->snapshot && a->process == b->process && a->view == b->view &&
         a->highlight == b->highlight && a->hide_free == b->hide_free &&
         a->layout == b->layout && a->zoom == b->zoom && a->center_x == b->center_x &&
         a->center_y == b->center_y && a->width == b->width && a->height == b->height &&
         a->style == b->style && a->highlight_mode == b->highlight_mode;
}

static void
render_job_free (RenderJob *job)
{
  params_clear (&job->params);
  pgs_clear_release (&job->renderer);
  g_clear_pointer (&job->pixels, g_bytes_unref);
  g_free (job);
}

static PgsRenderer *
renderer_for_params (const PgsMapParams *params)
{
  PgsRenderer *renderer = pgs_renderer_new (params->snapshot, params->view);

  pgs_renderer_set_style (renderer, params->style);
  pgs_renderer_set_highlight_mode (renderer, params->highlight_mode);
  pgs_renderer_set_process (renderer, params->process);
  pgs_renderer_set_highlight_frames (renderer, params->highlight, params->highlight_name);
  pgs_renderer_set_layout (renderer, params->layout);
  pgs_renderer_set_hide_free (renderer, params->hide_free);
  pgs_renderer_set_viewport (renderer, params->zoom, params->center_x, params->center_y);
  return renderer;
}

static void
render_thread (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  RenderJob *job = task_data;
  int stride = cairo_format_stride_for_width (CAIRO_FORMAT_ARGB32, job->params.width);
  guint8 *pixels;

  pgs_background_lower_current_thread ();
  pixels = g_malloc (stride * (gsize) job->params.height);

  pgs_renderer_render (job->renderer, pixels, job->params.width, job->params.height, stride);
  job->stride = stride;
  job->pixels = g_bytes_new_take (pixels, stride * (gsize) job->params.height);
  g_task_return_boolean (task, TRUE);
}

static void
render_done (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  PgsMapCanvas *self = PGS_MAP_CANVAS (object);
  RenderJob *job = g_task_get_task_data (G_TASK (result));
  g_autoptr(GError) error = NULL;

  if (!g_task_propagate_boolean (G_TASK (result), &error))
    return;   /* only cancelled, when the canvas went away */

  self->job_running = FALSE;
  pgs_set_object_release (&self->renderer, job->renderer);
  g_clear_object (&self->texture);
  /* Done behind another page: the renderer is kept, the pixels are drawn again when the
   * canvas is shown (restore()). */
  if (self->visible)
    self->texture = gdk_memory_texture_new (job->params.width, job->params.height,
                                            GDK_MEMORY_DEFAULT, job->pixels, job->stride);
  params_copy (&self->shown, &job->params);
  g_signal_emit (self, signals[RENDERED], 0);
}

static void
start_job (PgsMapCanvas *self)
{
  g_autoptr(GTask) task = NULL;
  RenderJob *job;

  /* Behind another page nothing is rendered: the map of every refresh would be paid
   * for and never seen. Showing the canvas again catches up. */
  if (self->job_running || self->wanted.snapshot == NULL ||
      self->wanted.width <= 0 || self->wanted.height <= 0 || !self->visible)
    return;
  if (self->wanted.view == PGS_VIEW_RESIDENCY && self->wanted.process == NULL)
    return;
  if (self->wanted.view != PGS_VIEW_RESIDENCY &&
      pgs_snapshot_get_physmap (self->wanted.snapshot) == NULL)
    return;

  job = g_new0 (RenderJob, 1);
  params_copy (&job->params, &self->wanted);
  job->renderer = renderer_for_params (&job->params);

  self->job_running = TRUE;
  task = g_task_new (self, self->cancellable, render_done, NULL);
  g_task_set_source_tag (task, start_job);
  g_task_set_task_data (task, job, (GDestroyNotify) render_job_free);
  g_task_run_in_thread (task, render_thread);
}

static gboolean
start_idle (gpointer data)
{
  PgsMapCanvas *self = data;

  self->start_source = 0;
  start_job (self);
  return G_SOURCE_REMOVE;
}

/* Shown again after pgs_map_canvas_release(): the pixels of the renderer kept are drawn
 * at once, on this thread: the same ones, in the first frame, as if they had never gone
 * (a warm render is a few milliseconds; the renderer is never touched by a worker once it
 * is the canvas's). Then, if something else is wanted, a render as usual. */
static void
restore (PgsMapCanvas *self)
{
  g_autoptr(GBytes) bytes = NULL;
  int width = self->shown.width, height = self->shown.height, stride;
  guint8 *pixels;

  if (self->texture != NULL || self->renderer == NULL || width <= 0 || height <= 0)
    return;
  stride = cairo_format_stride_for_width (CAIRO_FORMAT_ARGB32, width);
  pixels = g_malloc (stride * (gsize) height);
  pgs_renderer_render (self->renderer, pixels, width, height, stride);
  bytes = g_bytes_new_take (pixels, stride * (gsize) height);
  self->texture = gdk_memory_texture_new (width, height, GDK_MEMORY_DEFAULT, bytes, stride);
}

void
pgs_map_canvas_update (PgsMapCanvas *self,
                       gboolean      visible)
{
  g_return_if_fail (PGS_IS_MAP_CANVAS (self));

  self->visible = visible;
  if (visible)
    restore (self);
  if (pgs_map_params_equal (&self->wanted, &self->shown))
    return;
  /* Hidden, a map out of date is not kept: its pixels and its renderer (and through it a
   * whole snapshot) would stay alive for nothing. */
  if (!visible && !self->job_running)
    {
      pgs_clear_release (&self->renderer);
      g_clear_object (&self->texture);
      params_clear (&self->shown);
    }
  /* Not at once: a new snapshot and the selected process in it come in one turn of the
   * main loop, one after the other, and a render started on the first would be done again
   * for the second. Before the next frame all the same. */
  if (self->start_source == 0)
    self->start_source = g_idle_add_full (G_PRIORITY_HIGH_IDLE, start_idle, self, NULL);
}

void
pgs_map_canvas_release (PgsMapCanvas *self)
{
  g_return_if_fail (PGS_IS_MAP_CANVAS (self));

  /* A window-sized texture, and under GL the driver's copy of it (freed with the
   * GdkTexture), for a page nobody sees. The renderer stays: it draws the same pixels
   * again when shown (restore()), and it is what the legend and the exports describe. */
  self->visible = FALSE;
  g_clear_object (&self->texture);
}

static void
pgs_map_canvas_dispose (GObject *object)
{
  PgsMapCanvas *self = (PgsMapCanvas *) object;

  g_clear_handle_id (&self->start_source, g_source_remove);
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  pgs_clear_release (&self->renderer);
  g_clear_object (&self->texture);
  params_clear (&self->wanted);
  params_clear (&self->shown);

  G_OBJECT_CLASS (pgs_map_canvas_parent_class)->dispose (object);
}

static void
pgs_map_canvas_class_init (PgsMapCanvasClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = pgs_map_canvas_dispose;

  /* New pixels, with their renderer, are in. */
  signals[RENDERED] = g_signal_new ("rendered", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                    0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
pgs_map_canvas_init (PgsMapCanvas *self)
{
  self->cancellable = g_cancellable_new ();
  self->wanted.zoom = 1.0;
  self->wanted.center_x = 0.5;
  self->wanted.center_y = 0.5;
  self->wanted.layout = PGS_LAYOUT_LINEAR;
  self->wanted.style = PGS_RENDER_STYLE_LIGHT;
  self->wanted.highlight_mode = PGS_HIGHLIGHT_OUTLINE;
}

PgsMapCanvas *
pgs_map_canvas_new (PgsView view)
{
  PgsMapCanvas *self = g_object_new (PGS_TYPE_MAP_CANVAS, NULL);

  self->wanted.view = view;
  return self;
}

PgsMapParams *
pgs_map_canvas_get_wanted (PgsMapCanvas *self)
{
  g_return_val_if_fail (PGS_IS_MAP_CANVAS (self), NULL);
  return &self->wanted;
}

PgsRenderer *
pgs_map_canvas_get_renderer (PgsMapCanvas *self)
{
  g_return_val_if_fail (PGS_IS_MAP_CANVAS (self), NULL);
  return self->renderer;
}

GdkTexture *
pgs_map_canvas_get_texture (PgsMapCanvas *self)
{
  g_return_val_if_fail (PGS_IS_MAP_CANVAS (self), NULL);
  return self->texture;
}

gboolean
pgs_map_canvas_is_ready (PgsMapCanvas *self)
{
  g_return_val_if_fail (PGS_IS_MAP_CANVAS (self), FALSE);
  return self->renderer != NULL && !self->job_running &&
         pgs_map_params_equal (&self->shown, &self->wanted);
}

typedef struct
{
  PgsRenderer *renderer;
  char        *path;
  int          width;
  int          height;
} PngJob;

static void
png_job_free (PngJob *job)
{
  pgs_clear_release (&job->renderer);
  g_free (job->path);
  g_free (job);
}

static void
png_thread (GTask        *task,
            gpointer      source_object,
            gpointer      task_data,
            GCancellable *cancellable)
{
  PngJob *job = task_data;
  GError *error = NULL;

  pgs_background_lower_current_thread ();
  if (pgs_renderer_write_png (job->renderer, job->path, job->width, job->height, TRUE, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

void
pgs_map_canvas_write_png_async (PgsMapCanvas        *self,
                                gpointer             source_object,
                                const char          *path,
                                int                  width,
                                int                  height,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  PngJob *job;

  g_return_if_fail (PGS_IS_MAP_CANVAS (self));

  task = g_task_new (source_object, NULL, callback, user_data);
  g_task_set_source_tag (task, pgs_map_canvas_write_png_async);
  if (self->renderer == NULL)
    {
      g_task_return_new_error (task, PGS_ERROR, PGS_ERROR_FAILED, "%s",
                               _("There is no map to export yet"));
      return;
    }

  /* A renderer of its own, set up like the one on screen: the thread shares nothing. */
  job = g_new0 (PngJob, 1);
  job->renderer = renderer_for_params (&self->shown);
  /* With free memory hidden as on screen: the PNG marks each fold and its legend says how
   * much is hidden. */
  /* Laid out as on screen (the same Hilbert tiles, the same rows), more pixels a cell: as
   * for the view's size, which the export's size is a multiple of. */
  pgs_renderer_set_fit_size (job->renderer,
                             self->wanted.width > 0 ? self->wanted.width : self->shown.width,
                             self->wanted.height > 0 ? self->wanted.height : self->shown.height);
  job->path = g_strdup (path);
  job->width = width;
  job->height = height;
  g_task_set_task_data (task, job, (GDestroyNotify) png_job_free);
  g_task_run_in_thread (task, png_thread);
}

void
pgs_map_canvas_fill_shown (PgsMapCanvas *self,
                           GtkWidget    *widget,
                           PgsMapShown  *shown)
{
  g_return_if_fail (PGS_IS_MAP_CANVAS (self));

  shown->renderer = self->renderer;
  shown->width = self->shown.width;
  shown->height = self->shown.height;
  shown->scale = gtk_widget_get_scale_factor (widget);
  shown->area_width = MAX (1, gtk_widget_get_width (widget));
  shown->area_height = MAX (1, gtk_widget_get_height (widget));
  shown->zoom = self->shown.zoom;
  shown->center_x = self->shown.center_x;
  shown->center_y = self->shown.center_y;
  shown->ready = pgs_map_canvas_is_ready (self);
  shown->focused = gtk_widget_has_focus (widget);
  shown->pango = gtk_widget_get_pango_context (widget);
}
