/* pgs-history.c: the last minutes of the live system's totals, kept in memory
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Issue 18: without a recording file, the strip and Growth work from launch. Each live scan
 * of every process (PgsLiveScan, every refresh interval) already has every process's
 * totals; the history keeps them as a PgsSample (the form a recording's samples take, so the
 * strip, Growth and the process list read them as they read a file's, with nothing to
 * decode), adds the /proc/meminfo counters the strip stacks, and drops the samples older
 * than the window. After each scan it hands out the samples kept as a new, immutable
 * recording in memory (pgs_recording_new_for_samples): the samples are shared, not copied,
 * so a worker thread still reading the last one (the strip's figures, Growth) is never
 * disturbed. No sampler of its own: its step is the refresh interval, and it costs one
 * read of /proc/meminfo and one array of totals per scan (figures in README.md).
 */

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "pgs-history.h"
#include "pgs-live-scan.h"

/* The counters pgs-timeline-data.c stacks, under the names a recording gives them. */
static const char *const counters[] = {
  "MemTotal", "MemFree", "AnonPages", "Mapped", "Shmem", "Cached", "Slab", "KernelStack",
  "PageTables",
};

struct _PgsHistory
{
  GObject       parent_instance;

  guint         window;      /* seconds */
  GPtrArray    *samples;     /* PgsSample, oldest first */
  GPtrArray    *names;       /* "meminfo/…" then "zram/…", shared by every sample */
  PgsLiveScan  *live;
  PgsRecording *recording;
  PgsReplay    *replay;
  PgsSnapshot  *past;
  gboolean      moving;      /* the history moves its replay itself */
};

enum {
  PROP_0,
  PROP_WINDOW,
  PROP_RECORDING,
  PROP_REPLAY,
  PROP_PAST,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (PgsHistory, pgs_history, G_TYPE_OBJECT)

/* Each zram device's mem_used_total, the third figure of its mm_stat, after the meminfo
 * counters in @values; absent where unread. */
static void
read_zram (PgsHistory *self,
           GArray     *values)
{
  for (guint i = G_N_ELEMENTS (counters); i < self->names->len; i++)
    {
      /* "zram/NAME/mem_used_total" */
      g_auto(GStrv) parts = g_strsplit (g_ptr_array_index (self->names, i), "/", 3);
      g_autofree char *path = g_build_filename ("/sys/block", parts[1], "mm_stat", NULL);
      g_autofree char *text = NULL;
      g_auto(GStrv) fields = NULL;
      guint64 used = PGS_SAMPLE_ABSENT;

      if (g_file_get_contents (path, &text, NULL, NULL))
        {
          fields = g_strsplit_set (g_strstrip (text), " \t", -1);
          for (guint f = 0, n = 0; fields[f] != NULL; f++)
            if (fields[f][0] != '\0' && ++n == 3)
              {
                used = g_ascii_strtoull (fields[f], NULL, 10);
                break;
              }
        }
      g_array_append_val (values, used);
    }
}

/* MemTotal and the rest from /proc/meminfo, in bytes, then zram's; absent where unread. */
static void
read_counters (PgsHistory *self,
               GArray     *values)
{
  g_autofree char *text = NULL;

  g_array_set_size (values, G_N_ELEMENTS (counters));
  for (guint i = 0; i < G_N_ELEMENTS (counters); i++)
    g_array_index (values, guint64, i) = PGS_SAMPLE_ABSENT;
  read_zram (self, values);
  if (!g_file_get_contents ("/proc/meminfo", &text, NULL, NULL))
    return;
  for (const char *line = text; line != NULL && *line != '\0';)
    {
      const char *colon = strchr (line, ':');
      const char *end = strchr (line, '\n');

      if (colon != NULL && (end == NULL || colon < end))
        for (guint i = 0; i < G_N_ELEMENTS (counters); i++)
          if ((gsize) (colon - line) == strlen (counters[i]) &&
              strncmp (line, counters[i], colon - line) == 0)
            g_array_index (values, guint64, i) = g_ascii_strtoull (colon + 1, NULL, 10) * 1024;
      line = end != NULL ? end + 1 : NULL;
    }
}

static void
set_past (PgsHistory  *self,
          PgsSnapshot *past)
{
  if (g_set_object (&self->past, past))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PAST]);
}

/* The replay was moved (the strip clicked, Alt+Left): that instant is shown, the newest
 * sample too (the running system may have changed since), and no scan may replace it until
 * one is asked for (Back to Live, F5). */
static void
on_replay_snapshot (PgsHistory *self)
{
  if (self->moving)
    return;
  pgs_live_scan_hold (self->live);
  set_past (self, pgs_replay_get_snapshot (self->replay));
}

static void
drop_replay (PgsHistory *self)
{
  if (self->replay == NULL)
    return;
  g_signal_handlers_disconnect_by_data (self->replay, self);
  pgs_replay_cancel (self->replay);
  g_clear_object (&self->replay);
}

/* A new recording: a replay over it at its newest sample, over the range chosen on the
 * one before (by time: the samples' indices moved) or the whole window. */
static void
replace (PgsHistory   *self,
         PgsRecording *recording)
{
  gint64 from_time = 0, to_time = 0;
  gboolean ranged = FALSE;

  if (self->replay != NULL)
    {
      PgsRecording *old = pgs_replay_get_recording (self->replay);
      guint from, to;

      pgs_replay_get_range (self->replay, &from, &to);
      ranged = from != 0 || to != pgs_recording_get_n_samples (old) - 1;
      from_time = pgs_recording_get_sample_time (old, from);
      to_time = pgs_recording_get_sample_time (old, to);
    }
  drop_replay (self);
  g_set_object (&self->recording, recording);
  if (recording != NULL)
    {
      self->replay = pgs_replay_new (recording);
      if (ranged && to_time >= pgs_recording_get_start_time (recording))
        pgs_replay_set_range (self->replay, pgs_recording_find_sample (recording, from_time),
                              pgs_recording_find_sample (recording, to_time));
      self->moving = TRUE;
      pgs_replay_move_to_sample (self->replay, G_MAXUINT);
      self->moving = FALSE;
      g_signal_connect_object (self->replay, "notify::snapshot", G_CALLBACK (on_replay_snapshot),
                               self, G_CONNECT_SWAPPED);
    }
  set_past (self, NULL);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RECORDING]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_REPLAY]);
}

void
pgs_history_add (PgsHistory  *self,
                 PgsSnapshot *snapshot)
{
  g_autoptr(PgsRecording) recording = NULL;
  PgsSample *sample, *last;

  g_return_if_fail (PGS_IS_HISTORY (self));
  g_return_if_fail (PGS_IS_SNAPSHOT (snapshot));

  if (self->window == 0)
    return;
  last = self->samples->len > 0 ? g_ptr_array_index (self->samples, self->samples->len - 1) : NULL;
  /* The clock went back: what is kept would be out of order. */
  if (last != NULL && pgs_snapshot_get_time (snapshot) < last->time)
    g_ptr_array_set_size (self->samples, 0);
  sample = pgs_sample_new_for_snapshot (snapshot);
  g_ptr_array_unref (sample->names);
  sample->names = g_ptr_array_ref (self->names);
  read_counters (self, sample->values);
  g_ptr_array_add (self->samples, sample);
  /* Samples older than the window before the newest go. */
  while (self->samples->len > 1 &&
         ((PgsSample *) g_ptr_array_index (self->samples, 0))->time <
         sample->time - (gint64) self->window * G_USEC_PER_SEC)
    g_ptr_array_remove_index (self->samples, 0);
  recording = pgs_recording_new_for_samples (self->samples, snapshot, 0);
  replace (self, recording);
}

PgsHistory *
pgs_history_new (PgsLiveScan *live)
{
  PgsHistory *self;

  g_return_val_if_fail (PGS_IS_LIVE_SCAN (live), NULL);
  self = g_object_new (PGS_TYPE_HISTORY, NULL);
  self->live = g_object_ref (live);
  return self;
}

guint
pgs_history_get_window (PgsHistory *self)
{
  g_return_val_if_fail (PGS_IS_HISTORY (self), 0);
  return self->window;
}

void
pgs_history_set_window (PgsHistory *self,
                        guint       seconds)
{
  g_return_if_fail (PGS_IS_HISTORY (self));

  if (self->window == seconds)
    return;
  self->window = seconds;
  /* Shorter: the next scan drops what falls out; none: nothing is kept from now. */
  if (seconds == 0)
    {
      g_ptr_array_set_size (self->samples, 0);
      replace (self, NULL);
    }
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_WINDOW]);
}

PgsRecording *
pgs_history_get_recording (PgsHistory *self)
{
  g_return_val_if_fail (PGS_IS_HISTORY (self), NULL);
  return self->recording;
}

PgsReplay *
pgs_history_get_replay (PgsHistory *self)
{
  g_return_val_if_fail (PGS_IS_HISTORY (self), NULL);
  return self->replay;
}

PgsSnapshot *
pgs_history_get_past (PgsHistory *self)
{
  g_return_val_if_fail (PGS_IS_HISTORY (self), NULL);
  return self->past;
}

/* GObject */

static void
pgs_history_dispose (GObject *object)
{
  PgsHistory *self = PGS_HISTORY (object);

  drop_replay (self);
  g_clear_object (&self->live);
  g_clear_object (&self->recording);
  g_clear_object (&self->past);
  G_OBJECT_CLASS (pgs_history_parent_class)->dispose (object);
}

static void
pgs_history_finalize (GObject *object)
{
  PgsHistory *self = PGS_HISTORY (object);

  g_ptr_array_unref (self->samples);
  g_ptr_array_unref (self->names);
  G_OBJECT_CLASS (pgs_history_parent_class)->finalize (object);
}

static void
pgs_history_get_property (GObject    *object,
                          guint       prop_id,
                          GValue     *value,
                          GParamSpec *pspec)
{
  PgsHistory *self = PGS_HISTORY (object);

  switch (prop_id)
    {
    case PROP_WINDOW:
      g_value_set_uint (value, self->window);
      break;
    case PROP_RECORDING:
      g_value_set_object (value, self->recording);
      break;
    case PROP_REPLAY:
      g_value_set_object (value, self->replay);
      break;
    case PROP_PAST:
      g_value_set_object (value, self->past);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pgs_history_set_property (GObject      *object,
                          guint         prop_id,
                          const GValue *value,
                          GParamSpec   *pspec)
{
  switch (prop_id)
    {
    case PROP_WINDOW:
      pgs_history_set_window (PGS_HISTORY (object), g_value_get_uint (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pgs_history_class_init (PgsHistoryClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  const GParamFlags r = G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->dispose = pgs_history_dispose;
  object_class->finalize = pgs_history_finalize;
  object_class->get_property = pgs_history_get_property;
  object_class->set_property = pgs_history_set_property;

  properties[PROP_WINDOW] =
    g_param_spec_uint ("window", NULL, NULL, 0, G_MAXUINT, PGS_HISTORY_DEFAULT_SECONDS,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_RECORDING] =
    g_param_spec_object ("recording", NULL, NULL, PGS_TYPE_RECORDING, r);
  properties[PROP_REPLAY] = g_param_spec_object ("replay", NULL, NULL, PGS_TYPE_REPLAY, r);
  properties[PROP_PAST] = g_param_spec_object ("past", NULL, NULL, PGS_TYPE_SNAPSHOT, r);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
pgs_history_init (PgsHistory *self)
{
  const char *env = g_getenv ("PGS_HISTORY_SECONDS");

  self->window = env != NULL ? (guint) strtoul (env, NULL, 10) : PGS_HISTORY_DEFAULT_SECONDS;
  self->samples = g_ptr_array_new_with_free_func ((GDestroyNotify) pgs_sample_free);
  self->names = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < G_N_ELEMENTS (counters); i++)
    g_ptr_array_add (self->names, g_strconcat ("meminfo/", counters[i], NULL));
  /* The zram devices there are at start (a device added later is not drawn). */
  {
    g_autoptr(GDir) dir = g_dir_open ("/sys/block", 0, NULL);
    const char *entry;

    while (dir != NULL && (entry = g_dir_read_name (dir)) != NULL)
      if (g_str_has_prefix (entry, "zram"))
        g_ptr_array_add (self->names, g_strdup_printf ("zram/%s/mem_used_total", entry));
  }
}
