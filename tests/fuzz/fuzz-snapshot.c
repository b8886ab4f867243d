/* fuzz-snapshot.c: the snapshot file reader
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The first byte picks what the rest is, so that mutations get past the checksum:
 *   0  a whole file, as read from disk
 *   1  a whole file whose payload size and checksum are recomputed first (reaches
 *      decompression and decoding)
 *   2  the uncompressed payload (reaches the GVariant decoder directly)
 * Nothing is capped here: the reader gets the limits real files get (PGS_SNAPSHOT_MAX_*).
 * Seeds: make-snapshot-seeds.py, and the hand-made hostile files of
 * test-snapshot-hostile --write-seeds. A loaded snapshot is walked as the views and
 * reports walk it.
 */

#include "config.h"

#include <stdint.h>
#include <string.h>

#include <pagescope.h>

#include "pgs-snapshot-format.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

static void
visit_page (const PgsPageInfo *info,
            gpointer           user_data)
{
  *(guint64 *) user_data += info->entry;
}

/* Everything a view or report does with a snapshot, small. Nothing here caps what the file
 * says (mapping sizes up to 2^64, counts up to 2^32): bounding them is the reader's job,
 * and drawing is bounded by the pixels drawn, so an input that runs long is a finding. */
static void
walk (PgsSnapshot *snapshot)
{
  g_autoptr(GPtrArray) all = g_ptr_array_new ();
  g_autoptr(GString) out = g_string_new (NULL);
  guint64 sum = 0;

  for (guint i = 0; i < pgs_snapshot_get_n_processes (snapshot); i++)
    {
      PgsProcess *p = pgs_snapshot_get_process (snapshot, i);
      g_autoptr(GListModel) mappings = g_object_ref (pgs_process_get_mappings (p));

      g_ptr_array_add (all, p);
      g_assert (pgs_process_get_pss (p) <= pgs_process_get_rss (p) || !pgs_process_is_known (p, PGS_METRIC_RSS));
      (void) pgs_process_get_display_name (p);
      (void) pgs_process_get_display_user (p);
      (void) pgs_process_get_display_cmdline (p);
      pgs_process_foreach_page (p, visit_page, &sum);
      for (guint k = 0; k < g_list_model_get_n_items (mappings); k++)
        {
          g_autoptr(PgsMapping) m = g_list_model_get_item (mappings, k);
          PgsPageInfo info;

          pgs_process_lookup_page (p, pgs_mapping_get_start (m), &info);
          pgs_process_lookup_page (p, pgs_mapping_get_end (m) - 1, &info);
        }
    }
  if (pgs_snapshot_get_physmap (snapshot) != NULL)
    g_array_unref (pgs_snapshot_find_frame_users (snapshot, 20));

  /* The reports: memrank, memstats, librank and groups in JSON and CSV, and compare. */
  pgs_report_memrank_json (out, snapshot, all, 4);
  pgs_report_memstats_json (out, snapshot, all);
  pgs_report_processes_csv (out, all);
  {
    g_autoptr(GPtrArray) files = pgs_librank (all, NULL);
    g_autoptr(GPtrArray) groups = pgs_group_processes (snapshot, all, PGS_GROUP_BY_USER);
    g_autoptr(GArray) diff = pgs_compare_snapshots (snapshot, snapshot);

    pgs_report_librank_json (out, snapshot, files, 0);
    pgs_report_librank_csv (out, files);
    pgs_report_groups_json (out, snapshot, "user", groups);
    pgs_report_groups_csv (out, groups);
  }
  for (PgsMetric m = PGS_METRIC_VSS; m <= PGS_METRIC_SWAP; m <<= 1)
    (void) pgs_snapshot_get_total (snapshot, m, NULL);

  /* Every view a snapshot can show, in both layouts, with the first process that has pages,
   * whatever the size of its mappings, zoomed out and in. */
  for (PgsView view = PGS_VIEW_RESIDENCY; view <= PGS_VIEW_FLAGS; view++)
    for (PgsLayout layout = PGS_LAYOUT_LINEAR; layout <= PGS_LAYOUT_HILBERT; layout++)
      {
        g_autoptr(PgsRenderer) renderer = NULL;
        PgsProcess *process = NULL;
        guint8 pixels[32 * 32 * 4];
        PgsHit hit;

        for (guint i = 0; i < pgs_snapshot_get_n_processes (snapshot) && process == NULL; i++)
          if (pgs_process_has_pages (pgs_snapshot_get_process (snapshot, i)))
            process = pgs_snapshot_get_process (snapshot, i);
        if ((view == PGS_VIEW_RESIDENCY && process == NULL) ||
            (view != PGS_VIEW_RESIDENCY && pgs_snapshot_get_physmap (snapshot) == NULL))
          continue;
        renderer = pgs_renderer_new (snapshot, view);
        pgs_renderer_set_layout (renderer, layout);
        pgs_renderer_set_process (renderer, process);
        pgs_renderer_render (renderer, pixels, 32, 32, 32 * 4);
        for (int k = 0; k < 4; k++)
          pgs_renderer_hit_test (renderer, 32, 32, 5.5 + k * 7, 7.5 + k * 5, &hit);
        pgs_renderer_set_viewport (renderer, 50, 0.3, 0.6);
        pgs_renderer_render (renderer, pixels, 32, 32, 32 * 4);
        pgs_renderer_hit_test (renderer, 32, 32, 16.5, 16.5, &hit);
      }
}

/* The header's payload size made to match and its SHA-256 recomputed, as pgs-snapshot-
 * format.h lays them out: mutations of the header's other fields and of the payload then
 * reach decompression and decoding instead of stopping at the checksum. */
static guint8 *
fix_header (const uint8_t *data,
            size_t         size)
{
  g_autoptr(GChecksum) sum = g_checksum_new (G_CHECKSUM_SHA256);
  guint8 *copy = g_memdup2 (data, size);
  guint64 payload_len = GUINT64_TO_LE ((guint64) (size - PGS_SNAPSHOT_HEADER_SIZE));
  gsize len = 32;

  memcpy (copy + 16, &payload_len, 8);
  g_checksum_update (sum, copy, 32);
  g_checksum_update (sum, copy + PGS_SNAPSHOT_HEADER_SIZE, size - PGS_SNAPSHOT_HEADER_SIZE);
  g_checksum_get_digest (sum, copy + 32, &len);
  return copy;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(PgsSnapshot) snapshot = NULL;

  if (size < 1)
    return 0;

  if (data[0] == 2)
    {
      g_autoptr(GBytes) payload = g_bytes_new (data + 1, size - 1);

      snapshot = _pgs_snapshot_decode (payload, PGS_SNAPSHOT_MAX_FRAMES, &error);
    }
  else if (data[0] == 1 && size - 1 >= PGS_SNAPSHOT_HEADER_SIZE)
    {
      g_autofree guint8 *copy = fix_header (data + 1, size - 1);

      snapshot = _pgs_snapshot_load_bytes (copy, size - 1, PGS_SNAPSHOT_MAX_FRAMES, &error);
    }
  else
    snapshot = _pgs_snapshot_load_bytes (data + 1, size - 1, PGS_SNAPSHOT_MAX_FRAMES, &error);

  if (snapshot == NULL)
    g_assert (error != NULL && error->domain == PGS_ERROR && error->message != NULL);
  else
    walk (snapshot);
  return 0;
}
