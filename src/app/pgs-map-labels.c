/* pgs-map-labels.c: the words drawn on a map: its bands' names and its zoom
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Residency: each mapping's band gets its name at its left edge, where it fits; on the
 * Hilbert layout, in the largest square of its cells, where it fits. Zoomed in, a badge in
 * the top right corner says how far.
 */

#include "config.h"

#include <glib/gi18n.h>

#include "pgs-map-labels.h"

struct _PgsMapLabels
{
  GObject parent_instance;
  int     band_line_height;
};

static void overlay_iface_init (PgsMapOverlayInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (PgsMapLabels, pgs_map_labels, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (PGS_TYPE_MAP_OVERLAY, overlay_iface_init))

static PangoLayout *
small_layout (const PgsMapShown *shown,
              const char        *text)
{
  PangoLayout *layout = pango_layout_new (shown->pango);
  PangoAttrList *attrs = pango_attr_list_new ();

  pango_attr_list_insert (attrs, pango_attr_scale_new (0.85));
  pango_layout_set_attributes (layout, attrs);
  pango_attr_list_unref (attrs);
  pango_layout_set_text (layout, text, -1);
  return layout;
}

/* Hilbert: a mapping is a run of the curve, not a band; its label goes in the largest
 * square of its cells, where that square holds it and is in view, at its top left. */
static void
snapshot_squares (PgsMapLabels      *self,
                  GtkSnapshot       *snapshot,
                  const PgsMapShown *shown)
{
  PgsRenderer *renderer = shown->renderer;
  int scale = shown->scale;
  GdkRGBA bg = { 0, 0, 0, 0.55f }, fg = { 1, 1, 1, 1 };
  guint n = pgs_renderer_get_n_bands (renderer);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(PangoLayout) layout = NULL;
      const char *label = NULL;
      double x, y, side;
      int lw, lh;

      if (!pgs_renderer_get_band_square (renderer, shown->width, shown->height, i,
                                         &x, &y, &side, &label) || label == NULL)
        continue;
      x /= scale;
      y /= scale;
      side /= scale;
      /* Decided before laying any text out: a process has hundreds of mappings. */
      if (side < self->band_line_height + 2 || x < 0 || y < 0 ||
          x + side > shown->area_width || y + side > shown->area_height)
        continue;
      /* The name whole, or its last ten letters after an ellipsis (as the export): a name
       * cut to a few letters says nothing. */
      if (g_utf8_strlen (label, -1) > 10)
        {
          g_autofree char *tail =
            g_strconcat ("…", g_utf8_offset_to_pointer (label, g_utf8_strlen (label, -1) - 10), NULL);
          g_autoptr(PangoLayout) probe = small_layout (shown, tail);

          pango_layout_get_pixel_size (probe, &lw, NULL);
          if (lw > side - 6)
            continue;
        }
      layout = small_layout (shown, label);
      pango_layout_set_width (layout, (int) MAX (1, side - 6) * PANGO_SCALE);
      pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_START);
      pango_layout_get_pixel_size (layout, &lw, &lh);
      if (side < lh + 2 || lw > side - 6)
        continue;
      gtk_snapshot_append_color (snapshot, &bg, &GRAPHENE_RECT_INIT (x + 1, y + 1, lw + 6, lh + 2));
      gtk_snapshot_save (snapshot);
      gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (x + 4, y + 2));
      gtk_snapshot_append_layout (snapshot, layout, &fg);
      gtk_snapshot_restore (snapshot);
    }
}

static void
snapshot_bands (PgsMapLabels      *self,
                GtkSnapshot       *snapshot,
                const PgsMapShown *shown)
{
  PgsRenderer *renderer = shown->renderer;
  int scale = shown->scale;
  GdkRGBA bg = { 0, 0, 0, 0.55f }, fg = { 1, 1, 1, 1 };
  guint n;
  double last_bottom = -1;

  if (pgs_renderer_get_view (renderer) != PGS_VIEW_RESIDENCY)
    return;

  if (self->band_line_height == 0)
    {
      g_autoptr(PangoLayout) probe = small_layout (shown, "Xg");

      pango_layout_get_pixel_size (probe, NULL, &self->band_line_height);
    }

  if (pgs_renderer_get_layout (renderer) == PGS_LAYOUT_HILBERT)
    {
      snapshot_squares (self, snapshot, shown);
      return;
    }

  n = pgs_renderer_get_n_bands (renderer);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(PangoLayout) layout = NULL;
      const char *label = NULL;
      double y, h;
      int lw, lh;

      if (!pgs_renderer_get_band (renderer, shown->width, shown->height, i,
                                  &y, &h, &label) || label == NULL)
        continue;
      y /= scale;
      h /= scale;
      /* Decided before laying any text out: a process has hundreds of thin bands. */
      if (h < self->band_line_height + 2 || y < last_bottom)
        continue;
      layout = small_layout (shown, label);
      pango_layout_set_width (layout, (int) (shown->area_width * 0.6) * PANGO_SCALE);
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
snapshot_zoom_badge (GtkSnapshot       *snapshot,
                     const PgsMapShown *shown)
{
  g_autofree char *text = NULL;
  g_autoptr(PangoLayout) layout = NULL;
  GdkRGBA bg = { 0, 0, 0, 0.6f }, fg = { 1, 1, 1, 1 };
  int w, h;

  if (shown->zoom <= 1.0)
    return;
  /* Translators: the map's zoom level, "400 %" */
  text = g_strdup_printf (_("%.0f %%"), shown->zoom * 100);
  layout = small_layout (shown, text);
  pango_layout_get_pixel_size (layout, &w, &h);
  gtk_snapshot_append_color (snapshot, &bg,
                             &GRAPHENE_RECT_INIT (shown->area_width - w - 12, 6, w + 8, h + 4));
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (shown->area_width - w - 8, 8));
  gtk_snapshot_append_layout (snapshot, layout, &fg);
  gtk_snapshot_restore (snapshot);
}

static void
labels_snapshot (PgsMapOverlay     *overlay,
                 GtkSnapshot       *snapshot,
                 const PgsMapShown *shown)
{
  snapshot_bands (PGS_MAP_LABELS (overlay), snapshot, shown);
  snapshot_zoom_badge (snapshot, shown);
}

static void
overlay_iface_init (PgsMapOverlayInterface *iface)
{
  iface->snapshot = labels_snapshot;
}

static void
pgs_map_labels_class_init (PgsMapLabelsClass *klass)
{
}

static void
pgs_map_labels_init (PgsMapLabels *self)
{
}

PgsMapLabels *
pgs_map_labels_new (void)
{
  return g_object_new (PGS_TYPE_MAP_LABELS, NULL);
}
