/* pgs-map-input.c: what the pointer, the wheel and the keys do to a map
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Ctrl+wheel zooms about the pointer, the wheel and a drag pan, a click makes the cell the
 * focus cell and activates its page; the map.* actions zoom, pan (Ctrl+arrows) and move
 * the focus cell (arrows, Home, End, Page Up and Down, Enter). It moves the viewport, the
 * hover point and the focus cell, and says so: ::changed (what the status line reads may
 * differ), ::activate (a page was clicked or Enter pressed on it).
 */

#include "config.h"

#include <math.h>

#include "pgs-map-input.h"

#define ZOOM_STEP 1.25

struct _PgsMapInput
{
  GObject         parent_instance;
  GtkWidget      *widget;      /* not owned: it owns this */
  PgsMapCanvas   *canvas;
  PgsMapViewport *viewport;
  PgsMapHover    *hover;
  PgsMapFocus    *focus;

  /* drag */
  double          drag_center_x;
  double          drag_center_y;
  double          drag_scale_x;
  double          drag_scale_y;
  gboolean        dragged;
};

enum {
  CHANGED,
  ACTIVATE,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (PgsMapInput, pgs_map_input, G_TYPE_OBJECT)

/* Widget coordinates to fractions of the whole map, through the pixels on screen. */
static gboolean
map_point (PgsMapInput *self,
           double       x,
           double       y,
           double      *map_x,
           double      *map_y)
{
  PgsMapShown shown;

  pgs_map_canvas_fill_shown (self->canvas, self->widget, &shown);
  return shown.ready && pgs_map_from_widget (&shown, x, y, map_x, map_y);
}

static gboolean
on_scroll (GtkEventControllerScroll *controller,
           double                    dx,
           double                    dy,
           PgsMapInput              *self)
{
  GdkModifierType state =
    gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (controller));
  double x = -1, y = -1;

  if (state & GDK_CONTROL_MASK)
    {
      if (!pgs_map_hover_get_point (self->hover, &x, &y))
        x = y = -1;
      pgs_map_input_zoom_by (self, dy < 0 ? ZOOM_STEP : 1.0 / ZOOM_STEP, x, y);
      return TRUE;
    }
  if (pgs_map_viewport_get_zoom (self->viewport) <= 1.0)
    return FALSE;   /* nothing to pan: let an enclosing scroller have it */
  if (state & GDK_SHIFT_MASK)
    {
      dx = dy;
      dy = 0;
    }
  /* One scroll step moves a tenth of what is visible. */
  pgs_map_viewport_pan (self->viewport, dx * 0.1, dy * 0.1);
  return TRUE;
}

static void
on_drag_begin (GtkGestureDrag *gesture,
               double          x,
               double          y,
               PgsMapInput    *self)
{
  graphene_rect_t area;
  double x0, y0, x1, y1, zoom = pgs_map_viewport_get_zoom (self->viewport);

  self->drag_center_x = pgs_map_viewport_get_center_x (self->viewport);
  self->drag_center_y = pgs_map_viewport_get_center_y (self->viewport);
  self->dragged = FALSE;

  /* How much of the map one pixel is, measured once: the drag then moves the map with the
   * pointer whatever the margins and aspect. Fall back to a map that fills the area. */
  graphene_rect_init (&area, 0, 0, MAX (1, gtk_widget_get_width (self->widget)),
                      MAX (1, gtk_widget_get_height (self->widget)));
  if (map_point (self, area.size.width / 2, area.size.height / 2, &x0, &y0) &&
      map_point (self, area.size.width / 2 + 1, area.size.height / 2 + 1, &x1, &y1) &&
      x1 > x0 && y1 > y0)
    {
      self->drag_scale_x = x1 - x0;
      self->drag_scale_y = y1 - y0;
    }
  else
    {
      self->drag_scale_x = 1.0 / (area.size.width * zoom);
      self->drag_scale_y = 1.0 / (area.size.height * zoom);
    }
}

static void
on_drag_update (GtkGestureDrag *gesture,
                double          dx,
                double          dy,
                PgsMapInput    *self)
{
  double zoom = pgs_map_viewport_get_zoom (self->viewport);

  if (!self->dragged && fabs (dx) < 4 && fabs (dy) < 4)
    return;   /* still a click */
  self->dragged = TRUE;
  if (zoom <= 1.0)
    return;
  gtk_widget_set_cursor_from_name (self->widget, "grabbing");
  pgs_map_viewport_set (self->viewport, zoom, self->drag_center_x - dx * self->drag_scale_x,
                        self->drag_center_y - dy * self->drag_scale_y);
}

static void
activate_at (PgsMapInput *self,
             double       x,
             double       y)
{
  PgsMapShown shown;
  PgsHit hit;

  pgs_map_canvas_fill_shown (self->canvas, self->widget, &shown);
  if (pgs_map_hit_test (&shown, x, y, &hit) && hit.valid)
    g_signal_emit (self, signals[ACTIVATE], 0, &hit);
}

static void
on_drag_end (GtkGestureDrag *gesture,
             double          dx,
             double          dy,
             PgsMapInput    *self)
{
  PgsMapShown shown;
  double x, y;

  gtk_widget_set_cursor (self->widget, NULL);
  if (self->dragged)
    return;

  gtk_gesture_drag_get_start_point (gesture, &x, &y);
  gtk_widget_grab_focus (self->widget);
  /* The clicked cell becomes the focus cell: the keys go on from there. */
  pgs_map_canvas_fill_shown (self->canvas, self->widget, &shown);
  pgs_map_focus_at (self->focus, &shown, x, y);
  g_signal_emit (self, signals[CHANGED], 0);
  activate_at (self, x, y);
}

static void
on_motion (GtkEventControllerMotion *controller,
           double                    x,
           double                    y,
           PgsMapInput              *self)
{
  pgs_map_hover_set_point (self->hover, TRUE, x, y);
  g_signal_emit (self, signals[CHANGED], 0);
}

static void
on_leave (GtkEventControllerMotion *controller,
          PgsMapInput              *self)
{
  pgs_map_hover_set_point (self->hover, FALSE, 0, 0);
  g_signal_emit (self, signals[CHANGED], 0);
}

static void
on_has_focus (PgsMapInput *self)
{
  PgsMapShown shown;

  /* Tabbing into the map puts the focus on a cell at once, so the status line reads one. */
  pgs_map_canvas_fill_shown (self->canvas, self->widget, &shown);
  if (shown.focused && !pgs_map_focus_get_cell (self->focus, NULL, NULL, NULL) &&
      shown.renderer != NULL)
    pgs_map_focus_end (self->focus, &shown, FALSE);
  g_signal_emit (self, signals[CHANGED], 0);
}

/* Runs map.zoom-in, -out, -reset, map.pan and map.focus-*. */
static void
activate_action (PgsMapInput *self,
                 const char  *action_name,
                 GVariant    *parameter)
{
  PgsMapShown shown;
  double x, y;

  g_return_if_fail (PGS_IS_MAP_INPUT (self));

  if (g_str_equal (action_name, "map.zoom-in"))
    pgs_map_input_zoom_by (self, ZOOM_STEP * ZOOM_STEP, -1, -1);
  else if (g_str_equal (action_name, "map.zoom-out"))
    pgs_map_input_zoom_by (self, 1.0 / (ZOOM_STEP * ZOOM_STEP), -1, -1);
  else if (g_str_equal (action_name, "map.zoom-reset"))
    pgs_map_viewport_set (self->viewport, 1.0, 0.5, 0.5);
  else if (g_str_equal (action_name, "map.pan"))
    {
      double dx, dy;

      g_variant_get (parameter, "(dd)", &dx, &dy);
      pgs_map_viewport_pan (self->viewport, dx, dy);
    }
  if (!g_str_has_prefix (action_name, "map.focus-"))
    return;

  pgs_map_canvas_fill_shown (self->canvas, self->widget, &shown);
  if (g_str_equal (action_name, "map.focus-move"))
    {
      int dx, dy;

      g_variant_get (parameter, "(ii)", &dx, &dy);
      pgs_map_focus_move (self->focus, &shown, PGS_MAP_FOCUS_CELL, CLAMP (dx, -1, 1),
                          CLAMP (dy, -1, 1));
    }
  else if (g_str_equal (action_name, "map.focus-screen"))
    pgs_map_focus_move (self->focus, &shown, PGS_MAP_FOCUS_SCREEN, 0,
                        g_variant_get_int32 (parameter) < 0 ? -1 : 1);
  else if (g_str_equal (action_name, "map.focus-first"))
    pgs_map_focus_move (self->focus, &shown, PGS_MAP_FOCUS_HOME, 0, 0);
  else if (g_str_equal (action_name, "map.focus-last"))
    pgs_map_focus_move (self->focus, &shown, PGS_MAP_FOCUS_END, 0, 0);
  else if (pgs_map_focus_get_cell (self->focus, NULL, &x, &y) && pgs_map_inside (&shown, x, y))
    activate_at (self, x, y);
  g_signal_emit (self, signals[CHANGED], 0);
}

void
pgs_map_input_zoom_by (PgsMapInput *self,
                       double       factor,
                       double       x,
                       double       y)
{
  double mx = -1, my = -1;

  g_return_if_fail (PGS_IS_MAP_INPUT (self));

  /* The renderer knows its own geometry (margins, aspect): it says what is under (x, y). */
  if (x < 0 || y < 0 || !map_point (self, x, y, &mx, &my))
    mx = my = -1;
  pgs_map_viewport_zoom_by (self->viewport, factor, mx, my);
}

/* ---- keys: map.zoom-*, map.pan (Ctrl+arrows) and map.focus-* (arrows, Home, End, Page
 * Up and Down, Enter) ---- */

/* The input a widget's actions run on: the one pgs_map_input_new() gave it. */
static GQuark
input_quark (void)
{
  return g_quark_from_static_string ("pgs-map-input");
}

static void
map_action (GtkWidget  *widget,
            const char *action_name,
            GVariant   *parameter)
{
  PgsMapInput *self = g_object_get_qdata (G_OBJECT (widget), input_quark ());

  if (self != NULL)
    activate_action (self, action_name, parameter);
}

void
pgs_map_input_add_keys (GtkWidgetClass *widget_class)
{
  struct { guint key; int dx, dy; } arrows[] = {
    { GDK_KEY_Left, -1, 0 }, { GDK_KEY_Right, 1, 0 }, { GDK_KEY_Up, 0, -1 },
    { GDK_KEY_Down, 0, 1 }, { GDK_KEY_KP_Left, -1, 0 }, { GDK_KEY_KP_Right, 1, 0 },
    { GDK_KEY_KP_Up, 0, -1 }, { GDK_KEY_KP_Down, 0, 1 },
  };
  const char *zoom[] = { "map.zoom-in", "map.zoom-out", "map.zoom-reset" };
  const char *focus[] = { "map.focus-first", "map.focus-last", "map.focus-activate" };

  for (guint i = 0; i < G_N_ELEMENTS (zoom); i++)
    gtk_widget_class_install_action (widget_class, zoom[i], NULL, map_action);
  gtk_widget_class_install_action (widget_class, "map.pan", "(dd)", map_action);
  gtk_widget_class_install_action (widget_class, "map.focus-move", "(ii)", map_action);
  gtk_widget_class_install_action (widget_class, "map.focus-screen", "i", map_action);
  for (guint i = 0; i < G_N_ELEMENTS (focus); i++)
    gtk_widget_class_install_action (widget_class, focus[i], NULL, map_action);

  /* With the map focused Ctrl and the arrow keys pan (the arrows alone move the focus
   * cell); zoom keys are window-wide accelerators. */
  for (guint i = 0; i < 4; i++)
    gtk_widget_class_add_binding_action (widget_class, arrows[i].key, GDK_CONTROL_MASK, "map.pan",
                                         "(dd)", arrows[i].dx * 0.1, arrows[i].dy * 0.1);
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
pgs_map_input_dispose (GObject *object)
{
  PgsMapInput *self = PGS_MAP_INPUT (object);

  if (self->widget != NULL &&
      g_object_get_qdata (G_OBJECT (self->widget), input_quark ()) == self)
    g_object_set_qdata (G_OBJECT (self->widget), input_quark (), NULL);
  g_clear_object (&self->canvas);
  g_clear_object (&self->viewport);
  g_clear_object (&self->hover);
  g_clear_object (&self->focus);
  G_OBJECT_CLASS (pgs_map_input_parent_class)->dispose (object);
}

static void
pgs_map_input_class_init (PgsMapInputClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = pgs_map_input_dispose;

  signals[CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                   0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  /**
   * PgsMapInput::activate:
   * @hit: (type gpointer): the PgsHit clicked, or under the focus cell
   */
  signals[ACTIVATE] = g_signal_new ("activate", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                    0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_POINTER);
}

static void
pgs_map_input_init (PgsMapInput *self)
{
}

PgsMapInput *
pgs_map_input_new (GtkWidget      *widget,
                   PgsMapCanvas   *canvas,
                   PgsMapViewport *viewport,
                   PgsMapHover    *hover,
                   PgsMapFocus    *focus)
{
  PgsMapInput *self = g_object_new (PGS_TYPE_MAP_INPUT, NULL);
  GtkEventController *controller;
  GtkGesture *drag;

  self->widget = widget;
  self->canvas = g_object_ref (canvas);
  self->viewport = g_object_ref (viewport);
  self->hover = g_object_ref (hover);
  self->focus = g_object_ref (focus);
  g_object_set_qdata (G_OBJECT (widget), input_quark (), self);

  g_signal_connect_object (widget, "notify::has-focus", G_CALLBACK (on_has_focus), self,
                           G_CONNECT_SWAPPED);
  controller = gtk_event_controller_motion_new ();
  g_signal_connect_object (controller, "motion", G_CALLBACK (on_motion), self, 0);
  g_signal_connect_object (controller, "leave", G_CALLBACK (on_leave), self, 0);
  gtk_widget_add_controller (widget, controller);
  controller = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES |
                                                GTK_EVENT_CONTROLLER_SCROLL_DISCRETE);
  g_signal_connect_object (controller, "scroll", G_CALLBACK (on_scroll), self, 0);
  gtk_widget_add_controller (widget, controller);
  drag = gtk_gesture_drag_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (drag), GDK_BUTTON_PRIMARY);
  g_signal_connect_object (drag, "drag-begin", G_CALLBACK (on_drag_begin), self, 0);
  g_signal_connect_object (drag, "drag-update", G_CALLBACK (on_drag_update), self, 0);
  g_signal_connect_object (drag, "drag-end", G_CALLBACK (on_drag_end), self, 0);
  gtk_widget_add_controller (widget, GTK_EVENT_CONTROLLER (drag));
  return self;
}
