/* test-notes.c: the words the app puts beside swap (its RAM in zram) and huge pages
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Fixture /proc and /sys trees as in tests/unit/test-system.c: zram0 holds 409600 bytes of
 * swapped data in 131072 bytes of RAM (mm_stat), so a process with 3 pages of swap costs an
 * estimated 3 · PS · 131072 / 409600 bytes of RAM (3932 for PS 4096), said to be an
 * estimate; machine-wide the RAM is exactly 131072. Swap on disk takes no RAM; on zram and
 * disk together a process's share cannot be told. Sizes are shown in bytes (the "bytes"
 * units) so every digit is checked. No display needed.
 */

#include "config.h"

#include <string.h>
#include <unistd.h>

#include "pgs-fixture.h"
#include "pgs-kpage.h"
#include "pgs-memory-notes.h"

#define BASE G_GUINT64_CONSTANT (0x10000000)
#define KPF(f) PGS_KPF_BIT (PGS_KPF_##f)

static guint64 PS;

typedef enum { ZRAM, DISK, BOTH } Swaps;

/* 100: one present page and 3 swapped; rollup AnonHugePages 2048 kB. 200: no swap. Its
 * first page's frame 512 is flagged KPF_THP. */
static PgsFixture *
build (Swaps swaps)
{
  PgsFixture *fx = pgs_fixture_new ();
  const guint64 e[] = { FX_PRESENT_EXCL (512), FX_SWAPPED (1, 5), FX_SWAPPED (1, 6), FX_SWAPPED (1, 7) };
  static const char *const lists[] = {
    [ZRAM] = "Filename\tType\tSize\tUsed\tPriority\n"
             "/dev/zram0                              partition\t262140\t12\t100\n",
    [DISK] = "Filename\tType\tSize\tUsed\tPriority\n"
             "/swapfile                               file\t1048572\t12\t-2\n",
    [BOTH] = "Filename\tType\tSize\tUsed\tPriority\n"
             "/dev/zram0                              partition\t262140\t12\t100\n"
             "/swapfile                               file\t1048572\t0\t-2\n",
  };

  pgs_fixture_add_process (fx, 100, "swapper", 0, FALSE);
  pgs_fixture_add_process (fx, 200, "idle", 0, FALSE);
  pgs_fixture_add_mapping (fx, 100, BASE, BASE + 4 * PS, "rw-p", "");
  pgs_fixture_set_pages (fx, 100, BASE, e, 4);
  pgs_fixture_set_frame (fx, 512, 1, KPF (ANON) | KPF (THP) | KPF (COMPOUND_HEAD));
  pgs_fixture_add_mapping (fx, 200, BASE, BASE + PS, "rw-p", "");
  pgs_fixture_write (fx, "100/smaps_rollup",
                     "Rss:  4 kB\nPss:  4 kB\nPrivate_Clean:  0 kB\nPrivate_Dirty:  4 kB\n"
                     "Swap:  12 kB\nAnonHugePages:  2048 kB\n", -1);
  pgs_fixture_write (fx, "swaps", lists[swaps], -1);
  pgs_fixture_write (fx, "sys/block/zram0/mm_stat",
                     "  409600   102400   131072        0   131072        2        0        1\n", -1);
  pgs_fixture_commit (fx);
  return fx;
}

/* "zram: 409600 of swap in 131072 of RAM (exact, mm_stat)", in the locale's digits. */
static char *
zram_system_text (void)
{
  g_autofree char *orig = pgs_units_format (PGS_UNITS_BYTES, 409600);
  g_autofree char *used = pgs_units_format (PGS_UNITS_BYTES, 131072);

  return g_strdup_printf ("zram: %s of swap in %s of RAM (exact, mm_stat)", orig, used);
}

static PgsSnapshot *
scan (PgsFixture *fx)
{
  g_autoptr(PgsScanner) scanner = pgs_scanner_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *sys = g_build_filename (pgs_fixture_get_root (fx), "sys", NULL);
  PgsSnapshot *snapshot;

  pgs_scanner_set_procfs_root (scanner, pgs_fixture_get_root (fx));
  pgs_scanner_set_flags (scanner, PGS_SCAN_MAPPINGS | PGS_SCAN_PAGES | PGS_SCAN_PHYSMAP);
  snapshot = pgs_scanner_scan (scanner, NULL, &error);
  g_assert_no_error (error);
  pgs_memory_notes_set_roots (pgs_fixture_get_root (fx), sys);
  return snapshot;
}

static void
test_zram (void)
{
  g_autoptr(PgsFixture) fx = build (ZRAM);
  g_autoptr(PgsSnapshot) snap = scan (fx);
  g_autofree char *note = pgs_memory_notes_swap (pgs_snapshot_lookup_pid (snap, 100), PGS_UNITS_BYTES);
  g_autofree char *swapped = pgs_units_format (PGS_UNITS_BYTES, 3 * PS);
  /* 3 · PS · 131072 / 409600, truncated: 3932 for PS 4096. */
  g_autofree char *ram = pgs_units_format (PGS_UNITS_BYTES, 3 * PS * 131072 / 409600);
  g_autofree char *expect = g_strdup_printf ("%s swapped, ≈ %s of RAM in zram (estimate: "
                                             "device ratio)", swapped, ram);
  g_autofree char *system = pgs_memory_notes_system_swap (PGS_UNITS_BYTES);
  g_autofree char *system_expect = zram_system_text ();

  g_assert_cmpstr (note, ==, expect);
  /* No swap: nothing to say. */
  g_assert_null (pgs_memory_notes_swap (pgs_snapshot_lookup_pid (snap, 200), PGS_UNITS_BYTES));
  /* Machine-wide: the device's own figures, exact. */
  g_assert_cmpstr (system, ==, system_expect);
}

static void
test_disk (void)
{
  g_autoptr(PgsFixture) fx = build (DISK);
  g_autoptr(PgsSnapshot) snap = scan (fx);
  g_autofree char *note = pgs_memory_notes_swap (pgs_snapshot_lookup_pid (snap, 100), PGS_UNITS_BYTES);
  g_autofree char *swapped = pgs_units_format (PGS_UNITS_BYTES, 3 * PS);
  g_autofree char *expect = g_strdup_printf ("%s swapped, to disk: it takes no RAM", swapped);

  g_assert_cmpstr (note, ==, expect);
  g_assert_null (pgs_memory_notes_system_swap (PGS_UNITS_BYTES));
}

static void
test_both (void)
{
  g_autoptr(PgsFixture) fx = build (BOTH);
  g_autoptr(PgsSnapshot) snap = scan (fx);
  g_autofree char *note = pgs_memory_notes_swap (pgs_snapshot_lookup_pid (snap, 100), PGS_UNITS_BYTES);
  g_autofree char *system = pgs_memory_notes_system_swap (PGS_UNITS_BYTES);
  g_autofree char *system_expect = zram_system_text ();

  /* Which device holds its pages is not known: no figure, and why. */
  g_assert_nonnull (strstr (note, "to zram and disk: its RAM cost cannot be told"));
  g_assert_null (strstr (note, "≈"));
  /* The zram device's own RAM is still exact. */
  g_assert_cmpstr (system, ==, system_expect);
}

static void
test_thp (void)
{
  g_autoptr(PgsFixture) fx = build (ZRAM);
  g_autoptr(PgsSnapshot) snap = scan (fx);
  PgsProcess *p = pgs_snapshot_lookup_pid (snap, 100);
  g_autofree char *both = pgs_memory_notes_thp (p, pgs_snapshot_get_physmap (snap), PGS_UNITS_BYTES);
  g_autofree char *rollup_only = pgs_memory_notes_thp (p, NULL, PGS_UNITS_BYTES);
  g_autofree char *page = pgs_units_format (PGS_UNITS_BYTES, PS);
  g_autofree char *huge = pgs_units_format (PGS_UNITS_BYTES, 2048 * 1024);
  g_autofree char *expect = NULL;

  /* 2048 kB from the rollup; one page (frame 512) flagged KPF_THP. */
  expect = g_strdup_printf ("Transparent huge pages: %s mapped whole (smaps_rollup) · "
                            "%s of its pages in THP or large-folio frames, mapped whole or in pieces (kpageflags)", huge, page);
  g_assert_cmpstr (both, ==, expect);
  g_free (expect);
  expect = g_strdup_printf ("Transparent huge pages: %s mapped whole (smaps_rollup)", huge);
  g_assert_cmpstr (rollup_only, ==, expect);
  /* 200 has no rollup and, without the map, no frames: nothing known, nothing said. */
  g_assert_null (pgs_memory_notes_thp (pgs_snapshot_lookup_pid (snap, 200), NULL, PGS_UNITS_BYTES));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  PS = (guint64) sysconf (_SC_PAGESIZE);

  g_test_add_func ("/pgs/ui/notes/zram", test_zram);
  g_test_add_func ("/pgs/ui/notes/disk", test_disk);
  g_test_add_func ("/pgs/ui/notes/both", test_both);
  g_test_add_func ("/pgs/ui/notes/thp", test_thp);
  return g_test_run ();
}
