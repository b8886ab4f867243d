/* pgs-map-marks.c: the pages a working-set sample saw accessed, marked on a residency map
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The renderer knows pixels to pages, not the other way: the marks come from the same
 * hit test as hover and tooltips, once per overlay cell. A cell is marked when the page
 * that decided its colour was accessed; only where the sample has a per-page source
 * (idle page tracking). Drawn once per pixels and sample, then reused.
 */

#include "config.h"

#include "pgs-map-marks.h"

struct _PgsMapMarks
{
  GObject        parent_instance;
  PgsWssSample  *sample;
  GskRenderNode *node;
};

static void overlay_iface_init (PgsMapOverlayInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (PgsMapMarks, pgs_map_marks, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (PGS_TYPE_MAP_OVERLAY, overlay_iface_init))

static void
marks_snapshot (PgsMapOverlay     *overlay,
                GtkSnapshot       *snapshot,
                const PgsMapShown *shown)
{
  PgsMapMarks *self = PGS_MAP_MARKS (overlay);
  graphene_rect_t area = GRAPHENE_RECT_INIT (0, 0, shown->area_width, shown->area_height);
  const double cell = 3;

  if (self->sample == NULL || pgs_renderer_get_view (shown->renderer) != PGS_VIEW_RESIDENCY ||
      !(pgs_wss_sample_get_page_sources (self->sample) & PGS_WSS_PAGES_IDLE))
    return;

  if (self->node == NULL)
    {
      g_autoptr(GtkSnapshot) marks = gtk_snapshot_new ();
      cairo_t *cr = gtk_snapshot_append_cairo (marks, &area);

      cairo_set_source_rgba (cr, 1, 1, 1, 0.85);
      for (double y = 0; y < area.size.height; y += cell)
        for (double x = 0; x < area.size.width; x += cell)
          {
            PgsHit hit;

            if (!pgs_map_hit_test (shown, x + cell / 2, y + cell / 2, &hit) || !hit.valid ||
                hit.is_frame)
              continue;
            if (pgs_wss_sample_lookup_page (self->sample, hit.address) & PGS_WSS_PAGE_ACCESSED)
              cairo_rectangle (cr, x + cell / 2 - 0.75, y + cell / 2 - 0.75, 1.5, 1.5);
          }
      cairo_fill (cr);
      cairo_destroy (cr);
      self->node = gtk_snapshot_free_to_node (g_steal_pointer (&marks));
    }
  if (self->node != NULL)
    gtk_snapshot_append_node (snapshot, self->node);
}

static void
overlay_iface_init (PgsMapOverlayInterface *iface)
{
  iface->snapshot = marks_snapshot;
}

static void
pgs_map_marks_finalize (GObject *object)
{
  PgsMapMarks *self = PGS_MAP_MARKS (object);

  g_clear_pointer (&self->node, gsk_render_node_unref);
  g_clear_pointer (&self->sample, pgs_wss_sample_unref);
  G_OBJECT_CLASS (pgs_map_marks_parent_class)->finalize (object);
}

static void
pgs_map_marks_class_init (PgsMapMarksClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = pgs_map_marks_finalize;
}

static void
pgs_map_marks_init (PgsMapMarks *self)
{
}

PgsMapMarks *
pgs_map_marks_new (void)
{
  return g_object_new (PGS_TYPE_MAP_MARKS, NULL);
}

gboolean
pgs_map_marks_set_sample (PgsMapMarks  *self,
                          PgsWssSample *sample)
{
  g_return_val_if_fail (PGS_IS_MAP_MARKS (self), FALSE);

  if (sample == self->sample)
    return FALSE;
  if (sample != NULL)
    pgs_wss_sample_ref (sample);
  g_clear_pointer (&self->sample, pgs_wss_sample_unref);
  self->sample = sample;
  pgs_map_marks_reset (self);
  return TRUE;
}

PgsWssSample *
pgs_map_marks_get_sample (PgsMapMarks *self)
{
  g_return_val_if_fail (PGS_IS_MAP_MARKS (self), NULL);
  return self->sample;
}

void
pgs_map_marks_reset (PgsMapMarks *self)
{
  g_return_if_fail (PGS_IS_MAP_MARKS (self));
  g_clear_pointer (&self->node, gsk_render_node_unref);
}
