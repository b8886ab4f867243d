/* test-export.c: an exported map is the map on screen, larger
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The sharing map of all memory (no process selected: nothing highlighted), Hilbert
 * layout and rows, exported through win.export-map-to-file. The export is the screen's map grown
 * until a frame has a pixel (at most 4096 pixels a side), so with the frames of a whole
 * machine it is grown by a factor the Hilbert layout's powers of two do not divide; laid
 * out afresh for that size its tiles came out another shape than on screen. What is
 * checked: where the screen's texture has map (a pixel of a legend colour) and where it
 * has none, the export has the same at the centre of that pixel's place, the map's
 * extent scaled by the export's factor; pixels on the map's edge (a neighbour differs)
 * are left out, as a block there may be partly filled. Needs the physical map (root);
 * skips (exit 77) without it or without a display.
 */

#include "config.h"

#include <math.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include "pgs-ui-util.h"

#define CHILD_PAGES 300
/* The PNG's margin round the map (pgs-render-png.c: PAD), physical maps having no band
 * labels on their left. */
#define PNG_MARGIN 12

static PgsUiRun child;

typedef struct
{
  guint32 *pixels;
  int      width;
  int      height;
  int      stride;   /* in pixels */
} Shot;

/* The legend's colours: a pixel of one of them is map, any other is not. */
static GArray *
legend_colors (PgsRenderer *renderer)
{
  GArray *colors = g_array_new (FALSE, FALSE, sizeof (guint32));
  guint n = pgs_renderer_get_n_legend_items (renderer);

  for (guint i = 0; i < n; i++)
    {
      guint32 color;

      pgs_renderer_get_legend_item (renderer, i, &color, NULL, NULL);
      color |= 0xff000000u;
      g_array_append_val (colors, color);
    }
  return colors;
}

static gboolean
is_map (GArray  *colors,
        guint32  argb)
{
  for (guint i = 0; i < colors->len; i++)
    if (g_array_index (colors, guint32, i) == (argb | 0xff000000u))
      return TRUE;
  return FALSE;
}

static gboolean
texture_fills_view (gpointer data)
{
  PgsMapView *view = data;
  GdkTexture *texture = pgs_map_view_get_texture (view);
  int scale = gtk_widget_get_scale_factor (GTK_WIDGET (view));

  return texture != NULL && pgs_map_view_is_ready (view) &&
         gdk_texture_get_width (texture) == gtk_widget_get_width (GTK_WIDGET (view)) * scale &&
         gdk_texture_get_height (texture) == gtk_widget_get_height (GTK_WIDGET (view)) * scale;
}

static void
check_as_screen (const char *layout,
                 PgsLayout   expected,
                 gboolean    hide_free)
{
  GSettings *settings = pgs_application_get_settings (child.app);
  PgsMapPage *page = pgs_window_get_map_page (child.window, PGS_VIEW_SHARING);
  PgsMapView *view = pgs_map_page_get_map_view (page);
  g_autofree char *path = g_build_filename (child.tmpdir, "sharing.png", NULL);
  PgsRenderer *renderer;
  g_autoptr(GArray) colors = NULL;
  GdkTexture *texture;
  Shot screen;
  g_autofree guint32 *screen_pixels = NULL;
  cairo_surface_t *png;
  Shot out;
  int ew, eh, checked = 0;
  double factor;
  gboolean done = FALSE;
  gulong id;

  if (geteuid () != 0)
    {
      g_test_skip ("the physical maps need root");
      return;
    }
  g_settings_set_string (settings, "layout", layout);
  g_settings_set_boolean (settings, "hide-free", hide_free);
  pgs_window_set_view (child.window, "sharing");
  pgs_ui_wait_map_ready (view);

  /* The legend beside the map is sized once the map is drawn: wait for the map at the
   * view's final size. */
  g_assert_true (pgs_ui_wait (texture_fills_view, view, 20000));
  texture = pgs_map_view_get_texture (view);
  renderer = pgs_map_view_get_renderer (view);
  g_assert_cmpint (pgs_renderer_get_layout (renderer), ==, expected);
  colors = legend_colors (renderer);
  g_assert_cmpint (pgs_renderer_get_hide_free (renderer), ==, hide_free);
  if (hide_free && pgs_renderer_get_n_folds (renderer) == 0)
    {
      g_test_skip ("no run of free memory long enough to hide");
      g_settings_set_string (settings, "layout", "linear");
      g_settings_set_boolean (settings, "hide-free", FALSE);
      return;
    }
  screen.width = gdk_texture_get_width (texture);
  screen.height = gdk_texture_get_height (texture);
  screen.stride = screen.width;
  screen_pixels = g_new (guint32, (gsize) screen.width * screen.height);
  gdk_texture_download (texture, (guchar *) screen_pixels, (gsize) screen.width * 4);
  screen.pixels = screen_pixels;

  id = g_signal_connect (child.window, "export-finished", G_CALLBACK (pgs_ui_export_done), &done);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (child.window),
                                             "win.export-map-to-file", "s", path));
  g_assert_true (pgs_ui_wait (pgs_ui_flag_set, &done, 120000));
  g_signal_handler_disconnect (child.window, id);

  pgs_map_page_get_export_size (page, &ew, &eh);
  factor = MIN ((double) ew / screen.width, (double) eh / screen.height);
  g_test_message ("screen %d x %d, export %d x %d (x %.3f)", screen.width, screen.height,
                  ew, eh, factor);
  png = cairo_image_surface_create_from_png (path);
  g_assert_cmpint (cairo_surface_status (png), ==, CAIRO_STATUS_SUCCESS);
  out.pixels = (guint32 *) cairo_image_surface_get_data (png);
  out.width = cairo_image_surface_get_width (png);
  out.height = cairo_image_surface_get_height (png);
  out.stride = cairo_image_surface_get_stride (png) / 4;
  g_assert_cmpint (out.width, >=, PNG_MARGIN + ew);
  g_assert_cmpint (out.height, >=, PNG_MARGIN + eh);

  /* The screen's map, centred in the export's map area at its scale: each screen pixel's
   * centre lands on an export pixel of the same kind (map or not). */
  for (int y = 1; y < screen.height - 1; y++)
    for (int x = 1; x < screen.width - 1; x++)
      {
        gboolean here = is_map (colors, screen.pixels[y * screen.stride + x]);
        gboolean edge = FALSE;
        int ex, ey;

        for (int dy = -1; dy <= 1 && !edge; dy++)
          for (int dx = -1; dx <= 1 && !edge; dx++)
            edge = is_map (colors, screen.pixels[(y + dy) * screen.stride + x + dx]) != here;
        if (edge)
          continue;
        ex = PNG_MARGIN + (int) floor ((ew - screen.width * factor) / 2 + (x + 0.5) * factor);
        ey = PNG_MARGIN + (int) floor ((eh - screen.height * factor) / 2 + (y + 0.5) * factor);
        g_assert_cmpint (ex, >=, PNG_MARGIN);
        g_assert_cmpint (ex, <, PNG_MARGIN + ew);
        g_assert_cmpint (ey, >=, PNG_MARGIN);
        g_assert_cmpint (ey, <, PNG_MARGIN + eh);
        /* A fold's bar (magenta, edged in black and white) is neither. */
        if (!is_map (colors, out.pixels[ey * out.stride + ex]) &&
            out.pixels[ey * out.stride + ex] != out.pixels[0])
          continue;
        if (is_map (colors, out.pixels[ey * out.stride + ex]) != here)
          g_error ("screen pixel (%d, %d) is %s, export pixel (%d, %d) is not", x, y,
                   here ? "map" : "outside the map", ex, ey);
        checked++;
      }
  g_assert_cmpint (checked, >, screen.width * screen.height / 2);
  cairo_surface_destroy (png);
  g_unlink (path);
  g_settings_set_string (settings, "layout", "linear");
  g_settings_set_boolean (settings, "hide-free", FALSE);
}

static void
test_hilbert_as_screen (void)
{
  check_as_screen ("hilbert", PGS_LAYOUT_HILBERT, FALSE);
}

/* Rows: a pixel several columns by fewer rows of frames, the export's factor not theirs. */
static void
test_rows_as_screen (void)
{
  check_as_screen ("linear", PGS_LAYOUT_LINEAR, FALSE);
}

/* Free memory hidden on screen: hidden in the file too, the same cells at the same places
 * (the file's legend says how much is hidden, and bars mark where). */
static void
test_hide_free_as_screen (void)
{
  check_as_screen ("hilbert", PGS_LAYOUT_HILBERT, TRUE);
}

/* Issue 21 item 17: on the Hilbert layout, mappings are named on the map too. The child's
 * Pages map is drawn (the view's snapshot: pixels and overlays, as on screen) into a texture; a name is white
 * on a dark patch at the top left of the largest square of its mapping's cells, and no map
 * colour is white: some square holds white. */
static void
test_hilbert_labels (void)
{
  GSettings *settings = pgs_application_get_settings (child.app);
  PgsMapPage *page = pgs_window_get_map_page (child.window, PGS_VIEW_RESIDENCY);
  PgsMapView *view = pgs_map_page_get_map_view (page);
  GtkWidget *widget = GTK_WIDGET (view);
  g_autoptr(GtkSnapshot) snapshot = gtk_snapshot_new ();
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GdkTexture) drawn = NULL;
  g_autofree guint32 *pixels = NULL;
  PgsRenderer *renderer;
  GdkTexture *texture;
  int w = gtk_widget_get_width (widget), h = gtk_widget_get_height (widget);
  guint white = 0;

  g_settings_set_string (settings, "layout", "hilbert");
  pgs_window_select_pid (child.window, child.proc.pid);
  pgs_window_set_view (child.window, "residency");
  pgs_ui_wait_map_ready (view);
  g_assert_true (pgs_ui_wait (texture_fills_view, view, 20000));
  texture = pgs_map_view_get_texture (view);
  renderer = pgs_map_view_get_renderer (view);
  g_assert_cmpint (pgs_renderer_get_layout (renderer), ==, PGS_LAYOUT_HILBERT);
  g_assert_cmpint (gtk_widget_get_scale_factor (widget), ==, 1);
  w = gtk_widget_get_width (widget);
  h = gtk_widget_get_height (widget);

  /* The view's own drawing: its pixels and its overlays. */
  GTK_WIDGET_GET_CLASS (widget)->snapshot (widget, snapshot);
  node = gtk_snapshot_to_node (snapshot);
  g_assert_nonnull (node);
  drawn = gsk_renderer_render_texture (gtk_native_get_renderer (gtk_widget_get_native (widget)),
                                       node, &GRAPHENE_RECT_INIT (0, 0, w, h));
  pixels = g_new (guint32, (gsize) gdk_texture_get_width (drawn) * gdk_texture_get_height (drawn));
  gdk_texture_download (drawn, (guchar *) pixels, (gsize) gdk_texture_get_width (drawn) * 4);

  for (guint i = 0; i < pgs_renderer_get_n_bands (renderer); i++)
    {
      double x, y, side;

      if (!pgs_renderer_get_band_square (renderer, gdk_texture_get_width (texture),
                                         gdk_texture_get_height (texture), i, &x, &y, &side, NULL))
        continue;
      for (int yy = MAX (0, (int) ceil (y)); yy < MIN (h, (int) (y + side)); yy++)
        for (int xx = MAX (0, (int) ceil (x)); xx < MIN (w, (int) (x + side)); xx++)
          white += (pixels[(gsize) yy * gdk_texture_get_width (drawn) + xx] | 0xff000000u) == 0xffffffffu;
    }
  g_test_message ("%u white pixels in the mappings' squares", white);
  g_assert_cmpuint (white, >, 0);
  g_settings_set_string (settings, "layout", "linear");
  pgs_window_set_view (child.window, "processes");
}

int
main (int   argc,
      char *argv[])
{
  int status;

  /* A large window (a 2560 x 1600 screen's): the export reaches its largest side before
   * a frame has a pixel, its factor then no power of two. */
  g_setenv ("PGS_UI_WINDOW_SIZE", "1900x1150", TRUE);
  pgs_ui_run_open (&child, CHILD_PAGES, &argc, &argv);
  pgs_ui_wait_idle_scan (child.window);

  g_test_add_func ("/pgs/ui/export/hilbert-as-screen", test_hilbert_as_screen);
  g_test_add_func ("/pgs/ui/export/rows-as-screen", test_rows_as_screen);
  g_test_add_func ("/pgs/ui/export/hide-free-as-screen", test_hide_free_as_screen);
  g_test_add_func ("/pgs/ui/export/hilbert-labels", test_hilbert_labels);
  status = g_test_run ();

  pgs_ui_run_close (&child);
  return status;
}
