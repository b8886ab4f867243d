/* pgs-map-view-fold.c: free memory folded away, on screen
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

#include "pgs-map-view-private.h"

#define MARKER_WIDTH 3.0

/* Marker @index in widget coordinates; FALSE when it is not in view. */
static gboolean
marker_rect (PgsMapView      *self,
             guint            index,
             graphene_rect_t *rect)
{
  int scale = gtk_widget_get_scale_factor (GTK_WIDGET (self));
  graphene_rect_t area;
  double x, y, h;

  if (self->renderer == NULL ||
      !pgs_renderer_get_fold (self->renderer, self->shown.width, self->shown.height, index,
                              NULL, NULL, &x, &y, &h))
    return FALSE;
  x /= scale;
  y /= scale;
  h = MAX (h / scale, 4);
  graphene_rect_init (rect, x - MARKER_WIDTH / 2, y, MARKER_WIDTH, h);
  pgs_map_view_get_map_area (self, &area);
  return graphene_rect_intersection (rect, &area, NULL);
}

int
pgs_map_view_fold_at (PgsMapView *self,
                      double      x,
                      double      y)
{
  guint n;

  if (self->renderer == NULL || !pgs_renderer_get_hide_free (self->renderer))
    return -1;
  n = pgs_renderer_get_n_folds (self->renderer);
  for (guint i = 0; i < n; i++)
    {
      graphene_rect_t rect;

      /* A pixel of slack each side: the bar is thin. */
      if (marker_rect (self, i, &rect) &&
          x >= rect.origin.x - 1 && x < rect.origin.x + rect.size.width + 1 &&
          y >= rect.origin.y && y < rect.origin.y + rect.size.height)
        return i;
    }
  return -1;
}

char *
pgs_map_view_describe_fold (PgsMapView *self,
                            guint       index)
{
  guint64 first = 0, n = 0;
  g_autofree char *size = NULL;
  g_autofree char *from = NULL;
  g_autofree char *to = NULL;
  g_autofree char *count = NULL;

  g_return_val_if_fail (PGS_IS_MAP_VIEW (self), NULL);

  if (self->renderer == NULL ||
      !pgs_renderer_get_fold (self->renderer, self->shown.width, self->shown.height, index,
                              &first, &n, NULL, NULL, NULL))
    return NULL;
  size = pgs_units_format (self->units,
                           n * pgs_snapshot_get_page_size (self->shown.snapshot));
  from = pgs_units_format_hex (first);
  to = pgs_units_format_hex (first + n - 1);
  count = pgs_units_format_count (n);
  /* Translators: "12.3 GiB free, hidden (frames 0x1000–0x3fff, 12,288 frames)" */
  return g_strdup_printf (_("%s free, hidden (frames %s–%s, %s frames)"), size, from, to, count);
}

void
pgs_map_view_snapshot_folds (PgsMapView  *self,
                             GtkSnapshot *snapshot)
{
  GdkRGBA magenta = { 1, 0, 1, 1 }, black = { 0, 0, 0, 1 }, white = { 1, 1, 1, 1 };
  guint n;

  if (self->renderer == NULL || !pgs_renderer_get_hide_free (self->renderer))
    return;
  n = pgs_renderer_get_n_folds (self->renderer);
  for (guint i = 0; i < n; i++)
    {
      graphene_rect_t r;

      if (!marker_rect (self, i, &r))
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

char *
pgs_map_view_hidden_note (PgsMapView *self)
{
  guint64 hidden;
  guint n;
  g_autofree char *size = NULL;
  g_autofree char *runs = NULL;

  if (self->renderer == NULL || !pgs_renderer_get_hide_free (self->renderer) ||
      (n = pgs_renderer_get_n_folds (self->renderer)) == 0)
    return NULL;
  hidden = pgs_renderer_get_hidden_frames (self->renderer);
  size = pgs_units_format (self->units, hidden * pgs_snapshot_get_page_size (self->shown.snapshot));
  runs = pgs_units_format_count (n);
  /* Translators: the legend, with "Hide free memory" on: "12.3 GiB of free memory is
   * hidden, in 7 runs marked in magenta; the counts above include it." */
  return g_strdup_printf (ngettext ("%s of free memory is hidden, in %s run marked in magenta; "
                                    "the counts above include it.",
                                    "%s of free memory is hidden, in %s runs marked in magenta; "
                                    "the counts above include it.", n),
                          size, runs);
}

void
pgs_map_view_set_hide_free (PgsMapView *self,
                            gboolean    hide_free)
{
  g_return_if_fail (PGS_IS_MAP_VIEW (self));

  hide_free = !!hide_free;
  if (self->wanted.hide_free == hide_free)
    return;
  self->wanted.hide_free = hide_free;
  pgs_map_view_invalidate (self);
}
