/* pgs-sparkline.c
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The Growth column's picture of a process's PSS over the range: a leak is a line that only
 * goes up, a cache a line that climbs and levels off. Scaled from 0 rather than from the
 * smallest value, so that a process that grew by 1 % does not look like one that doubled.
 * The only cell of the process list that draws, hence code and not a template.
 */

#include "config.h"

#include <math.h>

#include "pgs-sparkline.h"

struct _PgsSparkline
{
  GtkWidget  parent_instance;

  GBytes    *points;
};

enum {
  PROP_0,
  PROP_POINTS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (PgsSparkline, pgs_sparkline, GTK_TYPE_WIDGET)

static void
pgs_sparkline_measure (GtkWidget      *widget,
                       GtkOrientation  orientation,
                       int             for_size,
                       int            *minimum,
                       int            *natural,
                       int            *minimum_baseline,
                       int            *natural_baseline)
{
  *minimum = *natural = orientation == GTK_ORIENTATION_HORIZONTAL ? 48 : 14;
}

static void
pgs_sparkline_snapshot (GtkWidget   *widget,
                        GtkSnapshot *snapshot)
{
  PgsSparkline *self = PGS_SPARKLINE (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  const float *points;
  gsize size = 0;
  guint n;
  float top = 0;
  gboolean drawing = FALSE;
  GdkRGBA fg;
  cairo_t *cr;

  if (self->points == NULL || width <= 2 || height <= 2)
    return;
  points = g_bytes_get_data (self->points, &size);
  n = size / sizeof (float);
  for (guint i = 0; i < n; i++)
    if (!isnan (points[i]))
      top = MAX (top, points[i]);
  if (n < 2 || top <= 0)
    return;

  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  gtk_style_context_get_color (gtk_widget_get_style_context (widget), &fg);
  G_GNUC_END_IGNORE_DEPRECATIONS
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  cairo_set_line_width (cr, 1.5);
  cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);
  cairo_set_line_cap (cr, CAIRO_LINE_CAP_ROUND);
  cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, fg.alpha * 0.75);
  for (guint i = 0; i < n; i++)
    {
      /* Inset by the line's half width and a half: the ends stay whole. */
      double x = 1.5 + (width - 3.0) * i / (n - 1);
      double y = height - 1.5 - (height - 3.0) * points[i] / top;
      gboolean lone = (i == 0 || isnan (points[i - 1])) && (i + 1 == n || isnan (points[i + 1]));

      if (isnan (points[i]))
        drawing = FALSE;
      else if (lone)
        {
          /* A process seen at one point only (new at the end, gone after the start): a dot. */
          cairo_new_sub_path (cr);
          cairo_arc (cr, x, y, 1.25, 0, 2 * G_PI);
          cairo_fill (cr);
        }
      else if (!drawing)
        {
          cairo_move_to (cr, x, y);
          drawing = TRUE;
        }
      else
        cairo_line_to (cr, x, y);
      if (drawing && (i + 1 == n || isnan (points[i + 1])))
        {
          cairo_stroke (cr);
          drawing = FALSE;
        }
    }
  cairo_destroy (cr);
}

static void
pgs_sparkline_dispose (GObject *object)
{
  PgsSparkline *self = PGS_SPARKLINE (object);

  g_clear_pointer (&self->points, g_bytes_unref);

  G_OBJECT_CLASS (pgs_sparkline_parent_class)->dispose (object);
}

static void
pgs_sparkline_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  PgsSparkline *self = PGS_SPARKLINE (object);

  switch (prop_id)
    {
    case PROP_POINTS:
      g_value_set_boxed (value, self->points);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pgs_sparkline_set_property (GObject      *object,
                            guint         prop_id,
                            const GValue *value,
                            GParamSpec   *pspec)
{
  PgsSparkline *self = PGS_SPARKLINE (object);

  switch (prop_id)
    {
    case PROP_POINTS:
      pgs_sparkline_set_points (self, g_value_get_boxed (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pgs_sparkline_class_init (PgsSparklineClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = pgs_sparkline_dispose;
  object_class->get_property = pgs_sparkline_get_property;
  object_class->set_property = pgs_sparkline_set_property;
  widget_class->measure = pgs_sparkline_measure;
  widget_class->snapshot = pgs_sparkline_snapshot;

  properties[PROP_POINTS] =
    g_param_spec_boxed ("points", NULL, NULL, G_TYPE_BYTES,
                        G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  gtk_widget_class_set_css_name (widget_class, "sparkline");
}

static void
pgs_sparkline_init (PgsSparkline *self)
{
}

GtkWidget *
pgs_sparkline_new (void)
{
  return g_object_new (PGS_TYPE_SPARKLINE, NULL);
}

void
pgs_sparkline_set_points (PgsSparkline *self,
                          GBytes       *points)
{
  g_return_if_fail (PGS_IS_SPARKLINE (self));

  if (self->points == points ||
      (self->points != NULL && points != NULL && g_bytes_equal (self->points, points)))
    return;
  g_clear_pointer (&self->points, g_bytes_unref);
  self->points = points != NULL ? g_bytes_ref (points) : NULL;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_POINTS]);
}

GBytes *
pgs_sparkline_get_points (PgsSparkline *self)
{
  g_return_val_if_fail (PGS_IS_SPARKLINE (self), NULL);
  return self->points;
}
