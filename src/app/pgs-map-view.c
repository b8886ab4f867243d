/* pgs-map-view.c
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The pixels come from the library's renderer (the same ones the CLI writes to PNG), filled
 * in a worker thread and shown as a GdkMemoryTexture at device pixel size, so the map is
 * never scaled by the toolkit. Text, the legend and the hover outline are drawn fresh in
 * snapshot() on top; they cost nothing to redraw and follow the theme.
 *
 * Each render is a job with its own renderer, configured on the main thread from the
 * parameters wanted at the time and then handed to the worker: no renderer is ever shared
 * between threads. When the job is done its renderer becomes the view's current one, so
 * hit tests, the legend and exports always describe the pixels on screen. At most one job
 * runs; parameters that change meanwhile (a drag, a resize) are rendered next, skipping
 * the states in between.
 */

#include "config.h"

#include <math.h>

#include <glib/gi18n.h>

#include "pgs-background.h"
#include "pgs-release.h"
#include "pgs-map-view-private.h"

enum {
  PAGE_ACTIVATED,
  READY,
  STATUS_CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (PgsMapView, pgs_map_view, GTK_TYPE_WIDGET)

void
pgs_map_view_activate_page (PgsMapView *self,
                            PgsHit     *hit)
{
  g_signal_emit (self, signals[PAGE_ACTIVATED], 0, hit);
}

static void
params_clear (Params *params)
{
  pgs_clear_release (&params->snapshot);
  pgs_clear_release (&params->process);
  g_clear_pointer (&params->highlight, g_bytes_unref);
  g_clear_pointer (&params->highlight_name, g_free);
}

static void
params_copy (Params       *dest,
             const Params *src)
{
  if (dest == src)
    return;
  pgs_set_object_release (&dest->snapshot, src->snapshot);
  pgs_set_object_release (&dest->process, src->process);
  if (dest->highlight != src->highlight)
    {
      g_clear_pointer (&dest->highlight, g_bytes_unref);
      dest->highlight = src->highlight ? g_bytes_ref (src->highlight) : NULL;
      g_free (dest->highlight_name);
      dest->highlight_name = g_strdup (src->highlight_name);
    }
  dest->view = src->view;
  dest->layout = src->layout;
  dest->hide_free = src->hide_free;
  dest->zoom = src->zoom;
  dest->center_x = src->center_x;
  dest->center_y = src->center_y;
  dest->width = src->width;
  dest->height = src->height;
  dest->style = src->style;
  dest->highlight_mode = src->highlight_mode;
}

gboolean
pgs_map_view_params_equal (const Params *a,
                           const Params *b)
{
  if (a->hide_free != b->hide_free)
    return FALSE;
  return a->snapshot == b->snapshot && a->process == b->process && a->view == b->view &&
         a->highlight == b->highlight &&
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
renderer_for_params (const Params *params)
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

static void start_job (PgsMapView *self);

static void
render_done (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  PgsMapView *self = PGS_MAP_VIEW (object);
  RenderJob *job = g_task_get_task_data (G_TASK (result));
  g_autoptr(GError) error = NULL;

  if (!g_task_propagate_boolean (G_TASK (result), &error))
    return;   /* only cancelled, when the widget went away */

  self->job_running = FALSE;
  /* The renderer clamps the centre so the map stays in view; adopt its values so that a
   * drag past the edge does not pile up distance that must be dragged back first. */
  if (pgs_map_view_params_equal (&job->params, &self->wanted))
    {
      double zoom;

      pgs_renderer_get_viewport (job->renderer, &zoom,
                                 &job->params.center_x, &job->params.center_y);
      self->wanted.center_x = job->params.center_x;
      self->wanted.center_y = job->params.center_y;
    }
  pgs_set_object_release (&self->renderer, job->renderer);
  g_clear_object (&self->texture);
  g_clear_pointer (&self->wss_node, gsk_render_node_unref);
  self->texture = gdk_memory_texture_new (job->params.width, job->params.height,
                                          GDK_MEMORY_DEFAULT, job->pixels, job->stride);
  params_copy (&self->shown, &job->params);
  pgs_map_view_update_legend_size (self);
  /* Before ::ready, so that whoever waits for it finds the focus cell in place. */
  pgs_map_view_focus_after_render (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));

  if (!pgs_map_view_params_equal (&self->shown, &self->wanted))
    pgs_map_view_invalidate (self);   /* renders again, or, hidden, lets this one go */
  else
    g_signal_emit (self, signals[READY], 0);

}

static void
start_job (PgsMapView *self)
{
  g_autoptr(GTask) task = NULL;
  RenderJob *job;

  /* Behind another page nothing is rendered: the map of every refresh would be paid
   * for and never seen. Mapping catches up (pgs_map_view_map). */
  if (self->job_running || self->wanted.snapshot == NULL ||
      self->wanted.width <= 0 || self->wanted.height <= 0 ||
      !gtk_widget_get_mapped (GTK_WIDGET (self)))
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

static void
graphene_map_area (PgsMapView      *self,
                   int              width,
                   int              height,
                   graphene_rect_t *area)
{
  int legend = self->legend_width > 0 ? self->legend_width + LEGEND_GAP : 0;

  graphene_rect_init (area, 0, 0, MAX (1, width - legend), MAX (1, height));
}

void
pgs_map_view_get_map_area (PgsMapView      *self,
                           graphene_rect_t *area)
{
  g_return_if_fail (PGS_IS_MAP_VIEW (self));
  graphene_map_area (self, gtk_widget_get_width (GTK_WIDGET (self)),
                     gtk_widget_get_height (GTK_WIDGET (self)), area);
}

void
pgs_map_view_update_wanted_size (PgsMapView *self)
{
  graphene_rect_t area;
  int scale = gtk_widget_get_scale_factor (GTK_WIDGET (self));

  pgs_map_view_get_map_area (self, &area);
  self->wanted.width = (int) area.size.width * scale;
  self->wanted.height = (int) area.size.height * scale;
}

void
pgs_map_view_invalidate (PgsMapView *self)
{
  pgs_map_view_update_wanted_size (self);
  if (!pgs_map_view_params_equal (&self->wanted, &self->shown))
    {
      /* Hidden, a map out of date is not kept: its pixels and its renderer (and through it
       * a whole snapshot) would stay alive for nothing. */
      if (!gtk_widget_get_mapped (GTK_WIDGET (self)) && !self->job_running)
        {
          pgs_clear_release (&self->renderer);
          g_clear_object (&self->texture);
          params_clear (&self->shown);
        }
      start_job (self);
    }
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
pgs_map_view_map (GtkWidget *widget)
{
  GTK_WIDGET_CLASS (pgs_map_view_parent_class)->map (widget);
  pgs_map_view_invalidate (PGS_MAP_VIEW (widget));
}

/* Residency: each mapping's band gets its label at its left edge, where it fits. */
static void
snapshot_bands (PgsMapView      *self,
                GtkSnapshot     *snapshot,
                graphene_rect_t *area)
{
  int scale = gtk_widget_get_scale_factor (GTK_WIDGET (self));
  GdkRGBA bg = { 0, 0, 0, 0.55f }, fg = { 1, 1, 1, 1 };
  guint n;
  double last_bottom = -1;

  if (self->renderer == NULL || self->shown.view != PGS_VIEW_RESIDENCY)
    return;

  if (self->band_line_height == 0)
    {
      g_autoptr(PangoLayout) probe = pgs_map_view_legend_layout (self, "Xg", TRUE);

      pango_layout_get_pixel_size (probe, NULL, &self->band_line_height);
    }

  n = pgs_renderer_get_n_bands (self->renderer);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(PangoLayout) layout = NULL;
      const char *label = NULL;
      double y, h;
      int lw, lh;

      if (!pgs_renderer_get_band (self->renderer, self->shown.width, self->shown.height, i,
                                  &y, &h, &label) || label == NULL)
        continue;
      y /= scale;
      h /= scale;
      /* Decided before laying any text out: a process has hundreds of thin bands. */
      if (h < self->band_line_height + 2 || y < last_bottom)
        continue;
      layout = pgs_map_view_legend_layout (self, label, TRUE);
      pango_layout_set_width (layout, (int) (area->size.width * 0.6) * PANGO_SCALE);
      pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_START);
      pango_layout_get_pixel_size (layout, &lw, &lh);
      /* A band too thin for its label, or one that would overlap the previous label,
       * goes unlabelled: the tooltip still names it. */
      if (h < lh + 2 || y < last_bottom)
        continue;
      gtk_snapshot_append_color (snapshot, &bg, &GRAPHENE_RECT_INIT (2, y + 1, lw + 6, lh + 2));
      gtk_snapshot_save (snapshot);
      gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (5, y + 2));
      gtk_snapshot_append_layout (snapshot, layout, &fg);
      gtk_snapshot_restore (snapshot);
      last_bottom = y + lh + 3;
    }
}

static void
snapshot_zoom_badge (PgsMapView      *self,
                     GtkSnapshot     *snapshot,
                     graphene_rect_t *area)
{
  g_autofree char *text = NULL;
  g_autoptr(PangoLayout) layout = NULL;
  GdkRGBA bg = { 0, 0, 0, 0.6f }, fg = { 1, 1, 1, 1 };
  int w, h;

  if (self->shown.zoom <= 1.0)
    return;
  /* Translators: the map's zoom level, "400 %" */
  text = g_strdup_printf (_("%.0f %%"), self->shown.zoom * 100);
  layout = pgs_map_view_legend_layout (self, text, TRUE);
  pango_layout_get_pixel_size (layout, &w, &h);
  gtk_snapshot_append_color (snapshot, &bg,
                             &GRAPHENE_RECT_INIT (area->size.width - w - 12, 6, w + 8, h + 4));
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (area->size.width - w - 8, 8));
  gtk_snapshot_append_layout (snapshot, layout, &fg);
  gtk_snapshot_restore (snapshot);
}

/* The renderer knows pixels to pages, not the other way: the marks come from the same
 * hit test as hover and tooltips, once per overlay cell. A cell is marked when the page
 * that decided its colour was accessed. */
static void
snapshot_wss (PgsMapView            *self,
              GtkSnapshot           *snapshot,
              const graphene_rect_t *area)
{
  const double cell = 3;

  if (self->wss_sample == NULL || self->renderer == NULL ||
      self->wanted.view != PGS_VIEW_RESIDENCY ||
      !(pgs_wss_sample_get_page_sources (self->wss_sample) & PGS_WSS_PAGES_IDLE))
    return;

  if (self->wss_node == NULL)
    {
      g_autoptr(GtkSnapshot) marks = gtk_snapshot_new ();
      cairo_t *cr = gtk_snapshot_append_cairo (marks, area);

      cairo_set_source_rgba (cr, 1, 1, 1, 0.85);
      for (double y = area->origin.y; y < area->origin.y + area->size.height; y += cell)
        for (double x = area->origin.x; x < area->origin.x + area->size.width; x += cell)
          {
            PgsHit hit;

            if (!pgs_map_view_hit_test (self, x + cell / 2, y + cell / 2, &hit) || !hit.valid ||
                hit.is_frame)
              continue;
            if (pgs_wss_sample_lookup_page (self->wss_sample, hit.address) &
                PGS_WSS_PAGE_ACCESSED)
              cairo_rectangle (cr, x + cell / 2 - 0.75, y + cell / 2 - 0.75, 1.5, 1.5);
          }
      cairo_fill (cr);
      cairo_destroy (cr);
      self->wss_node = gtk_snapshot_free_to_node (g_steal_pointer (&marks));
    }
  if (self->wss_node != NULL)
    gtk_snapshot_append_node (snapshot, self->wss_node);
}

static void
pgs_map_view_snapshot (GtkWidget   *widget,
                       GtkSnapshot *snapshot)
{
  PgsMapView *self = PGS_MAP_VIEW (widget);
  graphene_rect_t area;

  pgs_map_view_get_map_area (self, &area);

  if (self->texture != NULL)
    {
      int scale = gtk_widget_get_scale_factor (widget);
      float tw = gdk_texture_get_width (self->texture) / (float) scale;
      float th = gdk_texture_get_height (self->texture) / (float) scale;

      /* During a resize the old pixels stand in, at their own size, until the new ones
       * arrive: stretching them would blur the cells. */
      gtk_snapshot_push_clip (snapshot, &area);
      gtk_snapshot_append_texture (snapshot, self->texture, &GRAPHENE_RECT_INIT (0, 0, tw, th));
      snapshot_wss (self, snapshot, &area);
      snapshot_bands (self, snapshot, &area);
      pgs_map_view_snapshot_folds (self, snapshot);
      pgs_map_view_snapshot_hover (self, snapshot);
      pgs_map_view_snapshot_focus (self, snapshot);
      gtk_snapshot_pop (snapshot);
      snapshot_zoom_badge (self, snapshot, &area);
    }

  if (self->legend_width > 0)
    pgs_map_view_snapshot_legend (self, snapshot, area.size.width + LEGEND_GAP);
}

static void
pgs_map_view_measure (GtkWidget      *widget,
                      GtkOrientation  orientation,
                      int             for_size,
                      int            *minimum,
                      int            *natural,
                      int            *minimum_baseline,
                      int            *natural_baseline)
{
  PgsMapView *self = PGS_MAP_VIEW (widget);

  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      int legend = self->legend_width > 0 ? self->legend_width + LEGEND_GAP : 0;

      *minimum = legend + 64;
      *natural = legend + 640;
    }
  else
    {
      *minimum = MAX (64, self->legend_height);
      *natural = MAX (480, self->legend_height);
    }
}

static void
pgs_map_view_size_allocate (GtkWidget *widget,
                            int        width,
                            int        height,
                            int        baseline)
{
  pgs_map_view_invalidate (PGS_MAP_VIEW (widget));
}

/* A theme switch (dark, high contrast) renders the map again in the new style. */
static void
pgs_map_view_css_changed (GtkWidget         *widget,
                          GtkCssStyleChange *change)
{
  GTK_WIDGET_CLASS (pgs_map_view_parent_class)->css_changed (widget, change);
  pgs_map_view_update_style (PGS_MAP_VIEW (widget));
}

static void
on_scale_factor_changed (GObject    *object,
                         GParamSpec *pspec,
                         gpointer    user_data)
{
  pgs_map_view_invalidate (PGS_MAP_VIEW (object));
}

static void
pgs_map_view_dispose (GObject *object)
{
  PgsMapView *self = (PgsMapView *) object;

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  pgs_clear_release (&self->renderer);
  g_clear_object (&self->texture);
  g_clear_pointer (&self->wss_node, gsk_render_node_unref);
  g_clear_pointer (&self->wss_sample, pgs_wss_sample_unref);
  g_clear_pointer (&self->legend, pgs_map_view_legend_rows_free);
  g_clear_object (&self->legend_rule);
  g_clear_pointer (&self->status, g_free);
  params_clear (&self->wanted);
  params_clear (&self->shown);

  G_OBJECT_CLASS (pgs_map_view_parent_class)->dispose (object);
}

static void install_properties (GObjectClass *object_class);

static void
pgs_map_view_class_init (PgsMapViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = pgs_map_view_dispose;
  install_properties (object_class);

  widget_class->map = pgs_map_view_map;
  widget_class->snapshot = pgs_map_view_snapshot;
  widget_class->measure = pgs_map_view_measure;
  widget_class->size_allocate = pgs_map_view_size_allocate;
  widget_class->css_changed = pgs_map_view_css_changed;

  /**
   * PgsMapView::page-activated:
   * @hit: (type gpointer): the PgsHit under the click
   */
  signals[PAGE_ACTIVATED] = g_signal_new ("page-activated", G_TYPE_FROM_CLASS (klass),
                                          G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                          G_TYPE_NONE, 1, G_TYPE_POINTER);
  /* The pixels on screen caught up with what was asked for. */
  signals[READY] = g_signal_new ("ready", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                 0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  /* pgs_map_view_get_status() says something else. */
  signals[STATUS_CHANGED] = g_signal_new ("status-changed", G_TYPE_FROM_CLASS (klass),
                                          G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                          G_TYPE_NONE, 0);

  pgs_map_view_viewport_class_init (widget_class);
  pgs_map_view_focus_class_init (widget_class);

  gtk_widget_class_set_css_name (widget_class, "mapview");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
pgs_map_view_init (PgsMapView *self)
{
  self->cancellable = g_cancellable_new ();
  self->wanted.zoom = 1.0;
  self->wanted.center_x = 0.5;
  self->wanted.center_y = 0.5;
  self->wanted.layout = PGS_LAYOUT_LINEAR;
  self->wanted.style = PGS_RENDER_STYLE_LIGHT;
  self->wanted.highlight_mode = PGS_HIGHLIGHT_OUTLINE;

  /* Device pixels change with the scale factor even when the size does not. */
  g_signal_connect (self, "notify::scale-factor", G_CALLBACK (on_scale_factor_changed), NULL);

  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  gtk_widget_set_overflow (GTK_WIDGET (self), GTK_OVERFLOW_HIDDEN);
  pgs_map_view_focus_init (self);
  pgs_map_view_hover_init (self);
  pgs_map_view_viewport_init (self);
  pgs_map_view_style_init (self);
}

GtkWidget *
pgs_map_view_new (PgsView view)
{
  PgsMapView *self = g_object_new (PGS_TYPE_MAP_VIEW, NULL);
  static const char *const labels[] = {
    [PGS_VIEW_RESIDENCY] = N_("Residency map: the pages of the selected process"),
    [PGS_VIEW_SHARING] = N_("Sharing heatmap: every page frame by how many map it"),
    [PGS_VIEW_FLAGS] = N_("Page-flag map: every page frame by what the kernel uses it for"),
  };

  self->wanted.view = view;
  if (view < G_N_ELEMENTS (labels))
    gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                    _(labels[view]), -1);
  return GTK_WIDGET (self);
}

PgsView
pgs_map_view_get_view (PgsMapView *self)
{
  g_return_val_if_fail (PGS_IS_MAP_VIEW (self), PGS_VIEW_RESIDENCY);
  return self->wanted.view;
}

void
pgs_map_view_set_snapshot (PgsMapView  *self,
                           PgsSnapshot *snapshot)
{
  g_return_if_fail (PGS_IS_MAP_VIEW (self));

  if (pgs_set_object_release (&self->wanted.snapshot, snapshot))
    pgs_map_view_invalidate (self);
}

void
pgs_map_view_set_process (PgsMapView *self,
                          PgsProcess *process)
{
  g_return_if_fail (PGS_IS_MAP_VIEW (self));

  /* A new subject starts unzoomed; a rescan of the same PID and physical maps keep it. */
  if (self->wanted.view == PGS_VIEW_RESIDENCY && !pgs_same_pid (self->wanted.process, process))
    {
      self->wanted.zoom = 1.0;
      self->wanted.center_x = self->wanted.center_y = 0.5;
    }
  if (!pgs_set_object_release (&self->wanted.process, process))
    return;
  pgs_map_view_invalidate (self);
}

void
pgs_map_view_set_highlight_frames (PgsMapView *self,
                                   GBytes     *pfns,
                                   const char *name)
{
  g_return_if_fail (PGS_IS_MAP_VIEW (self));
  g_return_if_fail (pfns == NULL || name != NULL);

  if (self->wanted.highlight == pfns)
    return;
  g_clear_pointer (&self->wanted.highlight, g_bytes_unref);
  self->wanted.highlight = pfns ? g_bytes_ref (pfns) : NULL;
  g_free (self->wanted.highlight_name);
  self->wanted.highlight_name = g_strdup (name);
  pgs_map_view_invalidate (self);
}

void
pgs_map_view_set_layout (PgsMapView *self,
                         PgsLayout   layout)
{
  g_return_if_fail (PGS_IS_MAP_VIEW (self));

  if (self->wanted.layout == layout)
    return;
  self->wanted.layout = layout;
  pgs_map_view_invalidate (self);
}

void
pgs_map_view_set_highlight_mode (PgsMapView       *self,
                                 PgsHighlightMode  mode)
{
  g_return_if_fail (PGS_IS_MAP_VIEW (self));

  if (self->wanted.highlight_mode == mode)
    return;
  self->wanted.highlight_mode = mode;
  pgs_map_view_invalidate (self);
}

PgsRenderStyle
pgs_map_view_get_style (PgsMapView *self)
{
  g_return_val_if_fail (PGS_IS_MAP_VIEW (self), PGS_RENDER_STYLE_LIGHT);
  return self->wanted.style;
}

GdkTexture *
pgs_map_view_get_texture (PgsMapView *self)
{
  g_return_val_if_fail (PGS_IS_MAP_VIEW (self), NULL);
  return self->texture;
}

void
pgs_map_view_set_units (PgsMapView *self,
                        PgsUnits    units)
{
  g_return_if_fail (PGS_IS_MAP_VIEW (self));

  if (self->units == units)
    return;
  self->units = units;
  pgs_map_view_update_legend_size (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

PgsRenderer *
pgs_map_view_get_renderer (PgsMapView *self)
{
  g_return_val_if_fail (PGS_IS_MAP_VIEW (self), NULL);
  return self->renderer;
}

gboolean
pgs_map_view_is_ready (PgsMapView *self)
{
  g_return_val_if_fail (PGS_IS_MAP_VIEW (self), FALSE);
  return self->renderer != NULL && !self->job_running &&
         pgs_map_view_params_equal (&self->shown, &self->wanted);
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
pgs_map_view_write_png_async (PgsMapView          *self,
                              const char          *path,
                              int                  width,
                              int                  height,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  PngJob *job;

  g_return_if_fail (PGS_IS_MAP_VIEW (self));
  g_return_if_fail (path != NULL);

  task = g_task_new (self, NULL, callback, user_data);
  g_task_set_source_tag (task, pgs_map_view_write_png_async);
  if (self->renderer == NULL)
    {
      g_task_return_new_error (task, PGS_ERROR, PGS_ERROR_FAILED, "%s",
                               _("There is no map to export yet"));
      return;
    }

  /* A renderer of its own, set up like the one on screen: the thread shares nothing. */
  job = g_new0 (PngJob, 1);
  job->renderer = renderer_for_params (&self->shown);
  /* The PNG's legend is the library's, which knows no fold markers: a file is never shown
   * without its free memory, where nothing in it would say so. */
  pgs_renderer_set_hide_free (job->renderer, FALSE);
  job->path = g_strdup (path);
  job->width = width;
  job->height = height;
  g_task_set_task_data (task, job, (GDestroyNotify) png_job_free);
  g_task_run_in_thread (task, png_thread);
}

gboolean
pgs_map_view_write_png_finish (PgsMapView    *self,
                               GAsyncResult  *result,
                               GError       **error)
{
  g_return_val_if_fail (PGS_IS_MAP_VIEW (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

void
pgs_map_view_set_wss_sample (PgsMapView   *self,
                             PgsWssSample *sample)
{
  g_return_if_fail (PGS_IS_MAP_VIEW (self));

  if (sample == self->wss_sample)
    return;
  if (sample != NULL)
    pgs_wss_sample_ref (sample);
  g_clear_pointer (&self->wss_sample, pgs_wss_sample_unref);
  self->wss_sample = sample;
  g_clear_pointer (&self->wss_node, gsk_render_node_unref);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

PgsWssSample *
pgs_map_view_get_wss_sample (PgsMapView *self)
{
  g_return_val_if_fail (PGS_IS_MAP_VIEW (self), NULL);
  return self->wss_sample;
}

/* Properties: the process, which the page binds */

enum {
  PROP_0,
  PROP_PROCESS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
get_property (GObject    *object,
              guint       prop_id,
              GValue     *value,
              GParamSpec *pspec)
{
  PgsMapView *self = PGS_MAP_VIEW (object);

  switch (prop_id)
    {
    case PROP_PROCESS:
      g_value_set_object (value, self->wanted.process);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
set_property (GObject      *object,
              guint         prop_id,
              const GValue *value,
              GParamSpec   *pspec)
{
  PgsMapView *self = PGS_MAP_VIEW (object);
  PgsProcess *process = g_value_get_object (value);

  switch (prop_id)
    {
    case PROP_PROCESS:
      if (self->wanted.process == process)
        return;
      pgs_map_view_set_process (self, process);
      g_object_notify_by_pspec (object, pspec);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
install_properties (GObjectClass *object_class)
{
  object_class->get_property = get_property;
  object_class->set_property = set_property;
  properties[PROP_PROCESS] =
    g_param_spec_object ("process", NULL, NULL, PGS_TYPE_PROCESS,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}
