/* test-thp.c: transparent huge pages per process, from smaps_rollup and from kpageflags
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The rollup's AnonHugePages + ShmemPmdMapped + FilePmdMapped is the process's THP figure;
 * a rollup without AnonHugePages, or none at all, leaves it unknown (null in memrank
 * --json), never 0. With pages and the physical map, the frames flagged KPF_THP are counted
 * over the process's present pages. Every figure is worked out beside it, PS the page size.
 */

#include "config.h"

#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include <pagescope.h>

#include "pgs-fixture.h"
#include "pgs-kpage.h"
#include "pgs-parse.h"
#include "pgs-test-cli.h"

#define KPF(f) PGS_KPF_BIT (PGS_KPF_##f)
#define BASE   G_GUINT64_CONSTANT (0x10000000)
#define KB     G_GUINT64_CONSTANT (1024)

static guint64 PS;

/* 4096 kB of anonymous THP, 2048 kB of shmem: 6144 kB. */
static const char rollup_all[] =
  "10000000-107d0000 ---p 00000000 00:00 0 [rollup]\n"
  "Rss:                7900 kB\nPss:                6500 kB\n"
  "Private_Clean:      2000 kB\nPrivate_Dirty:      4000 kB\n"
  "AnonHugePages:      4096 kB\nShmemPmdMapped:     2048 kB\nFilePmdMapped:         0 kB\n"
  "Swap:                 12 kB\n";

/* An older kernel: AnonHugePages alone, 2048 kB. */
static const char rollup_anon_only[] =
  "10000000-107d0000 ---p 00000000 00:00 0 [rollup]\n"
  "Rss:                7900 kB\nPss:                6500 kB\n"
  "Private_Clean:      2000 kB\nPrivate_Dirty:      4000 kB\n"
  "AnonHugePages:      2048 kB\nSwap:                 12 kB\n";

/* No THP line at all (a kernel built without THP prints none). */
static const char rollup_none[] =
  "10000000-107d0000 ---p 00000000 00:00 0 [rollup]\n"
  "Rss:                7900 kB\nPss:                6500 kB\n"
  "Private_Clean:      2000 kB\nPrivate_Dirty:      4000 kB\nSwap:                 12 kB\n";

static PgsSnapshot *
scan (PgsFixture   *fx,
      PgsScanFlags  flags)
{
  g_autoptr(PgsScanner) scanner = pgs_scanner_new ();
  g_autoptr(GError) error = NULL;
  PgsSnapshot *snapshot;

  pgs_scanner_set_procfs_root (scanner, pgs_fixture_get_root (fx));
  pgs_scanner_set_flags (scanner, flags);
  snapshot = pgs_scanner_scan (scanner, NULL, &error);
  g_assert_no_error (error);
  return snapshot;
}

static void
test_parse (void)
{
  PgsSmapsFields fields;
  g_autoptr(GError) error = NULL;

  g_assert_true (pgs_smaps_rollup_parse (rollup_all, strlen (rollup_all), &fields, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (fields.anon_huge, ==, 4096 * KB);
  g_assert_cmpuint (fields.shmem_pmd, ==, 2048 * KB);
  g_assert_cmpuint (fields.file_pmd, ==, 0);
  g_assert_true (fields.seen & PGS_SMAPS_SEEN_ANON_HUGE);
  g_assert_true (fields.seen & PGS_SMAPS_SEEN_FILE_PMD);
  /* The figures before are untouched by the new keys. */
  g_assert_cmpuint (fields.private_dirty, ==, 4000 * KB);
  g_assert_cmpuint (fields.swap, ==, 12 * KB);

  g_assert_true (pgs_smaps_rollup_parse (rollup_none, strlen (rollup_none), &fields, &error));
  g_assert_false (fields.seen & PGS_SMAPS_SEEN_ANON_HUGE);
}

/* Unprivileged: the rollup route. 100 all three lines, 200 AnonHugePages only, 300 none,
 * 400 no rollup (status only). */
static PgsFixture *
rollup_fixture (void)
{
  PgsFixture *fx = pgs_fixture_new ();

  pgs_fixture_set_unprivileged (fx, TRUE);
  for (int pid = 100; pid <= 400; pid += 100)
    {
      pgs_fixture_add_process (fx, pid, "alpha", 0, FALSE);
      pgs_fixture_add_mapping (fx, pid, BASE, BASE + 2000 * 4096, "rw-p", "[heap]");
    }
  pgs_fixture_commit (fx);
  pgs_fixture_write (fx, "100/smaps_rollup", rollup_all, -1);
  pgs_fixture_write (fx, "200/smaps_rollup", rollup_anon_only, -1);
  pgs_fixture_write (fx, "300/smaps_rollup", rollup_none, -1);
  return fx;
}

static void
test_rollup (void)
{
  g_autoptr(PgsFixture) fx = rollup_fixture ();
  g_autoptr(PgsSnapshot) snap = scan (fx, PGS_SCAN_METRICS);
  guint64 anon, shmem, file, total;
  PgsProcess *p;

  p = pgs_snapshot_lookup_pid (snap, 100);
  g_assert_true (pgs_process_get_thp (p, &anon, &shmem, &file));
  g_assert_cmpuint (anon, ==, 4096 * KB);
  g_assert_cmpuint (shmem, ==, 2048 * KB);
  g_assert_cmpuint (file, ==, 0);
  g_assert_true (pgs_process_get_thp_total (p, &total));
  g_assert_cmpuint (total, ==, 6144 * KB);
  g_assert_cmpuint (pgs_process_get_metric (p, PGS_METRIC_THP), ==, 6144 * KB);

  p = pgs_snapshot_lookup_pid (snap, 200);
  g_assert_true (pgs_process_get_thp_total (p, &total));
  g_assert_cmpuint (total, ==, 2048 * KB);

  p = pgs_snapshot_lookup_pid (snap, 300);
  g_assert_false (pgs_process_get_thp_total (p, &total));
  g_assert_false (pgs_process_is_known (p, PGS_METRIC_THP));
  p = pgs_snapshot_lookup_pid (snap, 400);
  g_assert_false (pgs_process_is_known (p, PGS_METRIC_THP));
}

static void
test_memrank_json (void)
{
  g_autoptr(PgsFixture) fx = rollup_fixture ();
  g_autofree char *out = NULL;
  g_autofree char *expect = NULL;

  g_assert_cmpint (pgs_test_run_cli (fx, &out, NULL, "memrank", "--json", NULL), ==, 0);
  expect = g_strdup_printf ("\"thp\":%" G_GUINT64_FORMAT ",\"clean\":", 6144 * KB);
  g_assert_nonnull (strstr (strstr (out, "{\"pid\":100,"), expect));
  expect = (g_free (expect), g_strdup_printf ("\"thp\":%" G_GUINT64_FORMAT ",\"clean\":", 2048 * KB));
  g_assert_nonnull (strstr (strstr (out, "{\"pid\":200,"), expect));
  g_assert_nonnull (strstr (strstr (out, "{\"pid\":300,"), "\"thp\":null,\"clean\":"));
  g_assert_nonnull (strstr (strstr (out, "{\"pid\":400,"), "\"thp\":null,\"clean\":"));
}

/* As root with the page walk: 600 anonymous pages, the first 512 in frames flagged
 * KPF_THP (one 2 MiB huge page at 4 KiB pages), the other 88 not; its rollup says
 * AnonHugePages 2048 kB. KPF_THP pages: 512 PS. A second process maps nothing THP: 0. */
static void
test_pages (void)
{
  g_autoptr(PgsFixture) fx = pgs_fixture_new ();
  g_autoptr(PgsSnapshot) snap = NULL;
  g_autoptr(PgsSnapshot) bare = NULL;
  g_autofree guint64 *a = g_new0 (guint64, 600);
  const guint64 b[] = { FX_PRESENT_EXCL (9000) };
  guint64 bytes = 1;

  pgs_fixture_add_process (fx, 100, "alpha", 0, FALSE);
  pgs_fixture_add_process (fx, 200, "beta", 0, FALSE);
  pgs_fixture_add_mapping (fx, 100, BASE, BASE + 600 * PS, "rw-p", "[heap]");
  pgs_fixture_add_mapping (fx, 200, BASE, BASE + PS, "rw-p", "[heap]");
  for (guint i = 0; i < 600; i++)
    {
      a[i] = FX_PRESENT_EXCL (4096 + i);
      pgs_fixture_set_frame (fx, 4096 + i, 1, KPF (ANON) | KPF (LRU) |
                             (i < 512 ? KPF (THP) | (i == 0 ? KPF (COMPOUND_HEAD)
                                                            : KPF (COMPOUND_TAIL)) : 0));
    }
  pgs_fixture_set_pages (fx, 100, BASE, a, 600);
  pgs_fixture_set_pages (fx, 200, BASE, b, 1);
  pgs_fixture_set_frame (fx, 9000, 1, KPF (ANON) | KPF (LRU));
  pgs_fixture_commit (fx);
  pgs_fixture_write (fx, "100/smaps_rollup", rollup_anon_only, -1);

  snap = scan (fx, PGS_SCAN_MAPPINGS | PGS_SCAN_PAGES | PGS_SCAN_PHYSMAP);
  g_assert_true (pgs_process_count_thp_pages (pgs_snapshot_lookup_pid (snap, 100),
                                              pgs_snapshot_get_physmap (snap), &bytes));
  g_assert_cmpuint (bytes, ==, 512 * PS);
  g_assert_true (pgs_process_count_thp_pages (pgs_snapshot_lookup_pid (snap, 200),
                                              pgs_snapshot_get_physmap (snap), &bytes));
  g_assert_cmpuint (bytes, ==, 0);
  /* The rollup's figure rides along on the page walk. */
  g_assert_true (pgs_process_get_thp_total (pgs_snapshot_lookup_pid (snap, 100), &bytes));
  g_assert_cmpuint (bytes, ==, 2048 * KB);

  /* Without pages or without the map: unknown. */
  bare = scan (fx, PGS_SCAN_MAPPINGS);
  g_assert_false (pgs_process_count_thp_pages (pgs_snapshot_lookup_pid (bare, 100),
                                               pgs_snapshot_get_physmap (snap), &bytes));
  g_assert_false (pgs_process_count_thp_pages (pgs_snapshot_lookup_pid (snap, 100), NULL,
                                               &bytes));
}

/* A snapshot file keeps no THP figure: after loading it is unknown (null), not 0. */
static void
test_file_has_no_thp (void)
{
  g_autoptr(PgsFixture) fx = rollup_fixture ();
  g_autoptr(PgsSnapshot) snap = scan (fx, PGS_SCAN_METRICS);
  g_autoptr(PgsSnapshot) loaded = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("pgs-thp-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "s.pgsnap", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  guint64 total = 1;

  g_assert_true (pgs_process_is_known (pgs_snapshot_lookup_pid (snap, 100), PGS_METRIC_THP));
  g_assert_true (pgs_snapshot_save (snap, file, NULL, &error));
  g_assert_no_error (error);
  loaded = pgs_snapshot_load (file, NULL, &error);
  g_assert_no_error (error);
  g_assert_false (pgs_process_get_thp_total (pgs_snapshot_lookup_pid (loaded, 100), &total));
  g_assert_cmpuint (total, ==, 0);
  g_unlink (path);
  g_rmdir (dir);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  PS = (guint64) sysconf (_SC_PAGESIZE);

  g_test_add_func ("/pgs/thp/parse", test_parse);
  g_test_add_func ("/pgs/thp/rollup", test_rollup);
  g_test_add_func ("/pgs/thp/memrank-json", test_memrank_json);
  g_test_add_func ("/pgs/thp/pages", test_pages);
  g_test_add_func ("/pgs/thp/file", test_file_has_no_thp);
  return g_test_run ();
}
