/* pgs-recording-writer.c: appending samples and pictures to a recording file
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The layout is described in pgs-recording-format.h. Each frame is one write(2) of a buffer
 * kept between samples, so a process killed between two writes leaves whole frames; a power
 * cut can leave the last one cut short, which its length and CRC tell the reader.
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "pgs-error.h"
#include "pgs-process.h"
#include "pgs-procfs.h"
#include "pgs-recording-format.h"
#include "pgs-recording-writer.h"
#include "pgs-snapshot-format.h"
#include "pgs-zlib-private.h"

/* The level snapshot files use (pgs-snapshot-file.c measured 1 against 6 and 9). */
#define ZLIB_LEVEL 6

struct _PgsRecordingWriter
{
  int         fd;
  guint64     size;
  GArray     *frames;        /* PgsFrameInfo, for the index */
  GByteArray *buf;           /* one frame, reused */
  GByteArray *payload;       /* reused */
  PgsSample  *prev;          /* the sample before, or NULL */
  GBytes     *prev_picture;  /* the picture before's GVariant, or NULL */
  PgsPictureProcs *prev_procs; /* what its encoding made of its processes (format 3) */
  GPtrArray  *names;         /* every counter name so far, in the file's order */
  GHashTable *name_index;    /* name → index + 1 */
  guint       n_samples;
  guint       n_pictures;
  gint64      last_time;
};

static gboolean
write_all (PgsRecordingWriter *self,
           const guint8       *data,
           gsize               len,
           GError            **error)
{
  while (len > 0)
    {
      gssize n = write (self->fd, data, len);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          int saved = errno;

          g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved), "%s", g_strerror (saved));
          return FALSE;
        }
      data += n;
      len -= n;
      self->size += n;
    }
  return TRUE;
}

static gboolean
append_frame (PgsRecordingWriter *self,
              guint8              type,
              guint8              flags,
              gint64              time,
              guint32             number,
              const guint8       *payload,
              gsize               len,
              GError            **error)
{
  PgsFrameInfo info = { type, flags, (guint32) len, time, number, 0, self->size };

  if (len > G_MAXUINT32)
    {
      g_set_error (error, PGS_ERROR, PGS_ERROR_FAILED, "a frame of %" G_GSIZE_FORMAT " bytes is too large", len);
      return FALSE;
    }
  g_byte_array_set_size (self->buf, 0);
  _pgs_frame_append (self->buf, type, flags, time, number, payload, len);
  if (!write_all (self, self->buf->data, self->buf->len, error))
    return FALSE;
  g_array_append_val (self->frames, info);
  return TRUE;
}

static char *
read_text (const char *root,
           const char *name)
{
  g_autofree char *path = g_build_filename (root, name, NULL);
  g_autofree char *text = NULL;

  if (!g_file_get_contents (path, &text, NULL, NULL))
    return NULL;
  return g_strdup (g_strstrip (text));
}

static GVariant *
make_header (const PgsRecordingSetup *setup)
{
  const char *root = setup->procfs_root != NULL ? setup->procfs_root : "/proc";
  g_autoptr(GTimeZone) tz = setup->time_zone != NULL ? g_time_zone_new_identifier (setup->time_zone)
                                                     : g_time_zone_new_local ();
  g_autoptr(GDateTime) now = NULL;
  g_autofree char *boot_id = read_text (root, "sys/kernel/random/boot_id");
  GVariantBuilder b;
  struct utsname u;

  if (tz == NULL)
    tz = g_time_zone_new_utc ();
  now = g_date_time_new_now (tz);
  g_variant_builder_init (&b, G_VARIANT_TYPE ("a{sv}"));
  g_variant_builder_add (&b, "{sv}", "hostname", g_variant_new_bytestring (g_get_host_name ()));
  if (uname (&u) == 0)
    g_variant_builder_add (&b, "{sv}", "kernel", g_variant_new_bytestring (u.release));
  if (boot_id != NULL)
    g_variant_builder_add (&b, "{sv}", "boot-id", g_variant_new_bytestring (boot_id));
  g_variant_builder_add (&b, "{sv}", "version", g_variant_new_bytestring (PACKAGE_VERSION));
  g_variant_builder_add (&b, "{sv}", "time-zone", g_variant_new_string (g_time_zone_get_identifier (tz)));
  g_variant_builder_add (&b, "{sv}", "utc-offset",
                         g_variant_new_int32 ((gint32) (g_date_time_get_utc_offset (now) / G_USEC_PER_SEC)));
  g_variant_builder_add (&b, "{sv}", "privileged", g_variant_new_boolean (setup->privileged));
  g_variant_builder_add (&b, "{sv}", "interval-ms", g_variant_new_uint32 (setup->interval_ms));
  g_variant_builder_add (&b, "{sv}", "pages-every-ms", g_variant_new_uint32 (setup->pages_every_ms));
  g_variant_builder_add (&b, "{sv}", "page-size", g_variant_new_uint32 ((guint32) sysconf (_SC_PAGESIZE)));
  g_variant_builder_add (&b, "{sv}", "boot-time", g_variant_new_int64 (pgs_read_boot_time (root, NULL)));
  g_variant_builder_add (&b, "{sv}", "clock-ticks", g_variant_new_uint32 ((guint32) sysconf (_SC_CLK_TCK)));
  return g_variant_ref_sink (g_variant_builder_end (&b));
}

PgsRecordingWriter *
pgs_recording_writer_new (const char              *path,
                          const PgsRecordingSetup *setup,
                          GError                 **error)
{
  g_autoptr(PgsRecordingWriter) self = g_new0 (PgsRecordingWriter, 1);
  g_autoptr(GVariant) header = NULL;
  g_autoptr(GVariant) le = NULL;
  guint8 preamble[PGS_RECORDING_PREAMBLE_SIZE] = { 0 };
  guint32 version = GUINT32_TO_LE (PGS_RECORDING_FORMAT_VERSION);

  g_return_val_if_fail (path != NULL && setup != NULL, NULL);
  self->fd = -1;
  self->frames = g_array_new (FALSE, FALSE, sizeof (PgsFrameInfo));
  self->buf = g_byte_array_new ();
  self->payload = g_byte_array_new ();
  self->names = g_ptr_array_new_with_free_func (g_free);
  self->name_index = g_hash_table_new (g_str_hash, g_str_equal);
  self->fd = open (path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (self->fd < 0)
    {
      int saved = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved), "%s: %s", path, g_strerror (saved));
      return NULL;
    }
  memcpy (preamble, PGS_RECORDING_MAGIC, PGS_RECORDING_MAGIC_LEN);
  memcpy (preamble + 8, &version, 4);
  if (!write_all (self, preamble, sizeof preamble, error))
    return NULL;
  header = make_header (setup);
  le = G_BYTE_ORDER == G_LITTLE_ENDIAN ? g_variant_ref (header) : g_variant_byteswap (header);
  if (!append_frame (self, PGS_FRAME_HEADER, 0, g_get_real_time (), 0, g_variant_get_data (le),
                     g_variant_get_size (le), error))
    return NULL;
  return g_steal_pointer (&self);
}

gboolean
pgs_recording_writer_add_sample (PgsRecordingWriter *self,
                                 const PgsSample    *sample,
                                 GError            **error)
{
  gboolean key;
  PgsSample *copy;

  g_return_val_if_fail (self != NULL && sample != NULL, FALSE);
  /* The counters on the file's own list of names, which only grows: a caller's sample may
   * name them in any order, and leave some out. */
  copy = pgs_sample_copy (sample);
  g_ptr_array_unref (copy->names);
  copy->names = g_ptr_array_ref (self->names);
  g_array_set_size (copy->values, 0);
  for (guint i = 0; i < sample->names->len; i++)
    {
      const char *name = g_ptr_array_index (sample->names, i);
      guint idx = GPOINTER_TO_UINT (g_hash_table_lookup (self->name_index, name));

      if (idx == 0)
        {
          g_ptr_array_add (self->names, g_strdup (name));
          idx = self->names->len;
          g_hash_table_insert (self->name_index, g_ptr_array_index (self->names, idx - 1), GUINT_TO_POINTER (idx));
        }
      while (copy->values->len < self->names->len)
        g_array_append_val (copy->values, ((guint64) { PGS_SAMPLE_ABSENT }));
      g_array_index (copy->values, guint64, idx - 1) = i < sample->values->len
                                                       ? g_array_index (sample->values, guint64, i)
                                                       : PGS_SAMPLE_ABSENT;
    }
  while (copy->values->len < self->names->len)
    g_array_append_val (copy->values, ((guint64) { PGS_SAMPLE_ABSENT }));
  key = self->n_samples % PGS_RECORDING_KEY_SAMPLES == 0;
  g_byte_array_set_size (self->payload, 0);
  _pgs_sample_encode (key ? NULL : self->prev, copy, self->payload);
  if (!append_frame (self, PGS_FRAME_SAMPLE, key ? PGS_FRAME_KEY : 0, sample->time, self->n_samples,
                     self->payload->data, self->payload->len, error))
    {
      pgs_sample_free (copy);
      return FALSE;
    }
  self->n_samples++;
  g_clear_pointer (&self->prev, pgs_sample_free);
  self->prev = copy;
  return TRUE;
}

/* zlib of @len bytes at @data, appended to @out: one call into room for the worst case
 * (zlib's deflateBound), as the stream is best packed in one go. */
static void
compress_into (const guint8 *data,
               gsize         len,
               GByteArray   *out)
{
  g_autoptr(PgsZlib) z = _pgs_zlib_new_deflate (ZLIB_LEVEL);

  for (;;)
    {
      gsize read = 0, written = 0, at = out->len;
      gsize chunk = MIN (len, (gsize) G_MAXUINT32 / 2);
      gsize room = chunk + (chunk >> 12) + (chunk >> 14) + (chunk >> 25) + 1024;
      GConverterResult result;
      g_autoptr(GError) error = NULL;

      g_byte_array_set_size (out, at + room);
      result = _pgs_zlib_convert (z, data, chunk, out->data + at, room,
                                  chunk == len ? G_CONVERTER_INPUT_AT_END : G_CONVERTER_NO_FLAGS,
                                  &read, &written, &error);
      g_byte_array_set_size (out, at + written);
      g_assert (result != G_CONVERTER_ERROR);
      data += read;
      len -= read;
      if (result == G_CONVERTER_FINISHED)
        break;
    }
}

gboolean
pgs_recording_writer_add_picture (PgsRecordingWriter *self,
                                  PgsSnapshot        *snapshot,
                                  gint64              time,
                                  GError            **error)
{
  g_autoptr(GBytes) variant = NULL;
  g_autoptr(GByteArray) raw = NULL;
  gsize len;
  gboolean key;
  guint8 sizes[16];

  g_return_val_if_fail (self != NULL && snapshot != NULL, FALSE);
  variant = _pgs_snapshot_encode (snapshot);
  len = g_bytes_get_size (variant);
  key = self->prev_picture == NULL || self->n_pictures % PGS_RECORDING_KEY_PICTURES == 0;
  raw = g_byte_array_new ();
  /* A key picture differs from the empty one: its physical map then packs as tightly. */
  if (key)
    {
      g_autoptr(GBytes) empty = _pgs_picture_empty ();

      _pgs_picture_diff_encode_cached (empty, variant, PGS_RECORDING_FORMAT_VERSION, &self->prev_procs, raw);
    }
  else
    _pgs_picture_diff_encode_cached (self->prev_picture, variant, PGS_RECORDING_FORMAT_VERSION,
                                     &self->prev_procs, raw);

  g_byte_array_set_size (self->payload, 16);
  *(guint64 *) sizes = GUINT64_TO_LE ((guint64) len);
  *(guint64 *) (sizes + 8) = GUINT64_TO_LE ((guint64) raw->len);
  memcpy (self->payload->data, sizes, 16);
  compress_into (raw->data, raw->len, self->payload);
  if (!append_frame (self, PGS_FRAME_PICTURE, key ? PGS_FRAME_KEY : 0, time, self->n_pictures,
                     self->payload->data, self->payload->len, error))
    return FALSE;
  self->n_pictures++;
  g_clear_pointer (&self->prev_picture, g_bytes_unref);
  self->prev_picture = g_steal_pointer (&variant);
  /* A picture's buffers are megabytes: give them back now, not at the next picture. */
  g_byte_array_unref (self->payload);
  self->payload = g_byte_array_new ();
  return TRUE;
}

gboolean
pgs_recording_writer_close (PgsRecordingWriter *self,
                            GError            **error)
{
  g_autoptr(GByteArray) index = g_byte_array_new ();
  guint64 last_offset = 0, at;
  gint64 last_time = 0;
  guint8 trailer[PGS_RECORDING_TRAILER_SIZE];

  g_return_val_if_fail (self != NULL, FALSE);
  _pgs_put_varint (index, self->frames->len);
  for (guint i = 0; i < self->frames->len; i++)
    {
      const PgsFrameInfo *f = &g_array_index (self->frames, PgsFrameInfo, i);
      guint8 tf[2] = { f->type, f->flags };

      g_byte_array_append (index, tf, 2);
      _pgs_put_varint (index, f->offset - last_offset);
      _pgs_put_varint (index, f->length);
      _pgs_put_svarint (index, f->time - last_time);
      _pgs_put_varint (index, f->number);
      last_offset = f->offset;
      last_time = f->time;
    }
  at = self->size;
  if (!append_frame (self, PGS_FRAME_INDEX, 0, g_get_real_time (), 0, index->data, index->len, error))
    return FALSE;
  *(guint64 *) trailer = GUINT64_TO_LE (at);
  memcpy (trailer + 8, PGS_RECORDING_TRAILER_MAGIC, 8);
  if (!write_all (self, trailer, sizeof trailer, error))
    return FALSE;
  if (fsync (self->fd) != 0 || close (self->fd) != 0)
    {
      int saved = errno;

      self->fd = -1;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved), "%s", g_strerror (saved));
      return FALSE;
    }
  self->fd = -1;
  return TRUE;
}

void
pgs_recording_writer_free (PgsRecordingWriter *self)
{
  if (self == NULL)
    return;
  if (self->fd >= 0)
    close (self->fd);
  g_array_unref (self->frames);
  g_byte_array_unref (self->buf);
  g_byte_array_unref (self->payload);
  g_clear_pointer (&self->prev, pgs_sample_free);
  g_clear_pointer (&self->prev_picture, g_bytes_unref);
  g_clear_pointer (&self->prev_procs, _pgs_picture_procs_free);
  g_hash_table_unref (self->name_index);
  g_ptr_array_unref (self->names);
  g_free (self);
}

guint64
pgs_recording_writer_get_size (PgsRecordingWriter *self)
{
  return self->size;
}

guint
pgs_recording_writer_get_n_samples (PgsRecordingWriter *self)
{
  return self->n_samples;
}

guint
pgs_recording_writer_get_n_pictures (PgsRecordingWriter *self)
{
  return self->n_pictures;
}
