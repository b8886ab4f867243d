/* test-files.c: open and compare snapshot files in the app window
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Two children (pgs-ui-child: static, they write every page of a buffer and sleep) run
 * while the library scans and saves old.pgsnap; then child A exits and new.pgsnap is
 * saved. The app opens new.pgsnap and compares old.pgsnap with it. Checked: the title
 * names the file and its capture, A is "Gone" with its old RSS as the kernel's
 * smaps_rollup gave it while it ran and a change of minus that, B is in both with its
 * RSS; a damaged file is refused with the library's message and changes nothing; a
 * refresh returns to the live system. Runs under xvfb-run; skips (77) without a display.
 */

#include "config.h"

#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "pgs-compare.h"
#include "pgs-fixture.h"
#include "pgs-snapshot-file.h"
#include "pgs-ui-util.h"

static struct
{
  PgsApplication *app;
  PgsWindow      *window;
  char           *tmpdir;
  PgsUiChild      a, b;
  int             gone_pid;      /* a's, after it exited */
  guint64         rss_a, rss_b;  /* the kernel's, while both ran */
} fixture;

static void
scan_and_save (const char *name)
{
  g_autoptr(PgsScanner) scanner = pgs_scanner_new ();
  g_autoptr(PgsSnapshot) snapshot = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = g_build_filename (fixture.tmpdir, name, NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);

  pgs_scanner_set_flags (scanner, PGS_SCAN_MAPPINGS | PGS_SCAN_PAGES);
  snapshot = pgs_scanner_scan (scanner, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (pgs_snapshot_save (snapshot, file, NULL, &error));
  g_assert_no_error (error);
}

static gboolean
comparison_shown (gpointer data)
{
  PgsWindow *window = data;

  /* The rows are matched in a worker and put in a few at a time: all of them. */
  return pgs_window_is_comparing (window) &&
         !pgs_compare_list_is_busy (pgs_window_get_compare_list (window)) &&
         g_list_model_get_n_items (pgs_compare_list_get_model (pgs_window_get_compare_list (window))) > 0;
}

static gboolean
find_row (PgsCompareList *list,
          int             pid,
          guint          *position)
{
  GListModel *model = pgs_compare_list_get_model (list);

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(PgsCompareItem) item = g_list_model_get_item (model, i);

      if (pgs_compare_item_get_pid (item) == pid)
        {
          *position = i;
          return TRUE;
        }
    }
  return FALSE;
}

static void
assert_cell (PgsCompareList *list,
             guint           position,
             const char     *column,
             const char     *expected)
{
  g_autofree char *text = pgs_compare_list_get_cell_text (list, position, column);

  g_assert_cmpstr (text, ==, expected);
}

static void
test_open_and_compare (void)
{
  g_autofree char *old_path = g_build_filename (fixture.tmpdir, "old.pgsnap", NULL);
  g_autofree char *new_path = g_build_filename (fixture.tmpdir, "new.pgsnap", NULL);
  g_autoptr(GFile) old_file = g_file_new_for_path (old_path);
  g_autoptr(GFile) new_file = g_file_new_for_path (new_path);
  PgsCompareList *list = pgs_window_get_compare_list (fixture.window);
  g_autofree char *rss_a = pgs_units_format (PGS_UNITS_IEC, fixture.rss_a);
  g_autofree char *minus_rss_a = g_strconcat ("−", rss_a, NULL);
  g_autofree char *rss_b = pgs_units_format (PGS_UNITS_IEC, fixture.rss_b);
  g_autoptr(PgsCompareItem) item_a = NULL;
  const char *title;
  guint position;

  pgs_window_open_file (fixture.window, new_file, old_file);
  g_assert_true (pgs_ui_wait (comparison_shown, fixture.window, 60000));
  gtk_test_widget_wait_for_draw (GTK_WIDGET (fixture.window));

  /* The window shows the file, and says so. */
  g_assert_nonnull (pgs_snapshot_get_file (pgs_window_get_snapshot (fixture.window)));
  title = gtk_window_get_title (GTK_WINDOW (fixture.window));
  g_assert_true (g_str_has_prefix (title, "new.pgsnap — captured "));
  g_assert_nonnull (strstr (title, g_get_host_name ()));
  g_assert_nonnull (strstr (pgs_window_get_banner_text (fixture.window), "new.pgsnap"));
  g_assert_false (pgs_window_is_busy (fixture.window));

  /* A ran when old.pgsnap was taken and not when new.pgsnap was: gone, and its RSS went
   * away with it. */
  g_assert_true (find_row (list, fixture.gone_pid, &position));
  item_a = g_list_model_get_item (pgs_compare_list_get_model (list), position);
  g_assert_cmpint (pgs_compare_item_get_status (item_a), ==, PGS_COMPARE_GONE);
  g_assert_null (pgs_compare_item_get_new_process (item_a));
  assert_cell (list, position, "status", "Gone");
  assert_cell (list, position, "old-rss", rss_a);
  assert_cell (list, position, "new-rss", "");
  assert_cell (list, position, "rss", minus_rss_a);

  /* B ran throughout, idle: in both, with the same RSS. */
  g_assert_true (find_row (list, fixture.b.pid, &position));
  assert_cell (list, position, "status", "");
  assert_cell (list, position, "old-rss", rss_b);
  assert_cell (list, position, "new-rss", rss_b);

  /* No refresh replaces a file that was opened. */
  pgs_ui_spin (300);
  g_assert_false (pgs_window_is_busy (fixture.window));
}

static void
on_export_finished (PgsWindow *window,
                    GFile     *file,
                    GError    *error,
                    gpointer   data)
{
  char **message = data;

  *message = g_strdup (error != NULL ? error->message : "");
}

static gboolean
have_message (gpointer data)
{
  return *(char **) data != NULL;
}

static void
test_damaged_file (void)
{
  g_autofree char *path = g_build_filename (fixture.tmpdir, "damaged.pgsnap", NULL);
  g_autofree char *new_path = g_build_filename (fixture.tmpdir, "new.pgsnap", NULL);
  g_autofree char *contents = NULL;
  g_autofree char *message = NULL;
  PgsSnapshot *shown = pgs_window_get_snapshot (fixture.window);
  gsize length;
  gulong id;

  /* The first half of a good file: truncated. */
  g_assert_true (g_file_get_contents (new_path, &contents, &length, NULL));
  g_assert_true (g_file_set_contents (path, contents, length / 2, NULL));

  id = g_signal_connect (fixture.window, "export-finished", G_CALLBACK (on_export_finished),
                         &message);
  gtk_widget_activate_action (GTK_WIDGET (fixture.window), "win.open-snapshot-file", "s", path);
  g_assert_true (pgs_ui_wait (have_message, &message, 60000));
  g_signal_handler_disconnect (fixture.window, id);
  /* Refused with the library's reason; the snapshot shown stays. */
  g_assert_cmpstr (message, !=, "");
  g_assert_true (pgs_window_get_snapshot (fixture.window) == shown);
}

/* "2026-12-04 14:03:07", the file's capture time as the library reads it, in local time. */
static char *
capture_time (const char *name)
{
  g_autofree char *path = g_build_filename (fixture.tmpdir, name, NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  g_autoptr(PgsSnapshot) snapshot = pgs_snapshot_load (file, NULL, &error);
  g_autoptr(GDateTime) time = NULL;

  g_assert_no_error (error);
  time = g_date_time_new_from_unix_local (pgs_snapshot_get_time (snapshot) / G_USEC_PER_SEC);
  return g_date_time_format (time, "%Y-%m-%d %H:%M:%S");
}

static gboolean
file_shown (gpointer data)
{
  PgsSnapshot *snapshot = pgs_window_get_snapshot (fixture.window);

  return snapshot != NULL && pgs_snapshot_get_file (snapshot) != NULL &&
         g_file_equal (pgs_snapshot_get_file (snapshot), data);
}

/* Issue 21, 1: old.pgsnap open, Compare With… new.pgsnap. The file picked is the newer
 * capture: it is the new side, and A (which ran only when old.pgsnap was taken) is Gone,
 * not New. Each side says its capture time to the second. */
static void
test_compare_picked_newer (void)
{
  g_autofree char *old_path = g_build_filename (fixture.tmpdir, "old.pgsnap", NULL);
  g_autofree char *new_path = g_build_filename (fixture.tmpdir, "new.pgsnap", NULL);
  g_autoptr(GFile) old_file = g_file_new_for_path (old_path);
  g_autoptr(GFile) new_file = g_file_new_for_path (new_path);
  PgsCompareList *list = pgs_window_get_compare_list (fixture.window);
  g_autofree char *old_time = capture_time ("old.pgsnap");
  g_autofree char *new_time = capture_time ("new.pgsnap");
  g_autofree char *expected = g_strdup_printf ("Old: old.pgsnap (captured %s on %s). "
                                               "New: new.pgsnap (captured %s on %s).",
                                               old_time, g_get_host_name (),
                                               new_time, g_get_host_name ());
  g_autofree char *title = g_strdup_printf ("old.pgsnap — captured %s on %s", old_time,
                                            g_get_host_name ());
  g_autoptr(PgsCompareItem) item_a = NULL;
  guint position;

  gtk_widget_activate_action (GTK_WIDGET (fixture.window), "win.close-compare", NULL);
  g_assert_false (pgs_window_is_comparing (fixture.window));
  pgs_window_open_file (fixture.window, old_file, NULL);
  g_assert_true (pgs_ui_wait (file_shown, old_file, 60000));
  pgs_window_compare_file (fixture.window, new_file);
  g_assert_true (pgs_ui_wait (comparison_shown, fixture.window, 60000));

  g_assert_true (find_row (list, fixture.gone_pid, &position));
  item_a = g_list_model_get_item (pgs_compare_list_get_model (list), position);
  g_assert_cmpint (pgs_compare_item_get_status (item_a), ==, PGS_COMPARE_GONE);
  assert_cell (list, position, "status", "Gone");
  g_assert_cmpstr (pgs_compare_list_get_description (list), ==, expected);
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (fixture.window)), ==, title);
}

static GtkAdjustment *
list_vadjustment (void)
{
  PgsProcessList *process_list = pgs_window_get_process_list (fixture.window);
  GtkWidget *scroller = gtk_widget_get_parent (pgs_process_list_get_column_view (process_list));

  g_assert_true (GTK_IS_SCROLLED_WINDOW (scroller));
  return gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scroller));
}

/* Issue 21, 7: Back to Live leaves the comparison of the file that was shown, and the
 * list (never scrolled) shows its first row, the biggest process: a child of 1 GiB, more
 * than any process in the file, started now so that it is a row above the file's first. */
static void
test_back_to_live (void)
{
  PgsUiChild big = { 0 };

  g_assert_true (pgs_window_is_comparing (fixture.window));
  pgs_ui_child_start (&big, 262144);
  pgs_window_refresh (fixture.window);
  pgs_ui_wait_idle_scan (fixture.window);
  g_assert_null (pgs_snapshot_get_file (pgs_window_get_snapshot (fixture.window)));
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (fixture.window)), ==, "Pagescope");
  g_assert_false (pgs_window_is_comparing (fixture.window));
  g_assert_cmpstr (pgs_window_get_view (fixture.window), ==, "processes");
  pgs_ui_spin (200);
  pgs_ui_child_stop (&big);
  g_assert_cmpfloat (gtk_adjustment_get_value (list_vadjustment ()), ==, 0);
}

/* Issue 21, 7: after Close Comparison (the live system with a file) the list is at its top, its first row (the
 * biggest process) in sight. */
static void
test_close_comparison_scroll (void)
{
  g_autofree char *new_path = g_build_filename (fixture.tmpdir, "new.pgsnap", NULL);
  g_autoptr(GFile) new_file = g_file_new_for_path (new_path);
  GtkAdjustment *vadjustment = list_vadjustment ();

  gtk_test_widget_wait_for_draw (GTK_WIDGET (fixture.window));
  g_assert_cmpfloat (gtk_adjustment_get_value (vadjustment), ==, 0);

  pgs_window_compare_file (fixture.window, new_file);
  g_assert_true (pgs_ui_wait (comparison_shown, fixture.window, 60000));
  gtk_test_widget_wait_for_draw (GTK_WIDGET (fixture.window));
  gtk_widget_activate_action (GTK_WIDGET (fixture.window), "win.close-compare", NULL);
  g_assert_false (pgs_window_is_comparing (fixture.window));
  gtk_test_widget_wait_for_draw (GTK_WIDGET (fixture.window));
  pgs_ui_spin (200);
  g_assert_cmpfloat (gtk_adjustment_get_value (vadjustment), ==, 0);
}

static GtkMenuButton *
find_menu_button (GtkWidget *widget)
{
  if (GTK_IS_MENU_BUTTON (widget))
    return GTK_MENU_BUTTON (widget);
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkMenuButton *found = find_menu_button (child);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* The label of the view menu's first section (My/All Processes), NULL for none: as a user
 * sees it, with the menu opened (it is made when first opened). */
static char *
filter_section_label (void)
{
  GtkMenuButton *button = find_menu_button (GTK_WIDGET (pgs_window_get_process_list (fixture.window)));
  GMenuModel *menu;
  char *label = NULL;

  g_assert_nonnull (button);
  gtk_menu_button_popup (button);
  gtk_menu_button_popdown (button);
  menu = gtk_menu_button_get_menu_model (button);
  g_assert_nonnull (menu);
  g_menu_model_get_item_attribute (menu, 0, G_MENU_ATTRIBUTE_LABEL, "s", &label);
  return label;
}

/* Issue 21, 3: a snapshot of three processes of another user (root's, as a user would
 * open it), opened with "My Processes" on: all three listed, and the view menu says the
 * filter is for the running system. Back to live data, the filter applies again. */
static void
test_file_shows_all (void)
{
  g_autoptr(PgsFixture) fx = pgs_fixture_new ();
  g_autoptr(PgsScanner) scanner = pgs_scanner_new ();
  g_autoptr(PgsSnapshot) snapshot = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = g_build_filename (fixture.tmpdir, "others.pgsnap", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  GListModel *model = pgs_process_list_get_model (pgs_window_get_process_list (fixture.window));
  guint other = getuid () + 1000;
  g_autofree char *label = NULL;

  for (int pid = 101; pid <= 103; pid++)
    {
      const guint64 page[] = { FX_PRESENT_EXCL (pid) };
      guint64 base = 0x400000, size = sysconf (_SC_PAGESIZE);

      pgs_fixture_add_process (fx, pid, "other", other, FALSE);
      pgs_fixture_add_mapping (fx, pid, base, base + size, "rw-p", NULL);
      pgs_fixture_set_pages (fx, pid, base, page, 1);
      pgs_fixture_set_frame (fx, pid, 1, 0);
    }
  pgs_fixture_commit (fx);
  pgs_scanner_set_procfs_root (scanner, pgs_fixture_get_root (fx));
  snapshot = pgs_scanner_scan (scanner, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (pgs_snapshot_get_n_processes (snapshot), ==, 3);
  g_assert_true (pgs_snapshot_save (snapshot, file, NULL, &error));
  g_assert_no_error (error);

  g_action_group_change_action_state (pgs_process_list_get_actions (pgs_window_get_process_list (fixture.window)),
                                      "show-processes", g_variant_new_string ("mine"));
  label = filter_section_label ();
  g_assert_null (label);
  pgs_window_open_file (fixture.window, file, NULL);
  g_assert_true (pgs_ui_wait (file_shown, file, 60000));
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 3);
  label = filter_section_label ();
  g_assert_cmpstr (label, ==, "For the running system only");
  g_clear_pointer (&label, g_free);

  /* Live again: none of the other user's, the list holds only this user's processes. */
  pgs_window_refresh (fixture.window);
  pgs_ui_wait_idle_scan (fixture.window);
  g_assert_null (pgs_snapshot_get_file (pgs_window_get_snapshot (fixture.window)));
  g_assert_cmpuint (g_list_model_get_n_items (model), >, 0);
  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(PgsProcess) process = g_list_model_get_item (model, i);

      g_assert_cmpuint (pgs_process_get_uid (process), ==, getuid ());
    }
  g_assert_null (filter_section_label ());
  g_action_group_change_action_state (pgs_process_list_get_actions (pgs_window_get_process_list (fixture.window)),
                                      "show-processes", g_variant_new_string ("all"));
  g_unlink (path);
}

/* Issue 21, 15: a save into a folder that does not exist says so, naming the file chosen,
 * not the hidden temporary file written first. */
static void
test_save_error (void)
{
  g_autofree char *folder = g_build_filename (fixture.tmpdir, "missing", NULL);
  g_autofree char *path = g_build_filename (folder, "x.pgsnap", NULL);
  g_autofree char *expected = g_strdup_printf ("Could not save to %s: the folder %s does not exist",
                                               path, folder);
  g_autofree char *message = NULL;
  gulong id;

  id = g_signal_connect (fixture.window, "export-finished", G_CALLBACK (on_export_finished),
                         &message);
  gtk_widget_activate_action (GTK_WIDGET (fixture.window), "win.save-snapshot-to-file", "s", path);
  g_assert_true (pgs_ui_wait (have_message, &message, 120000));
  g_signal_handler_disconnect (fixture.window, id);
  g_assert_cmpstr (pgs_window_get_toast_text (fixture.window), ==, expected);
  g_assert_null (strstr (message, ".tmp"));
}

int
main (int    argc,
      char **argv)
{
  int status;

  pgs_ui_init (&argc, &argv);
  fixture.tmpdir = g_dir_make_tmp ("pgs-ui-files-XXXXXX", NULL);
  g_assert_nonnull (fixture.tmpdir);

  pgs_ui_child_start (&fixture.a, 300);
  pgs_ui_child_start (&fixture.b, 200);
  fixture.rss_a = pgs_ui_rollup_rss (fixture.a.pid);
  fixture.rss_b = pgs_ui_rollup_rss (fixture.b.pid);
  scan_and_save ("old.pgsnap");
  fixture.gone_pid = fixture.a.pid;
  pgs_ui_child_stop (&fixture.a);
  scan_and_save ("new.pgsnap");

  fixture.window = pgs_ui_open_window (&fixture.app);
  pgs_ui_wait_idle_scan (fixture.window);

  g_test_add_func ("/ui/files/open-and-compare", test_open_and_compare);
  g_test_add_func ("/ui/files/damaged", test_damaged_file);
  g_test_add_func ("/ui/files/compare-picked-newer", test_compare_picked_newer);
  g_test_add_func ("/ui/files/back-to-live", test_back_to_live);
  g_test_add_func ("/ui/files/close-comparison-scroll", test_close_comparison_scroll);
  g_test_add_func ("/ui/files/file-shows-all", test_file_shows_all);
  g_test_add_func ("/ui/files/save-error", test_save_error);
  status = g_test_run ();

  pgs_ui_child_stop (&fixture.b);
  gtk_window_destroy (GTK_WINDOW (fixture.window));
  g_object_unref (fixture.app);
  for (const char *const *name = (const char *const[]) { "old.pgsnap", "new.pgsnap",
                                                         "damaged.pgsnap", NULL };
       *name != NULL; name++)
    {
      g_autofree char *path = g_build_filename (fixture.tmpdir, *name, NULL);

      g_unlink (path);
    }
  g_rmdir (fixture.tmpdir);
  g_free (fixture.tmpdir);
  return status;
}
