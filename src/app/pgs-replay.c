/* pgs-replay.c: an instant of a recording, as the session shows it
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A recording has two kinds of instant: samples (every process's totals, every second or
 * so) and page-level pictures (a whole snapshot, every minute or so). The process list
 * shows the sample nearest the instant chosen; the pages, sharing and flag maps show the
 * picture nearest it. A sample decodes in a few milliseconds, so it is read at once; a
 * picture can take up to a second, so it is read in a worker thread
 * (pgs_recording_get_picture_async) and the maps keep the one before until it is in.
 * The session owns one of these while a recording is shown and follows its notifications,
 * as it follows PgsRefresh: nothing here knows the session.
 */

#include "config.h"

#include <glib/gi18n.h>

#include "pgs-growth.h"
#include "pgs-release.h"
#include "pgs-replay.h"

struct _PgsReplay
{
  GObject        parent_instance;

  PgsRecording  *recording;
  guint          sample;
  guint          picture_index;   /* of the picture asked for (shown, or being read) */
  guint          picture_shown;   /* of the picture in "picture" */
  PgsSnapshot   *snapshot;
  PgsSnapshot   *picture;
  GCancellable  *loading;
  char          *error;
  guint          range_from;      /* samples; the whole recording unless a range is chosen */
  guint          range_to;
  PgsGrowth     *growth;          /* over the range; NULL while it is computed */
  GCancellable  *growing;
};

enum {
  PROP_0,
  PROP_SNAPSHOT,
  PROP_PICTURE,
  PROP_SAMPLE,
  PROP_PICTURE_INDEX,
  PROP_LOADING,
  PROP_ERROR,
  PROP_RANGE_FROM,
  PROP_RANGE_TO,
  PROP_GROWTH,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (PgsReplay, pgs_replay, G_TYPE_OBJECT)

static void
set_error (PgsReplay  *self,
           const char *error)
{
  if (g_strcmp0 (self->error, error) == 0)
    return;
  g_free (self->error);
  self->error = g_strdup (error);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ERROR]);
}

static void
set_loading (PgsReplay    *self,
             GCancellable *loading)
{
  gboolean was = self->loading != NULL;

  if (self->loading != NULL && self->loading != loading)
    g_cancellable_cancel (self->loading);
  g_set_object (&self->loading, loading);
  if (was != (loading != NULL))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOADING]);
}

typedef struct
{
  PgsReplay *self;
  guint      index;
} PictureData;

static void
picture_done (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  PictureData *data = user_data;
  g_autoptr(PgsReplay) self = data->self;
  g_autoptr(PgsSnapshot) picture = NULL;
  g_autoptr(GError) error = NULL;
  GCancellable *cancellable = g_task_get_cancellable (G_TASK (result));
  guint index = data->index;

  g_free (data);
  picture = pgs_recording_get_picture_finish (PGS_RECORDING (object), result, &error);
  /* Another picture was asked for meanwhile (the recording reads one at a time: the
   * thread itself is not stopped), or the session went. */
  if (cancellable != self->loading || g_cancellable_is_cancelled (cancellable))
    return;
  set_loading (self, NULL);
  if (picture == NULL)
    {
      g_autofree char *text = g_strdup_printf (_("Picture %u could not be read: %s"), index + 1,
                                               error->message);

      set_error (self, text);
      return;
    }
  set_error (self, NULL);
  self->picture_shown = index;
  if (pgs_set_object_release (&self->picture, picture))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PICTURE]);
}

static void
load_picture (PgsReplay *self,
              guint      index)
{
  g_autoptr(GCancellable) loading = NULL;
  PictureData *data;

  if (index == self->picture_index)
    return;
  self->picture_index = index;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PICTURE_INDEX]);
  if (index == G_MAXUINT)
    {
      set_loading (self, NULL);
      self->picture_shown = G_MAXUINT;
      if (pgs_set_object_release (&self->picture, NULL))
        g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PICTURE]);
      return;
    }
  loading = g_cancellable_new ();
  set_loading (self, loading);
  data = g_new0 (PictureData, 1);
  data->self = g_object_ref (self);
  data->index = index;
  pgs_recording_get_picture_async (self->recording, index, loading, picture_done, data);
}

void
pgs_replay_move_to_sample (PgsReplay *self,
                           guint      sample)
{
  g_autoptr(PgsSnapshot) snapshot = NULL;
  g_autoptr(GError) error = NULL;
  guint n_samples;

  g_return_if_fail (PGS_IS_REPLAY (self));

  n_samples = pgs_recording_get_n_samples (self->recording);
  if (n_samples == 0)
    return;
  sample = MIN (sample, n_samples - 1);
  if (sample == self->sample && self->snapshot != NULL)
    return;

  snapshot = pgs_recording_get_snapshot_at_sample (self->recording, sample, &error);
  if (snapshot == NULL)
    {
      g_autofree char *text = g_strdup_printf (_("Sample %u could not be read: %s"), sample + 1,
                                               error->message);

      set_error (self, text);
      return;
    }
  set_error (self, NULL);
  self->sample = sample;
  pgs_set_object_release (&self->snapshot, snapshot);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SAMPLE]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SNAPSHOT]);
  load_picture (self, pgs_recording_find_picture (self->recording,
                                                  pgs_recording_get_sample_time (self->recording,
                                                                                 sample)));
}

void
pgs_replay_move_by (PgsReplay *self,
                    int        samples)
{
  g_return_if_fail (PGS_IS_REPLAY (self));
  if (samples < 0 && (guint) -samples > self->sample)
    pgs_replay_move_to_sample (self, 0);
  else
    pgs_replay_move_to_sample (self, self->sample + samples);
}

/* The process @chosen (from a sample's totals) as the nearest picture has it, with its
 * pages; NULL where the picture has no such process, or none is read. */
PgsProcess *
pgs_replay_find_in_picture (PgsReplay  *self,
                            PgsProcess *chosen)
{
  PgsProcess *found;

  g_return_val_if_fail (PGS_IS_REPLAY (self), NULL);
  if (chosen == NULL || self->picture == NULL)
    return NULL;
  found = pgs_snapshot_lookup_pid (self->picture, pgs_process_get_pid (chosen));
  /* The same PID started again between the two instants is another process. */
  if (found != NULL && pgs_process_get_start_time (found) != 0 &&
      pgs_process_get_start_time (chosen) != 0 &&
      pgs_process_get_start_time (found) != pgs_process_get_start_time (chosen))
    return NULL;
  return found;
}

void
pgs_replay_move_to_time (PgsReplay *self,
                         gint64     time)
{
  guint sample;

  g_return_if_fail (PGS_IS_REPLAY (self));

  sample = pgs_recording_find_sample (self->recording, time);
  if (sample != G_MAXUINT)
    pgs_replay_move_to_sample (self, sample);
}

char *
pgs_replay_describe (PgsReplay *self,
                     gboolean   pages)
{
  g_autofree char *when = NULL;
  g_autofree char *sample_when = NULL;

  g_return_val_if_fail (PGS_IS_REPLAY (self), NULL);

  if (self->snapshot == NULL)
    return NULL;
  sample_when = pgs_recording_format_time (self->recording,
                                           pgs_recording_get_sample_time (self->recording,
                                                                          self->sample));
  if (!pages)
    /* Translators: "Totals of sample 4 of 10, 2026-12-05 10:04:07 CET (+67 s)" */
    return g_strdup_printf (_("Totals of sample %u of %u, %s"), self->sample + 1,
                            pgs_recording_get_n_samples (self->recording), sample_when);
  if (self->picture_index == G_MAXUINT)
    return g_strdup (_("This recording has no page-level picture"));
  if (self->picture_shown == G_MAXUINT || self->picture == NULL)
    return g_strdup (_("Reading the page-level picture…"));
  when = pgs_recording_format_time (self->recording,
                                    pgs_recording_get_picture_time (self->recording,
                                                                    self->picture_shown));
  /* Translators: "Page-level picture 2 of 3, 2026-12-05 10:04:00 CET (+60 s), the nearest to
   * sample 4, 2026-12-05 10:04:07 CET (+67 s)" */
  return g_strdup_printf (_("Page-level picture %u of %u, %s, the nearest to sample %u, %s"),
                          self->picture_shown + 1,
                          pgs_recording_get_n_pictures (self->recording), when,
                          self->sample + 1, sample_when);
}

static void
growth_done (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(PgsReplay) self = user_data;
  g_autoptr(PgsGrowth) growth = NULL;
  g_autoptr(GError) error = NULL;
  GCancellable *cancellable = g_task_get_cancellable (G_TASK (result));

  growth = pgs_growth_new_finish (result, &error);
  /* Another range was chosen meanwhile, or the session went. */
  if (cancellable != self->growing || g_cancellable_is_cancelled (cancellable))
    return;
  g_clear_object (&self->growing);
  if (growth == NULL)
    {
      g_autofree char *text = g_strdup_printf (_("Growth could not be computed: %s"), error->message);

      set_error (self, text);
      return;
    }
  g_set_object (&self->growth, growth);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_GROWTH]);
}

/* The Growth of every process over the range, in a worker thread: a long recording has
 * thousands of samples to read. */
static void
compute_growth (PgsReplay *self)
{
  if (self->growing != NULL)
    g_cancellable_cancel (self->growing);
  g_clear_object (&self->growing);
  if (self->growth != NULL)
    {
      g_clear_object (&self->growth);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_GROWTH]);
    }
  if (pgs_recording_get_n_samples (self->recording) == 0)
    return;
  self->growing = g_cancellable_new ();
  pgs_growth_new_async (self->recording, self->range_from, self->range_to, self->growing,
                        growth_done, g_object_ref (self));
}

PgsGrowth *
pgs_replay_get_growth (PgsReplay *self)
{
  g_return_val_if_fail (PGS_IS_REPLAY (self), NULL);
  return self->growth;
}

void
pgs_replay_cancel (PgsReplay *self)
{
  g_return_if_fail (PGS_IS_REPLAY (self));
  set_loading (self, NULL);
  if (self->growing != NULL)
    g_cancellable_cancel (self->growing);
  g_clear_object (&self->growing);
}

/* GObject */

static void
pgs_replay_dispose (GObject *object)
{
  PgsReplay *self = PGS_REPLAY (object);

  if (self->loading != NULL)
    g_cancellable_cancel (self->loading);
  g_clear_object (&self->loading);
  if (self->growing != NULL)
    g_cancellable_cancel (self->growing);
  g_clear_object (&self->growing);
  g_clear_object (&self->growth);
  pgs_clear_release (&self->snapshot);
  pgs_clear_release (&self->picture);
  g_clear_object (&self->recording);

  G_OBJECT_CLASS (pgs_replay_parent_class)->dispose (object);
}

static void
pgs_replay_finalize (GObject *object)
{
  PgsReplay *self = PGS_REPLAY (object);

  g_free (self->error);

  G_OBJECT_CLASS (pgs_replay_parent_class)->finalize (object);
}

static void
pgs_replay_get_property (GObject    *object,
                         guint       prop_id,
                         GValue     *value,
                         GParamSpec *pspec)
{
  PgsReplay *self = PGS_REPLAY (object);

  switch (prop_id)
    {
    case PROP_SNAPSHOT:
      g_value_set_object (value, self->snapshot);
      break;
    case PROP_PICTURE:
      g_value_set_object (value, self->picture);
      break;
    case PROP_SAMPLE:
      g_value_set_uint (value, self->sample);
      break;
    case PROP_PICTURE_INDEX:
      g_value_set_uint (value, self->picture_index);
      break;
    case PROP_LOADING:
      g_value_set_boolean (value, self->loading != NULL);
      break;
    case PROP_ERROR:
      g_value_set_string (value, self->error);
      break;
    case PROP_RANGE_FROM:
      g_value_set_uint (value, self->range_from);
      break;
    case PROP_RANGE_TO:
      g_value_set_uint (value, self->range_to);
      break;
    case PROP_GROWTH:
      g_value_set_object (value, self->growth);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pgs_replay_class_init (PgsReplayClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  const GParamFlags r = G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->dispose = pgs_replay_dispose;
  object_class->finalize = pgs_replay_finalize;
  object_class->get_property = pgs_replay_get_property;

  properties[PROP_SNAPSHOT] = g_param_spec_object ("snapshot", NULL, NULL, PGS_TYPE_SNAPSHOT, r);
  properties[PROP_PICTURE] = g_param_spec_object ("picture", NULL, NULL, PGS_TYPE_SNAPSHOT, r);
  properties[PROP_SAMPLE] = g_param_spec_uint ("sample", NULL, NULL, 0, G_MAXUINT, 0, r);
  properties[PROP_PICTURE_INDEX] =
    g_param_spec_uint ("picture-index", NULL, NULL, 0, G_MAXUINT, G_MAXUINT, r);
  properties[PROP_LOADING] = g_param_spec_boolean ("loading", NULL, NULL, FALSE, r);
  properties[PROP_ERROR] = g_param_spec_string ("error", NULL, NULL, NULL, r);
  /* The samples a Growth figure and a range comparison span, first and last included. */
  properties[PROP_RANGE_FROM] = g_param_spec_uint ("range-from", NULL, NULL, 0, G_MAXUINT, 0, r);
  properties[PROP_RANGE_TO] = g_param_spec_uint ("range-to", NULL, NULL, 0, G_MAXUINT, 0, r);
  /* Every process's Growth over the range (pgs-growth.h); NULL while it is computed. */
  properties[PROP_GROWTH] = g_param_spec_object ("growth", NULL, NULL, PGS_TYPE_GROWTH, r);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
pgs_replay_init (PgsReplay *self)
{
  self->picture_index = G_MAXUINT;
  self->picture_shown = G_MAXUINT;
}

PgsReplay *
pgs_replay_new (PgsRecording *recording)
{
  PgsReplay *self;

  g_return_val_if_fail (PGS_IS_RECORDING (recording), NULL);

  self = g_object_new (PGS_TYPE_REPLAY, NULL);
  self->recording = g_object_ref (recording);
  self->range_to = MAX (pgs_recording_get_n_samples (recording), 1) - 1;
  compute_growth (self);
  return self;
}

void
pgs_replay_set_range (PgsReplay *self,
                      guint      from,
                      guint      to)
{
  guint last;

  g_return_if_fail (PGS_IS_REPLAY (self));

  last = MAX (pgs_recording_get_n_samples (self->recording), 1) - 1;
  from = MIN (from, last);
  to = MIN (to, last);
  if (from > to)
    {
      guint t = from;

      from = to;
      to = t;
    }
  if (self->range_from == from && self->range_to == to)
    return;
  g_object_freeze_notify (G_OBJECT (self));
  if (self->range_from != from)
    {
      self->range_from = from;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RANGE_FROM]);
    }
  if (self->range_to != to)
    {
      self->range_to = to;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RANGE_TO]);
    }
  compute_growth (self);
  g_object_thaw_notify (G_OBJECT (self));
}

void
pgs_replay_get_range (PgsReplay *self,
                      guint     *from,
                      guint     *to)
{
  g_return_if_fail (PGS_IS_REPLAY (self));
  *from = self->range_from;
  *to = self->range_to;
}

PgsRecording *
pgs_replay_get_recording (PgsReplay *self)
{
  g_return_val_if_fail (PGS_IS_REPLAY (self), NULL);
  return self->recording;
}

guint
pgs_replay_get_sample (PgsReplay *self)
{
  g_return_val_if_fail (PGS_IS_REPLAY (self), 0);
  return self->sample;
}

guint
pgs_replay_get_picture_index (PgsReplay *self)
{
  g_return_val_if_fail (PGS_IS_REPLAY (self), G_MAXUINT);
  return self->picture_index;
}

PgsSnapshot *
pgs_replay_get_snapshot (PgsReplay *self)
{
  g_return_val_if_fail (PGS_IS_REPLAY (self), NULL);
  return self->snapshot;
}

PgsSnapshot *
pgs_replay_get_picture (PgsReplay *self)
{
  g_return_val_if_fail (PGS_IS_REPLAY (self), NULL);
  return self->picture;
}

gboolean
pgs_replay_is_loading (PgsReplay *self)
{
  g_return_val_if_fail (PGS_IS_REPLAY (self), FALSE);
  return self->loading != NULL;
}

const char *
pgs_replay_get_error (PgsReplay *self)
{
  g_return_val_if_fail (PGS_IS_REPLAY (self), NULL);
  return self->error;
}
