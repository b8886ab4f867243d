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
 * It talks to the session and its replay only, never to the window. Here: following the
 * session; drawing and input in pgs-timeline-strip.c, menu and export pgs-timeline-export.c.
 */

#include "config.h"

#include <glib/gi18n.h>

#include "pgs-timeline-private.h"

enum {
  PROP_0,
  PROP_SESSION,
  PROP_LOADING,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (PgsTimeline, pgs_timeline, GTK_TYPE_WIDGET)

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
  /* A menu closed just before: its idle would drop it from a freed timeline. */
  g_clear_handle_id (&self->drop_menu_source, g_source_remove);
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
  _pgs_timeline_class_init_strip (widget_class);
  _pgs_timeline_class_init_export (widget_class);

  /* Its own, not a PgsPage's: a page hears of every change of the session (the progress of
   * each scan…), this strip of three, and of those only while a recording is shown. */
  properties[PROP_SESSION] =
    g_param_spec_object ("session", NULL, NULL, PGS_TYPE_SESSION,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_LOADING] =
    g_param_spec_boolean ("loading", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_css_name (widget_class, "timeline");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
pgs_timeline_init (PgsTimeline *self)
{
  gtk_widget_set_visible (GTK_WIDGET (self), FALSE);
  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Memory over the recording"), -1);
  _pgs_timeline_init_strip (self);
  _pgs_timeline_init_export (self);

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
