/* pgs-map-view-viewport.c: zooming and panning the map view
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * With the mouse (Ctrl+wheel zooms about the pointer, the wheel and a drag pan, a click
 * activates the page), with the keyboard (the map.zoom-* and map.pan actions, arrow keys)
 * and from code (pgs_map_view_set_viewport(), pgs_map_view_zoom_by()).
 */

#include "config.h"

#include <math.h>

#include "pgs-map-view-private.h"

/* Widget coordinates to fractions of the whole map, through the renderer on screen. */
static gboolean
map_point (PgsMapView *self,
           double      x,
           double      y,
           double     *map_x,
           double     *map_y)
{
  int scale = gtk_widget_get_scale_factor (GTK_WIDGET (self));

  if (self->renderer == NULL || !pgs_map_view_params_equal (&self->shown, &self->wanted))
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
  pgs_map_view_invalidate (self);
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
  pgs_map_view_invalidate (self);
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
  /* The clicked cell becomes the focus cell: the keys go on from there. */
  pgs_map_view_focus_at (self, x, y);
  if (pgs_map_view_hit_test (self, x, y, &hit) && hit.valid)
    pgs_map_view_activate_page (self, &hit);
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
  pgs_map_view_invalidate (self);
}

void
pgs_map_view_viewport_class_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "map.zoom-in", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "map.zoom-out", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "map.zoom-reset", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "map.pan", "(dd)", pan_action);

  /* With the map focused Ctrl and the arrow keys pan (the arrows alone move the focus
   * cell); zoom keys are window-wide accelerators. */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Left, GDK_CONTROL_MASK, "map.pan", "(dd)", -0.1, 0.0);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Right, GDK_CONTROL_MASK, "map.pan", "(dd)", 0.1, 0.0);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Up, GDK_CONTROL_MASK, "map.pan", "(dd)", 0.0, -0.1);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Down, GDK_CONTROL_MASK, "map.pan", "(dd)", 0.0, 0.1);
}

void
pgs_map_view_viewport_init (PgsMapView *self)
{
  GtkEventController *controller;
  GtkGesture *drag;

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
  pgs_map_view_invalidate (self);
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
  pgs_map_view_invalidate (self);
}
