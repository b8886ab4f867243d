/* pgs-map-view-focus.c: reading the map from the keyboard
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A focus cell that the arrow keys move one cell at a time (Home and End to the first and
 * last cell, Page Up and Page Down by a screen, Enter does what a click does), drawn with a
 * ring of its own, and the status line: the words of the tooltip for the hovered cell, or
 * for the focus cell when the pointer is elsewhere, so keyboard and screen-reader users
 * read what the mouse shows. Moves go through the same hit test as hover and click; the
 * focus cell is kept by its frame or address, not by a pixel, so a refresh, a pan or a
 * resize finds it again.
 */

#include "config.h"

#include <math.h>

#include <glib/gi18n.h>

#include "pgs-map-view-private.h"

typedef enum
{
  MOVE_CELL,    /* (dx, dy) cells */
  MOVE_SCREEN,  /* dy screens */
  MOVE_HOME,
  MOVE_END,
} MoveKind;

static double
pixel_step (PgsMapView *self)
{
  return 1.0 / gtk_widget_get_scale_factor (GTK_WIDGET (self));
}

/* Where the renderer on screen puts map fractions (mx, my), in widget coordinates. */
static gboolean
map_to_widget (PgsMapView *self,
               double      mx,
               double      my,
               double     *x,
               double     *y)
{
  int scale = gtk_widget_get_scale_factor (GTK_WIDGET (self));

  if (self->renderer == NULL ||
      !pgs_renderer_map_to_pixel (self->renderer, self->shown.width, self->shown.height,
                                  mx, my, x, y))
    return FALSE;
  *x /= scale;
  *y /= scale;
  return TRUE;
}

static gboolean
inside_area (PgsMapView *self,
             double      x,
             double      y)
{
  graphene_rect_t area;

  pgs_map_view_get_map_area (self, &area);
  return x >= 0 && y >= 0 && x < area.size.width && y < area.size.height;
}

/* Makes @hit, found at (x, y), the focus cell, its point the middle of its block. */
static void
set_focus_hit (PgsMapView   *self,
               const PgsHit *hit,
               double        x,
               double        y)
{
  int scale = gtk_widget_get_scale_factor (GTK_WIDGET (self));
  double mx, my, cx, cy;
  PgsHit check;

  self->focus_valid = TRUE;
  self->focus_hit = *hit;
  self->focus_x = x;
  self->focus_y = y;
  /* The middle, so the next move starts from the cell and not from its edge; only where
   * the hit test agrees it is the same cell (an aggregated block may show another page). */
  if (pgs_renderer_locate (self->renderer, self->shown.width, self->shown.height, hit, &mx, &my) &&
      map_to_widget (self, mx, my, &cx, &cy) && inside_area (self, cx, cy) &&
      pgs_map_view_hit_test (self, cx, cy, &check) && pgs_map_view_same_cell (hit, &check))
    {
      self->focus_x = floor (cx * scale) / scale + 0.5 / scale;
      self->focus_y = floor (cy * scale) / scale + 0.5 / scale;
    }
  pgs_map_view_update_status (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

gboolean
pgs_map_view_focus_at (PgsMapView *self,
                       double      x,
                       double      y)
{
  PgsHit hit;

  if (!inside_area (self, x, y) || !pgs_map_view_hit_test (self, x, y, &hit) || !hit.valid)
    return FALSE;
  set_focus_hit (self, &hit, x, y);
  return TRUE;
}

/* The first cell of the map (or the last): its top left (bottom right) block, then along
 * its row towards the other end, for a last row that stops short. */
static gboolean
focus_end (PgsMapView *self,
           gboolean    last)
{
  double x0, y0, x1, y1, step = pixel_step (self);

  if (!map_to_widget (self, 0, 0, &x0, &y0) || !map_to_widget (self, 1, 1, &x1, &y1))
    return FALSE;
  if (!last)
    return pgs_map_view_focus_at (self, x0 + step / 2, y0 + step / 2);
  for (double y = y1 - step / 2; y >= y0; y -= step)
    {
      for (double x = x1 - step / 2; x >= x0; x -= step)
        if (pgs_map_view_focus_at (self, x, y))
          return TRUE;
    }
  return FALSE;
}

/* Pans so that widget point (x, y), outside the area, comes into view, and moves the focus
 * there once the new pixels are on screen. */
static void
pan_to (PgsMapView *self,
        double      x,
        double      y)
{
  graphene_rect_t area;
  int scale = gtk_widget_get_scale_factor (GTK_WIDGET (self));
  double mx, my, cx, cy;

  if (self->wanted.zoom <= 1.0 || self->renderer == NULL)
    return;
  pgs_map_view_get_map_area (self, &area);
  if (!pgs_renderer_pixel_to_map (self->renderer, self->shown.width, self->shown.height,
                                  x * scale, y * scale, &mx, &my) ||
      mx < 0 || my < 0 || mx >= 1 || my >= 1)
    return;
  pgs_renderer_pixel_to_map (self->renderer, self->shown.width, self->shown.height,
                             CLAMP (x, 0, area.size.width - 1) * scale,
                             CLAMP (y, 0, area.size.height - 1) * scale, &cx, &cy);
  self->focus_pending = TRUE;
  self->pending_x = mx;
  self->pending_y = my;
  pgs_map_view_set_viewport (self, self->wanted.zoom,
                             self->wanted.center_x + (mx - cx),
                             self->wanted.center_y + (my - cy));
}

static void
move_focus (PgsMapView *self,
            MoveKind    kind,
            int         dx,
            int         dy)
{
  graphene_rect_t cell, area;
  double step = pixel_step (self), x, y;

  if (self->renderer == NULL || !pgs_map_view_is_ready (self))
    return;   /* a pan or refresh on its way: its pixels decide where the focus lands */

  if (kind == MOVE_HOME || kind == MOVE_END ||
      !self->focus_valid || !inside_area (self, self->focus_x, self->focus_y))
    {
      if (kind == MOVE_END)
        {
          if (self->wanted.zoom > 1.0)
            pgs_map_view_set_viewport (self, 1.0, 0.5, 0.5);
          if (!pgs_map_view_is_ready (self))
            {
              self->focus_pending = TRUE;
              self->pending_x = self->pending_y = -1;   /* the last cell */
              return;
            }
        }
      if (kind == MOVE_HOME && self->wanted.zoom > 1.0)
        {
          self->focus_pending = TRUE;
          self->pending_x = self->pending_y = 0;
          pgs_map_view_set_viewport (self, self->wanted.zoom, 0, 0);
          if (!pgs_map_view_is_ready (self))
            return;
          self->focus_pending = FALSE;
        }
      focus_end (self, kind == MOVE_END);
      return;
    }

  pgs_map_view_cell_bounds (self, &self->focus_hit, self->focus_x, self->focus_y, &cell);
  pgs_map_view_get_map_area (self, &area);
  x = self->focus_x;
  y = self->focus_y;
  if (kind == MOVE_SCREEN)
    y += dy * area.size.height;
  else if (dx > 0)
    x = cell.origin.x + cell.size.width + step;
  else if (dx < 0)
    x = cell.origin.x - step;
  else if (dy > 0)
    y = cell.origin.y + cell.size.height + step;
  else if (dy < 0)
    y = cell.origin.y - step;

  if (kind == MOVE_SCREEN && !inside_area (self, x, y) && self->wanted.zoom <= 1.0)
    {
      /* Unzoomed, a screen is the whole map: go to its first or last row. */
      focus_end (self, dy > 0);
      return;
    }
  if (!inside_area (self, x, y))
    {
      pan_to (self, x, y);
      return;
    }
  if (pgs_map_view_focus_at (self, x, y))
    return;

  /* Off the end of a row (or into the margin): on to the next row, or back to the last. */
  if (dx != 0)
    {
      double x0, y0, x1, y1;

      if (!map_to_widget (self, 0, 0, &x0, &y0) || !map_to_widget (self, 1, 1, &x1, &y1))
        return;
      if (dx > 0)
        {
          x = MAX (x0, 0) + step / 2;
          y = cell.origin.y + cell.size.height + step;
        }
      else
        {
          x = MIN (x1, area.size.width) - step / 2;
          y = cell.origin.y - step;
        }
      if (inside_area (self, x, y))
        {
          /* A last row that stops short: walk back to its last cell. */
          for (; x >= 0 && x < area.size.width; x -= step)
            if (pgs_map_view_focus_at (self, x, y) || dx > 0)
              return;
        }
    }
}

static void
focus_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *parameter)
{
  PgsMapView *self = PGS_MAP_VIEW (widget);

  if (g_str_equal (action_name, "map.focus-move"))
    {
      int dx, dy;

      g_variant_get (parameter, "(ii)", &dx, &dy);
      move_focus (self, MOVE_CELL, CLAMP (dx, -1, 1), CLAMP (dy, -1, 1));
    }
  else if (g_str_equal (action_name, "map.focus-screen"))
    move_focus (self, MOVE_SCREEN, 0, g_variant_get_int32 (parameter) < 0 ? -1 : 1);
  else if (g_str_equal (action_name, "map.focus-first"))
    move_focus (self, MOVE_HOME, 0, 0);
  else if (g_str_equal (action_name, "map.focus-last"))
    move_focus (self, MOVE_END, 0, 0);
  else if (g_str_equal (action_name, "map.focus-activate"))
    {
      PgsHit hit;

      if (self->focus_valid && inside_area (self, self->focus_x, self->focus_y) &&
          pgs_map_view_hit_test (self, self->focus_x, self->focus_y, &hit) && hit.valid)
        pgs_map_view_activate_page (self, &hit);
    }
}

void
pgs_map_view_focus_class_init (GtkWidgetClass *widget_class)
{
  struct { guint key; int dx, dy; } arrows[] = {
    { GDK_KEY_Left, -1, 0 }, { GDK_KEY_Right, 1, 0 }, { GDK_KEY_Up, 0, -1 },
    { GDK_KEY_Down, 0, 1 }, { GDK_KEY_KP_Left, -1, 0 }, { GDK_KEY_KP_Right, 1, 0 },
    { GDK_KEY_KP_Up, 0, -1 }, { GDK_KEY_KP_Down, 0, 1 },
  };

  gtk_widget_class_install_action (widget_class, "map.focus-move", "(ii)", focus_action);
  gtk_widget_class_install_action (widget_class, "map.focus-screen", "i", focus_action);
  gtk_widget_class_install_action (widget_class, "map.focus-first", NULL, focus_action);
  gtk_widget_class_install_action (widget_class, "map.focus-last", NULL, focus_action);
  gtk_widget_class_install_action (widget_class, "map.focus-activate", NULL, focus_action);

  for (guint i = 0; i < G_N_ELEMENTS (arrows); i++)
    gtk_widget_class_add_binding_action (widget_class, arrows[i].key, 0, "map.focus-move",
                                         "(ii)", arrows[i].dx, arrows[i].dy);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Page_Up, 0, "map.focus-screen", "i", -1);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Page_Down, 0, "map.focus-screen", "i", 1);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Home, 0, "map.focus-first", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_End, 0, "map.focus-last", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Return, 0, "map.focus-activate", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Enter, 0, "map.focus-activate", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_space, 0, "map.focus-activate", NULL);
}

static void
on_has_focus (GObject    *object,
              GParamSpec *pspec,
              gpointer    user_data)
{
  PgsMapView *self = PGS_MAP_VIEW (object);

  /* Tabbing into the map puts the focus on a cell at once, so the status line reads one. */
  if (gtk_widget_has_focus (GTK_WIDGET (self)) && !self->focus_valid && self->renderer != NULL)
    focus_end (self, FALSE);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
pgs_map_view_focus_init (PgsMapView *self)
{
  g_signal_connect (self, "notify::has-focus", G_CALLBACK (on_has_focus), NULL);
  pgs_map_view_update_status (self);
}

void
pgs_map_view_focus_after_render (PgsMapView *self)
{
  double mx, my, x, y;

  if (self->focus_pending && pgs_map_view_is_ready (self))
    {
      self->focus_pending = FALSE;
      if (self->pending_x < 0)
        focus_end (self, TRUE);
      else if (map_to_widget (self, self->pending_x, self->pending_y, &x, &y) &&
               !pgs_map_view_focus_at (self, x, y))
        focus_end (self, self->pending_x > 0.5);
      return;
    }
  if (!self->focus_valid)
    return;

  /* Found again by its frame or address: after a refresh it may be drawn elsewhere, or
   * in another colour, and its numbers have changed. */
  if (pgs_renderer_locate (self->renderer, self->shown.width, self->shown.height,
                           &self->focus_hit, &mx, &my) &&
      map_to_widget (self, mx, my, &x, &y))
    {
      PgsHit hit;

      if (inside_area (self, x, y) && pgs_map_view_hit_test (self, x, y, &hit) && hit.valid)
        {
          /* Keep asking about the same frame or page, with its new numbers. */
          self->focus_x = x;
          self->focus_y = y;
          if (pgs_map_view_same_cell (&hit, &self->focus_hit))
            self->focus_hit = hit;
        }
      else
        {
          /* Scrolled out of view: it stays the focus cell, drawn when it is back. */
          self->focus_x = x;
          self->focus_y = y;
        }
    }
  pgs_map_view_update_status (self);
}

void
pgs_map_view_snapshot_focus (PgsMapView  *self,
                             GtkSnapshot *snapshot)
{
  graphene_rect_t cell, rect;
  GskRoundedRect outline;
  float inner[4] = { 2, 2, 2, 2 };
  float outer[4] = { 2, 2, 2, 2 };
  /* Black inside white, the reverse of the hover outline, and neither a legend colour:
   * the ring cannot be read as a category, and one always contrasts with the cell. */
  GdkRGBA black = { 0, 0, 0, 1 }, white = { 1, 1, 1, 1 };
  GdkRGBA inner_colors[4] = { black, black, black, black };
  GdkRGBA outer_colors[4] = { white, white, white, white };
  double x0, y0, x1, y1;

  if (!self->focus_valid || !gtk_widget_has_focus (GTK_WIDGET (self)) ||
      self->renderer == NULL || !inside_area (self, self->focus_x, self->focus_y))
    return;

  pgs_map_view_cell_bounds (self, &self->focus_hit, self->focus_x, self->focus_y, &cell);
  x0 = floor (cell.origin.x);
  y0 = floor (cell.origin.y);
  x1 = MAX (ceil (cell.origin.x + cell.size.width) + 1, x0 + 2);
  y1 = MAX (ceil (cell.origin.y + cell.size.height) + 1, y0 + 2);

  graphene_rect_init (&rect, x0 - 2, y0 - 2, x1 - x0 + 4, y1 - y0 + 4);
  gsk_rounded_rect_init_from_rect (&outline, &rect, 0);
  gtk_snapshot_append_border (snapshot, &outline, inner, inner_colors);
  graphene_rect_init (&rect, x0 - 4, y0 - 4, x1 - x0 + 8, y1 - y0 + 8);
  gsk_rounded_rect_init_from_rect (&outline, &rect, 0);
  gtk_snapshot_append_border (snapshot, &outline, outer, outer_colors);
}

void
pgs_map_view_update_status (PgsMapView *self)
{
  g_autofree char *text = NULL;
  PgsHit hit;

  int fold = self->hovering ? pgs_map_view_fold_at (self, self->hover_x, self->hover_y) : -1;

  if (fold >= 0)
    text = pgs_map_view_describe_fold (self, fold);
  else if (self->hovering &&
           pgs_map_view_hit_test (self, self->hover_x, self->hover_y, &hit) && hit.valid)
    text = pgs_map_view_describe_hit (self, &hit);
  else if (self->focus_valid && self->renderer != NULL)
    text = pgs_map_view_describe_hit (self, &self->focus_hit);
  else
    text = g_strdup (_("Point at a cell, or focus the map and use the arrow keys, to read it here"));

  /* One line: the tooltip's lines side by side. */
  {
    g_auto(GStrv) lines = g_strsplit (text, "\n", -1);

    g_free (text);
    text = g_strjoinv (" · ", lines);
  }

  if (g_strcmp0 (text, self->status) == 0)
    return;
  g_free (self->status);
  self->status = g_steal_pointer (&text);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                  self->status, -1);
  g_signal_emit_by_name (self, "status-changed");
}

const char *
pgs_map_view_get_status (PgsMapView *self)
{
  g_return_val_if_fail (PGS_IS_MAP_VIEW (self), NULL);
  return self->status;
}

gboolean
pgs_map_view_get_focus_cell (PgsMapView *self,
                             PgsHit     *hit)
{
  g_return_val_if_fail (PGS_IS_MAP_VIEW (self), FALSE);
  g_return_val_if_fail (hit != NULL, FALSE);

  if (!self->focus_valid)
    return FALSE;
  *hit = self->focus_hit;
  return TRUE;
}
