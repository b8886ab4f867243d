/* test-models.c: no view computes its model on the main thread
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A fixture /proc of 1,000 processes, each mapping 20 of 400 libraries (4 pages each) and
 * 4 pages of its own, is scanned with its pages and saved; the window opens the file and
 * switches to Libraries, then to Groups. A 5 ms timeout on the main loop records the main
 * thread's own CPU time (CLOCK_THREAD_CPUTIME_ID) between two of its callbacks: listing
 * the files (librank over every mapping) and grouping (every page, for the private
 * figure) must happen in workers, leaving no gap of 50 ms of work on the main thread.
 * Runs under xvfb-run; skips (77) without a display.
 */

#include "config.h"

#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "pgs-fixture.h"
#include "pgs-group-view.h"
#include "pgs-kpage.h"
#include "pgs-library-view.h"
#include "pgs-ui-util.h"

#define N_PROCESSES 1000
#define N_LIBRARIES 400
#define N_MAPPED    20
#define LIB_PAGES   4
#define OWN_PAGES   4
#define BASE        G_GUINT64_CONSTANT (0x10000000)
#define TICK_MS     5
/* Issue 17's figure. The models built on the main thread took 101-113 ms; in workers, with
 * tables filled 8 rows an iteration, the median of three rounds' busiest gap is 17.7-22.5 ms
 * on an idle machine (ten runs). What remains is GTK 4.8 building a screenful of rows (each
 * cell of a GtkBuilderListItemFactory a small builder parse), up to 63 ms in one round with
 * four builds beside it: the median keeps such a round from deciding. */
#define LIMIT_MS    50

static PgsApplication *app;
static PgsWindow *window;
static char *snapshot_path;

typedef struct
{
  gint64 last_cpu;
  gint64 max_cpu;    /* the main thread's CPU time in its busiest gap, us */
} Ticker;

static gint64
thread_cpu_time (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * G_GINT64_CONSTANT (1000000) + ts.tv_nsec / 1000;
}

static gboolean
tick (gpointer data)
{
  Ticker *ticker = data;
  gint64 cpu = thread_cpu_time ();

  ticker->max_cpu = MAX (ticker->max_cpu, cpu - ticker->last_cpu);
  if (cpu - ticker->last_cpu > 20000)
    g_test_message ("a gap of %.1f ms on the main thread's CPU", (cpu - ticker->last_cpu) / 1000.0);
  ticker->last_cpu = cpu;
  return G_SOURCE_CONTINUE;
}

/* Library l of process i: each process maps N_MAPPED different ones. */
static guint
library_of (guint i,
            guint j)
{
  return (i * 7 + j * 20) % N_LIBRARIES;
}

static void
make_snapshot (void)
{
  g_autoptr(PgsFixture) fx = pgs_fixture_new ();
  g_autoptr(PgsScanner) scanner = pgs_scanner_new ();
  g_autoptr(PgsSnapshot) snapshot = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) file = NULL;
  g_autofree guint *users = g_new0 (guint, N_LIBRARIES);
  guint64 ps = sysconf (_SC_PAGESIZE);
  guint64 own_pfn = N_LIBRARIES * LIB_PAGES;

  for (guint i = 0; i < N_PROCESSES; i++)
    {
      int pid = 1000 + i;
      g_autofree char *name = g_strdup_printf ("worker-%u", i % 50);

      pgs_fixture_add_process (fx, pid, name, 1000 + i % 7, FALSE);
      if (i > 0)
        pgs_fixture_set_parent (fx, pid, 1000 + i / 10);
      for (guint j = 0; j < N_MAPPED; j++)
        {
          guint l = library_of (i, j);
          g_autofree char *path = g_strdup_printf ("/usr/lib/libfixture-%03u.so", l);
          guint64 start = BASE + j * LIB_PAGES * ps;
          guint64 entries[LIB_PAGES];

          for (guint k = 0; k < LIB_PAGES; k++)
            entries[k] = FX_PRESENT (l * LIB_PAGES + k) | FX_FILE;
          pgs_fixture_add_mapping (fx, pid, start, start + LIB_PAGES * ps, "r-xp", path);
          pgs_fixture_set_pages (fx, pid, start, entries, LIB_PAGES);
          users[l]++;
        }
      {
        guint64 start = BASE + N_MAPPED * LIB_PAGES * ps;
        guint64 entries[OWN_PAGES];

        for (guint k = 0; k < OWN_PAGES; k++)
          {
            entries[k] = FX_PRESENT_EXCL (own_pfn);
            pgs_fixture_set_frame (fx, own_pfn++, 1, PGS_KPF_BIT (PGS_KPF_ANON));
          }
        pgs_fixture_add_mapping (fx, pid, start, start + OWN_PAGES * ps, "rw-p", "[heap]");
        pgs_fixture_set_pages (fx, pid, start, entries, OWN_PAGES);
      }
    }
  for (guint l = 0; l < N_LIBRARIES; l++)
    {
      g_assert_cmpuint (users[l], >, 0);
      for (guint k = 0; k < LIB_PAGES; k++)
        pgs_fixture_set_frame (fx, l * LIB_PAGES + k, users[l], PGS_KPF_BIT (PGS_KPF_MMAP));
    }
  pgs_fixture_commit (fx);

  pgs_scanner_set_procfs_root (scanner, pgs_fixture_get_root (fx));
  pgs_scanner_set_flags (scanner, PGS_SCAN_MAPPINGS | PGS_SCAN_PAGES);
  snapshot = pgs_scanner_scan (scanner, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (pgs_snapshot_get_n_processes (snapshot), ==, N_PROCESSES);
  file = g_file_new_for_path (snapshot_path);
  g_assert_true (pgs_snapshot_save (snapshot, file, NULL, &error));
  g_assert_no_error (error);
}

static gboolean
file_shown (gpointer data)
{
  PgsSnapshot *snapshot = pgs_window_get_snapshot (window);

  return !pgs_window_is_busy (window) && snapshot != NULL && pgs_snapshot_get_file (snapshot) != NULL;
}

/* Done, and with this file's figures: right after the switch the view may not yet know that
 * its table is stale (the scan the page needs starts on the next iteration), so idle alone
 * is not the end. */
static gboolean
files_listed (gpointer data)
{
  return !pgs_library_view_is_busy (data) && pgs_library_view_get_n_files (data) == N_LIBRARIES;
}

static gboolean
grouped (gpointer data)
{
  return !pgs_group_view_is_busy (data) &&
         g_list_model_get_n_items (pgs_group_view_get_model (data)) == 7;
}

/* Opens the file (a new snapshot: every view's model is stale), then switches to
 * Libraries and to Groups; returns the main thread's CPU time in its busiest gap, in us. */
static gint64
measure_switch (PgsLibraryView *libraries,
                PgsGroupView   *groups)
{
  g_autoptr(GFile) file = g_file_new_for_path (snapshot_path);
  Ticker ticker = { 0 };
  guint source;

  pgs_window_set_view (window, "processes");
  pgs_window_open_file (window, file, NULL);
  g_assert_true (pgs_ui_wait (file_shown, NULL, 60000));
  g_assert_cmpuint (pgs_snapshot_get_n_processes (pgs_window_get_snapshot (window)), ==, N_PROCESSES);
  pgs_ui_spin (300);

  ticker.last_cpu = thread_cpu_time ();
  source = g_timeout_add (TICK_MS, tick, &ticker);
  pgs_window_set_view (window, "libraries");
  g_assert_true (pgs_ui_wait (files_listed, libraries, 60000));
  pgs_ui_spin (300);
  /* The page's scan may hand the view the snapshot again: wait for that fill too. Every
   * library is mapped by some process (make_snapshot() checks). */
  g_assert_true (pgs_ui_wait (files_listed, libraries, 60000));
  g_test_message ("Libraries: busiest gap %.1f ms on the main thread's CPU", ticker.max_cpu / 1000.0);

  pgs_window_set_view (window, "groups");
  g_assert_true (pgs_ui_wait (grouped, groups, 60000));
  pgs_ui_spin (300);
  g_assert_true (pgs_ui_wait (grouped, groups, 60000));
  g_source_remove (source);
  g_test_message ("Libraries and Groups: busiest gap %.1f ms on the main thread's CPU",
                  ticker.max_cpu / 1000.0);
  g_assert_cmpuint (g_list_model_get_n_items (pgs_group_view_get_model (groups)), ==, 7);
  return ticker.max_cpu;
}

static int
compare_gint64 (gconstpointer a,
                gconstpointer b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;

  return (x > y) - (x < y);
}

/* Three times; the median of the busiest gaps must stay under the limit. A model built on
 * the main thread shows in every run (hundreds of ms here); a two-core virtual machine now
 * and then slows a single frame, and that is not what this measures (see test-stall.c). */
static void
test_switch (void)
{
  PgsLibraryView *libraries = PGS_LIBRARY_VIEW (pgs_ui_find_widget (GTK_WIDGET (window), PGS_TYPE_LIBRARY_VIEW));
  PgsGroupView *groups = PGS_GROUP_VIEW (pgs_ui_find_widget (GTK_WIDGET (window), PGS_TYPE_GROUP_VIEW));
  gint64 busiest[3];

  /* By user: the fixture's processes run as 7 users. */
  pgs_group_view_set_group_by (groups, PGS_GROUP_BY_USER);
  for (guint i = 0; i < G_N_ELEMENTS (busiest); i++)
    busiest[i] = measure_switch (libraries, groups);
  qsort (busiest, G_N_ELEMENTS (busiest), sizeof busiest[0], compare_gint64);
  g_test_message ("main thread's CPU in the busiest gap, median of 3: %.1f ms (limit %d ms)",
                  busiest[1] / 1000.0, LIMIT_MS);
  g_assert_cmpint (busiest[1], <, LIMIT_MS * 1000);
  pgs_window_set_view (window, "processes");
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *dir = NULL;
  int status;

  pgs_ui_init (&argc, &argv);
  /* Some 5,000 files, rewritten as mappings are added: in memory where there is a tmpfs,
   * since on a busy disk ext4 flushes each rename over a file (minutes, not seconds). */
  if (g_file_test ("/dev/shm", G_FILE_TEST_IS_DIR) && access ("/dev/shm", W_OK) == 0)
    g_setenv ("TMPDIR", "/dev/shm", TRUE);
  dir = g_dir_make_tmp ("pgs-models-XXXXXX", NULL);
  g_assert_nonnull (dir);
  snapshot_path = g_build_filename (dir, "many.pgsnap", NULL);
  make_snapshot ();
  g_test_message ("fixture scanned and saved");
  window = pgs_ui_open_window (&app);

  g_test_add_func ("/pgs/ui/models/switch", test_switch);
  status = g_test_run ();

  gtk_window_destroy (GTK_WINDOW (window));
  g_clear_object (&app);
  g_unlink (snapshot_path);
  g_rmdir (dir);
  g_free (snapshot_path);
  return status;
}
