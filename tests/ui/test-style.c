/* test-style.c: the maps follow the theme (light, dark) and the highlight misleads no one
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The child (pgs-ui-child, static and asleep) is selected and the page-flag map shown. The
 * pixels checked are those of the texture the map view shows, read back from it; what each
 * should be comes from the view's own hit test (which frame decided the pixel, and whether
 * the child maps it) and the legend's colour for that frame's category. Dark is forced the
 * way the app would: libadwaita's style manager where the app links it (looked up at run
 * time, so this test builds either way), else GTK's gtk-application-prefer-dark-theme.
 * Run under xvfb-run; without a display it skips (exit 77).
 */

#define _GNU_SOURCE
#include "config.h"

#include <dlfcn.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

#include "pgs-ui-util.h"

#define CHILD_PAGES 300

static PgsUiRun child;

/* WCAG relative luminance of an ARGB pixel, from its definition. */
static double
luminance (guint32 argb)
{
  double rgb[3];

  for (int i = 0; i < 3; i++)
    {
      double c = ((argb >> (16 - 8 * i)) & 0xff) / 255.0;

      rgb[i] = c <= 0.04045 ? c / 12.92 : pow ((c + 0.055) / 1.055, 2.4);
    }
  return 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2];
}

typedef struct
{
  guint32 *pixels;
  int      width;
  int      height;
} Shot;

/* The view's texture, as ARGB32 native words. */
static Shot
read_texture (PgsMapView *view)
{
  GdkTexture *texture = pgs_map_view_get_texture (view);
  Shot shot;

  g_assert_nonnull (texture);
  shot.width = gdk_texture_get_width (texture);
  shot.height = gdk_texture_get_height (texture);
  shot.pixels = g_new (guint32, (gsize) shot.width * shot.height);
  gdk_texture_download (texture, (guchar *) shot.pixels, (gsize) shot.width * 4);
  return shot;
}

/* ADW_COLOR_SCHEME_DEFAULT and ADW_COLOR_SCHEME_FORCE_DARK */
#define ADW_DEFAULT    0
#define ADW_FORCE_DARK 4

static void
force_dark (gboolean dark)
{
  gpointer (*get_default) (void) = (gpointer (*) (void)) dlsym (RTLD_DEFAULT,
                                                                 "adw_style_manager_get_default");

  if (get_default != NULL)
    g_object_set (get_default (), "color-scheme", dark ? ADW_FORCE_DARK : ADW_DEFAULT, NULL);
  else
    g_object_set (gtk_settings_get_default (), "gtk-application-prefer-dark-theme", dark, NULL);
}

static PgsMapView *
show_flags_of_child (void)
{
  PgsMapPage *page = pgs_window_get_map_page (child.window, PGS_VIEW_FLAGS);
  PgsMapView *view = pgs_map_page_get_map_view (page);

  pgs_window_select_pid (child.window, child.proc.pid);
  pgs_window_set_view (child.window, "flags");
  pgs_ui_wait_map_ready (view);
  return view;
}

static gboolean
style_is (gpointer data)
{
  PgsMapView *view = data;
  PgsRenderer *renderer = pgs_map_view_get_renderer (view);

  return pgs_map_view_is_ready (view) && renderer != NULL &&
         (int) pgs_renderer_get_style (renderer) == GPOINTER_TO_INT (g_object_get_data (data, "want"));
}

static void
wait_style (PgsMapView     *view,
            PgsRenderStyle  style)
{
  g_object_set_data (G_OBJECT (view), "want", GINT_TO_POINTER (style));
  g_assert_true (pgs_ui_wait (style_is, view, 20000));
}

/* Every pixel (every third, both ways) outside the map is the background; every pixel on
 * it whose frame the child does not map has exactly its category's legend colour; one the
 * child maps has the highlight colour, or (outline) its own colour inside the ring.
 * Returns how many pixels were the child's. */
static guint
check_pixels (PgsMapView       *view,
              PgsHighlightMode  mode,
              guint            *n_background)
{
  PgsRenderer *renderer = pgs_map_view_get_renderer (view);
  const PgsStyleColors *colors = pgs_palette_style (pgs_renderer_get_style (renderer));
  Shot shot = read_texture (view);
  guint marked = 0;
  guint32 tones[64];
  guint n_tones = 0;

  *n_background = 0;
  for (int y = 0; y < shot.height; y += 3)
    for (int x = 0; x < shot.width; x += 3)
      {
        guint32 got = shot.pixels[(gsize) y * shot.width + x], own;
        PgsHit hit;

        if (!pgs_map_view_hit_test (view, x + 0.5, y + 0.5, &hit) || !hit.valid)
          {
            g_assert_cmphex (got, ==, colors->background);
            (*n_background)++;
            continue;
          }
        pgs_renderer_get_legend_item (renderer, hit.legend_index, &own, NULL, NULL);
        if (!hit.highlighted)
          {
            if (got != own)
              g_error ("pixel (%d, %d), frame %" G_GUINT64_FORMAT " not the child's: #%08x, "
                       "its category's legend colour #%08x", x, y, hit.pfn, got, own);
            continue;
          }
        marked++;
        if (mode == PGS_HIGHLIGHT_OVERLAY)
          g_assert_cmphex (got, ==, colors->highlight);
        else if (got != own)
          {
            /* A ring tone: remembered to check its contrast below. */
            guint k;

            for (k = 0; k < n_tones && tones[k] != got; k++)
              ;
            if (k == n_tones)
              {
                g_assert_cmpuint (n_tones, <, G_N_ELEMENTS (tones));
                tones[n_tones++] = got;
              }
          }
      }
  g_free (shot.pixels);

  /* Issue 21 item 9: the outline was black, lost on the dark blues and purples. One tone
   * of the ring has a WCAG contrast of 3:1 or more against every colour of the legend. */
  if (mode == PGS_HIGHLIGHT_OUTLINE && marked > 0)
    {
      guint n_items = pgs_renderer_get_n_legend_items (renderer);
      gboolean found = FALSE;

      for (guint k = 0; k < n_tones && !found; k++)
        {
          double worst = G_MAXDOUBLE;

          for (guint i = 0; i < n_items; i++)
            {
              guint32 c;
              double a, b;

              pgs_renderer_get_legend_item (renderer, i, &c, NULL, NULL);
              a = luminance (tones[k]) + 0.05;
              b = luminance (c) + 0.05;
              worst = MIN (worst, MAX (a, b) / MIN (a, b));
            }
          g_test_message ("ring tone #%08x: lowest contrast %.2f against %u legend colours",
                          tones[k], worst, n_items);
          found = worst >= 3.0;
        }
      g_assert_true (found);
    }
  return marked;
}

static void
test_light (void)
{
  PgsMapView *view = show_flags_of_child ();
  guint n_background, marked;

  if (pgs_snapshot_get_physmap (pgs_window_get_snapshot (child.window)) == NULL)
    {
      g_test_skip ("no physical map (needs root)");
      return;
    }
  /* Xvfb's default: GTK's own Adwaita, light. */
  g_assert_cmpint (pgs_map_view_get_style (view), ==, PGS_RENDER_STYLE_LIGHT);
  wait_style (view, PGS_RENDER_STYLE_LIGHT);
  marked = check_pixels (view, PGS_HIGHLIGHT_OUTLINE, &n_background);
  g_assert_cmpuint (marked, >, 0);
  g_assert_cmpuint (n_background, >, 0);
  g_assert_cmpfloat (luminance (pgs_palette_style (PGS_RENDER_STYLE_LIGHT)->background), >, 0.9);
}

static void
test_overlay_setting (void)
{
  PgsMapView *view = show_flags_of_child ();
  GSettings *settings = pgs_application_get_settings (child.app);
  guint n_background;

  if (pgs_snapshot_get_physmap (pgs_window_get_snapshot (child.window)) == NULL)
    {
      g_test_skip ("no physical map (needs root)");
      return;
    }
  g_settings_set_string (settings, "highlight", "overlay");
  pgs_ui_spin (50);
  pgs_ui_wait_map_ready (view);
  g_assert_cmpint (pgs_renderer_get_highlight_mode (pgs_map_view_get_renderer (view)), ==,
                   PGS_HIGHLIGHT_OVERLAY);
  g_assert_cmpuint (check_pixels (view, PGS_HIGHLIGHT_OVERLAY, &n_background), >, 0);
  g_settings_reset (settings, "highlight");
  pgs_ui_spin (50);
  pgs_ui_wait_map_ready (view);
  g_assert_cmpint (pgs_renderer_get_highlight_mode (pgs_map_view_get_renderer (view)), ==,
                   PGS_HIGHLIGHT_OUTLINE);
}

/* Dark forced: the map is drawn again on a dark background from the same snapshot. */
static void
test_dark (void)
{
  PgsMapView *view = show_flags_of_child ();
  PgsSnapshot *before = pgs_window_get_snapshot (child.window);
  guint n_background, marked;
  Shot shot;
  double darkest_background = 0;

  if (pgs_snapshot_get_physmap (before) == NULL)
    {
      g_test_skip ("no physical map (needs root)");
      return;
    }
  force_dark (TRUE);
  wait_style (view, PGS_RENDER_STYLE_DARK);
  g_assert_true (pgs_renderer_get_snapshot (pgs_map_view_get_renderer (view)) == before);

  /* The pixels outside the map are dark (relative luminance under 0.05: #3f3f3f is 0.05). */
  shot = read_texture (view);
  for (int y = 0; y < shot.height; y++)
    for (int x = 0; x < shot.width; x++)
      {
        PgsHit hit;

        if (!pgs_map_view_hit_test (view, x + 0.5, y + 0.5, &hit) || !hit.valid)
          darkest_background = MAX (darkest_background,
                                    luminance (shot.pixels[(gsize) y * shot.width + x]));
      }
  g_free (shot.pixels);
  g_assert_cmpfloat (darkest_background, <, 0.05);

  marked = check_pixels (view, PGS_HIGHLIGHT_OUTLINE, &n_background);
  g_assert_cmpuint (marked, >, 0);
  g_assert_cmpuint (n_background, >, 0);

  /* And back. */
  force_dark (FALSE);
  wait_style (view, PGS_RENDER_STYLE_LIGHT);
}

/* High contrast from GTK's theme (plain GTK; libadwaita takes it from GNOME's setting, which
 * a test cannot set): the map follows, and its background stays white. */
static void
test_high_contrast (void)
{
  PgsMapView *view = show_flags_of_child ();
  GtkSettings *gtk_settings = gtk_settings_get_default ();
  g_autofree char *theme = NULL;
  guint n_background;

  if (dlsym (RTLD_DEFAULT, "adw_style_manager_get_default") != NULL)
    {
      g_test_skip ("libadwaita ignores GTK's theme name");
      return;
    }
  if (pgs_snapshot_get_physmap (pgs_window_get_snapshot (child.window)) == NULL)
    {
      g_test_skip ("no physical map (needs root)");
      return;
    }
  g_object_get (gtk_settings, "gtk-theme-name", &theme, NULL);
  g_object_set (gtk_settings, "gtk-theme-name", "HighContrast", NULL);
  wait_style (view, PGS_RENDER_STYLE_HC_LIGHT);
  g_assert_cmpuint (check_pixels (view, PGS_HIGHLIGHT_OUTLINE, &n_background), >, 0);
  g_assert_cmpuint (n_background, >, 0);
  g_object_set (gtk_settings, "gtk-theme-name", theme, NULL);
  wait_style (view, PGS_RENDER_STYLE_LIGHT);
}

int
main (int   argc,
      char *argv[])
{
  int status;

  pgs_ui_run_open (&child, CHILD_PAGES, &argc, &argv);
  pgs_ui_wait_idle_scan (child.window);

  g_test_add_func ("/pgs/ui/style/light", test_light);
  g_test_add_func ("/pgs/ui/style/overlay-setting", test_overlay_setting);
  g_test_add_func ("/pgs/ui/style/dark", test_dark);
  g_test_add_func ("/pgs/ui/style/high-contrast", test_high_contrast);
  status = g_test_run ();

  pgs_ui_run_close (&child);
  return status;
}
