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
#include "pgs-kpage.h"
#include "pgs-map-view.h"
#include "pgs-pagemap.h"

#define LEGEND_GAP       12
#define LEGEND_SWATCH    12
#define LEGEND_ROW_GAP    4
#define LEGEND_MAX_WIDTH 340
#define ZOOM_STEP        1.25

typedef struct
{
  PgsSnapshot *snapshot;
  PgsProcess  *process;
  PgsView      view;
  PgsLayout    layout;
  double       zoom;
  double       center_x;
  double       center_y;
  int          width;     /* device pixels */
  int          height;
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

  /* drag */
  double        drag_center_x;
  double        drag_center_y;
  double        drag_scale_x;
  double        drag_scale_y;
  gboolean      dragged;
};

enum {
  PAGE_ACTIVATED,
  READY,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (PgsMapView, pgs_map_view, GTK_TYPE_WIDGET)

static void
params_clear (Params *params)
{
  pgs_clear_release (&params->snapshot);
  pgs_clear_release (&params->process);
}

static void
params_copy (Params       *dest,
             const Params *src)
{
  if (dest == src)
    return;
  pgs_set_object_release (&dest->snapshot, src->snapshot);
  pgs_set_object_release (&dest->process, src->process);
  dest->view = src->view;
  dest->layout = src->layout;
  dest->zoom = src->zoom;
  dest->center_x = src->center_x;
  dest->center_y = src->center_y;
  dest->width = src->width;
  dest->height = src->height;
}

static gboolean
params_equal (const Params *a,
              const Params *b)
{
  return a->snapshot == b->snapshot && a->process == b->process && a->view == b->view &&
         a->layout == b->layout && a->zoom == b->zoom && a->center_x == b->center_x &&
         a->center_y == b->center_y && a->width == b->width && a->height == b->height;
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

  pgs_renderer_set_process (renderer, params->process);
  pgs_renderer_set_layout (renderer, params->layout);
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
update_legend_size (PgsMapView *self);

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
  if (params_equal (&job->params, &self->wanted))
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
  update_legend_size (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));

  if (!params_equal (&self->shown, &self->wanted))
    start_job (self);
  else
    g_signal_emit (self, signals[READY], 0);

}

static void
start_job (PgsMapView *self)
{
  g_autoptr(GTask) task = NULL;
  RenderJob *job;

  if (self->job_running || self->wanted.snapshot == NULL ||
      self->wanted.width <= 0 || self->wanted.height <= 0)
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

static void
update_wanted_size (PgsMapView *self)
{
  graphene_rect_t area;
  int scale = gtk_widget_get_scale_factor (GTK_WIDGET (self));

  pgs_map_view_get_map_area (self, &area);
  self->wanted.width = (int) area.size.width * scale;
  self->wanted.height = (int) area.size.height * scale;
}

static void
invalidate (PgsMapView *self)
{
  update_wanted_size (self);
  if (!params_equal (&self->wanted, &self->shown))
    start_job (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* Legend */

static PangoLayout *
legend_layout (PgsMapView *self,
               const char *text,
               gboolean    small)
{
  PangoLayout *layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), text);

  if (small)
    {
      PangoAttrList *attrs = pango_attr_list_new ();

      pango_attr_list_insert (attrs, pango_attr_scale_new (0.85));
      pango_layout_set_attributes (layout, attrs);
      pango_attr_list_unref (attrs);
    }
  return layout;
}

static char *
legend_count_text (PgsMapView *self,
                   guint64     n_pages)
{
  guint page_size = self->shown.snapshot ? pgs_snapshot_get_page_size (self->shown.snapshot) : 4096;
  g_autofree char *size = pgs_units_format (self->units, n_pages * page_size);
  g_autofree char *count = pgs_units_format_count (n_pages);

  /* Translators: a legend entry's count: "12,345 · 48.2 MiB" (pages and their size) */
  return g_strdup_printf (_("%s · %s"), count, size);
}

typedef struct
{
  PangoLayout *label;
  PangoLayout *count;
  guint32      argb;
  guint64      n_pages;
  int          height;
} LegendRow;

/* Lays the legend out: label on the left, count on the right, wrapped and never clipped.
 * Returns the rows; @width and @height receive its size. */
static GArray *
legend_rows (PgsMapView *self,
             int        *width,
             int        *height)
{
  GArray *rows = g_array_new (FALSE, TRUE, sizeof (LegendRow));
  guint n = self->renderer ? pgs_renderer_get_n_legend_items (self->renderer) : 0;
  int label_width = 0, count_width = 0, total = 0;

  for (guint i = 0; i < n; i++)
    {
      LegendRow row = { 0 };
      const char *label = NULL;
      guint64 n_pages = 0;
      g_autofree char *count = NULL;
      int w, h;

      pgs_renderer_get_legend_item (self->renderer, i, &row.argb, &label, &n_pages);
      row.n_pages = n_pages;
      row.label = legend_layout (self, label ? label : "", FALSE);   /* translated already */
      count = legend_count_text (self, n_pages);
      row.count = legend_layout (self, count, TRUE);
      pango_layout_get_pixel_size (row.label, &w, &h);
      label_width = MAX (label_width, w);
      pango_layout_get_pixel_size (row.count, &w, &h);
      count_width = MAX (count_width, w);
      g_array_append_val (rows, row);
    }

  /* Labels wrap when the legend would take too much room from the map. */
  if (LEGEND_SWATCH + 6 + label_width + 12 + count_width > LEGEND_MAX_WIDTH)
    label_width = MAX (80, LEGEND_MAX_WIDTH - (LEGEND_SWATCH + 6 + 12 + count_width));

  for (guint i = 0; i < rows->len; i++)
    {
      LegendRow *row = &g_array_index (rows, LegendRow, i);
      int lh, ch;

      pango_layout_set_width (row->label, label_width * PANGO_SCALE);
      pango_layout_set_wrap (row->label, PANGO_WRAP_WORD_CHAR);
      pango_layout_get_pixel_size (row->label, NULL, &lh);
      pango_layout_get_pixel_size (row->count, NULL, &ch);
      row->height = MAX (MAX (lh, ch), LEGEND_SWATCH);
      total += row->height + LEGEND_ROW_GAP;
    }

  *width = rows->len ? LEGEND_SWATCH + 6 + label_width + 12 + count_width : 0;
  *height = total;
  return rows;
}

static void
legend_rows_free (GArray *rows)
{
  for (guint i = 0; i < rows->len; i++)
    {
      LegendRow *row = &g_array_index (rows, LegendRow, i);

      g_clear_object (&row->label);
      g_clear_object (&row->count);
    }
  g_array_unref (rows);
}

static PangoLayout *
rule_layout (PgsMapView *self,
             int         width)
{
  const char *rule = self->renderer ? pgs_renderer_get_aggregation_rule (self->renderer) : NULL;
  PangoLayout *layout;

  if (rule == NULL || *rule == '\0' || width <= 0)
    return NULL;
  layout = legend_layout (self, rule, TRUE);   /* translated already */
  pango_layout_set_width (layout, width * PANGO_SCALE);
  pango_layout_set_wrap (layout, PANGO_WRAP_WORD_CHAR);
  return layout;
}

static void
update_legend_size (PgsMapView *self)
{
  int width, height, old_width = self->legend_width, old_height = self->legend_height;

  g_clear_pointer (&self->legend, legend_rows_free);
  g_clear_object (&self->legend_rule);

  self->legend = legend_rows (self, &width, &height);
  self->legend_rule = rule_layout (self, width);
  if (self->legend_rule != NULL)
    {
      int rh;

      pango_layout_get_pixel_size (self->legend_rule, NULL, &rh);
      height += LEGEND_GAP + rh;
    }
  self->legend_width = width;
  self->legend_height = height;
  if (old_width != width || old_height != height)
    {
      gtk_widget_queue_resize (GTK_WIDGET (self));
      /* The map area changed: the next render is at the new size. */
      update_wanted_size (self);
    }
}

static void
get_fg_color (PgsMapView *self,
              GdkRGBA    *color)
{
  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  gtk_style_context_get_color (gtk_widget_get_style_context (GTK_WIDGET (self)), color);
  G_GNUC_END_IGNORE_DEPRECATIONS
}

static void
snapshot_legend (PgsMapView  *self,
                 GtkSnapshot *snapshot,
                 float        x)
{
  GArray *rows = self->legend;
  GdkRGBA fg, dim, faint, border;
  int width = self->legend_width;
  float y = 0;

  get_fg_color (self, &fg);
  dim = fg;
  dim.alpha *= 0.7f;
  faint = fg;
  faint.alpha *= 0.4f;
  border = fg;
  border.alpha *= 0.35f;

  if (rows == NULL)
    return;
  for (guint i = 0; i < rows->len; i++)
    {
      LegendRow *row = &g_array_index (rows, LegendRow, i);
      GdkRGBA swatch = {
        ((row->argb >> 16) & 0xff) / 255.f,
        ((row->argb >> 8) & 0xff) / 255.f,
        (row->argb & 0xff) / 255.f,
        1.f,
      };
      graphene_rect_t sr = GRAPHENE_RECT_INIT (x, y + 3, LEGEND_SWATCH, LEGEND_SWATCH);
      GskRoundedRect outline;
      float widths[4] = { 1, 1, 1, 1 };
      GdkRGBA colors[4] = { border, border, border, border };
      int cw;

      gtk_snapshot_append_color (snapshot, &swatch, &sr);
      gsk_rounded_rect_init_from_rect (&outline, &sr, 0);
      gtk_snapshot_append_border (snapshot, &outline, widths, colors);

      /* Colours with no page in this map recede, so the ones in use stand out. */
      gtk_snapshot_save (snapshot);
      gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (x + LEGEND_SWATCH + 6, y));
      gtk_snapshot_append_layout (snapshot, row->label, row->n_pages > 0 ? &fg : &faint);
      gtk_snapshot_restore (snapshot);

      pango_layout_get_pixel_size (row->count, &cw, NULL);
      gtk_snapshot_save (snapshot);
      gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (x + width - cw, y + 1));
      gtk_snapshot_append_layout (snapshot, row->count, row->n_pages > 0 ? &dim : &faint);
      gtk_snapshot_restore (snapshot);

      y += row->height + LEGEND_ROW_GAP;
    }

  if (self->legend_rule != NULL)
    {
      gtk_snapshot_save (snapshot);
      gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (x, y + LEGEND_GAP - LEGEND_ROW_GAP));
      gtk_snapshot_append_layout (snapshot, self->legend_rule, &dim);
      gtk_snapshot_restore (snapshot);
    }
}

/* Hover */

static gboolean
same_cell (const PgsHit *a,
           const PgsHit *b)
{
  if (a->valid != b->valid)
    return FALSE;
  if (!a->valid)
    return TRUE;
  return a->is_frame ? a->pfn == b->pfn : a->address == b->address;
}

/* How far the cell under (x, y) reaches in one direction, found by asking the hit test,
 * so the outline matches whatever geometry the renderer uses. Bounded: a cell wider than
 * the limit is outlined at the limit. */
static double
cell_reach (PgsMapView   *self,
            const PgsHit *hit,
            double        x,
            double        y,
            double        dx,
            double        dy,
            double        step)
{
  graphene_rect_t area;
  double reach = 0;

  pgs_map_view_get_map_area (self, &area);
  for (int i = 1; i <= 256; i++)
    {
      double px = x + dx * step * i, py = y + dy * step * i;
      PgsHit other;

      if (px < 0 || py < 0 || px >= area.size.width || py >= area.size.height)
        break;
      if (!pgs_map_view_hit_test (self, px, py, &other) || !same_cell (hit, &other))
        break;
      reach = step * i;
    }
  return reach;
}

static void
snapshot_hover (PgsMapView  *self,
                GtkSnapshot *snapshot)
{
  PgsHit hit;
  double step = 1.0 / gtk_widget_get_scale_factor (GTK_WIDGET (self));
  double x0, x1, y0, y1;
  graphene_rect_t rect;
  GskRoundedRect outline;
  float inner[4] = { 1.5f, 1.5f, 1.5f, 1.5f };
  float outer[4] = { 1, 1, 1, 1 };
  GdkRGBA white = { 1, 1, 1, 1 }, black = { 0, 0, 0, 0.8f };
  GdkRGBA inner_colors[4] = { white, white, white, white };
  GdkRGBA outer_colors[4] = { black, black, black, black };

  if (!self->hovering || self->renderer == NULL)
    return;
  if (!pgs_map_view_hit_test (self, self->hover_x, self->hover_y, &hit) || !hit.valid)
    return;

  x0 = self->hover_x - cell_reach (self, &hit, self->hover_x, self->hover_y, -1, 0, step);
  x1 = self->hover_x + cell_reach (self, &hit, self->hover_x, self->hover_y, 1, 0, step);
  y0 = self->hover_y - cell_reach (self, &hit, self->hover_x, self->hover_y, 0, -1, step);
  y1 = self->hover_y + cell_reach (self, &hit, self->hover_x, self->hover_y, 0, 1, step);

  /* At least a few pixels around the pointer, so a one-pixel frame can still be seen. */
  x0 = MIN (floor (x0), self->hover_x - 3);
  y0 = MIN (floor (y0), self->hover_y - 3);
  x1 = MAX (ceil (x1) + 1, self->hover_x + 3);
  y1 = MAX (ceil (y1) + 1, self->hover_y + 3);

  graphene_rect_init (&rect, x0 - 1.5, y0 - 1.5, x1 - x0 + 3, y1 - y0 + 3);
  gsk_rounded_rect_init_from_rect (&outline, &rect, 0);
  gtk_snapshot_append_border (snapshot, &outline, inner, inner_colors);
  graphene_rect_init (&rect, x0 - 2.5, y0 - 2.5, x1 - x0 + 5, y1 - y0 + 5);
  gsk_rounded_rect_init_from_rect (&outline, &rect, 0);
  gtk_snapshot_append_border (snapshot, &outline, outer, outer_colors);
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
      g_autoptr(PangoLayout) probe = legend_layout (self, "Xg", TRUE);

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
      layout = legend_layout (self, label, TRUE);
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
  layout = legend_layout (self, text, TRUE);
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
      snapshot_hover (self, snapshot);
      gtk_snapshot_pop (snapshot);
      snapshot_zoom_badge (self, snapshot, &area);
    }

  if (self->legend_width > 0)
    snapshot_legend (self, snapshot, area.size.width + LEGEND_GAP);
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
  invalidate (PGS_MAP_VIEW (widget));
}

/* Input */

/* Widget coordinates to fractions of the whole map, through the renderer on screen. */
static gboolean
map_point (PgsMapView *self,
           double      x,
           double      y,
           double     *map_x,
           double     *map_y)
{
  int scale = gtk_widget_get_scale_factor (GTK_WIDGET (self));

  if (self->renderer == NULL || !params_equal (&self->shown, &self->wanted))
    return FALSE;
  return pgs_renderer_pixel_to_map (self->renderer, self->shown.width, self->shown.height,
                                    x * scale, y * scale, map_x, map_y);
}

static void
clamp_center (PgsMapView *self)
{
  double half = 0.5 / self->wanted.zoom;

  self->wanted.center_x = CLAMP (self->wanted.center_x, half, 1.0 - half);
  self->wanted.center_y = CLAMP (self->wanted.center_y, half, 1.0 - half);
}

static void
on_motion (GtkEventControllerMotion *controller,
           double                    x,
           double                    y,
           PgsMapView               *self)
{
  self->hovering = TRUE;
  self->hover_x = x;
  self->hover_y = y;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
on_leave (GtkEventControllerMotion *controller,
          PgsMapView               *self)
{
  self->hovering = FALSE;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static gboolean
on_scroll (GtkEventControllerScroll *controller,
           double                    dx,
           double                    dy,
           PgsMapView               *self)
{
  GdkModifierType state =
    gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (controller));
  graphene_rect_t area;

  if (state & GDK_CONTROL_MASK)
    {
      pgs_map_view_zoom_by (self, dy < 0 ? ZOOM_STEP : 1.0 / ZOOM_STEP,
                            self->hovering ? self->hover_x : -1,
                            self->hovering ? self->hover_y : -1);
      return TRUE;
    }
  if (self->wanted.zoom <= 1.0)
    return FALSE;   /* nothing to pan: let an enclosing scroller have it */

  pgs_map_view_get_map_area (self, &area);
  if (state & GDK_SHIFT_MASK)
    {
      dx = dy;
      dy = 0;
    }
  /* One scroll step moves a tenth of what is visible. */
  self->wanted.center_x += dx * 0.1 / self->wanted.zoom;
  self->wanted.center_y += dy * 0.1 / self->wanted.zoom;
  clamp_center (self);
  invalidate (self);
  return TRUE;
}

static void
on_drag_begin (GtkGestureDrag *gesture,
               double          x,
               double          y,
               PgsMapView     *self)
{
  graphene_rect_t area;
  double x0, y0, x1, y1;

  self->drag_center_x = self->wanted.center_x;
  self->drag_center_y = self->wanted.center_y;
  self->dragged = FALSE;

  /* How much of the map one pixel is, measured once: the drag then moves the map with the
   * pointer whatever the margins and aspect. Fall back to a map that fills the area. */
  pgs_map_view_get_map_area (self, &area);
  if (map_point (self, area.size.width / 2, area.size.height / 2, &x0, &y0) &&
      map_point (self, area.size.width / 2 + 1, area.size.height / 2 + 1, &x1, &y1) &&
      x1 > x0 && y1 > y0)
    {
      self->drag_scale_x = x1 - x0;
      self->drag_scale_y = y1 - y0;
    }
  else
    {
      self->drag_scale_x = 1.0 / (area.size.width * self->wanted.zoom);
      self->drag_scale_y = 1.0 / (area.size.height * self->wanted.zoom);
    }
}

static void
on_drag_update (GtkGestureDrag *gesture,
                double          dx,
                double          dy,
                PgsMapView     *self)
{
  if (!self->dragged && fabs (dx) < 4 && fabs (dy) < 4)
    return;   /* still a click */
  self->dragged = TRUE;
  if (self->wanted.zoom <= 1.0)
    return;

  self->wanted.center_x = self->drag_center_x - dx * self->drag_scale_x;
  self->wanted.center_y = self->drag_center_y - dy * self->drag_scale_y;
  clamp_center (self);
  gtk_widget_set_cursor_from_name (GTK_WIDGET (self), "grabbing");
  invalidate (self);
}

static void
on_drag_end (GtkGestureDrag *gesture,
             double          dx,
             double          dy,
             PgsMapView     *self)
{
  double x, y;
  PgsHit hit;

  gtk_widget_set_cursor (GTK_WIDGET (self), NULL);
  if (self->dragged)
    return;

  gtk_gesture_drag_get_start_point (gesture, &x, &y);
  gtk_widget_grab_focus (GTK_WIDGET (self));
  if (pgs_map_view_hit_test (self, x, y, &hit) && hit.valid)
    g_signal_emit (self, signals[PAGE_ACTIVATED], 0, &hit);
}

static gboolean
on_query_tooltip (GtkWidget  *widget,
                  int         x,
                  int         y,
                  gboolean    keyboard,
                  GtkTooltip *tooltip,
                  gpointer    user_data)
{
  PgsMapView *self = PGS_MAP_VIEW (widget);
  g_autofree char *text = NULL;
  PgsHit hit;

  if (keyboard || !pgs_map_view_hit_test (self, x, y, &hit) || !hit.valid)
    return FALSE;
  text = pgs_map_view_describe_hit (self, &hit);
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

static void
zoom_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  PgsMapView *self = PGS_MAP_VIEW (widget);

  if (g_str_equal (action_name, "map.zoom-in"))
    pgs_map_view_zoom_by (self, ZOOM_STEP * ZOOM_STEP, -1, -1);
  else if (g_str_equal (action_name, "map.zoom-out"))
    pgs_map_view_zoom_by (self, 1.0 / (ZOOM_STEP * ZOOM_STEP), -1, -1);
  else
    pgs_map_view_set_viewport (self, 1.0, 0.5, 0.5);
}

static void
pan_action (GtkWidget  *widget,
            const char *action_name,
            GVariant   *parameter)
{
  PgsMapView *self = PGS_MAP_VIEW (widget);
  double dx, dy;

  g_variant_get (parameter, "(dd)", &dx, &dy);
  self->wanted.center_x += dx / self->wanted.zoom;
  self->wanted.center_y += dy / self->wanted.zoom;
  clamp_center (self);
  invalidate (self);
}

static void
on_scale_factor_changed (GObject    *object,
                         GParamSpec *pspec,
                         gpointer    user_data)
{
  invalidate (PGS_MAP_VIEW (object));
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
  g_clear_pointer (&self->legend, legend_rows_free);
  g_clear_object (&self->legend_rule);
  params_clear (&self->wanted);
  params_clear (&self->shown);

  G_OBJECT_CLASS (pgs_map_view_parent_class)->dispose (object);
}

static void
pgs_map_view_class_init (PgsMapViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = pgs_map_view_dispose;

  widget_class->snapshot = pgs_map_view_snapshot;
  widget_class->measure = pgs_map_view_measure;
  widget_class->size_allocate = pgs_map_view_size_allocate;

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

  gtk_widget_class_install_action (widget_class, "map.zoom-in", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "map.zoom-out", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "map.zoom-reset", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "map.pan", "(dd)", pan_action);

  /* With the map focused the arrow keys pan; zoom keys are window-wide accelerators. */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Left, 0, "map.pan", "(dd)", -0.1, 0.0);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Right, 0, "map.pan", "(dd)", 0.1, 0.0);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Up, 0, "map.pan", "(dd)", 0.0, -0.1);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Down, 0, "map.pan", "(dd)", 0.0, 0.1);

  gtk_widget_class_set_css_name (widget_class, "mapview");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
pgs_map_view_init (PgsMapView *self)
{
  GtkEventController *controller;
  GtkGesture *drag;

  self->cancellable = g_cancellable_new ();
  self->wanted.zoom = 1.0;
  self->wanted.center_x = 0.5;
  self->wanted.center_y = 0.5;
  self->wanted.layout = PGS_LAYOUT_LINEAR;

  /* Device pixels change with the scale factor even when the size does not. */
  g_signal_connect (self, "notify::scale-factor", G_CALLBACK (on_scale_factor_changed), NULL);

  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  gtk_widget_set_overflow (GTK_WIDGET (self), GTK_OVERFLOW_HIDDEN);
  g_signal_connect (self, "query-tooltip", G_CALLBACK (on_query_tooltip), NULL);

  controller = gtk_event_controller_motion_new ();
  g_signal_connect (controller, "motion", G_CALLBACK (on_motion), self);
  g_signal_connect (controller, "leave", G_CALLBACK (on_leave), self);
  gtk_widget_add_controller (GTK_WIDGET (self), controller);

  controller = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES |
                                                GTK_EVENT_CONTROLLER_SCROLL_DISCRETE);
  g_signal_connect (controller, "scroll", G_CALLBACK (on_scroll), self);
  gtk_widget_add_controller (GTK_WIDGET (self), controller);

  drag = gtk_gesture_drag_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (drag), GDK_BUTTON_PRIMARY);
  g_signal_connect (drag, "drag-begin", G_CALLBACK (on_drag_begin), self);
  g_signal_connect (drag, "drag-update", G_CALLBACK (on_drag_update), self);
  g_signal_connect (drag, "drag-end", G_CALLBACK (on_drag_end), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drag));
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
    invalidate (self);
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
  invalidate (self);
}

void
pgs_map_view_set_layout (PgsMapView *self,
                         PgsLayout   layout)
{
  g_return_if_fail (PGS_IS_MAP_VIEW (self));

  if (self->wanted.layout == layout)
    return;
  self->wanted.layout = layout;
  invalidate (self);
}

void
pgs_map_view_set_units (PgsMapView *self,
                        PgsUnits    units)
{
  g_return_if_fail (PGS_IS_MAP_VIEW (self));

  if (self->units == units)
    return;
  self->units = units;
  update_legend_size (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

double
pgs_map_view_get_zoom (PgsMapView *self)
{
  g_return_val_if_fail (PGS_IS_MAP_VIEW (self), 1.0);
  return self->wanted.zoom;
}

void
pgs_map_view_set_viewport (PgsMapView *self,
                           double      zoom,
                           double      center_x,
                           double      center_y)
{
  g_return_if_fail (PGS_IS_MAP_VIEW (self));

  self->wanted.zoom = CLAMP (zoom, 1.0, PGS_MAP_VIEW_MAX_ZOOM);
  self->wanted.center_x = center_x;
  self->wanted.center_y = center_y;
  clamp_center (self);
  invalidate (self);
}

/* Zooms by @factor keeping the point under (@x, @y) in place; a negative @x zooms about the
 * centre of the view. */
void
pgs_map_view_zoom_by (PgsMapView *self,
                      double      factor,
                      double      x,
                      double      y)
{
  double zoom, mx, my;

  g_return_if_fail (PGS_IS_MAP_VIEW (self));

  zoom = CLAMP (self->wanted.zoom * factor, 1.0, PGS_MAP_VIEW_MAX_ZOOM);
  if (zoom == self->wanted.zoom)
    return;

  /* The map point under the pointer stays put: every point moves towards it by the ratio
   * of the zooms. The renderer knows its own geometry (margins, aspect), so ask it. */
  if (x >= 0 && y >= 0 && map_point (self, x, y, &mx, &my))
    {
      self->wanted.center_x = mx + (self->wanted.center_x - mx) * self->wanted.zoom / zoom;
      self->wanted.center_y = my + (self->wanted.center_y - my) * self->wanted.zoom / zoom;
    }
  self->wanted.zoom = zoom;
  clamp_center (self);
  invalidate (self);
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
  return self->renderer != NULL && !self->job_running && params_equal (&self->shown, &self->wanted);
}

gboolean
pgs_map_view_hit_test (PgsMapView *self,
                       double      x,
                       double      y,
                       PgsHit     *hit)
{
  int scale;

  g_return_val_if_fail (PGS_IS_MAP_VIEW (self), FALSE);
  g_return_val_if_fail (hit != NULL, FALSE);

  memset (hit, 0, sizeof *hit);
  if (self->renderer == NULL)
    return FALSE;

  /* The renderer's geometry is that of the texture, in device pixels. */
  scale = gtk_widget_get_scale_factor (GTK_WIDGET (self));
  if (x < 0 || y < 0 || x * scale >= self->shown.width || y * scale >= self->shown.height)
    return FALSE;
  return pgs_renderer_hit_test (self->renderer, self->shown.width, self->shown.height,
                                x * scale, y * scale, hit);
}

static const char *
mapping_label (PgsProcess *process,
               guint       index,
               guint64    *start,
               guint64    *offset)
{
  GListModel *mappings = pgs_process_get_mappings (process);
  g_autoptr(PgsMapping) mapping = g_list_model_get_item (mappings, index);

  if (mapping == NULL)
    return NULL;
  *start = pgs_mapping_get_start (mapping);
  *offset = pgs_mapping_get_offset (mapping);
  /* The string lives in the process's mapping data, which outlives this call. */
  return pgs_mapping_get_display_label (mapping);
}

char *
pgs_map_view_describe_hit (PgsMapView   *self,
                           const PgsHit *hit)
{
  GString *text = g_string_new (NULL);
  g_autofree char *flags = NULL;
  guint64 pfn = 0;
  gboolean have_pfn = FALSE;

  g_return_val_if_fail (PGS_IS_MAP_VIEW (self), NULL);
  g_return_val_if_fail (hit != NULL, NULL);

  /* The latest process: a hit carried over a refresh was looked up in it. */
  if (!hit->is_frame && self->wanted.process != NULL)
    {
      guint64 start = 0, offset = 0, page_size = pgs_snapshot_get_page_size (self->wanted.snapshot);
      const char *label = mapping_label (self->wanted.process, hit->mapping, &start, &offset);

      g_autofree char *address = pgs_units_format_hex (hit->address);

      g_string_append_printf (text, _("Address %s"), address);
      if (label != NULL)
        {
          g_autofree char *in_file =
            pgs_units_format_hex (offset + (hit->address - start) / page_size * page_size);

          g_string_append_printf (text, "\n%s\n", label);
          g_string_append_printf (text, _("Offset %s"), in_file);
        }
      if (pgs_pm_is_present (hit->entry))
        {
          pfn = pgs_pm_pfn (hit->entry);
          have_pfn = pfn != 0;
          g_string_append_c (text, '\n');
          g_string_append (text, (hit->entry & PGS_PM_FILE) ? _("Present, file or shared")
                                                             : _("Present, anonymous"));
        }
      else if (pgs_pm_is_swapped (hit->entry))
        {
          g_autofree char *swap_offset = pgs_units_format_hex (pgs_pm_swap_offset (hit->entry));

          g_string_append_c (text, '\n');
          g_string_append_printf (text, _("Swapped (type %u, offset %s)"),
                                  pgs_pm_swap_type (hit->entry), swap_offset);
        }
      else
        {
          g_string_append_c (text, '\n');
          g_string_append (text, _("Not present"));
        }
    }
  else if (hit->is_frame)
    {
      pfn = hit->pfn;
      have_pfn = TRUE;
    }

  if (have_pfn)
    {
      g_autofree char *frame = pgs_units_format_hex (pfn);

      g_string_append_c (text, '\n');
      g_string_append_printf (text, _("Frame %s"), frame);
    }
  else if (!hit->is_frame && pgs_pm_is_present (hit->entry))
    {
      g_string_append_c (text, '\n');
      g_string_append (text, _("Frame number hidden (needs root)"));
    }

  if (hit->count != G_MAXUINT32 /* PGS_COUNT_UNKNOWN */ &&
      (hit->is_frame || pgs_pm_is_present (hit->entry)))
    {
      g_string_append_c (text, '\n');
      g_string_append_printf (text, ngettext ("Mapped %'u time", "Mapped %'u times", hit->count),
                              hit->count);
    }

  if (hit->is_frame && pgs_category_get_description (hit->category) != NULL)
    g_string_append_printf (text, "\n%s", pgs_category_get_description (hit->category));

  if (hit->is_frame || have_pfn)
    {
      flags = pgs_kpageflags_to_string (hit->flags);
      if (flags != NULL && *flags)
        {
          g_string_append_c (text, '\n');
          g_string_append_printf (text, _("Flags: %s"), flags);
        }
    }

  if (hit->n_pages > 1)
    {
      g_autofree char *pages = pgs_units_format_count (hit->n_pages);

      g_string_append_c (text, '\n');
      g_string_append_printf (text, ngettext ("This pixel stands for %s page",
                                              "This pixel stands for %s pages",
                                              (gulong) MIN (hit->n_pages, G_MAXULONG)),
                              pages);
    }

  /* Lines were appended each with its newline first. */
  if (text->len > 0 && text->str[0] == '\n')
    g_string_erase (text, 0, 1);
  return g_string_free (text, FALSE);
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
