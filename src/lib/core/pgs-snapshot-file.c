/* pgs-snapshot-file.c: the header, compression, checksum and I/O of snapshot files
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The layout is described in pgs-snapshot-format.h. The reader checks, in this order, so
 * that each kind of bad file gets its own message: magic (not a snapshot), length of the
 * header (truncated), version (newer), length of the payload (truncated), checksum
 * (damaged); only then does it decompress and decode, and the decoder trusts nothing.
 */

#include "config.h"

#include <string.h>

#include "pgs-error.h"
#include "pgs-format.h"
#include "pgs-local-file.h"
#include "pgs-snapshot-file.h"
#include "pgs-snapshot-format.h"
#include "pgs-snapshot-private.h"
#include "pgs-snapshot.h"
#include "pgs-zlib-private.h"

/* Measured on a 24 GiB machine (14 MB of GVariant): level 1 wrote 2.1 MB in 0.23 s, 6 wrote
 * 1.6 MB in 0.5 s, 9 wrote 1.8 MB in 16 s (the long runs of equal values defeat it). */
#define ZLIB_LEVEL 6

static void
put_u32 (guint8  *p,
         guint32  v)
{
  v = GUINT32_TO_LE (v);
  memcpy (p, &v, 4);
}

static void
put_u64 (guint8  *p,
         guint64  v)
{
  v = GUINT64_TO_LE (v);
  memcpy (p, &v, 8);
}

static guint32
get_u32 (const guint8 *p)
{
  guint32 v;

  memcpy (&v, p, 4);
  return GUINT32_FROM_LE (v);
}

static guint64
get_u64 (const guint8 *p)
{
  guint64 v;

  memcpy (&v, p, 8);
  return GUINT64_FROM_LE (v);
}

/* SHA-256 of the first 32 header bytes and the payload. */
static void
checksum (const guint8 *header,
          const guint8 *payload,
          gsize         payload_len,
          guint8        digest[32])
{
  g_autoptr(GChecksum) sum = g_checksum_new (G_CHECKSUM_SHA256);
  gsize len = 32;

  g_checksum_update (sum, header, 32);
  g_checksum_update (sum, payload, payload_len);
  g_checksum_get_digest (sum, digest, &len);
  g_assert (len == 32);
}

/* Runs @converter over all of @in; @limit bounds the output (0: none), beyond which the
 * input is refused rather than decompressed further. */
static GByteArray *
convert_all (PgsZlib      *converter,
             const guint8 *in,
             gsize         in_len,
             gsize         limit,
             GError      **error)
{
  g_autoptr(GByteArray) out = g_byte_array_new ();
  gsize chunk = 1 << 20;

  for (;;)
    {
      gsize read = 0, written = 0, at = out->len;
      GConverterResult result;

      if (limit != 0 && at >= limit + 1)
        {
          g_set_error (error, PGS_ERROR, PGS_ERROR_BAD_SNAPSHOT,
                       "inconsistent contents: more data than the header says");
          return NULL;
        }
      g_byte_array_set_size (out, at + chunk);
      result = _pgs_zlib_convert (converter, in, in_len, out->data + at, chunk,
                                  G_CONVERTER_INPUT_AT_END, &read, &written, error);
      g_byte_array_set_size (out, at + written);
      if (result == G_CONVERTER_ERROR)
        return NULL;
      in += read;
      in_len -= read;
      if (result == G_CONVERTER_FINISHED)
        break;
    }
  if (in_len != 0)
    {
      g_set_error (error, PGS_ERROR, PGS_ERROR_BAD_SNAPSHOT,
                   "inconsistent contents: data after the compressed stream");
      return NULL;
    }
  return g_steal_pointer (&out);
}

/* The @declared bytes that @in (@in_len bytes of zlib) inflates to, or NULL. The size is
 * checked against the ceiling and what deflate can pack into @in_len before anything is
 * allocated; the buffer is then allocated once (its pages are touched only as the stream
 * fills them) and the stream is stopped as soon as it gives more than it declared. Where
 * the memory cannot be had (an address-space limit), the file is refused at once, before
 * any inflating. */
#define CHUNK ((gsize) 1 << 30)

static guint8 *
inflate_bounded (const guint8  *in,
                 gsize          in_len,
                 guint64        declared,
                 GError       **error)
{
  g_autoptr(PgsZlib) decompressor = NULL;
  g_autofree guint8 *out = NULL;
  g_autofree char *size = NULL;
  gsize at = 0;

  if (declared > PGS_SNAPSHOT_MAX_PAYLOAD)
    {
      g_autofree char *ceiling = pgs_format_size (PGS_SNAPSHOT_MAX_PAYLOAD);

      size = pgs_format_size (declared);
      g_set_error (error, PGS_ERROR, PGS_ERROR_BAD_SNAPSHOT,
                   "inconsistent contents: an uncompressed size of %s (%" G_GUINT64_FORMAT " bytes), "
                   "more than the %s of the largest snapshot a machine makes", size, declared, ceiling);
      return NULL;
    }
  if (declared / PGS_SNAPSHOT_MAX_RATIO > in_len)
    {
      g_set_error (error, PGS_ERROR, PGS_ERROR_BAD_SNAPSHOT,
                   "inconsistent contents: an uncompressed size of %" G_GUINT64_FORMAT " bytes from %"
                   G_GSIZE_FORMAT " compressed, more than zlib can pack into them", declared, in_len);
      return NULL;
    }
  /* One byte more than declared: a stream that fills it says more than its header. */
  out = g_try_malloc ((gsize) declared + 1);
  if (out == NULL)
    {
      size = pgs_format_size (declared);
      g_set_error (error, PGS_ERROR, PGS_ERROR_FAILED,
                   "not enough memory to read the snapshot: it holds %s uncompressed "
                   "(%" G_GUINT64_FORMAT " bytes of memory, and more to decode them)", size, declared);
      return NULL;
    }

  decompressor = _pgs_zlib_new_inflate ();
  for (;;)
    {
      g_autoptr(GError) local_error = NULL;
      gsize read = 0, written = 0, in_chunk, out_chunk;
      GConverterResult result;

      if (at > declared)
        {
          g_set_error (error, PGS_ERROR, PGS_ERROR_BAD_SNAPSHOT,
                       "inconsistent contents: more data than the header says (%" G_GUINT64_FORMAT " bytes)",
                       declared);
          return NULL;
        }
      /* zlib counts in 32 bits: at most 1 GiB in and out a call. */
      in_chunk = MIN (in_len, CHUNK);
      out_chunk = MIN (declared + 1 - at, CHUNK);

      result = _pgs_zlib_convert (decompressor, in, in_chunk, out + at, out_chunk,
                                  in_chunk == in_len ? G_CONVERTER_INPUT_AT_END : G_CONVERTER_NO_FLAGS,
                                  &read, &written, &local_error);
      if (result == G_CONVERTER_ERROR)
        {
          g_set_error (error, PGS_ERROR, PGS_ERROR_BAD_SNAPSHOT, "inconsistent contents: %s",
                       local_error->message);
          return NULL;
        }
      in += read;
      in_len -= read;
      at += written;
      if (result == G_CONVERTER_FINISHED)
        break;
    }
  if (in_len != 0 || at != declared)
    {
      g_set_error (error, PGS_ERROR, PGS_ERROR_BAD_SNAPSHOT, "inconsistent contents: %s",
                   in_len != 0 ? "data after the compressed stream" : "not the size its header says");
      return NULL;
    }
  return g_steal_pointer (&out);
}

/* @snapshot as the file's header and compressed payload. */
static GByteArray *
pack (PgsSnapshot *snapshot,
      guint8       header[PGS_SNAPSHOT_HEADER_SIZE],
      GError     **error)
{
  g_autoptr(GBytes) payload = NULL;
  g_autoptr(PgsZlib) compressor = NULL;
  g_autoptr(GByteArray) packed = NULL;

  payload = _pgs_snapshot_encode (snapshot);
  compressor = _pgs_zlib_new_deflate (ZLIB_LEVEL);
  packed = convert_all (compressor, g_bytes_get_data (payload, NULL),
                        g_bytes_get_size (payload), 0, error);
  if (packed == NULL)
    return NULL;

  memset (header, 0, PGS_SNAPSHOT_HEADER_SIZE);
  memcpy (header, PGS_SNAPSHOT_MAGIC, PGS_SNAPSHOT_MAGIC_LEN);
  put_u32 (header + 8, PGS_SNAPSHOT_FORMAT_VERSION);
  put_u32 (header + 12, 0);
  put_u64 (header + 16, packed->len);
  put_u64 (header + 24, g_bytes_get_size (payload));
  checksum (header, packed->data, packed->len, header + 32);
  return g_steal_pointer (&packed);
}

gboolean
pgs_snapshot_save (PgsSnapshot   *snapshot,
                   GFile         *file,
                   GCancellable  *cancellable,
                   GError       **error)
{
  g_autoptr(GByteArray) packed = NULL;
  g_autoptr(GFileOutputStream) out = NULL;
  g_autoptr(GFile) parent = NULL;
  g_autoptr(GFile) tmp = NULL;
  g_autofree char *basename = NULL;
  guint8 header[PGS_SNAPSHOT_HEADER_SIZE];
  gsize written;

  g_return_val_if_fail (PGS_IS_SNAPSHOT (snapshot), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);

  packed = pack (snapshot, header, error);
  if (packed == NULL)
    return FALSE;

  /* A temporary file beside @file, renamed over it once complete: a reader never sees half
   * a snapshot, and a failed save leaves the old file. (g_file_replace() alone writes a new
   * file in place when none exists yet.) */
  parent = g_file_get_parent (file);
  basename = g_file_get_basename (file);
  if (parent == NULL || basename == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_FILENAME, "not a file name");
      return FALSE;
    }
  for (guint attempt = 0; out == NULL; attempt++)
    {
      g_autofree char *name = g_strdup_printf (".%s.%08x.tmp", basename, g_random_int ());
      g_autoptr(GError) local_error = NULL;

      g_set_object (&tmp, g_file_get_child (parent, name));
      out = g_file_create (tmp, G_FILE_CREATE_NONE, cancellable, &local_error);
      if (out == NULL && (attempt >= 10 || !g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_EXISTS)))
        {
          g_propagate_error (error, g_steal_pointer (&local_error));
          return FALSE;
        }
    }
  if (!g_output_stream_write_all (G_OUTPUT_STREAM (out), header, sizeof header, &written, cancellable, error) ||
      !g_output_stream_write_all (G_OUTPUT_STREAM (out), packed->data, packed->len, &written, cancellable, error) ||
      !g_output_stream_close (G_OUTPUT_STREAM (out), cancellable, error) ||
      !g_file_move (tmp, file, G_FILE_COPY_OVERWRITE | G_FILE_COPY_NO_FALLBACK_FOR_MOVE,
                    cancellable, NULL, NULL, error))
    {
      g_output_stream_close (G_OUTPUT_STREAM (out), NULL, NULL);
      g_file_delete (tmp, NULL, NULL);
      return FALSE;
    }
  return TRUE;
}

gboolean
pgs_snapshot_save_path (PgsSnapshot  *snapshot,
                        const char   *path,
                        GError      **error)
{
  g_autoptr(GByteArray) packed = NULL;
  guint8 header[PGS_SNAPSHOT_HEADER_SIZE];

  g_return_val_if_fail (PGS_IS_SNAPSHOT (snapshot), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  packed = pack (snapshot, header, error);
  if (packed == NULL)
    return FALSE;
  return pgs_local_file_save_atomic (path, header, sizeof header, packed->data, packed->len, error);
}

PgsSnapshot *
_pgs_snapshot_load_bytes (const guint8  *data,
                          gsize          len,
                          guint64        max_frames,
                          GError       **error)
{
  g_autoptr(GBytes) payload = NULL;
  guint8 *plain;
  guint8 digest[32];
  guint32 version;
  guint64 payload_len, plain_len;

  if (len < PGS_SNAPSHOT_MAGIC_LEN)
    {
      if (len > 0 && memcmp (data, PGS_SNAPSHOT_MAGIC, len) == 0)
        g_set_error (error, PGS_ERROR, PGS_ERROR_SNAPSHOT_TRUNCATED,
                     "the snapshot file is cut short: it ends inside its header (%" G_GSIZE_FORMAT " bytes)", len);
      else if (len == 0)
        g_set_error (error, PGS_ERROR, PGS_ERROR_SNAPSHOT_TRUNCATED, "the snapshot file is empty");
      else
        g_set_error (error, PGS_ERROR, PGS_ERROR_NOT_A_SNAPSHOT, "not a Pagescope snapshot file");
      return NULL;
    }
  if (memcmp (data, PGS_SNAPSHOT_MAGIC, PGS_SNAPSHOT_MAGIC_LEN) != 0)
    {
      g_set_error (error, PGS_ERROR, PGS_ERROR_NOT_A_SNAPSHOT, "not a Pagescope snapshot file");
      return NULL;
    }
  if (len < PGS_SNAPSHOT_HEADER_SIZE)
    {
      g_set_error (error, PGS_ERROR, PGS_ERROR_SNAPSHOT_TRUNCATED,
                   "the snapshot file is cut short: it ends inside its header (%" G_GSIZE_FORMAT " bytes)", len);
      return NULL;
    }

  version = get_u32 (data + 8);
  payload_len = get_u64 (data + 16);
  plain_len = get_u64 (data + 24);
  if (version > PGS_SNAPSHOT_FORMAT_VERSION)
    {
      g_set_error (error, PGS_ERROR, PGS_ERROR_SNAPSHOT_NEWER_VERSION,
                   "the snapshot file has format version %u, this Pagescope (%s) reads up to %u: "
                   "open it with a newer Pagescope", version, PACKAGE_VERSION, PGS_SNAPSHOT_FORMAT_VERSION);
      return NULL;
    }
  if (payload_len > len - PGS_SNAPSHOT_HEADER_SIZE)
    {
      g_set_error (error, PGS_ERROR, PGS_ERROR_SNAPSHOT_TRUNCATED,
                   "the snapshot file is cut short: %" G_GSIZE_FORMAT " bytes, its header says %" G_GUINT64_FORMAT,
                   len, payload_len > G_MAXUINT64 - PGS_SNAPSHOT_HEADER_SIZE ? G_MAXUINT64 : payload_len + PGS_SNAPSHOT_HEADER_SIZE);
      return NULL;
    }
  checksum (data, data + PGS_SNAPSHOT_HEADER_SIZE, payload_len, digest);
  if (payload_len < len - PGS_SNAPSHOT_HEADER_SIZE || version == 0 ||
      memcmp (digest, data + 32, 32) != 0)
    {
      g_set_error (error, PGS_ERROR, PGS_ERROR_SNAPSHOT_DAMAGED,
                   "the snapshot file is damaged: its checksum does not match its contents");
      return NULL;
    }

  if (get_u32 (data + 12) != 0)
    {
      g_set_error (error, PGS_ERROR, PGS_ERROR_BAD_SNAPSHOT,
                   "inconsistent contents: reserved header bytes are not 0");
      return NULL;
    }
  plain = inflate_bounded (data + PGS_SNAPSHOT_HEADER_SIZE, payload_len, plain_len, error);
  if (plain == NULL)
    return NULL;
  payload = g_bytes_new_take (plain, plain_len);
  return _pgs_snapshot_decode (payload, max_frames, error);
}

static gboolean
check_size (goffset   size,
            GError  **error)
{
  if ((guint64) size > PGS_SNAPSHOT_MAX_PAYLOAD + PGS_SNAPSHOT_HEADER_SIZE)
    {
      g_set_error (error, PGS_ERROR, PGS_ERROR_NOT_A_SNAPSHOT,
                   "not a Pagescope snapshot file: too large (%" G_GOFFSET_FORMAT " bytes)", size);
      return FALSE;
    }
  return TRUE;
}

PgsSnapshot *
pgs_snapshot_load (GFile         *file,
                   GCancellable  *cancellable,
                   GError       **error)
{
  g_autoptr(GFileInfo) info = NULL;
  g_autofree char *data = NULL;
  g_autofree char *path = NULL;
  PgsSnapshot *snapshot;
  gsize len;

  g_return_val_if_fail (G_IS_FILE (file), NULL);

  info = g_file_query_info (file, G_FILE_ATTRIBUTE_STANDARD_SIZE, G_FILE_QUERY_INFO_NONE,
                            cancellable, error);
  if (info == NULL || !check_size (g_file_info_get_size (info), error))
    return NULL;
  if (!g_file_load_contents (file, cancellable, &data, &len, NULL, error))
    return NULL;

  snapshot = _pgs_snapshot_load_bytes ((const guint8 *) data, len, PGS_SNAPSHOT_MAX_FRAMES, error);
  if (snapshot != NULL)
    {
      path = g_file_get_path (file);
      _pgs_snapshot_set_file (snapshot, file);
      _pgs_snapshot_set_path (snapshot, path);
    }
  return snapshot;
}

PgsSnapshot *
pgs_snapshot_load_path (const char  *path,
                        GError     **error)
{
  g_autofree char *data = NULL;
  PgsSnapshot *snapshot;
  goffset size;
  gsize len;

  g_return_val_if_fail (path != NULL, NULL);

  if (!pgs_local_file_query_size (path, &size, error) || !check_size (size, error))
    return NULL;
  if (!pgs_local_file_load (path, &data, &len, error))
    return NULL;

  snapshot = _pgs_snapshot_load_bytes ((const guint8 *) data, len, PGS_SNAPSHOT_MAX_FRAMES, error);
  if (snapshot != NULL)
    _pgs_snapshot_set_path (snapshot, path);
  return snapshot;
}

static void
save_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  GError *error = NULL;

  if (pgs_snapshot_save (source_object, task_data, cancellable, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

void
pgs_snapshot_save_async (PgsSnapshot         *snapshot,
                         GFile               *file,
                         GCancellable        *cancellable,
                         GAsyncReadyCallback  callback,
                         gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (PGS_IS_SNAPSHOT (snapshot));
  g_return_if_fail (G_IS_FILE (file));

  task = g_task_new (snapshot, cancellable, callback, user_data);
  g_task_set_source_tag (task, pgs_snapshot_save_async);
  g_task_set_task_data (task, g_object_ref (file), g_object_unref);
  g_task_run_in_thread (task, save_thread);
}

gboolean
pgs_snapshot_save_finish (PgsSnapshot   *snapshot,
                          GAsyncResult  *result,
                          GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, snapshot), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}

static void
load_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  GError *error = NULL;
  PgsSnapshot *snapshot = pgs_snapshot_load (task_data, cancellable, &error);

  if (snapshot != NULL)
    g_task_return_pointer (task, snapshot, g_object_unref);
  else
    g_task_return_error (task, error);
}

void
pgs_snapshot_load_async (GFile               *file,
                         GCancellable        *cancellable,
                         GAsyncReadyCallback  callback,
                         gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (G_IS_FILE (file));

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, pgs_snapshot_load_async);
  g_task_set_task_data (task, g_object_ref (file), g_object_unref);
  g_task_run_in_thread (task, load_thread);
}

PgsSnapshot *
pgs_snapshot_load_finish (GAsyncResult  *result,
                          GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}
