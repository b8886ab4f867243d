/* pgs-map-folds.c: where free memory was folded out of a physical map
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * With "Hide free memory" the renderer cuts long runs of free frames out of the physical
 * maps (pgs-render-fold.c). Where each run was, a marker: a bar between the cells before
 * and after it, in a colour no legend entry uses (magenta, edged in black and white so it
 * shows on any cell), with a tooltip saying how much is hidden there. The legend says how
 * much is hidden in all.
 */

#include "config.h"

#include <glib/gi18n.h>

#include "pgs-map-folds.h"

#define MARKER_WIDTH 3.0

struct _PgsMapFolds
{
  GObject parent_instance;
};

static void overlay_iface_init (PgsMapOverlayInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (PgsMapFolds, pgs_map_folds, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (PGS_TYPE_MAP_OVERLAY, overlay_iface_init))

/* Marker @index in widget coordinates; FALSE when it is not in view. */
static gboolean
marker_rect (const PgsMapShown *shown,
             guint              index,
             graphene_rect_t   *rect)
{
  graphene_rect_t area;
  double x, y, h;

  if (shown->renderer == NULL ||
      !pgs_renderer_get_fold (shown->renderer, shown->width, shown->height, index,
                              NULL, NULL, &x, &y, &h))
    return FALSE;
  x /= shown->scale;
  y /= shown->scale;
  h = MAX (h / shown->scale, 4);
  graphene_rect_init (rect, x - MARKER_WIDTH / 2, y, MARKER_WIDTH, h);
  graphene_rect_init (&area, 0, 0, shown->area_width, shown->area_height);
  return graphene_rect_intersection (rect, &area, NULL);
}

static guint
n_markers (const PgsMapShown *shown)
{
  if (shown->renderer == NULL || !pgs_renderer_get_hide_free (shown->renderer))
    return 0;
  return pgs_renderer_get_n_folds (shown->renderer);
}

int
pgs_map_folds_at (PgsMapFolds       *self,
                  const PgsMapShown *shown,
                  double             x,
                  double             y)
{
  guint n = n_markers (shown);

  for (guint i = 0; i < n; i++)
    {
      graphene_rect_t rect;

      /* A pixel of slack each side: the bar is thin. */
      if (marker_rect (shown, i, &rect) &&
          x >= rect.origin.x - 1 && x < rect.origin.x + rect.size.width + 1 &&
          y >= rect.origin.y && y < rect.origin.y + rect.size.height)
        return i;
    }
  return -1;
}

char *
pgs_map_folds_describe (PgsMapFolds       *self,
                        const PgsMapShown *shown,
                        guint              index,
                        PgsUnits           units)
{
  guint64 first = 0, n = 0;
  g_autofree char *size = NULL;
  g_autofree char *from = NULL;
  g_autofree char *to = NULL;
  g_autofree char *count = NULL;

  if (shown->renderer == NULL ||
      !pgs_renderer_get_fold (shown->renderer, shown->width, shown->height, index,
                              &first, &n, NULL, NULL, NULL))
    return NULL;
  size = pgs_units_format (units, n * pgs_snapshot_get_page_size (
                                        pgs_renderer_get_snapshot (shown->renderer)));
  from = pgs_units_format_hex (first);
  to = pgs_units_format_hex (first + n - 1);
  count = pgs_units_format_count (n);
  /* Translators: "12.3 GiB free, hidden (frames 0x1000–0x3fff, 12,288 frames)" */
  return g_strdup_printf (_("%s free, hidden (frames %s–%s, %s frames)"), size, from, to, count);
}

static void
folds_snapshot (PgsMapOverlay     *overlay,
                GtkSnapshot       *snapshot,
                const PgsMapShown *shown)
{
  GdkRGBA magenta = { 1, 0, 1, 1 }, black = { 0, 0, 0, 1 }, white = { 1, 1, 1, 1 };
  guint n = n_markers (shown);

  for (guint i = 0; i < n; i++)
    {
      graphene_rect_t r;

      if (!marker_rect (shown, i, &r))
        continue;
      gtk_snapshot_append_color (snapshot, &white,
                                 &GRAPHENE_RECT_INIT (r.origin.x - 1, r.origin.y,
                                                      r.size.width + 2, r.size.height));
      gtk_snapshot_append_color (snapshot, &black,
                                 &GRAPHENE_RECT_INIT (r.origin.x - 0.5, r.origin.y,
                                                      r.size.width + 1, r.size.height));
      gtk_snapshot_append_color (snapshot, &magenta, &r);
    }
}

static void
overlay_iface_init (PgsMapOverlayInterface *iface)
{
  iface->snapshot = folds_snapshot;
}

static void
pgs_map_folds_class_init (PgsMapFoldsClass *klass)
{
}

static void
pgs_map_folds_init (PgsMapFolds *self)
{
}

PgsMapFolds *
pgs_map_folds_new (void)
{
  return g_object_new (PGS_TYPE_MAP_FOLDS, NULL);
}
