/* test-librank.c: librank on a fixture tree, every figure worked out by hand
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * PS is the page size, F = PS << 12 a page in the kernel's PSS fixed point.
 *
 *   pid  mapping                         pages  frames (count)
 *   10   /usr/lib/libz.so r-xp           2      40, 41 (3)
 *        /usr/lib/libz.so rw-p           1      42 (1, exclusive)
 *        /tmp/data (deleted) r--s        2      50 (2), one page swapped out
 *   11   /usr/lib/libz.so r-xp           2      40, 41 (3)
 *        /usr/lib/libz.so rw-p           1      43 (1, exclusive)
 *        /tmp/data (deleted) r--s        1      50 (2)
 *        [heap]                          1      45 (1, exclusive): not a file
 *   12   /usr/lib/libz.so r-xp           2      40, 41 (3)
 *        /usr/lib/libz.so rw-p           1      44 (1, exclusive)
 *        /srv/caf\xe9.bin r--p (Latin-1)  1      60 (1, exclusive)
 *        anonymous                       1      61 (1, exclusive): not a file
 *
 *   file                 procs  VSS  RSS  PSS (fixed point)   USS  swap
 *   /usr/lib/libz.so     3      9    9    6·⌊F/3⌋ + 3F         3    0
 *   /tmp/data (deleted)  2      3    2    2·(F/2) = F          0    1
 *   /srv/caf\xe9.bin     1      1    1    F                    1    0
 *
 * Largest PSS first; data and caf\xe9 tie on PSS, data has the larger RSS.
 */

#include "config.h"

#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <pagescope.h>

#include "pgs-fixture.h"
#include "pgs-test-cli.h"
#include "pgs-kpage.h"

#define KPF(f) PGS_KPF_BIT (PGS_KPF_##f)
#define BASE   G_GUINT64_CONSTANT (0x10000000)
#define ODD    "/srv/caf\xe9.bin"

static guint64 PS;
static guint64 F;

static void
map (PgsFixture    *fx,
     int            pid,
     guint64        page,
     const char    *perms,
     const char    *path,
     const guint64 *entries,
     gsize          n)
{
  pgs_fixture_add_mapping (fx, pid, BASE + page * PS, BASE + (page + n) * PS, perms, path);
  pgs_fixture_set_pages (fx, pid, BASE + page * PS, entries, n);
}

static PgsFixture *
build (void)
{
  PgsFixture *fx = pgs_fixture_new ();
  const guint64 text[] = { FX_PRESENT (40) | FX_FILE, FX_PRESENT (41) | FX_FILE };
  const guint64 data10[] = { FX_PRESENT (50) | FX_FILE, FX_SWAPPED (1, 9) };
  const guint64 data11[] = { FX_PRESENT (50) | FX_FILE };

  for (int pid = 10; pid <= 12; pid++)
    {
      const guint64 rw[] = { FX_PRESENT_EXCL (42 + (pid - 10)) };

      pgs_fixture_add_process (fx, pid, "user", 0, FALSE);
      map (fx, pid, 0, "r-xp", "/usr/lib/libz.so", text, 2);
      map (fx, pid, 2, "rw-p", "/usr/lib/libz.so", rw, 1);
    }
  map (fx, 10, 10, "r--s", "/tmp/data (deleted)", data10, 2);
  map (fx, 11, 10, "r--s", "/tmp/data (deleted)", data11, 1);
  {
    const guint64 heap[] = { FX_PRESENT_EXCL (45) };
    const guint64 odd[] = { FX_PRESENT_EXCL (60) | FX_FILE };
    const guint64 anon[] = { FX_PRESENT_EXCL (61) };

    map (fx, 11, 20, "rw-p", "[heap]", heap, 1);
    map (fx, 12, 10, "r--p", ODD, odd, 1);
    map (fx, 12, 20, "rw-p", "", anon, 1);
  }

  pgs_fixture_set_frame (fx, 40, 3, KPF (LRU) | KPF (MMAP));
  pgs_fixture_set_frame (fx, 41, 3, KPF (LRU) | KPF (MMAP));
  for (guint64 pfn = 42; pfn <= 45; pfn++)
    pgs_fixture_set_frame (fx, pfn, 1, KPF (ANON) | KPF (LRU));
  pgs_fixture_set_frame (fx, 50, 2, KPF (LRU) | KPF (SWAPBACKED));
  pgs_fixture_set_frame (fx, 60, 1, KPF (LRU) | KPF (MMAP));
  pgs_fixture_set_frame (fx, 61, 1, KPF (ANON) | KPF (LRU));
  pgs_fixture_commit (fx);
  return fx;
}

static GPtrArray *
rank_flags (PgsFixture   *fx,
            int           only_pid,
            PgsScanFlags  flags,
            PgsSnapshot **snap_out)
{
  g_autoptr(PgsScanner) scanner = pgs_scanner_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) all = g_ptr_array_new ();
  PgsSnapshot *snap;
  guint unmapped = 99;
  GPtrArray *files;

  pgs_scanner_set_procfs_root (scanner, pgs_fixture_get_root (fx));
  pgs_scanner_set_flags (scanner, flags);
  if (only_pid > 0)
    pgs_scanner_set_pids (scanner, &only_pid, 1);
  snap = pgs_scanner_scan (scanner, NULL, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < pgs_snapshot_get_n_processes (snap); i++)
    g_ptr_array_add (all, pgs_snapshot_get_process (snap, i));
  files = pgs_librank (all, &unmapped);
  g_assert_cmpuint (unmapped, ==, 0);
  *snap_out = snap;
  return files;
}

static GPtrArray *
rank (PgsFixture   *fx,
      int           only_pid,
      PgsSnapshot **snap_out)
{
  return rank_flags (fx, only_pid, PGS_SCAN_MAPPINGS, snap_out);
}

static void
assert_file (const PgsLibFile *f,
             const char       *path,
             guint             n_processes,
             guint             n_mappings,
             guint64           vss_pages,
             guint64           rss_pages,
             guint64           pss_fp,
             guint64           uss_pages,
             guint64           swap_pages)
{
  g_assert_cmpstr (f->path, ==, path);
  g_assert_cmpuint (f->pids->len, ==, n_processes);
  g_assert_cmpuint (f->n_mappings, ==, n_mappings);
  g_assert_cmpuint (f->known, ==, PGS_METRIC_ALL);
  g_assert_cmpuint (f->vss, ==, vss_pages * PS);
  g_assert_cmpuint (f->rss, ==, rss_pages * PS);
  g_assert_cmpuint (f->pss_fp, ==, pss_fp);
  g_assert_cmpuint (f->uss, ==, uss_pages * PS);
  g_assert_cmpuint (f->swap, ==, swap_pages * PS);
}

static void
test_all (void)
{
  g_autoptr(PgsFixture) fx = build ();
  g_autoptr(PgsSnapshot) snap = NULL;
  g_autoptr(GPtrArray) files = rank (fx, 0, &snap);

  g_assert_cmpuint (files->len, ==, 3);
  assert_file (g_ptr_array_index (files, 0), "/usr/lib/libz.so", 3, 6, 9, 9,
               6 * (F / 3) + 3 * F, 3, 0);
  assert_file (g_ptr_array_index (files, 1), "/tmp/data (deleted)", 2, 2, 3, 2, F, 0, 1);
  assert_file (g_ptr_array_index (files, 2), ODD, 1, 1, 1, 1, F, 1, 0);
}

static void
test_one_pid (void)
{
  g_autoptr(PgsFixture) fx = build ();
  g_autoptr(PgsSnapshot) snap = NULL;
  g_autoptr(GPtrArray) files = rank (fx, 12, &snap);

  /* Only process 12's share: libz 2·⌊F/3⌋ + F, the odd file F. */
  g_assert_cmpuint (files->len, ==, 2);
  assert_file (g_ptr_array_index (files, 0), "/usr/lib/libz.so", 1, 2, 3, 3,
               2 * (F / 3) + F, 1, 0);
  assert_file (g_ptr_array_index (files, 1), ODD, 1, 1, 1, 1, F, 1, 0);
}

static void
assert_user (const PgsLibUser *u,
             int               pid,
             guint             n_mappings,
             guint64           vss_pages,
             guint64           rss_pages,
             guint64           pss_fp,
             guint64           uss_pages,
             guint64           swap_pages)
{
  g_assert_cmpint (u->pid, ==, pid);
  g_assert_cmpuint (u->n_mappings, ==, n_mappings);
  g_assert_cmpuint (u->known, ==, PGS_METRIC_ALL);
  g_assert_cmpuint (u->vss, ==, vss_pages * PS);
  g_assert_cmpuint (u->rss, ==, rss_pages * PS);
  g_assert_cmpuint (u->pss_fp, ==, pss_fp);
  g_assert_cmpuint (u->uss, ==, uss_pages * PS);
  g_assert_cmpuint (u->swap, ==, swap_pages * PS);
}

/* The Libraries view's list of a file's processes: each one's own mappings of it. */
static void
test_file_users (void)
{
  g_autoptr(PgsFixture) fx = build ();
  g_autoptr(PgsSnapshot) snap = NULL;
  g_autoptr(GPtrArray) files = rank (fx, 0, &snap);
  g_autoptr(GPtrArray) all = g_ptr_array_new ();
  g_autoptr(GArray) libz = NULL;
  g_autoptr(GArray) data = NULL;
  g_autoptr(GArray) none = NULL;

  for (guint i = 0; i < pgs_snapshot_get_n_processes (snap); i++)
    g_ptr_array_add (all, pgs_snapshot_get_process (snap, i));

  /* libz: text 2 pages at ⌊F/3⌋ each (count 3) + its own rw page F, USS the rw page. */
  libz = pgs_librank_file_users (all, "/usr/lib/libz.so");
  g_assert_cmpuint (libz->len, ==, 3);
  for (int pid = 10; pid <= 12; pid++)
    assert_user (&g_array_index (libz, PgsLibUser, pid - 10), pid, 2, 3, 3,
                 2 * (F / 3) + F, 1, 0);

  /* data: 10 has frame 50 (count 2) and a swapped page, 11 frame 50 only. */
  data = pgs_librank_file_users (all, "/tmp/data (deleted)");
  g_assert_cmpuint (data->len, ==, 2);
  assert_user (&g_array_index (data, PgsLibUser, 0), 10, 1, 2, 1, F / 2, 0, 1);
  assert_user (&g_array_index (data, PgsLibUser, 1), 11, 1, 1, 1, F / 2, 0, 0);

  none = pgs_librank_file_users (all, "/usr/lib/absent.so");
  g_assert_cmpuint (none->len, ==, 0);
}

static void
assert_frames (const PgsFileFrames *frames,
               const guint64       *expect,
               gsize                n)
{
  g_assert_cmpuint (frames->n_pfns, ==, n);
  for (gsize i = 0; i < n; i++)
    g_assert_cmpuint (frames->pfns[i], ==, expect[i]);
}

/* The frames a file highlights on the physical maps: every present page of every mapping. */
static void
test_file_frames (void)
{
  g_autoptr(PgsFixture) fx = build ();
  g_autoptr(PgsSnapshot) snap = NULL;
  g_autoptr(GPtrArray) files = rank_flags (fx, 0, PGS_SCAN_MAPPINGS | PGS_SCAN_PAGES, &snap);
  g_autoptr(PgsSnapshot) bare = NULL;
  g_autoptr(GPtrArray) bare_files = rank (fx, 0, &bare);
  g_autoptr(PgsFileFrames) libz = NULL;
  g_autoptr(PgsFileFrames) data = NULL;
  g_autoptr(PgsFileFrames) odd = NULL;
  g_autoptr(PgsFileFrames) heap = NULL;
  g_autoptr(PgsFileFrames) unscanned = NULL;
  /* By hand: the shared text 40, 41 once, and each process's rw page 42, 43, 44. */
  const guint64 libz_pfns[] = { 40, 41, 42, 43, 44 };
  /* Frame 50 in 10 and 11; 10's second page is swapped out: no frame. */
  const guint64 data_pfns[] = { 50 };
  const guint64 odd_pfns[] = { 60 };

  libz = pgs_librank_file_frames (snap, "/usr/lib/libz.so");
  assert_frames (libz, libz_pfns, G_N_ELEMENTS (libz_pfns));
  g_assert_cmpuint (libz->n_processes, ==, 3);
  g_assert_cmpuint (libz->n_without_pages, ==, 0);
  g_assert_cmpuint (libz->n_pfn_hidden, ==, 0);

  data = pgs_librank_file_frames (snap, "/tmp/data (deleted)");
  assert_frames (data, data_pfns, G_N_ELEMENTS (data_pfns));
  g_assert_cmpuint (data->n_processes, ==, 2);

  odd = pgs_librank_file_frames (snap, ODD);
  assert_frames (odd, odd_pfns, G_N_ELEMENTS (odd_pfns));
  g_assert_cmpuint (odd->n_processes, ==, 1);

  /* Not a file: the heap's frame 45 is in no file's set, and nothing maps it by that name. */
  heap = pgs_librank_file_frames (snap, "/usr/lib/absent.so");
  g_assert_cmpuint (heap->n_pfns, ==, 0);
  g_assert_cmpuint (heap->n_processes, ==, 0);

  /* Scanned without pages: the three processes are counted as the reason for no frames. */
  unscanned = pgs_librank_file_frames (bare, "/usr/lib/libz.so");
  g_assert_cmpuint (unscanned->n_pfns, ==, 0);
  g_assert_cmpuint (unscanned->n_processes, ==, 3);
  g_assert_cmpuint (unscanned->n_without_pages, ==, 3);
}

static void
test_is_file (void)
{
  g_assert_true (pgs_librank_is_file ("/usr/lib/libc.so.6"));
  g_assert_true (pgs_librank_is_file ("/memfd:wayland (deleted)"));
  g_assert_true (pgs_librank_is_file ("/SYSV00000000 (deleted)"));
  g_assert_false (pgs_librank_is_file ("[heap]"));
  g_assert_false (pgs_librank_is_file ("[anon:scudo]"));
  g_assert_false (pgs_librank_is_file (""));
  g_assert_false (pgs_librank_is_file (NULL));
}

static void
test_cli (void)
{
  g_autoptr(PgsFixture) fx = build ();
  g_autofree char *out = NULL;
  g_autofree char *expect = NULL;
  g_autofree char *b64 = g_base64_encode ((const guchar *) ODD, strlen (ODD));

  g_assert_cmpint (pgs_test_run_cli (fx, &out, NULL, "librank", "--json", NULL), ==, 0);
  expect = g_strdup_printf ("{\"path\":\"/tmp/data (deleted)\",\"processes\":2,\"mappings\":2,"
                            "\"vss\":%" G_GUINT64_FORMAT ",\"rss\":%" G_GUINT64_FORMAT
                            ",\"pss\":%" G_GUINT64_FORMAT ",\"uss\":0,\"swap\":%"
                            G_GUINT64_FORMAT ",\"pids\":[10,11]}",
                            3 * PS, 2 * PS, PS, PS);
  g_assert_nonnull (strstr (out, expect));
  /* The Latin-1 byte: U+FFFD in the text, the exact bytes beside it. */
  g_clear_pointer (&expect, g_free);
  expect = g_strdup_printf ("{\"path\":\"/srv/caf\xef\xbf\xbd.bin\",\"path_bytes\":\"%s\"", b64);
  g_assert_nonnull (strstr (out, expect));
  g_clear_pointer (&out, g_free);

  /* Human: escaped for the terminal, the totals line. */
  g_assert_cmpint (pgs_test_run_cli (fx, &out, NULL, "librank", NULL), ==, 0);
  g_assert_nonnull (strstr (out, "/srv/caf?.bin"));
  g_assert_nonnull (strstr (out, "TOTAL (3 files)"));
  g_clear_pointer (&out, g_free);

  g_assert_cmpint (pgs_test_run_cli (fx, &out, NULL, "librank", "--pid", "x", NULL), ==, 2);
  g_clear_pointer (&out, g_free);
  g_assert_cmpint (pgs_test_run_cli (fx, &out, NULL, "librank", "stray", NULL), ==, 2);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  PS = (guint64) sysconf (_SC_PAGESIZE);
  F = PS << PGS_PSS_SHIFT;

  g_test_add_func ("/pgs/librank/all", test_all);
  g_test_add_func ("/pgs/librank/one-pid", test_one_pid);
  g_test_add_func ("/pgs/librank/is-file", test_is_file);
  g_test_add_func ("/pgs/librank/file-users", test_file_users);
  g_test_add_func ("/pgs/librank/file-frames", test_file_frames);
  g_test_add_func ("/pgs/librank/cli", test_cli);
  return g_test_run ();
}
