/* test-map-reading.c: a map read from its tooltip, its status line and the keyboard
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The sharing map of a fixture: 4096 frames of page cache mapped once, except frame 1
 * mapped 3 times and frame 2 mapped 9 times. In the legend's words frame 0 is "Mapped
 * once", frame 1 "Mapped 3–4 times", frame 2 "Mapped 9–16 times" (PgsShareClass). The
 * map view sits alone in a window; the first cell is frame 0, the arrow key Right moves
 * to frame 1, then frame 2.
 */

#include "config.h"

#include <string.h>

#include "pgs-fixture.h"
#include "pgs-kpage.h"
#include "pgs-map-view.h"
#include "pgs-test-cli.h"
#include "pgs-ui-util.h"

#define KPF(f) PGS_KPF_BIT (PGS_KPF_##f)

static PgsSnapshot *
fixture_snapshot (void)
{
  g_autoptr(PgsFixture) fx = pgs_fixture_new ();

  for (guint i = 0; i < 4096; i++)
    pgs_fixture_set_frame (fx, i, i == 1 ? 3 : i == 2 ? 9 : 1, KPF (LRU) | KPF (UPTODATE));
  pgs_fixture_commit (fx);
  return pgs_test_scan (fx, PGS_SCAN_METRICS | PGS_SCAN_PHYSMAP);
}

static gboolean
is_ready (gpointer data)
{
  return pgs_map_view_is_ready (data);
}

static void
wait_ready (PgsMapView *view)
{
  g_assert_true (pgs_ui_wait (is_ready, view, 20000));
  pgs_ui_spin (50);
}

/* The widget point where @pfn is drawn. */
static void
point_of_frame (PgsMapView *view,
                guint64     pfn,
                double     *x,
                double     *y)
{
  PgsRenderer *renderer = pgs_map_view_get_renderer (view);
  int scale = gtk_widget_get_scale_factor (GTK_WIDGET (view));
  graphene_rect_t area;
  PgsHit hit = { .valid = TRUE, .is_frame = TRUE, .pfn = pfn };
  double mx, my;

  pgs_map_view_get_map_area (view, &area);
  g_assert_true (pgs_renderer_locate (renderer, (int) area.size.width * scale,
                                      (int) area.size.height * scale, &hit, &mx, &my));
  g_assert_true (pgs_renderer_map_to_pixel (renderer, (int) area.size.width * scale,
                                            (int) area.size.height * scale, mx, my, x, y));
  *x /= scale;
  *y /= scale;
}

static guint64
focus_pfn (PgsMapView *view)
{
  PgsHit hit;

  g_assert_true (pgs_map_view_get_focus_cell (view, &hit));
  g_assert_true (hit.is_frame);
  return hit.pfn;
}

static void
test_reading (void)
{
  g_autoptr(PgsSnapshot) snapshot = fixture_snapshot ();
  g_autoptr(PgsSnapshot) again = NULL;
  GtkWidget *window = gtk_window_new ();
  PgsMapView *view = PGS_MAP_VIEW (pgs_map_view_new (PGS_VIEW_SHARING));
  g_autofree char *tip = NULL;
  g_autofree char *status0 = NULL;
  g_autofree char *status1 = NULL;
  PgsHit hit;
  double x, y;

  gtk_window_set_default_size (GTK_WINDOW (window), 700, 420);
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (view));
  pgs_map_view_set_snapshot (view, snapshot);
  gtk_window_present (GTK_WINDOW (window));
  wait_ready (view);

  /* The tooltip of frame 1's cell starts with its category, then the numbers. */
  point_of_frame (view, 1, &x, &y);
  g_assert_true (pgs_map_view_hit_test (view, x, y, &hit));
  g_assert_cmpuint (hit.pfn, ==, 1);
  tip = pgs_map_view_describe_hit (view, &hit);
  g_assert_true (g_str_has_prefix (tip, "Mapped 3–4 times\n"));
  g_assert_nonnull (strstr (tip, "Frame 0x1"));

  /* Nothing hovered or focused: the status line says how to read a cell. */
  g_assert_null (strstr (pgs_map_view_get_status (view), "Frame"));

  /* Focused, Home goes to the first cell: frame 0, and the status line reads it. */
  gtk_widget_grab_focus (GTK_WIDGET (view));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "map.focus-first", NULL));
  g_assert_cmpuint (focus_pfn (view), ==, 0);
  status0 = g_strdup (pgs_map_view_get_status (view));
  g_assert_true (g_str_has_prefix (status0, "Mapped once · Frame 0x0"));

  /* Right: one cell on, frame 1, and the status line changes to its text. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "map.focus-move", "(ii)", 1, 0));
  g_assert_cmpuint (focus_pfn (view), ==, 1);
  status1 = g_strdup (pgs_map_view_get_status (view));
  g_assert_cmpstr (status1, !=, status0);
  g_assert_true (g_str_has_prefix (status1, "Mapped 3–4 times · Frame 0x1"));
  {
    g_auto(GStrv) lines = g_strsplit (tip, "\n", -1);
    g_autofree char *joined = g_strjoinv (" · ", lines);

    g_assert_cmpstr (status1, ==, joined);
  }

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "map.focus-move", "(ii)", 1, 0));
  g_assert_cmpuint (focus_pfn (view), ==, 2);
  g_assert_true (g_str_has_prefix (pgs_map_view_get_status (view), "Mapped 9–16 times"));
  /* And back. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "map.focus-move", "(ii)", -1, 0));
  g_assert_cmpuint (focus_pfn (view), ==, 1);

  /* A refresh (a new snapshot of the same frames) and a resize keep the focus on frame 1. */
  again = fixture_snapshot ();
  pgs_map_view_set_snapshot (view, again);
  gtk_window_set_default_size (GTK_WINDOW (window), 500, 300);
  wait_ready (view);
  pgs_ui_spin (200);
  wait_ready (view);
  g_assert_cmpuint (focus_pfn (view), ==, 1);
  g_assert_true (g_str_has_prefix (pgs_map_view_get_status (view), "Mapped 3–4 times · Frame 0x1"));

  /* End: the last cell, frame 4095. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "map.focus-last", NULL));
  g_assert_cmpuint (focus_pfn (view), ==, 4095);

  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  pgs_ui_init (&argc, &argv);
  g_test_add_func ("/pgs/ui/map-reading", test_reading);
  return g_test_run ();
}
