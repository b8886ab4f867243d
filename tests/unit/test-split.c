/* test-split.c: clean/dirty and shared/private per process, and when a process started
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The split comes from the kernel's smaps_rollup on every route (its own figures, the page
 * walk, totals alone); where there is no rollup to read, or it lacks the Shared_* lines, the
 * split is unknown, never 0. Every expected figure is worked out beside it, PS being the
 * page size.
 */

#include "config.h"

#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include <pagescope.h>

#include "pgs-fixture.h"
#include "pgs-kpage.h"
#include "pgs-parse.h"
#include "pgs-test-json.h"

#define KPF(f) PGS_KPF_BIT (PGS_KPF_##f)
#define BASE   G_GUINT64_CONSTANT (0x10000000)
#define KB     G_GUINT64_CONSTANT (1024)

static guint64 PS;

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
  g_assert_nonnull (snapshot);
  return snapshot;
}

static void
assert_split (PgsProcess *p,
              guint64     clean,
              guint64     dirty,
              guint64     shared,
              guint64     private)
{
  g_assert_true (pgs_process_is_known (p, PGS_METRIC_SPLIT));
  g_assert_cmpuint (pgs_process_get_metric (p, PGS_METRIC_CLEAN), ==, clean);
  g_assert_cmpuint (pgs_process_get_metric (p, PGS_METRIC_DIRTY), ==, dirty);
  g_assert_cmpuint (pgs_process_get_metric (p, PGS_METRIC_SHARED), ==, shared);
  g_assert_cmpuint (pgs_process_get_metric (p, PGS_METRIC_PRIVATE), ==, private);
}

static void
assert_no_split (PgsProcess *p)
{
  g_assert_false (pgs_process_is_known (p, PGS_METRIC_CLEAN));
  g_assert_false (pgs_process_is_known (p, PGS_METRIC_DIRTY));
  g_assert_false (pgs_process_is_known (p, PGS_METRIC_SHARED));
  g_assert_false (pgs_process_is_known (p, PGS_METRIC_PRIVATE));
}

/* Rss 7900 kB = Shared_Clean 1200 + Shared_Dirty 700 + Private_Clean 2000 + Private_Dirty
 * 4000. Clean 1200 + 2000 = 3200 kB, dirty 700 + 4000 = 4700 kB, shared 1200 + 700 =
 * 1900 kB, private 2000 + 4000 = 6000 kB (also the USS). */
static const char rollup_full[] =
  "10000000-107d0000 ---p 00000000 00:00 0 [rollup]\n"
  "Rss:                7900 kB\nPss:                6500 kB\n"
  "Shared_Clean:       1200 kB\nShared_Dirty:        700 kB\n"
  "Private_Clean:      2000 kB\nPrivate_Dirty:      4000 kB\n"
  "Swap:                 12 kB\n";

/* As before 4.14 wrote it, or as a filter cut it: no Shared_* lines. */
static const char rollup_no_shared[] =
  "10000000-107d0000 ---p 00000000 00:00 0 [rollup]\n"
  "Rss:                7900 kB\nPss:                6000 kB\n"
  "Private_Clean:         0 kB\nPrivate_Dirty:      4000 kB\n"
  "Swap:                 12 kB\n";

static void
test_parse_shared (void)
{
  PgsSmapsFields fields;
  g_autoptr(GError) error = NULL;

  g_assert_true (pgs_smaps_rollup_parse (rollup_full, strlen (rollup_full), &fields, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (fields.shared_clean, ==, 1200 * KB);
  g_assert_cmpuint (fields.shared_dirty, ==, 700 * KB);
  g_assert_cmpuint (fields.private_clean, ==, 2000 * KB);
  g_assert_cmpuint (fields.private_dirty, ==, 4000 * KB);
  g_assert_cmpuint (fields.seen & PGS_SMAPS_SEEN_SHARED, ==, PGS_SMAPS_SEEN_SHARED);

  g_assert_true (pgs_smaps_rollup_parse (rollup_no_shared, strlen (rollup_no_shared), &fields,
                                         &error));
  g_assert_cmpuint (fields.seen & PGS_SMAPS_SEEN_SHARED, ==, 0);
}

/* Without kpagecount: PSS and USS from the rollup, and the split with them. */
static void
test_rollup_route (void)
{
  g_autoptr(PgsFixture) fx = pgs_fixture_new ();
  g_autoptr(PgsSnapshot) snap = NULL;
  PgsProcess *p;

  pgs_fixture_set_unprivileged (fx, TRUE);
  pgs_fixture_add_process (fx, 100, "alpha", 0, FALSE);
  pgs_fixture_add_mapping (fx, 100, BASE, BASE + 2000 * 4096, "rw-p", "[heap]");
  pgs_fixture_add_process (fx, 200, "beta", 0, FALSE);
  pgs_fixture_add_mapping (fx, 200, BASE, BASE + 2000 * 4096, "rw-p", "[heap]");
  pgs_fixture_add_process (fx, 300, "gamma", 0, FALSE);
  pgs_fixture_add_mapping (fx, 300, BASE, BASE + 2000 * 4096, "rw-p", "[heap]");
  pgs_fixture_commit (fx);
  pgs_fixture_write (fx, "100/smaps_rollup", rollup_full, -1);
  pgs_fixture_write (fx, "300/smaps_rollup", rollup_no_shared, -1);
  /* 200 has no smaps_rollup: status only. */

  snap = scan (fx, PGS_SCAN_METRICS);
  p = pgs_snapshot_lookup_pid (snap, 100);
  g_assert_cmpint (pgs_process_get_source (p), ==, PGS_SOURCE_KERNEL);
  assert_split (p, 3200 * KB, 4700 * KB, 1900 * KB, 6000 * KB);
  g_assert_cmpuint (pgs_process_get_uss (p), ==, 6000 * KB);
  /* The split's halves each add up to the RSS. */
  g_assert_cmpuint (pgs_process_get_rss (p), ==, 7900 * KB);

  /* memrank --json: the same figures, and null for the unknown, never 0. */
  {
    g_autoptr(GString) json = g_string_new (NULL);

    pgs_report_process_json (json, p, FALSE);
    pgs_test_assert_json (json->str);
    g_assert_nonnull (strstr (json->str, "\"clean\":3276800,\"dirty\":4812800,"
                                         "\"shared\":1945600,\"private\":6144000}"));
  }

  p = pgs_snapshot_lookup_pid (snap, 200);
  g_assert_cmpint (pgs_process_get_source (p), ==, PGS_SOURCE_STATUS);
  assert_no_split (p);
  {
    g_autoptr(GString) json = g_string_new (NULL);

    pgs_report_process_json (json, p, FALSE);
    pgs_test_assert_json (json->str);
    g_assert_nonnull (strstr (json->str, "\"clean\":null,\"dirty\":null,"
                                         "\"shared\":null,\"private\":null}"));
  }

  p = pgs_snapshot_lookup_pid (snap, 300);
  g_assert_cmpint (pgs_process_get_source (p), ==, PGS_SOURCE_KERNEL);
  g_assert_true (pgs_process_is_known (p, PGS_METRIC_USS));
  assert_no_split (p);
}

/* Totals alone (PGS_SCAN_KERNEL_TOTALS): the rollup is all that is read, split included. */
static void
test_totals_route (void)
{
  g_autoptr(PgsFixture) fx = pgs_fixture_new ();
  g_autoptr(PgsSnapshot) snap = NULL;
  PgsProcess *p;

  pgs_fixture_add_process (fx, 100, "alpha", 0, FALSE);
  pgs_fixture_add_mapping (fx, 100, BASE, BASE + 2000 * 4096, "rw-p", "[heap]");
  pgs_fixture_commit (fx);
  pgs_fixture_write (fx, "100/smaps_rollup", rollup_full, -1);

  snap = scan (fx, PGS_SCAN_KERNEL_TOTALS);
  p = pgs_snapshot_lookup_pid (snap, 100);
  g_assert_cmpint (pgs_process_get_source (p), ==, PGS_SOURCE_KERNEL);
  assert_split (p, 3200 * KB, 4700 * KB, 1900 * KB, 6000 * KB);
}

/* As root with the page walk: A has 1000 private anonymous (dirty) pages and 1000 file
 * pages shared with B (clean). Its rollup says so in kB: Shared_Clean = Private_Dirty =
 * 1000 PS. The walk gives the PSS and USS; the split still comes from the rollup. B has
 * no rollup: its PSS is known from the walk, its split is not. */
static void
test_pages_route (void)
{
  g_autoptr(PgsFixture) fx = pgs_fixture_new ();
  g_autoptr(PgsSnapshot) snap = NULL;
  g_autofree guint64 *a = g_new0 (guint64, 2000);
  g_autofree guint64 *b = g_new0 (guint64, 1000);
  g_autofree char *rollup = NULL;
  guint64 k = 1000 * PS / 1024;
  PgsProcess *p;

  pgs_fixture_add_process (fx, 100, "alpha", 0, FALSE);
  pgs_fixture_add_process (fx, 200, "beta", 0, FALSE);
  pgs_fixture_add_mapping (fx, 100, BASE, BASE + 2000 * PS, "rw-p", "[heap]");
  pgs_fixture_add_mapping (fx, 200, BASE, BASE + 1000 * PS, "r--s", "/dev/shm/shared");
  for (guint i = 0; i < 1000; i++)
    {
      a[i] = FX_PRESENT_EXCL (1000 + i);
      pgs_fixture_set_frame (fx, 1000 + i, 1, KPF (ANON) | KPF (LRU));
      a[1000 + i] = FX_PRESENT (5000 + i) | FX_FILE;
      b[i] = FX_PRESENT (5000 + i) | FX_FILE;
      pgs_fixture_set_frame (fx, 5000 + i, 2, KPF (LRU) | KPF (UPTODATE));
    }
  pgs_fixture_set_pages (fx, 100, BASE, a, 2000);
  pgs_fixture_set_pages (fx, 200, BASE, b, 1000);
  pgs_fixture_commit (fx);
  rollup = g_strdup_printf ("10000000-107d0000 ---p 00000000 00:00 0 [rollup]\n"
                            "Rss: %" G_GUINT64_FORMAT " kB\nPss: %" G_GUINT64_FORMAT " kB\n"
                            "Shared_Clean: %" G_GUINT64_FORMAT " kB\nShared_Dirty: 0 kB\n"
                            "Private_Clean: 0 kB\nPrivate_Dirty: %" G_GUINT64_FORMAT " kB\n"
                            "Swap: 0 kB\n", 2 * k, k + k / 2, k, k);
  pgs_fixture_write (fx, "100/smaps_rollup", rollup, -1);

  snap = scan (fx, PGS_SCAN_PAGES);
  g_assert_true (pgs_snapshot_is_privileged (snap));
  p = pgs_snapshot_lookup_pid (snap, 100);
  g_assert_cmpint (pgs_process_get_source (p), ==, PGS_SOURCE_PAGES);
  g_assert_cmpuint (pgs_process_get_uss (p), ==, 1000 * PS);
  assert_split (p, 1000 * PS, 1000 * PS, 1000 * PS, 1000 * PS);

  p = pgs_snapshot_lookup_pid (snap, 200);
  g_assert_cmpint (pgs_process_get_source (p), ==, PGS_SOURCE_PAGES);
  g_assert_cmpuint (pgs_process_get_pss (p), ==, 500 * PS);
  assert_no_split (p);
}

/* A snapshot file keeps no split: after loading it is unknown, not 0. */
static void
test_file_has_no_split (void)
{
  g_autoptr(PgsFixture) fx = pgs_fixture_new ();
  g_autoptr(PgsSnapshot) snap = NULL;
  g_autoptr(PgsSnapshot) loaded = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("pgs-split-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "s.pgsnap", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  PgsProcess *p;

  pgs_fixture_set_unprivileged (fx, TRUE);
  pgs_fixture_add_process (fx, 100, "alpha", 0, FALSE);
  pgs_fixture_add_mapping (fx, 100, BASE, BASE + 2000 * 4096, "rw-p", "[heap]");
  pgs_fixture_commit (fx);
  pgs_fixture_write (fx, "100/smaps_rollup", rollup_full, -1);
  snap = scan (fx, PGS_SCAN_METRICS);
  g_assert_true (pgs_process_is_known (pgs_snapshot_lookup_pid (snap, 100), PGS_METRIC_SPLIT));

  g_assert_true (pgs_snapshot_save (snap, file, NULL, &error));
  g_assert_no_error (error);
  loaded = pgs_snapshot_load (file, NULL, &error);
  g_assert_no_error (error);
  p = pgs_snapshot_lookup_pid (loaded, 100);
  g_assert_cmpuint (pgs_process_get_uss (p), ==, 6000 * KB);
  assert_no_split (p);
  g_unlink (path);
  g_rmdir (dir);
}

static void
test_btime (void)
{
  static const char good[] = "cpu  1 2 3 4\nintr 5 6\nbtime 1764800000\nprocesses 77\n";
  g_autoptr(GError) error = NULL;
  gint64 btime = 0;

  g_assert_true (pgs_stat_btime_parse (good, strlen (good), &btime, &error));
  g_assert_no_error (error);
  g_assert_cmpint (btime, ==, 1764800000);

  g_assert_false (pgs_stat_btime_parse ("cpu 1 2\n", 8, &btime, &error));
  g_assert_error (error, PGS_ERROR, PGS_ERROR_MALFORMED);
  g_clear_error (&error);
  g_assert_false (pgs_stat_btime_parse ("btime 17x\n", 10, &btime, &error));
  g_assert_error (error, PGS_ERROR, PGS_ERROR_MALFORMED);
  g_clear_error (&error);
  /* Cut short in the middle of the line: not a boot time. */
  g_assert_false (pgs_stat_btime_parse ("btime 176", 9, &btime, &error));
  g_clear_error (&error);
}

/* Started = boot time + field 22 / ticks per second, whole seconds: 150.5 s after a boot at
 * 1764800000 is 1764800150. A process without a readable stat has no start time. */
static void
test_started (void)
{
  g_autoptr(PgsFixture) fx = pgs_fixture_new ();
  g_autoptr(PgsSnapshot) snap = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *stat = NULL;
  long ticks = sysconf (_SC_CLK_TCK);
  gint64 boot, started = -1;

  pgs_fixture_add_process (fx, 100, "alpha", 0, FALSE);
  pgs_fixture_add_mapping (fx, 100, BASE, BASE + 4 * PS, "rw-p", "[heap]");
  pgs_fixture_add_process (fx, 200, "beta", 0, FALSE);
  pgs_fixture_add_mapping (fx, 200, BASE, BASE + 4 * PS, "rw-p", "[heap]");
  pgs_fixture_commit (fx);
  stat = g_strdup_printf ("100 (al pha) S 1 100 100 0 -1 4194560 0 0 0 0 0 0 0 0 20 0 1 0 "
                          "%ld 0 0\n", 150 * ticks + ticks / 2);
  pgs_fixture_write (fx, "100/stat", stat, -1);
  pgs_fixture_write (fx, "stat", "cpu  1 2 3\nbtime 1764800000\n", -1);

  boot = pgs_read_boot_time (pgs_fixture_get_root (fx), &error);
  g_assert_no_error (error);
  g_assert_cmpint (boot, ==, 1764800000);

  snap = scan (fx, PGS_SCAN_METRICS);
  g_assert_true (pgs_process_get_started (pgs_snapshot_lookup_pid (snap, 100), boot, &started));
  g_assert_cmpint (started, ==, 1764800150);
  g_assert_false (pgs_process_get_started (pgs_snapshot_lookup_pid (snap, 200), boot, &started));
  g_assert_false (pgs_process_get_started (pgs_snapshot_lookup_pid (snap, 100), 0, &started));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  PS = sysconf (_SC_PAGESIZE);

  g_test_add_func ("/pgs/split/parse", test_parse_shared);
  g_test_add_func ("/pgs/split/rollup-route", test_rollup_route);
  g_test_add_func ("/pgs/split/totals-route", test_totals_route);
  g_test_add_func ("/pgs/split/pages-route", test_pages_route);
  g_test_add_func ("/pgs/split/file", test_file_has_no_split);
  g_test_add_func ("/pgs/split/btime", test_btime);
  g_test_add_func ("/pgs/split/started", test_started);
  return g_test_run ();
}
