/* scanner-fixture.c: the scanner tests' shared steps and their two-process example
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "scanner-fixture.h"

guint64 PS;

PgsSnapshot *
scan (PgsFixture   *fx,
      PgsScanFlags  flags,
      const int    *pids,
      guint         n_pids)
{
  g_autoptr(PgsScanner) scanner = pgs_scanner_new ();
  g_autoptr(GError) error = NULL;
  PgsSnapshot *snapshot;

  pgs_scanner_set_procfs_root (scanner, pgs_fixture_get_root (fx));
  pgs_scanner_set_flags (scanner, flags);
  pgs_scanner_set_pids (scanner, pids, n_pids);
  snapshot = pgs_scanner_scan (scanner, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (snapshot);
  return snapshot;
}

guint64 *
entries_new (gsize n)
{
  return g_new0 (guint64, n);
}

/* The proposal's example: A has 1000 private pages and 1000 pages shared with B.
 *   A: RSS 2000 PS, PSS 1000 + 1000/2 = 1500 PS, USS 1000 PS
 *   B: RSS 1000 PS, PSS 500 PS, USS 0 */
void
build_proposal (PgsFixture *fx)
{
  g_autofree guint64 *a = entries_new (2000);
  g_autofree guint64 *b = entries_new (1000);

  pgs_fixture_add_process (fx, 100, "alpha", 0, FALSE);
  pgs_fixture_add_process (fx, 200, "beta", 0, FALSE);
  pgs_fixture_add_mapping (fx, 100, BASE, BASE + 2000 * PS, "rw-p", "[heap]");
  pgs_fixture_add_mapping (fx, 200, BASE, BASE + 1000 * PS, "r--s", "/dev/shm/shared");

  for (guint i = 0; i < 1000; i++)
    {
      a[i] = FX_PRESENT_EXCL (1000 + i);        /* private: frames 1000..1999 */
      pgs_fixture_set_frame (fx, 1000 + i, 1, KPF (ANON) | KPF (LRU));
      a[1000 + i] = FX_PRESENT (5000 + i) | FX_FILE;  /* shared: frames 5000..5999 */
      b[i] = FX_PRESENT (5000 + i) | FX_FILE;
      pgs_fixture_set_frame (fx, 5000 + i, 2, KPF (LRU) | KPF (UPTODATE));
    }
  pgs_fixture_set_pages (fx, 100, BASE, a, 2000);
  pgs_fixture_set_pages (fx, 200, BASE, b, 1000);
  pgs_fixture_commit (fx);
}

const PgsSkipped *
find_skipped (PgsSnapshot *snap,
              int          pid)
{
  for (guint i = 0; i < pgs_snapshot_get_n_skipped (snap); i++)
    if (pgs_snapshot_get_skipped (snap, i)->pid == pid)
      return pgs_snapshot_get_skipped (snap, i);
  return NULL;
}
