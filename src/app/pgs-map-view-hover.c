/* pgs-map-view-hover.c: what is under the pointer
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The hit test (one for hover, tooltip, click and tests alike), the outline drawn round the
 * hovered cell, the tooltip, and the words that describe a hit.
 */

#include "config.h"

#include <math.h>

#include <glib/gi18n.h>

#include "pgs-kpage.h"
#include "pgs-map-view-private.h"
#include "pgs-pagemap.h"

gboolean
pgs_map_view_same_cell (const PgsHit *a,
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
      if (!pgs_map_view_hit_test (self, px, py, &other) || !pgs_map_view_same_cell (hit, &other))
        break;
      reach = step * i;
    }
  return reach;
}

void
pgs_map_view_cell_bounds (PgsMapView      *self,
                          const PgsHit    *hit,
                          double           x,
                          double           y,
                          graphene_rect_t *bounds)
{
  double step = 1.0 / gtk_widget_get_scale_factor (GTK_WIDGET (self));
  double x0 = x - cell_reach (self, hit, x, y, -1, 0, step);
  double x1 = x + cell_reach (self, hit, x, y, 1, 0, step);
  double y0 = y - cell_reach (self, hit, x, y, 0, -1, step);
  double y1 = y + cell_reach (self, hit, x, y, 0, 1, step);

  graphene_rect_init (bounds, x0, y0, x1 - x0, y1 - y0);
}

void
pgs_map_view_snapshot_hover (PgsMapView  *self,
                             GtkSnapshot *snapshot)
{
  PgsHit hit;
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

  pgs_map_view_cell_bounds (self, &hit, self->hover_x, self->hover_y, &rect);
  x0 = rect.origin.x;
  y0 = rect.origin.y;
  x1 = x0 + rect.size.width;
  y1 = y0 + rect.size.height;

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

static void
on_motion (GtkEventControllerMotion *controller,
           double                    x,
           double                    y,
           PgsMapView               *self)
{
  self->hovering = TRUE;
  self->hover_x = x;
  self->hover_y = y;
  pgs_map_view_update_status (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
on_leave (GtkEventControllerMotion *controller,
          PgsMapView               *self)
{
  self->hovering = FALSE;
  pgs_map_view_update_status (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
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

  int fold;

  if (keyboard)
    return FALSE;
  if ((fold = pgs_map_view_fold_at (self, x, y)) >= 0)
    text = pgs_map_view_describe_fold (self, fold);
  else if (pgs_map_view_hit_test (self, x, y, &hit) && hit.valid)
    text = pgs_map_view_describe_hit (self, &hit);
  else
    return FALSE;
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

void
pgs_map_view_hover_init (PgsMapView *self)
{
  GtkEventController *controller;

  g_signal_connect (self, "query-tooltip", G_CALLBACK (on_query_tooltip), NULL);

  controller = gtk_event_controller_motion_new ();
  g_signal_connect (controller, "motion", G_CALLBACK (on_motion), self);
  g_signal_connect (controller, "leave", G_CALLBACK (on_leave), self);
  gtk_widget_add_controller (GTK_WIDGET (self), controller);
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

  /* First what the colour means, in the legend's own words, then the numbers. */
  if (self->renderer != NULL && hit->legend_index < pgs_renderer_get_n_legend_items (self->renderer))
    {
      const char *category = NULL;

      pgs_renderer_get_legend_item (self->renderer, hit->legend_index, NULL, &category, NULL);
      if (category != NULL)
        g_string_append (text, category);
    }

  /* The latest process: a hit carried over a refresh was looked up in it. */
  if (!hit->is_frame && self->wanted.process != NULL)
    {
      guint64 start = 0, offset = 0, page_size = pgs_snapshot_get_page_size (self->wanted.snapshot);
      const char *label = mapping_label (self->wanted.process, hit->mapping, &start, &offset);

      g_autofree char *address = pgs_units_format_hex (hit->address);

      g_string_append_c (text, '\n');
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
