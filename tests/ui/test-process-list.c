/* test-process-list.c: the process list people expect
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * My/all processes (a process of another user: one started as nobody when run as root, PID 1
 * otherwise), the column chooser kept across a restart (two runs of this program on one
 * keyfile settings backend), the context menu's items enabled or disabled with a reason
 * (live, and a snapshot file), Copy PID and Copy Command Line on the clipboard, and the
 * tree: the child this test starts under this process, and what the user was looking at
 * (sort, selection, scroll, expanded rows) kept over three refreshes.
 * Run under xvfb-run; without a display it skips (exit 77).
 */

#include "config.h"

#include <math.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "pgs-process-menu.h"
#include "pgs-row.h"
#include "pgs-ui-util.h"

static struct
{
  PgsUiChild      proc;
  PgsApplication *app;
  PgsWindow      *window;
  char           *tmpdir;
} fx;

static PgsProcessList *
list (void)
{
  return pgs_window_get_process_list (fx.window);
}

static gboolean
shows_pid (int pid)
{
  GListModel *model = pgs_process_list_get_model (list ());
  guint n = g_list_model_get_n_items (model);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(PgsProcess) process = g_list_model_get_item (model, i);

      if (pgs_process_get_pid (process) == pid)
        return TRUE;
    }
  return FALSE;
}

static void
refresh (void)
{
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fx.window), "win.refresh", NULL));
  pgs_ui_wait_idle_scan (fx.window);
  gtk_test_widget_wait_for_draw (GTK_WIDGET (fx.window));
}

static char *
setting (const char *key)
{
  return g_settings_get_string (pgs_application_get_settings (fx.app), key);
}

static void
set_state (const char *action,
           GVariant   *state)
{
  g_action_group_change_action_state (pgs_process_list_get_actions (list ()), action, state);
}

static gboolean
shows_default (gpointer data)
{
  g_autoptr(GVariant) state = g_action_group_get_action_state (pgs_process_list_get_actions (list ()),
                                                               "show-processes");

  return g_str_equal (g_variant_get_string (state, NULL), geteuid () == 0 ? "all" : "mine");
}

/* "mine": only the processes of the user running the app; the default follows who that
 * is (all for root, who can measure every process). */
static void
test_mine (void)
{
  const char *nobody_argv[] = { "setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
                                "sleep", "120", NULL };
  GSettings *settings = pgs_application_get_settings (fx.app);
  g_autoptr(GVariant) state = NULL;
  g_autoptr(GError) error = NULL;
  GPid other = 0;
  int other_pid = 1;
  char *value;

  /* Someone else's process: nobody's as root, root's (PID 1) otherwise. */
  if (geteuid () == 0)
    {
      g_spawn_async (NULL, (char **) nobody_argv, NULL,
                     G_SPAWN_SEARCH_PATH | G_SPAWN_DO_NOT_REAP_CHILD |
                     G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL,
                     NULL, NULL, &other, &error);
      g_assert_no_error (error);
      other_pid = other;
      /* Until setpriv has dropped to nobody and exec'd sleep. */
      for (int i = 0; i < 500; i++)
        {
          g_autofree char *path = g_strdup_printf ("/proc/%d/status", other_pid);
          g_autofree char *status = NULL;

          if (g_file_get_contents (path, &status, NULL, NULL) &&
              strstr (status, "Name:\tsleep") != NULL && strstr (status, "Uid:\t65534") != NULL)
            break;
          g_usleep (10000);
        }
    }
  refresh ();

  set_state ("show-processes", g_variant_new_string ("all"));
  g_assert_true (shows_pid (other_pid));
  g_assert_true (shows_pid (fx.proc.pid));
  g_assert_cmpstr (value = setting ("show-processes"), ==, "all");
  g_free (value);

  set_state ("show-processes", g_variant_new_string ("mine"));
  g_assert_false (shows_pid (other_pid));
  g_assert_true (shows_pid (fx.proc.pid));
  g_assert_true (shows_pid (getpid ()));
  g_assert_cmpstr (value = setting ("show-processes"), ==, "mine");
  g_free (value);
  /* And stays so over a refresh. */
  refresh ();
  g_assert_false (shows_pid (other_pid));

  /* Not chosen yet: all as root, mine otherwise. */
  g_settings_reset (settings, "show-processes");
  g_assert_true (pgs_ui_wait (shows_default, NULL, 10000));
  state = g_action_group_get_action_state (pgs_process_list_get_actions (list ()), "show-processes");
  g_assert_cmpstr (g_variant_get_string (state, NULL), ==, geteuid () == 0 ? "all" : "mine");
  g_assert_true (shows_pid (other_pid) == (geteuid () == 0));

  set_state ("show-processes", g_variant_new_string ("all"));
  if (other > 0)
    {
      kill (other, SIGTERM);
      waitpid (other, NULL, 0);
    }
}

static GtkColumnViewColumn *
column_titled (const char *title)
{
  GtkColumnView *view = GTK_COLUMN_VIEW (pgs_process_list_get_column_view (list ()));
  GListModel *columns = gtk_column_view_get_columns (view);

  for (guint i = 0; i < g_list_model_get_n_items (columns); i++)
    {
      g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (columns, i);

      if (g_strcmp0 (gtk_column_view_column_get_title (column), title) == 0)
        return column;   /* the view keeps it */
    }
  g_assert_not_reached ();
}

/* Two runs on one keyfile: the first hides VSS and shows Clean, the second finds them so. */
static void
test_columns_persist (void)
{
  g_autofree char *config = NULL;
  g_autofree char *keyfile = NULL;
  g_autofree char *contents = NULL;

  if (g_test_subprocess ())
    {
      GtkWidget *widget = g_object_ref_sink (pgs_process_list_new ());
      GActionGroup *actions = pgs_process_list_get_actions (PGS_PROCESS_LIST (widget));
      GtkColumnView *view = GTK_COLUMN_VIEW (pgs_process_list_get_column_view (PGS_PROCESS_LIST (widget)));
      GListModel *columns = gtk_column_view_get_columns (view);
      g_autoptr(GtkColumnViewColumn) vss = g_list_model_get_item (columns, 3);
      g_autoptr(GtkColumnViewColumn) clean = g_list_model_get_item (columns, 8);
      g_autoptr(GVariant) vss_state = g_action_group_get_action_state (actions, "column-vss");
      g_autoptr(GVariant) clean_state = g_action_group_get_action_state (actions, "column-clean");

      g_assert_cmpstr (gtk_column_view_column_get_title (vss), ==, "VSS");
      g_assert_cmpstr (gtk_column_view_column_get_title (clean), ==, "Clean");
      if (g_strcmp0 (g_getenv ("PGS_TEST_RUN"), "first") == 0)
        {
          /* The defaults: VSS shown, Clean not. */
          g_assert_true (gtk_column_view_column_get_visible (vss));
          g_assert_false (gtk_column_view_column_get_visible (clean));
          g_action_group_change_action_state (actions, "column-vss", g_variant_new_boolean (FALSE));
          g_action_group_change_action_state (actions, "column-clean", g_variant_new_boolean (TRUE));
          g_assert_false (gtk_column_view_column_get_visible (vss));
          g_assert_true (gtk_column_view_column_get_visible (clean));
          g_settings_sync ();
        }
      else
        {
          g_assert_false (g_variant_get_boolean (vss_state));
          g_assert_true (g_variant_get_boolean (clean_state));
          g_assert_false (gtk_column_view_column_get_visible (vss));
          g_assert_true (gtk_column_view_column_get_visible (clean));
        }
      g_object_unref (widget);
      return;
    }

  config = g_build_filename (fx.tmpdir, "config", NULL);
  g_setenv ("XDG_CONFIG_HOME", config, TRUE);
  g_setenv ("GSETTINGS_BACKEND", "keyfile", TRUE);
  g_setenv ("PGS_TEST_RUN", "first", TRUE);
  g_test_trap_subprocess (NULL, 60000000, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
  keyfile = g_build_filename (config, "glib-2.0", "settings", "keyfile", NULL);
  g_assert_true (g_file_get_contents (keyfile, &contents, NULL, NULL));
  g_test_message ("%s", contents);
  g_assert_nonnull (strstr (contents, "process-columns="));

  g_setenv ("PGS_TEST_RUN", "second", TRUE);
  g_test_trap_subprocess (NULL, 60000000, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
  g_unsetenv ("PGS_TEST_RUN");
  g_unsetenv ("GSETTINGS_BACKEND");
  g_unsetenv ("XDG_CONFIG_HOME");
}

static const char *
reason (PgsProcessMenuItem item)
{
  return pgs_process_menu_get_reason (pgs_process_list_get_context_menu (list ()), item);
}

static gboolean
enabled (PgsProcessMenuItem item)
{
  return gtk_widget_get_sensitive (pgs_process_menu_get_button (pgs_process_list_get_context_menu (list ()),
                                                                item));
}

static char *
clipboard_text (void)
{
  GdkClipboard *clipboard = gtk_widget_get_clipboard (GTK_WIDGET (list ()));
  GdkContentProvider *content = gdk_clipboard_get_content (clipboard);
  GValue value = G_VALUE_INIT;
  char *text;

  g_assert_nonnull (content);
  g_value_init (&value, G_TYPE_STRING);
  g_assert_true (gdk_content_provider_get_value (content, &value, NULL));
  text = g_value_dup_string (&value);
  g_value_unset (&value);
  return text;
}

/* The child's command line, read here: its arguments joined by spaces. */
static char *
child_cmdline (void)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/cmdline", fx.proc.pid);
  g_autofree char *contents = NULL;
  gsize length;

  g_assert_true (g_file_get_contents (path, &contents, &length, NULL));
  for (gsize i = 0; i + 1 < length; i++)
    if (contents[i] == '\0')
      contents[i] = ' ';
  return g_strndup (contents, length > 0 ? length - 1 : 0);
}

static void
test_menu_live (void)
{
  g_autofree char *text = NULL;
  g_autofree char *expected = NULL;

  refresh ();
  g_assert_true (pgs_process_list_select_pid (list (), fx.proc.pid));
  gtk_test_widget_wait_for_draw (GTK_WIDGET (fx.window));

  /* The child is this user's and live: all there (its owner may read its pagemap). */
  g_assert_true (enabled (PGS_PROCESS_MENU_SHOW_PAGES));
  g_assert_null (reason (PGS_PROCESS_MENU_SHOW_PAGES));
  g_assert_true (enabled (PGS_PROCESS_MENU_MEASURE_WSS));
  g_assert_null (reason (PGS_PROCESS_MENU_MEASURE_WSS));
  g_assert_true (enabled (PGS_PROCESS_MENU_COPY_PID));
  g_assert_true (enabled (PGS_PROCESS_MENU_COPY_CMDLINE));
  g_assert_true (enabled (PGS_PROCESS_MENU_COMPARE));
  g_assert_null (reason (PGS_PROCESS_MENU_COMPARE));

  /* Copy PID and Copy Command Line put them on the clipboard. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (list ()), "list.copy-pid", NULL));
  text = clipboard_text ();
  expected = g_strdup_printf ("%d", fx.proc.pid);
  g_assert_cmpstr (text, ==, expected);
  g_free (text);
  g_free (expected);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (list ()), "list.copy-cmdline", NULL));
  text = clipboard_text ();
  expected = child_cmdline ();
  g_assert_cmpstr (text, ==, expected);

  /* The menu opens from the keyboard (Menu, Shift+F10: list.context-menu) and shows. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (list ()), "list.context-menu", NULL));
  gtk_test_widget_wait_for_draw (GTK_WIDGET (fx.window));
  g_assert_true (gtk_widget_get_visible (pgs_process_list_get_context_menu (list ())));
  gtk_popover_popdown (GTK_POPOVER (pgs_process_list_get_context_menu (list ())));

  /* Show Pages goes to the child's residency map. */
  if (geteuid () == 0)
    {
      g_assert_true (gtk_widget_activate_action (GTK_WIDGET (list ()), "list.show-pages", NULL));
      g_assert_cmpstr (pgs_window_get_view (fx.window), ==, "residency");
      pgs_window_set_view (fx.window, "processes");
    }
}

static gboolean
file_exists (gpointer data)
{
  return g_file_test (data, G_FILE_TEST_EXISTS);
}

/* A snapshot file: its processes are not running here, so no working set; Show Pages
 * still, since the file keeps pages. */
static void
test_menu_file (void)
{
  g_autofree char *path = g_build_filename (fx.tmpdir, "menu.pgsnap", NULL);
  PgsSnapshot *live;

  refresh ();
  live = pgs_window_get_snapshot (fx.window);
  gtk_widget_activate_action (GTK_WIDGET (fx.window), "win.save-snapshot-to-file", "s", path);
  pgs_ui_wait_idle_scan (fx.window);
  g_assert_true (pgs_ui_wait (file_exists, path, 60000));
  pgs_ui_spin (500);
  gtk_widget_activate_action (GTK_WIDGET (fx.window), "win.open-snapshot-file", "s", path);
  for (int i = 0; i < 600 && (pgs_window_get_snapshot (fx.window) == live ||
                              pgs_snapshot_get_file (pgs_window_get_snapshot (fx.window)) == NULL); i++)
    pgs_ui_spin (100);
  g_assert_nonnull (pgs_snapshot_get_file (pgs_window_get_snapshot (fx.window)));

  g_assert_true (pgs_process_list_select_pid (list (), fx.proc.pid));
  gtk_test_widget_wait_for_draw (GTK_WIDGET (fx.window));
  g_assert_false (enabled (PGS_PROCESS_MENU_MEASURE_WSS));
  g_assert_nonnull (strstr (reason (PGS_PROCESS_MENU_MEASURE_WSS), "snapshot file"));
  g_assert_true (enabled (PGS_PROCESS_MENU_COPY_PID));
  g_assert_true (enabled (PGS_PROCESS_MENU_COMPARE));
  if (geteuid () == 0)
    g_assert_true (enabled (PGS_PROCESS_MENU_SHOW_PAGES));

  /* Back to the live system. */
  refresh ();
  g_assert_null (pgs_snapshot_get_file (pgs_window_get_snapshot (fx.window)));
}

static GtkTreeListRow *
tree_row_of (int pid)
{
  GtkColumnView *view = GTK_COLUMN_VIEW (pgs_process_list_get_column_view (list ()));
  GListModel *model = G_LIST_MODEL (gtk_column_view_get_model (view));

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(GtkTreeListRow) row = g_list_model_get_item (model, i);
      g_autoptr(GObject) item = gtk_tree_list_row_get_item (row);

      if (pgs_process_get_pid (pgs_row_get_item (PGS_ROW (item))) == pid)
        return g_steal_pointer (&row);
    }
  return NULL;
}

static int
parent_pid (GtkTreeListRow *row)
{
  g_autoptr(GtkTreeListRow) parent = gtk_tree_list_row_get_parent (row);
  g_autoptr(GObject) item = NULL;

  if (parent == NULL)
    return 0;
  item = gtk_tree_list_row_get_item (parent);
  return pgs_process_get_pid (pgs_row_get_item (PGS_ROW (item)));
}

static guint64
rss_of (GListModel *model,
        guint       i)
{
  g_autoptr(PgsProcess) process = g_list_model_get_item (model, i);

  return pgs_process_get_rss (process);
}

/* Sorted by RSS, smallest first, a row selected, scrolled half way: the same after three
 * refreshes, in the flat list and in the tree (where the expanded rows stay expanded). */
static void
check_state_kept (gboolean tree)
{
  GtkColumnView *view = GTK_COLUMN_VIEW (pgs_process_list_get_column_view (list ()));
  GtkScrolledWindow *scroller = GTK_SCROLLED_WINDOW (gtk_widget_get_parent (GTK_WIDGET (view)));
  GtkAdjustment *adjustment = gtk_scrolled_window_get_vadjustment (scroller);
  double scroll, row_height;

  gtk_column_view_sort_by_column (view, column_titled ("RSS"), GTK_SORT_ASCENDING);
  g_assert_true (pgs_process_list_select_pid (list (), fx.proc.pid));
  gtk_test_widget_wait_for_draw (GTK_WIDGET (fx.window));
  gtk_adjustment_set_value (adjustment, (gtk_adjustment_get_upper (adjustment) -
                                         gtk_adjustment_get_page_size (adjustment)) / 2);
  gtk_test_widget_wait_for_draw (GTK_WIDGET (fx.window));
  scroll = gtk_adjustment_get_value (adjustment);
  row_height = gtk_adjustment_get_upper (adjustment) /
               MAX (1, g_list_model_get_n_items (pgs_process_list_get_model (list ())));
  g_test_message ("%s: scrolled to %.0f, rows %.0f px", tree ? "tree" : "flat", scroll, row_height);

  for (int r = 0; r < 3; r++)
    {
      GListModel *model = pgs_process_list_get_model (list ());
      g_autoptr(GHashTable) before = pgs_ui_list_pids (list ());
      g_autoptr(GHashTable) after = NULL;
      PgsProcess *selected;
      guint n, churn;

      refresh ();
      after = pgs_ui_list_pids (list ());
      churn = pgs_ui_pids_missing (before, after) + pgs_ui_pids_missing (after, before);
      g_test_message ("refresh %d: %u rows came or went", r + 1, churn);
      selected = pgs_process_list_get_selected_process (list ());
      g_assert_nonnull (selected);
      g_assert_cmpint (pgs_process_get_pid (selected), ==, fx.proc.pid);
      /* Still by RSS, smallest first: in the flat list every row, in the tree the roots. */
      n = g_list_model_get_n_items (model);
      for (guint i = 1; i < n && !tree; i++)
        if (rss_of (model, i - 1) > rss_of (model, i))
          g_error ("refresh %d: row %u of %u has RSS %" G_GUINT64_FORMAT ", row %u %" G_GUINT64_FORMAT,
                   r + 1, i - 1, n, rss_of (model, i - 1), i, rss_of (model, i));
      if (tree)
        {
          g_autoptr(GtkTreeListRow) row = tree_row_of (fx.proc.pid);

          g_assert_nonnull (row);
          g_assert_cmpint (parent_pid (row), ==, getpid ());
          g_assert_true (pgs_process_list_is_expanded (list (), getpid ()));
        }
      /* Scrolled where it was, give or take the rows of processes that came and went (the
       * machine goes on) and three more: not back to the top, as a rebuilt list would be. */
      g_assert_cmpfloat (fabs (gtk_adjustment_get_value (adjustment) - scroll), <=,
                         (churn + 3) * row_height);
      scroll = gtk_adjustment_get_value (adjustment);
    }
}

static void
test_state_flat (void)
{
  check_state_kept (FALSE);
}

/* The child shows under this process; expanded, it stays so over refreshes. */
static void
test_tree (void)
{
  g_autoptr(GtkTreeListRow) row = NULL;
  g_autoptr(GVariant) state = NULL;

  set_state ("tree", g_variant_new_boolean (TRUE));
  g_assert_true (g_settings_get_boolean (pgs_application_get_settings (fx.app), "process-tree"));
  gtk_test_widget_wait_for_draw (GTK_WIDGET (fx.window));

  /* Selecting the child expands its ancestors. */
  g_assert_true (pgs_process_list_select_pid (list (), fx.proc.pid));
  row = tree_row_of (fx.proc.pid);
  g_assert_nonnull (row);
  g_assert_cmpint (parent_pid (row), ==, getpid ());
  g_assert_cmpuint (gtk_tree_list_row_get_depth (row), >=, 1);
  g_clear_object (&row);
  row = tree_row_of (getpid ());
  g_assert_true (gtk_tree_list_row_is_expandable (row));
  g_assert_true (gtk_tree_list_row_get_expanded (row));

  check_state_kept (TRUE);

  set_state ("tree", g_variant_new_boolean (FALSE));
  state = g_action_group_get_action_state (pgs_process_list_get_actions (list ()), "tree");
  g_assert_false (g_variant_get_boolean (state));
  g_assert_cmpint (pgs_process_get_pid (pgs_process_list_get_selected_process (list ())), ==,
                   fx.proc.pid);
}

/* The label under @widget whose text starts with @prefix, or NULL. */
static GtkLabel *
label_starting (GtkWidget  *widget,
                const char *prefix)
{
  if (GTK_IS_LABEL (widget) && gtk_widget_get_mapped (widget) &&
      g_str_has_prefix (gtk_label_get_text (GTK_LABEL (widget)), prefix))
    return GTK_LABEL (widget);
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkLabel *found = label_starting (child, prefix);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* Issue 21 item 8: "Showing 1 of 29" beside the RSS of all 29. The totals add up the rows
 * shown: a search for the child's PID gives the child's own RSS, from its smaps_rollup. */
static void
test_totals_follow_filter (void)
{
  g_autofree char *pid = g_strdup_printf ("%d", fx.proc.pid);
  g_autofree char *units = g_settings_get_string (pgs_application_get_settings (fx.app), "units");
  g_autofree char *rss = NULL;
  g_autofree char *expected = NULL;
  GtkLabel *totals;

  set_state ("show-processes", g_variant_new_string ("all"));
  refresh ();
  pgs_process_list_set_search_text (list (), pid);
  gtk_test_widget_wait_for_draw (GTK_WIDGET (fx.window));
  /* The search keeps a PID it starts with, or a name it is in: on a busy machine other
   * processes' PIDs can start with the child's (12345 with 1234). Those are shown too, with
   * the figures of the list's scan; the child's are the kernel's (it sleeps, so its scan
   * and its smaps_rollup agree). */
  {
    PgsSnapshot *snapshot = pgs_window_get_snapshot (fx.window);
    guint64 sum = pgs_ui_rollup_rss (fx.proc.pid);
    guint n_matched = 0;

    for (guint i = 0; i < pgs_snapshot_get_n_processes (snapshot); i++)
      {
        PgsProcess *p = pgs_snapshot_get_process (snapshot, i);
        g_autofree char *p_pid = g_strdup_printf ("%d", pgs_process_get_pid (p));
        g_autofree char *name = g_utf8_casefold (pgs_process_get_name (p), -1);

        if (!g_str_has_prefix (p_pid, pid) && strstr (name, pid) == NULL)
          continue;
        n_matched++;
        if (pgs_process_get_pid (p) == fx.proc.pid)
          g_assert_cmpuint (pgs_process_get_rss (p), ==, sum);
        else
          {
            g_test_message ("PID %s also matches \"%s\"", p_pid, pid);
            sum += pgs_process_get_rss (p);
          }
      }
    g_assert_cmpuint (n_matched, >=, 1);
    g_assert_cmpuint (g_list_model_get_n_items (pgs_process_list_get_model (list ())), ==, n_matched);
    rss = pgs_units_format (pgs_units_from_string (units), sum);
  }
  {
    /* Each total is one unbreakable item: "RSS 400 KiB" with no-break spaces, then three
     * spaces before the next. */
    g_autoptr(GString) item = g_string_new (NULL);

    g_string_printf (item, "RSS %s", rss);
    g_string_replace (item, " ", "\u00a0", 0);
    g_string_append (item, "   ");
    expected = g_string_free (g_steal_pointer (&item), FALSE);
  }
  totals = label_starting (GTK_WIDGET (list ()), "RSS\u00a0");
  g_assert_nonnull (totals);
  g_test_message ("totals: %s", gtk_label_get_text (totals));
  g_assert_true (g_str_has_prefix (gtk_label_get_text (totals), expected));

  /* "4 not measured" says in its tooltip what it means and which PIDs it counts. */
  {
    PgsSnapshot *snapshot = pgs_window_get_snapshot (fx.window);
    guint n_skipped = pgs_snapshot_get_n_skipped (snapshot);

    if (n_skipped > 0)
      {
        g_autofree char *item = g_strdup_printf ("%u\u00a0not\u00a0measured", n_skipped);
        g_autofree char *said = g_strdup_printf ("%u not measured:", n_skipped);
        g_autofree char *pid_line = g_strdup_printf ("\n%d: ",
                                                     pgs_snapshot_get_skipped (snapshot, 0)->pid);
        const char *tip = gtk_widget_get_tooltip_text (GTK_WIDGET (totals));

        g_assert_nonnull (strstr (gtk_label_get_text (totals), item));
        g_assert_nonnull (tip);
        g_assert_nonnull (strstr (tip, said));
        g_assert_nonnull (strstr (tip, pid_line));
      }
    else
      g_test_message ("every process was measured: the tooltip of \"not measured\" is not tried");
  }

  /* The whole list again: the snapshot's totals, more than the child alone. */
  pgs_process_list_set_search_text (list (), NULL);
  gtk_test_widget_wait_for_draw (GTK_WIDGET (fx.window));
  g_assert_false (g_str_has_prefix (gtk_label_get_text (totals), expected));
}

/* A process selected from outside the list (--pid, a frame's user, another view) is
 * scrolled into view: the last row of a list taller than its view. */
static void
test_select_scrolls (void)
{
  GListModel *model = pgs_process_list_get_model (list ());
  guint n = g_list_model_get_n_items (model);
  g_autoptr(GObject) last = g_list_model_get_item (model, n - 1);
  PgsProcess *process = PGS_PROCESS (last);
  GtkScrolledWindow *scroller =
    GTK_SCROLLED_WINDOW (gtk_widget_get_parent (pgs_process_list_get_column_view (list ())));
  GtkAdjustment *adjustment = gtk_scrolled_window_get_vadjustment (scroller);
  double row_height;

  gtk_adjustment_set_value (adjustment, 0);
  gtk_test_widget_wait_for_draw (GTK_WIDGET (fx.window));
  if (gtk_adjustment_get_upper (adjustment) <= gtk_adjustment_get_page_size (adjustment))
    {
      g_test_message ("all %u processes are in view: nothing to scroll to", n);
      return;
    }
  row_height = gtk_adjustment_get_upper (adjustment) / n;
  pgs_window_select_pid (fx.window, pgs_process_get_pid (process));
  gtk_test_widget_wait_for_draw (GTK_WIDGET (fx.window));
  gtk_test_widget_wait_for_draw (GTK_WIDGET (fx.window));
  g_test_message ("row %u of %u: scrolled to %.0f, view %.0f px, rows %.1f px", n, n,
                  gtk_adjustment_get_value (adjustment), gtk_adjustment_get_page_size (adjustment),
                  row_height);
  g_assert_true (pgs_process_list_get_selected_process (list ()) == process);
  g_assert_cmpfloat (gtk_adjustment_get_value (adjustment) + gtk_adjustment_get_page_size (adjustment),
                     >=, n * row_height - 1);
}

int
main (int   argc,
      char *argv[])
{
  int status;

  pgs_ui_init (&argc, &argv);
  g_test_add_func ("/pgs/ui/process-list/columns-persist", test_columns_persist);
  if (g_test_subprocess ())
    return g_test_run ();

  pgs_ui_child_start (&fx.proc, 100);
  fx.tmpdir = g_dir_make_tmp ("pgs-ui-list-XXXXXX", NULL);
  fx.window = pgs_ui_open_window (&fx.app);
  pgs_ui_wait_idle_scan (fx.window);

  g_test_add_func ("/pgs/ui/process-list/mine", test_mine);
  g_test_add_func ("/pgs/ui/process-list/menu-live", test_menu_live);
  g_test_add_func ("/pgs/ui/process-list/state-flat", test_state_flat);
  g_test_add_func ("/pgs/ui/process-list/tree", test_tree);
  g_test_add_func ("/pgs/ui/process-list/menu-file", test_menu_file);
  g_test_add_func ("/pgs/ui/process-list/totals-follow-filter", test_totals_follow_filter);
  g_test_add_func ("/pgs/ui/process-list/select-scrolls", test_select_scrolls);
  status = g_test_run ();

  gtk_window_destroy (GTK_WINDOW (fx.window));
  g_clear_object (&fx.app);
  pgs_ui_child_stop (&fx.proc);
  {
    const char *argv_rm[] = { "rm", "-rf", fx.tmpdir, NULL };

    g_spawn_sync (NULL, (char **) argv_rm, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL,
                  NULL, NULL);
  }
  g_free (fx.tmpdir);
  return status;
}
