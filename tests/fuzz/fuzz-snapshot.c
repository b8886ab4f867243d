/* fuzz-snapshot.c: the snapshot file reader
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The first byte picks what the rest is, so that mutations get past the checksum:
 *   0  a whole file, as read from disk
 *   1  a whole file whose checksum is recomputed first (reaches decompression)
 *   2  the uncompressed payload (reaches the GVariant decoder directly)
 * Seeds: make-snapshot-seeds.py. A loaded snapshot is walked as a view would walk it.
 */

#include "config.h"

#include <stdint.h>
#include <string.h>

#include <pagescope.h>

#include "pgs-snapshot-format.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

/* Small, so that a run length cannot make an input fill gigabytes. */
#define FUZZ_MAX_FRAMES (1u << 16)

static void
visit_page (const PgsPageInfo *info,
            gpointer           user_data)
{
  *(guint64 *) user_data += info->entry;
}

/* The residency view walks every virtual page of a process's mappings: its time grows with
 * their size, which a file may set to anything, as a live process may map terabytes (ASan's
 * shadow). That is the renderer's cost, not the reader's; keep fuzz inputs to small ones. */
#define FUZZ_MAX_MAPPED (G_GUINT64_CONSTANT (1) << 28)

static guint64
mapped_size (PgsProcess *process)
{
  GListModel *mappings = pgs_process_get_mappings (process);
  guint64 size = 0;

  for (guint k = 0; k < g_list_model_get_n_items (mappings); k++)
    {
      g_autoptr(PgsMapping) m = g_list_model_get_item (mappings, k);

      size += pgs_mapping_get_vss (m);
    }
  return size;
}

static void
walk (PgsSnapshot *snapshot)
{
  guint64 sum = 0;

  for (guint i = 0; i < pgs_snapshot_get_n_processes (snapshot); i++)
    {
      PgsProcess *p = pgs_snapshot_get_process (snapshot, i);
      g_autoptr(GListModel) mappings = g_object_ref (pgs_process_get_mappings (p));

      g_assert (pgs_process_get_pss (p) <= pgs_process_get_rss (p) || !pgs_process_is_known (p, PGS_METRIC_RSS));
      pgs_process_foreach_page (p, visit_page, &sum);
      for (guint k = 0; k < g_list_model_get_n_items (mappings); k++)
        {
          g_autoptr(PgsMapping) m = g_list_model_get_item (mappings, k);
          PgsPageInfo info;

          pgs_process_lookup_page (p, pgs_mapping_get_start (m), &info);
        }
    }
  if (pgs_snapshot_get_physmap (snapshot) != NULL)
    g_array_unref (pgs_snapshot_find_frame_users (snapshot, 20));

  /* Every view a snapshot can show, small, with the first process that has pages. */
  for (PgsView view = PGS_VIEW_RESIDENCY; view <= PGS_VIEW_FLAGS; view++)
    {
      g_autoptr(PgsRenderer) renderer = NULL;
      PgsProcess *process = NULL;
      guint8 pixels[32 * 32 * 4];
      PgsHit hit;

      for (guint i = 0; i < pgs_snapshot_get_n_processes (snapshot) && process == NULL; i++)
        if (pgs_process_has_pages (pgs_snapshot_get_process (snapshot, i)))
          process = pgs_snapshot_get_process (snapshot, i);
      if ((view == PGS_VIEW_RESIDENCY && (process == NULL || mapped_size (process) > FUZZ_MAX_MAPPED)) ||
          (view != PGS_VIEW_RESIDENCY && pgs_snapshot_get_physmap (snapshot) == NULL))
        continue;
      renderer = pgs_renderer_new (snapshot, view);
      pgs_renderer_set_process (renderer, process);
      pgs_renderer_render (renderer, pixels, 32, 32, 32 * 4);
      pgs_renderer_hit_test (renderer, 32, 32, 5.5, 7.5, &hit);
    }
  (void) pgs_snapshot_get_total (snapshot, PGS_METRIC_PSS, NULL);
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

      snapshot = _pgs_snapshot_decode (payload, FUZZ_MAX_FRAMES, &error);
    }
  else if (data[0] == 1 && size - 1 >= PGS_SNAPSHOT_HEADER_SIZE)
    {
      g_autofree guint8 *copy = g_memdup2 (data + 1, size - 1);
      g_autoptr(GChecksum) sum = g_checksum_new (G_CHECKSUM_SHA256);
      gsize len = 32;

      g_checksum_update (sum, copy, 32);
      g_checksum_update (sum, copy + PGS_SNAPSHOT_HEADER_SIZE, size - 1 - PGS_SNAPSHOT_HEADER_SIZE);
      g_checksum_get_digest (sum, copy + 32, &len);
      snapshot = _pgs_snapshot_load_bytes (copy, size - 1, FUZZ_MAX_FRAMES, &error);
    }
  else
    snapshot = _pgs_snapshot_load_bytes (data + 1, size - 1, FUZZ_MAX_FRAMES, &error);

  if (snapshot == NULL)
    g_assert (error != NULL && error->domain == PGS_ERROR && error->message != NULL);
  else
    walk (snapshot);
  return 0;
}
