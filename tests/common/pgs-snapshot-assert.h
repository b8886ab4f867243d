/* pgs-snapshot-assert.h: two snapshots hold the same scan, field by field
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Header only (static functions), for the unit and kernel suites' snapshot file tests. It
 * compares every field a view or report can reach, public and private, so that a field the
 * file forgets fails here rather than showing as a wrong number somewhere.
 */

#pragma once

#include <string.h>

#include <pagescope.h>

#include "pgs-process-private.h"

static inline void
pgs_assert_processes_equal (PgsProcess *a,
                            PgsProcess *b)
{
  g_assert_cmpint (a->pid, ==, b->pid);
  g_assert_cmpint (a->ppid, ==, b->ppid);
  g_assert_cmpuint (a->uid, ==, b->uid);
  g_assert_cmpstr (a->user, ==, b->user);
  g_assert_cmpstr (a->name, ==, b->name);
  g_assert_cmpstr (a->cmdline, ==, b->cmdline);
  g_assert_cmpuint (a->start_time, ==, b->start_time);
  g_assert_cmpstr (a->cgroup, ==, b->cgroup);
  g_assert_cmpuint (a->vss, ==, b->vss);
  g_assert_cmpuint (a->rss, ==, b->rss);
  g_assert_cmpuint (a->pss_fp, ==, b->pss_fp);
  g_assert_cmpuint (a->uss, ==, b->uss);
  g_assert_cmpuint (a->swap, ==, b->swap);
  g_assert_cmpuint (a->swap_pss, ==, b->swap_pss);
  /* A snapshot file keeps neither the clean/dirty split nor the THP figures: unknown once
   * loaded. */
  g_assert_cmpuint (a->known & ~(guint) (PGS_METRIC_SPLIT | PGS_METRIC_THP), ==,
                    b->known & ~(guint) (PGS_METRIC_SPLIT | PGS_METRIC_THP));
  g_assert_cmpuint (b->known & (guint) (PGS_METRIC_SPLIT | PGS_METRIC_THP), ==, 0);
  g_assert_cmpint (a->source, ==, b->source);
  g_assert_cmpstr (a->unknown_reason, ==, b->unknown_reason);
  g_assert_cmpuint (a->page_size, ==, b->page_size);
  g_assert_cmpint (!!a->pfn_hidden, ==, !!b->pfn_hidden);

  /* Through the public getters too: what the views see. */
  for (guint m = PGS_METRIC_VSS; m <= PGS_METRIC_SWAP; m <<= 1)
    {
      g_assert_cmpint (pgs_process_is_known (a, m), ==, pgs_process_is_known (b, m));
      g_assert_cmpuint (pgs_process_get_metric (a, m), ==, pgs_process_get_metric (b, m));
    }

  g_assert_cmpuint (pgs_process_get_n_mappings (a), ==, pgs_process_get_n_mappings (b));
  for (guint i = 0; a->mappings != NULL && i < a->mappings->len; i++)
    {
      const PgsMappingData *ma = &g_array_index (a->mappings, PgsMappingData, i);
      const PgsMappingData *mb = &g_array_index (b->mappings, PgsMappingData, i);

      g_assert_cmpuint (ma->start, ==, mb->start);
      g_assert_cmpuint (ma->end, ==, mb->end);
      g_assert_cmpuint (ma->offset, ==, mb->offset);
      g_assert_cmpuint (ma->inode, ==, mb->inode);
      g_assert_cmpuint (ma->dev_major, ==, mb->dev_major);
      g_assert_cmpuint (ma->dev_minor, ==, mb->dev_minor);
      g_assert_cmpstr (ma->perms, ==, mb->perms);
      g_assert_cmpstr (ma->path, ==, mb->path);
      g_assert_cmpuint (ma->rss, ==, mb->rss);
      g_assert_cmpuint (ma->pss_fp, ==, mb->pss_fp);
      g_assert_cmpuint (ma->uss, ==, mb->uss);
      g_assert_cmpuint (ma->swap, ==, mb->swap);
      g_assert_cmpuint (ma->swap_pss, ==, mb->swap_pss);
      g_assert_cmpuint (ma->known, ==, mb->known);
    }

  g_assert_cmpint (pgs_process_has_pages (a), ==, pgs_process_has_pages (b));
  g_assert_cmpuint (a->n_pages, ==, b->n_pages);
  if (a->runs != NULL)
    {
      g_assert_cmpuint (a->runs->len, ==, b->runs->len);
      g_assert_true (memcmp (a->runs->data, b->runs->data, a->runs->len * sizeof (PgsPageRun)) == 0);
      g_assert_true (a->n_pages == 0 || memcmp (a->entries, b->entries, a->n_pages * 8) == 0);
    }
  g_assert_cmpint (a->counts != NULL, ==, b->counts != NULL);
  if (a->counts != NULL)
    g_assert_true (a->n_pages == 0 || memcmp (a->counts, b->counts, a->n_pages * 4) == 0);
}

static inline void
pgs_assert_snapshots_equal (PgsSnapshot *a,
                            PgsSnapshot *b)
{
  PgsPhysMap *pa = pgs_snapshot_get_physmap (a);
  PgsPhysMap *pb = pgs_snapshot_get_physmap (b);

  g_assert_cmpint (pgs_snapshot_is_privileged (a), ==, pgs_snapshot_is_privileged (b));
  g_assert_cmpuint (pgs_snapshot_get_page_size (a), ==, pgs_snapshot_get_page_size (b));
  g_assert_cmpint (pgs_snapshot_get_time (a), ==, pgs_snapshot_get_time (b));
  g_assert_cmpstr (pgs_snapshot_get_hostname (a), ==, pgs_snapshot_get_hostname (b));
  g_assert_cmpstr (pgs_snapshot_get_kernel_release (a), ==, pgs_snapshot_get_kernel_release (b));
  g_assert_cmpstr (pgs_snapshot_get_boot_id (a), ==, pgs_snapshot_get_boot_id (b));
  g_assert_cmpstr (pgs_snapshot_get_version (a), ==, pgs_snapshot_get_version (b));
  g_assert_cmpstr (pgs_snapshot_get_meminfo_text (a), ==, pgs_snapshot_get_meminfo_text (b));

  g_assert_cmpuint (pgs_snapshot_get_n_processes (a), ==, pgs_snapshot_get_n_processes (b));
  for (guint i = 0; i < pgs_snapshot_get_n_processes (a); i++)
    pgs_assert_processes_equal (pgs_snapshot_get_process (a, i), pgs_snapshot_get_process (b, i));

  g_assert_cmpuint (pgs_snapshot_get_n_skipped (a), ==, pgs_snapshot_get_n_skipped (b));
  for (guint i = 0; i < pgs_snapshot_get_n_skipped (a); i++)
    {
      const PgsSkipped *sa = pgs_snapshot_get_skipped (a, i);
      const PgsSkipped *sb = pgs_snapshot_get_skipped (b, i);

      g_assert_cmpint (sa->pid, ==, sb->pid);
      g_assert_error (sb->error, sa->error->domain, sa->error->code);
      g_assert_cmpstr (sa->error->message, ==, sb->error->message);
    }

  g_assert_cmpint (pa != NULL, ==, pb != NULL);
  if (pa != NULL)
    {
      guint64 n = pgs_physmap_get_n_frames (pa);

      g_assert_cmpuint (n, ==, pgs_physmap_get_n_frames (pb));
      g_assert_true (memcmp (pgs_physmap_get_counts (pa), pgs_physmap_get_counts (pb), n * 4) == 0);
      g_assert_true (memcmp (pgs_physmap_get_flags (pa), pgs_physmap_get_flags (pb), n * 8) == 0);
      g_assert_cmpstr (pgs_physmap_get_meminfo_text (pa), ==, pgs_physmap_get_meminfo_text (pb));
      g_assert_cmpstr (pgs_physmap_get_zoneinfo_text (pa), ==, pgs_physmap_get_zoneinfo_text (pb));
      g_assert_cmpstr (pgs_physmap_get_counters_error (pa), ==, pgs_physmap_get_counters_error (pb));
    }
}
