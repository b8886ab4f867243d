/* test-state.c: what the user was looking at survives a refresh
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The child (pgs-ui-child, static and asleep) keeps its layout between scans, so a
 * zoomed-in view of it must show the same pages after each refresh; the physical map
 * likewise the same frames. When the child exits, its last map stays on screen with a
 * message saying so. Also: counts on screen carry the locale's digit grouping.
 * Run under xvfb-run; without a display it skips (exit 77).
 */

#include "config.h"

#include <locale.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pgs-ui-util.h"

#define CHILD_PAGES 300

static PgsUiRun child;

/* The lowest and highest address (residency) or frame (physical) that a pixel of the
 * visible map shows, sampling every other pixel. */
typedef struct
{
  guint64 first;
  guint64 last;
  guint64 centre; /* what the pixel at the map's centre shows */
  guint64 step;   /* the most pages one sampled pixel stands for: "one cell" */
} Range;

static Range
visible_range (PgsMapView *view)
{
  graphene_rect_t area;
  Range range = { G_MAXUINT64, 0, 0, 1 };
  PgsHit hit;
  gboolean residency = pgs_map_view_get_view (view) == PGS_VIEW_RESIDENCY;
  long page = sysconf (_SC_PAGESIZE);

  pgs_map_view_get_map_area (view, &area);
  for (double y = area.origin.y + 0.5; y < area.origin.y + area.size.height; y += 2)
    for (double x = area.origin.x + 0.5; x < area.origin.x + area.size.width; x += 2)
      {
        PgsHit hit;
        guint64 at;

        if (!pgs_map_view_hit_test (view, x, y, &hit) || !hit.valid)
          continue;
        /* A pixel's colour comes from one of its pages, which may change between scans;
         * physical views give the pixel's first frame as well. */
        at = residency ? hit.address : hit.first_page;
        range.first = MIN (range.first, at);
        range.last = MAX (range.last, at);
        range.step = MAX (range.step, hit.n_pages * (residency ? page : 1) * 2);
      }
  g_assert_cmpuint (range.first, <=, range.last);
  /* The centre may fall between mappings: G_MAXUINT64 then, which must stay so. */
  range.centre = G_MAXUINT64;
  if (pgs_map_view_hit_test (view, area.origin.x + area.size.width / 2,
                             area.origin.y + area.size.height / 2, &hit) && hit.valid)
    range.centre = residency ? hit.address : hit.first_page;
  g_test_message ("visible %s %" G_GINT64_MODIFIER "x-%" G_GINT64_MODIFIER "x, cell %"
                  G_GUINT64_FORMAT, residency ? "addresses" : "frames", range.first, range.last,
                  range.step);
  return range;
}

static void
assert_same_range (const Range *a,
                   const Range *b)
{
  guint64 cell = MAX (a->step, b->step);

  g_assert_cmpuint (a->first > b->first ? a->first - b->first : b->first - a->first, <=, cell);
  g_assert_cmpuint (a->last > b->last ? a->last - b->last : b->last - a->last, <=, cell);
  g_assert_cmpuint (a->centre > b->centre ? a->centre - b->centre : b->centre - a->centre, <=,
                    cell);
}

static void
refresh (void)
{
  PgsSnapshot *before = pgs_window_get_snapshot (child.window);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (child.window), "win.refresh", NULL));
  pgs_ui_wait_idle_scan (child.window);
  g_assert_true (pgs_window_get_snapshot (child.window) != before);
}

/* A pixel showing a page of the child's buffer. */
static gboolean
find_buffer_cell (PgsMapView *view,
                  double     *x_out,
                  double     *y_out)
{
  graphene_rect_t area;
  guint64 end = child.proc.buffer + CHILD_PAGES * sysconf (_SC_PAGESIZE);

  pgs_map_view_get_map_area (view, &area);
  for (double y = area.origin.y + 0.5; y < area.origin.y + area.size.height; y += 1)
    for (double x = area.origin.x + 0.5; x < area.origin.x + area.size.width; x += 1)
      {
        PgsHit hit;

        if (pgs_map_view_hit_test (view, x, y, &hit) && hit.valid &&
            hit.address >= child.proc.buffer && hit.address < end)
          {
            *x_out = x;
            *y_out = y;
            return TRUE;
          }
      }
  return FALSE;
}

static void
test_residency_keeps_viewport (void)
{
  PgsMapPage *page = pgs_window_get_map_page (child.window, PGS_VIEW_RESIDENCY);
  PgsMapView *view = pgs_map_page_get_map_view (page);
  Range whole, zoomed;
  double x = 0, y = 0;

  pgs_window_select_pid (child.window, child.proc.pid);
  pgs_window_set_view (child.window, "residency");
  pgs_ui_wait_map_ready (view);
  g_assert_true (pgs_map_page_has_map (page));
  whole = visible_range (view);

  /* Zoom in on the child's buffer mapping, about one of its cells. */
  g_assert_true (find_buffer_cell (view, &x, &y));
  pgs_map_view_zoom_by (view, 16.0, x, y);
  pgs_ui_wait_map_ready (view);
  zoomed = visible_range (view);
  g_assert_true (zoomed.last - zoomed.first < whole.last - whole.first);

  for (int i = 0; i < 3; i++)
    {
      Range after;

      refresh ();
      pgs_ui_wait_map_ready (view);
      g_assert_cmpfloat_with_epsilon (pgs_map_view_get_zoom (view), 16.0, 1e-9);
      after = visible_range (view);
      assert_same_range (&zoomed, &after);
    }
}

static void
test_flags_keeps_viewport (void)
{
  PgsMapPage *page = pgs_window_get_map_page (child.window, PGS_VIEW_FLAGS);
  PgsMapView *view = pgs_map_page_get_map_view (page);
  graphene_rect_t area;
  Range zoomed;

  /* The physical map is read when a page showing it is (pgs-refresh.c). */
  pgs_window_set_view (child.window, "flags");
  pgs_ui_wait_idle_scan (child.window);
  if (pgs_snapshot_get_physmap (pgs_window_get_snapshot (child.window)) == NULL)
    {
      g_test_skip ("no physical map (needs root and /proc/kpageflags)");
      pgs_window_set_view (child.window, "processes");
      return;
    }
  pgs_ui_wait_map_ready (view);
  g_assert_true (pgs_map_page_has_map (page));

  /* Zoom in about a point off the centre, so that keeping the centre is not the default. */
  pgs_map_view_get_map_area (view, &area);
  pgs_map_view_zoom_by (view, 8.0, area.origin.x + area.size.width * 0.3,
                        area.origin.y + area.size.height * 0.7);
  pgs_ui_wait_map_ready (view);
  zoomed = visible_range (view);

  for (int i = 0; i < 3; i++)
    {
      Range after;

      refresh ();
      pgs_ui_wait_map_ready (view);
      g_assert_cmpfloat_with_epsilon (pgs_map_view_get_zoom (view), 8.0, 1e-9);
      after = visible_range (view);
      assert_same_range (&zoomed, &after);
    }
  gtk_widget_activate_action (GTK_WIDGET (child.window), "win.zoom-reset", NULL);
}

/* A page chosen while the window's first scan runs (as --view or the remembered view does):
 * that scan read the list only, so the page's own data follow at once. */
static void
test_first_scan_follows_view (void)
{
  PgsWindow *window;
  PgsSnapshot *snapshot;

  /* A window that opens on the process list, whatever an earlier test left remembered. */
  g_settings_set_string (pgs_application_get_settings (child.app), "last-view", "processes");
  window = pgs_window_new (child.app);
  g_assert_cmpstr (pgs_window_get_view (window), ==, "processes");

  /* The first scan started in pgs_window_new(); it cannot have finished without the main
   * loop: nothing is shown yet. */
  g_assert_null (pgs_window_get_snapshot (window));
  pgs_window_set_view (window, "flags");
  gtk_window_present (GTK_WINDOW (window));
  pgs_ui_wait_idle_scan (window);
  snapshot = pgs_window_get_snapshot (window);
  if (geteuid () != 0 || access ("/proc/kpageflags", R_OK) != 0)
    g_test_skip ("no physical map (needs root and /proc/kpageflags)");
  else
    g_assert_nonnull (pgs_snapshot_get_physmap (snapshot));
  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_exited_keeps_map (void)
{
  PgsMapPage *page = pgs_window_get_map_page (child.window, PGS_VIEW_RESIDENCY);
  PgsMapView *view = pgs_map_page_get_map_view (page);
  g_autofree char *expected = NULL;
  PgsProcess *shown;
  Range before, after;
  GPid pid = child.proc.pid;  /* pgs_ui_child_stop() clears it */

  pgs_window_select_pid (child.window, pid);
  pgs_window_set_view (child.window, "residency");
  pgs_ui_wait_map_ready (view);
  g_assert_null (pgs_map_page_get_exited_note (page));
  before = visible_range (view);
  shown = pgs_renderer_get_process (pgs_map_view_get_renderer (view));
  expected = g_strdup_printf ("Process %d (%s) has exited; showing its last scan",
                              pid, pgs_process_get_name (shown));

  pgs_ui_child_stop (&child.proc);
  refresh ();
  g_assert_null (pgs_snapshot_lookup_pid (pgs_window_get_snapshot (child.window), pid));
  pgs_ui_wait_map_ready (view);

  g_assert_cmpstr (pgs_map_page_get_exited_note (page), ==, expected);
  g_assert_true (pgs_map_page_has_map (page));
  g_assert_cmpint (pgs_process_get_pid (pgs_renderer_get_process (pgs_map_view_get_renderer (view))),
                   ==, pid);
  after = visible_range (view);
  assert_same_range (&before, &after);

  /* Another refresh: still there. */
  refresh ();
  pgs_ui_wait_map_ready (view);
  g_assert_cmpstr (pgs_map_page_get_exited_note (page), ==, expected);
  g_assert_true (pgs_map_page_has_map (page));
}

/* A process that exits after the list's scan and before its own: the Pages view says its
 * pages could not be read, never "Reading Its Pages…" for ever. */
static void
test_gone_before_pages (void)
{
  PgsMapPage *page = pgs_window_get_map_page (child.window, PGS_VIEW_RESIDENCY);
  PgsUiChild gone = { 0 };
  GPid pid;

  pgs_ui_child_start (&gone, 4);
  pid = gone.pid;
  pgs_window_set_view (child.window, "processes");
  refresh ();
  g_assert_nonnull (pgs_snapshot_lookup_pid (pgs_window_get_snapshot (child.window), pid));
  pgs_ui_child_stop (&gone);

  pgs_window_set_view (child.window, "residency");
  pgs_window_select_pid (child.window, pid);
  pgs_ui_wait_idle_scan (child.window);
  g_assert_cmpstr (pgs_map_page_get_empty_title (page), ==, "Its Pages Could Not Be Read");
  pgs_window_set_view (child.window, "processes");
}

/* Digit grouping in a locale that groups: de_DE writes 1.234.567. Built here with
 * localedef into a temporary LOCPATH when the system has no such locale installed. */
static void
test_digit_grouping (void)
{
  g_autofree char *saved = g_strdup (setlocale (LC_NUMERIC, NULL));
  g_autofree char *dir = NULL;
  g_autofree char *count = NULL;
  g_autofree char *bytes = NULL;

  if (setlocale (LC_NUMERIC, "de_DE.UTF-8") == NULL)
    {
      g_autofree char *target = NULL;
      g_autofree char *cmd = NULL;
      int status = -1;

      dir = g_dir_make_tmp ("pagescope-locale-XXXXXX", NULL);
      g_assert_nonnull (dir);
      target = g_build_filename (dir, "de_DE.UTF-8", NULL);
      cmd = g_strdup_printf ("localedef -i de_DE -f UTF-8 %s", target);
      if (!g_spawn_command_line_sync (cmd, NULL, NULL, &status, NULL) ||
          !g_spawn_check_wait_status (status, NULL))
        {
          g_autofree char *rm = g_strdup_printf ("rm -rf %s", dir);

          g_spawn_command_line_sync (rm, NULL, NULL, NULL, NULL);
          g_test_skip ("no de_DE.UTF-8 locale and localedef could not build one");
          return;
        }
      g_setenv ("LOCPATH", dir, TRUE);
      g_assert_nonnull (setlocale (LC_NUMERIC, "de_DE.UTF-8"));
    }

  count = pgs_units_format_count (1234567);
  bytes = pgs_units_format (PGS_UNITS_BYTES, G_GUINT64_CONSTANT (6291456000));
  setlocale (LC_NUMERIC, saved);
  if (dir != NULL)
    {
      g_autofree char *rm = g_strdup_printf ("rm -rf %s", dir);

      g_unsetenv ("LOCPATH");
      g_spawn_command_line_sync (rm, NULL, NULL, NULL, NULL);
    }
  g_assert_cmpstr (count, ==, "1.234.567");
  g_assert_cmpstr (bytes, ==, "6.291.456.000");
}

int
main (int   argc,
      char *argv[])
{
  int status;

  /* Refreshes come from the test alone (pgs_ui_open_window()). */
  pgs_ui_run_open (&child, CHILD_PAGES, &argc, &argv);

  g_test_add_func ("/pgs/ui/state/digit-grouping", test_digit_grouping);
  g_test_add_func ("/pgs/ui/state/residency-keeps-viewport", test_residency_keeps_viewport);
  g_test_add_func ("/pgs/ui/state/flags-keeps-viewport", test_flags_keeps_viewport);
  g_test_add_func ("/pgs/ui/state/first-scan-follows-view", test_first_scan_follows_view);
  g_test_add_func ("/pgs/ui/state/gone-before-pages", test_gone_before_pages);
  g_test_add_func ("/pgs/ui/state/exited-keeps-map", test_exited_keeps_map);
  status = g_test_run ();

  pgs_ui_run_close (&child);
  return status;
}
