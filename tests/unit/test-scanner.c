/* test-scanner.c: the scanner on fixture trees with hand-worked numbers
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every expected figure below is worked out in the comment beside it from the layout the test
 * builds, with PS the page size (4096 on x86-64). Damaged, vanishing and unreadable input
 * is in test-scanner-input.c; the shared steps are in scanner-fixture.c.
 */

#include "config.h"

#include <unistd.h>

#include <pagescope.h>

#include "pgs-fixture.h"
#include "pgs-kpage.h"
#include "scanner-fixture.h"

static void
test_proposal_example (void)
{
  g_autoptr(PgsFixture) fx = pgs_fixture_new ();
  g_autoptr(PgsSnapshot) snap = NULL;
  PgsProcess *a, *b;
  guint unknown = 99;

  build_proposal (fx);
  snap = scan (fx, PGS_SCAN_METRICS, NULL, 0);

  g_assert_true (pgs_snapshot_is_privileged (snap));
  g_assert_cmpuint (pgs_snapshot_get_n_processes (snap), ==, 2);
  g_assert_cmpuint (pgs_snapshot_get_n_skipped (snap), ==, 0);

  a = pgs_snapshot_lookup_pid (snap, 100);
  b = pgs_snapshot_lookup_pid (snap, 200);
  g_assert_nonnull (a);
  g_assert_nonnull (b);
  g_assert_cmpuint (pgs_process_get_known (a), ==, PGS_METRIC_ALL);
  g_assert_cmpint (pgs_process_get_source (a), ==, PGS_SOURCE_PAGES);
  g_assert_cmpuint (pgs_process_get_vss (a), ==, 2000 * PS);
  g_assert_cmpuint (pgs_process_get_rss (a), ==, 2000 * PS);
  g_assert_cmpuint (pgs_process_get_pss (a), ==, 1500 * PS);
  g_assert_cmpuint (pgs_process_get_uss (a), ==, 1000 * PS);
  g_assert_cmpuint (pgs_process_get_swap (a), ==, 0);
  g_assert_cmpuint (pgs_process_get_rss (b), ==, 1000 * PS);
  g_assert_cmpuint (pgs_process_get_pss (b), ==, 500 * PS);
  g_assert_cmpuint (pgs_process_get_uss (b), ==, 0);

  /* PSS adds up to the physical memory used: 1000 private + 1000 shared frames. */
  g_assert_cmpuint (pgs_snapshot_get_total (snap, PGS_METRIC_PSS, &unknown), ==, 2000 * PS);
  g_assert_cmpuint (unknown, ==, 0);
  g_assert_cmpuint (pgs_snapshot_get_total (snap, PGS_METRIC_RSS, NULL), ==, 3000 * PS);
}

/* Three pages, each frame mapped by three processes: the kernel adds (PS << 12) / 3 =
 * 5592405 per page (PS 4096), 16777215 in all, and truncates once: 4095 bytes, not 4096,
 * and not the 3 KiB that integer KiB per page would give. */
static void
test_shared_by_three (void)
{
  g_autoptr(PgsFixture) fx = pgs_fixture_new ();
  g_autoptr(PgsSnapshot) snap = NULL;
  guint64 e[3] = { FX_PRESENT (70) | FX_FILE, FX_PRESENT (71) | FX_FILE, FX_PRESENT (72) | FX_FILE };
  guint64 per_page_fp = (PS << 12) / 3;
  PgsProcess *p;

  for (int pid = 301; pid <= 303; pid++)
    {
      pgs_fixture_add_process (fx, pid, "triplet", 0, FALSE);
      pgs_fixture_add_mapping (fx, pid, BASE, BASE + 3 * PS, "r-xp", "/usr/lib/libshared.so");
      pgs_fixture_set_pages (fx, pid, BASE, e, 3);
    }
  for (guint pfn = 70; pfn <= 72; pfn++)
    pgs_fixture_set_frame (fx, pfn, 3, KPF (LRU) | KPF (MMAP));
  pgs_fixture_commit (fx);

  snap = scan (fx, PGS_SCAN_METRICS, NULL, 0);
  p = pgs_snapshot_lookup_pid (snap, 301);
  g_assert_cmpuint (pgs_process_get_pss_fixed (p), ==, 3 * per_page_fp);
  g_assert_cmpuint (pgs_process_get_pss (p), ==, (3 * per_page_fp) >> 12);
  if (PS == 4096)
    {
      g_assert_cmpuint (per_page_fp, ==, 5592405);
      g_assert_cmpuint (pgs_process_get_pss (p), ==, 4095);
    }
  g_assert_cmpuint (pgs_process_get_uss (p), ==, 0);
  g_assert_cmpuint (pgs_process_get_rss (p), ==, 3 * PS);
  /* All three together: 3 * 16777215 fixed-point units, truncated once: 3 * PS - 1 bytes. */
  g_assert_cmpuint (pgs_snapshot_get_total (snap, PGS_METRIC_PSS, NULL), ==, (9 * per_page_fp) >> 12);
}

/* 4 present private pages, 5 swapped, 3 not present: RSS 4 PS, swap 5 PS, VSS 12 PS. */
static void
test_swapped_entries (void)
{
  g_autoptr(PgsFixture) fx = pgs_fixture_new ();
  g_autoptr(PgsSnapshot) snap = NULL;
  guint64 e[12] = { 0 };
  PgsProcess *p;
  PgsPageInfo info;

  for (guint i = 0; i < 4; i++)
    {
      e[i] = FX_PRESENT_EXCL (100 + i);
      pgs_fixture_set_frame (fx, 100 + i, 1, KPF (ANON) | KPF (SWAPBACKED));
    }
  for (guint i = 0; i < 5; i++)
    e[6 + i] = FX_SWAPPED (0, 4242 + i);
  pgs_fixture_add_process (fx, 400, "swapper", 0, FALSE);
  pgs_fixture_add_mapping (fx, 400, BASE, BASE + 12 * PS, "rw-p", NULL);
  pgs_fixture_set_pages (fx, 400, BASE, e, 12);
  pgs_fixture_commit (fx);

  snap = scan (fx, PGS_SCAN_PAGES, NULL, 0);
  p = pgs_snapshot_lookup_pid (snap, 400);
  g_assert_cmpuint (pgs_process_get_vss (p), ==, 12 * PS);
  g_assert_cmpuint (pgs_process_get_rss (p), ==, 4 * PS);
  g_assert_cmpuint (pgs_process_get_pss (p), ==, 4 * PS);
  g_assert_cmpuint (pgs_process_get_uss (p), ==, 4 * PS);
  g_assert_cmpuint (pgs_process_get_swap (p), ==, 5 * PS);

  /* Only the present and swapped runs are stored: 9 pages, not 12. */
  g_assert_cmpuint (pgs_process_get_n_pages (p), ==, 9);
  g_assert_true (pgs_process_lookup_page (p, BASE + 7 * PS + 100, &info));
  g_assert_cmphex (info.address, ==, BASE + 7 * PS);
  g_assert_cmphex (info.entry, ==, FX_SWAPPED (0, 4243));
  g_assert_true (pgs_process_lookup_page (p, BASE + 4 * PS, &info));
  g_assert_cmphex (info.entry, ==, 0);
  g_assert_true (pgs_process_lookup_page (p, BASE + 2 * PS, &info));
  g_assert_cmpuint (info.count, ==, 1);
  g_assert_false (pgs_process_lookup_page (p, BASE + 12 * PS, &info));
}

/* 10 pages reading the zero page (map count 0, ZERO_PAGE) and 2 real ones: the kernel leaves the
 * zero page out of Rss, so RSS is 2 PS. A PFN mapping (count 0, no folio) is left out too. A
 * page of a large folio whose averaged count reads 0 is still counted. */
static void
test_zero_page (void)
{
  g_autoptr(PgsFixture) fx = pgs_fixture_new ();
  g_autoptr(PgsSnapshot) snap = NULL;
  guint64 e[14];
  PgsProcess *p;

  for (guint i = 0; i < 10; i++)
    e[i] = FX_PRESENT (9);                         /* frame 9: the zero page */
  e[10] = FX_PRESENT_EXCL (20);
  e[11] = FX_PRESENT_EXCL (21);
  e[12] = FX_PRESENT (30);                         /* a PFN mapping */
  e[13] = FX_PRESENT_EXCL (40);                    /* tail of a folio, averaged count 0 */
  pgs_fixture_set_frame (fx, 9, 0, KPF (ZERO_PAGE) | KPF (RESERVED));
  pgs_fixture_set_frame (fx, 20, 1, KPF (ANON));
  pgs_fixture_set_frame (fx, 21, 1, KPF (ANON));
  pgs_fixture_set_frame (fx, 30, 0, KPF (RESERVED));
  pgs_fixture_set_frame (fx, 40, 0, KPF (ANON) | KPF (COMPOUND_TAIL));
  pgs_fixture_add_process (fx, 500, "zeroes", 0, FALSE);
  pgs_fixture_add_mapping (fx, 500, BASE, BASE + 14 * PS, "r--p", NULL);
  pgs_fixture_set_pages (fx, 500, BASE, e, 14);
  pgs_fixture_commit (fx);

  snap = scan (fx, PGS_SCAN_METRICS, NULL, 0);
  p = pgs_snapshot_lookup_pid (snap, 500);
  g_assert_cmpuint (pgs_process_get_rss (p), ==, 3 * PS);
  g_assert_cmpuint (pgs_process_get_pss (p), ==, 3 * PS);
  g_assert_cmpuint (pgs_process_get_uss (p), ==, 3 * PS);
}

/* A 2 MiB THP (512 frames from 1024, head + 511 tails, THP on all) mapped privately, and the
 * same-sized THP shared with a forked child (count 2): RSS 1024 PS, PSS 512 + 256 = 768 PS,
 * USS 512 PS. A hugetlb page (HUGE) is in neither Rss nor Pss. */
static void
test_thp_and_hugetlb (void)
{
  g_autoptr(PgsFixture) fx = pgs_fixture_new ();
  g_autoptr(PgsSnapshot) snap = NULL;
  g_autofree guint64 *e = entries_new (1536);
  g_autofree guint64 *child = entries_new (512);
  PgsProcess *p, *c;

  for (guint i = 0; i < 512; i++)
    {
      guint64 head_or_tail = i == 0 ? KPF (COMPOUND_HEAD) : KPF (COMPOUND_TAIL);

      e[i] = FX_PRESENT_EXCL (1024 + i);
      pgs_fixture_set_frame (fx, 1024 + i, 1, KPF (ANON) | KPF (THP) | head_or_tail);
      e[512 + i] = FX_PRESENT (2048 + i);
      child[i] = FX_PRESENT (2048 + i);
      pgs_fixture_set_frame (fx, 2048 + i, 2, KPF (ANON) | KPF (THP) | head_or_tail);
      e[1024 + i] = FX_PRESENT_EXCL (4096 + i);
      pgs_fixture_set_frame (fx, 4096 + i, 1, KPF (HUGE) | head_or_tail);
    }
  pgs_fixture_add_process (fx, 600, "thp", 0, FALSE);
  pgs_fixture_add_mapping (fx, 600, BASE, BASE + 1024 * PS, "rw-p", NULL);
  pgs_fixture_add_mapping (fx, 600, BASE + 1024 * PS, BASE + 1536 * PS, "rw-s", "/anon_hugepage (deleted)");
  pgs_fixture_set_pages (fx, 600, BASE, e, 1536);
  pgs_fixture_add_process (fx, 601, "thp-child", 0, FALSE);
  pgs_fixture_add_mapping (fx, 601, BASE + 512 * PS, BASE + 1024 * PS, "rw-p", NULL);
  pgs_fixture_set_pages (fx, 601, BASE + 512 * PS, child, 512);
  pgs_fixture_commit (fx);

  snap = scan (fx, PGS_SCAN_MAPPINGS, NULL, 0);
  p = pgs_snapshot_lookup_pid (snap, 600);
  c = pgs_snapshot_lookup_pid (snap, 601);
  g_assert_cmpuint (pgs_process_get_rss (p), ==, 1024 * PS);
  g_assert_cmpuint (pgs_process_get_pss (p), ==, 768 * PS);
  g_assert_cmpuint (pgs_process_get_uss (p), ==, 512 * PS);
  g_assert_cmpuint (pgs_process_get_pss (c), ==, 256 * PS);

  /* Per mapping: the hugetlb mapping has VSS 2 MiB and nothing in Rss. */
  {
    GListModel *maps = pgs_process_get_mappings (p);
    g_autoptr(PgsMapping) huge = g_list_model_get_item (maps, 1);

    g_assert_cmpuint (g_list_model_get_n_items (maps), ==, 2);
    g_assert_cmpstr (pgs_mapping_get_path (huge), ==, "/anon_hugepage (deleted)");
    g_assert_cmpuint (pgs_mapping_get_vss (huge), ==, 512 * PS);
    g_assert_cmpuint (pgs_mapping_get_rss (huge), ==, 0);
    g_assert_true (pgs_mapping_is_known (huge, PGS_METRIC_PSS));
  }
}

/* Frame numbers far above any RAM (device memory in a PFN mapping or a GPU BAR; or a damaged
 * pagemap): the frame tables are sized by the frames present, never by the highest number,
 * and a frame kpagecount does not cover has no count, so it is not in Rss (as the kernel
 * leaves PFN mappings out). One process, 5 pages:
 *   PFN 20, exclusive            → RSS 1 PS, PSS 1 PS, USS 1 PS
 *   PFN 21, count 2              → RSS 1 PS, PSS PS/2
 *   PFN 2^36, 2^40, 2^55 - 1     → beyond kpagecount (22 frames): unknown, not counted
 * RSS 2 PS, PSS 1.5 PS, USS 1 PS. Before the sparse tables: a 256 GiB allocation (2^36),
 * a hang (2^40), a wrapped bitmap length and a write out of bounds (2^55 - 1). */
static void
test_huge_pfn (void)
{
  g_autoptr(PgsFixture) fx = pgs_fixture_new ();
  guint64 e[5] = {
    FX_PRESENT (G_GUINT64_CONSTANT (1) << 36),
    FX_PRESENT_EXCL (20),
    FX_PRESENT (21),
    FX_PRESENT (G_GUINT64_CONSTANT (1) << 40),
    FX_PRESENT ((G_GUINT64_CONSTANT (1) << 55) - 1),
  };
  PgsScanFlags variants[2] = { PGS_SCAN_METRICS, PGS_SCAN_METRICS | PGS_SCAN_PAGES };

  pgs_fixture_add_process (fx, 810, "bar", 0, FALSE);
  pgs_fixture_add_mapping (fx, 810, BASE, BASE + 5 * PS, "rw-s", "/dev/dri/card0");
  pgs_fixture_set_pages (fx, 810, BASE, e, 5);
  pgs_fixture_set_frame (fx, 20, 1, KPF (ANON));
  pgs_fixture_set_frame (fx, 21, 2, KPF (LRU));
  pgs_fixture_commit (fx);

  for (guint v = 0; v < G_N_ELEMENTS (variants); v++)
    {
      g_autoptr(PgsSnapshot) snap = scan (fx, variants[v], NULL, 0);
      PgsProcess *p = pgs_snapshot_lookup_pid (snap, 810);
      PgsPageInfo info;

      g_assert_nonnull (p);
      g_assert_cmpuint (pgs_snapshot_get_n_skipped (snap), ==, 0);
      g_assert_cmpuint (pgs_process_get_rss (p), ==, 2 * PS);
      g_assert_cmpuint (pgs_process_get_pss_fixed (p), ==, (PS << 12) + (PS << 12) / 2);
      g_assert_cmpuint (pgs_process_get_uss (p), ==, PS);
      if (variants[v] & PGS_SCAN_PAGES)
        {
          g_assert_true (pgs_process_lookup_page (p, BASE, &info));
          g_assert_cmpuint (info.count, ==, G_MAXUINT32);  /* PGS_COUNT_UNKNOWN */
          g_assert_true (pgs_process_lookup_page (p, BASE + 2 * PS, &info));
          g_assert_cmpuint (info.count, ==, 2);
          g_assert_true (pgs_process_lookup_page (p, BASE + 4 * PS, &info));
          g_assert_cmpuint (info.count, ==, G_MAXUINT32);  /* PGS_COUNT_UNKNOWN */
        }
    }
}

/* A filter reads no more of the others than its test: processes it leaves out are neither
 * listed nor skipped, even with damaged maps (700, 706, never read). The name is tested on
 * comm where there is one (700's says "badmaps"), else on status's Name. */
static void
test_filter (void)
{
  g_autoptr(PgsFixture) fx = pgs_fixture_new ();
  const char *alpha[] = { "lph", NULL };
  const char *none[] = { "nosuchname", NULL };
  const char *maps[] = { "maps", NULL };

  build_proposal (fx);
  pgs_fixture_add_process (fx, 700, "badmaps", 0, FALSE);
  pgs_fixture_write (fx, "700/maps", "10001000-10002000 r--p zzzz 00:00 0\n", -1);
  pgs_fixture_write (fx, "700/comm", "badmaps\n", -1);
  pgs_fixture_add_process (fx, 706, "alphabet", 1234, FALSE);
  pgs_fixture_write (fx, "706/maps",
                     "10000000-10002000 r--p 00000000 00:00 0\n"
                     "10001000-10003000 r--p 00000000 00:00 0\n", -1);
  pgs_fixture_commit (fx);

  for (guint round = 0; round < 4; round++)
    {
      g_autoptr(PgsScanner) scanner = pgs_scanner_new ();
      g_autoptr(PgsSnapshot) snap = NULL;
      g_autoptr(GError) error = NULL;

      pgs_scanner_set_procfs_root (scanner, pgs_fixture_get_root (fx));
      switch (round)
        {
        case 0: pgs_scanner_set_filter (scanner, alpha, 0); break;
        case 1: pgs_scanner_set_filter (scanner, none, -1); break;
        case 2: pgs_scanner_set_filter (scanner, maps, -1); break;
        default: pgs_scanner_set_filter (scanner, NULL, 0); break;
        }
      snap = pgs_scanner_scan (scanner, NULL, &error);
      g_assert_no_error (error);
      switch (round)
        {
        case 0:   /* alpha (uid 0); alphabet is uid 1234 */
          g_assert_cmpuint (pgs_snapshot_get_n_processes (snap), ==, 1);
          g_assert_cmpuint (pgs_process_get_pss (pgs_snapshot_lookup_pid (snap, 100)), ==, 1500 * PS);
          g_assert_cmpuint (pgs_snapshot_get_n_skipped (snap), ==, 0);
          break;
        case 1:
          g_assert_cmpuint (pgs_snapshot_get_n_processes (snap), ==, 0);
          g_assert_cmpuint (pgs_snapshot_get_n_skipped (snap), ==, 0);
          break;
        case 2:   /* badmaps passes and is read: its maps is damaged */
          g_assert_cmpuint (pgs_snapshot_get_n_processes (snap), ==, 0);
          g_assert_cmpuint (pgs_snapshot_get_n_skipped (snap), ==, 1);
          g_assert_error (pgs_snapshot_get_skipped (snap, 0)->error, PGS_ERROR, PGS_ERROR_MALFORMED);
          break;
        default:  /* uid 0: alpha, beta and badmaps, not alphabet */
          g_assert_cmpuint (pgs_snapshot_get_n_processes (snap), ==, 2);
          g_assert_cmpuint (pgs_snapshot_get_n_skipped (snap), ==, 1);
          g_assert_null (pgs_snapshot_lookup_pid (snap, 706));
          break;
        }
    }
}

static void
test_explicit_pids (void)
{
  g_autoptr(PgsFixture) fx = pgs_fixture_new ();
  g_autoptr(PgsSnapshot) snap = NULL;
  const int pids[] = { 200, 999, 704 };
  const PgsSkipped *s;

  build_proposal (fx);
  pgs_fixture_add_process (fx, 704, "kworker/0:1", 0, TRUE);

  snap = scan (fx, PGS_SCAN_MAPPINGS, pids, G_N_ELEMENTS (pids));
  g_assert_cmpuint (pgs_snapshot_get_n_processes (snap), ==, 1);
  g_assert_cmpuint (pgs_process_get_pss (pgs_snapshot_lookup_pid (snap, 200)), ==, 500 * PS);
  s = find_skipped (snap, 999);
  g_assert_error (s->error, PGS_ERROR, PGS_ERROR_NO_SUCH_PROCESS);
  s = find_skipped (snap, 704);
  g_assert_error (s->error, PGS_ERROR, PGS_ERROR_KERNEL_THREAD);
}

/* memstats-style per-mapping numbers: A's [heap]-like mapping holds 1000 private and 1000
 * shared pages. */
static void
test_mappings (void)
{
  g_autoptr(PgsFixture) fx = pgs_fixture_new ();
  g_autoptr(PgsSnapshot) snap = NULL;
  g_autoptr(PgsMapping) m = NULL;
  GListModel *maps;

  build_proposal (fx);
  snap = scan (fx, PGS_SCAN_MAPPINGS, NULL, 0);
  maps = pgs_process_get_mappings (pgs_snapshot_lookup_pid (snap, 100));
  g_assert_cmpuint (g_list_model_get_n_items (maps), ==, 1);
  g_assert_true (g_list_model_get_item_type (maps) == PGS_TYPE_MAPPING);
  m = g_list_model_get_item (maps, 0);
  g_assert_cmphex (pgs_mapping_get_start (m), ==, BASE);
  g_assert_cmphex (pgs_mapping_get_end (m), ==, BASE + 2000 * PS);
  g_assert_cmpstr (pgs_mapping_get_perms (m), ==, "rw-p");
  g_assert_cmpstr (pgs_mapping_get_label (m), ==, "[heap]");
  g_assert_cmpuint (pgs_mapping_get_pss (m), ==, 1500 * PS);
  g_assert_cmpuint (pgs_mapping_get_uss (m), ==, 1000 * PS);
}

static void
on_progress (PgsScanner *scanner,
             double      fraction,
             double     *last)
{
  g_assert_cmpfloat (fraction, >=, *last);
  g_assert_cmpfloat (fraction, <=, 1.0);
  *last = fraction;
}

static void
on_scanned (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  PgsSnapshot **out = user_data;
  g_autoptr(GError) error = NULL;

  *out = pgs_scanner_scan_finish (PGS_SCANNER (object), result, &error);
  g_assert_no_error (error);
}

static void
test_async (void)
{
  g_autoptr(PgsFixture) fx = pgs_fixture_new ();
  g_autoptr(PgsScanner) scanner = pgs_scanner_new ();
  g_autoptr(PgsSnapshot) snap = NULL;
  double last = 0;

  build_proposal (fx);
  pgs_scanner_set_procfs_root (scanner, pgs_fixture_get_root (fx));
  g_signal_connect (scanner, "progress", G_CALLBACK (on_progress), &last);
  pgs_scanner_scan_async (scanner, NULL, on_scanned, &snap);
  while (snap == NULL)
    g_main_context_iteration (NULL, TRUE);
  /* Drain the coalesced progress idle. */
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_assert_cmpfloat (last, ==, 1.0);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (snap)), ==, 2);
  g_assert_cmpuint (pgs_process_get_pss (pgs_snapshot_lookup_pid (snap, 100)), ==, 1500 * PS);
}

static void
test_cancelled (void)
{
  g_autoptr(PgsFixture) fx = pgs_fixture_new ();
  g_autoptr(PgsScanner) scanner = pgs_scanner_new ();
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(PgsSnapshot) snap = NULL;

  build_proposal (fx);
  pgs_scanner_set_procfs_root (scanner, pgs_fixture_get_root (fx));
  g_cancellable_cancel (cancellable);
  snap = pgs_scanner_scan (scanner, cancellable, &error);
  g_assert_null (snap);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  PS = (guint64) sysconf (_SC_PAGESIZE);

  g_test_add_func ("/pgs/scanner/proposal-example", test_proposal_example);
  g_test_add_func ("/pgs/scanner/filter", test_filter);
  g_test_add_func ("/pgs/scanner/shared-by-three", test_shared_by_three);
  g_test_add_func ("/pgs/scanner/swapped-entries", test_swapped_entries);
  g_test_add_func ("/pgs/scanner/zero-page", test_zero_page);
  g_test_add_func ("/pgs/scanner/thp-and-hugetlb", test_thp_and_hugetlb);
  g_test_add_func ("/pgs/scanner/explicit-pids", test_explicit_pids);
  g_test_add_func ("/pgs/scanner/huge-pfn", test_huge_pfn);
  g_test_add_func ("/pgs/scanner/mappings", test_mappings);
  g_test_add_func ("/pgs/scanner/async", test_async);
  g_test_add_func ("/pgs/scanner/cancelled", test_cancelled);

  return g_test_run ();
}
