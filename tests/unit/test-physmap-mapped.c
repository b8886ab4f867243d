/* test-physmap-mapped.c: the recorder's read of kpagecount only around mapped frames
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A fixture of 2000 frames, in blocks of 512 (pgs-physmap-read.c's MAPPED_BLOCK):
 *   block 0: frame 10 mapped (KPF_MMAP), count 2;
 *   block 1: frame 700 count 1 without the flag, and nothing mapped: its counts are not
 *            read in the mapped mode, so frame 700 counts 0 there (1 when read whole);
 *   block 2: frame 1030 count 3 without the flag beside frame 1100 mapped, count 1: the
 *            block is read, so both keep their counts;
 *   block 3: nothing (frame 1999 makes the files 2000 frames long).
 */

#include "config.h"

#include <fcntl.h>

#include <pagescope.h>

#include "pgs-fixture.h"
#include "pgs-kpage.h"
#include "pgs-physmap.h"
#include "pgs-procfs.h"

#define KPF(f) PGS_KPF_BIT (PGS_KPF_##f)

static guint32
count_of (PgsPhysMap *map,
          guint64     pfn)
{
  guint32 count = G_MAXUINT32;
  guint64 flags;

  g_assert_true (pgs_physmap_get_frame (map, pfn, &count, &flags));
  return count;
}

static void
test_mapped_counts (void)
{
  g_autoptr(PgsFixture) fx = pgs_fixture_new ();
  g_auto(PgsFd) root = -1;
  g_auto(PgsFd) counts = -1;
  g_auto(PgsFd) flags = -1;
  g_autoptr(GError) error = NULL;
  g_autoptr(PgsPhysMap) whole = NULL;
  g_autoptr(PgsPhysMap) mapped = NULL;

  pgs_fixture_set_frame (fx, 10, 2, KPF (MMAP) | KPF (LRU));
  pgs_fixture_set_frame (fx, 700, 1, KPF (LRU));
  pgs_fixture_set_frame (fx, 1030, 3, 0);
  pgs_fixture_set_frame (fx, 1100, 1, KPF (MMAP) | KPF (ANON));
  pgs_fixture_set_frame (fx, 1999, 0, 0);
  pgs_fixture_commit (fx);
  root = pgs_open_at (AT_FDCWD, pgs_fixture_get_root (fx), O_RDONLY | O_DIRECTORY, &error);
  g_assert_no_error (error);
  counts = pgs_open_at (root, "kpagecount", O_RDONLY, &error);
  g_assert_no_error (error);
  flags = pgs_open_at (root, "kpageflags", O_RDONLY, &error);
  g_assert_no_error (error);

  whole = pgs_physmap_read_fds_mapped (-1, counts, flags, FALSE, NULL, &error);
  g_assert_no_error (error);
  mapped = pgs_physmap_read_fds_mapped (-1, counts, flags, TRUE, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (pgs_physmap_get_n_frames (whole), ==, 2000);
  g_assert_cmpuint (pgs_physmap_get_n_frames (mapped), ==, 2000);

  g_assert_cmpuint (count_of (whole, 10), ==, 2);
  g_assert_cmpuint (count_of (mapped, 10), ==, 2);
  g_assert_cmpuint (count_of (whole, 700), ==, 1);
  g_assert_cmpuint (count_of (mapped, 700), ==, 0);
  g_assert_cmpuint (count_of (whole, 1030), ==, 3);
  g_assert_cmpuint (count_of (mapped, 1030), ==, 3);
  g_assert_cmpuint (count_of (mapped, 1100), ==, 1);
  g_assert_cmpuint (count_of (mapped, 1999), ==, 0);
  /* Flags are read whole either way. */
  for (guint64 pfn = 0; pfn < 2000; pfn++)
    {
      guint32 cw, cm;
      guint64 fw, fm;

      g_assert_true (pgs_physmap_get_frame (whole, pfn, &cw, &fw));
      g_assert_true (pgs_physmap_get_frame (mapped, pfn, &cm, &fm));
      g_assert_cmphex (fw, ==, fm);
      if (pfn != 700)
        g_assert_cmpuint (cw, ==, cm);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/pgs/physmap/mapped-counts", test_mapped_counts);
  return g_test_run ();
}
