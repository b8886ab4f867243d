/* test-snapshot-live.c: this machine's scan saved and loaded back unchanged
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every field of every process (pages, map counts, mappings) and every frame of the
 * physical map read back equal; the size of the file and the times are reported.
 */

#include "config.h"

#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>
#include <pagescope.h>

#include "../common/pgs-snapshot-assert.h"

static void
test_live_round_trip (void)
{
  g_autoptr(PgsScanner) scanner = pgs_scanner_new ();
  g_autoptr(PgsSnapshot) snap = NULL;
  g_autoptr(PgsSnapshot) loaded = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("pgs-snaplive-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "live.pgsnap", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFileInfo) info = NULL;
  gint64 t0, t1, t2;

  pgs_scanner_set_flags (scanner, PGS_SCAN_MAPPINGS | PGS_SCAN_PAGES | PGS_SCAN_PHYSMAP);
  snap = pgs_scanner_scan (scanner, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (pgs_snapshot_is_privileged (snap));
  g_assert_nonnull (pgs_snapshot_get_physmap (snap));
  g_assert_nonnull (pgs_snapshot_get_boot_id (snap));
  g_assert_cmpuint (strlen (pgs_snapshot_get_boot_id (snap)), ==, 36);

  t0 = g_get_monotonic_time ();
  g_assert_true (pgs_snapshot_save (snap, file, NULL, &error));
  g_assert_no_error (error);
  t1 = g_get_monotonic_time ();
  loaded = pgs_snapshot_load (file, NULL, &error);
  g_assert_no_error (error);
  t2 = g_get_monotonic_time ();

  info = g_file_query_info (file, G_FILE_ATTRIBUTE_STANDARD_SIZE, 0, NULL, NULL);
  g_test_message ("%u processes, %" G_GUINT64_FORMAT " frames: %" G_GOFFSET_FORMAT
                  " bytes, saved in %.3f s, loaded in %.3f s",
                  pgs_snapshot_get_n_processes (snap),
                  pgs_physmap_get_n_frames (pgs_snapshot_get_physmap (snap)),
                  g_file_info_get_size (info), (t1 - t0) / 1e6, (t2 - t1) / 1e6);
  pgs_assert_snapshots_equal (snap, loaded);

  /* The pictures too: the flag map uses the kernel counters (meminfo, zoneinfo) kept with it. */
  for (PgsView view = PGS_VIEW_SHARING; view <= PGS_VIEW_FLAGS; view++)
    {
      g_autoptr(PgsRenderer) live = pgs_renderer_new (snap, view);
      g_autoptr(PgsRenderer) file_r = pgs_renderer_new (loaded, view);
      g_autofree char *a = g_build_filename (dir, "a.png", NULL);
      g_autofree char *b = g_build_filename (dir, "b.png", NULL);
      g_autofree char *da = NULL, *db = NULL;
      gsize la, lb;

      g_assert_true (pgs_renderer_write_png (live, a, 512, 384, TRUE, &error));
      g_assert_true (pgs_renderer_write_png (file_r, b, 512, 384, TRUE, &error));
      g_assert_true (g_file_get_contents (a, &da, &la, NULL));
      g_assert_true (g_file_get_contents (b, &db, &lb, NULL));
      g_assert_cmpmem (da, la, db, lb);
      g_unlink (a);
      g_unlink (b);
    }

  g_unlink (path);
  g_rmdir (dir);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  if (geteuid () != 0)
    {
      g_print ("1..0 # SKIP needs root for the physical map\n");
      return 77;
    }
  g_test_add_func ("/pgs/snapshot-file/live-round-trip", test_live_round_trip);
  return g_test_run ();
}
