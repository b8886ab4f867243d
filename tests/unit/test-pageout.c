/* test-pageout.c: PgsPageout's classification on a fixture tree, with a fake page-out
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The fake page-out does what the kernel does to a page it pages out: a present page mapped
 * once becomes a swap entry (anonymous) or nothing (a file page); a page mapped by others
 * stays. The test then plays the process: it brings pages back, and has "another reclaimer"
 * page one out again under a new entry. The expected figures are counted by hand from the
 * layout below (4 KiB pages assumed by the layout, checked at the start).
 *
 *   A  anon, 16 pages at 0x100000:
 *        0-9   present, mapped once      → paged out (swap 0:100+i)
 *        10-11 present, shared           → left (not measured, shared)
 *        12-13 already in swap (0:900+i) → left in swap
 *        14-15 nothing
 *      then: 0, 1, 2 present again; 3 in swap under 0:500; 12 present; 14 present (new)
 *      → touched 0,1,2,3,12,14 = 6 pages; stayed out 4-9, 13 = 7 pages; not measured 2
 *   B  file, 4 pages at 0x200000, present, mapped once → dropped; then 0 present again
 *      → touched 1 page (an upper bound: fault-around), stayed out 3
 *   C  anon, locked (VmFlags lo), 2 pages at 0x300000, present → refused: not measured 2
 */

#include "config.h"

#include <string.h>
#include <unistd.h>

#include <pagescope.h>

#include "pgs-fixture.h"

#define PID 4242
#define A 0x100000
#define B 0x200000
#define C 0x300000
#define PS 4096

typedef struct
{
  PgsFixture *fx;
  guint       calls;
  gboolean    gone;
} Fake;

static const char smaps[] =
  "00100000-00110000 rw-p 00000000 00:00 0 \n"
  "Rss:                  48 kB\n"
  "Private_Clean:         0 kB\n"
  "Private_Dirty:        40 kB\n"
  "Shared_Clean:          0 kB\n"
  "Shared_Dirty:          8 kB\n"
  "VmFlags: rd wr mr mw me ac \n"
  "00200000-00204000 r--p 00000000 08:01 1234                       /usr/lib/libfake.so\n"
  "Rss:                  16 kB\n"
  "Private_Clean:        16 kB\n"
  "Private_Dirty:         0 kB\n"
  "VmFlags: rd mr mw me \n"
  "00300000-00302000 rw-p 00000000 00:00 0 \n"
  "Rss:                   8 kB\n"
  "Private_Clean:         0 kB\n"
  "Private_Dirty:         8 kB\n"
  "VmFlags: rd wr mr mw me lo ac \n";

static guint64
read_entry (PgsFixture *fx,
            guint64     address)
{
  g_autofree char *path = g_strdup_printf ("%s/%d/pagemap", pgs_fixture_get_root (fx), PID);
  g_autofree char *data = NULL;
  gsize len;
  guint64 e;

  g_assert_true (g_file_get_contents (path, &data, &len, NULL));
  g_assert_cmpuint (len, >=, (address / PS + 1) * 8);
  memcpy (&e, data + address / PS * 8, 8);
  return e;
}

static gboolean
fake_pageout (gpointer       user_data,
              int            pid,
              const guint64 *starts,
              const guint64 *ends,
              guint          n_ranges,
              guint64       *advised_bytes,
              GCancellable  *cancellable,
              GError       **error)
{
  Fake *fake = user_data;

  g_assert_cmpint (pid, ==, PID);
  fake->calls++;
  if (fake->gone)
    {
      g_set_error_literal (error, PGS_ERROR, PGS_ERROR_PROCESS_GONE, "gone");
      return FALSE;
    }
  *advised_bytes = 0;
  for (guint r = 0; r < n_ranges; r++)
    {
      /* Ranges are whole pages inside one mapping. */
      g_assert_cmpuint (starts[r] % PS, ==, 0);
      g_assert_cmpuint (ends[r] % PS, ==, 0);
      g_assert_cmpuint (starts[r], <, ends[r]);
      g_assert_false (starts[r] >= C && starts[r] < C + 2 * PS);   /* the locked one: refused */
      for (guint64 a = starts[r]; a < ends[r]; a += PS)
        {
          guint64 e = read_entry (fake->fx, a);

          if ((e >> 63) && (e & (G_GUINT64_CONSTANT (1) << 56)))
            {
              guint64 out = (e & FX_FILE) ? 0 : FX_SWAPPED (0, 100 + (a - A) / PS);

              pgs_fixture_set_pages (fake->fx, PID, a, &out, 1);
            }
        }
      *advised_bytes += ends[r] - starts[r];
    }
  return TRUE;
}

static PgsFixture *
make_tree (void)
{
  PgsFixture *fx = pgs_fixture_new ();
  guint64 a[16] = { 0 };
  guint64 b[4];
  guint64 c[2] = { FX_PRESENT_EXCL (70), FX_PRESENT_EXCL (71) };

  pgs_fixture_add_process (fx, PID, "fake", 1000, FALSE);
  pgs_fixture_add_mapping (fx, PID, A, A + 16 * PS, "rw-p", "");
  pgs_fixture_add_mapping (fx, PID, B, B + 4 * PS, "r--p", "/usr/lib/libfake.so");
  pgs_fixture_add_mapping (fx, PID, C, C + 2 * PS, "rw-p", "");
  {
    g_autofree char *rel = g_strdup_printf ("%d/smaps", PID);

    pgs_fixture_write (fx, rel, smaps, -1);
  }
  for (guint i = 0; i < 10; i++)
    a[i] = FX_PRESENT_EXCL (10 + i);
  a[10] = FX_PRESENT (30);
  a[11] = FX_PRESENT (31);
  a[12] = FX_SWAPPED (0, 912);
  a[13] = FX_SWAPPED (0, 913);
  for (guint i = 0; i < 4; i++)
    b[i] = FX_PRESENT_EXCL (50 + i) | FX_FILE;
  pgs_fixture_set_pages (fx, PID, A, a, 16);
  pgs_fixture_set_pages (fx, PID, B, b, 4);
  pgs_fixture_set_pages (fx, PID, C, c, 2);
  pgs_fixture_commit (fx);
  return fx;
}

/* The process runs: what it touches comes back. */
static void
play_process (PgsFixture *fx)
{
  guint64 back[3] = { FX_PRESENT_EXCL (80), FX_PRESENT_EXCL (81), FX_PRESENT_EXCL (82) };
  guint64 again = FX_SWAPPED (0, 500);
  guint64 p12 = FX_PRESENT_EXCL (83);
  guint64 p14 = FX_PRESENT_EXCL (84);
  guint64 b0 = FX_PRESENT_EXCL (85) | FX_FILE;

  pgs_fixture_set_pages (fx, PID, A, back, 3);
  pgs_fixture_set_pages (fx, PID, A + 3 * PS, &again, 1);
  pgs_fixture_set_pages (fx, PID, A + 12 * PS, &p12, 1);
  pgs_fixture_set_pages (fx, PID, A + 14 * PS, &p14, 1);
  pgs_fixture_set_pages (fx, PID, B, &b0, 1);
}

static const PgsPageoutMapping *
mapping_at (PgsPageoutResult *r,
            guint64           start)
{
  for (guint i = 0; i < pgs_pageout_result_get_n_mappings (r); i++)
    if (pgs_pageout_result_get_mapping (r, i)->start == start)
      return pgs_pageout_result_get_mapping (r, i);
  g_assert_not_reached ();
}

static PgsPageout *
new_pageout (Fake     *fake,
             gboolean  swap)
{
  const int pid = PID;
  PgsPageout *po = pgs_pageout_new (&pid, 1);

  pgs_pageout_set_procfs_root (po, pgs_fixture_get_root (fake->fx));
  pgs_pageout_set_sysfs_root (po, "/nonexistent");
  pgs_pageout_set_swap (po, swap);
  pgs_pageout_set_func (po, fake_pageout, fake, NULL);
  return po;
}

static void
test_classify (void)
{
  g_autoptr(PgsFixture) fx = NULL;
  g_autoptr(PgsPageout) po = NULL;
  g_autoptr(GPtrArray) results = NULL;
  g_autoptr(GError) error = NULL;
  Fake fake = { 0 };
  PgsPageoutResult *r;
  const PgsPageoutMapping *m;

  if (sysconf (_SC_PAGESIZE) != PS)
    {
      g_test_skip ("the layout assumes 4 KiB pages");
      return;
    }
  fx = fake.fx = make_tree ();
  po = new_pageout (&fake, TRUE);
  g_assert_true (pgs_pageout_prepare (po, &error));
  g_assert_no_error (error);
  /* smaps: A's and B's private pages move (40 + 16 kB); A's shared 8 kB and C's 8 kB stay. */
  g_assert_cmpuint (pgs_pageout_get_bytes (po), ==, 56 * 1024);
  g_assert_cmpuint (pgs_pageout_get_left_bytes (po), ==, 16 * 1024);

  g_assert_true (pgs_pageout_page_out (po, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (fake.calls, >=, 1);
  play_process (fx);
  results = pgs_pageout_collect (po, 5000000, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (results->len, ==, 1);
  r = g_ptr_array_index (results, 0);

  m = mapping_at (r, A);
  g_assert_cmpuint (m->touched, ==, 6 * PS);
  g_assert_cmpuint (m->stayed_out, ==, 7 * PS);
  g_assert_cmpuint (m->not_measured, ==, 2 * PS);
  g_assert_cmpuint (m->shared, ==, 2 * PS);
  g_assert_cmpuint (m->bound, ==, PGS_PAGEOUT_EXACT);

  m = mapping_at (r, B);
  g_assert_cmpuint (m->touched, ==, 1 * PS);
  g_assert_cmpuint (m->stayed_out, ==, 3 * PS);
  g_assert_cmpuint (m->not_measured, ==, 0);
  g_assert_true (m->bound & PGS_PAGEOUT_FAULT_AROUND);

  m = mapping_at (r, C);
  g_assert_nonnull (m->refused);
  g_assert_cmpuint (m->not_paged, ==, 2 * PS);
  g_assert_cmpuint (m->touched + m->stayed_out, ==, 0);

  g_assert_cmpuint (pgs_pageout_result_get_touched (r), ==, 7 * PS);
  g_assert_cmpuint (pgs_pageout_result_get_stayed_out (r), ==, 10 * PS);
  g_assert_cmpuint (pgs_pageout_result_get_not_measured (r), ==, 4 * PS);
  g_assert_cmpuint (pgs_pageout_result_get_upper_bound (r), ==, 1 * PS);
  /* Moved by the page-out: A's 10 pages and B's 4. */
  g_assert_cmpuint (pgs_pageout_result_get_paged_out (r), ==, 14 * PS);

  /* Per page. */
  g_assert_cmpint (pgs_pageout_result_lookup_page (r, A), ==, PGS_PAGEOUT_PAGE_TOUCHED);
  g_assert_cmpint (pgs_pageout_result_lookup_page (r, A + 3 * PS), ==, PGS_PAGEOUT_PAGE_TOUCHED);
  g_assert_cmpint (pgs_pageout_result_lookup_page (r, A + 4 * PS), ==, PGS_PAGEOUT_PAGE_STAYED_OUT);
  g_assert_cmpint (pgs_pageout_result_lookup_page (r, A + 10 * PS), ==, PGS_PAGEOUT_PAGE_SHARED);
  g_assert_cmpint (pgs_pageout_result_lookup_page (r, A + 13 * PS), ==, PGS_PAGEOUT_PAGE_STAYED_OUT);
  g_assert_cmpint (pgs_pageout_result_lookup_page (r, A + 15 * PS), ==, PGS_PAGEOUT_PAGE_UNKNOWN);
  g_assert_cmpint (pgs_pageout_result_lookup_page (r, C + PS), ==, PGS_PAGEOUT_PAGE_NOT_PAGED);

  /* JSON: the method and the totals. */
  {
    g_autoptr(GString) out = g_string_new (NULL);
    g_autoptr(GPtrArray) cycles = g_ptr_array_new ();
    g_autofree char *touched = g_strdup_printf ("\"touched\":%d", 7 * PS);

    g_ptr_array_add (cycles, results);
    pgs_pageout_to_json (out, po, cycles, 1, NULL);
    g_assert_true (g_str_has_prefix (out->str, "{\"method\":\"pageout\""));
    g_assert_nonnull (strstr (out->str, touched));
    g_assert_nonnull (strstr (out->str, "\"complete\":true"));
  }
}

static void
count_runs (guint64        start,
            guint64        n_pages,
            PgsPageoutPage state,
            gpointer       user_data)
{
  guint64 *sums = user_data;

  sums[state] += n_pages;
}

static void
test_no_swap (void)
{
  g_autoptr(PgsFixture) fx = NULL;
  g_autoptr(PgsPageout) po = NULL;
  g_autoptr(GPtrArray) results = NULL;
  g_autoptr(GError) error = NULL;
  guint64 sums[PGS_PAGEOUT_PAGE_NO_SWAP + 1] = { 0 };
  Fake fake = { 0 };
  const PgsPageoutMapping *m;
  PgsPageoutResult *r;

  if (sysconf (_SC_PAGESIZE) != PS)
    {
      g_test_skip ("the layout assumes 4 KiB pages");
      return;
    }
  fx = fake.fx = make_tree ();
  po = new_pageout (&fake, FALSE);
  g_assert_true (pgs_pageout_page_out (po, NULL, &error));
  g_assert_no_error (error);
  results = pgs_pageout_collect (po, 1000000, &error);
  g_assert_no_error (error);
  r = g_ptr_array_index (results, 0);
  g_assert_false (pgs_pageout_result_get_swap (r));

  /* A is not paged out: its 10 private pages cannot be measured without swap, its 2 shared
   * ones are shared, its 2 swapped ones unknown. B, a file, is measured: nothing touched. */
  m = mapping_at (r, A);
  g_assert_cmpuint (m->no_swap, ==, 10 * PS);
  g_assert_cmpuint (m->shared, ==, 2 * PS);
  g_assert_cmpuint (m->touched + m->stayed_out, ==, 0);
  m = mapping_at (r, B);
  g_assert_cmpuint (m->stayed_out, ==, 4 * PS);

  pgs_pageout_result_foreach_run (r, count_runs, sums);
  g_assert_cmpuint (sums[PGS_PAGEOUT_PAGE_NO_SWAP], ==, 10);
  g_assert_cmpuint (sums[PGS_PAGEOUT_PAGE_SHARED], ==, 2);
  g_assert_cmpuint (sums[PGS_PAGEOUT_PAGE_STAYED_OUT], ==, 4);
  g_assert_cmpuint (sums[PGS_PAGEOUT_PAGE_NOT_PAGED], ==, 2);
  g_assert_cmpuint (sums[PGS_PAGEOUT_PAGE_TOUCHED], ==, 0);
}

static void
test_gone (void)
{
  g_autoptr(PgsFixture) fx = NULL;
  g_autoptr(PgsPageout) po = NULL;
  g_autoptr(GError) error = NULL;
  Fake fake = { 0 };

  fx = fake.fx = make_tree ();
  fake.gone = TRUE;
  po = new_pageout (&fake, TRUE);
  g_assert_false (pgs_pageout_page_out (po, NULL, &error));
  g_assert_error (error, PGS_ERROR, PGS_ERROR_PROCESS_GONE);
  g_assert_nonnull (strstr (error->message, "PID 4242 (fake) exited during the page-out"));
  g_assert_cmpstr (pgs_pageout_get_gone (po)[0], ==, "PID 4242 (fake)");
}

static void
test_refuses (void)
{
  g_autoptr(PgsFixture) fx = pgs_fixture_new ();
  g_autoptr(GError) error = NULL;
  const int pid = 4243;
  g_autoptr(PgsPageout) po = pgs_pageout_new (&pid, 1);

  pgs_fixture_add_process (fx, pid, "kworker/0:1", 0, TRUE);
  pgs_pageout_set_procfs_root (po, pgs_fixture_get_root (fx));
  g_assert_false (pgs_pageout_prepare (po, &error));
  g_assert_error (error, PGS_ERROR, PGS_ERROR_KERNEL_THREAD);
  g_clear_error (&error);

  {
    const int missing = 4244;
    g_autoptr(PgsPageout) none = pgs_pageout_new (&missing, 1);

    pgs_pageout_set_procfs_root (none, pgs_fixture_get_root (fx));
    g_assert_false (pgs_pageout_prepare (none, &error));
    g_assert_error (error, PGS_ERROR, PGS_ERROR_NO_SUCH_PROCESS);
  }
}

/* /proc/swaps as the kernel writes it, a trailing newline included: swap is found and its
 * free bytes summed ((1048572 - 1024) + (2048 - 4096 → 0) KiB). */
static void
test_swaps (void)
{
  g_autoptr(PgsFixture) fx = NULL;
  g_autoptr(PgsPageout) po = NULL;
  g_autoptr(GError) error = NULL;
  Fake fake = { 0 };
  const int pid = PID;

  fx = fake.fx = make_tree ();
  pgs_fixture_write (fx, "swaps",
                     "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n"
                     "/dev/zram0                              partition\t1048572\t\t1024\t\t100\n"
                     "/swapfile                               file\t\t2048\t\t4096\t\t-2\n", -1);
  po = pgs_pageout_new (&pid, 1);
  pgs_pageout_set_procfs_root (po, pgs_fixture_get_root (fx));
  pgs_pageout_set_sysfs_root (po, "/nonexistent");
  pgs_pageout_set_func (po, fake_pageout, &fake, NULL);
  g_assert_true (pgs_pageout_prepare (po, &error));
  g_assert_no_error (error);
  g_assert_true (pgs_pageout_get_swap (po));
  g_assert_cmpuint (pgs_pageout_get_swap_free (po), ==, (1048572 - 1024) * G_GUINT64_CONSTANT (1024));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/pgs/pageout/classify", test_classify);
  g_test_add_func ("/pgs/pageout/no-swap", test_no_swap);
  g_test_add_func ("/pgs/pageout/gone", test_gone);
  g_test_add_func ("/pgs/pageout/refuses", test_refuses);
  g_test_add_func ("/pgs/pageout/swaps", test_swaps);
  return g_test_run ();
}
