/* test-render-fold.c: maps that fill the canvas, cells found again, free memory folded
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Worked by hand:
 *
 * Fill. 1000 frames on the sharing map, rows layout. A cell of k x k pixels gives
 * floor(W / k) columns and ceil(1000 / columns) rows; the largest k whose rows fit wins.
 *   800 x 600: k = 21 → 38 columns, 27 rows (567 px) fits; k = 22 → 36 columns, 28 rows
 *              (616 px) does not. Drawn: 1000 x 21² = 441000 px of 480000 (91.9 %),
 *              798 px wide. (Powers of two gave k = 16: 800 x 320, 53 %.)
 *   640 x 480: k = 17 → 37 columns, 28 rows (476 px) fits; k = 18 → 35 columns, 29 rows
 *              (522 px) does not. Drawn: 1000 x 17² = 289000 px of 307200 (94.1 %).
 *
 * More frames than pixels. 19000 frames at 100 x 100: one a pixel does not fit (19000 >
 * 10000); two a pixel as 2 across by 1 down gives 200 columns, 95 rows, 95 pixel rows:
 * 9500 px of 10000 (95 %), centred: rows from pixel row floor(5 / 2) = 2. Pixel (10, 52)
 * is frames (52 - 2) x 200 + 10 x 2 = 10020 and 10021.
 * (Square blocks gave 2 x 2 frames a pixel: 48 pixel rows, 48 %.) Zoomed 4 times about
 * the middle, a pixel is half a column (0.5) and, cells staying square, half a row, not a
 * quarter: cells of 2 x 2 pixels. The view starts at column 0.5 x 200 - 100 x 0.5 / 2 = 75
 * and row 0.5 x 95 - 25 = 22.5, so columns change at even pixels (75 + x / 2) and rows at
 * odd ones (22.5 + y / 2): pgs_test_pixel (0, 1) and (0, 2) are row 23, column 75, frame 4675;
 * (0, 3) is row 24, frame 4875; (2, 1) is column 76, frame 4676.
 *
 * Fold. 10200 frames: 0..99 page cache mapped once, except 50..59 free (10 free frames:
 * fewer than PGS_FOLD_MIN_FRAMES, kept); 100..10099 free (10000, folded); 10100..10199
 * anonymous mapped 3 times. With free memory hidden, 200 cells; at 20 x 10 pixels one
 * pixel a cell (k = 2 would need 10 columns x 20 rows = 40 px > 10), cell c at (c % 20,
 * c / 20): cell 99 (frame 99) at (19, 4), cell 100 (frame 10100) at (0, 5), cell 150
 * (frame 10150) at (10, 7), cell 55 (frame 55, free) at (15, 2).
 */

#include "config.h"

#include <string.h>
#include <unistd.h>

#include <pagescope.h>

#include "pgs-fixture.h"
#include "pgs-test-render.h"
#include "pgs-test-cli.h"
#include "pgs-kpage.h"

#define KPF(f) PGS_KPF_BIT (PGS_KPF_##f)
#define BASE   G_GUINT64_CONSTANT (0x10000000)

static PgsSnapshot *
frames_snapshot (guint n)
{
  g_autoptr(PgsFixture) fx = pgs_fixture_new ();

  for (guint i = 0; i < n; i++)
    pgs_fixture_set_frame (fx, i, 1, KPF (LRU) | KPF (UPTODATE));
  pgs_fixture_commit (fx);
  return pgs_test_scan (fx, PGS_SCAN_METRICS | PGS_SCAN_PHYSMAP);
}

/* Pixels that are not the background (the bottom right corner: the last row stops short),
 * and the width of the drawn part. */
static guint64
count_drawn (cairo_surface_t *surface,
             int             *drawn_width)
{
  int w = cairo_image_surface_get_width (surface), h = cairo_image_surface_get_height (surface);
  guint32 bg = pgs_test_pixel (surface, w - 1, h - 1);
  guint64 n = 0;
  int x_min = w, x_max = -1;

  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      if (pgs_test_pixel (surface, x, y) != bg)
        {
          n++;
          x_min = MIN (x_min, x);
          x_max = MAX (x_max, x);
        }
  *drawn_width = x_max - x_min + 1;
  return n;
}

static void
check_fill (int     width,
            int     height,
            guint64 want_pixels,
            int     want_width)
{
  g_autoptr(PgsSnapshot) snapshot = frames_snapshot (1000);
  g_autoptr(PgsRenderer) renderer = pgs_renderer_new (snapshot, PGS_VIEW_SHARING);
  cairo_surface_t *surface = pgs_renderer_render_surface (renderer, width, height, FALSE);
  int drawn_width;
  guint64 drawn = count_drawn (surface, &drawn_width);

  g_assert_cmpuint (drawn, ==, want_pixels);
  g_assert_cmpint (drawn_width, ==, want_width);
  g_assert_cmpfloat ((double) drawn / (width * height), >=, 0.90);
  cairo_surface_destroy (surface);
}

static void
test_fill (void)
{
  check_fill (800, 600, 441000, 798);
  check_fill (640, 480, 289000, 629);
}

static void
test_fill_aggregated (void)
{
  g_autoptr(PgsSnapshot) snapshot = frames_snapshot (19000);
  g_autoptr(PgsRenderer) renderer = pgs_renderer_new (snapshot, PGS_VIEW_SHARING);
  cairo_surface_t *surface = pgs_renderer_render_surface (renderer, 100, 100, FALSE);
  int drawn_width;
  PgsHit hit;

  g_assert_cmpuint (count_drawn (surface, &drawn_width), ==, 9500);
  g_assert_cmpint (drawn_width, ==, 100);
  cairo_surface_destroy (surface);
  g_assert_cmpuint (pgs_renderer_get_pages_per_pixel (renderer, 100, 100), ==, 2);
  g_assert_true (pgs_renderer_hit_test (renderer, 100, 100, 10.5, 52.5, &hit));
  g_assert_cmpuint (hit.pfn, ==, 10020);
  g_assert_cmpuint (hit.n_pages, ==, 2);

  pgs_renderer_set_viewport (renderer, 4, 0.5, 0.5);
  g_assert_true (pgs_renderer_hit_test (renderer, 100, 100, 0.5, 1.5, &hit));
  g_assert_cmpuint (hit.pfn, ==, 4675);
  g_assert_cmpuint (hit.n_pages, ==, 1);
  g_assert_true (pgs_renderer_hit_test (renderer, 100, 100, 0.5, 2.5, &hit));
  g_assert_cmpuint (hit.pfn, ==, 4675);
  g_assert_true (pgs_renderer_hit_test (renderer, 100, 100, 0.5, 3.5, &hit));
  g_assert_cmpuint (hit.pfn, ==, 4875);
  g_assert_true (pgs_renderer_hit_test (renderer, 100, 100, 1.5, 1.5, &hit));
  g_assert_cmpuint (hit.pfn, ==, 4675);
  g_assert_true (pgs_renderer_hit_test (renderer, 100, 100, 2.5, 1.5, &hit));
  g_assert_cmpuint (hit.pfn, ==, 4676);
}

/* The reverse of the hit test: frame 1234 of 4096 at 64 x 64, one pixel a frame, sits at
 * (1234 % 64, 1234 / 64) = (18, 19); its middle at (18.5, 19.5). */
static void
test_locate (void)
{
  g_autoptr(PgsSnapshot) snapshot = frames_snapshot (4096);
  g_autoptr(PgsRenderer) renderer = pgs_renderer_new (snapshot, PGS_VIEW_FLAGS);
  PgsHit hit = { .valid = TRUE, .is_frame = TRUE, .pfn = 1234 };
  double mx, my, x, y;

  g_assert_true (pgs_renderer_locate (renderer, 64, 64, &hit, &mx, &my));
  g_assert_true (pgs_renderer_map_to_pixel (renderer, 64, 64, mx, my, &x, &y));
  g_assert_cmpfloat_with_epsilon (x, 18.5, 1e-9);
  g_assert_cmpfloat_with_epsilon (y, 19.5, 1e-9);

  /* And back through the hit test, on the Hilbert layout too. */
  pgs_renderer_set_layout (renderer, PGS_LAYOUT_HILBERT);
  g_assert_true (pgs_renderer_locate (renderer, 64, 64, &hit, &mx, &my));
  g_assert_true (pgs_renderer_map_to_pixel (renderer, 64, 64, mx, my, &x, &y));
  g_assert_true (pgs_renderer_hit_test (renderer, 64, 64, x, y, &hit));
  g_assert_cmpuint (hit.pfn, ==, 1234);

  hit.pfn = 4096;   /* past the end */
  g_assert_false (pgs_renderer_locate (renderer, 64, 64, &hit, &mx, &my));
}

static PgsSnapshot *
fold_snapshot (void)
{
  g_autoptr(PgsFixture) fx = pgs_fixture_new ();
  guint64 entries[4];

  for (guint i = 0; i < 100; i++)
    {
      if (i >= 50 && i < 60)
        pgs_fixture_set_frame (fx, i, 0, KPF (BUDDY));
      else
        pgs_fixture_set_frame (fx, i, 1, KPF (LRU) | KPF (UPTODATE));
    }
  for (guint i = 100; i < 10100; i++)
    pgs_fixture_set_frame (fx, i, 0, KPF (BUDDY));
  for (guint i = 10100; i < 10200; i++)
    pgs_fixture_set_frame (fx, i, 3, KPF (ANON) | KPF (LRU) | KPF (MMAP));
  /* A process mapping frames 10100..10103, for the highlight. */
  pgs_fixture_add_process (fx, 100, "alpha", 0, FALSE);
  pgs_fixture_add_mapping (fx, 100, BASE, BASE + 4 * (guint64) sysconf (_SC_PAGESIZE), "rw-p", NULL);
  for (guint i = 0; i < 4; i++)
    entries[i] = FX_PRESENT_EXCL (10100 + i);
  pgs_fixture_set_pages (fx, 100, BASE, entries, 4);
  pgs_fixture_commit (fx);
  return pgs_test_scan (fx, PGS_SCAN_MAPPINGS | PGS_SCAN_PAGES | PGS_SCAN_PHYSMAP);
}

static void
assert_hit (PgsRenderer *renderer,
            double       x,
            double       y,
            guint64      pfn,
            guint32      count)
{
  PgsHit hit;

  g_assert_true (pgs_renderer_hit_test (renderer, 20, 10, x, y, &hit));
  g_assert_true (hit.is_frame);
  g_assert_cmpuint (hit.pfn, ==, pfn);
  g_assert_cmpuint (hit.count, ==, count);
  g_assert_cmpuint (hit.n_pages, ==, 1);
}

static void
test_fold (void)
{
  g_autoptr(PgsSnapshot) snapshot = fold_snapshot ();
  g_autoptr(PgsRenderer) renderer = pgs_renderer_new (snapshot, PGS_VIEW_SHARING);
  guint64 first = 0, n = 0, total = 0;
  double x, y, h, mx, my;
  PgsHit hit;
  const char *label;
  guint64 count;

  g_assert_cmpuint (pgs_renderer_get_n_folds (renderer), ==, 0);
  pgs_renderer_set_hide_free (renderer, TRUE);
  g_assert_cmpuint (pgs_renderer_get_n_folds (renderer), ==, 1);
  g_assert_cmpuint (pgs_renderer_get_hidden_frames (renderer), ==, 10000);
  g_assert_cmpuint (pgs_renderer_get_pages_per_pixel (renderer, 20, 10), ==, 1);

  /* Both used runs, each side of the fold; the small free run stays. */
  assert_hit (renderer, 19.5, 4.5, 99, 1);
  assert_hit (renderer, 0.5, 5.5, 10100, 3);
  assert_hit (renderer, 10.5, 7.5, 10150, 3);
  assert_hit (renderer, 15.5, 2.5, 55, 0);
  /* 200 cells: the last one, frame 10199, at (19, 9). */
  assert_hit (renderer, 19.5, 9.5, 10199, 3);

  /* The marker goes between cells 99 and 100: at the start of row 5. */
  g_assert_true (pgs_renderer_get_fold (renderer, 20, 10, 0, &first, &n, &x, &y, &h));
  g_assert_cmpuint (first, ==, 100);
  g_assert_cmpuint (n, ==, 10000);
  g_assert_cmpfloat (x, ==, 0);
  g_assert_cmpfloat (y, ==, 5);
  g_assert_cmpfloat (h, ==, 1);

  /* Frames to cells: one after the fold is found, a hidden one is not on the map. */
  memset (&hit, 0, sizeof hit);
  hit.valid = hit.is_frame = TRUE;
  hit.pfn = 10150;
  g_assert_true (pgs_renderer_locate (renderer, 20, 10, &hit, &mx, &my));
  g_assert_true (pgs_renderer_map_to_pixel (renderer, 20, 10, mx, my, &x, &y));
  g_assert_cmpfloat_with_epsilon (x, 10.5, 1e-9);
  g_assert_cmpfloat_with_epsilon (y, 7.5, 1e-9);
  hit.pfn = 5000;
  g_assert_false (pgs_renderer_locate (renderer, 20, 10, &hit, &mx, &my));

  /* The legend still counts every frame: 10010 free, 90 once, 100 three times. */
  for (guint i = 0; i < pgs_renderer_get_n_legend_items (renderer); i++)
    {
      pgs_renderer_get_legend_item (renderer, i, NULL, &label, &count);
      total += count;
      if (i == PGS_SHARE_FREE)
        g_assert_cmpuint (count, ==, 10010);
      else if (i == PGS_SHARE_1)
        g_assert_cmpuint (count, ==, 90);
      else if (i == PGS_SHARE_3_4)
        g_assert_cmpuint (count, ==, 100);
      else
        g_assert_cmpuint (count, ==, 0);
    }
  g_assert_cmpuint (total, ==, 10200);

  /* The highlight lands on the cells of frames 10100..10103: cells 100..103. */
  pgs_renderer_set_process (renderer,
                            pgs_snapshot_lookup_pid (snapshot, 100));
  g_assert_true (pgs_renderer_hit_test (renderer, 20, 10, 3.5, 5.5, &hit));
  g_assert_cmpuint (hit.pfn, ==, 10103);
  g_assert_true (hit.highlighted);
  g_assert_true (pgs_renderer_hit_test (renderer, 20, 10, 4.5, 5.5, &hit));
  g_assert_cmpuint (hit.pfn, ==, 10104);
  g_assert_false (hit.highlighted);

  /* Frames given as such (a file's, from Libraries) too: frame 10150 is cell 150, at
   * (10, 7) (not cell 10150, past the map); frame 5000, hidden, is on no cell. */
  {
    guint64 pfns[] = { 10150, 5000 };
    g_autoptr(GBytes) set = g_bytes_new (pfns, sizeof pfns);

    pgs_renderer_set_process (renderer, NULL);
    pgs_renderer_set_highlight_frames (renderer, set, "file");
    g_assert_true (pgs_renderer_hit_test (renderer, 20, 10, 10.5, 7.5, &hit));
    g_assert_cmpuint (hit.pfn, ==, 10150);
    g_assert_true (hit.highlighted);
    g_assert_true (pgs_renderer_hit_test (renderer, 20, 10, 11.5, 7.5, &hit));
    g_assert_false (hit.highlighted);
    g_assert_true (pgs_renderer_hit_test (renderer, 20, 10, 0.5, 0.5, &hit));
    g_assert_false (hit.highlighted);
    pgs_renderer_set_highlight_frames (renderer, NULL, NULL);
  }

  /* Shown again: 10200 frames at 20 x 10 pixels, no fold. */
  pgs_renderer_set_hide_free (renderer, FALSE);
  g_assert_cmpuint (pgs_renderer_get_n_folds (renderer), ==, 0);
  g_assert_cmpuint (pgs_renderer_get_hidden_frames (renderer), ==, 0);
}

/* The PNG, free memory hidden as on screen: the marker between cells 99 and 100 (the start
 * of row 5, map column 0) is a magenta bar 3 pixels wide centred on that edge, 4 tall (a
 * cell is 1): map columns -1 and 0 (covered from -1.5 to 1.5), rows 5 to 8. The map is found
 * by its anonymous frames mapped 3 times (rows 5 to 9): the leftmost column holding them is
 * map column 0 (its row 9 unmarked), their top row in map column 4 (clear of the bar's
 * black and white edges, to 2.5) is row 5. */
static void
test_fold_png (void)
{
  g_autoptr(PgsSnapshot) snapshot = fold_snapshot ();
  g_autoptr(PgsRenderer) renderer = pgs_renderer_new (snapshot, PGS_VIEW_SHARING);
  const guint32 shared_3_4 = 0xff3f4988u, magenta = 0xffff00ffu;
  cairo_surface_t *surface;
  int w, h, map_x = -1, map_y = -1;

  pgs_renderer_set_hide_free (renderer, TRUE);
  surface = pgs_renderer_render_surface (renderer, 20, 10, TRUE);
  w = cairo_image_surface_get_width (surface);
  h = cairo_image_surface_get_height (surface);
  for (int x = 0; x < w && map_x < 0; x++)
    for (int y = 0; y < h; y++)
      if (pgs_test_pixel (surface, x, y) == shared_3_4)
        {
          map_x = x;
          break;
        }
  g_assert_cmpint (map_x, >, 0);
  for (int y = 0; y < h; y++)
    if (pgs_test_pixel (surface, map_x + 4, y) == shared_3_4)
      {
        map_y = y - 5;
        break;
      }
  g_assert_cmpint (map_y, >=, 0);
  g_assert_cmphex (pgs_test_pixel (surface, map_x, map_y + 9), ==, shared_3_4);
  for (int y = 5; y <= 8; y++)
    {
      g_assert_cmphex (pgs_test_pixel (surface, map_x - 1, map_y + y), ==, magenta);
      g_assert_cmphex (pgs_test_pixel (surface, map_x, map_y + y), ==, magenta);
      g_assert_cmphex (pgs_test_pixel (surface, map_x + 4, map_y + y), ==, shared_3_4);
    }
  g_assert_cmphex (pgs_test_pixel (surface, map_x, map_y + 4), !=, magenta);
  cairo_surface_destroy (surface);

  /* Without hiding, no marker: the row starts with its own frame. */
  pgs_renderer_set_hide_free (renderer, FALSE);
  surface = pgs_renderer_render_surface (renderer, 20, 10, TRUE);
  for (int y = 0; y < cairo_image_surface_get_height (surface); y++)
    for (int x = 0; x < cairo_image_surface_get_width (surface); x++)
      g_assert_cmphex (pgs_test_pixel (surface, x, y), !=, magenta);
  cairo_surface_destroy (surface);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/pgs/render/fill", test_fill);
  g_test_add_func ("/pgs/render/fill-aggregated", test_fill_aggregated);
  g_test_add_func ("/pgs/render/locate", test_locate);
  g_test_add_func ("/pgs/render/hide-free", test_fold);
  g_test_add_func ("/pgs/render/hide-free-png", test_fold_png);
  return g_test_run ();
}
