/* test-system.c: pagescope-cli system on fixture /proc and /sys trees
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * zram0 is swap and holds 409600 bytes of data in 131072 bytes of RAM; zram1 is not swap.
 * Process 100 has 3 pages swapped out: its swap costs an estimated
 * 3 · PS · 131072 / 409600 bytes of RAM (3932 for PS 4096), machine-wide the swap costs
 * exactly 131072. It has 2048 kB of anonymous huge pages and 5 merged KSM pages.
 */

#include "config.h"

#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib/gstdio.h>
#include <pagescope.h>

#include "pgs-fixture.h"
#include "pgs-kpage.h"
#include "pgs-test-json.h"

#define BASE G_GUINT64_CONSTANT (0x10000000)

static guint64 PS;

static PgsFixture *
build (gboolean disk_too)
{
  PgsFixture *fx = pgs_fixture_new ();
  const guint64 e[] = { FX_PRESENT_EXCL (40), FX_SWAPPED (1, 5), FX_SWAPPED (1, 6), FX_SWAPPED (1, 7) };

  pgs_fixture_add_process (fx, 100, "swapper", 0, FALSE);
  pgs_fixture_add_process (fx, 200, "idle", 0, FALSE);
  pgs_fixture_add_mapping (fx, 100, BASE, BASE + 4 * PS, "rw-p", "");
  pgs_fixture_set_pages (fx, 100, BASE, e, 4);
  pgs_fixture_set_frame (fx, 40, 1, PGS_KPF_BIT (PGS_KPF_ANON));
  /* A whole rollup (so the scanner takes its THP lines too): 2048 kB anonymous, 4096 kB
   * shmem THP, 6144 kB in all. */
  pgs_fixture_write (fx, "100/smaps_rollup",
                     "Rss:  4 kB\nPss:  4 kB\nPrivate_Clean:  0 kB\nPrivate_Dirty:  4 kB\n"
                     "Swap:  12 kB\nAnonHugePages:  2048 kB\nShmemPmdMapped:  4096 kB\n", -1);
  pgs_fixture_write (fx, "100/ksm_stat", "ksm_rmap_items 9\nksm_zero_pages 0\n"
                                         "ksm_merging_pages 5\nksm_process_profit 19624\n", -1);
  pgs_fixture_write (fx, "swaps",
                     disk_too ? "Filename\tType\tSize\tUsed\tPriority\n"
                                "/dev/zram0                              partition\t262140\t12\t100\n"
                                "/swap\\040file                           file\t1048572\t0\t-2\n"
                              : "Filename\tType\tSize\tUsed\tPriority\n"
                                "/dev/zram0                              partition\t262140\t12\t100\n",
                     -1);
  pgs_fixture_write (fx, "meminfo", "MemTotal: 1000 kB\nAnonHugePages:    4096 kB\n"
                                    "ShmemHugePages:        0 kB\nFileHugePages:  2048 kB\n", -1);
  pgs_fixture_write (fx, "sys/block/zram0/mm_stat",
                     "  409600   102400   131072        0   131072        2        0        1        0\n", -1);
  pgs_fixture_write (fx, "sys/block/zram1/mm_stat", "4096 100 8192 0 8192\n", -1);
  pgs_fixture_write (fx, "sys/block/vda/size", "100\n", -1);
  pgs_fixture_write (fx, "sys/kernel/mm/ksm/run", "1\n", -1);
  pgs_fixture_write (fx, "sys/kernel/mm/ksm/pages_shared", "10\n", -1);
  pgs_fixture_write (fx, "sys/kernel/mm/ksm/pages_sharing", "30\n", -1);
  pgs_fixture_write (fx, "sys/kernel/mm/ksm/general_profit", "100000\n", -1);
  pgs_fixture_commit (fx);
  return fx;
}

static int
run_system (PgsFixture  *fx,
            char       **out)
{
  g_autofree char *sys = g_build_filename (pgs_fixture_get_root (fx), "sys", NULL);
  const char *argv[] = { g_getenv ("PAGESCOPE_CLI"), "system", "--json", "--procfs",
                         pgs_fixture_get_root (fx), "--sysfs", sys, NULL };
  g_autoptr(GError) error = NULL;
  int status = 0;

  g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, out, NULL, &status,
                &error);
  g_assert_no_error (error);
  g_assert_true (WIFEXITED (status));
  if (**out != '\0')
    pgs_test_assert_json (*out);
  return WEXITSTATUS (status);
}

static void
test_zram_swap (void)
{
  g_autoptr(PgsFixture) fx = build (FALSE);
  g_autofree char *out = NULL;
  g_autofree char *expect = NULL;

  g_assert_cmpint (run_system (fx, &out), ==, 0);
  g_assert_nonnull (strstr (out, "{\"device\":\"/dev/zram0\",\"type\":\"partition\",\"size\":268431360,"
                                 "\"used\":12288,\"priority\":100,\"zram\":\"zram0\"}"));
  g_assert_nonnull (strstr (out, "{\"device\":\"zram0\",\"swap\":true,\"orig_data_size\":409600,"
                                 "\"compr_data_size\":102400,\"mem_used_total\":131072,"
                                 "\"mem_limit\":0,\"mem_used_max\":131072,\"same_pages\":2,"
                                 "\"huge_pages\":1}"));
  g_assert_nonnull (strstr (out, "{\"device\":\"zram1\",\"swap\":false,"));
  /* Only zram0 is swap: its RAM, not zram1's. */
  g_assert_nonnull (strstr (out, "\"swap_ram\":131072,"));
  g_assert_nonnull (strstr (out, "\"ksm\":{\"run\":1,\"pages_shared\":10,\"pages_sharing\":30,"));
  expect = g_strdup_printf ("\"saved\":%" G_GUINT64_FORMAT ",\"general_profit\":100000}", 30 * PS);
  g_assert_nonnull (strstr (out, expect));
  g_assert_nonnull (strstr (out, "\"thp\":{\"anon\":4194304,\"shmem\":0,\"file\":2097152}"));
  g_clear_pointer (&expect, g_free);
  expect = g_strdup_printf ("{\"pid\":100,\"name\":\"swapper\",\"user\":\"root\",\"swap\":%"
                            G_GUINT64_FORMAT ",\"swap_ram_estimate\":%" G_GUINT64_FORMAT
                            ",\"swap_ram_unknown_reason\":null,\"anon_huge\":2097152,\"thp\":6291456,"
                            "\"ksm_rmap_items\":9,\"ksm_merging_pages\":5,"
                            "\"ksm_process_profit\":19624}",
                            3 * PS, 3 * PS * 131072 / 409600);
  g_assert_nonnull (strstr (out, expect));
  /* Process 200 has nothing of the sort: not listed. */
  g_assert_null (strstr (out, "\"pid\":200"));
}

static void
test_zram_and_disk (void)
{
  g_autoptr(PgsFixture) fx = build (TRUE);
  g_autofree char *out = NULL;

  g_assert_cmpint (run_system (fx, &out), ==, 0);
  /* The octal escape of /proc/swaps undone. */
  g_assert_nonnull (strstr (out, "\"device\":\"/swap file\",\"type\":\"file\""));
  /* Machine-wide still exact; per process not knowable. */
  g_assert_nonnull (strstr (out, "\"swap_ram\":131072,"));
  g_assert_nonnull (strstr (out, "\"swap_ram_estimate\":null,\"swap_ram_unknown_reason\":\"swap is on zram and on other devices"));
}

static void
test_parsers (void)
{
  PgsZramStat st;
  PgsKsmProcess k;
  guint64 v = 0;
  g_autoptr(GError) error = NULL;
  const char old[] = "4096 100 8192 0 8192\n";
  const char bad[] = "4096 100\n";
  const char rollup[] = "Rss: 10 kB\nAnonHugePages:\t   8 kB\nSwap: x kB\n";

  g_assert_true (pgs_zram_parse_mm_stat (old, strlen (old), &st, &error));
  g_assert_cmpuint (st.orig_data_size, ==, 4096);
  g_assert_cmpuint (st.mem_used_total, ==, 8192);
  g_assert_cmpuint (st.huge_pages, ==, 0);
  g_assert_false (pgs_zram_parse_mm_stat (bad, strlen (bad), &st, &error));
  g_assert_error (error, PGS_ERROR, PGS_ERROR_MALFORMED);

  g_assert_true (pgs_kb_field (rollup, strlen (rollup), "AnonHugePages", &v));
  g_assert_cmpuint (v, ==, 8192);
  g_assert_false (pgs_kb_field (rollup, strlen (rollup), "Swap", &v));
  g_assert_false (pgs_kb_field (rollup, strlen (rollup), "Anon", &v));

  g_assert_true (pgs_ksm_parse_process ("ksm_rmap_items 3\n", 17, &k));
  g_assert_cmpint (k.rmap_items, ==, 3);
  g_assert_cmpint (k.merging_pages, ==, -1);
  g_assert_false (pgs_ksm_parse_process ("garbage\n", 8, &k));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  PS = (guint64) sysconf (_SC_PAGESIZE);

  g_test_add_func ("/pgs/system/zram-swap", test_zram_swap);
  g_test_add_func ("/pgs/system/zram-and-disk", test_zram_and_disk);
  g_test_add_func ("/pgs/system/parsers", test_parsers);
  return g_test_run ();
}
