/* test-render-outline.c: on the Hilbert layout, a line where one mapping meets the next
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Worked by hand. One process, five mappings in address order: liba.so 5 pages, an
 * anonymous one of 11 (its first page present, the rest never touched), another anonymous
 * one of 16 (never touched: the same colour as most of the one before), libd.so 32 and an
 * anonymous one of 36: 100 pages, mapping m holding pages [start (m), start (m + 1)) with
 * starts 0, 5, 16, 32, 64, 100.
 *
 * At 128 x 64 pixels: 8 pixels a cell (16 x 8 cells: two 8-cell tiles side by side hold
 * 128); 9 (14 x 7 cells: 4-cell tiles, 7 needed, 3 fit; 2-cell, 25 needed, 21 fit) do not.
 * So page p is cell d2xy (8, p % 64) of tile p / 64, tiles in a row, the map at the top
 * left, cell (x, y) its pixels [8x, 8x + 8) x [8y, 8y + 8); cells from page 100 on (the
 * second tile's last 28) are empty. The curve is worked out here by pgs_test_d2xy, not the
 * library's.
 *
 * Expected: a pixel is a line exactly when it is the first pixel column of a cell whose
 * left neighbour is of another mapping, or the first pixel row of a cell whose upper
 * neighbour is; an empty cell, or the map's edge, makes no line. Every other pixel has the
 * colour of its cell's centre. A line is lighter than its cell on the light style, darker
 * on the dark one, and never the background.
 *
 * At 32 x 16 pixels, the same cells 2 pixels wide: too narrow for a line each; lines go
 * between aligned blocks of 2 x 2 cells (runs of 4 pages) where each block is wholly of
 * one mapping, and at 16 x 8 between blocks of 4 x 4 (runs of 16).
 */

#include "config.h"

#include <unistd.h>
#include <glib/gstdio.h>

#include <pagescope.h>

#include "pgs-fixture.h"
#include "pgs-kpage.h"
#include "pgs-test-cli.h"
#include "pgs-test-render.h"

#define BASE G_GUINT64_CONSTANT (0x10000000)
#define N_MAPPINGS 5
#define N_PAGES 100
#define TILE 8

static const guint64 starts[N_MAPPINGS + 1] = { 0, 5, 16, 32, 64, 100 };

/* Mapping of the page in cell (x, y) of the 16 x 8 cell map, -1 for none. */
static int
mapping_at (const int *cells,
            int        x,
            int        y)
{
  return cells[y * 2 * TILE + x];
}

static int *
expected_cells (void)
{
  int *cells = g_new (int, 2 * TILE * TILE);

  for (int i = 0; i < 2 * TILE * TILE; i++)
    cells[i] = -1;
  for (guint64 p = 0; p < N_PAGES; p++)
    {
      guint64 x, y;
      int m = 0;

      pgs_test_d2xy (TILE, p % (TILE * TILE), &x, &y);
      x += (p / (TILE * TILE)) * TILE;
      while (p >= starts[m + 1])
        m++;
      cells[y * 2 * TILE + x] = m;
    }
  return cells;
}

static PgsSnapshot *
make_snapshot (PgsFixture *fx)
{
  static const char *const paths[N_MAPPINGS] = { "/usr/lib/liba.so", NULL, NULL, "/usr/lib/libd.so", NULL };
  const guint64 present = FX_PRESENT_EXCL (700);
  guint64 ps = sysconf (_SC_PAGESIZE);

  pgs_fixture_add_process (fx, 100, "alpha", 0, FALSE);
  /* A gap of a page between mappings, so the scanner keeps them apart. */
  for (guint m = 0; m < N_MAPPINGS; m++)
    pgs_fixture_add_mapping (fx, 100, BASE + (starts[m] + m) * ps, BASE + (starts[m + 1] + m) * ps,
                             paths[m] != NULL ? "r--p" : "rw-p", paths[m]);
  pgs_fixture_set_pages (fx, 100, BASE + (starts[1] + 1) * ps, &present, 1);
  pgs_fixture_set_frame (fx, 700, 1, PGS_KPF_BIT (PGS_KPF_ANON) | PGS_KPF_BIT (PGS_KPF_LRU));
  pgs_fixture_commit (fx);
  return pgs_test_scan (fx, PGS_SCAN_MAPPINGS | PGS_SCAN_PAGES);
}

/* The map written as a PNG and read back. */
static cairo_surface_t *
render_png (PgsRenderer *renderer,
            int          width,
            int          height)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("pgs-outline-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "map.png", NULL);
  cairo_surface_t *surface;

  g_assert_no_error (error);
  g_assert_true (pgs_renderer_write_png (renderer, path, width, height, FALSE, &error));
  g_assert_no_error (error);
  surface = cairo_image_surface_create_from_png (path);
  g_assert_cmpint (cairo_surface_status (surface), ==, CAIRO_STATUS_SUCCESS);
  g_assert_cmpint (cairo_image_surface_get_width (surface), ==, width);
  g_unlink (path);
  g_rmdir (dir);
  return surface;
}

static int
channel (guint32 color,
         int     shift)
{
  return (color >> shift) & 0xff;
}

/* The mapping of every cell of the block of @side x @side cells at block (bx, by), or -1
 * where it holds none or two. */
static int
block_mapping (const int *cells,
               int        side,
               int        bx,
               int        by)
{
  int m = mapping_at (cells, bx * side, by * side);

  for (int y = by * side; y < (by + 1) * side; y++)
    for (int x = bx * side; x < (bx + 1) * side; x++)
      if (mapping_at (cells, x, y) != m)
        return -1;
  return m;
}

/* At @cell pixels a cell, lines between blocks of @side x @side cells. */
static void
check_lines (PgsRenderer    *renderer,
             PgsRenderStyle  style,
             const int      *cells,
             int             cell,
             int             side)
{
  cairo_surface_t *surface;
  guint32 background = 0;
  guint n_lines = 0, same_colour = 0;
  int block = cell * side;

  pgs_renderer_set_style (renderer, style);
  pgs_renderer_get_legend_item (renderer, PGS_RES_NONE, &background, NULL, NULL);
  background |= 0xff000000u;
  surface = render_png (renderer, 2 * TILE * cell, TILE * cell);
  for (int py = 0; py < TILE * cell; py++)
    for (int px = 0; px < 2 * TILE * cell; px++)
      {
        int bx = px / block, by = py / block, m = block_mapping (cells, side, bx, by);
        int left, up, cx = px / cell, cy = py / cell;
        guint32 pixel = pgs_test_pixel (surface, px, py);
        /* The cell's last pixel: never on a line, which takes a block's first; a cell of
         * one pixel, the legend colour the hit test gives it. */
        guint32 own = pgs_test_pixel (surface, cx * cell + cell - 1, cy * cell + cell - 1);
        gboolean line = FALSE;
        PgsHit hit;

        if (cell == 1)
          {
            own = background;
            if (pgs_renderer_hit_test (renderer, 2 * TILE, TILE, px + 0.5, py + 0.5, &hit) &&
                hit.valid)
              pgs_renderer_get_legend_item (renderer, hit.legend_index, &own, NULL, NULL);
            own |= 0xff000000u;
          }

        left = px % block == 0 && bx > 0 ? block_mapping (cells, side, bx - 1, by) : -1;
        up = py % block == 0 && by > 0 ? block_mapping (cells, side, bx, by - 1) : -1;
        if (m >= 0)
          line = (left >= 0 && left != m) || (up >= 0 && up != m);
        if (mapping_at (cells, cx, cy) < 0)
          g_assert_cmphex (own, ==, background);
        if (!line)
          {
            if (pixel != own)
              g_error ("pixel (%d, %d) inside mapping %d is %08x, its cell %08x", px, py, m,
                       pixel, own);
            continue;
          }
        if (pixel == own)
          g_error ("pixel (%d, %d) between mappings %d and %d has no line", px, py, m,
                   left >= 0 && left != m ? left : up);
        g_assert_cmphex (pixel, !=, background);
        for (int shift = 0; shift < 24; shift += 8)
          if (style == PGS_RENDER_STYLE_LIGHT)
            g_assert_cmpint (channel (pixel, shift), >=, channel (own, shift));
          else
            g_assert_cmpint (channel (pixel, shift), <=, channel (own, shift));
        n_lines++;
        /* The two untouched anonymous mappings, one colour: told apart by the line alone. */
        if ((left >= 0 && left != m && pgs_test_pixel (surface, px - 1, py) == own) ||
            (up >= 0 && up != m && pgs_test_pixel (surface, px, py - 1) == own))
          same_colour++;
      }
  g_test_message ("%d pixels a cell: %u line pixels, %u between cells of one colour", cell,
                  n_lines, same_colour);
  g_assert_cmpuint (n_lines, >, 0);
  if (side == 1)
    g_assert_cmpuint (same_colour, >, 0);
  cairo_surface_destroy (surface);
}

static void
test_outline_lines (void)
{
  g_autoptr(PgsFixture) fx = pgs_fixture_new ();
  g_autoptr(PgsSnapshot) snapshot = make_snapshot (fx);
  g_autoptr(PgsRenderer) renderer = pgs_renderer_new (snapshot, PGS_VIEW_RESIDENCY);
  g_autofree int *cells = expected_cells ();

  pgs_renderer_set_process (renderer, pgs_snapshot_lookup_pid (snapshot, 100));
  g_assert_cmpuint (pgs_renderer_get_n_bands (renderer), ==, N_MAPPINGS);
  pgs_renderer_set_layout (renderer, PGS_LAYOUT_HILBERT);
  g_assert_cmpuint (pgs_renderer_get_pages_per_pixel (renderer, 16 * TILE, 8 * TILE), ==, 1);
  check_lines (renderer, PGS_RENDER_STYLE_LIGHT, cells, 8, 1);
  check_lines (renderer, PGS_RENDER_STYLE_DARK, cells, 8, 1);
}

/* Cells 2 pixels wide: lines between blocks of 2 x 2 cells (4 pixels), where both are
 * wholly of one mapping each, on the cells' own borders; none round the blocks that hold
 * two mappings (pages 4-7, of liba and the first anonymous mapping), or the map's end. At
 * 1 pixel a cell, blocks of 4 x 4 cells, 16 pages each: pages 0-15 hold liba and the first
 * anonymous mapping, no line round them; 16-31 the second anonymous one, 32-63 libd.so,
 * 64-95 the last mapping, 96-111 its end and empty cells. */
static void
test_outline_small_cells (void)
{
  g_autoptr(PgsFixture) fx = pgs_fixture_new ();
  g_autoptr(PgsSnapshot) snapshot = make_snapshot (fx);
  g_autoptr(PgsRenderer) renderer = pgs_renderer_new (snapshot, PGS_VIEW_RESIDENCY);
  g_autofree int *cells = expected_cells ();

  pgs_renderer_set_process (renderer, pgs_snapshot_lookup_pid (snapshot, 100));
  pgs_renderer_set_layout (renderer, PGS_LAYOUT_HILBERT);
  check_lines (renderer, PGS_RENDER_STYLE_LIGHT, cells, 2, 2);
  check_lines (renderer, PGS_RENDER_STYLE_DARK, cells, 2, 2);
  check_lines (renderer, PGS_RENDER_STYLE_LIGHT, cells, 1, 4);
}

/* The rows layout: bands start rows, and no line is drawn: every pixel is a legend
 * colour, where the Hilbert layout's lines are not. */
static void
test_outline_rows (void)
{
  g_autoptr(PgsFixture) fx = pgs_fixture_new ();
  g_autoptr(PgsSnapshot) snapshot = make_snapshot (fx);
  g_autoptr(PgsRenderer) renderer = pgs_renderer_new (snapshot, PGS_VIEW_RESIDENCY);
  cairo_surface_t *surface;

  pgs_renderer_set_process (renderer, pgs_snapshot_lookup_pid (snapshot, 100));
  g_assert_cmpuint (pgs_renderer_get_pages_per_pixel (renderer, 128, 64), ==, 1);
  surface = render_png (renderer, 128, 64);
  for (int py = 0; py < 64; py++)
    for (int px = 0; px < 128; px++)
      {
        guint32 pixel = pgs_test_pixel (surface, px, py);
        gboolean known = FALSE;

        for (guint i = 0; i < pgs_renderer_get_n_legend_items (renderer) && !known; i++)
          {
            guint32 argb;

            pgs_renderer_get_legend_item (renderer, i, &argb, NULL, NULL);
            known = (argb | 0xff000000u) == pixel;
          }
        if (!known)
          g_error ("pixel (%d, %d) is %08x, no legend colour", px, py, pixel);
      }
  cairo_surface_destroy (surface);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/pgs/render-outline/lines", test_outline_lines);
  g_test_add_func ("/pgs/render-outline/small-cells", test_outline_small_cells);
  g_test_add_func ("/pgs/render-outline/rows", test_outline_rows);
  return g_test_run ();
}
