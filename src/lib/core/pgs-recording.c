/* pgs-recording.c: a recording file, read back
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The layout is described in pgs-recording-format.h. The file is mapped; opening reads the
 * header frame and the index at the end (a few tens of kilobytes for an hour), or, where the
 * recorder did not end cleanly, walks the frames from the start and checks each one's CRC.
 * A frame is checked again when it is decoded. Nothing is allocated for a count or size in
 * the file that its length does not cover.
 */

#include "config.h"

#include <string.h>

#include "pgs-error.h"
#include "pgs-recording-format.h"
#include "pgs-recording.h"
#include "pgs-sample-private.h"
#include "pgs-snapshot-file.h"
#include "pgs-snapshot-format.h"
#include "pgs-snapshot-private.h"
#include "pgs-snapshot.h"

typedef struct
{
  PgsFrameInfo info;
  gboolean     damaged;   /* its CRC failed when the index was rebuilt */
} Entry;

struct _PgsRecording
{
  GObject      parent_instance;
  GBytes      *bytes;
  const guint8 *data;
  gsize        len;
  GFile       *file;
  char        *end_note;

  char        *hostname;
  char        *kernel;
  char        *boot_id;
  GTimeZone   *tz;
  gboolean     privileged;
  guint        interval_ms;
  guint        pages_every_ms;
  guint        page_size;
  gint64       boot_time;
  guint        clock_ticks;
  guint        version;    /* of the format: how pictures differ from the one before */

  GArray      *samples;    /* Entry */
  GArray      *pictures;   /* Entry */

  GMutex       lock;       /* the caches below: pictures load in threads */
  PgsSample   *state;      /* the last sample decoded, for reading on from it */
  guint        state_index;
  GBytes      *picture;    /* the last picture's GVariant decoded */
  guint        picture_index;

  PgsSnapshot *single;     /* a snapshot opened as a recording of one instant */
  PgsSample   *single_sample;
  GPtrArray   *held;       /* PgsSample: a recording kept in memory */
};

G_DEFINE_FINAL_TYPE (PgsRecording, pgs_recording, G_TYPE_OBJECT)

static void
pgs_recording_finalize (GObject *object)
{
  PgsRecording *self = PGS_RECORDING (object);

  g_clear_pointer (&self->bytes, g_bytes_unref);
  g_clear_object (&self->file);
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

static void
add_note (PgsRecording *self,
          const char   *format,
          ...) G_GNUC_PRINTF (2, 3);

static void
add_note (PgsRecording *self,
          const char   *format,
          ...)
{
  g_autofree char *text = NULL;
  va_list args;

  va_start (args, format);
  text = g_strdup_vprintf (format, args);
  va_end (args);
  if (self->end_note == NULL)
    self->end_note = g_steal_pointer (&text);
  else
    {
      char *joined = g_strdup_printf ("%s; %s", self->end_note, text);

      g_free (self->end_note);
      self->end_note = joined;
    }
}

static char *
meta_bytestring (GVariant   *meta,
                 const char *key)
{
  g_autoptr(GVariant) v = g_variant_lookup_value (meta, key, G_VARIANT_TYPE_BYTESTRING);
  gsize len;
  const char *s;

  if (v == NULL)
    return NULL;
  s = g_variant_get_fixed_array (v, &len, 1);
  /* A bytestring ends in its NUL; one without, or with one inside, is not taken. */
  if (len == 0 || s[len - 1] != '\0' || memchr (s, '\0', len - 1) != NULL)
    return NULL;
  return g_strdup (s);
}

static gboolean
read_header (PgsRecording  *self,
             GError       **error)
{
  PgsFrameInfo info;
  g_autoptr(GVariant) meta = NULL;
  g_autoptr(GVariant) v = NULL;
  g_autoptr(GBytes) payload = NULL;
  guint32 version;

  if (self->len < PGS_RECORDING_MAGIC_LEN || memcmp (self->data, PGS_RECORDING_MAGIC, PGS_RECORDING_MAGIC_LEN) != 0)
    {
      g_set_error (error, PGS_ERROR, PGS_ERROR_NOT_A_SNAPSHOT, "not a Pagescope recording");
      return FALSE;
    }
  if (self->len < PGS_RECORDING_PREAMBLE_SIZE + PGS_RECORDING_FRAME_HEADER)
    {
      g_set_error (error, PGS_ERROR, PGS_ERROR_SNAPSHOT_TRUNCATED, "truncated: %" G_GSIZE_FORMAT " bytes, not even a header", self->len);
      return FALSE;
    }
  memcpy (&version, self->data + 8, 4);
  version = GUINT32_FROM_LE (version);
  if (version > PGS_RECORDING_FORMAT_VERSION)
    {
      g_set_error (error, PGS_ERROR, PGS_ERROR_SNAPSHOT_NEWER_VERSION,
                   "written by a newer Pagescope: recording format version %u, this one reads up to %u",
                   version, PGS_RECORDING_FORMAT_VERSION);
      return FALSE;
    }
  if (version == 0)
    {
      g_set_error (error, PGS_ERROR, PGS_ERROR_BAD_SNAPSHOT, "inconsistent contents: format version 0");
      return FALSE;
    }
  self->version = version;
  _pgs_frame_parse (self->data + PGS_RECORDING_PREAMBLE_SIZE, &info);
  if (info.type != PGS_FRAME_HEADER)
    {
      g_set_error (error, PGS_ERROR, PGS_ERROR_BAD_SNAPSHOT, "inconsistent contents: no header frame");
      return FALSE;
    }
  if (info.length > self->len - PGS_RECORDING_PREAMBLE_SIZE - PGS_RECORDING_FRAME_HEADER)
    {
      g_set_error (error, PGS_ERROR, PGS_ERROR_SNAPSHOT_TRUNCATED, "truncated inside its header");
      return FALSE;
    }
  if (!_pgs_frame_check (self->data + PGS_RECORDING_PREAMBLE_SIZE, &info))
    {
      g_set_error (error, PGS_ERROR, PGS_ERROR_SNAPSHOT_DAMAGED, "damaged: the header's checksum does not match");
      return FALSE;
    }
  payload = g_bytes_new_from_bytes (self->bytes, PGS_RECORDING_PREAMBLE_SIZE + PGS_RECORDING_FRAME_HEADER, info.length);
  meta = g_variant_ref_sink (g_variant_new_from_bytes (G_VARIANT_TYPE_VARDICT, payload, FALSE));
  if (G_BYTE_ORDER != G_LITTLE_ENDIAN)
    {
      GVariant *swapped = g_variant_byteswap (meta);

      g_variant_unref (meta);
      meta = swapped;
    }
  self->hostname = meta_bytestring (meta, "hostname");
  self->kernel = meta_bytestring (meta, "kernel");
  self->boot_id = meta_bytestring (meta, "boot-id");
  if ((v = g_variant_lookup_value (meta, "time-zone", G_VARIANT_TYPE_STRING)) != NULL)
    self->tz = g_time_zone_new_identifier (g_variant_get_string (v, NULL));
  g_clear_pointer (&v, g_variant_unref);
  if (self->tz == NULL && (v = g_variant_lookup_value (meta, "utc-offset", G_VARIANT_TYPE_INT32)) != NULL)
    {
      gint32 offset = g_variant_get_int32 (v);

      if (offset > -24 * 3600 && offset < 24 * 3600)
        self->tz = g_time_zone_new_offset (offset);
    }
  g_clear_pointer (&v, g_variant_unref);
  if (self->tz == NULL)
    self->tz = g_time_zone_new_utc ();
  g_variant_lookup (meta, "privileged", "b", &self->privileged);
  g_variant_lookup (meta, "interval-ms", "u", &self->interval_ms);
  g_variant_lookup (meta, "pages-every-ms", "u", &self->pages_every_ms);
  g_variant_lookup (meta, "page-size", "u", &self->page_size);
  g_variant_lookup (meta, "boot-time", "x", &self->boot_time);
  g_variant_lookup (meta, "clock-ticks", "u", &self->clock_ticks);
  if (self->page_size < 512 || (self->page_size & (self->page_size - 1)) != 0 || self->clock_ticks == 0)
    {
      g_set_error (error, PGS_ERROR, PGS_ERROR_BAD_SNAPSHOT, "inconsistent contents: page size %u, %u clock ticks a second",
                   self->page_size, self->clock_ticks);
      return FALSE;
    }
  return TRUE;
}

/* Adds a frame to the samples or pictures. FALSE where it cannot follow those before
 * (numbers out of order, time going backwards): the recording is read up to there. */
static gboolean
take_frame (PgsRecording       *self,
            const PgsFrameInfo *info,
            gboolean            damaged)
{
  GArray *list;
  const char *what;

  if (info->type == PGS_FRAME_SAMPLE)
    list = self->samples, what = "sample";
  else if (info->type == PGS_FRAME_PICTURE)
    list = self->pictures, what = "picture";
  else
    return FALSE;
  if (info->number != list->len)
    {
      add_note (self, "%s %u comes where %s %u should: read up to there", what, info->number, what, list->len);
      return FALSE;
    }
  if (list->len > 0 && info->time < g_array_index (list, Entry, list->len - 1).info.time)
    {
      add_note (self, "time goes backwards at %s %u: read up to there", what, info->number);
      return FALSE;
    }
  if (list->len == 0 && !(info->flags & PGS_FRAME_KEY))
    {
      add_note (self, "the first %s does not stand alone: read up to there", what);
      return FALSE;
    }
  if (damaged)
    add_note (self, "%s %u is damaged (its checksum does not match)", what, info->number);
  g_array_append_val (list, ((Entry) { *info, damaged }));
  return TRUE;
}

/* Walks the frames from the start. */
static void
rebuild_index (PgsRecording *self)
{
  gsize at = PGS_RECORDING_PREAMBLE_SIZE;
  PgsFrameInfo info;

  _pgs_frame_parse (self->data + at, &info);
  at += PGS_RECORDING_FRAME_HEADER + info.length;
  while (at < self->len)
    {
      gboolean ok;

      if (self->len - at < PGS_RECORDING_FRAME_HEADER)
        {
          add_note (self, "cut short at byte %" G_GSIZE_FORMAT " of %" G_GSIZE_FORMAT
                    " (inside a frame's header): read up to there", at, self->len);
          return;
        }
      _pgs_frame_parse (self->data + at, &info);
      info.offset = at;
      if (info.length > self->len - at - PGS_RECORDING_FRAME_HEADER)
        {
          add_note (self, "cut short at byte %" G_GSIZE_FORMAT " of %" G_GSIZE_FORMAT
                    " (a frame of %u bytes): read up to there", at, self->len, info.length);
          return;
        }
      if (info.type == PGS_FRAME_INDEX)
        return;
      ok = _pgs_frame_check (self->data + at, &info);
      if (!ok && at + PGS_RECORDING_FRAME_HEADER + info.length == self->len)
        {
          add_note (self, "its last frame is damaged or cut short (at byte %" G_GSIZE_FORMAT "): read up to there", at);
          return;
        }
      if (!take_frame (self, &info, !ok))
        return;
      at += PGS_RECORDING_FRAME_HEADER + info.length;
    }
}

static void
clear_entries (PgsRecording *self)
{
  g_array_set_size (self->samples, 0);
  g_array_set_size (self->pictures, 0);
  g_clear_pointer (&self->end_note, g_free);
}

/* The index the recorder wrote at a clean end, checked entry by entry. */
static gboolean
read_index (PgsRecording *self)
{
  guint64 index_at, last_offset = 0, last_end = PGS_RECORDING_PREAMBLE_SIZE;
  gint64 last_time = 0;
  PgsFrameInfo info;
  PgsVarReader r;
  guint64 n;

  if (self->len < PGS_RECORDING_PREAMBLE_SIZE + PGS_RECORDING_TRAILER_SIZE ||
      memcmp (self->data + self->len - 8, PGS_RECORDING_TRAILER_MAGIC, 8) != 0)
    return FALSE;
  memcpy (&index_at, self->data + self->len - PGS_RECORDING_TRAILER_SIZE, 8);
  index_at = GUINT64_FROM_LE (index_at);
  if (index_at < PGS_RECORDING_PREAMBLE_SIZE ||
      index_at > self->len - PGS_RECORDING_TRAILER_SIZE - PGS_RECORDING_FRAME_HEADER)
    return FALSE;
  _pgs_frame_parse (self->data + index_at, &info);
  if (info.type != PGS_FRAME_INDEX ||
      info.length != self->len - PGS_RECORDING_TRAILER_SIZE - PGS_RECORDING_FRAME_HEADER - index_at ||
      !_pgs_frame_check (self->data + index_at, &info))
    return FALSE;
  r.pos = self->data + index_at + PGS_RECORDING_FRAME_HEADER;
  r.end = r.pos + info.length;
  r.bad = FALSE;
  n = _pgs_get_count (&r, 6);
  for (guint64 i = 0; i < n; i++)
    {
      PgsFrameInfo f = { 0 };

      if (r.end - r.pos < 2)
        return FALSE;
      f.type = r.pos[0];
      f.flags = r.pos[1];
      r.pos += 2;
      f.offset = last_offset + _pgs_get_varint (&r);
      {
        guint64 length = _pgs_get_varint (&r);
        gint64 change = _pgs_get_svarint (&r);
        guint64 number = _pgs_get_varint (&r);

        if (length > G_MAXUINT32 || number > G_MAXUINT32)
          return FALSE;
        f.length = (guint32) length;
        /* Wrapping, not overflowing, on a damaged index: its frames are checked below. */
        f.time = (gint64) ((guint64) last_time + (guint64) change);
        f.number = (guint32) number;
      }
      /* Frames in order, each where the one before ends, all before the index. */
      if (r.bad || f.offset != last_end || f.offset + PGS_RECORDING_FRAME_HEADER + (guint64) f.length > index_at)
        return FALSE;
      last_offset = f.offset;
      last_end = f.offset + PGS_RECORDING_FRAME_HEADER + f.length;
      last_time = f.time;
      if (i == 0)
        {
          if (f.type != PGS_FRAME_HEADER)
            return FALSE;
          continue;
        }
      if (!take_frame (self, &f, FALSE))
        return FALSE;
    }
  return !r.bad && r.pos == r.end && last_end == index_at && self->end_note == NULL;
}

static PgsRecording *
open_bytes (GBytes  *bytes,
            GError **error)
{
  g_autoptr(PgsRecording) self = g_object_new (PGS_TYPE_RECORDING, NULL);

  self->bytes = g_bytes_ref (bytes);
  self->data = g_bytes_get_data (bytes, &self->len);
  if (!read_header (self, error))
    return NULL;
  if (!read_index (self))
    {
      clear_entries (self);
      rebuild_index (self);
      if (self->len >= PGS_RECORDING_TRAILER_SIZE &&
          memcmp (self->data + self->len - 8, PGS_RECORDING_TRAILER_MAGIC, 8) == 0)
        add_note (self, "its index was damaged and has been rebuilt");
      else
        add_note (self, "the recorder did not end cleanly: the index was rebuilt from the samples");
    }
  if (self->samples->len == 0)
    {
      g_set_error (error, PGS_ERROR, PGS_ERROR_SNAPSHOT_TRUNCATED, "truncated: not a single whole sample%s%s",
                   self->end_note != NULL ? "; " : "", self->end_note != NULL ? self->end_note : "");
      return NULL;
    }
  return g_steal_pointer (&self);
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

PgsRecording *
pgs_recording_open (GFile         *file,
                    GCancellable  *cancellable,
                    GError       **error)
{
  g_autoptr(GMappedFile) mapped = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autofree char *path = NULL;
  PgsRecording *self;

  g_return_val_if_fail (G_IS_FILE (file), NULL);
  path = g_file_get_path (file);
  if (path == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED, "not a local file");
      return NULL;
    }
  mapped = g_mapped_file_new (path, FALSE, error);
  if (mapped == NULL)
    return NULL;
  bytes = g_mapped_file_get_bytes (mapped);
  if (g_bytes_get_size (bytes) >= PGS_SNAPSHOT_MAGIC_LEN &&
      memcmp (g_bytes_get_data (bytes, NULL), PGS_SNAPSHOT_MAGIC, PGS_SNAPSHOT_MAGIC_LEN) == 0)
    {
      g_autoptr(PgsSnapshot) snapshot = pgs_snapshot_load (file, cancellable, error);

      return snapshot != NULL ? pgs_recording_new_for_snapshot (snapshot) : NULL;
    }
  self = open_bytes (bytes, error);
  if (self != NULL)
    self->file = g_object_ref (file);
  return self;
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
