/* test-groups.c: the Groups page of the app window
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The child (pgs-ui-child, static, writes CHILD_PAGES pages) is this test's only child, so
 * grouped by parent process it is alone in the group of this test's PID: the group's row
 * must carry the child's own figures from the window's snapshot, its private figure (as
 * root) the frames only the child maps, which for a static process that shares nothing is
 * its USS, at least CHILD_PAGES pages. The group expands to the child's row. On the
 * Libraries page, the child's executable (mapped by no other process) has the sums of the
 * child's smaps entries for it, read here. Run under xvfb-run; without a display it skips
 * (exit 77).
 */

#include "config.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pgs-group-item.h"
#include "pgs-group-view.h"
#include "pgs-library-view.h"
#include "pgs-map-page.h"
#include "pgs-cell.h"
#include "pgs-ui-util.h"

#define CHILD_PAGES 200

static PgsUiRun child;

/* Sums of @pid's smaps entries for @path: Size, Rss, Private_Clean + Private_Dirty. */
static void
smaps_for (int         pid,
           const char *path,
           guint64    *size,
           guint64    *rss,
           guint64    *uss)
{
  g_autofree char *file = g_strdup_printf ("/proc/%d/smaps", pid);
  g_autofree char *contents = NULL;
  g_auto(GStrv) lines = NULL;
  gboolean in = FALSE;

  *size = *rss = *uss = 0;
  g_assert_true (g_file_get_contents (file, &contents, NULL, NULL));
  lines = g_strsplit (contents, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *l = lines[i];
      const char *sp = strchr (l, ' ');

      /* A mapping's header starts with its range, "start-end", in lower-case hex. */
      if (sp != NULL && memchr (l, '-', sp - l) != NULL &&
          strspn (l, "0123456789abcdef-") == (gsize) (sp - l))
        {
          in = g_str_has_suffix (l, path);
          continue;
        }
      if (!in)
        continue;
      if (g_str_has_prefix (l, "Size:"))
        *size += g_ascii_strtoull (l + 5, NULL, 10) * 1024;
      else if (g_str_has_prefix (l, "Rss:"))
        *rss += g_ascii_strtoull (l + 4, NULL, 10) * 1024;
      else if (g_str_has_prefix (l, "Private_Clean:"))
        *uss += g_ascii_strtoull (l + 14, NULL, 10) * 1024;
      else if (g_str_has_prefix (l, "Private_Dirty:"))
        *uss += g_ascii_strtoull (l + 14, NULL, 10) * 1024;
    }
}

static int
compare_u64 (gconstpointer a,
             gconstpointer b)
{
  guint64 x = *(const guint64 *) a, y = *(const guint64 *) b;

  return x < y ? -1 : x > y;
}

/* The distinct frames of @pid's present pages in its mappings of @path, from its maps and
 * pagemap read here (root: frame numbers shown). */
static GArray *
frames_of (int         pid,
           const char *path)
{
  g_autofree char *maps_file = g_strdup_printf ("/proc/%d/maps", pid);
  g_autofree char *pm_file = g_strdup_printf ("/proc/%d/pagemap", pid);
  g_autofree char *contents = NULL;
  g_auto(GStrv) lines = NULL;
  GArray *pfns = g_array_new (FALSE, FALSE, sizeof (guint64));
  guint64 ps = sysconf (_SC_PAGESIZE);
  FILE *pm;
  guint n = 0;

  g_assert_true (g_file_get_contents (maps_file, &contents, NULL, NULL));
  pm = fopen (pm_file, "rb");
  g_assert_nonnull (pm);
  lines = g_strsplit (contents, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      guint64 start, end;

      if (!g_str_has_suffix (lines[i], path) ||
          sscanf (lines[i], "%" G_GINT64_MODIFIER "x-%" G_GINT64_MODIFIER "x", &start, &end) != 2)
        continue;
      for (guint64 va = start; va < end; va += ps)
        {
          guint64 entry = 0;

          g_assert_cmpint (fseeko (pm, (off_t) (va / ps * 8), SEEK_SET), ==, 0);
          g_assert_cmpuint (fread (&entry, 8, 1, pm), ==, 1);
          /* Bit 63: present; bits 0-54: the frame. */
          if ((entry >> 63) & 1 && (entry & ((G_GUINT64_CONSTANT (1) << 55) - 1)) != 0)
            {
              guint64 pfn = entry & ((G_GUINT64_CONSTANT (1) << 55) - 1);

              g_array_append_val (pfns, pfn);
            }
        }
    }
  fclose (pm);
  g_array_sort (pfns, compare_u64);
  for (guint i = 0; i < pfns->len; i++)
    if (n == 0 || g_array_index (pfns, guint64, n - 1) != g_array_index (pfns, guint64, i))
      g_array_index (pfns, guint64, n++) = g_array_index (pfns, guint64, i);
  g_array_set_size (pfns, n);
  return pfns;
}

static gboolean
find_label_with (GtkWidget  *widget,
                 const char *text)
{
  if (pgs_ui_widget_text (widget) != NULL && strstr (pgs_ui_widget_text (widget), text) != NULL)
    return TRUE;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    if (find_label_with (c, text))
      return TRUE;
  return FALSE;
}

/* The last column view under @widget: in the Libraries view, the selected file's
 * processes. */
static GtkColumnView *
last_column_view (GtkWidget *widget)
{
  GtkColumnView *found = GTK_IS_COLUMN_VIEW (widget) ? GTK_COLUMN_VIEW (widget) : NULL;

  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkColumnView *below = last_column_view (c);

      if (below != NULL)
        found = below;
    }
  return found;
}

/* The map pages of the physical views, as the window holds them. */
static PgsMapPage *
find_map_page (GtkWidget *widget,
               PgsView    view)
{
  if (PGS_IS_MAP_PAGE (widget) && pgs_map_page_get_view (PGS_MAP_PAGE (widget)) == view)
    return PGS_MAP_PAGE (widget);
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      PgsMapPage *found = find_map_page (c, view);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static gboolean
listed (gpointer data)
{
  return !pgs_library_view_is_busy (data);
}

/* The files are listed in a worker thread: wait for them. */
static void
wait_listed (PgsLibraryView *view)
{
  g_assert_true (pgs_ui_wait (listed, view, 60000));
}

/* Selecting the child's executable: its one process with its own figures beside the table,
 * and its frames (read here from the child's pagemap) the maps' highlight, said in their
 * titles; choosing a process drops it. */
static void
test_library_selection (void)
{
  PgsLibraryView *view;
  g_autofree char *exe_link = g_strdup_printf ("/proc/%d/exe", child.proc.pid);
  g_autofree char *exe = g_file_read_link (exe_link, NULL);
  g_autofree char *base = g_path_get_basename (exe);
  g_autofree char *caption = g_strdup_printf ("frames of %s highlighted", base);
  g_autoptr(GArray) expect = NULL;
  PgsSnapshot *snapshot;
  PgsHighlight *highlight;
  const PgsLibUser *u;
  const guint64 *pfns;
  guint64 size, rss, uss;
  guint index = GTK_INVALID_LIST_POSITION;
  gsize n;

  pgs_ui_wait_idle_scan (child.window);
  pgs_window_set_view (child.window, "libraries");
  gtk_test_widget_wait_for_draw (GTK_WIDGET (child.window));
  view = PGS_LIBRARY_VIEW (pgs_ui_find_widget (GTK_WIDGET (child.window), PGS_TYPE_LIBRARY_VIEW));
  snapshot = pgs_window_get_snapshot (child.window);
  wait_listed (view);
  for (guint i = 0; i < pgs_library_view_get_n_files (view); i++)
    if (g_str_equal (pgs_library_view_get_file (view, i)->path, exe))
      index = i;
  g_assert_cmpuint (index, !=, GTK_INVALID_LIST_POSITION);
  /* The test's own process is the one chosen while the file is. */
  g_assert_true (pgs_process_list_select_pid (pgs_window_get_process_list (child.window), getpid ()));
  pgs_library_view_select_file (view, index);
  gtk_test_widget_wait_for_draw (GTK_WIDGET (child.window));

  /* The process list beside the table: the child, with its smaps sums for the file. */
  g_assert_cmpstr (pgs_library_view_get_selected_path (view), ==, exe);
  g_assert_cmpuint (pgs_library_view_get_n_users (view), ==, 1);
  u = pgs_library_view_get_user (view, 0);
  smaps_for (child.proc.pid, exe, &size, &rss, &uss);
  g_assert_cmpint (u->pid, ==, child.proc.pid);
  g_assert_cmpuint (u->vss, ==, size);
  g_assert_cmpuint (u->rss, ==, rss);
  g_assert_cmpuint (u->uss, ==, uss);

  /* The highlight: the frames of the child's pages of it. The list of files needs no
   * pages; a physical map shown scans every process's (a refresh, as the view changes). */
  highlight = pgs_library_view_get_highlight (view);
  g_assert_nonnull (highlight);
  g_assert_cmpstr (pgs_highlight_get_path (highlight), ==, exe);
  pgs_window_set_view (child.window, "sharing");
  pgs_ui_wait_idle_scan (child.window);
  gtk_test_widget_wait_for_draw (GTK_WIDGET (child.window));
  snapshot = pgs_window_get_snapshot (child.window);
  highlight = pgs_library_view_get_highlight (view);
  g_assert_nonnull (highlight);
  g_assert_false (pgs_highlight_needs_pages (highlight));
  if (!pgs_snapshot_is_privileged (snapshot))
    {
      g_assert_cmpuint (pgs_highlight_get_n_frames (highlight), ==, 0);
      g_assert_nonnull (pgs_highlight_get_problem (highlight));
      pgs_library_view_unselect (view);
      return;
    }
  expect = frames_of (child.proc.pid, exe);
  g_assert_cmpuint (expect->len, >, 0);
  pfns = g_bytes_get_data (pgs_highlight_get_frames (highlight), &n);
  g_assert_cmpuint (n / sizeof (guint64), ==, expect->len);
  for (guint i = 0; i < expect->len; i++)
    g_assert_cmpuint (pfns[i], ==, g_array_index (expect, guint64, i));
  g_assert_true (find_label_with (GTK_WIDGET (find_map_page (GTK_WIDGET (child.window),
                                                             PGS_VIEW_SHARING)), caption));
  g_assert_true (find_label_with (GTK_WIDGET (find_map_page (GTK_WIDGET (child.window),
                                                             PGS_VIEW_FLAGS)), caption));

  /* Activating the file's process in the pane beside the table chooses it and shows its
   * pages; choosing a process hands the highlight back to it. */
  pgs_window_set_view (child.window, "libraries");
  gtk_test_widget_wait_for_draw (GTK_WIDGET (child.window));
  g_signal_emit_by_name (last_column_view (GTK_WIDGET (view)), "activate", 0);
  g_assert_cmpstr (pgs_window_get_view (child.window), ==, "residency");
  g_assert_cmpint (pgs_process_get_pid (pgs_process_list_get_selected_process (
                     pgs_window_get_process_list (child.window))), ==, child.proc.pid);
  g_assert_null (pgs_library_view_get_selected_path (view));
  g_assert_null (pgs_library_view_get_highlight (view));
  g_assert_false (find_label_with (GTK_WIDGET (find_map_page (GTK_WIDGET (child.window),
                                                              PGS_VIEW_SHARING)), caption));
  pgs_window_set_view (child.window, "processes");
}

static void
test_libraries (void)
{
  PgsLibraryView *view;
  g_autofree char *exe_link = g_strdup_printf ("/proc/%d/exe", child.proc.pid);
  g_autofree char *exe = g_file_read_link (exe_link, NULL);
  const PgsLibFile *f = NULL;
  guint64 size, rss, uss;

  g_assert_nonnull (exe);
  /* Shown, the page has every process's mappings scanned (pgs-refresh.c). */
  pgs_window_set_view (child.window, "libraries");
  pgs_ui_wait_idle_scan (child.window);
  view = PGS_LIBRARY_VIEW (pgs_ui_find_widget (GTK_WIDGET (child.window), PGS_TYPE_LIBRARY_VIEW));
  g_assert_nonnull (view);
  g_assert_true (pgs_library_view_get_snapshot (view) == pgs_window_get_snapshot (child.window));
  wait_listed (view);

  for (guint i = 0; i < pgs_library_view_get_n_files (view); i++)
    if (g_str_equal (pgs_library_view_get_file (view, i)->path, exe))
      f = pgs_library_view_get_file (view, i);
  g_assert_nonnull (f);
  g_assert_cmpuint (f->pids->len, ==, 1);
  g_assert_cmpint (g_array_index (f->pids, int, 0), ==, child.proc.pid);
  smaps_for (child.proc.pid, exe, &size, &rss, &uss);
  g_assert_cmpuint (f->vss, ==, size);
  g_assert_cmpuint (f->rss, ==, rss);
  g_assert_cmpuint (f->uss, ==, uss);
  g_assert_cmpuint (rss, >, 0);
  pgs_window_set_view (child.window, "processes");
}

/* Every label under @widget (the cells' among them) whose text is @text. */
static guint
count_cells (GtkWidget  *widget,
             const char *text)
{
  guint n = 0;

  n += g_strcmp0 (pgs_ui_widget_text (widget), text) == 0;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    n += count_cells (c, text);
  return n;
}

/* The row under @widget (a widget of CSS name "row") with a cell whose text is @name and
 * one whose text is @dir, or NULL: another process may map a file of the same name from
 * elsewhere (another checkout's test child). */
static GtkWidget *
find_file_row (GtkWidget  *widget,
               const char *name,
               const char *dir)
{
  if (g_strcmp0 (gtk_widget_get_css_name (widget), "row") == 0)
    return count_cells (widget, name) > 0 && count_cells (widget, dir) > 0 ? widget : NULL;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_file_row (c, name, dir);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* Adds the tooltip of every cell under @widget to @tips. */
static void
collect_tips (GtkWidget *widget,
              GPtrArray *tips)
{
  if (PGS_IS_CELL (widget))
    {
      char *tip = pgs_cell_get_tip (PGS_CELL (widget));

      if (tip != NULL)
        g_ptr_array_add (tips, tip);
    }
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    collect_tips (c, tips);
}

/* The sizes' tooltips, worked out only when asked for (the cell's tip-expression): the row
 * of @exe says its RSS and USS to the byte, the figures test_libraries checked against the
 * kernel's smaps. */
static void
check_size_tips (GtkWidget      *table,
                 PgsLibraryView *view,
                 const char     *exe,
                 const char     *name)
{
  g_autoptr(GPtrArray) tips = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *dir = g_path_get_dirname (exe);
  const PgsLibFile *f = NULL;
  GtkWidget *row = find_file_row (table, name, dir);
  g_autofree char *rss = NULL;
  g_autofree char *uss = NULL;
  gboolean rss_found = FALSE, uss_found = FALSE;

  for (guint i = 0; i < pgs_library_view_get_n_files (view); i++)
    if (g_str_equal (pgs_library_view_get_file (view, i)->path, exe))
      f = pgs_library_view_get_file (view, i);
  g_assert_nonnull (f);
  g_assert_nonnull (row);
  collect_tips (row, tips);
  rss = g_strdup_printf ("%'" G_GUINT64_FORMAT " bytes", f->rss);
  uss = g_strdup_printf ("%'" G_GUINT64_FORMAT " bytes", f->uss);
  for (guint i = 0; i < tips->len; i++)
    {
      rss_found |= g_str_equal (g_ptr_array_index (tips, i), rss);
      uss_found |= g_str_equal (g_ptr_array_index (tips, i), uss);
    }
  g_test_message ("%u tooltips in %s's row; RSS %s, USS %s", tips->len, name, rss, uss);
  g_assert_true (rss_found);
  g_assert_true (uss_found);
}

/* Issue 21 item 13: a search field that keeps the files whose path holds its text, in any
 * case; the file's name shown whole, its folder beside it, not one path cut at its start. */
static void
test_library_search (void)
{
  g_autofree char *exe_link = g_strdup_printf ("/proc/%d/exe", child.proc.pid);
  g_autofree char *exe = g_file_read_link (exe_link, NULL);
  g_autofree char *name = g_path_get_basename (exe);
  g_autofree char *dir = g_path_get_dirname (exe);
  g_autofree char *wanted = g_utf8_strup (name, -1);
  g_autofree char *folded = g_utf8_casefold (name, -1);
  PgsLibraryView *view;
  GtkColumnView *table;
  GtkEditable *search;
  guint n_matching = 0;

  pgs_window_set_view (child.window, "libraries");
  pgs_ui_wait_idle_scan (child.window);
  view = PGS_LIBRARY_VIEW (pgs_ui_find_widget (GTK_WIDGET (child.window), PGS_TYPE_LIBRARY_VIEW));
  wait_listed (view);
  table = GTK_COLUMN_VIEW (pgs_ui_find_widget (GTK_WIDGET (view), GTK_TYPE_COLUMN_VIEW));
  search = GTK_EDITABLE (pgs_ui_find_widget (GTK_WIDGET (view), GTK_TYPE_SEARCH_ENTRY));
  g_assert_nonnull (search);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (gtk_column_view_get_model (table))), ==,
                    pgs_library_view_get_n_files (view));

  /* Worked out here from the files listed: those whose path holds the name, in any case. */
  for (guint i = 0; i < pgs_library_view_get_n_files (view); i++)
    {
      g_autofree char *path = g_utf8_casefold (pgs_library_view_get_file (view, i)->path, -1);

      n_matching += strstr (path, folded) != NULL;
    }
  g_assert_cmpuint (n_matching, >=, 1);
  gtk_editable_set_text (search, wanted);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (gtk_column_view_get_model (table))), ==,
                    n_matching);
  gtk_test_widget_wait_for_draw (GTK_WIDGET (child.window));
  g_assert_cmpuint (count_cells (GTK_WIDGET (table), name), >=, 1);
  g_assert_cmpuint (count_cells (GTK_WIDGET (table), dir), >=, 1);
  g_assert_cmpuint (count_cells (GTK_WIDGET (table), exe), ==, 0);
  check_size_tips (GTK_WIDGET (table), view, exe, name);

  gtk_editable_set_text (search, "");
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (gtk_column_view_get_model (table))), ==,
                    pgs_library_view_get_n_files (view));
  pgs_window_set_view (child.window, "processes");
}

static gboolean
grouped (gpointer data)
{
  return !pgs_group_view_is_busy (data);
}

/* Groups are made in a worker thread: wait for them. */
static void
wait_grouped (PgsGroupView *view)
{
  g_assert_true (pgs_ui_wait (grouped, view, 60000));
}

static GtkTreeListRow *
find_group_row (GListModel *model,
                const char *name)
{
  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(GtkTreeListRow) row = g_list_model_get_item (model, i);

      if (gtk_tree_list_row_get_depth (row) == 0 &&
          g_strcmp0 (pgs_group_view_row_get_group (row)->name, name) == 0)
        return g_steal_pointer (&row);
    }
  return NULL;
}

/* A label under @widget that sends the user to root. */
static gboolean
says_readable_by_root (GtkWidget *widget)
{
  if (pgs_ui_widget_text (widget) != NULL && strstr (pgs_ui_widget_text (widget), "by root") != NULL)
    return TRUE;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    if (says_readable_by_root (c))
      return TRUE;
  return FALSE;
}

static void
test_by_parent (void)
{
  PgsGroupView *view;
  PgsSnapshot *snapshot;
  PgsProcess *p;
  GListModel *model;
  g_autoptr(GtkTreeListRow) row = NULL;
  g_autoptr(GtkTreeListRow) child_row = NULL;
  g_autofree char *name = NULL;
  const PgsGroup *g;
  guint index;

  pgs_ui_wait_idle_scan (child.window);
  /* Shown, the page has every process's pages scanned, for the private figure. */
  pgs_window_set_view (child.window, "groups");
  pgs_ui_wait_idle_scan (child.window);
  view = PGS_GROUP_VIEW (pgs_ui_find_widget (GTK_WIDGET (child.window), PGS_TYPE_GROUP_VIEW));
  g_assert_nonnull (view);

  /* Issue 21 item 12: the footer told root that reading pages needs root. */
  if (geteuid () == 0)
    g_assert_false (says_readable_by_root (GTK_WIDGET (view)));

  /* The view follows the window's snapshot. */
  snapshot = pgs_window_get_snapshot (child.window);
  g_assert_true (pgs_group_view_get_snapshot (view) == snapshot);
  p = pgs_snapshot_lookup_pid (snapshot, child.proc.pid);
  g_assert_nonnull (p);

  pgs_group_view_set_group_by (view, PGS_GROUP_BY_PARENT);
  wait_grouped (view);
  model = pgs_group_view_get_model (view);
  name = g_strdup_printf ("%d (%s)", getpid (), pgs_process_get_name (pgs_snapshot_lookup_pid (snapshot, getpid ())));
  row = find_group_row (model, name);
  g_assert_nonnull (row);
  g = pgs_group_view_row_get_group (row);
  g_assert_cmpuint (g->processes->len, ==, 1);
  g_assert_true (g_ptr_array_index (g->processes, 0) == p);
  g_assert_cmpuint (g->rss, ==, pgs_process_get_rss (p));
  g_assert_cmpuint (g->pss_fp, ==, pgs_process_get_pss_fixed (p));
  g_assert_cmpuint (g->uss, ==, pgs_process_get_uss (p));
  if (pgs_snapshot_is_privileged (snapshot))
    {
      g_assert_true (g->private_known);
      g_assert_cmpuint (g->private_bytes, ==, pgs_process_get_uss (p));
      g_assert_cmpuint (g->private_bytes, >=, (guint64) CHILD_PAGES * sysconf (_SC_PAGESIZE));
    }
  else
    g_assert_false (g->private_known);

  /* Expanded, the group's next row is the child. */
  index = gtk_tree_list_row_get_position (row);
  gtk_tree_list_row_set_expanded (row, TRUE);
  child_row = g_list_model_get_item (model, index + 1);
  g_assert_cmpuint (gtk_tree_list_row_get_depth (child_row), ==, 1);
  g_assert_true (pgs_group_view_row_get_process (child_row) == p);
  /* Issue 21 item 12: a member's row left Private empty. It shows what the process alone
   * maps, its USS, formatted as every size is. */
  {
    PgsGroupItem *member = gtk_tree_list_row_get_item (child_row);
    const char *tip = NULL;
    g_autofree char *shown = pgs_group_item_format (member, "private", &tip);
    g_autofree char *uss = pgs_process_is_known (p, PGS_METRIC_USS)
                             ? pgs_units_format (PGS_UNITS_IEC, pgs_process_get_uss (p))
                             : g_strdup (PGS_UNKNOWN_TEXT);

    g_assert_cmpstr (shown, ==, uss);
    g_assert_nonnull (tip);
    g_object_unref (member);
  }
  gtk_test_widget_wait_for_draw (GTK_WIDGET (child.window));
}

/* The drop-down and the property are one state; every process is in exactly one group. */
static void
test_group_by_switch (void)
{
  PgsGroupView *view = PGS_GROUP_VIEW (pgs_ui_find_widget (GTK_WIDGET (child.window), PGS_TYPE_GROUP_VIEW));
  PgsSnapshot *snapshot = pgs_window_get_snapshot (child.window);
  static const PgsGroupBy kinds[] = {
    PGS_GROUP_BY_APP, PGS_GROUP_BY_USER, PGS_GROUP_BY_CGROUP, PGS_GROUP_BY_PARENT,
  };

  for (guint k = 0; k < G_N_ELEMENTS (kinds); k++)
    {
      GListModel *model;
      guint members = 0;

      pgs_group_view_set_group_by (view, kinds[k]);
      wait_grouped (view);
      g_assert_cmpint (pgs_group_view_get_group_by (view), ==, kinds[k]);
      model = pgs_group_view_get_model (view);
      for (guint i = 0; i < g_list_model_get_n_items (model); i++)
        {
          g_autoptr(GtkTreeListRow) row = g_list_model_get_item (model, i);

          if (gtk_tree_list_row_get_depth (row) == 0)
            members += pgs_group_view_row_get_group (row)->processes->len;
        }
      g_assert_cmpuint (members, ==, pgs_snapshot_get_n_processes (snapshot));
      gtk_test_widget_wait_for_draw (GTK_WIDGET (child.window));
    }
  pgs_window_set_view (child.window, "processes");
}

int
main (int   argc,
      char *argv[])
{
  int status;

  pgs_ui_run_open (&child, CHILD_PAGES, &argc, &argv);

  g_test_add_func ("/pgs/ui/groups/by-parent", test_by_parent);
  g_test_add_func ("/pgs/ui/groups/switch", test_group_by_switch);
  g_test_add_func ("/pgs/ui/groups/libraries", test_libraries);
  g_test_add_func ("/pgs/ui/groups/library-selection", test_library_selection);
  g_test_add_func ("/pgs/ui/groups/library-search", test_library_search);
  status = g_test_run ();

  pgs_ui_run_close (&child);
  return status;
}
