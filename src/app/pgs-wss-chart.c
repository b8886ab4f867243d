/* pgs-wss-chart.c
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A small line chart drawn with cairo: the total referenced bytes of each sample (the
 * working set) against the sample's read-back time, over a dashed line for the resident
 * bytes, so the user sees how much of what is in memory the process really used. The value
 * axis ends at a round IEC size (1, 2 or 5 × 2^10k bytes) so its labels read as the rest
 * of the app's sizes do.
 */

#include "config.h"

#include <math.h>

#include <glib/gi18n.h>

#include "pgs-wss-chart.h"

#define CHART_WIDTH   300
#define CHART_HEIGHT  120
#define PAD           4.0

struct _PgsWssChart
{
  GtkWidget  parent_instance;

  GPtrArray *samples;   /* PgsWssSample */
  guint64    axis_max;
};

G_DEFINE_FINAL_TYPE (PgsWssChart, pgs_wss_chart, GTK_TYPE_WIDGET)

/* The smallest of 1, 2, 4, 8… × 2^(10k) not below @bytes: powers of two keep the halfway
 * tick an exact IEC size too ("32 MiB" halfway to "64 MiB"). */
static guint64
round_axis (guint64 bytes)
{
  guint64 top = 1024;

  while (top < bytes && top < G_MAXUINT64 / 2)
    top *= 2;
  return top;
}

static char *
format_axis (guint64 bytes)
{
  return g_format_size_full (bytes, G_FORMAT_SIZE_IEC_UNITS);
}

static PangoLayout *
make_layout (PgsWssChart *self,
             const char  *text)
{
  PangoLayout *layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), text);
  PangoAttrList *attrs = pango_attr_list_new ();

  pango_attr_list_insert (attrs, pango_attr_scale_new (0.8));
  pango_attr_list_insert (attrs, pango_attr_font_features_new ("tnum=1"));
  pango_layout_set_attributes (layout, attrs);
  pango_attr_list_unref (attrs);
  return layout;
}

static void
get_fg_color (PgsWssChart *self,
              GdkRGBA     *color)
{
  GtkStyleContext *context;

  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  context = gtk_widget_get_style_context (GTK_WIDGET (self));
  gtk_style_context_get_color (context, color);
  G_GNUC_END_IGNORE_DEPRECATIONS
}

static void
pgs_wss_chart_snapshot (GtkWidget   *widget,
                        GtkSnapshot *snapshot)
{
  PgsWssChart *self = PGS_WSS_CHART (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  g_autoptr(PangoLayout) top_layout = NULL;
  g_autoptr(PangoLayout) mid_layout = NULL;
  g_autoptr(PangoLayout) zero_layout = NULL;
  g_autoptr(PangoLayout) first_layout = NULL;
  g_autoptr(PangoLayout) last_layout = NULL;
  g_autofree char *top_text = NULL;
  g_autofree char *mid_text = NULL;
  g_autofree char *last_text = NULL;
  PangoRectangle top_rect, mid_rect, zero_rect, first_rect, last_rect;
  double left, right, top, bottom, label_width;
  gint64 t0, t1;
  GdkRGBA fg;
  cairo_t *cr;
  guint n;

  if (self->samples == NULL || self->samples->len == 0 || width <= 0 || height <= 0)
    return;
  n = self->samples->len;

  get_fg_color (self, &fg);
  top_text = format_axis (self->axis_max);
  mid_text = format_axis (self->axis_max / 2);
  top_layout = make_layout (self, top_text);
  mid_layout = make_layout (self, mid_text);
  zero_layout = make_layout (self, "0");
  t0 = pgs_wss_sample_get_time (g_ptr_array_index (self->samples, 0));
  t1 = pgs_wss_sample_get_time (g_ptr_array_index (self->samples, n - 1));
  /* Translators: the time axis of the working-set chart starts at the first sample */
  first_layout = make_layout (self, n > 1 ? _("0 s") : _("1 sample"));
  last_text = g_strdup_printf (_("%.0f s"), (t1 - t0) / 1e6);
  last_layout = make_layout (self, last_text);
  pango_layout_get_pixel_extents (top_layout, NULL, &top_rect);
  pango_layout_get_pixel_extents (mid_layout, NULL, &mid_rect);
  pango_layout_get_pixel_extents (zero_layout, NULL, &zero_rect);
  pango_layout_get_pixel_extents (first_layout, NULL, &first_rect);
  pango_layout_get_pixel_extents (last_layout, NULL, &last_rect);

  label_width = MAX (MAX (top_rect.width, mid_rect.width), zero_rect.width);
  left = PAD + label_width + 6;
  right = width - PAD - MAX (last_rect.width / 2.0, 4);
  top = PAD + top_rect.height / 2.0;
  bottom = height - PAD - first_rect.height - 4;
  if (right - left < 20 || bottom - top < 20)
    return;

  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));

  /* Value labels, right-aligned against the plot, centred on their grid lines. */
  gdk_cairo_set_source_rgba (cr, &fg);
  cairo_move_to (cr, left - 6 - top_rect.width, top - top_rect.height / 2.0);
  pango_cairo_show_layout (cr, top_layout);
  cairo_move_to (cr, left - 6 - mid_rect.width, (top + bottom) / 2 - mid_rect.height / 2.0);
  pango_cairo_show_layout (cr, mid_layout);
  cairo_move_to (cr, left - 6 - zero_rect.width, bottom - zero_rect.height / 2.0);
  pango_cairo_show_layout (cr, zero_layout);
  /* Time labels under the ends of the axis. */
  if (n > 1)
    {
      cairo_move_to (cr, left, bottom + 4);
      pango_cairo_show_layout (cr, first_layout);
      cairo_move_to (cr, right - last_rect.width, bottom + 4);
      pango_cairo_show_layout (cr, last_layout);
    }
  else
    {
      cairo_move_to (cr, (left + right - first_rect.width) / 2, bottom + 4);
      pango_cairo_show_layout (cr, first_layout);
    }

  /* Grid */
  cairo_set_line_width (cr, 1);
  cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, fg.alpha * 0.15);
  for (int i = 0; i <= 2; i++)
    {
      double y = round (top + (bottom - top) * i / 2.0) + 0.5;

      cairo_move_to (cr, left, y);
      cairo_line_to (cr, right, y);
    }
  cairo_stroke (cr);

#define X_OF(i) (n > 1 ? left + (right - left) * \
                 (pgs_wss_sample_get_time (g_ptr_array_index (self->samples, (i))) - t0) / \
                 (double) MAX (t1 - t0, 1) : (left + right) / 2)
#define Y_OF(v) (bottom - (bottom - top) * (double) (v) / (double) self->axis_max)

  /* Resident bytes: dashed, in the foreground colour, behind the working set. */
  cairo_save (cr);
  cairo_set_dash (cr, (double[]) { 4, 3 }, 2, 0);
  cairo_set_line_width (cr, 1.5);
  cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, fg.alpha * 0.5);
  for (guint i = 0; i < n; i++)
    {
      double y = Y_OF (pgs_wss_sample_get_rss (g_ptr_array_index (self->samples, i)));

      if (n == 1)
        {
          cairo_move_to (cr, left, y);
          cairo_line_to (cr, right, y);
        }
      else if (i == 0)
        cairo_move_to (cr, X_OF (i), y);
      else
        cairo_line_to (cr, X_OF (i), y);
    }
  cairo_stroke (cr);
  cairo_restore (cr);

  /* The working set: a line through one dot per sample (GNOME blue 3). */
  cairo_set_source_rgb (cr, 0x35 / 255.0, 0x84 / 255.0, 0xe4 / 255.0);
  cairo_set_line_width (cr, 2);
  for (guint i = 0; i < n; i++)
    {
      double x = X_OF (i);
      double y = Y_OF (pgs_wss_sample_get_referenced (g_ptr_array_index (self->samples, i)));

      if (i == 0)
        cairo_move_to (cr, x, y);
      else
        cairo_line_to (cr, x, y);
    }
  cairo_stroke (cr);
  for (guint i = 0; i < n; i++)
    {
      cairo_arc (cr, X_OF (i),
                 Y_OF (pgs_wss_sample_get_referenced (g_ptr_array_index (self->samples, i))),
                 3.5, 0, 2 * G_PI);
      cairo_fill (cr);
    }
#undef X_OF
#undef Y_OF

  cairo_destroy (cr);
}

static void
pgs_wss_chart_measure (GtkWidget      *widget,
                       GtkOrientation  orientation,
                       int             for_size,
                       int            *minimum,
                       int            *natural,
                       int            *minimum_baseline,
                       int            *natural_baseline)
{
  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      *minimum = CHART_WIDTH / 2;
      *natural = CHART_WIDTH;
    }
  else
    *minimum = *natural = CHART_HEIGHT;
}

static void
pgs_wss_chart_dispose (GObject *object)
{
  PgsWssChart *self = (PgsWssChart *) object;

  g_clear_pointer (&self->samples, g_ptr_array_unref);

  G_OBJECT_CLASS (pgs_wss_chart_parent_class)->dispose (object);
}

static void
pgs_wss_chart_class_init (PgsWssChartClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = pgs_wss_chart_dispose;
  widget_class->snapshot = pgs_wss_chart_snapshot;
  widget_class->measure = pgs_wss_chart_measure;

  gtk_widget_class_set_css_name (widget_class, "wsschart");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
pgs_wss_chart_init (PgsWssChart *self)
{
  self->axis_max = 1024;
}

GtkWidget *
pgs_wss_chart_new (void)
{
  return g_object_new (PGS_TYPE_WSS_CHART, NULL);
}

void
pgs_wss_chart_set_samples (PgsWssChart *self,
                           GPtrArray   *samples)
{
  guint64 largest = 0;

  g_return_if_fail (PGS_IS_WSS_CHART (self));

  if (samples != NULL)
    g_ptr_array_ref (samples);
  g_clear_pointer (&self->samples, g_ptr_array_unref);
  self->samples = samples;

  /* The axis holds the resident line too: the working set is read against it. */
  for (guint i = 0; samples != NULL && i < samples->len; i++)
    {
      largest = MAX (largest, pgs_wss_sample_get_referenced (g_ptr_array_index (samples, i)));
      largest = MAX (largest, pgs_wss_sample_get_rss (g_ptr_array_index (samples, i)));
    }
  self->axis_max = round_axis (largest);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

guint
pgs_wss_chart_get_n_points (PgsWssChart *self)
{
  g_return_val_if_fail (PGS_IS_WSS_CHART (self), 0);
  return self->samples != NULL ? self->samples->len : 0;
}

guint64
pgs_wss_chart_get_axis_max (PgsWssChart *self)
{
  g_return_val_if_fail (PGS_IS_WSS_CHART (self), 0);
  return self->axis_max;
}
