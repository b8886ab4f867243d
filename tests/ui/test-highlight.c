/* test-highlight.c: a file's frames as the physical maps' highlight, and its caption
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A fixture library /usr/lib/libz.so mapped by processes 10, 11 and 12: its text in frames 40
 * and 41 (shared by all three), each process's data page in its own frame (42, 43, 44). Its
 * frame set is {40, 41, 42, 43, 44}, five frames. Where the frame numbers are hidden (pagemap
 * read without root gives PFN 0), where no pages were scanned and where nothing maps the
 * path, the set is empty and the caption says why. No display needed.
 */

#include "config.h"

#include <string.h>
#include <unistd.h>

#include "pgs-fixture.h"
#include "pgs-highlight.h"
#include "pgs-kpage.h"
#include "pgs-units.h"

#define BASE G_GUINT64_CONSTANT (0x10000000)
#define KPF(f) PGS_KPF_BIT (PGS_KPF_##f)
#define LIBZ "/usr/lib/libz.so"

static guint64 PS;

/* @hidden: every present page with frame 0, as pagemap shows them without root. */
static PgsFixture *
build (gboolean hidden)
{
  PgsFixture *fx = pgs_fixture_new ();

  /* As a normal user sees /proc: no kpagecount or kpageflags either. */
  pgs_fixture_set_unprivileged (fx, hidden);
  for (int pid = 10; pid <= 12; pid++)
    {
      const guint64 text[] = { FX_PRESENT (hidden ? 0 : 40) | FX_FILE,
                               FX_PRESENT (hidden ? 0 : 41) | FX_FILE };
      const guint64 data[] = { FX_PRESENT_EXCL (hidden ? 0 : 42 + (pid - 10)) };

      pgs_fixture_add_process (fx, pid, "user", 0, FALSE);
      pgs_fixture_add_mapping (fx, pid, BASE, BASE + 2 * PS, "r-xp", LIBZ);
      pgs_fixture_set_pages (fx, pid, BASE, text, 2);
      pgs_fixture_add_mapping (fx, pid, BASE + 2 * PS, BASE + 3 * PS, "rw-p", LIBZ);
      pgs_fixture_set_pages (fx, pid, BASE + 2 * PS, data, 1);
    }
  pgs_fixture_set_frame (fx, 40, 3, KPF (LRU) | KPF (MMAP));
  pgs_fixture_set_frame (fx, 41, 3, KPF (LRU) | KPF (MMAP));
  for (guint64 pfn = 42; pfn <= 44; pfn++)
    pgs_fixture_set_frame (fx, pfn, 1, KPF (ANON) | KPF (LRU));
  pgs_fixture_commit (fx);
  /* Without root the figures come from the kernel's rollup (3 pages resident, 1 private). */
  for (int pid = 10; hidden && pid <= 12; pid++)
    {
      g_autofree char *name = g_strdup_printf ("%d/smaps_rollup", pid);
      g_autofree char *rollup = g_strdup_printf ("Rss: %" G_GUINT64_FORMAT " kB\n"
                                                 "Pss: %" G_GUINT64_FORMAT " kB\n"
                                                 "Private_Clean: 0 kB\n"
                                                 "Private_Dirty: %" G_GUINT64_FORMAT " kB\n"
                                                 "Swap: 0 kB\n",
                                                 3 * PS / 1024, 2 * PS / 1024, PS / 1024);

      pgs_fixture_write (fx, name, rollup, -1);
    }
  return fx;
}

static PgsSnapshot *
scan (PgsFixture   *fx,
      PgsScanFlags  flags)
{
  g_autoptr(PgsScanner) scanner = pgs_scanner_new ();
  g_autoptr(GError) error = NULL;
  PgsSnapshot *snapshot;

  pgs_scanner_set_procfs_root (scanner, pgs_fixture_get_root (fx));
  pgs_scanner_set_flags (scanner, flags);
  snapshot = pgs_scanner_scan (scanner, NULL, &error);
  g_assert_no_error (error);
  return snapshot;
}

static void
test_frames (void)
{
  g_autoptr(PgsFixture) fx = build (FALSE);
  g_autoptr(PgsSnapshot) snap = scan (fx, PGS_SCAN_MAPPINGS | PGS_SCAN_PAGES);
  g_autoptr(PgsHighlight) h = pgs_highlight_new_for_file (snap, LIBZ);
  const guint64 expect[] = { 40, 41, 42, 43, 44 };
  g_autofree char *five = pgs_units_format_count (5);
  g_autofree char *caption = g_strdup_printf ("frames of libz.so highlighted (%s)", five);
  const guint64 *pfns;
  gsize size;

  pfns = g_bytes_get_data (pgs_highlight_get_frames (h), &size);
  g_assert_cmpuint (size, ==, sizeof expect);
  g_assert_cmpuint (pgs_highlight_get_n_frames (h), ==, 5);
  for (guint i = 0; i < G_N_ELEMENTS (expect); i++)
    g_assert_cmpuint (pfns[i], ==, expect[i]);
  g_assert_cmpstr (pgs_highlight_get_path (h), ==, LIBZ);
  g_assert_cmpstr (pgs_highlight_get_name (h), ==, "libz.so");
  g_assert_cmpstr (pgs_highlight_get_caption (h), ==, caption);
  g_assert_null (pgs_highlight_get_problem (h));
}

static void
test_hidden (void)
{
  g_autoptr(PgsFixture) fx = build (TRUE);
  g_autoptr(PgsSnapshot) snap = scan (fx, PGS_SCAN_MAPPINGS | PGS_SCAN_PAGES);
  g_autoptr(PgsHighlight) h = pgs_highlight_new_for_file (snap, LIBZ);
  const char *problem = "Frame numbers are hidden without root: unlock to see the frames "
                        "of 3 processes";
  g_autofree char *caption = g_strdup_printf ("no frames of libz.so to highlight: %s", problem);

  g_assert_cmpuint (pgs_highlight_get_n_frames (h), ==, 0);
  g_assert_cmpstr (pgs_highlight_get_problem (h), ==, problem);
  g_assert_cmpstr (pgs_highlight_get_caption (h), ==, caption);
}

static void
test_no_pages (void)
{
  g_autoptr(PgsFixture) fx = build (FALSE);
  g_autoptr(PgsSnapshot) snap = scan (fx, PGS_SCAN_MAPPINGS);
  g_autoptr(PgsHighlight) h = pgs_highlight_new_for_file (snap, LIBZ);
  g_autoptr(PgsHighlight) none = pgs_highlight_new_for_file (snap, "/tmp/gone (deleted)");

  g_assert_cmpuint (pgs_highlight_get_n_frames (h), ==, 0);
  g_assert_cmpstr (pgs_highlight_get_problem (h), ==,
                   "The pages of 3 processes mapping it were not read");
  g_assert_true (pgs_highlight_needs_pages (h));
  g_assert_false (pgs_highlight_needs_pages (none));
  /* Nothing maps it: said so; the name keeps " (deleted)". */
  g_assert_cmpstr (pgs_highlight_get_name (none), ==, "gone (deleted)");
  g_assert_cmpstr (pgs_highlight_get_caption (none), ==,
                   "no frames of gone (deleted) to highlight: No process maps this file in "
                   "this scan");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  PS = (guint64) sysconf (_SC_PAGESIZE);

  g_test_add_func ("/pgs/ui/highlight/frames", test_frames);
  g_test_add_func ("/pgs/ui/highlight/hidden", test_hidden);
  g_test_add_func ("/pgs/ui/highlight/no-pages", test_no_pages);
  return g_test_run ();
}
