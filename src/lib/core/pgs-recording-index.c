/* pgs-recording-index.c: a recording file's header and index, read when it is opened
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The header frame and the index at the end (a few tens of kilobytes for an hour), or, where
 * the recorder did not end cleanly, the frames walked from the start, each one's CRC checked.
 * Nothing is allocated for a count or size in the file that its length does not cover.
 */

#include "config.h"

#include <string.h>

#include "pgs-error.h"
#include "pgs-recording-private.h"

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

gboolean
_pgs_recording_read (PgsRecording  *self,
                     GBytes        *bytes,
                     GError       **error)
{
  self->bytes = g_bytes_ref (bytes);
  self->data = g_bytes_get_data (bytes, &self->len);
  if (!read_header (self, error))
    return FALSE;
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
      return FALSE;
    }
  return TRUE;
}
