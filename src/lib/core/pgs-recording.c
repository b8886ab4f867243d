/* pgs-recording.c: a recording file, read back
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The layout is described in pgs-recording-format.h. The file is mapped; opening reads its
 * header and index (pgs-recording-index.c). Here: finding a sample or a picture by time
 * and decoding it, each frame's CRC checked again as it is read.
 */

#include "config.h"

#include <string.h>

#include "pgs-error.h"
#include "pgs-recording-private.h"
#include "pgs-sample-private.h"
#include "pgs-snapshot-file.h"
#include "pgs-snapshot-format.h"
#include "pgs-snapshot-private.h"
#include "pgs-snapshot.h"

G_DEFINE_FINAL_TYPE (PgsRecording, pgs_recording, G_TYPE_OBJECT)

static void
pgs_recording_finalize (GObject *object)
{
  PgsRecording *self = PGS_RECORDING (object);

  g_clear_pointer (&self->bytes, g_bytes_unref);
  g_clear_object (&self->file);
  g_free (self->path);
  g_free (self->end_note);
  g_free (self->hostname);
  g_free (self->kernel);
  g_free (self->boot_id);
  g_clear_pointer (&self->tz, g_time_zone_unref);
  g_array_unref (self->samples);
  g_array_unref (self->pictures);
  g_clear_pointer (&self->state, pgs_sample_free);
  g_clear_pointer (&self->picture, g_bytes_unref);
  g_clear_object (&self->single);
  g_clear_pointer (&self->single_sample, pgs_sample_free);
  g_clear_pointer (&self->held, g_ptr_array_unref);
  g_mutex_clear (&self->lock);
  G_OBJECT_CLASS (pgs_recording_parent_class)->finalize (object);
}

static void
pgs_recording_class_init (PgsRecordingClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = pgs_recording_finalize;
}

static void
pgs_recording_init (PgsRecording *self)
{
  self->samples = g_array_new (FALSE, FALSE, sizeof (Entry));
  self->pictures = g_array_new (FALSE, FALSE, sizeof (Entry));
  self->state_index = G_MAXUINT;
  self->picture_index = G_MAXUINT;
  self->page_size = 4096;
  self->clock_ticks = 100;
  g_mutex_init (&self->lock);
}

static PgsRecording *
open_bytes (GBytes  *bytes,
            GError **error)
{
  g_autoptr(PgsRecording) self = g_object_new (PGS_TYPE_RECORDING, NULL);

  return _pgs_recording_read (self, bytes, error) ? g_steal_pointer (&self) : NULL;
}

PgsRecording *
pgs_recording_new_from_bytes (GBytes  *bytes,
                              GError **error)
{
  g_return_val_if_fail (bytes != NULL, NULL);
  return open_bytes (bytes, error);
}

PgsRecording *
pgs_recording_new_for_snapshot (PgsSnapshot *snapshot)
{
  PgsRecording *self = g_object_new (PGS_TYPE_RECORDING, NULL);
  PgsFrameInfo info = { PGS_FRAME_SAMPLE, PGS_FRAME_KEY, 0, pgs_snapshot_get_time (snapshot), 0, 0, 0 };

  g_return_val_if_fail (PGS_IS_SNAPSHOT (snapshot), NULL);
  self->single = g_object_ref (snapshot);
  self->single_sample = _pgs_sample_from_snapshot (snapshot);
  self->hostname = g_strdup (pgs_snapshot_get_hostname (snapshot));
  self->kernel = g_strdup (pgs_snapshot_get_kernel_release (snapshot));
  self->boot_id = g_strdup (pgs_snapshot_get_boot_id (snapshot));
  self->tz = g_time_zone_new_local ();
  self->privileged = pgs_snapshot_is_privileged (snapshot);
  self->page_size = pgs_snapshot_get_page_size (snapshot);
  self->file = pgs_snapshot_get_file (snapshot) != NULL ? g_object_ref (pgs_snapshot_get_file (snapshot)) : NULL;
  self->path = g_strdup (pgs_snapshot_get_path (snapshot));
  g_array_append_val (self->samples, ((Entry) { info, FALSE }));
  info.type = PGS_FRAME_PICTURE;
  g_array_append_val (self->pictures, ((Entry) { info, FALSE }));
  return self;
}

PgsRecording *
pgs_recording_new_for_samples (GPtrArray   *samples,
                               PgsSnapshot *like,
                               guint        interval_ms)
{
  PgsRecording *self;

  g_return_val_if_fail (samples != NULL && samples->len > 0, NULL);
  g_return_val_if_fail (PGS_IS_SNAPSHOT (like), NULL);
  self = g_object_new (PGS_TYPE_RECORDING, NULL);
  /* Each sample is a key sample: there is nothing to decode. */
  self->held = g_ptr_array_new_full (samples->len, (GDestroyNotify) pgs_sample_free);
  for (guint i = 0; i < samples->len; i++)
    {
      PgsSample *sample = g_ptr_array_index (samples, i);
      PgsFrameInfo info = { PGS_FRAME_SAMPLE, PGS_FRAME_KEY, 0, sample->time, i, 0, 0 };

      g_warn_if_fail (i == 0 || sample->time >= g_array_index (self->samples, Entry, i - 1).info.time);
      g_ptr_array_add (self->held, pgs_sample_ref (sample));
      g_array_append_val (self->samples, ((Entry) { info, FALSE }));
    }
  self->hostname = g_strdup (pgs_snapshot_get_hostname (like));
  self->kernel = g_strdup (pgs_snapshot_get_kernel_release (like));
  self->boot_id = g_strdup (pgs_snapshot_get_boot_id (like));
  self->tz = g_time_zone_new_local ();
  self->privileged = pgs_snapshot_is_privileged (like);
  self->page_size = pgs_snapshot_get_page_size (like);
  self->interval_ms = interval_ms;
  return self;
}

/* A recording, or a snapshot as one, from the local file @path; the snapshot is read by
 * @load_snapshot (with GFile or without). */
static PgsRecording *
open_path (const char    *path,
           PgsSnapshot *(*load_snapshot) (gpointer, GCancellable *, GError **),
           gpointer       load_data,
           GCancellable  *cancellable,
           GError       **error)
{
  g_autoptr(GMappedFile) mapped = NULL;
  g_autoptr(GBytes) bytes = NULL;
  PgsRecording *self;

  mapped = g_mapped_file_new (path, FALSE, error);
  if (mapped == NULL)
    return NULL;
  bytes = g_mapped_file_get_bytes (mapped);
  if (g_bytes_get_size (bytes) >= PGS_SNAPSHOT_MAGIC_LEN &&
      memcmp (g_bytes_get_data (bytes, NULL), PGS_SNAPSHOT_MAGIC, PGS_SNAPSHOT_MAGIC_LEN) == 0)
    {
      g_autoptr(PgsSnapshot) snapshot = load_snapshot (load_data, cancellable, error);

      return snapshot != NULL ? pgs_recording_new_for_snapshot (snapshot) : NULL;
    }
  self = open_bytes (bytes, error);
  if (self != NULL)
    self->path = g_strdup (path);
  return self;
}

static PgsSnapshot *
load_snapshot_file (gpointer       file,
                    GCancellable  *cancellable,
                    GError       **error)
{
  return pgs_snapshot_load (file, cancellable, error);
}

static PgsSnapshot *
load_snapshot_path (gpointer       path,
                    GCancellable  *cancellable,
                    GError       **error)
{
  return pgs_snapshot_load_path (path, error);
}

PgsRecording *
pgs_recording_open (GFile         *file,
                    GCancellable  *cancellable,
                    GError       **error)
{
  g_autofree char *path = NULL;
  PgsRecording *self;

  g_return_val_if_fail (G_IS_FILE (file), NULL);
  path = g_file_get_path (file);
  if (path == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED, "not a local file");
      return NULL;
    }
  self = open_path (path, load_snapshot_file, file, cancellable, error);
  if (self != NULL && self->file == NULL)
    self->file = g_object_ref (file);
  return self;
}

PgsRecording *
pgs_recording_open_path (const char  *path,
                         GError     **error)
{
  g_return_val_if_fail (path != NULL, NULL);
  return open_path (path, load_snapshot_path, (gpointer) path, NULL, error);
}

const char *pgs_recording_get_end_note (PgsRecording *self) { return self->end_note; }
GFile *pgs_recording_get_file (PgsRecording *self) { return self->file; }
const char *pgs_recording_get_hostname (PgsRecording *self) { return self->hostname; }
const char *pgs_recording_get_kernel_release (PgsRecording *self) { return self->kernel; }
const char *pgs_recording_get_boot_id (PgsRecording *self) { return self->boot_id; }
GTimeZone *pgs_recording_get_time_zone (PgsRecording *self) { return self->tz; }
gboolean pgs_recording_is_privileged (PgsRecording *self) { return self->privileged; }
guint pgs_recording_get_interval_ms (PgsRecording *self) { return self->interval_ms; }
guint pgs_recording_get_pages_every_ms (PgsRecording *self) { return self->pages_every_ms; }
gint64 pgs_recording_get_boot_time (PgsRecording *self) { return self->boot_time; }
guint pgs_recording_get_clock_ticks (PgsRecording *self) { return self->clock_ticks; }
guint pgs_recording_get_n_samples (PgsRecording *self) { return self->samples->len; }
guint pgs_recording_get_n_pictures (PgsRecording *self) { return self->pictures->len; }

gint64
pgs_recording_get_sample_time (PgsRecording *self,
                               guint         index)
{
  g_return_val_if_fail (index < self->samples->len, 0);
  return g_array_index (self->samples, Entry, index).info.time;
}

gint64
pgs_recording_get_picture_time (PgsRecording *self,
                                guint         index)
{
  g_return_val_if_fail (index < self->pictures->len, 0);
  return g_array_index (self->pictures, Entry, index).info.time;
}

gint64
pgs_recording_get_start_time (PgsRecording *self)
{
  return g_array_index (self->samples, Entry, 0).info.time;
}

gint64
pgs_recording_get_end_time (PgsRecording *self)
{
  return g_array_index (self->samples, Entry, self->samples->len - 1).info.time;
}

static guint
find_nearest (GArray *list,
              gint64  time)
{
  guint lo = 0, hi = list->len;

  if (list->len == 0)
    return G_MAXUINT;
  /* The first at or after @time, then whichever of it and the one before is nearer. */
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (g_array_index (list, Entry, mid).info.time < time)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo == list->len)
    return lo - 1;
  if (lo > 0 && time - g_array_index (list, Entry, lo - 1).info.time <=
                g_array_index (list, Entry, lo).info.time - time)
    return lo - 1;
  return lo;
}

guint
pgs_recording_find_sample (PgsRecording *self,
                           gint64        time)
{
  g_return_val_if_fail (PGS_IS_RECORDING (self), G_MAXUINT);
  return find_nearest (self->samples, time);
}

guint
pgs_recording_find_picture (PgsRecording *self,
                            gint64        time)
{
  g_return_val_if_fail (PGS_IS_RECORDING (self), G_MAXUINT);
  return find_nearest (self->pictures, time);
}

/* The payload of @e, its CRC checked (an index can point at anything). */
static const guint8 *
frame_payload (PgsRecording  *self,
               const Entry   *e,
               const char    *what,
               GError       **error)
{
  PgsFrameInfo info;

  if (e->damaged)
    goto damaged;
  _pgs_frame_parse (self->data + e->info.offset, &info);
  if (info.type != e->info.type || info.length != e->info.length || info.number != e->info.number ||
      !_pgs_frame_check (self->data + e->info.offset, &info))
    goto damaged;
  return self->data + e->info.offset + PGS_RECORDING_FRAME_HEADER;

damaged:
  g_set_error (error, PGS_ERROR, PGS_ERROR_SNAPSHOT_DAMAGED,
               "%s %u is damaged: its checksum does not match", what, e->info.number);
  return NULL;
}

/* The key sample or picture at or before @index (the first one always is). */
static guint
key_before (GArray *list,
            guint   index)
{
  while (index > 0 && !(g_array_index (list, Entry, index).info.flags & PGS_FRAME_KEY))
    index--;
  return index;
}

static PgsSample *
get_sample_locked (PgsRecording  *self,
                   guint          index,
                   GError       **error)
{
  guint key = key_before (self->samples, index), from;

  /* Read on from the sample decoded last where it is on the way. */
  if (self->state != NULL && self->state_index != G_MAXUINT && self->state_index >= key &&
      self->state_index <= index)
    from = self->state_index + 1;
  else
    from = key;
  for (guint i = from; i <= index; i++)
    {
      const Entry *e = &g_array_index (self->samples, Entry, i);
      const guint8 *payload = frame_payload (self, e, "sample", error);

      if (i == key)
        {
          g_clear_pointer (&self->state, pgs_sample_free);
          self->state = pgs_sample_new ();
        }
      if (payload == NULL || !_pgs_sample_decode (self->state, payload, e->info.length, error))
        {
          if (i != index)
            g_prefix_error (error, "sample %u builds on sample %u: ", index, i);
          g_clear_pointer (&self->state, pgs_sample_free);
          self->state_index = G_MAXUINT;
          return NULL;
        }
      self->state->time = e->info.time;
      self->state_index = i;
    }
  return pgs_sample_copy (self->state);
}

PgsSample *
pgs_recording_get_sample (PgsRecording  *self,
                          guint          index,
                          GError       **error)
{
  PgsSample *sample;

  g_return_val_if_fail (PGS_IS_RECORDING (self), NULL);
  g_return_val_if_fail (index < self->samples->len, NULL);
  if (self->single_sample != NULL)
    return pgs_sample_copy (self->single_sample);
  if (self->held != NULL)
    return pgs_sample_ref (g_ptr_array_index (self->held, index));
  g_mutex_lock (&self->lock);
  sample = get_sample_locked (self, index, error);
  g_mutex_unlock (&self->lock);
  return sample;
}

PgsSnapshot *
pgs_recording_get_snapshot_at_sample (PgsRecording  *self,
                                      guint          index,
                                      GError       **error)
{
  g_autoptr(PgsSample) sample = pgs_recording_get_sample (self, index, error);

  if (sample == NULL)
    return NULL;
  return _pgs_sample_to_snapshot (sample, self->privileged, self->page_size, self->hostname,
                                  self->kernel, self->boot_id);
}

PgsSnapshot *
pgs_recording_get_picture (PgsRecording  *self,
                           guint          index,
                           GError       **error)
{
  g_autoptr(GBytes) variant = NULL;
  /* What each difference of the chain made of its processes, for the next (format 3);
   * held only for the chain: it is several times a picture's pages. */
  PgsPictureProcs *procs = NULL;
  guint from, key;
  PgsSnapshot *snapshot;

  g_return_val_if_fail (PGS_IS_RECORDING (self), NULL);
  g_return_val_if_fail (index < self->pictures->len, NULL);
  if (self->single != NULL)
    return g_object_ref (self->single);

  g_mutex_lock (&self->lock);
  key = key_before (self->pictures, index);
  if (self->picture != NULL && self->picture_index >= key && self->picture_index <= index)
    {
      from = self->picture_index + 1;
      variant = g_bytes_ref (self->picture);
    }
  else
    from = key;
  for (guint i = from; i <= index; i++)
    {
      const Entry *e = &g_array_index (self->pictures, Entry, i);
      const guint8 *payload = frame_payload (self, e, "picture", error);
      GBytes *next;

      next = payload != NULL ? _pgs_picture_apply (i == key ? NULL : variant, payload, e->info.length,
                                                   i == key, self->version, &procs, error)
                             : NULL;
      g_clear_pointer (&variant, g_bytes_unref);
      if (next == NULL)
        {
          if (i != index)
            g_prefix_error (error, "picture %u builds on picture %u: ", index, i);
          g_mutex_unlock (&self->lock);
          _pgs_picture_procs_free (procs);
          return NULL;
        }
      variant = next;
      g_clear_pointer (&self->picture, g_bytes_unref);
      self->picture = g_bytes_ref (variant);
      self->picture_index = i;
    }
  g_mutex_unlock (&self->lock);
  _pgs_picture_procs_free (procs);

  snapshot = _pgs_snapshot_decode (variant, PGS_SNAPSHOT_MAX_FRAMES, error);
  if (snapshot != NULL && self->file != NULL)
    _pgs_snapshot_set_file (snapshot, self->file);
  if (snapshot != NULL && self->path != NULL)
    _pgs_snapshot_set_path (snapshot, self->path);
  return snapshot;
}

static void
picture_thread (GTask        *task,
                gpointer      source,
                gpointer      task_data,
                GCancellable *cancellable)
{
  GError *error = NULL;
  PgsSnapshot *snapshot = pgs_recording_get_picture (source, GPOINTER_TO_UINT (task_data), &error);

  if (snapshot == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, snapshot, g_object_unref);
}

void
pgs_recording_get_picture_async (PgsRecording        *self,
                                 guint                index,
                                 GCancellable        *cancellable,
                                 GAsyncReadyCallback  callback,
                                 gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);

  g_return_if_fail (index < self->pictures->len);
  g_task_set_source_tag (task, pgs_recording_get_picture_async);
  g_task_set_task_data (task, GUINT_TO_POINTER (index), NULL);
  g_task_run_in_thread (task, picture_thread);
}

PgsSnapshot *
pgs_recording_get_picture_finish (PgsRecording  *self,
                                  GAsyncResult  *result,
                                  GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

gboolean
pgs_recording_parse_time (PgsRecording  *self,
                          const char    *text,
                          gint64        *time,
                          GError       **error)
{
  g_return_val_if_fail (PGS_IS_RECORDING (self), FALSE);
  return _pgs_time_parse (text, pgs_recording_get_start_time (self), pgs_recording_get_end_time (self),
                          self->tz, time, error);
}

char *
pgs_recording_format_time (PgsRecording *self,
                           gint64        time)
{
  return _pgs_time_format (time, pgs_recording_get_start_time (self), self->tz);
}
