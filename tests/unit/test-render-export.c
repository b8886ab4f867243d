/* test-render-export.c: a map drawn larger than on screen keeps the screen's layout, and
 * the PNG's band labels sit beside their own bands
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Worked by hand:
 *
 * Layout. 12288 frames on the sharing map, Hilbert layout, frame 5000 mapped 3 times and
 * the others once. On screen, 48 x 32 pixels: one cell a pixel does not fit (48 x 32
 * cells: 32-cell tiles, 12 needed, 1 fits; 16-cell tiles, 48 needed, 6 fit; and so on),
 * nor do 2 (96 x 64 cells: a 64 tile holds 4096, 3 needed, 1 fits; 32 tiles, 12 needed,
 * 6 fit; 16 tiles, 48 needed, 24 fit…); 4 a pixel do: 192 x 128 cells, one 128-cell tile
 * holds 16384. So the map is 128 x 128 cells, 32 x 32 pixels centred from column 8, a pixel
 * a block of 4 x 4 cells, block (x, y) the 16 frames from 16 · d, d its place on the
 * side-32 curve; the last quarter of the curve (x >= 16, y < 16) is empty.
 *
 * Exported at three times the size, 144 x 96, a map fitted there would have changed: one
 * frame a pixel, 144 x 96 cells, four 32-cell tiles across, 12 tiles, 128 x 96 pixels.
 * Fitted at the screen's 48 x 32 instead: the same tile, 4 / 3 cells a pixel, blocks of
 * 2 x 2 cells (the smallest power of two at least 4 / 3), 96 x 96 pixels centred from
 * column 24, cell column -32 + (x + 0.5) · 4 / 3 at pixel column x (row: 0 + …); block
 * (x, y) the 4 frames from 4 · d, d its place on the side-64 curve.
 *
 * Rows. 19000 frames on the sharing map (as in test-render-fold.c), frame 10020 mapped 3
 * times. On screen, 100 x 100 pixels: a pixel is 2 columns by 1 row of frames, 200
 * columns, 95 rows drawn from pixel row 2; frame 10020 (row 50, columns 20) at pixel
 * (10, 52). Exported at 300 x 300 laid out for 100 x 100: a pixel is 2 / 3 of a column by
 * 1 / 3 of a row (the screen's pixels, each drawn as 3 x 3), 300 x 285 pixels drawn from
 * row 7 (the map starts at row -7 / 3): column floor ((x + 0.5) · 2 / 3), row
 * floor ((y - 6.5) / 3). Frame 10020 is pixel column 30 (30.5 · 2 / 3 = 20.3; 29 and 31
 * give 19.7 and 21) of pixel rows 157–159 (row 50 from y = 156.5 to 159.5).
 *
 * Labels. One process, in address order: libfoo.so (4 pages), an anonymous mapping (60
 * pages), libbaz.so as three mappings of 4 pages, libbar.so (4 pages, its first present).
 * At 64 x 104 pixels: 8 pixels a cell (8 columns; 13 rows of 13 fit), 9 pixels (7
 * columns, 14 rows of 11) do not. Rows: libfoo 0, the anonymous 1–8, libbaz 9–11, libbar
 * 12: pixel rows 0–7, 8–71, 72–95, 96–103. At the legend's scale 1, a line of 13 px text
 * needs 17 px: libfoo and libbar (8 px) go unlabelled, the anonymous mapping (64 px) and
 * libbaz (three bands, 24 px) are labelled, each within its own rows.
 */

#include "config.h"

#include <math.h>
#include <unistd.h>

#include <pagescope.h>

#include "pgs-fixture.h"
#include "pgs-test-render.h"
#include "pgs-test-cli.h"
#include "pgs-kpage.h"

#define KPF(f) PGS_KPF_BIT (PGS_KPF_##f)
#define BASE   G_GUINT64_CONSTANT (0x10000000)

/* As in test-render.c: the light style's "mapped once" and "mapped 3–4 times", and its
 * not-present anonymous and file pages. */
#define COLOR_ONCE     0xff482475u
#define COLOR_3_4      0xff3f4988u
#define COLOR_NP_ANON  0xff3e4238u
#define COLOR_NP_FILE  0xff7f735bu

#define N_FRAMES   12288
#define SHARED_PFN 5000

static guint64 PS;

/* Curve place of each cell of a side x side square, (y · side + x) → d. */
static guint64 *
ref_xy2d_table (guint64 side)
{
  guint64 *table = g_new (guint64, side * side);

  for (guint64 d = 0; d < side * side; d++)
    {
      guint64 x, y;

      pgs_test_d2xy (side, d, &x, &y);
      table[y * side + x] = d;
    }
  return table;
}

/* The colour of a block of @per frames from frame @first: none past the last frame. */
static guint32
block_color (guint64 first,
             guint64 per,
             guint32 background)
{
  if (first >= N_FRAMES)
    return background;
  return SHARED_PFN >= first && SHARED_PFN < first + per ? COLOR_3_4 : COLOR_ONCE;
}

static void
test_hilbert_export (void)
{
  g_autoptr(PgsFixture) fx = pgs_fixture_new ();
  g_autoptr(PgsSnapshot) snapshot = NULL;
  g_autoptr(PgsRenderer) renderer = NULL;
  g_autofree guint64 *side32 = ref_xy2d_table (32);
  g_autofree guint64 *side64 = ref_xy2d_table (64);
  cairo_surface_t *surface;
  guint32 bg;

  for (guint i = 0; i < N_FRAMES; i++)
    pgs_fixture_set_frame (fx, i, i == SHARED_PFN ? 3 : 1, KPF (LRU) | KPF (UPTODATE));
  pgs_fixture_commit (fx);
  snapshot = pgs_test_scan (fx, PGS_SCAN_METRICS | PGS_SCAN_PHYSMAP);
  renderer = pgs_renderer_new (snapshot, PGS_VIEW_SHARING);
  pgs_renderer_set_layout (renderer, PGS_LAYOUT_HILBERT);

  /* On screen. */
  surface = pgs_renderer_render_surface (renderer, 48, 32, FALSE);
  bg = pgs_test_pixel (surface, 0, 0);
  g_assert_cmphex (bg, !=, COLOR_ONCE);
  for (int y = 0; y < 32; y++)
    for (int x = 0; x < 48; x++)
      {
        guint32 want = x < 8 || x >= 40 ? bg : block_color (16 * side32[y * 32 + x - 8], 16, bg);

        if (pgs_test_pixel (surface, x, y) != want)
          g_error ("screen pgs_test_pixel (%d, %d) is #%08x, not #%08x", x, y, pgs_test_pixel (surface, x, y), want);
      }
  cairo_surface_destroy (surface);

  /* Exported three times as large, laid out for the screen. */
  pgs_renderer_set_fit_size (renderer, 48, 32);
  surface = pgs_renderer_render_surface (renderer, 144, 96, FALSE);
  for (int y = 0; y < 96; y++)
    for (int x = 0; x < 144; x++)
      {
        guint32 want = bg;

        if (x >= 24 && x < 120)
          {
            guint64 bx = (guint64) floor (-32 + (x + 0.5) * 4 / 3) / 2;
            guint64 by = (guint64) floor ((y + 0.5) * 4 / 3) / 2;

            want = block_color (4 * side64[by * 64 + bx], 4, bg);
          }
        if (pgs_test_pixel (surface, x, y) != want)
          g_error ("export pgs_test_pixel (%d, %d) is #%08x, not #%08x", x, y, pgs_test_pixel (surface, x, y), want);
      }
  cairo_surface_destroy (surface);

  /* Back to the output's own size: at 144 x 96 a frame a pixel, 128 pixels wide. */
  pgs_renderer_set_fit_size (renderer, 0, 0);
  surface = pgs_renderer_render_surface (renderer, 144, 96, FALSE);
  g_assert_cmphex (pgs_test_pixel (surface, 8, 0), ==, COLOR_ONCE);
  g_assert_cmphex (pgs_test_pixel (surface, 7, 0), ==, bg);
  cairo_surface_destroy (surface);
}

static void
test_rows_export (void)
{
  g_autoptr(PgsFixture) fx = pgs_fixture_new ();
  g_autoptr(PgsSnapshot) snapshot = NULL;
  g_autoptr(PgsRenderer) renderer = NULL;
  cairo_surface_t *surface;

  for (guint i = 0; i < 19000; i++)
    pgs_fixture_set_frame (fx, i, i == 10020 ? 3 : 1, KPF (LRU) | KPF (UPTODATE));
  pgs_fixture_commit (fx);
  snapshot = pgs_test_scan (fx, PGS_SCAN_METRICS | PGS_SCAN_PHYSMAP);
  renderer = pgs_renderer_new (snapshot, PGS_VIEW_SHARING);

  surface = pgs_renderer_render_surface (renderer, 100, 100, FALSE);
  g_assert_cmphex (pgs_test_pixel (surface, 10, 52), ==, COLOR_3_4);
  g_assert_cmphex (pgs_test_pixel (surface, 11, 52), ==, COLOR_ONCE);
  g_assert_cmphex (pgs_test_pixel (surface, 10, 51), ==, COLOR_ONCE);
  cairo_surface_destroy (surface);

  pgs_renderer_set_fit_size (renderer, 100, 100);
  surface = pgs_renderer_render_surface (renderer, 300, 300, FALSE);
  for (int y = 157; y <= 159; y++)
    g_assert_cmphex (pgs_test_pixel (surface, 30, y), ==, COLOR_3_4);
  g_assert_cmphex (pgs_test_pixel (surface, 30, 156), ==, COLOR_ONCE);
  g_assert_cmphex (pgs_test_pixel (surface, 30, 160), ==, COLOR_ONCE);
  g_assert_cmphex (pgs_test_pixel (surface, 29, 158), ==, COLOR_ONCE);
  g_assert_cmphex (pgs_test_pixel (surface, 31, 158), ==, COLOR_ONCE);
  /* The map's rows: 7 to 291 (95 rows of 3 pixels). */
  g_assert_cmphex (pgs_test_pixel (surface, 150, 6), !=, COLOR_ONCE);
  g_assert_cmphex (pgs_test_pixel (surface, 0, 7), ==, COLOR_ONCE);
  g_assert_cmphex (pgs_test_pixel (surface, 0, 290), ==, COLOR_ONCE);
  cairo_surface_destroy (surface);
}

/* Hilbert: where a mapping has room for its label. Three mappings of 3, 20 and 41 pages,
 * 64 cells: at 8 x 8 pixels one 8-cell tile, a page a pgs_test_pixel (2 x magnified, 4-cell tiles,
 * 2 x 2 of them hold 64 but need 4 x 4 cells of room: 16 tiles). The largest aligned run
 * of 4^k cells inside each, the first of that size, is a square of 2^k:
 *   [0, 3): runs of 4 start at 0 and 4, neither inside; cell 0, d = 0 → (0, 0), side 1.
 *   [3, 23): a run of 16 at 16 ends past 23; of 4, the first at 4: d = 1 on the side-4
 *            curve of 2-cell blocks, (1, 0) → cells (2, 0), side 2.
 *   [23, 64): of 16 at 32: d = 2 on the side-2 curve of 4-cell blocks, (1, 1) → (4, 4),
 *            side 4. */
static void
test_band_squares (void)
{
  g_autoptr(PgsFixture) fx = pgs_fixture_new ();
  g_autoptr(PgsSnapshot) snapshot = NULL;
  g_autoptr(PgsRenderer) renderer = NULL;
  const guint64 b = BASE + 0x100000, c = BASE + 0x200000;
  const guint64 present = FX_PRESENT_EXCL (700);
  static const double want[3][3] = { { 0, 0, 1 }, { 2, 0, 2 }, { 4, 4, 4 } };
  double x, y, side;
  const char *label;

  pgs_fixture_add_process (fx, 100, "alpha", 0, FALSE);
  pgs_fixture_add_mapping (fx, 100, BASE, BASE + 3 * PS, "r--p", "/usr/lib/liba.so");
  pgs_fixture_add_mapping (fx, 100, b, b + 20 * PS, "rw-p", NULL);
  pgs_fixture_add_mapping (fx, 100, c, c + 41 * PS, "rw-p", "/usr/lib/libc.so");
  pgs_fixture_set_pages (fx, 100, b, &present, 1);
  pgs_fixture_set_frame (fx, 700, 1, KPF (ANON) | KPF (LRU));
  pgs_fixture_commit (fx);
  snapshot = pgs_test_scan (fx, PGS_SCAN_MAPPINGS | PGS_SCAN_PAGES);
  renderer = pgs_renderer_new (snapshot, PGS_VIEW_RESIDENCY);
  pgs_renderer_set_process (renderer, pgs_snapshot_lookup_pid (snapshot, 100));

  /* Rows: bands, no squares. */
  g_assert_false (pgs_renderer_get_band_square (renderer, 8, 8, 1, &x, &y, &side, &label));
  pgs_renderer_set_layout (renderer, PGS_LAYOUT_HILBERT);
  g_assert_cmpuint (pgs_renderer_get_pages_per_pixel (renderer, 8, 8), ==, 1);
  for (guint i = 0; i < 3; i++)
    {
      g_assert_true (pgs_renderer_get_band_square (renderer, 8, 8, i, &x, &y, &side, &label));
      g_assert_cmpfloat (x, ==, want[i][0]);
      g_assert_cmpfloat (y, ==, want[i][1]);
      g_assert_cmpfloat (side, ==, want[i][2]);
    }
  g_assert_cmpstr (label, ==, "libc.so");
  /* At 16 x 16 pixels, two a cell. */
  g_assert_true (pgs_renderer_get_band_square (renderer, 16, 16, 2, &x, &y, &side, NULL));
  g_assert_cmpfloat (x, ==, 8);
  g_assert_cmpfloat (side, ==, 8);

  /* The PNG at 128 x 128, 16 pixels a cell, the map at its top left corner (found by liba's
   * first page, not present): libc.so's square is 64 pixels from (64, 64), room for its
   * name (13 px text); [anon]'s 32 pixels are too narrow for its six letters whole, liba's
   * 16 too low. The name is the only white on the map. */
  {
    cairo_surface_t *surface = pgs_renderer_render_surface (renderer, 128, 128, TRUE);
    int w = cairo_image_surface_get_width (surface), h = cairo_image_surface_get_height (surface);
    int map_x = -1, map_y = -1, inside = 0, outside = 0;

    for (int yy = 0; yy < h && map_x < 0; yy++)
      for (int xx = 0; xx < w; xx++)
        if (pgs_test_pixel (surface, xx, yy) == COLOR_NP_FILE)
          {
            map_x = xx;
            map_y = yy;
            break;
          }
    g_assert_cmpint (map_x, >=, 0);
    g_assert_cmphex (pgs_test_pixel (surface, map_x + 127, map_y + 127), ==, COLOR_NP_FILE);
    for (int yy = 0; yy < 128; yy++)
      for (int xx = 0; xx < 128; xx++)
        if (pgs_test_pixel (surface, map_x + xx, map_y + yy) == 0xffffffffu)
          {
            if (xx >= 64 && yy >= 64 && yy < 64 + 20)
              inside++;
            else
              outside++;
          }
    g_assert_cmpint (inside, >, 0);
    g_assert_cmpint (outside, ==, 0);
    cairo_surface_destroy (surface);
  }
}

/* Rows of the PNG's label gutter (left of the band ticks) with any ink. */
static gboolean
gutter_inked (cairo_surface_t *surface,
              int              gutter,
              int              y,
              guint32          bg)
{
  for (int x = 0; x < gutter; x++)
    if (pgs_test_pixel (surface, x, y) != bg)
      return TRUE;
  return FALSE;
}

static gboolean
any_inked (cairo_surface_t *surface,
           int              gutter,
           int              y0,
           int              y1,
           guint32          bg)
{
  for (int y = y0; y < y1; y++)
    if (gutter_inked (surface, gutter, y, bg))
      return TRUE;
  return FALSE;
}

static void
test_band_labels (void)
{
  g_autoptr(PgsFixture) fx = pgs_fixture_new ();
  g_autoptr(PgsSnapshot) snapshot = NULL;
  g_autoptr(PgsRenderer) renderer = NULL;
  const guint64 anon = BASE + 0x100000, baz = BASE + 0x200000, bar = BASE + 0x300000;
  const guint64 present = FX_PRESENT_EXCL (700) | FX_FILE;
  cairo_surface_t *surface;
  int w, h, map_x = -1, map_y = -1, gutter;
  guint32 bg;

  pgs_fixture_add_process (fx, 100, "alpha", 0, FALSE);
  pgs_fixture_add_mapping (fx, 100, BASE, BASE + 4 * PS, "r--p", "/usr/lib/libfoo.so");
  pgs_fixture_add_mapping (fx, 100, anon, anon + 60 * PS, "rw-p", NULL);
  pgs_fixture_add_mapping (fx, 100, baz, baz + 4 * PS, "r--p", "/usr/lib/libbaz.so");
  pgs_fixture_add_mapping (fx, 100, baz + 4 * PS, baz + 8 * PS, "r-xp", "/usr/lib/libbaz.so");
  pgs_fixture_add_mapping (fx, 100, baz + 8 * PS, baz + 12 * PS, "rw-p", "/usr/lib/libbaz.so");
  pgs_fixture_add_mapping (fx, 100, bar, bar + 4 * PS, "r--p", "/usr/lib/libbar.so");
  /* A process with no page in memory has no page runs, and so no map. */
  pgs_fixture_set_pages (fx, 100, bar, &present, 1);
  pgs_fixture_set_frame (fx, 700, 1, KPF (LRU));
  pgs_fixture_commit (fx);
  snapshot = pgs_test_scan (fx, PGS_SCAN_MAPPINGS | PGS_SCAN_PAGES);
  renderer = pgs_renderer_new (snapshot, PGS_VIEW_RESIDENCY);
  pgs_renderer_set_process (renderer, pgs_snapshot_lookup_pid (snapshot, 100));
  g_assert_cmpuint (pgs_renderer_get_n_bands (renderer), ==, 6);

  surface = pgs_renderer_render_surface (renderer, 64, 104, TRUE);
  if (g_getenv ("PGS_TEST_KEEP_PNG") != NULL)
    cairo_surface_write_to_png (surface, g_getenv ("PGS_TEST_KEEP_PNG"));
  w = cairo_image_surface_get_width (surface);
  h = cairo_image_surface_get_height (surface);
  bg = pgs_test_pixel (surface, 0, 0);

  /* The map: its leftmost not-present anonymous pixel, libfoo's row above it. */
  for (int x = 0; x < w && map_x < 0; x++)
    for (int y = 0; y < h; y++)
      if (pgs_test_pixel (surface, x, y) == COLOR_NP_ANON)
        {
          map_x = x;
          map_y = y - 8;
          break;
        }
  g_assert_cmpint (map_x, >, 0);
  g_assert_cmpint (map_y, >=, 0);
  g_assert_cmphex (pgs_test_pixel (surface, map_x, map_y), ==, COLOR_NP_FILE);
  g_assert_cmphex (pgs_test_pixel (surface, map_x + 31, map_y + 71), ==, COLOR_NP_ANON);
  g_assert_cmphex (pgs_test_pixel (surface, map_x + 31, map_y + 72), ==, COLOR_NP_FILE);
  g_assert_cmphex (pgs_test_pixel (surface, map_x + 31, map_y + 103), ==, COLOR_NP_FILE);
  g_assert_cmphex (pgs_test_pixel (surface, map_x, map_y + 104), ==, bg);

  /* Left of the band ticks (the 4 pixels before the map, a pixel's gap), only labels. */
  gutter = map_x - 6;
  g_assert_cmpint (gutter, >, 0);
  /* Nothing beside libfoo or libbar: a line of text would spill onto their neighbours. */
  g_assert_false (any_inked (surface, gutter, 0, map_y + 8, bg));
  g_assert_false (any_inked (surface, gutter, map_y + 96, h, bg));
  /* "[anon]" in the anonymous mapping's first 20 px, the rest of it clear; "libbaz.so"
   * beside its three bands. */
  g_assert_true (any_inked (surface, gutter, map_y + 8, map_y + 28, bg));
  g_assert_false (any_inked (surface, gutter, map_y + 28, map_y + 72, bg));
  g_assert_true (any_inked (surface, gutter, map_y + 72, map_y + 96, bg));
  cairo_surface_destroy (surface);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  PS = (guint64) sysconf (_SC_PAGESIZE);

  g_test_add_func ("/pgs/render-export/hilbert-layout", test_hilbert_export);
  g_test_add_func ("/pgs/render-export/rows-layout", test_rows_export);
  g_test_add_func ("/pgs/render-export/band-labels", test_band_labels);
  g_test_add_func ("/pgs/render-export/band-squares", test_band_squares);
  return g_test_run ();
}
