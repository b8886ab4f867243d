/* pgs-recorder.c
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The app's Record button writes the same file pagescope-cli record does, with the same
 * library calls (PgsSampler for the totals, PgsScanner for the pictures, PgsRecordingWriter),
 * in one worker thread that owns all three: nothing it touches is shared with the main loop
 * but the Job below. The worker counts the samples under the Job's lock and queues at most
 * one idle callback at a time to bring the count to the main thread, where the properties
 * change; a stop wakes it through the Job's condition rather than after a sleep.
 */

#include "config.h"

#include <sys/resource.h>
#include <unistd.h>

#include <glib/gi18n.h>

#include "pagescope.h"
#include "pgs-recorder.h"

typedef struct
{
  GMutex              lock;
  GCond               wake;
  gboolean            stop;          /* under lock */
  guint               n_samples;     /* under lock */
  gboolean            idle_queued;   /* under lock */
  PgsRecordingWriter *writer;        /* the worker's alone once it runs */
  guint               interval_ms;
  guint               pages_every_ms;
  char               *path;
  GCancellable       *cancellable;   /* a stop also cuts a picture short */
} Job;

static void
job_clear (gpointer data)
{
  Job *job = data;

  g_clear_pointer (&job->writer, pgs_recording_writer_free);
  g_clear_object (&job->cancellable);
  g_mutex_clear (&job->lock);
  g_cond_clear (&job->wake);
  g_free (job->path);
}

/* Shared by the recorder, the worker's task and each progress idle. */
static void
job_unref (gpointer data)
{
  g_atomic_rc_box_release_full (data, job_clear);
}

struct _PgsRecorder
{
  GObject    parent_instance;

  Job       *job;          /* while recording */
  GFile     *file;
  guint      n_samples;
  gint64     started;      /* monotonic µs */
  guint      elapsed;      /* seconds */
  guint      tick;         /* the elapsed time's timeout */
};

enum {
  PROP_0,
  PROP_RECORDING,
  PROP_N_SAMPLES,
  PROP_ELAPSED,
  PROP_FILE,
  N_PROPS
};

enum {
  FINISHED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (PgsRecorder, pgs_recorder, G_TYPE_OBJECT)

/* The worker */

typedef struct
{
  PgsRecorder *self;
  Job         *job;
} Progress;

static gboolean
progress_idle (gpointer data)
{
  Progress *progress = data;
  PgsRecorder *self = progress->self;
  guint n;

  g_mutex_lock (&progress->job->lock);
  n = progress->job->n_samples;
  progress->job->idle_queued = FALSE;
  g_mutex_unlock (&progress->job->lock);
  /* Only the recording still going: a late idle of one stopped says nothing new. */
  if (self->job == progress->job && n != self->n_samples)
    {
      self->n_samples = n;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_SAMPLES]);
    }
  return G_SOURCE_REMOVE;
}

static void
progress_free (gpointer data)
{
  Progress *progress = data;

  g_object_unref (progress->self);
  job_unref (progress->job);
  g_free (progress);
}

/* Sleeps until @deadline (monotonic µs) or a stop; whether to go on. */
static gboolean
wait_until (Job    *job,
            gint64  deadline)
{
  gboolean stop;

  g_mutex_lock (&job->lock);
  while (!job->stop && g_get_monotonic_time () < deadline)
    g_cond_wait_until (&job->wake, &job->lock, deadline);
  stop = job->stop;
  g_mutex_unlock (&job->lock);
  return !stop;
}

static PgsSnapshot *
take_picture (PgsScanner   *scanner,
              GCancellable *cancellable)
{
  g_autoptr(GError) error = NULL;
  PgsSnapshot *snapshot;

  /* As pagescope-cli record: the physical map where it may be read, without it otherwise. */
  pgs_scanner_set_flags (scanner, PGS_SCAN_MAPPINGS | PGS_SCAN_PAGES | PGS_SCAN_PHYSMAP);
  snapshot = pgs_scanner_scan (scanner, cancellable, &error);
  if (snapshot == NULL && g_error_matches (error, PGS_ERROR, PGS_ERROR_NO_PERMISSION))
    {
      g_clear_error (&error);
      pgs_scanner_set_flags (scanner, PGS_SCAN_MAPPINGS | PGS_SCAN_PAGES);
      snapshot = pgs_scanner_scan (scanner, cancellable, &error);
    }
  if (snapshot == NULL && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    g_warning ("Recording: no page-level picture: %s", error->message);
  return snapshot;
}

static void
record_thread (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *task_cancellable)
{
  PgsRecorder *self = source_object;
  Job *job = task_data;
  g_autoptr(PgsSampler) sampler = pgs_sampler_new (NULL, NULL);
  g_autoptr(PgsScanner) scanner = job->pages_every_ms > 0 ? pgs_scanner_new () : NULL;
  g_autoptr(GError) error = NULL;
  gint64 interval = (gint64) job->interval_ms * 1000;
  gint64 pages_every = (gint64) job->pages_every_ms * 1000;
  gint64 next_sample = g_get_monotonic_time ();
  gint64 next_picture = scanner != NULL ? next_sample : G_MAXINT64;

  do
    {
      gint64 now;
      gboolean queue;

      if (!pgs_recording_writer_add_sample (job->writer, pgs_sampler_sample (sampler), &error))
        break;
      g_mutex_lock (&job->lock);
      job->n_samples = pgs_recording_writer_get_n_samples (job->writer);
      queue = !job->idle_queued;
      job->idle_queued = TRUE;
      g_mutex_unlock (&job->lock);
      if (queue)
        {
          Progress *progress = g_new0 (Progress, 1);

          progress->self = g_object_ref (self);
          progress->job = g_atomic_rc_box_acquire (job);
          g_idle_add_full (G_PRIORITY_DEFAULT, progress_idle, progress, progress_free);
        }

      now = g_get_monotonic_time ();
      if (now >= next_picture)
        {
          g_autoptr(PgsSnapshot) picture = take_picture (scanner, job->cancellable);

          if (picture != NULL &&
              !pgs_recording_writer_add_picture (job->writer, picture, pgs_snapshot_get_time (picture),
                                                 &error))
            break;
          next_picture += pages_every;
          if (next_picture < now)
            next_picture = now + pages_every;
        }
      next_sample += interval;
      if (next_sample < now)
        next_sample = now;
    }
  while (wait_until (job, next_sample));

  /* Closed also after a failed write: every sample before it stays readable. */
  if (error == NULL)
    pgs_recording_writer_close (job->writer, &error);
  g_mutex_lock (&job->lock);
  job->n_samples = pgs_recording_writer_get_n_samples (job->writer);
  g_mutex_unlock (&job->lock);
  g_clear_pointer (&job->writer, pgs_recording_writer_free);
  if (error != NULL)
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_boolean (task, TRUE);
}

/* The main thread */

static void
set_recording (PgsRecorder *self,
               Job         *job)
{
  if (self->job != NULL)
    job_unref (self->job);
  self->job = job;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RECORDING]);
}

static gboolean
tick (gpointer data)
{
  PgsRecorder *self = data;
  guint elapsed = (guint) ((g_get_monotonic_time () - self->started) / G_USEC_PER_SEC);

  if (elapsed != self->elapsed)
    {
      self->elapsed = elapsed;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ELAPSED]);
    }
  return G_SOURCE_CONTINUE;
}

static void
record_done (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  PgsRecorder *self = PGS_RECORDER (object);
  Job *job = g_task_get_task_data (G_TASK (result));
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) file = self->file != NULL ? g_object_ref (self->file) : NULL;

  g_task_propagate_boolean (G_TASK (result), &error);
  g_clear_handle_id (&self->tick, g_source_remove);
  g_mutex_lock (&job->lock);
  if (self->n_samples != job->n_samples)
    {
      self->n_samples = job->n_samples;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_SAMPLES]);
    }
  g_mutex_unlock (&job->lock);
  set_recording (self, NULL);
  g_signal_emit (self, signals[FINISHED], 0, file, self->n_samples, error);
}

gboolean
pgs_recorder_start (PgsRecorder  *self,
                    GFile        *file,
                    guint         interval_ms,
                    guint         pages_every_ms,
                    GError      **error)
{
  g_autoptr(GTask) task = NULL;
  PgsRecordingSetup setup = { 0 };
  g_autofree char *path = NULL;
  struct rlimit rl;
  Job *job;

  g_return_val_if_fail (PGS_IS_RECORDER (self), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);
  g_return_val_if_fail (interval_ms > 0, FALSE);

  if (self->job != NULL)
    return TRUE;
  path = g_file_get_path (file);
  if (path == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                           _("A recording is written to a local file"));
      return FALSE;
    }
  /* As pagescope-cli record: the sampler keeps every process's stat and smaps_rollup
   * open, room for a few thousand. */
  if (getrlimit (RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max)
    {
      rl.rlim_cur = rl.rlim_max;
      setrlimit (RLIMIT_NOFILE, &rl);
    }
  setup.interval_ms = interval_ms;
  setup.pages_every_ms = pages_every_ms;
  setup.privileged = geteuid () == 0;
  job = g_atomic_rc_box_new0 (Job);
  g_mutex_init (&job->lock);
  g_cond_init (&job->wake);
  job->interval_ms = interval_ms;
  job->pages_every_ms = pages_every_ms;
  job->path = g_steal_pointer (&path);
  job->cancellable = g_cancellable_new ();
  job->writer = pgs_recording_writer_new (job->path, &setup, error);
  if (job->writer == NULL)
    {
      job_unref (job);
      return FALSE;
    }

  g_object_freeze_notify (G_OBJECT (self));
  g_set_object (&self->file, file);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FILE]);
  if (self->n_samples != 0)
    {
      self->n_samples = 0;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_SAMPLES]);
    }
  if (self->elapsed != 0)
    {
      self->elapsed = 0;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ELAPSED]);
    }
  self->started = g_get_monotonic_time ();
  self->tick = g_timeout_add_seconds (1, tick, self);
  set_recording (self, g_atomic_rc_box_acquire (job));
  g_object_thaw_notify (G_OBJECT (self));

  task = g_task_new (self, NULL, record_done, NULL);
  g_task_set_source_tag (task, pgs_recorder_start);
  g_task_set_task_data (task, job, job_unref);
  g_task_run_in_thread (task, record_thread);
  return TRUE;
}

void
pgs_recorder_stop (PgsRecorder *self)
{
  g_return_if_fail (PGS_IS_RECORDER (self));

  if (self->job == NULL)
    return;
  g_mutex_lock (&self->job->lock);
  self->job->stop = TRUE;
  g_cond_signal (&self->job->wake);
  g_mutex_unlock (&self->job->lock);
  g_cancellable_cancel (self->job->cancellable);
}

/* GObject */

static void
pgs_recorder_dispose (GObject *object)
{
  PgsRecorder *self = PGS_RECORDER (object);

  /* The task holds a reference while the worker runs: disposed, nothing records. */
  g_clear_handle_id (&self->tick, g_source_remove);
  g_clear_object (&self->file);

  G_OBJECT_CLASS (pgs_recorder_parent_class)->dispose (object);
}

static void
pgs_recorder_get_property (GObject    *object,
                           guint       prop_id,
                           GValue     *value,
                           GParamSpec *pspec)
{
  PgsRecorder *self = PGS_RECORDER (object);

  switch (prop_id)
    {
    case PROP_RECORDING:
      g_value_set_boolean (value, self->job != NULL);
      break;
    case PROP_N_SAMPLES:
      g_value_set_uint (value, self->n_samples);
      break;
    case PROP_ELAPSED:
      g_value_set_uint (value, self->elapsed);
      break;
    case PROP_FILE:
      g_value_set_object (value, self->file);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pgs_recorder_class_init (PgsRecorderClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  const GParamFlags r = G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->dispose = pgs_recorder_dispose;
  object_class->get_property = pgs_recorder_get_property;

  properties[PROP_RECORDING] = g_param_spec_boolean ("recording", NULL, NULL, FALSE, r);
  properties[PROP_N_SAMPLES] = g_param_spec_uint ("n-samples", NULL, NULL, 0, G_MAXUINT, 0, r);
  properties[PROP_ELAPSED] = g_param_spec_uint ("elapsed", NULL, NULL, 0, G_MAXUINT, 0, r);
  properties[PROP_FILE] = g_param_spec_object ("file", NULL, NULL, G_TYPE_FILE, r);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  signals[FINISHED] = g_signal_new ("finished", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                    NULL, NULL, NULL, G_TYPE_NONE, 3, G_TYPE_FILE, G_TYPE_UINT,
                                    G_TYPE_ERROR);
}

static void
pgs_recorder_init (PgsRecorder *self)
{
}

PgsRecorder *
pgs_recorder_new (void)
{
  return g_object_new (PGS_TYPE_RECORDER, NULL);
}

gboolean
pgs_recorder_is_recording (PgsRecorder *self)
{
  g_return_val_if_fail (PGS_IS_RECORDER (self), FALSE);
  return self->job != NULL;
}

guint
pgs_recorder_get_n_samples (PgsRecorder *self)
{
  g_return_val_if_fail (PGS_IS_RECORDER (self), 0);
  return self->n_samples;
}

guint
pgs_recorder_get_elapsed (PgsRecorder *self)
{
  g_return_val_if_fail (PGS_IS_RECORDER (self), 0);
  return self->elapsed;
}

GFile *
pgs_recorder_get_file (PgsRecorder *self)
{
  g_return_val_if_fail (PGS_IS_RECORDER (self), NULL);
  return self->file;
}
