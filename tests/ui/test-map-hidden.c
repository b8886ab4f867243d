/* test-map-hidden.c: a map behind another page holds no pixels, and shows the same ones back
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Issue 22: a map's texture is as large as the window, and under GL the driver keeps a copy
 * of it as long as the GdkTexture lives. The child (pgs-ui-child, static and asleep) is
 * selected and its residency map shown, zoomed in; then the process list is shown: the map
 * view has no texture, and the one it had is finalized (no render node keeps it either).
 * Back on the map, in the same turn of the main loop (before any frame, so no empty map is
 * ever drawn), the pixels are there, byte for byte those of before, at the same zoom, with
 * the same renderer. A refresh meanwhile lets the map's renderer go, and the legend's. Then
 * the same for the physical maps, where there is a physical map; and there a refresh lets the
 * snapshot shown go, though the page-flag ledger still shows its figures.
 * Run under xvfb-run; without a display it skips (exit 77).
 */

#include "config.h"

#include <string.h>

#include "pgs-ledger-view.h"
#include "pgs-ui-util.h"

#define CHILD_PAGES 300

static PgsUiRun child;

/* The texture's bytes, as gdk_texture_download() gives them. */
static GBytes *
texture_bytes (GdkTexture *texture)
{
  gsize stride = (gsize) gdk_texture_get_width (texture) * 4;
  gsize size = stride * gdk_texture_get_height (texture);
  guchar *data = g_malloc (size);

  gdk_texture_download (texture, data, stride);
  return g_bytes_new_take (data, size);
}

static gboolean
unmapped (gpointer data)
{
  return !gtk_widget_get_mapped (data);
}

static void
check_hidden_and_back (PgsView     view,
                       const char *name)
{
  PgsMapPage *page = pgs_window_get_map_page (child.window, view);
  PgsMapView *map = pgs_map_page_get_map_view (page);
  g_autoptr(GBytes) before = NULL;
  g_autoptr(GBytes) after = NULL;
  GdkTexture *texture;
  PgsRenderer *renderer;
  double zoom;
  gint64 start;

  pgs_window_set_view (child.window, name);
  pgs_ui_wait_map_ready (map);
  /* Zoomed in and moved: state that must survive the page being left. */
  pgs_map_view_set_viewport (map, 4.0, 0.25, 0.375);
  pgs_ui_wait_map_ready (map);
  texture = pgs_map_view_get_texture (map);
  g_assert_nonnull (texture);
  before = texture_bytes (texture);
  renderer = pgs_map_view_get_renderer (map);
  zoom = pgs_map_view_get_zoom (map);

  /* Another page: the texture goes, with everything that pointed at it. */
  g_object_add_weak_pointer (G_OBJECT (texture), (gpointer *) &texture);
  pgs_window_set_view (child.window, "processes");
  /* Once the stack's crossfade is over. */
  g_assert_true (pgs_ui_wait (unmapped, map, 5000));
  gtk_test_widget_wait_for_draw (GTK_WIDGET (child.window));
  g_assert_null (pgs_map_view_get_texture (map));
  if (texture != NULL)
    g_object_remove_weak_pointer (G_OBJECT (texture), (gpointer *) &texture);
  g_assert_null (texture);
  /* What the legend describes and the exports draw is kept. */
  g_assert_true (pgs_map_view_get_renderer (map) == renderer);

  /* Back: mapped at once, and with its pixels before any frame is drawn (drawn again on
   * the main thread: a warm render, said here). */
  start = g_get_monotonic_time ();
  pgs_window_set_view (child.window, name);
  g_test_message ("%s: shown again in %.1f ms", name, (g_get_monotonic_time () - start) / 1000.0);
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (map)));
  texture = pgs_map_view_get_texture (map);
  g_assert_nonnull (texture);
  g_assert_true (pgs_map_view_is_ready (map));
  g_assert_true (pgs_map_view_get_renderer (map) == renderer);
  g_assert_cmpfloat (pgs_map_view_get_zoom (map), ==, zoom);
  after = texture_bytes (texture);
  g_assert_cmpuint (g_bytes_get_size (after), ==, g_bytes_get_size (before));
  g_assert_true (g_bytes_equal (after, before));

  /* And drawn as such: a frame later it is still the same texture, ready. */
  gtk_test_widget_wait_for_draw (GTK_WIDGET (map));
  g_assert_true (pgs_map_view_get_texture (map) == texture);
  g_assert_true (pgs_map_view_is_ready (map));
  pgs_map_view_set_viewport (map, 1.0, 0.5, 0.5);
  pgs_ui_wait_map_ready (map);
}

static void
test_residency (void)
{
  pgs_window_select_pid (child.window, child.proc.pid);
  check_hidden_and_back (PGS_VIEW_RESIDENCY, "residency");
}

/* A refresh behind another page: the map out of date is let go, renderer and all, by the
 * map view and by its legend (which kept it, and through it an older snapshot, alive):
 * the renderer is finalized. Shown again, the map is of the new snapshot. */
static gboolean
is_null (gpointer data)
{
  return g_atomic_pointer_get ((gpointer *) data) == NULL;
}

static void
test_refresh_hidden (void)
{
  PgsMapPage *page = pgs_window_get_map_page (child.window, PGS_VIEW_RESIDENCY);
  PgsMapView *map = pgs_map_page_get_map_view (page);
  PgsRenderer *renderer;
  PgsSnapshot *before;

  pgs_window_select_pid (child.window, child.proc.pid);
  pgs_window_set_view (child.window, "residency");
  pgs_ui_wait_map_ready (map);
  renderer = pgs_map_view_get_renderer (map);
  g_assert_nonnull (renderer);
  /* Renderers are let go of in a worker thread (pgs-release.h): waited for below. */
  g_object_add_weak_pointer (G_OBJECT (renderer), (gpointer *) &renderer);
  before = pgs_window_get_snapshot (child.window);

  pgs_window_set_view (child.window, "processes");
  g_assert_true (pgs_ui_wait (unmapped, map, 5000));
  pgs_window_refresh (child.window);
  pgs_ui_wait_idle_scan (child.window);
  g_assert_true (pgs_window_get_snapshot (child.window) != before);
  g_assert_null (pgs_map_view_get_renderer (map));
  g_assert_null (pgs_map_view_get_texture (map));
  g_assert_true (pgs_ui_wait (is_null, &renderer, 10000));

  pgs_window_set_view (child.window, "residency");
  pgs_ui_wait_map_ready (map);
  g_assert_nonnull (pgs_map_view_get_texture (map));
  g_assert_true (pgs_renderer_get_snapshot (pgs_map_view_get_renderer (map)) ==
                 pgs_window_get_snapshot (child.window));
}

/* The ledger beside the map (the page has another, for when there is no map). */
static GtkWidget *
mapped_ledger (GtkWidget *widget)
{
  if (PGS_IS_LEDGER_VIEW (widget) && gtk_widget_get_mapped (widget))
    return widget;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = mapped_ledger (c);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* A refresh behind the page: nothing keeps the snapshot it showed (physical map and all)
 * alive, not the map, not its legend, not the page-flag ledger beside it, which still
 * shows the same figures. */
static void
refresh_lets_go (PgsView     view,
                 const char *name)
{
  PgsMapPage *page = pgs_window_get_map_page (child.window, view);
  PgsMapView *map = pgs_map_page_get_map_view (page);
  PgsSnapshot *shown;
  const PgsLedger *ledger = NULL;
  PgsLedger before = { 0 };
  GtkWidget *ledger_view = NULL;

  pgs_window_set_view (child.window, name);
  pgs_ui_wait_map_ready (map);
  shown = pgs_renderer_get_snapshot (pgs_map_view_get_renderer (map));
  g_object_add_weak_pointer (G_OBJECT (shown), (gpointer *) &shown);
  if (view == PGS_VIEW_FLAGS)
    {
      ledger_view = mapped_ledger (GTK_WIDGET (page));
      g_assert_nonnull (ledger_view);
      g_assert_true (pgs_ledger_view_get_snapshot (PGS_LEDGER_VIEW (ledger_view)) == shown);
      ledger = pgs_ledger_view_get_ledger (PGS_LEDGER_VIEW (ledger_view));
      g_assert_nonnull (ledger);
      before = *ledger;
    }

  pgs_window_set_view (child.window, "processes");
  g_assert_true (pgs_ui_wait (unmapped, map, 5000));
  pgs_window_refresh (child.window);
  pgs_ui_wait_idle_scan (child.window);
  g_assert_true (pgs_ui_wait (is_null, &shown, 10000));
  if (ledger_view != NULL)
    {
      ledger = pgs_ledger_view_get_ledger (PGS_LEDGER_VIEW (ledger_view));
      g_assert_nonnull (ledger);
      g_assert_true (memcmp (ledger, &before, sizeof before) == 0);
    }
  pgs_window_set_view (child.window, name);
  pgs_ui_wait_map_ready (map);
}

static void
test_physical (void)
{
  if (pgs_snapshot_get_physmap (pgs_window_get_snapshot (child.window)) == NULL)
    {
      /* Shown once, a physical view asks for the physical map at the next scan. */
      pgs_window_set_view (child.window, "sharing");
      pgs_ui_wait_idle_scan (child.window);
    }
  if (pgs_snapshot_get_physmap (pgs_window_get_snapshot (child.window)) == NULL)
    {
      g_test_skip ("no physical map (needs root)");
      return;
    }
  check_hidden_and_back (PGS_VIEW_SHARING, "sharing");
  check_hidden_and_back (PGS_VIEW_FLAGS, "flags");
  refresh_lets_go (PGS_VIEW_FLAGS, "flags");
}

int
main (int   argc,
      char *argv[])
{
  int status;

  pgs_ui_run_open (&child, CHILD_PAGES, &argc, &argv);
  pgs_ui_wait_idle_scan (child.window);

  g_test_add_func ("/pgs/ui/map-hidden/residency", test_residency);
  g_test_add_func ("/pgs/ui/map-hidden/refresh", test_refresh_hidden);
  g_test_add_func ("/pgs/ui/map-hidden/physical", test_physical);
  status = g_test_run ();

  pgs_ui_run_close (&child);
  return status;
}
