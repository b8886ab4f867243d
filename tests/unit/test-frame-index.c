/* test-frame-index.c: which processes map a frame, and where
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * pgs_snapshot_find_frame_users on fixtures: one worked out by hand (frames shared by
 * several processes, one frame mapped twice by the same process, frames in rising and
 * falling order, a run of frames across a 64-frame boundary), and random ones checked
 * against a plain search through the pages the test itself wrote.
 */

#include "config.h"

#include <pagescope.h>

#include "pgs-fixture.h"
#include "pgs-frame-index.h"
#include "pgs-kpage.h"
#include "pgs-snapshot-private.h"
#include "pgs-test-cli.h"

#define KPF(f) PGS_KPF_BIT (PGS_KPF_##f)
#define BASE   G_GUINT64_CONSTANT (0x10000000)
#define PS     G_GUINT64_CONSTANT (4096)

typedef struct
{
  int     pid;
  guint64 address;
} User;

static void
assert_users (PgsSnapshot *snapshot,
              guint64      pfn,
              const User  *want,
              guint        n_want)
{
  g_autoptr(GArray) got = pgs_snapshot_find_frame_users (snapshot, pfn);

  g_test_message ("frame %" G_GUINT64_FORMAT ": %u users, %u expected", pfn, got->len, n_want);
  g_assert_cmpuint (got->len, ==, n_want);
  for (guint i = 0; i < n_want; i++)
    {
      g_assert_cmpint (g_array_index (got, PgsFrameUser, i).pid, ==, want[i].pid);
      g_assert_cmphex (g_array_index (got, PgsFrameUser, i).address, ==, want[i].address);
    }
}

typedef struct
{
  int         pid;
  const char *path;
  guint64     pages;
} Held;

static void
assert_range (PgsSnapshot *snapshot,
              guint64      first,
              guint64      end,
              const Held  *want,
              guint        n_want)
{
  g_autoptr(GArray) got = pgs_snapshot_sum_frame_range (snapshot, first, end);

  g_test_message ("frames [%" G_GUINT64_FORMAT ", %" G_GUINT64_FORMAT "): %u holdings, %u expected",
                  first, end, got->len, n_want);
  g_assert_cmpuint (got->len, ==, n_want);
  for (guint i = 0; i < n_want; i++)
    {
      const PgsFrameHolding *h = &g_array_index (got, PgsFrameHolding, i);

      g_assert_cmpint (h->pid, ==, want[i].pid);
      g_assert_cmpstr (h->path, ==, want[i].path);
      g_assert_cmpuint (h->pages, ==, want[i].pages);
    }
}

/*   pid 100  BASE:          5000 5001 5002 7000      (file, rising)
 *            BASE + 16 PS:  5001 -                   (the same frame again, then a hole)
 *   pid 200  BASE + 64 PS:  5002 5001 5000           (falling)
 *            BASE + 96 PS:  65539 65540              (in the index's second bucket)
 *   pid 300  BASE + 128 PS: 5119 5120 5000           (5120 = 80 x 64: a block boundary)
 *            BASE + 192 PS: 65539
 */
static void
test_hand (void)
{
  g_autoptr(PgsFixture) fx = pgs_fixture_new ();
  g_autoptr(PgsSnapshot) snapshot = NULL;
  guint64 a1[4] = { FX_PRESENT (5000), FX_PRESENT (5001), FX_PRESENT (5002), FX_PRESENT (7000) };
  guint64 a2[2] = { FX_PRESENT (5001), 0 };
  guint64 b[3] = { FX_PRESENT (5002), FX_PRESENT (5001), FX_PRESENT (5000) };
  guint64 b2[2] = { FX_PRESENT (65539), FX_PRESENT (65540) };
  guint64 c[3] = { FX_PRESENT (5119), FX_PRESENT (5120), FX_PRESENT (5000) };
  guint64 c2[1] = { FX_PRESENT (65539) };

  for (guint i = 0; i < 3; i++)
    pgs_fixture_add_process (fx, 100 * (i + 1), "p", 0, FALSE);
  pgs_fixture_add_mapping (fx, 100, BASE, BASE + 4 * PS, "r--p", "/lib/x.so");
  pgs_fixture_add_mapping (fx, 100, BASE + 16 * PS, BASE + 18 * PS, "r--p", "/lib/x.so");
  pgs_fixture_add_mapping (fx, 200, BASE + 64 * PS, BASE + 67 * PS, "r--p", "/lib/x.so");
  pgs_fixture_add_mapping (fx, 200, BASE + 96 * PS, BASE + 98 * PS, "rw-p", "[heap]");
  pgs_fixture_add_mapping (fx, 300, BASE + 128 * PS, BASE + 131 * PS, "rw-p", "[heap]");
  pgs_fixture_add_mapping (fx, 300, BASE + 192 * PS, BASE + 193 * PS, "rw-s", "/dev/shm/s");
  pgs_fixture_set_pages (fx, 100, BASE, a1, 4);
  pgs_fixture_set_pages (fx, 100, BASE + 16 * PS, a2, 2);
  pgs_fixture_set_pages (fx, 200, BASE + 64 * PS, b, 3);
  pgs_fixture_set_pages (fx, 200, BASE + 96 * PS, b2, 2);
  pgs_fixture_set_pages (fx, 300, BASE + 128 * PS, c, 3);
  pgs_fixture_set_pages (fx, 300, BASE + 192 * PS, c2, 1);
  pgs_fixture_set_frame (fx, 5000, 3, KPF (LRU));
  pgs_fixture_set_frame (fx, 5001, 3, KPF (LRU));
  pgs_fixture_set_frame (fx, 5002, 2, KPF (LRU));
  pgs_fixture_set_frame (fx, 5119, 1, KPF (LRU) | KPF (ANON));
  pgs_fixture_set_frame (fx, 5120, 1, KPF (LRU) | KPF (ANON));
  pgs_fixture_set_frame (fx, 7000, 1, KPF (LRU));
  pgs_fixture_set_frame (fx, 65539, 2, KPF (LRU) | KPF (ANON));
  pgs_fixture_set_frame (fx, 65540, 1, KPF (LRU) | KPF (ANON));
  pgs_fixture_commit (fx);
  snapshot = pgs_test_scan (fx, PGS_SCAN_MAPPINGS | PGS_SCAN_PAGES);

  assert_users (snapshot, 5000, (User[]) { { 100, BASE }, { 200, BASE + 66 * PS },
                                           { 300, BASE + 130 * PS } }, 3);
  assert_users (snapshot, 5001, (User[]) { { 100, BASE + PS }, { 100, BASE + 16 * PS },
                                           { 200, BASE + 65 * PS } }, 3);
  assert_users (snapshot, 5002, (User[]) { { 100, BASE + 2 * PS }, { 200, BASE + 64 * PS } }, 2);
  assert_users (snapshot, 7000, (User[]) { { 100, BASE + 3 * PS } }, 1);
  assert_users (snapshot, 5119, (User[]) { { 300, BASE + 128 * PS } }, 1);
  assert_users (snapshot, 5120, (User[]) { { 300, BASE + 129 * PS } }, 1);
  assert_users (snapshot, 65539, (User[]) { { 200, BASE + 96 * PS }, { 300, BASE + 192 * PS } }, 2);
  assert_users (snapshot, 65540, (User[]) { { 200, BASE + 97 * PS } }, 1);
  assert_users (snapshot, 0, NULL, 0);
  assert_users (snapshot, 4999, NULL, 0);
  assert_users (snapshot, 5003, NULL, 0);
  assert_users (snapshot, 5121, NULL, 0);
  assert_users (snapshot, 7001, NULL, 0);
  assert_users (snapshot, 65538, NULL, 0);
  assert_users (snapshot, 65541, NULL, 0);
  assert_users (snapshot, 65539 + 65536, NULL, 0);
  assert_users (snapshot, G_MAXUINT64, NULL, 0);

  /* What ranges of frames hold, by process and file, counted from the table above: pid
   * 100's two mappings of x.so are one holding; a frame three processes map counts three
   * times; 5119 and 5120 lie either side of a 64-frame block; 65539 is in the second
   * bucket. */
  assert_range (snapshot, 5000, 5003, (Held[]) { { 100, "/lib/x.so", 4 }, { 200, "/lib/x.so", 3 },
                                                 { 300, "[heap]", 1 } }, 3);
  assert_range (snapshot, 5001, 5121, (Held[]) { { 100, "/lib/x.so", 3 }, { 200, "/lib/x.so", 2 },
                                                 { 300, "[heap]", 2 } }, 3);
  assert_range (snapshot, 5120, 5121, (Held[]) { { 300, "[heap]", 1 } }, 1);
  assert_range (snapshot, 65536, 65541, (Held[]) { { 200, "[heap]", 2 }, { 300, "/dev/shm/s", 1 } }, 2);
  assert_range (snapshot, 0, G_MAXUINT64, (Held[]) { { 100, "/lib/x.so", 5 }, { 200, "/lib/x.so", 3 },
                                                     { 200, "[heap]", 2 }, { 300, "/dev/shm/s", 1 },
                                                     { 300, "[heap]", 3 } }, 5);
  assert_range (snapshot, 7001, 65539, NULL, 0);
  assert_range (snapshot, 5003, 5003, NULL, 0);
}

/* Frame 9000 mapped by 70 processes: those with an odd PID at the second page of a run
 * that starts at frame 8999, the others alone. The index finds the first ones under the
 * run at 8999, the others under 9000: the users come in PID order all the same. */
static void
test_many (void)
{
  g_autoptr(PgsFixture) fx = pgs_fixture_new ();
  g_autoptr(PgsSnapshot) snapshot = NULL;
  g_autoptr(GArray) got = NULL;

  for (int pid = 100; pid < 170; pid++)
    {
      guint64 start = BASE + (guint64) (pid % 7) * 16 * PS;
      guint64 pair[2] = { FX_PRESENT (8999), FX_PRESENT (9000) };
      guint64 one[1] = { FX_PRESENT (9000) };

      pgs_fixture_add_process (fx, pid, "m", 0, FALSE);
      pgs_fixture_add_mapping (fx, pid, start, start + 2 * PS, "r--s", "/dev/shm/m");
      if (pid % 2)
        pgs_fixture_set_pages (fx, pid, start, pair, 2);
      else
        pgs_fixture_set_pages (fx, pid, start, one, 1);
    }
  pgs_fixture_set_frame (fx, 8999, 35, KPF (LRU));
  pgs_fixture_set_frame (fx, 9000, 70, KPF (LRU));
  pgs_fixture_commit (fx);
  snapshot = pgs_test_scan (fx, PGS_SCAN_MAPPINGS | PGS_SCAN_PAGES);

  got = pgs_snapshot_find_frame_users (snapshot, 9000);
  g_assert_cmpuint (got->len, ==, 70);
  for (int pid = 100; pid < 170; pid++)
    {
      guint64 start = BASE + (guint64) (pid % 7) * 16 * PS;

      g_assert_cmpint (g_array_index (got, PgsFrameUser, pid - 100).pid, ==, pid);
      g_assert_cmphex (g_array_index (got, PgsFrameUser, pid - 100).address, ==,
                       start + (pid % 2 ? PS : 0));
    }
}

typedef struct
{
  int     pid;
  guint64 address;
  guint64 pfn;
} Page;

/* Frames are drawn from three ranges: the first one, and around the first two bucket
 * boundaries of the index (2^16 and 3 x 2^16 frames). */
static const guint64 ranges[3][2] = {
  { 1, 700 },
  { 65536 - 150, 65536 + 150 },
  { 3 * 65536 - 100, 3 * 65536 + 100 },
};

static guint64
random_frame (GRand *rand)
{
  const guint64 *range = ranges[g_rand_int_range (rand, 0, 3)];

  return range[0] + g_rand_int_range (rand, 0, range[1] - range[0] + 1);
}

/* Processes with mappings of random length whose pages are missing, at the next frame
 * (runs, some across block boundaries) or at a random one of few frames (sharing, and
 * the same frame twice in one process); every frame's users compared with a search of
 * the pages written. */
static void
test_random (gconstpointer data)
{
  guint32 seed = GPOINTER_TO_UINT (data);
  g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
  g_autoptr(PgsFixture) fx = pgs_fixture_new ();
  g_autoptr(PgsSnapshot) snapshot = NULL;
  g_autoptr(GArray) pages = g_array_new (FALSE, FALSE, sizeof (Page));
  g_autoptr(GHashTable) counts = g_hash_table_new (g_direct_hash, g_direct_equal);
  g_autoptr(GHashTable) check = g_hash_table_new (g_direct_hash, g_direct_equal);
  PgsFrameIndex *whole = NULL;
  PgsFrameIndex *parts = NULL;
  GHashTableIter iter;
  gpointer key, value;
  int n_procs = g_rand_int_range (rand, 1, 9);

  /* Pages are written in PID then address order: the order the users come in. */
  for (int i = 0; i < n_procs; i++)
    {
      int pid = 1000 + 7 * i;
      int n_maps = g_rand_int_range (rand, 1, 6);
      guint64 pfn = 0;

      pgs_fixture_add_process (fx, pid, "r", 0, FALSE);
      for (int m = 0; m < n_maps; m++)
        {
          guint64 start = BASE + (guint64) m * 256 * PS + g_rand_int_range (rand, 0, 64) * PS;
          guint n = g_rand_int_range (rand, 1, 150);
          g_autofree guint64 *entries = g_new0 (guint64, n);

          pgs_fixture_add_mapping (fx, pid, start, start + n * PS, "rw-p", "[heap]");
          for (guint k = 0; k < n; k++)
            {
              double x = g_rand_double (rand);
              Page page = { pid, start + k * PS, 0 };

              if (x < 0.15)
                continue;
              if (x < 0.7 && pfn > 0)
                pfn++;
              else
                pfn = random_frame (rand);
              page.pfn = pfn;
              entries[k] = FX_PRESENT (pfn);
              g_hash_table_insert (counts, GSIZE_TO_POINTER (pfn),
                                   GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (counts, GSIZE_TO_POINTER (pfn))) + 1));
              g_array_append_val (pages, page);
            }
          pgs_fixture_set_pages (fx, pid, start, entries, n);
        }
    }
  g_hash_table_iter_init (&iter, counts);
  while (g_hash_table_iter_next (&iter, &key, &value))
    pgs_fixture_set_frame (fx, GPOINTER_TO_SIZE (key), GPOINTER_TO_UINT (value), KPF (LRU) | KPF (ANON));
  pgs_fixture_commit (fx);
  snapshot = pgs_test_scan (fx, PGS_SCAN_MAPPINGS | PGS_SCAN_PAGES);

  /* Every frame mapped and its neighbours, as far as a block away. */
  g_hash_table_insert (check, GSIZE_TO_POINTER (0), NULL);
  g_hash_table_iter_init (&iter, counts);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    for (gsize pfn = GPOINTER_TO_SIZE (key) - MIN (GPOINTER_TO_SIZE (key), 70);
         pfn <= GPOINTER_TO_SIZE (key) + 70; pfn++)
      g_hash_table_insert (check, GSIZE_TO_POINTER (pfn), NULL);

  /* The same in parts of at most 100 pages (of 2^32 on a real machine): every process
   * that has frames lands in a part with others or in one of its own. */
  whole = pgs_frame_index_new (_pgs_snapshot_get_processes (snapshot));
  parts = pgs_frame_index_new_in_parts (_pgs_snapshot_get_processes (snapshot), 100);

  g_hash_table_iter_init (&iter, check);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    {
      guint64 pfn = GPOINTER_TO_SIZE (key);
      g_autoptr(GArray) got = pgs_snapshot_find_frame_users (snapshot, pfn);
      g_autoptr(GArray) in_whole = g_array_new (FALSE, FALSE, sizeof (PgsFramePage));
      g_autoptr(GArray) in_parts = g_array_new (FALSE, FALSE, sizeof (PgsFramePage));
      guint n = 0;

      pgs_frame_index_lookup (whole, pfn, in_whole);
      pgs_frame_index_lookup (parts, pfn, in_parts);
      g_assert_cmpuint (in_whole->len, ==, got->len);
      g_assert_cmpuint (in_parts->len, ==, got->len);
      for (guint i = 0; i < got->len; i++)
        {
          g_assert_cmpuint (g_array_index (in_parts, PgsFramePage, i).process, ==,
                            g_array_index (in_whole, PgsFramePage, i).process);
          g_assert_cmpuint (g_array_index (in_parts, PgsFramePage, i).page, ==,
                            g_array_index (in_whole, PgsFramePage, i).page);
        }

      for (guint i = 0; i < pages->len; i++)
        {
          const Page *page = &g_array_index (pages, Page, i);

          if (page->pfn != pfn)
            continue;
          g_assert_cmpuint (n, <, got->len);
          g_assert_cmpint (g_array_index (got, PgsFrameUser, n).pid, ==, page->pid);
          g_assert_cmphex (g_array_index (got, PgsFrameUser, n).address, ==, page->address);
          n++;
        }
      g_assert_cmpuint (got->len, ==, n);
    }

  /* Random ranges of frames: each process's pages in them, counted through the pages the
   * test wrote, against the sums by process and file (one file here: [heap]). */
  for (guint r = 0; r < 20; r++)
    {
      guint64 a = random_frame (rand), b = random_frame (rand);
      guint64 first = MIN (a, b), end = MAX (a, b) + g_rand_int_range (rand, 0, 3);
      g_autoptr(GArray) got = pgs_snapshot_sum_frame_range (snapshot, first, end);
      g_autoptr(GHashTable) want = g_hash_table_new (g_direct_hash, g_direct_equal);
      guint64 total = 0;

      for (guint i = 0; i < pages->len; i++)
        {
          const Page *page = &g_array_index (pages, Page, i);

          if (page->pfn >= first && page->pfn < end)
            g_hash_table_insert (want, GINT_TO_POINTER (page->pid),
                                 GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (want, GINT_TO_POINTER (page->pid))) + 1));
        }
      g_assert_cmpuint (got->len, ==, g_hash_table_size (want));
      for (guint i = 0; i < got->len; i++)
        {
          const PgsFrameHolding *h = &g_array_index (got, PgsFrameHolding, i);

          g_assert_cmpstr (h->path, ==, "[heap]");
          g_assert_cmpuint (h->pages, ==, GPOINTER_TO_UINT (g_hash_table_lookup (want, GINT_TO_POINTER (h->pid))));
          g_assert_true (i == 0 || g_array_index (got, PgsFrameHolding, i - 1).pid < h->pid);
          total += h->pages;
        }
      g_test_message ("frames [%" G_GUINT64_FORMAT ", %" G_GUINT64_FORMAT "): %" G_GUINT64_FORMAT " pages",
                      first, end, total);
    }
  pgs_frame_index_free (whole);
  pgs_frame_index_free (parts);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/pgs/frame-index/hand", test_hand);
  g_test_add_func ("/pgs/frame-index/many", test_many);
  for (guint seed = 1; seed <= 12; seed++)
    {
      g_autofree char *path = g_strdup_printf ("/pgs/frame-index/random/%u", seed);

      g_test_add_data_func (path, GUINT_TO_POINTER (seed), test_random);
    }
  return g_test_run ();
}
