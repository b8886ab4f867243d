/* fuzz-recording.c: the recording file reader
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The first byte picks what the rest is, so that mutations get past the CRCs:
 *   0  a whole file, as read from disk
 *   1  a whole file whose frames' CRCs are recomputed first (reaches the sample, picture
 *      and index decoders)
 * Nothing is capped here: the reader gets the limits real files get. Every sample,
 * picture and series of what opens is read, as the CLI and the app read them.
 */

#include "config.h"

#include <stdint.h>
#include <string.h>

#include <pagescope.h>

#include "pgs-recording-format.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

static void
fix_crcs (guint8 *data,
          gsize   len)
{
  gsize at = PGS_RECORDING_PREAMBLE_SIZE;

  while (at + PGS_RECORDING_FRAME_HEADER <= len)
    {
      PgsFrameInfo info;
      guint32 crc;

      _pgs_frame_parse (data + at, &info);
      if (info.length > len - at - PGS_RECORDING_FRAME_HEADER)
        break;
      crc = _pgs_crc32 (0, data + at, 20);
      crc = _pgs_crc32 (crc, data + at + PGS_RECORDING_FRAME_HEADER, info.length);
      crc = GUINT32_TO_LE (crc);
      memcpy (data + at + 20, &crc, 4);
      at += PGS_RECORDING_FRAME_HEADER + info.length;
    }
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(PgsRecording) rec = NULL;
  g_autofree guint8 *copy = NULL;

  if (size < 1)
    return 0;
  copy = g_memdup2 (data + 1, size - 1);
  if (data[0] & 1)
    fix_crcs (copy, size - 1);
  bytes = g_bytes_new_take (g_steal_pointer (&copy), size - 1);
  rec = pgs_recording_new_from_bytes (bytes, NULL);
  if (rec == NULL)
    return 0;
  (void) pgs_recording_get_end_note (rec);
  for (guint i = 0; i < pgs_recording_get_n_samples (rec); i++)
    {
      g_autoptr(PgsSnapshot) s = pgs_recording_get_snapshot_at_sample (rec, i, NULL);

      if (s != NULL)
        (void) pgs_snapshot_get_total (s, PGS_METRIC_PSS, NULL);
    }
  for (guint i = 0; i < pgs_recording_get_n_pictures (rec); i++)
    {
      g_autoptr(PgsSnapshot) s = pgs_recording_get_picture (rec, i, NULL);

      if (s != NULL)
        (void) pgs_snapshot_get_n_processes (s);
    }
  for (PgsSeriesKind k = PGS_SERIES_MACHINE; k <= PGS_SERIES_NAME; k++)
    {
      g_autoptr(PgsSeries) series = pgs_series_new (rec, k, 0, NULL);

      if (series != NULL && pgs_series_get_n_rows (series) > 0)
        {
          const PgsSeriesRow *row = pgs_series_get_row (series, 0);
          gint64 change;
          gboolean came, went;

          (void) pgs_series_get_growth (series, row->key, PGS_SAMPLE_PSS, &change, &came, &went);
        }
    }
  {
    gint64 t;

    (void) pgs_recording_parse_time (rec, "+1", &t, NULL);
    (void) pgs_recording_parse_time (rec, "12:00:00", &t, NULL);
  }
  return 0;
}
