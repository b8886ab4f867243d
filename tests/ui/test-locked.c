/* test-locked.c: the app as a user, locked and then unlocked
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Run as nobody (run-unprivileged.sh), where every other process belongs to another user.
 * Locked: the banner offers Unlock, the lock button says locked, the working-set action
 * on root's PID 1 is disabled with the reason as its tooltip, and a process whose PSS is
 * unknown sorts by its RSS among the others, not to the bottom. Unlocked (when the
 * launcher, run-unlocked.py, started the helper as root and passes PGS_HELPER_FD): the
 * next scan is privileged, a process of root's has its PSS, and Sharing and Page Flags
 * draw a physical map whose frames are counted. Run as root there is no other user:
 * skipped (77).
 */

#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pgs-process-menu.h"
#include "pgs-ui-util.h"

static PgsApplication *app;
static PgsWindow *window;

static guint64
sort_key (PgsProcess *process)
{
  if (pgs_process_is_known (process, PGS_METRIC_PSS))
    return pgs_process_get_pss (process);
  return pgs_process_get_rss (process);
}

static gboolean
pid_selected (gpointer data)
{
  PgsProcessDetail *detail = pgs_window_get_process_detail (window);
  PgsProcess *process = pgs_process_detail_get_process (detail);

  return process != NULL && pgs_process_get_pid (process) == GPOINTER_TO_INT (data);
}

static void
test_locked (void)
{
  PgsSnapshot *snapshot = pgs_window_get_snapshot (window);
  PgsProcessDetail *detail = pgs_window_get_process_detail (window);
  GListModel *model = pgs_process_list_get_model (pgs_window_get_process_list (window));
  guint n = g_list_model_get_n_items (model);
  guint n_unknown = 0;
  PgsProcess *init;

  g_assert_false (pgs_snapshot_is_privileged (snapshot));
  g_assert_false (pgs_window_is_unlocked (window));
  g_assert_nonnull (strstr (pgs_window_get_banner_text (window), "Unlock"));
  g_assert_null (strstr (pgs_window_get_banner_text (window), "pkexec"));
  /* Issue 21, 17: plain words, the kernel's file names behind Learn more. */
  g_assert_null (strstr (pgs_window_get_banner_text (window), "/proc"));
  g_assert_null (strstr (pgs_window_get_banner_text (window), "smaps_rollup"));
  g_assert_nonnull (strstr (pgs_window_get_banner_text (window), "no physical memory maps"));

  /* PID 1 is root's: only its status could be read. */
  init = pgs_snapshot_lookup_pid (snapshot, 1);
  g_assert_nonnull (init);
  g_assert_false (pgs_process_is_known (init, PGS_METRIC_PSS));
  g_assert_true (pgs_process_is_known (init, PGS_METRIC_RSS));

  /* Sorted by PSS, largest first; a process without one by its RSS. */
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(PgsProcess) process = g_list_model_get_item (model, i);

      if (!pgs_process_is_known (process, PGS_METRIC_PSS))
        n_unknown++;
      if (i > 0)
        {
          g_autoptr(PgsProcess) previous = g_list_model_get_item (model, i - 1);

          g_assert_cmpuint (sort_key (previous), >=, sort_key (process));
        }
    }
  g_assert_cmpuint (n_unknown, >, 0);

  /* The working set of another user's process cannot be measured: disabled, and why. */
  pgs_window_select_pid (window, 1);
  g_assert_true (pgs_ui_wait (pid_selected, GINT_TO_POINTER (1), 10000));
  gtk_test_widget_wait_for_draw (GTK_WIDGET (window));
  g_assert_false (gtk_widget_is_sensitive (pgs_process_detail_get_wss_button (detail)));
  g_assert_nonnull (strstr (pgs_process_detail_get_wss_tooltip (detail), "clear_refs"));

  /* Issue 21, 17: nor its pages: Show Pages is disabled, and says why. */
  {
    PgsProcessList *list = pgs_window_get_process_list (window);
    GtkWidget *menu = pgs_process_list_get_context_menu (list);

    g_assert_cmpstr (pgs_process_menu_get_reason (menu, PGS_PROCESS_MENU_SHOW_PAGES), ==,
                     "Its pages could not be read: that needs root, or Unlock");
    /* Disabled: activating it leaves the view where it is. */
    gtk_widget_activate_action (GTK_WIDGET (list), "list.show-pages", NULL);
    g_assert_cmpstr (pgs_window_get_view (window), ==, "processes");
    /* The detail pane's Show Pages button too (it led to "No Page Data"). */
    g_assert_false (gtk_widget_is_sensitive (pgs_process_detail_get_pages_button (detail)));
    g_assert_cmpstr (gtk_widget_get_tooltip_text (pgs_process_detail_get_pages_button (detail)), ==,
                     "Its pages could not be read: that needs root, or Unlock");
  }
}

static gboolean
not_unlocking (gpointer data)
{
  /* The lock button says "Unlocking…" while the attempt runs. */
  return !g_str_has_prefix (gtk_widget_get_tooltip_text (data), "Unlocking");
}

static GtkWidget *
find_lock_button (GtkWidget *widget)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found;

      if (GTK_IS_BUTTON (child) &&
          g_strcmp0 (gtk_actionable_get_action_name (GTK_ACTIONABLE (child)),
                     "win.toggle-lock") == 0)
        return child;
      if ((found = find_lock_button (child)) != NULL)
        return found;
    }
  return NULL;
}

/* pkexec exits 126 when the password dialog is dismissed and 127 when authorisation is
 * refused: the first is the user's choice (no message, still locked), the second an error
 * the user is told. PGS_HELPER_COMMAND stands in for pkexec. */
static void
test_dismissed (void)
{
  GtkWidget *lock = find_lock_button (GTK_WIDGET (window));
  const char *tooltip;

  if (g_getenv ("PGS_HELPER_FD") != NULL)
    {
      g_test_skip ("A helper is provided: nothing to dismiss");
      return;
    }
  g_assert_nonnull (lock);
  g_assert_null (pgs_window_get_toast_text (window));

  g_setenv ("PGS_HELPER_COMMAND", "sh -c 'exit 126'", TRUE);
  pgs_window_unlock (window);
  g_assert_true (pgs_ui_wait (not_unlocking, lock, 30000));
  g_assert_false (pgs_window_is_unlocked (window));
  g_assert_null (pgs_window_get_toast_text (window));
  g_assert_nonnull (strstr (pgs_window_get_banner_text (window), "Unlock"));
  tooltip = gtk_widget_get_tooltip_text (lock);
  g_assert_true (g_str_has_prefix (tooltip, "Locked"));

  g_setenv ("PGS_HELPER_COMMAND", "sh -c 'exit 127'", TRUE);
  pgs_window_unlock (window);
  g_assert_true (pgs_ui_wait (not_unlocking, lock, 30000));
  g_assert_false (pgs_window_is_unlocked (window));
  g_assert_true (g_str_has_prefix (pgs_window_get_toast_text (window), "Could not unlock: "));
  g_unsetenv ("PGS_HELPER_COMMAND");
}

/* Issue 21, 6: each failure says what happened. A fake pkexec (PGS_HELPER_COMMAND) prints
 * what pkexec 0.105-126 prints on stderr (probed on Debian 12: "pkexec /nonexistent"; the
 * agent and refusal lines are pkexec.c's) and exits with pkexec's status. */
static void
test_unlock_causes (void)
{
  static const struct
  {
    const char *command;
    const char *toast;
  } cases[] = {
    { "sh -c 'echo \"Error accessing /usr/libexec/pagescope-helper: No such file or directory\" >&2; exit 127'",
      "Could not unlock: the helper is not installed (Error accessing /usr/libexec/pagescope-helper: "
      "No such file or directory); reinstall Pagescope" },
    { "sh -c 'echo \"Error executing command as another user: No authentication agent found.\" >&2; exit 127'",
      "Could not unlock: no authentication agent is running to ask for the password (Error "
      "executing command as another user: No authentication agent found.)" },
    { "sh -c 'echo \"Error executing command as another user: Not authorized\" >&2; exit 127'",
      "Could not unlock: authentication was refused: not authorised to read the memory of every "
      "process" },
    { "sh -c 'echo \"pagescope-helper: cannot open /proc\" >&2; exit 1'",
      "Could not unlock: the helper failed (exit status 1): pagescope-helper: cannot open /proc" },
  };
  GtkWidget *lock = find_lock_button (GTK_WIDGET (window));

  if (g_getenv ("PGS_HELPER_FD") != NULL)
    {
      g_test_skip ("A helper is provided: no pkexec to fail");
      return;
    }
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_setenv ("PGS_HELPER_COMMAND", cases[i].command, TRUE);
      pgs_window_unlock (window);
      g_assert_true (pgs_ui_wait (not_unlocking, lock, 30000));
      g_assert_false (pgs_window_is_unlocked (window));
      g_assert_cmpstr (pgs_window_get_toast_text (window), ==, cases[i].toast);
    }
  g_unsetenv ("PGS_HELPER_COMMAND");
}

static gboolean
unlocked_scan_done (gpointer data)
{
  PgsSnapshot *snapshot = pgs_window_get_snapshot (window);

  return pgs_window_is_unlocked (window) && !pgs_window_is_busy (window) &&
         snapshot != NULL && pgs_snapshot_is_privileged (snapshot);
}

static gboolean
page_has_map (gpointer data)
{
  return pgs_map_page_has_map (data);
}

static void
assert_map_draws (PgsView view, const char *name)
{
  PgsMapPage *page = pgs_window_get_map_page (window, view);

  pgs_window_set_view (window, name);
  /* The renderer is made in a worker once the page is shown. */
  g_assert_true (pgs_ui_wait (page_has_map, page, 60000));
  pgs_ui_wait_map_ready (pgs_map_page_get_map_view (page));
}

static void
test_unlock (void)
{
  PgsSnapshot *snapshot;
  PgsPhysMap *physmap;
  const guint32 *counts;
  const guint64 *flags;
  guint64 n_frames, n_used = 0, n_flagged = 0;
  PgsProcess *root_child;

  if (g_getenv ("PGS_HELPER_FD") == NULL || g_getenv ("PGS_UI_ROOT_PID") == NULL)
    {
      g_test_skip ("No helper (PGS_HELPER_FD): run-unlocked.py runs this part");
      return;
    }

  pgs_window_unlock (window);
  g_assert_true (pgs_ui_wait (unlocked_scan_done, NULL, 120000));
  gtk_test_widget_wait_for_draw (GTK_WIDGET (window));
  g_assert_null (pgs_window_get_banner_text (window));

  /* The launcher's child, root's: locked, its PSS was unknown; unlocked, it is counted
   * page by page, all its pages its own (a static child that shares none but the vdso). */
  snapshot = pgs_window_get_snapshot (window);
  root_child = pgs_snapshot_lookup_pid (snapshot, atoi (g_getenv ("PGS_UI_ROOT_PID")));
  g_assert_nonnull (root_child);
  g_assert_cmpuint (pgs_process_get_uid (root_child), ==, 0);
  g_assert_true (pgs_process_is_known (root_child, PGS_METRIC_PSS));
  g_assert_cmpuint (pgs_process_get_pss (root_child), >=, 256 * (guint64) sysconf (_SC_PAGESIZE));
  g_assert_cmpuint (pgs_process_get_pss (root_child), <=, pgs_process_get_rss (root_child));

  /* The frames the legend counts: some in use, some with flags set. The physical map is
   * read once a page shows it. */
  pgs_window_set_view (window, "sharing");
  pgs_ui_wait_idle_scan (window);
  snapshot = pgs_window_get_snapshot (window);
  physmap = pgs_snapshot_get_physmap (snapshot);
  g_assert_nonnull (physmap);
  n_frames = pgs_physmap_get_n_frames (physmap);
  counts = pgs_physmap_get_counts (physmap);
  flags = pgs_physmap_get_flags (physmap);
  g_assert_cmpuint (n_frames, >, 0);
  for (guint64 i = 0; i < n_frames; i++)
    {
      n_used += counts[i] > 0;
      n_flagged += flags[i] != 0;
    }
  g_assert_cmpuint (n_used, >, 0);
  g_assert_cmpuint (n_flagged, >, 0);

  assert_map_draws (PGS_VIEW_SHARING, "sharing");
  assert_map_draws (PGS_VIEW_FLAGS, "flags");
  pgs_window_set_view (window, "processes");

  /* Unlocked, the helper opens clear_refs too: root's process may be measured. */
  /* (root_child was of an earlier snapshot: by its PID.) */
  pgs_window_select_pid (window, atoi (g_getenv ("PGS_UI_ROOT_PID")));
  g_assert_true (pgs_ui_wait (pid_selected, GINT_TO_POINTER (atoi (g_getenv ("PGS_UI_ROOT_PID"))), 10000));
  gtk_test_widget_wait_for_draw (GTK_WIDGET (window));
  g_assert_true (gtk_widget_is_sensitive (pgs_process_detail_get_wss_button (pgs_window_get_process_detail (window))));

  /* The lock button locks again: the next scan is the user's own view. */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.toggle-lock", NULL);
  g_assert_false (pgs_window_is_unlocked (window));
  pgs_ui_wait_idle_scan (window);
  snapshot = pgs_window_get_snapshot (window);
  g_assert_false (pgs_snapshot_is_privileged (snapshot));
  g_assert_null (pgs_snapshot_get_physmap (snapshot));
  g_assert_nonnull (strstr (pgs_window_get_banner_text (window), "Unlock"));
}

int
main (int    argc,
      char **argv)
{
  int status;

  pgs_ui_init (&argc, &argv);
  if (geteuid () == 0)
    {
      g_printerr ("Run as root, no process belongs to another user: skipped\n");
      return 77;
    }
  window = pgs_ui_open_window (&app);
  pgs_ui_wait_idle_scan (window);

  g_test_add_func ("/ui/locked/locked", test_locked);
  g_test_add_func ("/ui/locked/dismissed", test_dismissed);
  g_test_add_func ("/ui/locked/unlock-causes", test_unlock_causes);
  g_test_add_func ("/ui/locked/unlock", test_unlock);
  status = g_test_run ();

  gtk_window_destroy (GTK_WINDOW (window));
  g_object_unref (app);
  return status;
}
