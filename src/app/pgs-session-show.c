/* pgs-session-show.c: what the session shows, and how it stays current
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A live scan, a snapshot file, or a recording (a file's, or an instant of the history)
 * through a PgsReplay; scans come from a PgsLiveScan (pgs-live-scan.c: when), reading what
 * the page on screen needs (pgs-refresh.c: what). The selected process follows.
 */

#include "config.h"

#include "pgs-history.h"
#include "pgs-release.h"
#include "pgs-replay.h"
#include "pgs-session-private.h"

/* Scanning */

static void
update_busy (PgsSession *self)
{
  gboolean busy = pgs_live_scan_is_running (self->live) || pgs_refresh_is_busy (self->refresh);

  if (busy == self->busy)
    return;
  self->busy = busy;
  _pgs_session_notify (self, PROP_BUSY);
}

static void
on_live_progress (PgsSession *self)
{
  double progress;

  g_object_get (self->live, "progress", &progress, NULL);
  if (self->progress == progress)
    return;
  self->progress = progress;
  _pgs_session_notify (self, PROP_PROGRESS);
}

PgsScanFlags
_pgs_session_needs (PgsSession *self)
{
  return pgs_refresh_list_flags (self->view, self->helper, self->highlight != NULL);
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
  _pgs_session_notify (self, PROP_SELECTED_PROCESS);
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
  _pgs_session_notify (self, PROP_UNREADABLE);
}

/* The selection, the page on screen or the helper changed: the selected process follows. */
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
  rescan = pgs_refresh_list_shown (self->refresh, snapshot, _pgs_session_needs (self));

  _pgs_session_notify (self, PROP_SNAPSHOT);
  _pgs_session_notify (self, PROP_PICTURE);
  _pgs_session_notify (self, PROP_INSTANT);
  if (was_file != pgs_session_get_file (self))
    _pgs_session_notify (self, PROP_FILE);
  if (was_live != (pgs_session_get_file (self) == NULL))
    _pgs_session_notify (self, PROP_LIVE);

  /* The list carried the selection over by PID; the pages follow it to the new object,
   * its pages scanned anew where a page shows them. */
  follow_selection (self);
  return rescan;
}

static void
show_live (PgsSession  *self,
           PgsSnapshot *snapshot)
{
  gint64 t0 = g_get_monotonic_time ();
  gboolean rescan;

  /* The strip and Growth take the scan's totals when the list does, not when the scan ends:
   * the snapshot may be held for the selected process's pages (pgs-refresh.c), and a
   * history that moved first was a frame of the whole window of its own every interval. */
  pgs_history_add (self->history, snapshot);
  rescan = show_snapshot (self, snapshot);
  g_debug ("Swapped the new snapshot in: %.1f ms", (g_get_monotonic_time () - t0) / 1000.0);
  if (rescan)
    pgs_session_refresh (self);
}

static void
on_live_done (PgsSession  *self,
              PgsSnapshot *snapshot)
{
  if (self->hold_live)
    pgs_set_object_release (&self->held_live, snapshot);
  else if (!pgs_refresh_hold (self->refresh, snapshot))
    show_live (self, snapshot);
}

void
pgs_session_hold_live (PgsSession *self,
                       gboolean    hold)
{
  PgsSnapshot *held;

  g_return_if_fail (PGS_IS_SESSION (self));

  self->hold_live = hold;
  if (hold || self->held_live == NULL)
    return;
  held = g_steal_pointer (&self->held_live);
  if (!self->shut_down)
    on_live_done (self, held);
  pgs_release (held);
}

static void
on_live_failed (PgsSession   *self,
                const GError *error)
{
  g_signal_emit (self, _pgs_session_signals[SCAN_FAILED], 0, error);
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
  flags = _pgs_session_needs (self);
  if (!pgs_live_scan_start (self->live, flags))
    return;
  pgs_refresh_list_started (self->refresh, flags);
  /* A file being opened or saved is not wanted any more: the live view is. */
  g_signal_emit (self, _pgs_session_signals[SCAN_STARTED], 0);
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
  _pgs_session_notify (self, PROP_SNAPSHOT);
  _pgs_session_notify (self, PROP_INSTANT);
  follow_selection (self);
}

static void
on_replay_picture (PgsSession *self)
{
  _pgs_session_notify (self, PROP_PICTURE);
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
  _pgs_session_notify (self, PROP_RECORDING);
  _pgs_session_notify (self, PROP_REPLAY);
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
  _pgs_session_notify (self, PROP_RECORDING);
  _pgs_session_notify (self, PROP_REPLAY);
  _pgs_session_notify (self, PROP_FILE);
  if (was_live)
    _pgs_session_notify (self, PROP_LIVE);
  _pgs_session_notify (self, PROP_PICTURE);
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
  PgsReplay *replay = pgs_session_get_replay (self);

  return replay != NULL ? pgs_replay_get_recording (replay) : NULL;
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
  _pgs_session_notify (self, PROP_RECORDING);
  _pgs_session_notify (self, PROP_REPLAY);
}

GFile *
pgs_session_get_file (PgsSession *self)
{
  g_return_val_if_fail (PGS_IS_SESSION (self), NULL);
  if (self->replay != NULL)
    return pgs_recording_get_file (pgs_replay_get_recording (self->replay));
  return self->snapshot != NULL ? pgs_snapshot_get_file (self->snapshot) : NULL;
}

void
_pgs_session_set_chosen (PgsSession *self,
                         PgsProcess *process)
{
  if (!g_set_object (&self->chosen, process))
    return;
  follow_selection (self);
  _pgs_session_notify (self, PROP_CHOSEN_PROCESS);
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
  _pgs_session_notify (self, PROP_VIEW);
  _pgs_session_notify (self, PROP_NEEDS);
  /* Switched to a page that needs more than the last scan read: scan now. */
  if (self->snapshot != NULL && self->replay == NULL &&
      !pgs_refresh_list_covers (self->refresh, _pgs_session_needs (self)))
    pgs_session_refresh (self);
  follow_selection (self);
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
  _pgs_session_notify (self, PROP_WSS_SAMPLE);
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

void
_pgs_session_init_scans (PgsSession *self)
{
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
}
