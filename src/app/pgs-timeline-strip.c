/* pgs-timeline-strip.c: the timeline strip on screen, and the pointer and keys on it
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Drawn from a PgsTimelineScene (pgs-timeline-draw.c), which serves the hit test and the
 * tooltip too. A press or a drag moves the replay; Shift+drag chooses the range.
 */

#include "config.h"

#include "pgs-timeline-private.h"

void
_pgs_timeline_fill_scene (PgsTimeline      *self,
                          PgsTimelineScene *scene,
                          int               width,
                          int               height)
{
  GtkStyleContext *context;

  scene->recording = self->recording;
  scene->data = self->data;
  scene->process_name = self->process_name != NULL ? self->process_name : "";
  scene->sample = self->replay != NULL ? pgs_replay_get_sample (self->replay) : G_MAXUINT;
  scene->range_from = 0;
  scene->range_to = G_MAXUINT;
  if (self->dragging_range)
    {
      scene->range_from = self->anchor;
      scene->range_to = self->pointer;
    }
  else if (self->replay != NULL)
    pgs_replay_get_range (self->replay, &scene->range_from, &scene->range_to);
  scene->context = gtk_widget_get_pango_context (GTK_WIDGET (self));
  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  context = gtk_widget_get_style_context (GTK_WIDGET (self));
  gtk_style_context_get_color (context, &scene->fg);
  G_GNUC_END_IGNORE_DEPRECATIONS
  scene->width = width;
  scene->height = height;
  scene->compact = self->compact;
}

gboolean
pgs_timeline_get_sample_x (PgsTimeline *self,
                           guint        sample,
                           double      *x)
{
  PgsTimelineScene scene;

  g_return_val_if_fail (PGS_IS_TIMELINE (self), FALSE);
  _pgs_timeline_fill_scene (self, &scene, gtk_widget_get_width (GTK_WIDGET (self)),
              gtk_widget_get_height (GTK_WIDGET (self)));
  return pgs_timeline_scene_get_sample_x (&scene, sample, x);
}

guint
pgs_timeline_get_sample_at (PgsTimeline *self,
                            double       x)
{
  PgsTimelineScene scene;

  g_return_val_if_fail (PGS_IS_TIMELINE (self), G_MAXUINT);
  _pgs_timeline_fill_scene (self, &scene, gtk_widget_get_width (GTK_WIDGET (self)),
              gtk_widget_get_height (GTK_WIDGET (self)));
  return pgs_timeline_scene_get_sample_at (&scene, x);
}

static void
pgs_timeline_snapshot (GtkWidget   *widget,
                       GtkSnapshot *snapshot)
{
  PgsTimeline *self = PGS_TIMELINE (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  PgsTimelineScene scene;
  PgsTimelinePlot plot;
  cairo_t *cr;

  _pgs_timeline_fill_scene (self, &scene, width, height);
  if (!pgs_timeline_scene_get_plot (&scene, &plot))
    return;
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  pgs_timeline_scene_draw (&scene, cr);
  cairo_destroy (cr);

  if (gtk_widget_has_visible_focus (widget))
    {
      GdkRGBA focus = scene.fg;

      focus.alpha *= 0.5;
      gtk_snapshot_append_border (snapshot,
                                  &GSK_ROUNDED_RECT_INIT (plot.left - 2, plot.top - 2,
                                                          plot.right - plot.left + 4,
                                                          plot.bottom - plot.top + 4),
                                  (float[]) { 1, 1, 1, 1 },
                                  (GdkRGBA[]) { focus, focus, focus, focus });
    }
}

/* The figures under the pointer (the cursor's, from the keyboard), then how to use it. */
static gboolean
pgs_timeline_query_tooltip (GtkWidget  *widget,
                            int         x,
                            int         y,
                            gboolean    keyboard,
                            GtkTooltip *tooltip)
{
  PgsTimelineScene scene;
  g_autofree char *text = NULL;

  _pgs_timeline_fill_scene (PGS_TIMELINE (widget), &scene, gtk_widget_get_width (widget),
                            gtk_widget_get_height (widget));
  text = pgs_timeline_scene_get_tooltip (&scene, keyboard ? -1 : x);
  gtk_tooltip_set_text (tooltip, text);
  return text != NULL;
}

static void
pgs_timeline_measure (GtkWidget      *widget,
                      GtkOrientation  orientation,
                      int             for_size,
                      int            *minimum,
                      int            *natural,
                      int            *minimum_baseline,
                      int            *natural_baseline)
{
  /* Fixed: no height for width, so a narrow window never relays it out in a loop. */
  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      *minimum = 200;
      *natural = 600;
    }
  else
    *minimum = *natural = PGS_TIMELINE (widget)->compact ? PGS_TIMELINE_COMPACT_HEIGHT
                                                                  : PGS_TIMELINE_STRIP_HEIGHT;
}

/* Input: the gesture calls these, with the modifiers held at the press. */

static void
move_to (PgsTimeline *self,
         double       x)
{
  guint sample = pgs_timeline_get_sample_at (self, x);

  if (sample != G_MAXUINT && self->replay != NULL)
    pgs_replay_move_to_sample (self->replay, sample);
}

void
_pgs_timeline_press (PgsTimeline *self,
                     double       x,
                     gboolean     range)
{
  g_return_if_fail (PGS_IS_TIMELINE (self));

  gtk_widget_grab_focus (GTK_WIDGET (self));
  self->dragging_range = range && self->replay != NULL;
  if (self->dragging_range)
    {
      self->anchor = self->pointer = pgs_timeline_get_sample_at (self, x);
      if (self->anchor == G_MAXUINT)
        self->dragging_range = FALSE;
      gtk_widget_queue_draw (GTK_WIDGET (self));
    }
  else
    move_to (self, x);
}

void
_pgs_timeline_move (PgsTimeline *self,
                    double       x)
{
  guint sample;

  g_return_if_fail (PGS_IS_TIMELINE (self));

  if (!self->dragging_range)
    {
      move_to (self, x);
      return;
    }
  sample = pgs_timeline_get_sample_at (self, x);
  if (sample != G_MAXUINT && sample != self->pointer)
    {
      self->pointer = sample;
      gtk_widget_queue_draw (GTK_WIDGET (self));
    }
}

void
_pgs_timeline_release (PgsTimeline *self,
                       double       x)
{
  g_return_if_fail (PGS_IS_TIMELINE (self));

  _pgs_timeline_move (self, x);
  if (!self->dragging_range)
    return;
  self->dragging_range = FALSE;
  /* Shift+click without a drag: the whole recording again. */
  if (self->anchor == self->pointer)
    pgs_replay_set_range (self->replay, 0, G_MAXUINT);
  else
    pgs_replay_set_range (self->replay, self->anchor, self->pointer);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
on_drag_begin (PgsTimeline    *self,
               double          x,
               double          y,
               GtkGestureDrag *gesture)
{
  GdkModifierType state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (gesture));

  _pgs_timeline_press (self, x, (state & GDK_SHIFT_MASK) != 0);
}

static void
on_drag_update (PgsTimeline    *self,
                double          dx,
                double          dy,
                GtkGestureDrag *gesture)
{
  double x, y;

  if (gtk_gesture_drag_get_start_point (gesture, &x, &y))
    _pgs_timeline_move (self, x + dx);
}

static void
on_drag_end (PgsTimeline    *self,
             double          dx,
             double          dy,
             GtkGestureDrag *gesture)
{
  double x, y;

  if (gtk_gesture_drag_get_start_point (gesture, &x, &y))
    _pgs_timeline_release (self, x + dx);
  else
    self->dragging_range = FALSE;
}

static void
move_by_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  PgsSession *session = PGS_TIMELINE (widget)->session;
  PgsReplay *replay = session != NULL ? pgs_session_get_replay (session) : NULL;

  if (replay != NULL)
    pgs_replay_move_by (replay, g_variant_get_int32 (parameter));
}

void
_pgs_timeline_class_init_strip (GtkWidgetClass *widget_class)
{
  widget_class->snapshot = pgs_timeline_snapshot;
  widget_class->measure = pgs_timeline_measure;
  widget_class->query_tooltip = pgs_timeline_query_tooltip;

  /* Left and Right without a modifier: the window keeps Alt+Left and Alt+Right. */
  gtk_widget_class_install_action (widget_class, "timeline.move-by", "i", move_by_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Left, 0, "timeline.move-by", "i", -1);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Left, 0, "timeline.move-by", "i", -1);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Right, 0, "timeline.move-by", "i", 1);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Right, 0, "timeline.move-by", "i", 1);
}

void
_pgs_timeline_init_strip (PgsTimeline *self)
{
  GtkGesture *drag = gtk_gesture_drag_new ();

  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (drag), GDK_BUTTON_PRIMARY);
  g_signal_connect_swapped (drag, "drag-begin", G_CALLBACK (on_drag_begin), self);
  g_signal_connect_swapped (drag, "drag-update", G_CALLBACK (on_drag_update), self);
  g_signal_connect_swapped (drag, "drag-end", G_CALLBACK (on_drag_end), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drag));
}
