/* pgs-timeline.c: a recording's memory over time, a strip to move through it with
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Shown under the header while a recording is, a file's or the live history's (issue 18):
 * the machine's memory stacked by kind, sample by sample (pgs-timeline-data.c reads them
 * in a worker thread), the selected process's PSS as a line on its own scale, ticks where
 * the page-level pictures are, the sample shown as a cursor and the chosen range shaded. A press or a
 * drag moves the session's replay (every page follows it); Shift+drag chooses the range.
 * It talks to the session and its replay only, never to the window.
 */

#include "config.h"

#include <glib/gi18n.h>

#include "pgs-export-chooser.h"
#include "pgs-file-name.h"
#include "pgs-timeline-draw.h"
#include "pgs-timeline-private.h"

#define STRIP_HEIGHT 120
#define COMPACT_HEIGHT 32

struct _PgsTimeline
{
  GtkWidget        parent_instance;

  PgsSession      *session;
  GSignalGroup    *session_signals;

  PgsRecording    *recording;   /* the session's, while it shows one */
  PgsReplay       *replay;
  GSignalGroup    *replay_signals;
  PgsTimelineData *data;        /* for recording, or NULL until read */
  GCancellable    *building;
  gint64           build_started;  /* µs, monotonic: the build's time goes to the debug log */
  int              pid;         /* the process whose PSS is drawn; 0 for none */
  guint64          start_time;
  char            *process_name;

  GtkWidget       *menu;        /* the context menu (Export as PNG…), while it is open */
  guint            drop_menu_source;
  GtkNativeDialog *chooser;     /* kept while it emits */
  gboolean         csv;         /* what it exports: the figures, or the picture */

  gboolean         compact;     /* one line of COMPACT_HEIGHT, for a short window */
  gboolean         dragging_range;
  guint            anchor;      /* the range being chosen: anchor..pointer */
  guint            pointer;
};

enum {
  PROP_0,
  PROP_SESSION,
  PROP_LOADING,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum {
  EXPORT_FINISHED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (PgsTimeline, pgs_timeline, GTK_TYPE_WIDGET)

/* What is drawn now, at @width × @height. */
static void
fill_scene (PgsTimeline      *self,
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
  fill_scene (self, &scene, gtk_widget_get_width (GTK_WIDGET (self)),
              gtk_widget_get_height (GTK_WIDGET (self)));
  return pgs_timeline_scene_get_sample_x (&scene, sample, x);
}

guint
pgs_timeline_get_sample_at (PgsTimeline *self,
                            double       x)
{
  PgsTimelineScene scene;

  g_return_val_if_fail (PGS_IS_TIMELINE (self), G_MAXUINT);
  fill_scene (self, &scene, gtk_widget_get_width (GTK_WIDGET (self)),
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

  fill_scene (self, &scene, width, height);
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

  fill_scene (PGS_TIMELINE (widget), &scene, gtk_widget_get_width (widget),
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
    *minimum = *natural = PGS_TIMELINE (widget)->compact ? COMPACT_HEIGHT : STRIP_HEIGHT;
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

/* Export */

gboolean
pgs_timeline_write_png (PgsTimeline  *self,
                        const char   *path,
                        GError      **error)
{
  int width = gtk_widget_get_width (GTK_WIDGET (self));
  PgsTimelineScene scene;

  g_return_val_if_fail (PGS_IS_TIMELINE (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  if (self->recording == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("No recording is shown"));
      return FALSE;
    }
  /* As on screen, or a default size before it was; whole, with its legend and axes. */
  if (width <= 0)
    width = 1200;
  fill_scene (self, &scene, width, STRIP_HEIGHT);
  scene.compact = FALSE;
  return pgs_timeline_scene_write_png (&scene, path, error);
}

gboolean
pgs_timeline_write_csv (PgsTimeline  *self,
                        const char   *path,
                        GError      **error)
{
  g_autofree char *text = NULL;

  g_return_val_if_fail (PGS_IS_TIMELINE (self), FALSE);
  if (self->data != NULL)
    text = pgs_timeline_data_to_csv (self->data, self->pid != 0 ? self->process_name : NULL);
  else
    g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("No figures are read yet"));
  return text != NULL && g_file_set_contents (path, text, -1, error);
}

static void
export_to (PgsTimeline *self,
           GFile       *file)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = g_file_get_path (file);

  if (path == NULL)
    g_set_error_literal (&error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                         _("The timeline can only be exported to local files"));
  else if (self->csv)
    pgs_timeline_write_csv (self, path, &error);
  else
    pgs_timeline_write_png (self, path, &error);
  g_signal_emit (self, signals[EXPORT_FINISHED], 0, file, error);
}

static void
on_chooser_response (GtkNativeDialog *chooser,
                     int              response,
                     PgsTimeline     *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));

      if (file != NULL)
        export_to (self, file);
    }
}

/* timeline.export-png and timeline.export-csv. */
static void
export_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  PgsTimeline *self = PGS_TIMELINE (widget);
  gboolean csv = g_str_equal (action_name, "timeline.export-csv");
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();
  g_autofree char *name = pgs_file_name_suggest ("memory-timeline", 0, now, csv ? "csv" : "png");

  if (self->recording == NULL)
    return;
  if (self->chooser != NULL)
    gtk_native_dialog_destroy (self->chooser);
  g_clear_object (&self->chooser);
  /* In the folder of the last export (the window keeps it on PgsTimeline::export-finished). */
  self->csv = csv;
  self->chooser = pgs_export_chooser_new (widget, csv ? _("Export Timeline as CSV") : _("Export Timeline as PNG"),
                                          name, csv ? "text/csv" : "image/png",
                                          self->session != NULL
                                          ? pgs_session_get_settings (self->session) : NULL);
  g_signal_connect (self->chooser, "response", G_CALLBACK (on_chooser_response), self);
  gtk_native_dialog_show (self->chooser);
}

/* After the item's action has run: it is activated as the menu closes. */
static gboolean
drop_menu (gpointer data)
{
  PgsTimeline *self = data;

  self->drop_menu_source = 0;
  g_clear_handle_id (&self->drop_menu_source, g_source_remove);
  g_clear_pointer (&self->menu, gtk_widget_unparent);
  return G_SOURCE_REMOVE;
}

static void
on_menu_closed (PgsTimeline *self)
{
  if (self->drop_menu_source == 0)
    self->drop_menu_source = g_idle_add (drop_menu, self);
}

static void
popup_menu (PgsTimeline *self,
            double       x,
            double       y)
{
  /* Made when asked for and dropped once closed: a GtkPopoverMenu follows the state of
   * every action it can reach, and the window changes some at each refresh (ui-memory
   * grew by 12-20 MB in 4 of 12 runs with one always there, in none without). */
  if (self->menu == NULL)
    {
      g_autoptr(GMenu) model = g_menu_new ();

      g_menu_append (model, _("Export Timeline as _PNG…"), "timeline.export-png");
      g_menu_append (model, _("Export Figures as _CSV…"), "timeline.export-csv");
      self->menu = gtk_popover_menu_new_from_model (G_MENU_MODEL (model));
      gtk_popover_set_has_arrow (GTK_POPOVER (self->menu), FALSE);
      gtk_widget_set_halign (self->menu, GTK_ALIGN_START);
      gtk_widget_set_parent (self->menu, GTK_WIDGET (self));
      g_signal_connect_object (self->menu, "closed", G_CALLBACK (on_menu_closed), self,
                               G_CONNECT_SWAPPED);
    }
  gtk_popover_set_pointing_to (GTK_POPOVER (self->menu), &(GdkRectangle) { (int) x, (int) y, 1, 1 });
  gtk_popover_popup (GTK_POPOVER (self->menu));
}

static void
on_secondary_pressed (PgsTimeline *self,
                      int          n_press,
                      double       x,
                      double       y)
{
  popup_menu (self, x, y);
}

static void
menu_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  popup_menu (PGS_TIMELINE (widget), gtk_widget_get_width (widget) / 2.0,
              gtk_widget_get_height (widget) / 2.0);
}

static void
pgs_timeline_size_allocate (GtkWidget *widget,
                            int        width,
                            int        height,
                            int        baseline)
{
  PgsTimeline *self = PGS_TIMELINE (widget);

  if (self->menu != NULL)
    gtk_popover_present (GTK_POPOVER (self->menu));
}

/* Following the session */

static void
set_loading (PgsTimeline  *self,
             GCancellable *building)
{
  gboolean was = self->building != NULL;

  if (self->building != NULL && self->building != building)
    g_cancellable_cancel (self->building);
  g_set_object (&self->building, building);
  if (was != (building != NULL))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOADING]);
}

static void
build_done (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(PgsTimeline) self = user_data;
  g_autoptr(GError) error = NULL;
  PgsTimelineData *data = pgs_timeline_data_build_finish (result, &error);

  /* Cancelled: another build replaced this one, or the widget is going. */
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  /* Damaged samples are gaps already: nothing else fails but cancelling. */
  if (data == NULL)
    g_debug ("Could not read the recording's figures: %s", error->message);
  if (data != NULL)
    g_debug ("timeline: %u samples read in %.1f ms", data->n_samples,
             (g_get_monotonic_time () - self->build_started) / 1000.0);
  g_clear_pointer (&self->data, pgs_timeline_data_free);
  self->data = data;
  set_loading (self, NULL);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
rebuild (PgsTimeline *self)
{
  g_autoptr(GCancellable) building = NULL;

  if (self->recording == NULL)
    {
      set_loading (self, NULL);
      return;
    }
  building = g_cancellable_new ();
  set_loading (self, building);
  self->build_started = g_get_monotonic_time ();
  pgs_timeline_data_build_async (self->recording, self->pid, self->start_time, building,
                                 build_done, g_object_ref (self));
}

/* The process whose PSS is drawn: TRUE when it is another. A new sample brings a new
 * PgsProcess for the same process, which is not another. */
static gboolean
read_selected (PgsTimeline *self,
               PgsSession  *session)
{
  g_autoptr(PgsProcess) process = NULL;
  int pid = 0;
  guint64 start_time = 0;

  g_object_get (session, "selected-process", &process, NULL);
  if (process != NULL)
    {
      pid = pgs_process_get_pid (process);
      start_time = pgs_process_get_start_time (process);
      g_free (self->process_name);
      self->process_name = g_strdup (pgs_process_get_name (process));
    }
  if (pid == self->pid && start_time == self->start_time)
    return FALSE;
  self->pid = pid;
  self->start_time = start_time;
  return TRUE;
}

static void
on_recording_changed (PgsTimeline *self,
                      GParamSpec  *pspec,
                      PgsSession  *session)
{
  PgsRecording *recording = pgs_session_get_recording (session);

  gtk_widget_set_visible (GTK_WIDGET (self), recording != NULL);
  if (recording == self->recording)
    return;
  g_set_object (&self->recording, recording);
  g_clear_pointer (&self->data, pgs_timeline_data_free);
  self->dragging_range = FALSE;
  if (recording != NULL)
    read_selected (self, session);
  rebuild (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
on_replay_changed (PgsTimeline *self,
                   GParamSpec  *pspec,
                   PgsSession  *session)
{
  g_set_object (&self->replay, pgs_session_get_replay (session));
  g_signal_group_set_target (self->replay_signals, self->replay);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* Live, nothing to do: the recording's arrival reads it. */
static void
on_selected_process_changed (PgsTimeline *self,
                             GParamSpec  *pspec,
                             PgsSession  *session)
{
  if (self->recording != NULL && read_selected (self, session))
    rebuild (self);
}

static void
pgs_timeline_dispose (GObject *object)
{
  PgsTimeline *self = PGS_TIMELINE (object);

  if (self->building != NULL)
    g_cancellable_cancel (self->building);
  g_clear_object (&self->building);
  if (self->chooser != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->chooser, self);
      gtk_native_dialog_destroy (self->chooser);
    }
  g_clear_object (&self->chooser);
  g_clear_pointer (&self->menu, gtk_widget_unparent);
  g_signal_group_set_target (self->session_signals, NULL);
  g_signal_group_set_target (self->replay_signals, NULL);
  g_clear_object (&self->session);
  g_clear_object (&self->replay);
  g_clear_object (&self->recording);

  G_OBJECT_CLASS (pgs_timeline_parent_class)->dispose (object);
}

static void
pgs_timeline_finalize (GObject *object)
{
  PgsTimeline *self = PGS_TIMELINE (object);

  g_clear_object (&self->replay_signals);
  g_clear_object (&self->session_signals);
  g_clear_pointer (&self->data, pgs_timeline_data_free);
  g_free (self->process_name);

  G_OBJECT_CLASS (pgs_timeline_parent_class)->finalize (object);
}

static void
pgs_timeline_get_property (GObject    *object,
                           guint       prop_id,
                           GValue     *value,
                           GParamSpec *pspec)
{
  switch (prop_id)
    {
    case PROP_SESSION:
      g_value_set_object (value, PGS_TIMELINE (object)->session);
      break;
    case PROP_LOADING:
      g_value_set_boolean (value, pgs_timeline_is_loading (PGS_TIMELINE (object)));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
set_session (PgsTimeline *self,
             PgsSession  *session)
{
  if (!g_set_object (&self->session, session))
    return;
  g_signal_group_set_target (self->session_signals, session);
  if (session != NULL)
    {
      on_recording_changed (self, NULL, session);
      on_replay_changed (self, NULL, session);
      on_selected_process_changed (self, NULL, session);
    }
  else
    {
      gtk_widget_set_visible (GTK_WIDGET (self), FALSE);
      g_clear_object (&self->recording);
      g_signal_group_set_target (self->replay_signals, NULL);
      g_clear_object (&self->replay);
      rebuild (self);
    }
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SESSION]);
}

static void
pgs_timeline_set_property (GObject      *object,
                           guint         prop_id,
                           const GValue *value,
                           GParamSpec   *pspec)
{
  switch (prop_id)
    {
    case PROP_SESSION:
      set_session (PGS_TIMELINE (object), g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pgs_timeline_class_init (PgsTimelineClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = pgs_timeline_dispose;
  object_class->finalize = pgs_timeline_finalize;
  object_class->get_property = pgs_timeline_get_property;
  object_class->set_property = pgs_timeline_set_property;
  widget_class->snapshot = pgs_timeline_snapshot;
  widget_class->measure = pgs_timeline_measure;
  widget_class->size_allocate = pgs_timeline_size_allocate;
  widget_class->query_tooltip = pgs_timeline_query_tooltip;

  /* Its own, not a PgsPage's: a page hears of every change of the session (the progress of
   * each scan…), this strip of three, and of those only while a recording is shown. */
  properties[PROP_SESSION] =
    g_param_spec_object ("session", NULL, NULL, PGS_TYPE_SESSION,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_LOADING] =
    g_param_spec_boolean ("loading", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* PgsTimeline::export-finished (file, error): timeline.export-png wrote @file, or could
   * not (@error): the window says which in a toast. */
  signals[EXPORT_FINISHED] =
    g_signal_new ("export-finished", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                  NULL, G_TYPE_NONE, 2, G_TYPE_FILE, G_TYPE_ERROR);

  gtk_widget_class_install_action (widget_class, "timeline.export-png", NULL, export_action);
  gtk_widget_class_install_action (widget_class, "timeline.export-csv", NULL, export_action);
  gtk_widget_class_install_action (widget_class, "timeline.menu", NULL, menu_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F10, GDK_SHIFT_MASK, "timeline.menu", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Menu, 0, "timeline.menu", NULL);

  /* Left and Right without a modifier: the window keeps Alt+Left and Alt+Right. */
  gtk_widget_class_install_action (widget_class, "timeline.move-by", "i", move_by_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Left, 0, "timeline.move-by", "i", -1);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Left, 0, "timeline.move-by", "i", -1);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Right, 0, "timeline.move-by", "i", 1);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Right, 0, "timeline.move-by", "i", 1);

  gtk_widget_class_set_css_name (widget_class, "timeline");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
pgs_timeline_init (PgsTimeline *self)
{
  GtkGesture *drag = gtk_gesture_drag_new ();
  GtkGesture *secondary;

  gtk_widget_set_visible (GTK_WIDGET (self), FALSE);
  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Memory over the recording"), -1);

  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (drag), GDK_BUTTON_PRIMARY);
  g_signal_connect_swapped (drag, "drag-begin", G_CALLBACK (on_drag_begin), self);
  g_signal_connect_swapped (drag, "drag-update", G_CALLBACK (on_drag_update), self);
  g_signal_connect_swapped (drag, "drag-end", G_CALLBACK (on_drag_end), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drag));

  secondary = gtk_gesture_click_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (secondary), GDK_BUTTON_SECONDARY);
  g_signal_connect_swapped (secondary, "pressed", G_CALLBACK (on_secondary_pressed), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (secondary));


  self->replay_signals = g_signal_group_new (PGS_TYPE_REPLAY);
  for (guint i = 0; i < 4; i++)
    g_signal_group_connect_object (self->replay_signals,
                                   (const char *[]) { "notify::sample", "notify::picture-index",
                                                      "notify::range-from", "notify::range-to" }[i],
                                   G_CALLBACK (gtk_widget_queue_draw), self, G_CONNECT_SWAPPED);

  self->session_signals = g_signal_group_new (PGS_TYPE_SESSION);
  g_signal_group_connect_object (self->session_signals, "notify::recording",
                                 G_CALLBACK (on_recording_changed), self, G_CONNECT_SWAPPED);
  g_signal_group_connect_object (self->session_signals, "notify::replay",
                                 G_CALLBACK (on_replay_changed), self, G_CONNECT_SWAPPED);
  g_signal_group_connect_object (self->session_signals, "notify::selected-process",
                                 G_CALLBACK (on_selected_process_changed), self, G_CONNECT_SWAPPED);
}

GtkWidget *
pgs_timeline_new (void)
{
  return g_object_new (PGS_TYPE_TIMELINE, NULL);
}

/* One line (the plot between its first and last times) or the whole strip: the window
 * folds it when it is short, so the list keeps its rows. */
void
pgs_timeline_set_compact (PgsTimeline *self,
                          gboolean     compact)
{
  g_return_if_fail (PGS_IS_TIMELINE (self));
  if (self->compact == !!compact)
    return;
  self->compact = !!compact;
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

gboolean
pgs_timeline_is_loading (PgsTimeline *self)
{
  g_return_val_if_fail (PGS_IS_TIMELINE (self), FALSE);
  return self->building != NULL;
}

guint64
pgs_timeline_get_value (PgsTimeline     *self,
                        guint            sample,
                        PgsTimelineKind  kind)
{
  g_return_val_if_fail (PGS_IS_TIMELINE (self), PGS_SAMPLE_ABSENT);
  g_return_val_if_fail (kind < PGS_TIMELINE_N_KINDS, PGS_SAMPLE_ABSENT);
  return self->data != NULL ? pgs_timeline_data_get (self->data, sample, kind) : PGS_SAMPLE_ABSENT;
}

guint64
pgs_timeline_get_pss (PgsTimeline *self,
                      guint        sample)
{
  g_return_val_if_fail (PGS_IS_TIMELINE (self), PGS_SAMPLE_ABSENT);
  if (self->data == NULL || self->data->pss == NULL || sample >= self->data->n_samples)
    return PGS_SAMPLE_ABSENT;
  return self->data->pss[sample];
}
