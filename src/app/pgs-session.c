/* pgs-session.c: what the window's pages show, in one place
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The session owns the data shown (a live scan or a snapshot file), the selected process,
 * the page on screen, the display settings and the scans that keep them current; pages
 * bind to its properties (pgs-page.c), the window follows its notifications. Here: the
 * properties, bound to the settings (pgs-settings.c: what is shown never waits on a
 * setting being written); what is shown and the scans are pgs-session-show.c's.
 */

#include "config.h"

#include "pgs-release.h"
#include "pgs-session-private.h"
#include "pgs-settings.h"

GParamSpec *_pgs_session_properties[N_PROPS];
guint _pgs_session_signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (PgsSession, pgs_session, G_TYPE_OBJECT)

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
  pgs_clear_release (&self->held_live);
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
      g_value_set_uint (value, _pgs_session_needs (self));
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
set_highlight (PgsSession   *self,
               PgsHighlight *highlight)
{
  if (self->highlight == highlight)
    return;
  g_clear_pointer (&self->highlight, pgs_highlight_unref);
  self->highlight = highlight != NULL ? pgs_highlight_ref (highlight) : NULL;
  _pgs_session_notify (self, PROP_HIGHLIGHT);
  _pgs_session_notify (self, PROP_NEEDS);
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
      _pgs_session_set_chosen (self, g_value_get_object (value));
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
  GParamSpec **properties = _pgs_session_properties;
  guint *signals = _pgs_session_signals;
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
  _pgs_session_init_scans (self);

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
  _pgs_session_notify (self, PROP_HELPER);
  _pgs_session_notify (self, PROP_NEEDS);
}
