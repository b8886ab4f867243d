/* pgs-session.c: what the window's pages show, in one place
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The session owns the data shown (a live scan or a snapshot file), the selected process,
 * the page on screen, the display settings and the scans that keep them current; pages
 * bind to its properties (pgs-page.c), the window follows its notifications. Scans of
 * every process come from a PgsLiveScan (pgs-live-scan.c: when), reading what the page on
 * screen needs (pgs-refresh.c: what). The settings (pgs-settings.c) are bound to the
 * properties: what is shown never waits on a setting being written.
 */

#include "config.h"

#include <unistd.h>

#include <glib/gi18n.h>

#include "pgs-history.h"
#include "pgs-live-scan.h"
#include "pgs-refresh.h"
#include "pgs-release.h"
#include "pgs-replay.h"
#include "pgs-session.h"
#include "pgs-settings.h"

struct _PgsSession
{
  GObject           parent_instance;

  GSettings        *settings;
  PgsLiveScan      *live;
  PgsRefresh       *refresh;         /* what a scan reads, the selected process's scan */
  PgsHelper        *helper;
  PgsSnapshot      *snapshot;
  PgsReplay        *replay;          /* while a recording is shown */
  PgsHistory       *history;         /* live: the last minutes' totals (pgs-history.c) */
  PgsProcess       *chosen;
  PgsProcess       *selected;
  PgsHighlight     *highlight;
  GPtrArray        *wss_samples;
  int               wss_pid;
  char             *view;
  PgsUnits          units;
  PgsLayout         layout;
  PgsHighlightMode  highlight_mode;
  gboolean          hide_free;
  guint             refresh_interval;
  double            progress;
  gboolean          busy;
  gboolean          shut_down;       /* the window is closing: no scan any more */
};

enum {
  PROP_0,
  PROP_SNAPSHOT,
  PROP_FILE,
  PROP_INSTANT,
  PROP_LIVE,
  PROP_CHOSEN_PROCESS,
  PROP_SELECTED_PROCESS,
  PROP_UNREADABLE,
  PROP_VIEW,
  PROP_NEEDS,
  PROP_UNITS,
  PROP_LAYOUT,
  PROP_HIGHLIGHT_MODE,
  PROP_HIDE_FREE,
  PROP_REFRESH_INTERVAL,
  PROP_HIGHLIGHT,
  PROP_WSS_SAMPLE,
  PROP_BUSY,
  PROP_PROGRESS,
  PROP_HELPER,
  PROP_RECORDING,
  PROP_REPLAY,
  PROP_PICTURE,
  N_PROPS
};

enum {
  SCAN_STARTED,
  SCAN_FAILED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (PgsSession, pgs_session, G_TYPE_OBJECT)

/* Scanning */

static void
update_busy (PgsSession *self)
{
  gboolean busy = pgs_live_scan_is_running (self->live) || pgs_refresh_is_busy (self->refresh);

  if (busy == self->busy)
    return;
  self->busy = busy;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
}

static void
on_live_progress (PgsSession *self)
{
  double progress;

  g_object_get (self->live, "progress", &progress, NULL);
  if (self->progress == progress)
    return;
  self->progress = progress;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROGRESS]);
}

static gboolean
highlighting (PgsSession *self)
{
  return self->highlight != NULL;
}

static PgsScanFlags
needs (PgsSession *self)
{
  return pgs_refresh_list_flags (self->view, self->helper, highlighting (self));
}

/* The selection, the page on screen or the helper changed: the selected process follows. */
static void set_selected (PgsSession *self,
                          PgsProcess *process);

static void
follow_selection (PgsSession *self)
{
  PgsProcess *found;

  if (self->refresh == NULL)   /* NULL once the session is disposed */
    return;
  /* A recording: the chosen process with its pages where the nearest picture has it. */
  if (self->replay != NULL)
    set_selected (self, (found = pgs_replay_find_in_picture (self->replay, self->chosen)) != NULL
                        ? found : self->chosen);
  else
    pgs_refresh_select (self->refresh, self->chosen, self->snapshot, self->view, self->helper);
}

static void drop_replay (PgsSession *self);

/* TRUE when the list wants a scan now, to read what the page on screen needs. */
static gboolean
show_snapshot (PgsSession  *self,
               PgsSnapshot *snapshot)
{
  gboolean was_live = (pgs_session_get_file (self) == NULL);
  GFile *was_file = pgs_session_get_file (self);
  gboolean rescan;

  if (self->snapshot == snapshot)
    return FALSE;
  drop_replay (self);
  pgs_set_object_release (&self->snapshot, snapshot);
  /* Before anyone hears of it: the list selects in the new snapshot as it takes it, and the
   * refresh must know by then which snapshot its scan of the selected process belongs to. */
  rescan = pgs_refresh_list_shown (self->refresh, snapshot, needs (self));

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SNAPSHOT]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PICTURE]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_INSTANT]);
  if (was_file != pgs_session_get_file (self))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FILE]);
  if (was_live != (pgs_session_get_file (self) == NULL))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LIVE]);

  /* The list carried the selection over by PID; the pages follow it to the new object,
   * its pages scanned anew where a page shows them. */
  follow_selection (self);
  return rescan;
}

static void set_chosen_process (PgsSession   *self,
                                PgsProcess   *process);
static void set_highlight      (PgsSession   *self,
                                PgsHighlight *highlight);

static void
show_live (PgsSession  *self,
           PgsSnapshot *snapshot)
{
  gint64 t0 = g_get_monotonic_time ();
  gboolean rescan;

  rescan = show_snapshot (self, snapshot);
  pgs_refresh_log_first_figures ();
  g_debug ("Swapped the new snapshot in: %.1f ms", (g_get_monotonic_time () - t0) / 1000.0);
  if (rescan)
    pgs_session_refresh (self);
}

static void
on_live_done (PgsSession  *self,
              PgsSnapshot *snapshot)
{
  if (!pgs_refresh_hold (self->refresh, snapshot))
    show_live (self, snapshot);
}

static void
on_live_failed (PgsSession   *self,
                const GError *error)
{
  g_signal_emit (self, signals[SCAN_FAILED], 0, error);
}

void
pgs_session_refresh (PgsSession *self)
{
  PgsScanFlags flags;

  g_return_if_fail (PGS_IS_SESSION (self));

  if (self->shut_down)
    return;
  /* What the page on screen needs, no more (pgs-refresh.c). Asked for while one runs (an
   * unlock, a return to the live view): the next, when the live scan says it is due. */
  flags = needs (self);
  if (!pgs_live_scan_start (self->live, flags))
    return;
  pgs_refresh_list_started (self->refresh, flags);
  /* A file being opened or saved is not wanted any more: the live view is. */
  g_signal_emit (self, signals[SCAN_STARTED], 0);
}

void
pgs_session_cancel_scan (PgsSession *self)
{
  g_return_if_fail (PGS_IS_SESSION (self));
  pgs_live_scan_cancel (self->live);
}

void
pgs_session_show_file (PgsSession  *self,
                       PgsSnapshot *snapshot)
{
  g_return_if_fail (PGS_IS_SESSION (self));
  g_return_if_fail (PGS_IS_SNAPSHOT (snapshot));

  /* A file replaces the live view: no scan may overwrite it. */
  pgs_live_scan_hold (self->live);
  show_snapshot (self, snapshot);
}

void
pgs_session_complete_async (PgsSession          *self,
                            GCancellable        *cancellable,
                            GAsyncReadyCallback  callback,
                            gpointer             user_data)
{
  g_return_if_fail (PGS_IS_SESSION (self));
  pgs_refresh_complete_async (self->refresh, self->snapshot, self->helper, cancellable,
                              callback, user_data);
}

PgsSnapshot *
pgs_session_complete_finish (GAsyncResult  *result,
                             GError       **error)
{
  return pgs_refresh_complete_finish (result, error);
}

void
pgs_session_shutdown (PgsSession *self)
{
  g_return_if_fail (PGS_IS_SESSION (self));

  self->shut_down = TRUE;
  pgs_live_scan_hold (self->live);
  pgs_refresh_cancel (self->refresh);
}

/* A recording (pgs-replay.c): the sample's totals become the snapshot shown, the nearest
 * page-level picture what the maps draw. */

static void
on_replay_snapshot (PgsSession *self)
{
  if (!pgs_set_object_release (&self->snapshot, pgs_replay_get_snapshot (self->replay)))
    return;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SNAPSHOT]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_INSTANT]);
  follow_selection (self);
}

static void
on_replay_picture (PgsSession *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PICTURE]);
  follow_selection (self);
}

static void
drop_replay (PgsSession *self)
{
  if (self->replay == NULL)
    return;
  g_signal_handlers_disconnect_by_data (self->replay, self);
  pgs_replay_cancel (self->replay);
  g_clear_object (&self->replay);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RECORDING]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_REPLAY]);
}

/* A file's recording, or an instant of the live history (@replay: transfer full). */
static void
show_replay (PgsSession *self,
             PgsReplay  *replay)
{
  gboolean was_live;

  /* As a snapshot file does, a recording replaces the live view: no scan may overwrite it. */
  pgs_live_scan_hold (self->live);
  drop_replay (self);
  was_live = (pgs_session_get_file (self) == NULL);
  /* No scan of the live process behind the selection either. */
  pgs_refresh_select (self->refresh, NULL, NULL, self->view, self->helper);

  self->replay = replay;
  g_signal_connect_object (self->replay, "notify::snapshot", G_CALLBACK (on_replay_snapshot),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->replay, "notify::picture", G_CALLBACK (on_replay_picture),
                           self, G_CONNECT_SWAPPED);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RECORDING]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_REPLAY]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FILE]);
  if (was_live)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LIVE]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PICTURE]);
}

void
pgs_session_show_recording (PgsSession   *self,
                            PgsRecording *recording)
{
  g_return_if_fail (PGS_IS_SESSION (self));
  g_return_if_fail (PGS_IS_RECORDING (recording));
  show_replay (self, pgs_replay_new (recording));
  pgs_replay_move_to_sample (self->replay, 0);
}

/* Live, the history's (pgs-history.c): the strip and Growth read it as a file's. */
PgsRecording *
pgs_session_get_recording (PgsSession *self)
{
  return pgs_session_get_replay (self) != NULL ? pgs_replay_get_recording (pgs_session_get_replay (self))
                                               : NULL;
}

PgsReplay *
pgs_session_get_replay (PgsSession *self)
{
  g_return_val_if_fail (PGS_IS_SESSION (self), NULL);
  return self->replay != NULL || self->history == NULL ? self->replay : pgs_history_get_replay (self->history);
}

PgsHistory *
pgs_session_get_history (PgsSession *self)
{
  g_return_val_if_fail (PGS_IS_SESSION (self), NULL);
  return self->history;
}

PgsSnapshot *
pgs_session_get_picture (PgsSession *self)
{
  g_return_val_if_fail (PGS_IS_SESSION (self), NULL);
  return self->replay != NULL ? pgs_replay_get_picture (self->replay) : self->snapshot;
}

void
pgs_session_move_to_time (PgsSession *self,
                          gint64      time)
{
  if (pgs_session_get_replay (self) != NULL)
    pgs_replay_move_to_time (pgs_session_get_replay (self), time);
}

/* Live, moved to an instant of the history: shown as a recording's until Back to Live. */
static void
on_history_changed (PgsSession *self)
{
  if (self->replay == NULL && pgs_history_get_past (self->history) != NULL)
    {
      show_replay (self, g_object_ref (pgs_history_get_replay (self->history)));
      on_replay_snapshot (self);
    }
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RECORDING]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_REPLAY]);
}

/* What the refresh hands over */

static void
set_selected (PgsSession *self,
              PgsProcess *process)
{
  if (!g_set_object (&self->selected, process))
    return;
  /* Working-set samples belong to the PID measured: a refresh of it keeps them. */
  if (self->wss_pid != 0 && (process == NULL || pgs_process_get_pid (process) != self->wss_pid))
    pgs_session_set_wss_samples (self, 0, NULL);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_PROCESS]);
}

static void
on_refresh_process (PgsSession *self)
{
  /* A recording shown: the selection comes from its pictures, not from scans. */
  if (self->replay == NULL)
    set_selected (self, pgs_refresh_get_process (self->refresh));
}

static void
on_refresh_unreadable (PgsSession *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_UNREADABLE]);
}

/* GObject */

static void
pgs_session_dispose (GObject *object)
{
  PgsSession *self = PGS_SESSION (object);

  if (self->live != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->live, self);
      pgs_live_scan_hold (self->live);
    }
  if (self->refresh != NULL)
    g_signal_handlers_disconnect_by_data (self->refresh, self);
  g_clear_object (&self->history);
  g_clear_object (&self->refresh);
  g_clear_object (&self->live);
  g_clear_object (&self->helper);
  g_clear_object (&self->settings);
  if (self->replay != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->replay, self);
      pgs_replay_cancel (self->replay);
      g_clear_object (&self->replay);
    }
  pgs_clear_release (&self->snapshot);
  g_clear_object (&self->chosen);
  g_clear_object (&self->selected);
  g_clear_pointer (&self->highlight, pgs_highlight_unref);
  g_clear_pointer (&self->wss_samples, g_ptr_array_unref);

  G_OBJECT_CLASS (pgs_session_parent_class)->dispose (object);
}

static void
pgs_session_finalize (GObject *object)
{
  PgsSession *self = PGS_SESSION (object);

  g_free (self->view);

  G_OBJECT_CLASS (pgs_session_parent_class)->finalize (object);
}

static void
pgs_session_get_property (GObject    *object,
                          guint       prop_id,
                          GValue     *value,
                          GParamSpec *pspec)
{
  PgsSession *self = PGS_SESSION (object);

  switch (prop_id)
    {
    case PROP_SNAPSHOT:
      g_value_set_object (value, self->snapshot);
      break;
    case PROP_FILE:
      g_value_set_object (value, pgs_session_get_file (self));
      break;
    case PROP_INSTANT:
      g_value_set_int64 (value, self->snapshot ? pgs_snapshot_get_time (self->snapshot) : 0);
      break;
    case PROP_LIVE:
      g_value_set_boolean (value, (pgs_session_get_file (self) == NULL));
      break;
    case PROP_CHOSEN_PROCESS:
      g_value_set_object (value, self->chosen);
      break;
    case PROP_SELECTED_PROCESS:
      g_value_set_object (value, self->selected);
      break;
    case PROP_UNREADABLE:
      g_value_set_string (value, pgs_session_get_unreadable (self));
      break;
    case PROP_VIEW:
      g_value_set_string (value, self->view);
      break;
    case PROP_NEEDS:
      g_value_set_uint (value, needs (self));
      break;
    case PROP_UNITS:
      g_value_set_enum (value, self->units);
      break;
    case PROP_LAYOUT:
      g_value_set_enum (value, self->layout);
      break;
    case PROP_HIGHLIGHT_MODE:
      g_value_set_enum (value, self->highlight_mode);
      break;
    case PROP_HIDE_FREE:
      g_value_set_boolean (value, self->hide_free);
      break;
    case PROP_REFRESH_INTERVAL:
      g_value_set_uint (value, self->refresh_interval);
      break;
    case PROP_HIGHLIGHT:
      g_value_set_boxed (value, self->highlight);
      break;
    case PROP_WSS_SAMPLE:
      g_value_set_boxed (value, self->wss_samples);
      break;
    case PROP_BUSY:
      g_value_set_boolean (value, self->busy);
      break;
    case PROP_PROGRESS:
      g_value_set_double (value, self->progress);
      break;
    case PROP_HELPER:
      g_value_set_object (value, self->helper);
      break;
    case PROP_RECORDING:
      g_value_set_object (value, pgs_session_get_recording (self));
      break;
    case PROP_REPLAY:
      g_value_set_object (value, self->replay);
      break;
    case PROP_PICTURE:
      g_value_set_object (value, pgs_session_get_picture (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

/* Sets an enum, boolean or unsigned field from @value; TRUE when it changed. */
static gboolean
set_number (guint        *field,
            const GValue *value)
{
  guint number = G_VALUE_HOLDS_ENUM (value) ? (guint) g_value_get_enum (value)
               : G_VALUE_HOLDS_BOOLEAN (value) ? (guint) g_value_get_boolean (value)
               : g_value_get_uint (value);

  if (*field == number)
    return FALSE;
  *field = number;
  return TRUE;
}

static void
pgs_session_set_property (GObject      *object,
                          guint         prop_id,
                          const GValue *value,
                          GParamSpec   *pspec)
{
  PgsSession *self = PGS_SESSION (object);
  guint *field;

  switch (prop_id)
    {
    case PROP_CHOSEN_PROCESS:
      set_chosen_process (self, g_value_get_object (value));
      return;
    case PROP_VIEW:
      pgs_session_set_view (self, g_value_get_string (value));
      return;
    case PROP_HIGHLIGHT:
      set_highlight (self, g_value_get_boxed (value));
      return;
    case PROP_HELPER:
      pgs_session_set_helper (self, g_value_get_object (value));
      return;
    case PROP_UNITS:
      field = (guint *) &self->units;
      break;
    case PROP_LAYOUT:
      field = (guint *) &self->layout;
      break;
    case PROP_HIGHLIGHT_MODE:
      field = (guint *) &self->highlight_mode;
      break;
    case PROP_HIDE_FREE:
      field = (guint *) &self->hide_free;
      break;
    case PROP_REFRESH_INTERVAL:
      field = &self->refresh_interval;
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      return;
    }
  if (!set_number (field, value))
    return;
  if (prop_id == PROP_REFRESH_INTERVAL)
    pgs_live_scan_set_interval (self->live, self->refresh_interval);
  g_object_notify_by_pspec (object, pspec);
}

static void
pgs_session_class_init (PgsSessionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  const GParamFlags r = G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;
  const GParamFlags rw = G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->dispose = pgs_session_dispose;
  object_class->finalize = pgs_session_finalize;
  object_class->get_property = pgs_session_get_property;
  object_class->set_property = pgs_session_set_property;

  properties[PROP_SNAPSHOT] = g_param_spec_object ("snapshot", NULL, NULL, PGS_TYPE_SNAPSHOT, r);
  properties[PROP_FILE] = g_param_spec_object ("file", NULL, NULL, G_TYPE_FILE, r);
  /* When the data shown was captured (µs since the epoch), 0 before the first scan. */
  properties[PROP_INSTANT] = g_param_spec_int64 ("instant", NULL, NULL, 0, G_MAXINT64, 0, r);
  properties[PROP_LIVE] = g_param_spec_boolean ("live", NULL, NULL, TRUE, r);
  properties[PROP_CHOSEN_PROCESS] =
    g_param_spec_object ("chosen-process", NULL, NULL, PGS_TYPE_PROCESS, rw);
  properties[PROP_SELECTED_PROCESS] =
    g_param_spec_object ("selected-process", NULL, NULL, PGS_TYPE_PROCESS, r);
  properties[PROP_UNREADABLE] = g_param_spec_string ("unreadable", NULL, NULL, NULL, r);
  properties[PROP_VIEW] = g_param_spec_string ("view", NULL, NULL, "processes", rw);
  properties[PROP_NEEDS] = g_param_spec_uint ("needs", NULL, NULL, 0, G_MAXUINT, 0, r);
  properties[PROP_UNITS] =
    g_param_spec_enum ("units", NULL, NULL, PGS_TYPE_UNITS, PGS_UNITS_IEC, rw);
  properties[PROP_LAYOUT] =
    g_param_spec_enum ("layout", NULL, NULL, PGS_TYPE_LAYOUT, PGS_LAYOUT_LINEAR, rw);
  properties[PROP_HIGHLIGHT_MODE] =
    g_param_spec_enum ("highlight-mode", NULL, NULL, PGS_TYPE_HIGHLIGHT_MODE,
                       PGS_HIGHLIGHT_OUTLINE, rw);
  properties[PROP_HIDE_FREE] = g_param_spec_boolean ("hide-free", NULL, NULL, FALSE, rw);
  properties[PROP_REFRESH_INTERVAL] =
    g_param_spec_uint ("refresh-interval", NULL, NULL, 0, G_MAXUINT, 0, rw);
  /* The frames of a file chosen in Libraries, highlighted on the physical maps. */
  properties[PROP_HIGHLIGHT] =
    g_param_spec_boxed ("highlight", NULL, NULL, PGS_TYPE_HIGHLIGHT, rw);
  /* The working-set samples of the selected process (PgsWssSample, oldest first). */
  properties[PROP_WSS_SAMPLE] =
    g_param_spec_boxed ("wss-sample", NULL, NULL, G_TYPE_PTR_ARRAY, r);
  properties[PROP_BUSY] = g_param_spec_boolean ("busy", NULL, NULL, FALSE, r);
  properties[PROP_PROGRESS] = g_param_spec_double ("progress", NULL, NULL, 0, 1, 0, r);
  properties[PROP_HELPER] = g_param_spec_object ("helper", NULL, NULL, PGS_TYPE_HELPER, rw);
  /* The recording shown (with "replay", its instant), or NULL. */
  properties[PROP_RECORDING] =
    g_param_spec_object ("recording", NULL, NULL, PGS_TYPE_RECORDING, r);
  properties[PROP_REPLAY] = g_param_spec_object ("replay", NULL, NULL, PGS_TYPE_REPLAY, r);
  /* What the maps draw: the snapshot, or a recording's page-level picture nearest the
   * instant (NULL while it is read, or where the recording has none). */
  properties[PROP_PICTURE] = g_param_spec_object ("picture", NULL, NULL, PGS_TYPE_SNAPSHOT, r);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* A scan of every process started; it failed (not when cancelled for a file). */
  signals[SCAN_STARTED] = g_signal_new ("scan-started", G_TYPE_FROM_CLASS (klass),
                                        G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  signals[SCAN_FAILED] = g_signal_new ("scan-failed", G_TYPE_FROM_CLASS (klass),
                                       G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                       G_TYPE_NONE, 1, G_TYPE_ERROR);
}

static void
pgs_session_init (PgsSession *self)
{
  static const struct {
    const char *key;
    const char *property;
  } bound[] = {
    { "last-view", "view" }, { "units", "units" }, { "layout", "layout" },
    { "highlight", "highlight-mode" }, { "hide-free", "hide-free" },
    { "refresh-interval", "refresh-interval" },
  };

  self->view = g_strdup ("processes");
  self->refresh = pgs_refresh_new ();
  g_signal_connect_object (self->refresh, "notify::process", G_CALLBACK (on_refresh_process),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->refresh, "notify::unreadable", G_CALLBACK (on_refresh_unreadable),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->refresh, "ready", G_CALLBACK (show_live), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->refresh, "notify::busy", G_CALLBACK (update_busy), self,
                           G_CONNECT_SWAPPED);
  self->live = pgs_live_scan_new ();
  self->history = pgs_history_new (self->live);
  g_signal_connect_object (self->history, "notify", G_CALLBACK (on_history_changed), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->live, "due", G_CALLBACK (pgs_session_refresh), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->live, "done", G_CALLBACK (on_live_done), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->live, "failed", G_CALLBACK (on_live_failed), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->live, "notify::running", G_CALLBACK (update_busy), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->live, "notify::progress", G_CALLBACK (on_live_progress), self,
                           G_CONNECT_SWAPPED);

  self->settings = g_object_ref (pgs_settings_get_default ());
  for (guint i = 0; i < G_N_ELEMENTS (bound); i++)
    g_settings_bind (self->settings, bound[i].key, self, bound[i].property,
                     G_SETTINGS_BIND_DEFAULT | G_SETTINGS_BIND_NO_SENSITIVITY);
}

PgsSession *
pgs_session_new (void)
{
  return g_object_new (PGS_TYPE_SESSION, NULL);
}

/* Accessors */

GSettings *
pgs_session_get_settings (PgsSession *self)
{
  g_return_val_if_fail (PGS_IS_SESSION (self), NULL);
  return self->settings;
}

PgsSnapshot *
pgs_session_get_snapshot (PgsSession *self)
{
  g_return_val_if_fail (PGS_IS_SESSION (self), NULL);
  return self->snapshot;
}

GFile *
pgs_session_get_file (PgsSession *self)
{
  g_return_val_if_fail (PGS_IS_SESSION (self), NULL);
  if (self->replay != NULL)
    return pgs_recording_get_file (pgs_replay_get_recording (self->replay));
  return self->snapshot != NULL ? pgs_snapshot_get_file (self->snapshot) : NULL;
}

static void
set_chosen_process (PgsSession *self,
                    PgsProcess *process)
{
  if (!g_set_object (&self->chosen, process))
    return;
  follow_selection (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CHOSEN_PROCESS]);
}

const char *
pgs_session_get_unreadable (PgsSession *self)
{
  g_return_val_if_fail (PGS_IS_SESSION (self), NULL);
  return self->refresh != NULL ? pgs_refresh_get_unreadable (self->refresh) : NULL;
}

const char *
pgs_session_get_view (PgsSession *self)
{
  g_return_val_if_fail (PGS_IS_SESSION (self), NULL);
  return self->view;
}

void
pgs_session_set_view (PgsSession *self,
                      const char *view)
{
  g_return_if_fail (PGS_IS_SESSION (self));

  if (view == NULL || g_strcmp0 (self->view, view) == 0)
    return;
  g_free (self->view);
  self->view = g_strdup (view);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_VIEW]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_NEEDS]);
  /* Switched to a page that needs more than the last scan read: scan now. */
  if (self->snapshot != NULL && self->replay == NULL &&
      !pgs_refresh_list_covers (self->refresh, needs (self)))
    pgs_session_refresh (self);
  follow_selection (self);
}

PgsUnits
pgs_session_get_units (PgsSession *self)
{
  g_return_val_if_fail (PGS_IS_SESSION (self), PGS_UNITS_IEC);
  return self->units;
}

PgsLayout
pgs_session_get_layout (PgsSession *self)
{
  g_return_val_if_fail (PGS_IS_SESSION (self), PGS_LAYOUT_LINEAR);
  return self->layout;
}

gboolean
pgs_session_get_hide_free (PgsSession *self)
{
  g_return_val_if_fail (PGS_IS_SESSION (self), FALSE);
  return self->hide_free;
}

PgsHighlightMode
pgs_session_get_highlight_mode (PgsSession *self)
{
  g_return_val_if_fail (PGS_IS_SESSION (self), PGS_HIGHLIGHT_OUTLINE);
  return self->highlight_mode;
}

PgsHighlight *
pgs_session_get_highlight (PgsSession *self)
{
  g_return_val_if_fail (PGS_IS_SESSION (self), NULL);
  return self->highlight;
}

static void
set_highlight (PgsSession   *self,
               PgsHighlight *highlight)
{
  if (self->highlight == highlight)
    return;
  g_clear_pointer (&self->highlight, pgs_highlight_unref);
  self->highlight = highlight != NULL ? pgs_highlight_ref (highlight) : NULL;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_HIGHLIGHT]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_NEEDS]);
}

void
pgs_session_set_wss_samples (PgsSession *self,
                             int         pid,
                             GPtrArray  *samples)
{
  g_return_if_fail (PGS_IS_SESSION (self));

  if (samples != NULL && samples->len == 0)
    samples = NULL;
  if (self->wss_samples == samples && self->wss_pid == pid)
    return;
  g_clear_pointer (&self->wss_samples, g_ptr_array_unref);
  self->wss_samples = samples != NULL ? g_ptr_array_ref (samples) : NULL;
  self->wss_pid = samples != NULL ? pid : 0;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_WSS_SAMPLE]);
}

GPtrArray *
pgs_session_get_wss_samples (PgsSession *self)
{
  g_return_val_if_fail (PGS_IS_SESSION (self), NULL);
  return self->wss_samples;
}

int
pgs_session_get_wss_pid (PgsSession *self)
{
  g_return_val_if_fail (PGS_IS_SESSION (self), 0);
  return self->wss_pid;
}

gboolean
pgs_session_get_busy (PgsSession *self)
{
  g_return_val_if_fail (PGS_IS_SESSION (self), FALSE);
  return self->busy;
}

gboolean
pgs_session_is_scanning (PgsSession *self)
{
  g_return_val_if_fail (PGS_IS_SESSION (self), FALSE);
  return pgs_live_scan_is_running (self->live);
}

gboolean
pgs_session_is_scan_automatic (PgsSession *self)
{
  g_return_val_if_fail (PGS_IS_SESSION (self), FALSE);
  return pgs_live_scan_is_automatic (self->live);
}

PgsHelper *
pgs_session_get_helper (PgsSession *self)
{
  g_return_val_if_fail (PGS_IS_SESSION (self), NULL);
  return self->helper;
}

void
pgs_session_set_helper (PgsSession *self,
                        PgsHelper  *helper)
{
  g_return_if_fail (PGS_IS_SESSION (self));

  if (!g_set_object (&self->helper, helper))
    return;
  pgs_scanner_set_helper (pgs_live_scan_get_scanner (self->live), helper);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_HELPER]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_NEEDS]);
}
