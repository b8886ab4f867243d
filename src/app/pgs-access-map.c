/* pgs-access-map.c: DAMON's access heat drawn at the widget's size
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The pixels come from the library's access renderer (the same as `pagescope-render
 * --view access`) at the widget's size in device pixels, shown as a texture; the tooltip
 * names the region under the pointer through the renderer's own hit test.
 */

#include "config.h"

#include <glib/gi18n.h>

#include "pgs-access-map.h"
#include "pgs-map-style.h"
#include "pgs-units.h"

struct _PgsAccessMap
{
  GtkWidget   parent_instance;

  GPtrArray  *aggregations;
  guint64     max_nr_accesses;
  double      aggr_seconds;

  GdkTexture *texture;       /* of the last size and style drawn */
  int         texture_width;
  int         texture_height;
  PgsRenderStyle texture_style;
};

G_DEFINE_FINAL_TYPE (PgsAccessMap, pgs_access_map, GTK_TYPE_WIDGET)

enum {
  REGION_ACTIVATED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
view_of (PgsAccessMap  *self,
         PgsAccessView *view)
{
  *view = (PgsAccessView) { 0 };
  view->aggregations = self->aggregations;
  view->max_nr_accesses = self->max_nr_accesses;
  view->aggr_seconds = self->aggr_seconds;
  view->style = pgs_map_style_detect (GTK_WIDGET (self));
}

static void
pgs_access_map_snapshot (GtkWidget   *widget,
                         GtkSnapshot *snapshot)
{
  PgsAccessMap *self = PGS_ACCESS_MAP (widget);
  int scale = gtk_widget_get_scale_factor (widget);
  int w = gtk_widget_get_width (widget), h = gtk_widget_get_height (widget);
  PgsAccessView view;

  if (self->aggregations == NULL || self->aggregations->len == 0 || w <= 0 || h <= 0)
    return;
  view_of (self, &view);
  if (self->texture == NULL || self->texture_width != w * scale ||
      self->texture_height != h * scale || self->texture_style != view.style)
    {
      g_autofree guint32 *pixels = pgs_render_access_pixels (&view, w * scale, h * scale);
      g_autoptr(GBytes) bytes = g_bytes_new_take (g_steal_pointer (&pixels),
                                                  (gsize) w * scale * h * scale * 4);

      g_clear_object (&self->texture);
      /* 0xAARRGGBB in native order: B8G8R8A8 on little-endian, as cairo's ARGB32. */
      self->texture = gdk_memory_texture_new (w * scale, h * scale,
                                              G_BYTE_ORDER == G_LITTLE_ENDIAN
                                                ? GDK_MEMORY_B8G8R8A8_PREMULTIPLIED
                                                : GDK_MEMORY_A8R8G8B8_PREMULTIPLIED,
                                              bytes, (gsize) w * scale * 4);
      self->texture_width = w * scale;
      self->texture_height = h * scale;
      self->texture_style = view.style;
    }
  gtk_snapshot_append_texture (snapshot, self->texture, &GRAPHENE_RECT_INIT (0, 0, w, h));
}

gboolean
pgs_access_map_hit (PgsAccessMap *self,
                    double        x,
                    double        y,
                    guint        *aggregation,
                    guint        *region)
{
  int scale, w, h;
  PgsAccessView view;

  g_return_val_if_fail (PGS_IS_ACCESS_MAP (self), FALSE);
  if (self->aggregations == NULL || self->aggregations->len == 0)
    return FALSE;
  scale = gtk_widget_get_scale_factor (GTK_WIDGET (self));
  w = gtk_widget_get_width (GTK_WIDGET (self));
  h = gtk_widget_get_height (GTK_WIDGET (self));
  if (x < 0 || y < 0 || x >= w || y >= h)
    return FALSE;
  view_of (self, &view);
  /* In device pixels, as the texture was drawn. */
  return pgs_render_access_hit (&view, w * scale, h * scale, (int) (x * scale),
                                (int) (y * scale), aggregation, region);
}

char *
pgs_access_map_describe (PgsAccessMap *self,
                         double        x,
                         double        y)
{
  const PgsDamonAggregation *a;
  const PgsDamonRegion *r;
  g_autofree char *size = NULL;
  g_autofree char *lo = NULL, *hi = NULL, *accesses = NULL, *age = NULL, *pid = NULL;
  GString *s;
  guint ai, ri;

  if (!pgs_access_map_hit (self, x, y, &ai, &ri))
    return NULL;
  a = g_ptr_array_index (self->aggregations, ai);
  r = &g_array_index (a->regions, PgsDamonRegion, ri);
  size = g_format_size_full (r->end - r->start, G_FORMAT_SIZE_IEC_UNITS);
  lo = pgs_units_format_hex (r->start);
  hi = pgs_units_format_hex (r->end);
  accesses = g_strdup_printf ("%u", r->nr_accesses);
  age = g_strdup_printf ("%u", r->age);
  pid = g_strdup_printf ("%d", a->pid);
  s = g_string_new (NULL);
  g_string_append_printf (s, _("Physical %s–%s (%s)"), lo, hi, size);
  g_string_append_c (s, '\n');
  if (self->max_nr_accesses > 0)
    {
      g_autofree char *max = g_strdup_printf ("%" G_GUINT64_FORMAT, self->max_nr_accesses);

      g_string_append_printf (s, _("Accessed in %s of %s samples"), accesses, max);
    }
  else
    g_string_append_printf (s, _("Accessed in %s samples"), accesses);
  if (self->aggr_seconds > 0)
    {
      g_autofree char *rate = g_strdup_printf ("%.2f", r->nr_accesses / self->aggr_seconds);
      g_autofree char *age_s = g_strdup_printf ("%.0f", r->age * self->aggr_seconds);

      g_string_append_printf (s, _(" (%s per second)"), rate);
      g_string_append_c (s, '\n');
      g_string_append_printf (s, _("Age: %s aggregations (%s s) at this rate"), age, age_s);
    }
  else
    {
      g_string_append_c (s, '\n');
      g_string_append_printf (s, _("Age: %s aggregations at this rate"), age);
    }
  g_string_append_c (s, '\n');
  g_string_append_printf (s, _("Aggregation at %s s, kdamond PID %s"), a->timestamp, pid);
  g_string_append_c (s, '\n');
  g_string_append (s, _("The region’s rate, not each frame’s"));
  g_string_append_c (s, '\n');
  g_string_append (s, _("Click to see what it holds"));
  return g_string_free (s, FALSE);
}

static gboolean
on_query_tooltip (PgsAccessMap *self,
                  int           x,
                  int           y,
                  gboolean      keyboard,
                  GtkTooltip   *tooltip)
{
  g_autofree char *text = keyboard ? NULL : pgs_access_map_describe (self, x, y);

  if (text == NULL)
    return FALSE;
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

static void
pgs_access_map_css_changed (GtkWidget         *widget,
                            GtkCssStyleChange *change)
{
  GTK_WIDGET_CLASS (pgs_access_map_parent_class)->css_changed (widget, change);
  /* The style (light, dark, high contrast) may have changed: the texture is checked
   * against it at the next snapshot. */
  gtk_widget_queue_draw (widget);
}

/* Behind another page no pixels are kept (nor, under GL, the driver's copy of them): the
 * first snapshot after mapping draws them again, as after a resize. */
static void
pgs_access_map_unmap (GtkWidget *widget)
{
  GTK_WIDGET_CLASS (pgs_access_map_parent_class)->unmap (widget);
  g_clear_object (&PGS_ACCESS_MAP (widget)->texture);
}

static void
pgs_access_map_dispose (GObject *object)
{
  PgsAccessMap *self = PGS_ACCESS_MAP (object);

  g_clear_pointer (&self->aggregations, g_ptr_array_unref);
  g_clear_object (&self->texture);
  G_OBJECT_CLASS (pgs_access_map_parent_class)->dispose (object);
}

static void
pgs_access_map_class_init (PgsAccessMapClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = pgs_access_map_dispose;
  widget_class->snapshot = pgs_access_map_snapshot;
  widget_class->unmap = pgs_access_map_unmap;
  widget_class->css_changed = pgs_access_map_css_changed;
  gtk_widget_class_set_css_name (widget_class, "accessmap");

  /* PgsAccessMap::region-activated (start, end): a region was clicked; its physical
   * addresses, for the page to say what they hold. */
  signals[REGION_ACTIVATED] =
    g_signal_new ("region-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                  NULL, G_TYPE_NONE, 2, G_TYPE_UINT64, G_TYPE_UINT64);
}

static void
on_released (GtkGestureClick *click,
             int              n_press,
             double           x,
             double           y,
             PgsAccessMap    *self)
{
  pgs_access_map_activate_at (self, x, y);
}

gboolean
pgs_access_map_activate_at (PgsAccessMap *self,
                            double        x,
                            double        y)
{
  const PgsDamonRegion *r;
  guint ai, ri;

  g_return_val_if_fail (PGS_IS_ACCESS_MAP (self), FALSE);
  if (!pgs_access_map_hit (self, x, y, &ai, &ri))
    return FALSE;
  r = &g_array_index (((const PgsDamonAggregation *) g_ptr_array_index (self->aggregations, ai))->regions,
                      PgsDamonRegion, ri);
  g_signal_emit (self, signals[REGION_ACTIVATED], 0, r->start, r->end);
  return TRUE;
}

static void
pgs_access_map_init (PgsAccessMap *self)
{
  GtkGesture *click;

  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  g_signal_connect (self, "query-tooltip", G_CALLBACK (on_query_tooltip), NULL);
  gtk_widget_set_hexpand (GTK_WIDGET (self), TRUE);
  gtk_widget_set_vexpand (GTK_WIDGET (self), TRUE);
  gtk_widget_set_size_request (GTK_WIDGET (self), 200, 200);
  click = gtk_gesture_click_new ();
  g_signal_connect (click, "released", G_CALLBACK (on_released), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (click));
}

void
pgs_access_map_set_aggregations (PgsAccessMap *self,
                                 GPtrArray    *aggregations,
                                 guint64       max_nr_accesses,
                                 double        aggr_seconds)
{
  g_return_if_fail (PGS_IS_ACCESS_MAP (self));

  g_clear_pointer (&self->aggregations, g_ptr_array_unref);
  if (aggregations != NULL)
    self->aggregations = g_ptr_array_ref (aggregations);
  self->max_nr_accesses = max_nr_accesses;
  self->aggr_seconds = aggr_seconds;
  g_clear_object (&self->texture);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}
