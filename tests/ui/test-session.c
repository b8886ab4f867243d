/* test-session.c: a process clicked in the list reaches the Pages map through the session
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A real pointer click (xdotool, through the X server) on the row of the child
 * (pgs-ui-child, asleep with CHILD_PAGES pages of its own) selects it in the list; the
 * session's selected-process becomes that process once its pages are read, and the Pages
 * page and its map view show that same object: list → session → page → map view. Only
 * properties are read here (g_object_get), so the test builds against any window and fails
 * where one of the hops is missing. Run under xvfb-run; without a display it skips.
 */

#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <gdk/x11/gdkx.h>

#include "pgs-ui-util.h"

#define CHILD_PAGES 64

typedef struct
{
  GtkWidget  *root;
  const char *text;
} Find;

static gboolean
label_shown (gpointer data)
{
  Find *find = data;

  return pgs_ui_find_label (find->root, find->text) != NULL;
}

static void
click (GtkWidget *window,
       GtkWidget *widget)
{
  graphene_point_t centre, at;
  double dx, dy;
  Window xid = gdk_x11_surface_get_xid (gtk_native_get_surface (GTK_NATIVE (window)));
  g_autofree char *xid_text = g_strdup_printf ("%lu", (unsigned long) xid);
  g_autofree char *x = NULL;
  g_autofree char *y = NULL;
  g_autoptr(GError) error = NULL;
  int status = -1;

  centre = GRAPHENE_POINT_INIT (gtk_widget_get_width (widget) / 2.0,
                                gtk_widget_get_height (widget) / 2.0);
  g_assert_true (gtk_widget_compute_point (widget, window, &centre, &at));
  gtk_native_get_surface_transform (GTK_NATIVE (window), &dx, &dy);
  x = g_strdup_printf ("%d", (int) (at.x + dx));
  y = g_strdup_printf ("%d", (int) (at.y + dy));
  {
    const char *argv[] = { "xdotool", "mousemove", "--window", xid_text, x, y, "click", "1",
                           NULL };

    g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL,
                  &status, &error);
  }
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
}

static void
test_click_reaches_map (void)
{
  PgsUiChild child = { 0 };
  PgsApplication *app = NULL;
  PgsWindow *window;
  PgsProcessList *list;
  PgsMapPage *page;
  g_autoptr(GObject) session = NULL;
  g_autoptr(PgsProcess) selected = NULL;
  g_autoptr(PgsProcess) page_process = NULL;
  g_autoptr(PgsProcess) view_process = NULL;
  g_autofree char *pid = NULL;
  GtkWidget *cell;
  Find find;

  if (g_find_program_in_path ("xdotool") == NULL)
    {
      g_test_skip ("xdotool is not installed");
      return;
    }
  pgs_ui_child_start (&child, CHILD_PAGES);
  window = pgs_ui_open_window (&app);
  pgs_ui_wait_idle_scan (window);
  list = pgs_window_get_process_list (window);
  page = pgs_window_get_map_page (window, PGS_VIEW_RESIDENCY);
  session = pgs_ui_get_object (window, "session");
  g_assert_nonnull (session);

  /* Nothing selected yet: the search leaves the child's row alone in the list. */
  pid = g_strdup_printf ("%d", child.pid);
  pgs_process_list_set_search_text (list, pid);
  find.root = pgs_process_list_get_column_view (list);
  find.text = pid;
  g_assert_true (pgs_ui_wait (label_shown, &find, 10000));
  gtk_test_widget_wait_for_draw (GTK_WIDGET (window));
  cell = pgs_ui_find_label (find.root, pid);
  g_assert_null (pgs_process_list_get_selected_process (list));

  click (GTK_WIDGET (window), cell);
  pgs_ui_wait_selected_pages (session, child.pid);

  /* The same object at every hop: the session's, the page's, the map view's. */
  selected = pgs_ui_get_object (session, "selected-process");
  g_assert_cmpint (pgs_process_get_pid (pgs_process_list_get_selected_process (list)), ==,
                   child.pid);
  g_assert_cmpint (pgs_process_get_pid (selected), ==, child.pid);
  /* Its own scan read its pages: at least the CHILD_PAGES it wrote. */
  g_assert_cmpuint (pgs_process_get_rss (selected) / sysconf (_SC_PAGESIZE), >=, CHILD_PAGES);
  page_process = pgs_ui_get_object (page, "process");
  view_process = pgs_ui_get_object (pgs_map_page_get_map_view (page), "process");
  g_assert_true (page_process == selected);
  g_assert_true (view_process == selected);

  gtk_window_destroy (GTK_WINDOW (window));
  g_application_quit (G_APPLICATION (app));
  g_clear_object (&app);
  pgs_ui_child_stop (&child);
}

int
main (int   argc,
      char *argv[])
{
  pgs_ui_init (&argc, &argv);
  g_test_add_func ("/pgs/ui/session/click-reaches-map", test_click_reaches_map);
  return g_test_run ();
}
