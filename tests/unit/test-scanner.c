/* test-scanner.c: the scanner on fixture trees with hand-worked numbers
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every expected figure below is worked out in the comment beside it from the layout the test
 * builds, with PS the page size (4096 on x86-64).
 */

#include "config.h"

#include <errno.h>
#include <pwd.h>
#include <string.h>
#include <glib/gstdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include <pagescope.h>

#include "pgs-fixture.h"
#include "pgs-kpage.h"

#define KPF(f) PGS_KPF_BIT (PGS_KPF_##f)
#define BASE   G_GUINT64_CONSTANT (0x10000000)

static guint64 PS;

static PgsSnapshot *
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

static guint64 *
entries_new (gsize n)
{
  return g_new0 (guint64, n);
}

/* The proposal's example: A has 1000 private pages and 1000 pages shared with B.
 *   A: RSS 2000 PS, PSS 1000 + 1000/2 = 1500 PS, USS 1000 PS
 *   B: RSS 1000 PS, PSS 500 PS, USS 0 */
static void
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

static const PgsSkipped *
find_skipped (PgsSnapshot *snap,
              int          pid)
{
  for (guint i = 0; i < pgs_snapshot_get_n_skipped (snap); i++)
    if (pgs_snapshot_get_skipped (snap, i)->pid == pid)
      return pgs_snapshot_get_skipped (snap, i);
  return NULL;
}

/* Bad input: each bad process is skipped with the right error; the rest still comes out with
 * the right numbers. */
static void
test_malformed_and_truncated (void)
{
  g_autoptr(PgsFixture) fx = pgs_fixture_new ();
  g_autoptr(PgsSnapshot) snap = NULL;
  const PgsSkipped *s;
  guint64 e[4] = { FX_PRESENT_EXCL (11), FX_PRESENT_EXCL (12), FX_PRESENT_EXCL (13), FX_PRESENT_EXCL (14) };

  build_proposal (fx);

  /* 700: a malformed maps line in the middle. */
  pgs_fixture_add_process (fx, 700, "badmaps", 0, FALSE);
  pgs_fixture_write (fx, "700/maps",
                     "10000000-10001000 r--p 00000000 00:00 0\n"
                     "10001000-10002000 r--p zzzz 00:00 0\n", -1);
  /* 701: maps cut off mid-line. */
  pgs_fixture_add_process (fx, 701, "cutmaps", 0, FALSE);
  pgs_fixture_write (fx, "701/maps", "10000000-10001000 r--p 00000000 00:00 0\n10001000-100", -1);
  /* 702: a pagemap two pages short of its 4-page mapping. */
  pgs_fixture_add_process (fx, 702, "shortpm", 0, FALSE);
  pgs_fixture_write (fx, "702/maps", "10000000-10004000 rw-p 00000000 00:00 0\n", -1);
  pgs_fixture_write (fx, "702/pagemap", NULL, 0);
  pgs_fixture_set_pages (fx, 702, BASE, e, 2);
  /* 703: gone between maps and pagemap. */
  pgs_fixture_add_process (fx, 703, "vanished", 0, FALSE);
  pgs_fixture_write (fx, "703/maps", "10000000-10004000 rw-p 00000000 00:00 0\n", -1);
  /* 704: a kernel thread: left out, not an error. */
  pgs_fixture_add_process (fx, 704, "kworker/0:1", 0, TRUE);
  /* 705: a status file cut short. */
  pgs_fixture_write (fx, "705/status", "Name:\tcut\nState:\tS (sleeping)\n", -1);
  /* 706: overlapping maps lines. */
  pgs_fixture_add_process (fx, 706, "overlap", 0, FALSE);
  pgs_fixture_write (fx, "706/maps",
                     "10000000-10002000 r--p 00000000 00:00 0\n"
                     "10001000-10003000 r--p 00000000 00:00 0\n", -1);
  pgs_fixture_commit (fx);
  {
    g_autofree char *pm = g_build_filename (pgs_fixture_get_root (fx), "703", "pagemap", NULL);
    g_unlink (pm);
  }

  snap = scan (fx, PGS_SCAN_METRICS, NULL, 0);

  g_assert_cmpuint (pgs_snapshot_get_n_processes (snap), ==, 2);
  g_assert_cmpuint (pgs_process_get_pss (pgs_snapshot_lookup_pid (snap, 100)), ==, 1500 * PS);
  g_assert_cmpuint (pgs_snapshot_get_n_skipped (snap), ==, 6);

  s = find_skipped (snap, 700);
  g_assert_nonnull (s);
  g_assert_error (s->error, PGS_ERROR, PGS_ERROR_MALFORMED);
  g_assert_nonnull (strstr (s->error->message, "line 2"));
  s = find_skipped (snap, 701);
  g_assert_error (s->error, PGS_ERROR, PGS_ERROR_TRUNCATED);
  s = find_skipped (snap, 702);
  g_assert_error (s->error, PGS_ERROR, PGS_ERROR_TRUNCATED);
  g_assert_nonnull (strstr (s->error->message, "0x10002000"));
  s = find_skipped (snap, 703);
  g_assert_error (s->error, PGS_ERROR, PGS_ERROR_PROCESS_GONE);
  g_assert_null (find_skipped (snap, 704));
  g_assert_null (pgs_snapshot_lookup_pid (snap, 704));
  s = find_skipped (snap, 705);
  g_assert_error (s->error, PGS_ERROR, PGS_ERROR_TRUNCATED);
  s = find_skipped (snap, 706);
  g_assert_error (s->error, PGS_ERROR, PGS_ERROR_MALFORMED);
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

/* A process that exits while its pagemap is read: the read comes back short, but status
 * is still there (a zombie keeps it). That is an exit, skipped as PROCESS_GONE, not a
 * damaged file; a live process with the same short pagemap still is one (TRUNCATED).
 * Fixture files do not change, so the zombie's status says Z from the start but keeps its
 * Vm lines, as it read when the scan began. Before: both TRUNCATED. */
/* A process names itself: bytes that are not UTF-8 and escape sequences stay as they are
 * in the raw name (the JSON keeps them losslessly) and become "?" in the text a GUI shows,
 * one per byte or character (pango refuses invalid UTF-8; a label must not show ESC). */
static void
test_display_text (void)
{
  g_autoptr(PgsFixture) fx = pgs_fixture_new ();
  g_autoptr(PgsSnapshot) snap = NULL;
  g_autoptr(PgsMapping) m = NULL;
  guint64 e[1] = { FX_PRESENT_EXCL (30) };
  PgsProcess *p;

  pgs_fixture_add_process (fx, 820, "abc\xf0\x1b[2J", 0, FALSE);
  pgs_fixture_write (fx, "820/cmdline", "run\0\xff\x9b", 7);
  pgs_fixture_add_mapping (fx, 820, BASE, BASE + PS, "rw-p", "/tmp/odd\xc3(name");
  pgs_fixture_set_pages (fx, 820, BASE, e, 1);
  pgs_fixture_set_frame (fx, 30, 1, KPF (ANON));
  pgs_fixture_commit (fx);

  snap = scan (fx, PGS_SCAN_METRICS | PGS_SCAN_MAPPINGS, NULL, 0);
  p = pgs_snapshot_lookup_pid (snap, 820);
  g_assert_nonnull (p);
  g_assert_cmpstr (pgs_process_get_name (p), ==, "abc\xf0\x1b[2J");
  g_assert_cmpstr (pgs_process_get_display_name (p), ==, "abc??[2J");
  /* The same pointer each time: made once, owned by the process. */
  g_assert_true (pgs_process_get_display_name (p) == pgs_process_get_display_name (p));
  g_assert_true (g_utf8_validate (pgs_process_get_display_cmdline (p), -1, NULL));
  g_assert_null (strchr (pgs_process_get_display_cmdline (p), '\x1b'));
  m = g_list_model_get_item (pgs_process_get_mappings (p), 0);
  g_assert_cmpstr (pgs_mapping_get_display_label (m), ==, "/tmp/odd?(name");
}

static void
test_exit_mid_scan (void)
{
  g_autoptr(PgsFixture) fx = pgs_fixture_new ();
  g_autoptr(PgsSnapshot) snap = NULL;
  guint64 e[2] = { FX_PRESENT_EXCL (11), FX_PRESENT_EXCL (12) };
  const char *status =
    "Name:\tdying\nState:\t%s\nTgid:\t%d\nPid:\t%d\nPPid:\t1\nUid:\t0\t0\t0\t0\n"
    "VmSize:\t      16 kB\nVmRSS:\t       8 kB\nVmSwap:\t       0 kB\n";
  const char *states[3] = { "Z (zombie)", "X (dead)", "S (sleeping)" };
  const PgsSkipped *s;

  for (int i = 0; i < 3; i++)
    {
      int pid = 720 + i;
      g_autofree char *rel = g_strdup_printf ("%d/status", pid);
      g_autofree char *text = g_strdup_printf (status, states[i], pid, pid);

      pgs_fixture_add_process (fx, pid, "dying", 0, FALSE);
      pgs_fixture_add_mapping (fx, pid, BASE, BASE + 4 * PS, "rw-p", "");
      pgs_fixture_write (fx, rel, text, -1);
      /* The pagemap ends after 2 of the 4 pages. */
      rel = (g_free (rel), g_strdup_printf ("%d/pagemap", pid));
      pgs_fixture_write (fx, rel, NULL, 0);
      pgs_fixture_set_pages (fx, pid, BASE, e, 2);
    }
  pgs_fixture_set_frame (fx, 12, 1, KPF (ANON));
  pgs_fixture_commit (fx);

  snap = scan (fx, PGS_SCAN_METRICS, NULL, 0);
  g_assert_cmpuint (pgs_snapshot_get_n_processes (snap), ==, 0);
  s = find_skipped (snap, 720);
  g_assert_nonnull (s);
  g_assert_error (s->error, PGS_ERROR, PGS_ERROR_PROCESS_GONE);
  s = find_skipped (snap, 721);
  g_assert_nonnull (s);
  g_assert_error (s->error, PGS_ERROR, PGS_ERROR_PROCESS_GONE);
  s = find_skipped (snap, 722);
  g_assert_nonnull (s);
  g_assert_error (s->error, PGS_ERROR, PGS_ERROR_TRUNCATED);
}

/* Figures that cannot be: refused with the reason, not reported. Unprivileged, so the
 * kernel's rollups are used:
 *   730: maps cut short at a line end (one 4-page mapping left: VSS 4 PS) while
 *        smaps_rollup counts RSS 400 kB → TRUNCATED
 *   731: maps whole (4 pages), but smaps says the mapping has RSS 8 PS → MALFORMED
 *   732: consistent (RSS 2 PS, swap 2 PS in 4 PS) → reported
 * Before: 730 and 731 were reported with RSS above VSS. */
static void
test_rss_above_vss (void)
{
  g_autoptr(PgsFixture) fx = pgs_fixture_new ();
  g_autoptr(PgsSnapshot) snap = NULL;
  g_autofree char *rollup_730 = NULL;
  g_autofree char *rollup_ok = NULL;
  g_autofree char *smaps_731 = NULL;
  const PgsSkipped *s;
  guint64 ps_kb = PS / 1024;

  pgs_fixture_set_unprivileged (fx, TRUE);
  for (int pid = 730; pid <= 732; pid++)
    {
      pgs_fixture_add_process (fx, pid, "cut", 0, FALSE);
      pgs_fixture_add_mapping (fx, pid, BASE, BASE + 4 * PS, "rw-p", "");
    }
  rollup_730 = g_strdup_printf ("10000000-10004000 ---p 00000000 00:00 0 [rollup]\n"
                                "Rss: 400 kB\nPss: 400 kB\nPrivate_Clean: 0 kB\n"
                                "Private_Dirty: 400 kB\nSwap: 0 kB\n");
  rollup_ok = g_strdup_printf ("10000000-10004000 ---p 00000000 00:00 0 [rollup]\n"
                               "Rss: %" G_GUINT64_FORMAT " kB\nPss: %" G_GUINT64_FORMAT " kB\n"
                               "Private_Clean: 0 kB\nPrivate_Dirty: %" G_GUINT64_FORMAT " kB\n"
                               "Swap: %" G_GUINT64_FORMAT " kB\n",
                               2 * ps_kb, 2 * ps_kb, 2 * ps_kb, 2 * ps_kb);
  smaps_731 = g_strdup_printf ("%08" G_GINT64_MODIFIER "x-%08" G_GINT64_MODIFIER "x rw-p 00000000 00:00 0\n"
                               "Size: %" G_GUINT64_FORMAT " kB\nRss: %" G_GUINT64_FORMAT " kB\n"
                               "Pss: %" G_GUINT64_FORMAT " kB\nPrivate_Clean: 0 kB\n"
                               "Private_Dirty: %" G_GUINT64_FORMAT " kB\nSwap: 0 kB\n",
                               BASE, BASE + 4 * PS, 4 * ps_kb, 8 * ps_kb, 8 * ps_kb, 8 * ps_kb);
  if (PS == 4096)
    g_assert_cmpuint (400 * 1024, >, 4 * PS);
  pgs_fixture_write (fx, "730/smaps_rollup", rollup_730, -1);
  pgs_fixture_write (fx, "731/smaps_rollup", rollup_ok, -1);
  pgs_fixture_write (fx, "731/smaps", smaps_731, -1);
  pgs_fixture_write (fx, "732/smaps_rollup", rollup_ok, -1);
  pgs_fixture_commit (fx);

  snap = scan (fx, PGS_SCAN_MAPPINGS, NULL, 0);
  s = find_skipped (snap, 730);
  g_assert_nonnull (s);
  g_assert_error (s->error, PGS_ERROR, PGS_ERROR_TRUNCATED);
  g_assert_nonnull (strstr (s->error->message, "maps is incomplete"));
  s = find_skipped (snap, 731);
  g_assert_nonnull (s);
  g_assert_error (s->error, PGS_ERROR, PGS_ERROR_MALFORMED);
  g_assert_null (find_skipped (snap, 732));
  g_assert_cmpuint (pgs_process_get_rss (pgs_snapshot_lookup_pid (snap, 732)), ==, 2 * PS);
  g_assert_cmpuint (pgs_process_get_swap (pgs_snapshot_lookup_pid (snap, 732)), ==, 2 * PS);
}

/* A process between releasing its memory and becoming a zombie: status has no Vm lines and
 * says State R, but "Kthread: 0" (Linux 6.8) says it is no kernel thread. It exited: skipped
 * as PROCESS_GONE. A kernel thread ("Kthread: 1") is still left out without a word.
 * Before: the exiting process was taken for a kernel thread and left out unseen. */
static void
test_exiting_not_kthread (void)
{
  g_autoptr(PgsFixture) fx = pgs_fixture_new ();
  g_autoptr(PgsSnapshot) snap = NULL;
  const PgsSkipped *s;

  pgs_fixture_write (fx, "740/status", "Name:\texiting\nState:\tR (running)\nPPid:\t1\n"
                     "Uid:\t0\t0\t0\t0\nKthread:\t0\n", -1);
  pgs_fixture_write (fx, "741/status", "Name:\tkworker/1:0\nState:\tI (idle)\nPPid:\t2\n"
                     "Uid:\t0\t0\t0\t0\nKthread:\t1\n", -1);
  pgs_fixture_commit (fx);

  snap = scan (fx, PGS_SCAN_METRICS, NULL, 0);
  g_assert_cmpuint (pgs_snapshot_get_n_processes (snap), ==, 0);
  s = find_skipped (snap, 740);
  g_assert_nonnull (s);
  g_assert_error (s->error, PGS_ERROR, PGS_ERROR_PROCESS_GONE);
  g_assert_null (find_skipped (snap, 741));
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

/* Without kpagecount: the kernel's own smaps_rollup for what we may read; status for the rest;
 * PSS and USS unknown, never 0. */
static void
test_unprivileged_rollup (void)
{
  g_autoptr(PgsFixture) fx = pgs_fixture_new ();
  g_autoptr(PgsSnapshot) snap = NULL;
  PgsProcess *p;

  pgs_fixture_set_unprivileged (fx, TRUE);
  build_proposal (fx);
  /* Within 100's 2000 pages (8000 kB with 4 KiB pages): RSS 7900 kB + swap 12 kB. */
  pgs_fixture_write (fx, "100/smaps_rollup",
                     "10000000-107d0000 ---p 00000000 00:00 0 [rollup]\n"
                     "Rss:                7900 kB\nPss:                6000 kB\n"
                     "Private_Clean:         0 kB\nPrivate_Dirty:      4000 kB\n"
                     "Swap:                 12 kB\n", -1);
  /* 200 has no smaps_rollup we can read: status says VmRSS 100 kB, VmSwap 0. */

  snap = scan (fx, PGS_SCAN_METRICS, NULL, 0);
  g_assert_false (pgs_snapshot_is_privileged (snap));

  p = pgs_snapshot_lookup_pid (snap, 100);
  g_assert_cmpint (pgs_process_get_source (p), ==, PGS_SOURCE_KERNEL);
  g_assert_cmpuint (pgs_process_get_known (p), ==, PGS_METRIC_ALL);
  g_assert_cmpuint (pgs_process_get_rss (p), ==, 7900 * 1024);
  g_assert_cmpuint (pgs_process_get_pss (p), ==, 6000 * 1024);
  g_assert_cmpuint (pgs_process_get_uss (p), ==, 4000 * 1024);
  g_assert_cmpuint (pgs_process_get_swap (p), ==, 12 * 1024);

  p = pgs_snapshot_lookup_pid (snap, 200);
  g_assert_cmpint (pgs_process_get_source (p), ==, PGS_SOURCE_STATUS);
  g_assert_true (pgs_process_is_known (p, PGS_METRIC_RSS));
  g_assert_cmpuint (pgs_process_get_rss (p), ==, 100 * 1024);
  g_assert_false (pgs_process_is_known (p, PGS_METRIC_PSS));
  g_assert_false (pgs_process_is_known (p, PGS_METRIC_USS));
  g_assert_nonnull (pgs_process_get_unknown_reason (p));
}

/* kpagecount readable but pagemap hiding frame numbers (root without CAP_SYS_ADMIN, as in
 * some containers): the frames cannot be looked up, so the kernel's own rollup is used. */
static void
test_pfn_hidden (void)
{
  g_autoptr(PgsFixture) fx = pgs_fixture_new ();
  g_autoptr(PgsSnapshot) snap = NULL;
  guint64 e[4] = { FX_PRESENT (0), FX_PRESENT (0), FX_PRESENT (0) | FX_FILE, 0 };
  PgsProcess *p;

  pgs_fixture_add_process (fx, 800, "contained", 0, FALSE);
  pgs_fixture_add_mapping (fx, 800, BASE, BASE + 4 * PS, "rw-p", NULL);
  pgs_fixture_set_pages (fx, 800, BASE, e, 4);
  pgs_fixture_write (fx, "800/smaps_rollup",
                     "10000000-10004000 ---p 00000000 00:00 0 [rollup]\n"
                     "Rss:                  12 kB\nPss:                   9 kB\n"
                     "Private_Clean:         0 kB\nPrivate_Dirty:         8 kB\n"
                     "Swap:                  0 kB\n", -1);
  pgs_fixture_set_frame (fx, 0, 0, KPF (RESERVED));
  pgs_fixture_commit (fx);

  snap = scan (fx, PGS_SCAN_PAGES, NULL, 0);
  g_assert_true (pgs_snapshot_is_privileged (snap));
  p = pgs_snapshot_lookup_pid (snap, 800);
  g_assert_cmpint (pgs_process_get_source (p), ==, PGS_SOURCE_KERNEL);
  g_assert_cmpuint (pgs_process_get_rss (p), ==, 12 * 1024);
  g_assert_cmpuint (pgs_process_get_pss (p), ==, 9 * 1024);
  g_assert_cmpuint (pgs_process_get_uss (p), ==, 8 * 1024);
  /* Residency is still there: 3 present pages. */
  g_assert_cmpuint (pgs_process_get_n_pages (p), ==, 3);
}

/* Unreadable files, for real: as root the test drops to nobody in a subprocess, since root
 * reads everything whatever the mode. */
static void
test_unreadable_files (void)
{
  if (g_test_subprocess ())
    {
      g_autoptr(PgsFixture) fx = pgs_fixture_new ();
      g_autoptr(PgsSnapshot) snap = NULL;
      g_autofree char *maps = NULL;
      g_autofree char *kpc = NULL;
      struct passwd *nobody = getpwnam ("nobody");
      PgsProcess *p;

      build_proposal (fx);
      maps = g_build_filename (pgs_fixture_get_root (fx), "100", "maps", NULL);
      kpc = g_build_filename (pgs_fixture_get_root (fx), "kpagecount", NULL);
      if (geteuid () == 0)
        {
          g_autoptr(GDir) dir = NULL;
          const char *name;

          g_assert_nonnull (nobody);
          g_assert_cmpint (chmod (maps, 0600), ==, 0);
          g_assert_cmpint (chmod (kpc, 0600), ==, 0);
          /* The directories become nobody's, the files stay root's: nobody cannot read
           * maps or kpagecount, yet can remove the fixture when the test ends (it was
           * left behind in /tmp on every run before). */
          g_assert_cmpint (chown (pgs_fixture_get_root (fx), nobody->pw_uid, nobody->pw_gid), ==, 0);
          dir = g_dir_open (pgs_fixture_get_root (fx), 0, NULL);
          g_assert_nonnull (dir);
          while ((name = g_dir_read_name (dir)) != NULL)
            {
              g_autofree char *path = g_build_filename (pgs_fixture_get_root (fx), name, NULL);

              if (g_file_test (path, G_FILE_TEST_IS_DIR))
                g_assert_cmpint (chown (path, nobody->pw_uid, nobody->pw_gid), ==, 0);
            }
          g_assert_cmpint (setgid (nobody->pw_gid), ==, 0);
          g_assert_cmpint (setuid (nobody->pw_uid), ==, 0);
        }
      else
        {
          g_assert_cmpint (chmod (maps, 0), ==, 0);
          g_assert_cmpint (chmod (kpc, 0), ==, 0);
        }

      snap = scan (fx, PGS_SCAN_METRICS, NULL, 0);
      /* kpagecount unreadable: not privileged. */
      g_assert_false (pgs_snapshot_is_privileged (snap));
      p = pgs_snapshot_lookup_pid (snap, 100);
      g_assert_nonnull (p);
      /* maps unreadable: VSS and RSS from status (8192 kB, 100 kB), PSS/USS unknown. */
      g_assert_cmpint (pgs_process_get_source (p), ==, PGS_SOURCE_STATUS);
      g_assert_cmpuint (pgs_process_get_vss (p), ==, 8192 * 1024);
      g_assert_cmpuint (pgs_process_get_rss (p), ==, 100 * 1024);
      g_assert_false (pgs_process_is_known (p, PGS_METRIC_PSS));
      g_assert_cmpuint (pgs_process_get_pss (p), ==, 0);
      g_assert_nonnull (pgs_process_get_unknown_reason (p));
      return;
    }

  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
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

static void
test_missing_root (void)
{
  g_autoptr(PgsScanner) scanner = pgs_scanner_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(PgsSnapshot) snap = NULL;

  pgs_scanner_set_procfs_root (scanner, "/nonexistent/pagescope-procfs");
  snap = pgs_scanner_scan (scanner, NULL, &error);
  g_assert_null (snap);
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, "/nonexistent/pagescope-procfs"));
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
  g_test_add_func ("/pgs/scanner/malformed-and-truncated", test_malformed_and_truncated);
  g_test_add_func ("/pgs/scanner/explicit-pids", test_explicit_pids);
  g_test_add_func ("/pgs/scanner/huge-pfn", test_huge_pfn);
  g_test_add_func ("/pgs/scanner/exit-mid-scan", test_exit_mid_scan);
  g_test_add_func ("/pgs/scanner/exiting-not-kthread", test_exiting_not_kthread);
  g_test_add_func ("/pgs/scanner/rss-above-vss", test_rss_above_vss);
  g_test_add_func ("/pgs/scanner/unprivileged-rollup", test_unprivileged_rollup);
  g_test_add_func ("/pgs/scanner/pfn-hidden", test_pfn_hidden);
  g_test_add_func ("/pgs/scanner/unreadable-files", test_unreadable_files);
  g_test_add_func ("/pgs/scanner/mappings", test_mappings);
  g_test_add_func ("/pgs/scanner/async", test_async);
  g_test_add_func ("/pgs/scanner/cancelled", test_cancelled);
  g_test_add_func ("/pgs/scanner/missing-root", test_missing_root);
  g_test_add_func ("/pgs/scanner/display-text", test_display_text);

  return g_test_run ();
}
