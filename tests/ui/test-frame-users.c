/* test-frame-users.c: the table of the processes that map a frame
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A PgsFrameUsersView is given a scan of a fixture worked out by hand, with its pages (so
 * the search needs no scan of its own):
 *   pid 100 "alpha"    BASE:          5000 5001 5002 7000    /lib/x.so
 *   pid 200 "bravo"    BASE + 64 PS:  5002 5003 5000         /lib/x.so
 *   pid 300 "charlie"  BASE + 128 PS: 5119 5000              [heap]
 * Frame 5000 is mapped by all three, at BASE, BASE + 66 PS and BASE + 129 PS; 5002 by
 * alpha at BASE + 2 PS and bravo at BASE + 64 PS; 7000 by alpha alone, at BASE + 3 PS.
 * Run under xvfb-run; without a display it skips (exit 77).
 */

#include "config.h"

#include "pgs-fixture.h"
#include "pgs-frame-user-item.h"
#include "pgs-frame-users-view.h"
#include "pgs-kpage.h"
#include "pgs-test-cli.h"
#include "pgs-ui-util.h"

#define BASE G_GUINT64_CONSTANT (0x10000000)
#define PS   G_GUINT64_CONSTANT (4096)

static PgsSnapshot *snapshot;

typedef struct
{
  GtkWidget         *window;
  PgsFrameUsersView *view;
  GtkColumnView     *column_view;
  int                activated;   /* the PID of ::process-activated, 0 before */
} Fixture;

static PgsSnapshot *
scan_fixture (void)
{
  g_autoptr(PgsFixture) fx = pgs_fixture_new ();
  guint64 a[4] = { FX_PRESENT (5000), FX_PRESENT (5001), FX_PRESENT (5002), FX_PRESENT (7000) };
  guint64 b[3] = { FX_PRESENT (5002), FX_PRESENT (5003), FX_PRESENT (5000) };
  guint64 c[2] = { FX_PRESENT (5119), FX_PRESENT (5000) };
  const guint64 frames[] = { 5000, 5001, 5002, 5003, 5119, 7000 };
  const guint counts[] = { 3, 1, 2, 1, 1, 1 };

  pgs_fixture_add_process (fx, 100, "alpha", 0, FALSE);
  pgs_fixture_add_process (fx, 200, "bravo", 0, FALSE);
  pgs_fixture_add_process (fx, 300, "charlie", 0, FALSE);
  pgs_fixture_add_mapping (fx, 100, BASE, BASE + 4 * PS, "r--p", "/lib/x.so");
  pgs_fixture_add_mapping (fx, 200, BASE + 64 * PS, BASE + 67 * PS, "r--p", "/lib/x.so");
  pgs_fixture_add_mapping (fx, 300, BASE + 128 * PS, BASE + 130 * PS, "rw-p", "[heap]");
  pgs_fixture_set_pages (fx, 100, BASE, a, 4);
  pgs_fixture_set_pages (fx, 200, BASE + 64 * PS, b, 3);
  pgs_fixture_set_pages (fx, 300, BASE + 128 * PS, c, 2);
  for (guint i = 0; i < G_N_ELEMENTS (frames); i++)
    pgs_fixture_set_frame (fx, frames[i], counts[i], PGS_KPF_BIT (PGS_KPF_LRU));
  pgs_fixture_commit (fx);
  return pgs_test_scan (fx, PGS_SCAN_MAPPINGS | PGS_SCAN_PAGES);
}

static void
on_process_activated (PgsFrameUsersView *view,
                      int                pid,
                      Fixture           *fixture)
{
  fixture->activated = pid;
}

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  fixture->window = gtk_window_new ();
  fixture->view = g_object_new (PGS_TYPE_FRAME_USERS_VIEW, "snapshot", snapshot, NULL);
  fixture->column_view = pgs_frame_users_view_get_column_view (fixture->view);
  g_signal_connect (fixture->view, "process-activated", G_CALLBACK (on_process_activated), fixture);
  gtk_window_set_default_size (GTK_WINDOW (fixture->window), 800, 300);
  gtk_window_set_child (GTK_WINDOW (fixture->window), GTK_WIDGET (fixture->view));
  gtk_window_present (GTK_WINDOW (fixture->window));
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  gtk_window_destroy (GTK_WINDOW (fixture->window));
}

static gboolean
users_known (gpointer view)
{
  return pgs_frame_users_view_get_users (view) != NULL;
}

static void
find_frame (Fixture *fixture,
            guint64  pfn)
{
  PgsHit hit = { .valid = TRUE, .is_frame = TRUE, .pfn = pfn };

  pgs_frame_users_view_find (fixture->view, &hit);
}

static guint
n_rows (Fixture *fixture)
{
  return g_list_model_get_n_items (G_LIST_MODEL (gtk_column_view_get_model (fixture->column_view)));
}

/* Row @i as the table shows it, sorted as asked. */
static void
assert_row (Fixture    *fixture,
            guint       i,
            int         pid,
            const char *name,
            guint64     address,
            const char *mapping)
{
  g_autoptr(PgsFrameUserItem) item =
    g_list_model_get_item (G_LIST_MODEL (gtk_column_view_get_model (fixture->column_view)), i);
  g_autofree char *got_name = NULL;
  g_autofree char *got_mapping = NULL;
  guint64 got_address;
  int got_pid;

  g_assert_nonnull (item);
  g_object_get (item, "pid", &got_pid, "name", &got_name, "address", &got_address,
                "mapping", &got_mapping, NULL);
  g_assert_cmpint (got_pid, ==, pid);
  g_assert_cmpstr (got_name, ==, name);
  g_assert_cmphex (got_address, ==, address);
  g_assert_cmpstr (got_mapping, ==, mapping);
}

static GtkColumnViewColumn *
column (Fixture *fixture,
        guint    i)
{
  g_autoptr(GtkColumnViewColumn) c =
    g_list_model_get_item (gtk_column_view_get_columns (fixture->column_view), i);

  return c;   /* the view keeps it */
}

/* A frame three processes map: one row each, in PID order, each cell shown; the columns
 * sort; a row activated names its process. */
static void
test_table (Fixture       *fixture,
            gconstpointer  data)
{
  const char *titles[] = { "PID", "Process", "Address", "Mapping" };

  g_assert_cmpuint (g_list_model_get_n_items (gtk_column_view_get_columns (fixture->column_view)),
                    ==, G_N_ELEMENTS (titles));
  for (guint i = 0; i < G_N_ELEMENTS (titles); i++)
    g_assert_cmpstr (gtk_column_view_column_get_title (column (fixture, i)), ==, titles[i]);

  find_frame (fixture, 5000);
  g_assert_cmpstr (pgs_frame_users_view_get_title (fixture->view), ==,
                   "Looking for the processes that map this frame…");
  g_assert_true (pgs_ui_wait (users_known, fixture->view, 10000));
  g_assert_cmpuint (pgs_frame_users_view_get_users (fixture->view)->len, ==, 3);
  g_assert_cmpstr (pgs_frame_users_view_get_title (fixture->view), ==, "Mapped by 3 processes");
  g_assert_cmpuint (n_rows (fixture), ==, 3);
  assert_row (fixture, 0, 100, "alpha", BASE, "/lib/x.so");
  assert_row (fixture, 1, 200, "bravo", BASE + 66 * PS, "/lib/x.so");
  assert_row (fixture, 2, 300, "charlie", BASE + 129 * PS, "[heap]");

  gtk_test_widget_wait_for_draw (fixture->window);
  g_assert_nonnull (pgs_ui_find_label (fixture->window, "charlie"));
  g_assert_nonnull (pgs_ui_find_label (fixture->window, "300"));
  g_assert_nonnull (pgs_ui_find_label (fixture->window, "0x10042000"));   /* BASE + 66 PS */
  g_assert_nonnull (pgs_ui_find_label (fixture->window, "[heap]"));

  gtk_column_view_sort_by_column (fixture->column_view, column (fixture, 2), GTK_SORT_DESCENDING);
  assert_row (fixture, 0, 300, "charlie", BASE + 129 * PS, "[heap]");
  assert_row (fixture, 2, 100, "alpha", BASE, "/lib/x.so");
  gtk_column_view_sort_by_column (fixture->column_view, column (fixture, 1), GTK_SORT_DESCENDING);
  assert_row (fixture, 0, 300, "charlie", BASE + 129 * PS, "[heap]");
  assert_row (fixture, 1, 200, "bravo", BASE + 66 * PS, "/lib/x.so");

  g_signal_emit_by_name (fixture->column_view, "activate", 1u);
  g_assert_cmpint (fixture->activated, ==, 200);
}

/* A refresh showing the same frame keeps its answer; another frame, or a click, asks
 * again; a newer search wins over one still running. */
static void
test_again (Fixture       *fixture,
            gconstpointer  data)
{
  PgsHit same = { .valid = TRUE, .is_frame = TRUE, .pfn = 5000 };
  PgsHit other = { .valid = TRUE, .is_frame = TRUE, .pfn = 5002 };
  GArray *users;

  find_frame (fixture, 5000);
  g_assert_true (pgs_ui_wait (users_known, fixture->view, 10000));
  users = pgs_frame_users_view_get_users (fixture->view);
  pgs_frame_users_view_update (fixture->view, &same);
  g_assert_true (pgs_frame_users_view_get_users (fixture->view) == users);
  g_assert_cmpuint (n_rows (fixture), ==, 3);

  pgs_frame_users_view_update (fixture->view, &other);
  g_assert_null (pgs_frame_users_view_get_users (fixture->view));
  g_assert_cmpuint (n_rows (fixture), ==, 0);
  g_assert_true (pgs_ui_wait (users_known, fixture->view, 10000));
  g_assert_cmpstr (pgs_frame_users_view_get_title (fixture->view), ==, "Mapped by 2 processes");
  assert_row (fixture, 0, 100, "alpha", BASE + 2 * PS, "/lib/x.so");
  assert_row (fixture, 1, 200, "bravo", BASE + 64 * PS, "/lib/x.so");

  find_frame (fixture, 5002);
  g_assert_null (pgs_frame_users_view_get_users (fixture->view));
  find_frame (fixture, 7000);
  g_assert_true (pgs_ui_wait (users_known, fixture->view, 10000));
  g_assert_cmpstr (pgs_frame_users_view_get_title (fixture->view), ==, "Mapped by 1 process");
  g_assert_cmpuint (n_rows (fixture), ==, 1);
  assert_row (fixture, 0, 100, "alpha", BASE + 3 * PS, "/lib/x.so");
  /* The search for 5002 was cancelled: nothing of it comes after. */
  pgs_ui_spin (200);
  g_assert_cmpuint (n_rows (fixture), ==, 1);
}

/* No frame, no search: the heading says why; clearing empties the table. */
static void
test_no_frame (Fixture       *fixture,
               gconstpointer  data)
{
  PgsHit swapped = { .valid = TRUE, .is_frame = FALSE, .address = BASE, .entry = 0 };
  PgsHit hidden = { .valid = TRUE, .is_frame = TRUE, .pfn = 0 };

  pgs_frame_users_view_find (fixture->view, &swapped);
  g_assert_cmpstr (pgs_frame_users_view_get_title (fixture->view), ==,
                   "Not in memory: no frame to share");
  pgs_frame_users_view_find (fixture->view, &hidden);
  g_assert_cmpstr (pgs_frame_users_view_get_title (fixture->view), ==,
                   "Frame numbers are hidden without root, so the processes sharing this "
                   "page cannot be found");
  pgs_ui_spin (100);
  g_assert_null (pgs_frame_users_view_get_users (fixture->view));

  find_frame (fixture, 5000);
  g_assert_true (pgs_ui_wait (users_known, fixture->view, 10000));
  pgs_frame_users_view_clear (fixture->view);
  g_assert_null (pgs_frame_users_view_get_users (fixture->view));
  g_assert_cmpuint (n_rows (fixture), ==, 0);
}

int
main (int    argc,
      char **argv)
{
  int ret;

  pgs_ui_init (&argc, &argv);
  snapshot = scan_fixture ();

  g_test_add ("/pgs/ui/frame-users/table", Fixture, NULL, fixture_set_up, test_table,
              fixture_tear_down);
  g_test_add ("/pgs/ui/frame-users/again", Fixture, NULL, fixture_set_up, test_again,
              fixture_tear_down);
  g_test_add ("/pgs/ui/frame-users/no-frame", Fixture, NULL, fixture_set_up, test_no_frame,
              fixture_tear_down);
  ret = g_test_run ();
  g_clear_object (&snapshot);
  return ret;
}
