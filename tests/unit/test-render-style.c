/* test-render-style.c: the map styles and the highlight, checked against the literature
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Independent of the library's own reasoning about its palettes:
 * - contrast ratio as WCAG 2.x defines it: relative luminance L = 0.2126 R + 0.7152 G +
 *   0.0722 B of linearised sRGB (c / 12.92 up to 0.04045, else ((c + 0.055) / 1.055)^2.4),
 *   ratio (L1 + 0.05) / (L2 + 0.05) with L1 the lighter;
 * - colour difference as CIE76: the distance in CIELAB (D65 white, X 0.95047, Z 1.08883)
 *   from sRGB through XYZ with the sRGB matrix (IEC 61966-2-1);
 * - dichromat vision as Machado, Oliveira and Fernandes, "A Physiologically-based Model for
 *   Simulation of Color Vision Deficiency" (IEEE TVCG 15(6), 2009), severity 1.0, whose
 *   matrices act on linear RGB.
 *
 * The fixture for the pixels: 4096 frames drawn at 64 x 64 pixels, one frame a pixel, frame f
 * at (f % 64, f / 64). Frame f has category by f % 5 (file inactive, file active, anonymous,
 * slab, dirty) and map count f % 3. The process maps frames 65-67, 129-131, 193-195 (a
 * 3 x 3 square at x 1-3, y 1-3) and frames 300 and 1000 alone. Outlined, every one of them
 * but the square's centre, frame 130 at (2, 2), has a neighbour outside the set.
 */

#include "config.h"

#include <math.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include <pagescope.h>

#include "pgs-fixture.h"
#include "pgs-test-cli.h"
#include "pgs-kpage.h"

#define KPF(f) PGS_KPF_BIT (PGS_KPF_##f)
#define BASE   G_GUINT64_CONSTANT (0x10000000)

static guint64 PS;

static const guint64 marked_frames[] = { 65, 66, 67, 129, 130, 131, 193, 194, 195, 300, 1000 };
#define INTERIOR_FRAME 130

static const PgsCategory category_of_residue[5] = {
  PGS_CATEGORY_FILE_INACTIVE, PGS_CATEGORY_FILE_ACTIVE, PGS_CATEGORY_ANON,
  PGS_CATEGORY_SLAB, PGS_CATEGORY_DIRTY,
};

/* ---- colour science, from the definitions cited above ---- */

static double
linear (guint32 argb,
        int     shift)
{
  double c = ((argb >> shift) & 0xff) / 255.0;

  return c <= 0.04045 ? c / 12.92 : pow ((c + 0.055) / 1.055, 2.4);
}

static double
luminance (guint32 argb)
{
  return 0.2126 * linear (argb, 16) + 0.7152 * linear (argb, 8) + 0.0722 * linear (argb, 0);
}

static double
contrast (guint32 a,
          guint32 b)
{
  double la = luminance (a), lb = luminance (b);

  return (MAX (la, lb) + 0.05) / (MIN (la, lb) + 0.05);
}

static double
lab_f (double t)
{
  return t > 216.0 / 24389 ? cbrt (t) : (24389.0 / 27 * t + 16) / 116;
}

static void
rgb_to_lab (const double rgb[3],
            double       lab[3])
{
  double x = 0.4124564 * rgb[0] + 0.3575761 * rgb[1] + 0.1804375 * rgb[2];
  double y = 0.2126729 * rgb[0] + 0.7151522 * rgb[1] + 0.0721750 * rgb[2];
  double z = 0.0193339 * rgb[0] + 0.1191920 * rgb[1] + 0.9503041 * rgb[2];
  double fx = lab_f (x / 0.95047), fy = lab_f (y), fz = lab_f (z / 1.08883);

  lab[0] = 116 * fy - 16;
  lab[1] = 500 * (fx - fy);
  lab[2] = 200 * (fy - fz);
}

typedef enum { NORMAL, PROTAN, DEUTAN } Vision;

static const double machado[3][3][3] = {
  [NORMAL] = { { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } },
  [PROTAN] = { { 0.152286, 1.052583, -0.204868 },
               { 0.114503, 0.786281, 0.099216 },
               { -0.003882, -0.048116, 1.051998 } },
  [DEUTAN] = { { 0.367322, 0.860646, -0.227968 },
               { 0.280085, 0.672501, 0.047413 },
               { -0.011820, 0.042940, 0.968881 } },
};

static void
seen_lab (guint32 argb,
          Vision  vision,
          double  lab[3])
{
  double in[3] = { linear (argb, 16), linear (argb, 8), linear (argb, 0) }, out[3];

  for (int i = 0; i < 3; i++)
    out[i] = CLAMP (machado[vision][i][0] * in[0] + machado[vision][i][1] * in[1] +
                    machado[vision][i][2] * in[2], 0.0, 1.0);
  rgb_to_lab (out, lab);
}

static double
delta_e (guint32 a,
         guint32 b,
         Vision  vision)
{
  double la[3], lb[3];

  seen_lab (a, vision, la);
  seen_lab (b, vision, lb);
  return sqrt ((la[0] - lb[0]) * (la[0] - lb[0]) + (la[1] - lb[1]) * (la[1] - lb[1]) +
               (la[2] - lb[2]) * (la[2] - lb[2]));
}

/* The formulas on known values: white on black is 21:1; #777777 on white is 4.48:1 (the
 * grey usually quoted as just failing AA); white is L* 100; black and white differ by ΔE
 * 100; a pure grey is seen as itself by every matrix (their rows sum to 1). */
static void
test_formulas (void)
{
  g_assert_cmpfloat_with_epsilon (contrast (0xffffffffu, 0xff000000u), 21.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (contrast (0xff777777u, 0xffffffffu), 4.478, 0.001);
  g_assert_cmpfloat_with_epsilon (delta_e (0xff000000u, 0xffffffffu, NORMAL), 100.0, 0.01);
  g_assert_cmpfloat (delta_e (0xff808080u, 0xff808080u, PROTAN), <, 0.01);
  for (Vision v = PROTAN; v <= DEUTAN; v++)
    {
      double lab[3];

      seen_lab (0xff808080u, v, lab);
      g_assert_cmpfloat (fabs (lab[1]) + fabs (lab[2]), <, 0.1);
    }
  /* Red and green, far apart to most, close for a deuteranope: #d00000 vs #6b6b00 is ΔE
   * 70 or more, but less than 20 through the deutan matrix. */
  g_assert_cmpfloat (delta_e (0xffd00000u, 0xff6b6b00u, NORMAL), >, 50);
  g_assert_cmpfloat (delta_e (0xffd00000u, 0xff6b6b00u, DEUTAN), <, 20);
}

/* Every colour a map of @style can show for a class: categories, sharing classes and
 * residency classes (not PGS_RES_NONE, which is the background). */
static GArray *
class_colors (PgsRenderStyle style)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (guint32));

  for (guint c = 0; c < PGS_N_CATEGORIES; c++)
    {
      guint32 x = pgs_palette_category_for_style (style, c);

      g_array_append_val (out, x);
    }
  for (guint c = 0; c < PGS_N_SHARE_CLASSES; c++)
    {
      guint32 x = pgs_palette_share_for_style (style, c);

      g_array_append_val (out, x);
    }
  for (guint c = PGS_RES_NONE + 1; c < PGS_N_RES_CLASSES; c++)
    {
      guint32 x = pgs_palette_res_for_style (style, c);

      g_array_append_val (out, x);
    }
  return out;
}

static gboolean
is_high_contrast (PgsRenderStyle style)
{
  return style == PGS_RENDER_STYLE_HC_LIGHT || style == PGS_RENDER_STYLE_HC_DARK;
}

/* Each style: every class colour 3:1 or more against the background (4.5:1 in high
 * contrast), text and grid 4.5:1 (7:1 for text in high contrast), and light styles on a
 * light background, dark ones on a dark one. */
static void
test_contrast (void)
{
  for (PgsRenderStyle s = 0; s < PGS_N_RENDER_STYLES; s++)
    {
      const PgsStyleColors *sc = pgs_palette_style (s);
      g_autoptr(GArray) colors = class_colors (s);
      double min_class = is_high_contrast (s) ? 4.5 : 3.0;
      gboolean dark = s == PGS_RENDER_STYLE_DARK || s == PGS_RENDER_STYLE_HC_DARK;

      g_test_message ("style %s", pgs_render_style_get_id (s));
      g_assert_cmpuint (colors->len, ==, PGS_N_CATEGORIES + PGS_N_SHARE_CLASSES +
                                         PGS_N_RES_CLASSES - 1);
      for (guint i = 0; i < colors->len; i++)
        {
          guint32 c = g_array_index (colors, guint32, i);

          if (contrast (c, sc->background) < min_class)
            g_error ("style %s: colour %u #%06x has contrast %.2f against #%06x",
                     pgs_render_style_get_id (s), i, c & 0xffffff,
                     contrast (c, sc->background), sc->background & 0xffffff);
        }
      g_assert_cmpfloat (contrast (sc->text, sc->background), >=, is_high_contrast (s) ? 7.0 : 4.5);
      g_assert_cmpfloat (contrast (sc->text_dim, sc->background), >=, 4.5);
      g_assert_cmpfloat (contrast (sc->grid, sc->background), >=, 4.5);
      g_assert_cmpfloat (contrast (sc->highlight, sc->background), >=, 4.5);
      g_assert_cmpint (luminance (sc->background) < 0.05, ==, dark);
      g_assert_cmpint (luminance (sc->background) > 0.9, ==, !dark);
    }
}

/* The highlight colour is none of the class colours, by a clear margin, for normal,
 * protan and deutan vision; and the ramp still rises in lightness, step by step. */
static void
test_highlight_distinct (void)
{
  for (PgsRenderStyle s = 0; s < PGS_N_RENDER_STYLES; s++)
    {
      g_autoptr(GArray) colors = class_colors (s);
      guint32 hl = pgs_palette_style (s)->highlight;

      for (Vision v = NORMAL; v <= DEUTAN; v++)
        for (guint i = 0; i < colors->len; i++)
          {
            double d = delta_e (hl, g_array_index (colors, guint32, i), v);

            if (d <= 20)
              g_error ("style %s vision %d: colour %u #%06x is ΔE %.1f from the highlight",
                       pgs_render_style_get_id (s), v, i,
                       g_array_index (colors, guint32, i) & 0xffffff, d);
          }
      for (guint c = PGS_SHARE_2; c < PGS_N_SHARE_CLASSES; c++)
        {
          double lo[3], hi[3];

          seen_lab (pgs_palette_share_for_style (s, c - 1), NORMAL, lo);
          seen_lab (pgs_palette_share_for_style (s, c), NORMAL, hi);
          g_assert_cmpfloat (hi[0], >, lo[0] + 2);
        }
    }
}

/* The categories stay apart from each other (CIE76, normal vision): the closest two, in
 * every style, at least ΔE 8. Fifteen categories cannot all stay apart for dichromats;
 * the legend and the tooltip name each. */
static void
test_categories_apart (void)
{
  for (PgsRenderStyle s = 0; s < PGS_N_RENDER_STYLES; s++)
    {
      double closest = G_MAXDOUBLE;

      for (guint a = 0; a < PGS_N_CATEGORIES; a++)
        for (guint b = a + 1; b < PGS_N_CATEGORIES; b++)
          closest = MIN (closest, delta_e (pgs_palette_category_for_style (s, a),
                                           pgs_palette_category_for_style (s, b), NORMAL));
      g_test_message ("style %s: closest categories dE %.1f", pgs_render_style_get_id (s), closest);
      g_assert_cmpfloat (closest, >=, 8);
    }
}

static PgsFixture *
make_fixture (void)
{
  PgsFixture *fx = pgs_fixture_new ();
  static const guint64 flags[5] = {
    KPF (LRU) | KPF (UPTODATE),
    KPF (LRU) | KPF (ACTIVE) | KPF (UPTODATE),
    KPF (ANON) | KPF (LRU) | KPF (SWAPBACKED),
    KPF (SLAB),
    KPF (LRU) | KPF (DIRTY) | KPF (UPTODATE),
  };
  guint64 entries[G_N_ELEMENTS (marked_frames)];

  for (guint f = 0; f < 4096; f++)
    pgs_fixture_set_frame (fx, f, f % 3, flags[f % 5]);
  pgs_fixture_add_process (fx, 100, "alpha", 0, FALSE);
  pgs_fixture_add_mapping (fx, 100, BASE, BASE + G_N_ELEMENTS (marked_frames) * PS,
                           "rw-p", NULL);
  for (guint i = 0; i < G_N_ELEMENTS (marked_frames); i++)
    entries[i] = FX_PRESENT (marked_frames[i]);
  pgs_fixture_set_pages (fx, 100, BASE, entries, G_N_ELEMENTS (marked_frames));
  pgs_fixture_commit (fx);
  return fx;
}

static PgsSnapshot *
scan_fixture (void)
{
  g_autoptr(PgsFixture) fx = make_fixture ();

  return pgs_test_scan (fx, PGS_SCAN_MAPPINGS | PGS_SCAN_PAGES | PGS_SCAN_PHYSMAP);
}

static gboolean
is_marked (guint64 frame)
{
  for (guint i = 0; i < G_N_ELEMENTS (marked_frames); i++)
    if (marked_frames[i] == frame)
      return TRUE;
  return FALSE;
}

/* The class each frame has in @view, worked from the fixture: a category by f % 5, a map
 * count of f % 3 (0: in use, not mapped). */
static guint
own_class (PgsView view,
           guint64 frame)
{
  static const PgsShareClass by_count[3] = { PGS_SHARE_0, PGS_SHARE_1, PGS_SHARE_2 };

  return view == PGS_VIEW_FLAGS ? category_of_residue[frame % 5] : by_count[frame % 3];
}

/* Every style, both modes, both physical views: a pixel outside the process's frames has
 * exactly its own class's legend colour; one inside has the highlight colour (overlay), or
 * the halo on the edge and the highlight colour one pixel inside it (outline). */
static void
test_highlight_pixels (void)
{
  g_autoptr(PgsSnapshot) snapshot = scan_fixture ();
  PgsProcess *process = pgs_snapshot_lookup_pid (snapshot, 100);
  guint checked = 0;

  g_assert_nonnull (process);
  for (PgsView view = PGS_VIEW_SHARING; view <= PGS_VIEW_FLAGS; view++)
    for (PgsRenderStyle s = 0; s < PGS_N_RENDER_STYLES; s++)
      for (PgsHighlightMode mode = PGS_HIGHLIGHT_OUTLINE; mode <= PGS_HIGHLIGHT_OVERLAY; mode++)
        {
          g_autoptr(PgsRenderer) renderer = pgs_renderer_new (snapshot, view);
          guint32 *pixels = g_new (guint32, 64 * 64);
          guint32 hl = pgs_palette_style (s)->highlight;
          PgsHit hit;

          pgs_renderer_set_style (renderer, s);
          pgs_renderer_set_highlight_mode (renderer, mode);
          pgs_renderer_set_process (renderer, process);
          pgs_renderer_render (renderer, (guint8 *) pixels, 64, 64, 64 * 4);

          for (guint64 f = 0; f < 4096; f++)
            {
              guint32 own, got = pixels[f];

              pgs_renderer_get_legend_item (renderer, own_class (view, f), &own, NULL, NULL);
              if (!is_marked (f))
                {
                  if (got != own)
                    g_error ("view %d style %d mode %d: frame %" G_GUINT64_FORMAT " is #%08x, "
                             "its class's legend colour #%08x", view, s, mode, f, got, own);
                }
              else if (mode == PGS_HIGHLIGHT_OVERLAY)
                g_assert_cmphex (got, ==, hl);
              else if (f != INTERIOR_FRAME)
                /* The ring's outer tone. */
                g_assert_cmphex (got, ==, pgs_palette_style (s)->halo);
              else
                /* One pixel inside it: the highlight colour. */
                g_assert_cmphex (got, ==, hl);
              checked++;
            }
          /* The hit test names the same class the fixture gave. */
          g_assert_true (pgs_renderer_hit_test (renderer, 64, 64, 2.5, 2.5, &hit));
          g_assert_cmpuint (hit.pfn, ==, INTERIOR_FRAME);
          g_assert_true (hit.highlighted);
          g_assert_cmpuint (hit.legend_index, ==, own_class (view, INTERIOR_FRAME));
          g_free (pixels);
        }
  g_assert_cmpuint (checked, ==, 2 * PGS_N_RENDER_STYLES * 2 * 4096);
}

/* Zoomed in 8 times on the square, cells are 8 pixels wide: the ring is 2 pixels thick
 * (cells 5 to 9 pixels wide get 2) and the cells inside it keep their colour. At zoom 8 the
 * 64 x 64 view shows cells 0-7 of the map's 64 (the centre clamped at 1/16). */
static void
test_outline_zoomed (void)
{
  g_autoptr(PgsSnapshot) snapshot = scan_fixture ();
  g_autoptr(PgsRenderer) renderer = pgs_renderer_new (snapshot, PGS_VIEW_FLAGS);
  g_autofree guint32 *pixels = g_new (guint32, 64 * 64);
  guint32 hl = pgs_palette_style (PGS_RENDER_STYLE_LIGHT)->highlight, own;

  pgs_renderer_set_process (renderer, pgs_snapshot_lookup_pid (snapshot, 100));
  pgs_renderer_set_viewport (renderer, 8, 0, 0);
  pgs_renderer_render (renderer, (guint8 *) pixels, 64, 64, 64 * 4);

  /* The square is cells 1-3 across and down: pixels 8-31. Its left edge: pixels 8 and 9
   * are the ring's halo (white on the light style), 10 its highlight colour, 11 frame
   * 65's own colour (file inactive: 65 % 5 = 0). */
  pgs_renderer_get_legend_item (renderer, PGS_CATEGORY_FILE_INACTIVE, &own, NULL, NULL);
  g_assert_cmphex (pixels[12 * 64 + 8], ==, 0xffffffffu);
  g_assert_cmphex (pixels[12 * 64 + 9], ==, 0xffffffffu);
  g_assert_cmphex (pixels[12 * 64 + 10], ==, hl);
  g_assert_cmphex (pixels[12 * 64 + 11], ==, own);
  /* Just outside, frame 64 (64 % 5 = 4, dirty) at pixel 7, untouched. */
  pgs_renderer_get_legend_item (renderer, PGS_CATEGORY_DIRTY, &own, NULL, NULL);
  g_assert_cmphex (pixels[12 * 64 + 7], ==, own);
  /* The centre cell 130 (130 % 5 = 0) at pixels 16-23 is inside: no ring. */
  pgs_renderer_get_legend_item (renderer, PGS_CATEGORY_FILE_INACTIVE, &own, NULL, NULL);
  for (int y = 16; y < 24; y++)
    for (int x = 16; x < 24; x++)
      g_assert_cmphex (pixels[y * 64 + x], ==, own);
  /* The top edge: rows 8 and 9 halo, 10 highlight, 11 neither. */
  g_assert_cmphex (pixels[8 * 64 + 12], ==, 0xffffffffu);
  g_assert_cmphex (pixels[9 * 64 + 12], ==, 0xffffffffu);
  g_assert_cmphex (pixels[10 * 64 + 12], ==, hl);
  g_assert_cmphex (pixels[11 * 64 + 12], ==, own);
}

/* The legend says what the highlight means, and the PNG's legend takes the style's
 * background. */
static void
test_legend (void)
{
  g_autoptr(PgsSnapshot) snapshot = scan_fixture ();
  g_autoptr(PgsRenderer) renderer = pgs_renderer_new (snapshot, PGS_VIEW_SHARING);
  g_autoptr(PgsRenderer) residency = pgs_renderer_new (snapshot, PGS_VIEW_RESIDENCY);
  g_autofree char *outlined = NULL;
  g_autofree char *filled = NULL;
  cairo_surface_t *surface;
  gboolean marked;
  const guint8 *data;

  g_assert_null (pgs_renderer_describe_highlight (renderer, &marked));
  pgs_renderer_set_process (renderer, pgs_snapshot_lookup_pid (snapshot, 100));
  outlined = pgs_renderer_describe_highlight (renderer, &marked);
  g_assert_cmpstr (outlined, ==, "Outlined: frames of alpha (PID 100)");
  g_assert_true (marked);
  pgs_renderer_set_highlight_mode (renderer, PGS_HIGHLIGHT_OVERLAY);
  filled = pgs_renderer_describe_highlight (renderer, &marked);
  g_assert_cmpstr (filled, ==, "Filled: frames of alpha (PID 100)");
  pgs_renderer_set_process (residency, pgs_snapshot_lookup_pid (snapshot, 100));
  g_assert_null (pgs_renderer_describe_highlight (residency, &marked));

  pgs_renderer_set_style (renderer, PGS_RENDER_STYLE_DARK);
  surface = pgs_renderer_render_surface (renderer, 64, 64, TRUE);
  data = cairo_image_surface_get_data (surface);
  /* The corner, outside map and legend. */
  g_assert_cmphex (*(const guint32 *) data, ==, pgs_palette_style (PGS_RENDER_STYLE_DARK)->background);
  cairo_surface_destroy (surface);
}

/* A process none of whose pages is in memory has no frame to mark: the legend says so and
 * every pixel keeps its colour. */
static void
test_nothing_marked (void)
{
  g_autoptr(PgsFixture) fx = pgs_fixture_new ();
  g_autoptr(PgsSnapshot) snapshot = NULL;
  g_autoptr(PgsRenderer) renderer = NULL;
  g_autofree char *text = NULL;
  g_autofree guint32 *pixels = g_new (guint32, 64 * 64);
  guint32 own;
  gboolean marked = TRUE;

  for (guint f = 0; f < 4096; f++)
    pgs_fixture_set_frame (fx, f, 1, KPF (LRU) | KPF (UPTODATE));
  pgs_fixture_add_process (fx, 100, "alpha", 0, FALSE);
  pgs_fixture_add_mapping (fx, 100, BASE, BASE + PS, "rw-p", NULL);
  pgs_fixture_commit (fx);
  snapshot = pgs_test_scan (fx, PGS_SCAN_MAPPINGS | PGS_SCAN_PAGES | PGS_SCAN_PHYSMAP);
  renderer = pgs_renderer_new (snapshot, PGS_VIEW_FLAGS);
  pgs_renderer_set_process (renderer, pgs_snapshot_lookup_pid (snapshot, 100));
  text = pgs_renderer_describe_highlight (renderer, &marked);
  g_assert_cmpstr (text, ==, "No frames of alpha (PID 100) in this map");
  g_assert_false (marked);
  pgs_renderer_render (renderer, (guint8 *) pixels, 64, 64, 64 * 4);
  pgs_renderer_get_legend_item (renderer, PGS_CATEGORY_FILE_INACTIVE, &own, NULL, NULL);
  for (guint i = 0; i < 64 * 64; i++)
    g_assert_cmphex (pixels[i], ==, own);
}

/* The CLI draws the same: dark style, overlay; and refuses an unknown style or mode. */
static void
test_cli (void)
{
  g_autoptr(PgsFixture) fx = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *png = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  cairo_surface_t *surface;
  const guint8 *data;
  int stride;

  if (g_getenv ("PAGESCOPE_CLI") == NULL)
    {
      g_test_skip ("PAGESCOPE_CLI is not set (run through meson test)");
      return;
    }
  fx = make_fixture ();
  dir = g_dir_make_tmp ("pgs-render-style-XXXXXX", &error);
  g_assert_no_error (error);
  png = g_build_filename (dir, "flags.png", NULL);
  g_assert_cmpint (pgs_test_run_cli (fx, &out, &err, "render", "--view", "flags", "--pid", "100",
                                     "--style", "dark", "--highlight", "overlay", "--width", "64",
                                     "--height", "64", "--json", "-o", png, NULL), ==, 0);
  g_assert_nonnull (strstr (out, "\"style\": \"dark\""));
  g_assert_nonnull (strstr (out, "\"highlight\": { \"mode\": \"overlay\", \"color\": \"#ffffff\", "
                                 "\"label\": \"Filled: frames of alpha (PID 100)\" }"));
  surface = cairo_image_surface_create_from_png (png);
  g_assert_cmpint (cairo_surface_status (surface), ==, CAIRO_STATUS_SUCCESS);
  data = cairo_image_surface_get_data (surface);
  stride = cairo_image_surface_get_stride (surface);
  /* Frame 130 at (2, 2): the child's, white; frame 0 at (0, 0), file inactive, and 64 at
   * (0, 1), dirty: the dark style's colours. */
  g_assert_cmphex (*(const guint32 *) (data + 2 * stride + 2 * 4), ==, 0xffffffffu);
  g_assert_cmphex (*(const guint32 *) data, ==,
                   pgs_palette_category_for_style (PGS_RENDER_STYLE_DARK, PGS_CATEGORY_FILE_INACTIVE));
  g_assert_cmphex (*(const guint32 *) (data + stride), ==,
                   pgs_palette_category_for_style (PGS_RENDER_STYLE_DARK, PGS_CATEGORY_DIRTY));
  cairo_surface_destroy (surface);
  g_unlink (png);
  g_rmdir (dir);

  g_clear_pointer (&err, g_free);
  g_assert_cmpint (pgs_test_run_cli (fx, NULL, &err, "render", "--view", "flags", "--style",
                                     "sepia", NULL), ==, 2);
  g_assert_nonnull (strstr (err, "--style takes light, dark, hc-light or hc-dark"));
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (pgs_test_run_cli (fx, NULL, &err, "render", "--view", "flags", "--highlight",
                                     "fade", NULL), ==, 2);
  g_assert_nonnull (strstr (err, "--highlight takes outline or overlay"));
}

static void
test_style_ids (void)
{
  PgsRenderStyle style;

  for (PgsRenderStyle s = 0; s < PGS_N_RENDER_STYLES; s++)
    {
      g_assert_true (pgs_render_style_from_id (pgs_render_style_get_id (s), &style));
      g_assert_cmpint (style, ==, s);
    }
  g_assert_true (pgs_render_style_from_id ("hc-dark", &style));
  g_assert_cmpint (style, ==, PGS_RENDER_STYLE_HC_DARK);
  g_assert_false (pgs_render_style_from_id ("sepia", &style));
  g_assert_false (pgs_render_style_from_id (NULL, &style));
}

int
main (int   argc,
      char *argv[])
{
  g_setenv ("LANGUAGE", "C", TRUE);
  g_test_init (&argc, &argv, NULL);
  PS = (guint64) sysconf (_SC_PAGESIZE);

  g_test_add_func ("/pgs/render-style/formulas", test_formulas);
  g_test_add_func ("/pgs/render-style/contrast", test_contrast);
  g_test_add_func ("/pgs/render-style/highlight-distinct", test_highlight_distinct);
  g_test_add_func ("/pgs/render-style/categories-apart", test_categories_apart);
  g_test_add_func ("/pgs/render-style/highlight-pixels", test_highlight_pixels);
  g_test_add_func ("/pgs/render-style/outline-zoomed", test_outline_zoomed);
  g_test_add_func ("/pgs/render-style/legend", test_legend);
  g_test_add_func ("/pgs/render-style/nothing-marked", test_nothing_marked);
  g_test_add_func ("/pgs/render-style/cli", test_cli);
  g_test_add_func ("/pgs/render-style/style-ids", test_style_ids);
  return g_test_run ();
}
