/* test-scanner-input.c: the scanner on damaged, vanishing and unreadable input, on
 * fixture trees with hand-worked numbers
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every expected figure below is worked out in the comment beside it from the layout the test
 * builds, with PS the page size (4096 on x86-64). The shared steps are in scanner-fixture.c.
 */

#include "config.h"

#include <pwd.h>
#include <string.h>
#include <glib/gstdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include <pagescope.h>

#include "pgs-fixture.h"
#include "pgs-kpage.h"
#include "scanner-fixture.h"

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

  g_test_add_func ("/pgs/scanner/malformed-and-truncated", test_malformed_and_truncated);
  g_test_add_func ("/pgs/scanner/exit-mid-scan", test_exit_mid_scan);
  g_test_add_func ("/pgs/scanner/exiting-not-kthread", test_exiting_not_kthread);
  g_test_add_func ("/pgs/scanner/rss-above-vss", test_rss_above_vss);
  g_test_add_func ("/pgs/scanner/unprivileged-rollup", test_unprivileged_rollup);
  g_test_add_func ("/pgs/scanner/pfn-hidden", test_pfn_hidden);
  g_test_add_func ("/pgs/scanner/unreadable-files", test_unreadable_files);
  g_test_add_func ("/pgs/scanner/missing-root", test_missing_root);
  g_test_add_func ("/pgs/scanner/display-text", test_display_text);

  return g_test_run ();
}
