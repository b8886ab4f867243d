/* test-render.c: the renderer on synthetic maps with hand-worked pixels
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Geometry used throughout: 4096 frames drawn at 64 x 64 pixels fit at one frame per pixel,
 * so the linear layout puts frame f at (f % 64, f / 64) and the Hilbert layout is one
 * 64 x 64 tile. At 32 x 32 pixels the same map needs 2 x 2 frames a pixel.
 *
 * Colours: the light style (pgs-palette.c), whose ramp is viridis from t = 0.1 to 0.58 over
 * its 9 classes, interpolated between the 11 published samples (#440154, #482475, #414487,
 * #355f8d, #2a788e, …), each channel rounded to nearest.
 */

#include "config.h"

#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include <pagescope.h>

#include "pgs-fixture.h"
#include "pgs-test-render.h"
#include "pgs-test-cli.h"
#include "pgs-kpage.h"

#define KPF(f) PGS_KPF_BIT (PGS_KPF_##f)
#define BASE   G_GUINT64_CONSTANT (0x10000000)

/* The sharing ramp over the 9 classes "once" … "129 or more": class k (0 for once) at
 * t = 0.1 + 0.48 · k / 8 = 0.1 + 0.06 k; "in use, not mapped" is grey, off it.
 *   once: t 0.1  → stop 1                                         = 48 24 75
 *   3–4:  t 0.22 → 0.2 of the way 41 44 87 … 35 5f 8d: 62.6 73.4 136.2 = 3f 49 88
 *   5–8:  t 0.28 → 0.8 of the way:                     55.4 89.6 139.8 = 37 5a 8c
 * The categories are the light style's table entries. */
#define COLOR_ONCE   0xff482475u
#define COLOR_3_4    0xff3f4988u
#define COLOR_5_8    0xff375a8cu
#define COLOR_ANON   0xff966908u  /* orange, L* 48 */
#define COLOR_FILE_INACTIVE 0xff018cdbu  /* sky blue, L* 56 */
#define COLOR_FREE   0xff3e4238u  /* near-grey, L* 27 */
#define COLOR_HALO      0xffffffffu  /* the light style's outline, outer tone */

static guint64 PS;

/* 4096 frames mapped once, page cache; one process mapping frames 100..103. */
static PgsFixture *
uniform_fixture (guint n_frames)
{
  PgsFixture *fx = pgs_fixture_new ();
  guint64 entries[4];

  for (guint i = 0; i < n_frames; i++)
    pgs_fixture_set_frame (fx, i, 1, KPF (LRU) | KPF (UPTODATE));
  pgs_fixture_add_process (fx, 100, "alpha", 0, FALSE);
  pgs_fixture_add_mapping (fx, 100, BASE, BASE + 4 * PS, "r--p", "/usr/lib/libfoo.so");
  for (guint i = 0; i < 4; i++)
    entries[i] = FX_PRESENT_EXCL (100 + i) | FX_FILE;
  pgs_fixture_set_pages (fx, 100, BASE, entries, 4);
  return fx;
}

static void
test_ref_curve (void)
{
  /* The order-2 curve drawn by hand, (x, y) for d = 0 … 15. */
  static const guint8 xy[16][2] = {
    { 0, 0 }, { 1, 0 }, { 1, 1 }, { 0, 1 }, { 0, 2 }, { 0, 3 }, { 1, 3 }, { 1, 2 },
    { 2, 2 }, { 2, 3 }, { 3, 3 }, { 3, 2 }, { 3, 1 }, { 2, 1 }, { 2, 0 }, { 3, 0 },
  };

  for (guint d = 0; d < 16; d++)
    {
      guint64 x, y;

      pgs_test_d2xy (4, d, &x, &y);
      g_assert_cmpuint (x, ==, xy[d][0]);
      g_assert_cmpuint (y, ==, xy[d][1]);
    }
}

static void
check_known_frame (PgsLayout layout)
{
  g_autoptr(PgsFixture) fx = uniform_fixture (4096);
  g_autoptr(PgsSnapshot) snapshot = NULL;
  g_autoptr(PgsRenderer) renderer = NULL;
  cairo_surface_t *surface;
  guint64 x, y;
  PgsHit hit;

  /* Frame 1234: mapped 3 times, anonymous. */
  pgs_fixture_set_frame (fx, 1234, 3, KPF (ANON) | KPF (LRU) | KPF (MMAP));
  pgs_fixture_commit (fx);
  snapshot = pgs_test_scan (fx, PGS_SCAN_METRICS | PGS_SCAN_PHYSMAP);

  if (layout == PGS_LAYOUT_LINEAR)
    {
      x = 1234 % 64;  /* 18 */
      y = 1234 / 64;  /* 19 */
    }
  else
    pgs_test_d2xy (64, 1234, &x, &y);

  renderer = pgs_renderer_new (snapshot, PGS_VIEW_SHARING);
  pgs_renderer_set_layout (renderer, layout);
  surface = pgs_renderer_render_surface (renderer, 64, 64, FALSE);
  g_assert_cmpint (cairo_image_surface_get_width (surface), ==, 64);
  g_assert_cmphex (pgs_test_pixel (surface, x, y), ==, COLOR_3_4);
  /* Its neighbours along the row are frames mapped once. */
  g_assert_cmphex (pgs_test_pixel (surface, x == 0 ? 1 : x - 1, y), ==, COLOR_ONCE);
  g_assert_true (pgs_renderer_hit_test (renderer, 64, 64, x + 0.5, y + 0.5, &hit));
  g_assert_true (hit.is_frame);
  g_assert_cmpuint (hit.pfn, ==, 1234);
  g_assert_cmpuint (hit.count, ==, 3);
  g_assert_cmpuint (hit.n_pages, ==, 1);
  g_assert_cmpuint (hit.category, ==, PGS_CATEGORY_ANON);
  g_assert_cmphex (hit.flags, ==, KPF (ANON) | KPF (LRU) | KPF (MMAP));
  cairo_surface_destroy (surface);

  g_clear_object (&renderer);
  renderer = pgs_renderer_new (snapshot, PGS_VIEW_FLAGS);
  pgs_renderer_set_layout (renderer, layout);
  surface = pgs_renderer_render_surface (renderer, 64, 64, FALSE);
  g_assert_cmphex (pgs_test_pixel (surface, x, y), ==, COLOR_ANON);
  g_assert_cmphex (pgs_test_pixel (surface, x == 0 ? 1 : x - 1, y), ==, COLOR_FILE_INACTIVE);
  cairo_surface_destroy (surface);
}

static void
test_known_frame_linear (void)
{
  check_known_frame (PGS_LAYOUT_LINEAR);
}

static void
test_known_frame_hilbert (void)
{
  check_known_frame (PGS_LAYOUT_HILBERT);
}

/* Every pixel is one frame, every frame one pixel, and frame f + 1 is next to frame f. */
static void
check_bijection (guint n_frames,
                 int   width,
                 int   height)
{
  g_autoptr(PgsFixture) fx = uniform_fixture (n_frames);
  g_autoptr(PgsSnapshot) snapshot = NULL;
  g_autoptr(PgsRenderer) renderer = NULL;
  g_autofree gint32 *at_x = g_new (gint32, n_frames);
  g_autofree gint32 *at_y = g_new (gint32, n_frames);
  guint seen = 0;

  pgs_fixture_commit (fx);
  snapshot = pgs_test_scan (fx, PGS_SCAN_METRICS | PGS_SCAN_PHYSMAP);
  renderer = pgs_renderer_new (snapshot, PGS_VIEW_SHARING);
  pgs_renderer_set_layout (renderer, PGS_LAYOUT_HILBERT);
  g_assert_cmpuint (pgs_renderer_get_pages_per_pixel (renderer, width, height), ==, 1);

  for (guint i = 0; i < n_frames; i++)
    at_x[i] = -1;
  for (int y = 0; y < height; y++)
    for (int x = 0; x < width; x++)
      {
        PgsHit hit;

        if (!pgs_renderer_hit_test (renderer, width, height, x + 0.5, y + 0.5, &hit))
          continue;
        g_assert_cmpuint (hit.n_pages, ==, 1);
        g_assert_cmpuint (hit.pfn, <, n_frames);
        g_assert_cmpint (at_x[hit.pfn], ==, -1);
        at_x[hit.pfn] = x;
        at_y[hit.pfn] = y;
        seen++;
      }
  g_assert_cmpuint (seen, ==, n_frames);
  for (guint i = 1; i < n_frames; i++)
    g_assert_cmpint (ABS (at_x[i] - at_x[i - 1]) + ABS (at_y[i] - at_y[i - 1]), ==, 1);
}

static void
test_hilbert_bijection (void)
{
  /* One 64 x 64 tile. */
  check_bijection (4096, 64, 64);
  /* Three 32 x 32 tiles side by side: 96 x 32 cells. */
  check_bijection (3072, 96, 32);
}

/* At 32 x 32 pixels, pgs_test_pixel (0, 0) holds frames {0, 1, 64, 65} on the linear layout (two
 * rows of 64 frames, two frames each) and {0, 1, 2, 3} on the Hilbert layout. */
static void
test_aggregation (void)
{
  g_autoptr(PgsFixture) fx = uniform_fixture (4096);
  g_autoptr(PgsSnapshot) snapshot = NULL;
  g_autoptr(PgsRenderer) sharing = NULL;
  g_autoptr(PgsRenderer) flags = NULL;
  cairo_surface_t *surface;
  PgsHit hit;

  /* Linear pgs_test_pixel (0, 0): counts 1, 7, 2, 0 → highest is 7, class 5-8.
   * Categories anon, anon, inactive, free → most common is anon. */
  pgs_fixture_set_frame (fx, 0, 1, KPF (ANON) | KPF (LRU));
  pgs_fixture_set_frame (fx, 1, 7, KPF (ANON) | KPF (LRU));
  pgs_fixture_set_frame (fx, 64, 2, KPF (LRU));
  pgs_fixture_set_frame (fx, 65, 0, KPF (BUDDY));
  /* Linear pgs_test_pixel (1, 0): frames {2, 3, 66, 67}: anon, anon, free, free: a tie, which goes
   * to free, listed before anonymous in the legend. */
  pgs_fixture_set_frame (fx, 2, 1, KPF (ANON) | KPF (LRU));
  pgs_fixture_set_frame (fx, 3, 1, KPF (ANON) | KPF (LRU));
  pgs_fixture_set_frame (fx, 66, 0, KPF (BUDDY));
  pgs_fixture_set_frame (fx, 67, 0, KPF (BUDDY));
  pgs_fixture_commit (fx);
  snapshot = pgs_test_scan (fx, PGS_SCAN_METRICS | PGS_SCAN_PHYSMAP);

  sharing = pgs_renderer_new (snapshot, PGS_VIEW_SHARING);
  flags = pgs_renderer_new (snapshot, PGS_VIEW_FLAGS);
  g_assert_cmpuint (pgs_renderer_get_pages_per_pixel (sharing, 32, 32), ==, 4);

  surface = pgs_renderer_render_surface (sharing, 32, 32, FALSE);
  g_assert_cmphex (pgs_test_pixel (surface, 0, 0), ==, COLOR_5_8);
  cairo_surface_destroy (surface);
  g_assert_true (pgs_renderer_hit_test (sharing, 32, 32, 0.2, 0.7, &hit));
  g_assert_cmpuint (hit.n_pages, ==, 4);
  g_assert_cmpuint (hit.pfn, ==, 1);   /* the frame that decided */
  g_assert_cmpuint (hit.count, ==, 7);

  surface = pgs_renderer_render_surface (flags, 32, 32, FALSE);
  g_assert_cmphex (pgs_test_pixel (surface, 0, 0), ==, COLOR_ANON);
  g_assert_cmphex (pgs_test_pixel (surface, 1, 0), ==, COLOR_FREE);
  /* Pixel (2, 0), frames {4, 5, 68, 69}: untouched page cache. */
  g_assert_cmphex (pgs_test_pixel (surface, 2, 0), ==, COLOR_FILE_INACTIVE);
  cairo_surface_destroy (surface);
  g_assert_true (pgs_renderer_hit_test (flags, 32, 32, 1.5, 0.5, &hit));
  g_assert_cmpuint (hit.category, ==, PGS_CATEGORY_FREE);
  g_assert_cmpuint (hit.pfn, ==, 66);

  /* Hilbert pgs_test_pixel (0, 0) = frames 0..3: counts 1, 7, 1, 1 → 5-8; anon ×4 → anon. */
  pgs_renderer_set_layout (sharing, PGS_LAYOUT_HILBERT);
  pgs_renderer_set_layout (flags, PGS_LAYOUT_HILBERT);
  surface = pgs_renderer_render_surface (sharing, 32, 32, FALSE);
  g_assert_cmphex (pgs_test_pixel (surface, 0, 0), ==, COLOR_5_8);
  cairo_surface_destroy (surface);
  surface = pgs_renderer_render_surface (flags, 32, 32, FALSE);
  g_assert_cmphex (pgs_test_pixel (surface, 0, 0), ==, COLOR_ANON);
  cairo_surface_destroy (surface);
  g_assert_true (pgs_renderer_hit_test (flags, 32, 32, 0.5, 0.5, &hit));
  g_assert_cmpuint (hit.n_pages, ==, 4);
  g_assert_cmpuint (hit.pfn, ==, 0);

  /* The legend counts every frame once: 4096 = 4 anon + 3 free + 4089 inactive. */
  {
    guint64 n;

    pgs_renderer_get_legend_item (flags, PGS_CATEGORY_ANON, NULL, NULL, &n);
    g_assert_cmpuint (n, ==, 4);
    pgs_renderer_get_legend_item (flags, PGS_CATEGORY_FREE, NULL, NULL, &n);
    g_assert_cmpuint (n, ==, 3);
    pgs_renderer_get_legend_item (flags, PGS_CATEGORY_FILE_INACTIVE, NULL, NULL, &n);
    g_assert_cmpuint (n, ==, 4089);
    /* Sharing: frames 65, 66, 67 free; 64 mapped twice; 1 seven times; the rest once. */
    pgs_renderer_get_legend_item (sharing, PGS_SHARE_FREE, NULL, NULL, &n);
    g_assert_cmpuint (n, ==, 3);
    pgs_renderer_get_legend_item (sharing, PGS_SHARE_2, NULL, NULL, &n);
    g_assert_cmpuint (n, ==, 1);
    pgs_renderer_get_legend_item (sharing, PGS_SHARE_5_8, NULL, NULL, &n);
    g_assert_cmpuint (n, ==, 1);
    pgs_renderer_get_legend_item (sharing, PGS_SHARE_1, NULL, NULL, &n);
    g_assert_cmpuint (n, ==, 4096 - 5);
  }
}

/* Zoom 2 on the top left corner: each frame is 2 x 2 pixels. */
static void
test_zoom (void)
{
  g_autoptr(PgsFixture) fx = uniform_fixture (4096);
  g_autoptr(PgsSnapshot) snapshot = NULL;
  g_autoptr(PgsRenderer) renderer = NULL;
  PgsHit hit;
  double mx, my;

  pgs_fixture_commit (fx);
  snapshot = pgs_test_scan (fx, PGS_SCAN_METRICS | PGS_SCAN_PHYSMAP);
  renderer = pgs_renderer_new (snapshot, PGS_VIEW_SHARING);
  pgs_renderer_set_viewport (renderer, 2.0, 0.0, 0.0);

  g_assert_true (pgs_renderer_hit_test (renderer, 64, 64, 1.5, 1.5, &hit));
  g_assert_cmpuint (hit.pfn, ==, 0);
  g_assert_true (pgs_renderer_hit_test (renderer, 64, 64, 2.5, 0.5, &hit));
  g_assert_cmpuint (hit.pfn, ==, 1);
  g_assert_true (pgs_renderer_hit_test (renderer, 64, 64, 0.5, 2.5, &hit));
  g_assert_cmpuint (hit.pfn, ==, 64);
  /* Pixel 32 is cell 16 of 64: a quarter across. */
  g_assert_true (pgs_renderer_pixel_to_map (renderer, 64, 64, 32, 64, &mx, &my));
  g_assert_cmpfloat_with_epsilon (mx, 0.25, 1e-9);
  g_assert_cmpfloat_with_epsilon (my, 0.5, 1e-9);
}

/* Highlighting a set of frames (a file's): those frames, not the process's, and the
 * process's again when the set is dropped. */
static void
test_highlight_frames (void)
{
  g_autoptr(PgsFixture) fx = uniform_fixture (4096);
  g_autoptr(PgsSnapshot) snapshot = NULL;
  g_autoptr(PgsRenderer) renderer = NULL;
  /* Out of order, a repeat, and one past the end: all three must be harmless. */
  const guint64 set[] = { 2000, 7, 2000, 99999 };
  g_autoptr(GBytes) pfns = g_bytes_new (set, sizeof set);
  char *legend;
  gboolean marked = FALSE;
  PgsHit hit;

  pgs_fixture_commit (fx);
  snapshot = pgs_test_scan (fx, PGS_SCAN_MAPPINGS | PGS_SCAN_PAGES | PGS_SCAN_PHYSMAP);
  renderer = pgs_renderer_new (snapshot, PGS_VIEW_SHARING);
  pgs_renderer_set_process (renderer, pgs_snapshot_lookup_pid (snapshot, 100));
  pgs_renderer_set_highlight_frames (renderer, pfns, "lib.so");

  /* 64 x 64 frames in 64 x 64 pixels: frame n at (n % 64, n / 64). */
  g_assert_true (pgs_renderer_hit_test (renderer, 64, 64, 7.5, 0.5, &hit));
  g_assert_cmpuint (hit.pfn, ==, 7);
  g_assert_true (hit.highlighted);
  g_assert_true (pgs_renderer_hit_test (renderer, 64, 64, 2000 % 64 + 0.5, 2000 / 64 + 0.5, &hit));
  g_assert_cmpuint (hit.pfn, ==, 2000);
  g_assert_true (hit.highlighted);
  /* The process's frame 100 is not in the set. */
  g_assert_true (pgs_renderer_hit_test (renderer, 64, 64, 36.5, 1.5, &hit));
  g_assert_cmpuint (hit.pfn, ==, 100);
  g_assert_false (hit.highlighted);
  /* The legend names the file, not the process. */
  legend = pgs_renderer_describe_highlight (renderer, &marked);
  g_assert_cmpstr (legend, ==, "Outlined: frames of lib.so");
  g_assert_true (marked);
  g_clear_pointer (&legend, g_free);

  pgs_renderer_set_highlight_frames (renderer, NULL, NULL);
  legend = pgs_renderer_describe_highlight (renderer, &marked);
  g_assert_cmpstr (legend, ==, "Outlined: frames of alpha (PID 100)");
  g_clear_pointer (&legend, g_free);
  g_assert_true (pgs_renderer_hit_test (renderer, 64, 64, 36.5, 1.5, &hit));
  g_assert_true (hit.highlighted);
  g_assert_true (pgs_renderer_hit_test (renderer, 64, 64, 7.5, 0.5, &hit));
  g_assert_false (hit.highlighted);
}

/* Highlighting a process: its frames 100..103, a run of four pixels (36..39, 1) one pixel
 * high, are all edge, so outlined they are all the ring's outer tone (the halo); every other
 * frame keeps its own colour. */
static void
test_highlight (void)
{
  g_autoptr(PgsFixture) fx = uniform_fixture (4096);
  g_autoptr(PgsSnapshot) snapshot = NULL;
  g_autoptr(PgsRenderer) renderer = NULL;
  cairo_surface_t *surface;
  PgsHit hit;

  pgs_fixture_commit (fx);
  snapshot = pgs_test_scan (fx, PGS_SCAN_MAPPINGS | PGS_SCAN_PAGES | PGS_SCAN_PHYSMAP);
  renderer = pgs_renderer_new (snapshot, PGS_VIEW_SHARING);
  pgs_renderer_set_process (renderer, pgs_snapshot_lookup_pid (snapshot, 100));

  surface = pgs_renderer_render_surface (renderer, 64, 64, FALSE);
  g_assert_cmphex (pgs_test_pixel (surface, 36, 1), ==, COLOR_HALO);
  g_assert_cmphex (pgs_test_pixel (surface, 39, 1), ==, COLOR_HALO);
  g_assert_cmphex (pgs_test_pixel (surface, 35, 1), ==, COLOR_ONCE);
  g_assert_cmphex (pgs_test_pixel (surface, 40, 1), ==, COLOR_ONCE);
  g_assert_cmphex (pgs_test_pixel (surface, 36, 0), ==, COLOR_ONCE);
  g_assert_cmphex (pgs_test_pixel (surface, 36, 2), ==, COLOR_ONCE);
  cairo_surface_destroy (surface);
  g_assert_true (pgs_renderer_hit_test (renderer, 64, 64, 39.5, 1.5, &hit));
  g_assert_cmpuint (hit.pfn, ==, 103);
  g_assert_true (hit.highlighted);
  g_assert_true (pgs_renderer_hit_test (renderer, 64, 64, 40.5, 1.5, &hit));
  g_assert_false (hit.highlighted);

  /* And off again. */
  pgs_renderer_set_process (renderer, NULL);
  surface = pgs_renderer_render_surface (renderer, 64, 64, FALSE);
  g_assert_cmphex (pgs_test_pixel (surface, 35, 1), ==, COLOR_ONCE);
  cairo_surface_destroy (surface);
}

/* One process, two mappings in address order:
 *   anonymous [heap], 8 pages: 0-1 private, 2 shared by 3, 5 swapped, the rest not present
 *   /usr/lib/libbar.so, 4 pages: 0 shared by 2 (file), 3 private file
 * At 8 x 2 pixels the map fits at one page a pixel, 8 pages a row, a row per mapping. */
static void
test_residency (void)
{
  g_autoptr(PgsFixture) fx = pgs_fixture_new ();
  g_autoptr(PgsSnapshot) snapshot = NULL;
  g_autoptr(PgsRenderer) renderer = NULL;
  const guint64 lib = BASE + 0x100000;
  guint64 heap[8] = { 0 }, file[4] = { 0 };
  cairo_surface_t *surface;
  /* The light style's: anonymous and file as on the flag map, not present anonymous as
   * free, not present file a warm near-grey (L* 49), swapped as anonymous THP (vermillion). */
  guint32 once_anon = COLOR_ANON, once_file = COLOR_FILE_INACTIVE, np_anon = COLOR_FREE,
          np_file = 0xff7f735bu, swapped = 0xff833802u;
  /* Shared by 2: sharing class 1 of 8, t = 0.16, pos 1.6: between #482475 and #414487 at .6
   * → #443780 (0x48 - 7 · .6 = 67.8, 0x24 + 32 · .6 = 55.2, 0x75 + 18 · .6 = 127.8). */
  guint32 shared2 = 0xff443780u;
  double y, h;
  const char *label;
  PgsHit hit;

  pgs_fixture_add_process (fx, 100, "alpha", 0, FALSE);
  pgs_fixture_add_mapping (fx, 100, BASE, BASE + 8 * PS, "rw-p", "[heap]");
  pgs_fixture_add_mapping (fx, 100, lib, lib + 4 * PS, "r--p", "/usr/lib/libbar.so");
  heap[0] = FX_PRESENT_EXCL (500);
  heap[1] = FX_PRESENT_EXCL (501);
  heap[2] = FX_PRESENT (502);
  heap[5] = FX_SWAPPED (0, 77);
  file[0] = FX_PRESENT (600) | FX_FILE;
  file[3] = FX_PRESENT_EXCL (603) | FX_FILE;
  pgs_fixture_set_pages (fx, 100, BASE, heap, 8);
  pgs_fixture_set_pages (fx, 100, lib, file, 4);
  pgs_fixture_set_frame (fx, 500, 1, KPF (ANON) | KPF (LRU));
  pgs_fixture_set_frame (fx, 501, 1, KPF (ANON) | KPF (LRU));
  pgs_fixture_set_frame (fx, 502, 3, KPF (ANON) | KPF (LRU));
  pgs_fixture_set_frame (fx, 600, 2, KPF (LRU));
  pgs_fixture_set_frame (fx, 603, 1, KPF (LRU));
  pgs_fixture_commit (fx);
  snapshot = pgs_test_scan (fx, PGS_SCAN_MAPPINGS | PGS_SCAN_PAGES);

  renderer = pgs_renderer_new (snapshot, PGS_VIEW_RESIDENCY);
  pgs_renderer_set_process (renderer, pgs_snapshot_lookup_pid (snapshot, 100));
  surface = pgs_renderer_render_surface (renderer, 8, 2, FALSE);
  g_assert_cmphex (pgs_test_pixel (surface, 0, 0), ==, once_anon);
  g_assert_cmphex (pgs_test_pixel (surface, 1, 0), ==, once_anon);
  g_assert_cmphex (pgs_test_pixel (surface, 2, 0), ==, COLOR_3_4);
  g_assert_cmphex (pgs_test_pixel (surface, 3, 0), ==, np_anon);
  g_assert_cmphex (pgs_test_pixel (surface, 5, 0), ==, swapped);
  g_assert_cmphex (pgs_test_pixel (surface, 7, 0), ==, np_anon);
  g_assert_cmphex (pgs_test_pixel (surface, 0, 1), ==, shared2);
  g_assert_cmphex (pgs_test_pixel (surface, 1, 1), ==, np_file);
  g_assert_cmphex (pgs_test_pixel (surface, 3, 1), ==, once_file);
  /* Past the end of the 4-page mapping: background. */
  g_assert_cmphex (pgs_test_pixel (surface, 4, 1), ==, 0xffffffffu);
  cairo_surface_destroy (surface);

  g_assert_true (pgs_renderer_hit_test (renderer, 8, 2, 2.5, 0.5, &hit));
  g_assert_false (hit.is_frame);
  g_assert_cmphex (hit.address, ==, BASE + 2 * PS);
  g_assert_cmpuint (hit.mapping, ==, 0);
  g_assert_cmpuint (hit.count, ==, 3);
  g_assert_cmpuint (hit.pfn, ==, 502);
  g_assert_true (pgs_renderer_hit_test (renderer, 8, 2, 1.5, 1.5, &hit));
  g_assert_cmphex (hit.address, ==, lib + PS);
  g_assert_cmpuint (hit.mapping, ==, 1);
  g_assert_cmphex (hit.entry, ==, 0);
  g_assert_false (pgs_renderer_hit_test (renderer, 8, 2, 5.5, 1.5, &hit));

  g_assert_cmpuint (pgs_renderer_get_n_bands (renderer), ==, 2);
  g_assert_true (pgs_renderer_get_band (renderer, 8, 2, 1, &y, &h, &label));
  g_assert_cmpfloat (y, ==, 1.0);
  g_assert_cmpfloat (h, ==, 1.0);
  g_assert_cmpstr (label, ==, "libbar.so");

  /* 12 pages: 2 private anon, 1 shared by 3, 1 swapped, 4 not present anon; 1 shared by 2,
   * 1 private file, 2 not present file. */
  {
    static const struct { PgsResClass klass; guint64 n; } expected[] = {
      { PGS_RES_PRIVATE_ANON, 2 }, { PGS_RES_SHARED_3_4, 1 }, { PGS_RES_SWAPPED, 1 },
      { PGS_RES_NOT_PRESENT_ANON, 4 }, { PGS_RES_SHARED_2, 1 }, { PGS_RES_PRIVATE_FILE, 1 },
      { PGS_RES_NOT_PRESENT_FILE, 2 }, { PGS_RES_ZERO, 0 },
    };

    for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
      {
        guint64 n;

        pgs_renderer_get_legend_item (renderer, expected[i].klass, NULL, NULL, &n);
        g_assert_cmpuint (n, ==, expected[i].n);
      }
  }

  /* Hilbert: 12 pages in one 4 x 4 tile; page 2 of the heap is d = 2 at (1, 1). */
  pgs_renderer_set_layout (renderer, PGS_LAYOUT_HILBERT);
  surface = pgs_renderer_render_surface (renderer, 4, 4, FALSE);
  g_assert_cmphex (pgs_test_pixel (surface, 1, 1), ==, COLOR_3_4);
  /* Heap page 5 (swapped) is d = 5 at (0, 3); the library's first page, d = 8, at (2, 2). */
  g_assert_cmphex (pgs_test_pixel (surface, 0, 3), ==, swapped);
  g_assert_cmphex (pgs_test_pixel (surface, 2, 2), ==, shared2);
  cairo_surface_destroy (surface);
}

static void
test_png (void)
{
  g_autoptr(PgsFixture) fx = uniform_fixture (4096);
  g_autoptr(PgsSnapshot) snapshot = NULL;
  g_autoptr(PgsRenderer) renderer = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("pgs-render-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "map.png", NULL);
  g_autofree char *path2 = g_build_filename (dir, "legend.png", NULL);
  cairo_surface_t *surface;

  g_assert_no_error (error);
  pgs_fixture_commit (fx);
  snapshot = pgs_test_scan (fx, PGS_SCAN_METRICS | PGS_SCAN_PHYSMAP);
  renderer = pgs_renderer_new (snapshot, PGS_VIEW_FLAGS);

  g_assert_true (pgs_renderer_write_png (renderer, path, 123, 45, FALSE, &error));
  g_assert_no_error (error);
  surface = cairo_image_surface_create_from_png (path);
  g_assert_cmpint (cairo_surface_status (surface), ==, CAIRO_STATUS_SUCCESS);
  g_assert_cmpint (cairo_image_surface_get_width (surface), ==, 123);
  g_assert_cmpint (cairo_image_surface_get_height (surface), ==, 45);
  cairo_surface_destroy (surface);

  /* With a legend the image grows to hold it, never shrinking the map. */
  g_assert_true (pgs_renderer_write_png (renderer, path2, 200, 100, TRUE, &error));
  surface = cairo_image_surface_create_from_png (path2);
  g_assert_cmpint (cairo_surface_status (surface), ==, CAIRO_STATUS_SUCCESS);
  g_assert_cmpint (cairo_image_surface_get_width (surface), >, 200 + 200);
  g_assert_cmpint (cairo_image_surface_get_height (surface), >=, 100);
  cairo_surface_destroy (surface);

  g_assert_false (pgs_renderer_write_png (renderer, path, 0, 45, FALSE, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);

  g_unlink (path);
  g_unlink (path2);
  g_rmdir (dir);
}

/* The longest run of @argb on one row of @surface right of @x0: a legend swatch's width. */
static int
longest_run (cairo_surface_t *surface,
             int              x0,
             guint32          argb)
{
  int best = 0;

  for (int y = 0; y < cairo_image_surface_get_height (surface); y++)
    for (int x = x0, run = 0; x < cairo_image_surface_get_width (surface); x++)
      {
        run = (pgs_test_pixel (surface, x, y) & 0xffffff) == (argb & 0xffffff) ? run + 1 : 0;
        best = MAX (best, run);
      }
  return best;
}

/* Issue 21 item 14: a 4096 × 3072 export carried the legend drawn for 1024 × 768, 13 px text
 * on a 4,400 px image. The legend scales with the map, by the smaller of width / 1024 and
 * height / 768 (4 here). By hand: a swatch is drawn 11 units wide with a 1-unit outline
 * centred on its edge, so its own colour spans 10 px at scale 1 and 40 px (±2 for the
 * outline's antialiasing) at scale 4; the map is left of x0. */
static void
test_png_legend_scale (void)
{
  g_autoptr(PgsFixture) fx = uniform_fixture (4096);
  g_autoptr(PgsSnapshot) snapshot = NULL;
  g_autoptr(PgsRenderer) renderer = NULL;
  cairo_surface_t *small;
  cairo_surface_t *big;
  guint32 anon;

  pgs_fixture_commit (fx);
  snapshot = pgs_test_scan (fx, PGS_SCAN_METRICS | PGS_SCAN_PHYSMAP);
  renderer = pgs_renderer_new (snapshot, PGS_VIEW_FLAGS);
  pgs_renderer_get_legend_item (renderer, PGS_CATEGORY_ANON, &anon, NULL, NULL);

  small = pgs_renderer_render_surface (renderer, 1024, 768, TRUE);
  big = pgs_renderer_render_surface (renderer, 4096, 3072, TRUE);
  g_assert_cmpint (longest_run (small, 12 + 1024 + 1, anon), >=, 9);
  g_assert_cmpint (longest_run (small, 12 + 1024 + 1, anon), <=, 11);
  g_assert_cmpint (longest_run (big, 12 + 4096 + 1, anon), >=, 38);
  g_assert_cmpint (longest_run (big, 12 + 4096 + 1, anon), <=, 42);
  /* The legend's column grows by the same factor (its text differs only in the scale line). */
  g_assert_cmpint (cairo_image_surface_get_width (big) - 4096, >=,
                   3 * (cairo_image_surface_get_width (small) - 1024));
  cairo_surface_destroy (small);
  cairo_surface_destroy (big);
}

/* Frame 5000 mapped by two processes: the reverse lookup names both, with addresses. */
static void
test_frame_users (void)
{
  g_autoptr(PgsFixture) fx = pgs_fixture_new ();
  g_autoptr(PgsSnapshot) snapshot = NULL;
  g_autoptr(GArray) users = NULL;
  g_autoptr(GArray) none = NULL;
  guint64 a[3] = { FX_PRESENT_EXCL (4000), 0, FX_PRESENT (5000) | FX_FILE };
  guint64 b[1] = { FX_PRESENT (5000) | FX_FILE };

  pgs_fixture_add_process (fx, 100, "alpha", 0, FALSE);
  pgs_fixture_add_process (fx, 200, "beta", 0, FALSE);
  pgs_fixture_add_mapping (fx, 100, BASE, BASE + 3 * PS, "r--p", "/lib/x.so");
  pgs_fixture_add_mapping (fx, 200, BASE + 64 * PS, BASE + 65 * PS, "r--p", "/lib/x.so");
  pgs_fixture_set_pages (fx, 100, BASE, a, 3);
  pgs_fixture_set_pages (fx, 200, BASE + 64 * PS, b, 1);
  pgs_fixture_set_frame (fx, 4000, 1, KPF (ANON));
  pgs_fixture_set_frame (fx, 5000, 2, KPF (LRU));
  pgs_fixture_commit (fx);
  snapshot = pgs_test_scan (fx, PGS_SCAN_MAPPINGS | PGS_SCAN_PAGES);

  users = pgs_snapshot_find_frame_users (snapshot, 5000);
  g_assert_cmpuint (users->len, ==, 2);
  g_assert_cmpint (g_array_index (users, PgsFrameUser, 0).pid, ==, 100);
  g_assert_cmphex (g_array_index (users, PgsFrameUser, 0).address, ==, BASE + 2 * PS);
  g_assert_cmpint (g_array_index (users, PgsFrameUser, 1).pid, ==, 200);
  g_assert_cmphex (g_array_index (users, PgsFrameUser, 1).address, ==, BASE + 64 * PS);
  none = pgs_snapshot_find_frame_users (snapshot, 4999);
  g_assert_cmpuint (none->len, ==, 0);
}

/* pagescope-cli render on the aggregation fixture: the PNG at the asked size, and --json
 * with the frames per category worked out for test_aggregation (4 anon, 3 free, 4089
 * inactive page cache). */
static void
test_cli (void)
{
  const char *cli = g_getenv ("PAGESCOPE_CLI");
  g_autoptr(PgsFixture) fx = uniform_fixture (4096);
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("pgs-render-cli-XXXXXX", &error);
  g_autofree char *png = g_build_filename (dir, "flags.png", NULL);
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  /* Untranslated labels, whatever the caller's locale. */
  g_auto(GStrv) env = g_environ_setenv (g_get_environ (), "LC_ALL", "C", TRUE);
  cairo_surface_t *surface;
  int status;

  if (cli == NULL)
    {
      g_test_skip ("PAGESCOPE_CLI is not set (run through meson test)");
      return;
    }
  pgs_fixture_set_frame (fx, 0, 1, KPF (ANON) | KPF (LRU));
  pgs_fixture_set_frame (fx, 1, 7, KPF (ANON) | KPF (LRU));
  pgs_fixture_set_frame (fx, 2, 1, KPF (ANON) | KPF (LRU));
  pgs_fixture_set_frame (fx, 3, 1, KPF (ANON) | KPF (LRU));
  pgs_fixture_set_frame (fx, 65, 0, KPF (BUDDY));
  pgs_fixture_set_frame (fx, 66, 0, KPF (BUDDY));
  pgs_fixture_set_frame (fx, 67, 0, KPF (BUDDY));
  pgs_fixture_commit (fx);

  {
    const char *argv[] = { cli, "render", "--view", "flags", "--layout", "hilbert",
                           "--width", "64", "--height", "48", "--json", "--procfs",
                           pgs_fixture_get_root (fx), "-o", png, NULL };

    g_assert_true (g_spawn_sync (NULL, (char **) argv, env, G_SPAWN_DEFAULT, NULL, NULL,
                                 &out, &err, &status, &error));
  }
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  pgs_test_assert_json (out);
  g_assert_nonnull (strstr (out, "\"view\": \"flags\""));
  g_assert_nonnull (strstr (out, "\"layout\": \"hilbert\""));
  g_assert_nonnull (strstr (out, "{ \"id\": \"anon\", \"label\": \"Anonymous\", \"color\": \"#966908\", \"pages\": 4, \"bytes\": 16384 }"));
  g_assert_nonnull (strstr (out, "\"id\": \"free\""));
  g_assert_nonnull (strstr (out, "\"pages\": 3, \"bytes\": 12288 }"));
  g_assert_nonnull (strstr (out, "\"pages\": 4089,"));
  g_assert_nonnull (strstr (out, "\"total_pages\": 4096,"));

  surface = cairo_image_surface_create_from_png (png);
  g_assert_cmpint (cairo_surface_status (surface), ==, CAIRO_STATUS_SUCCESS);
  g_assert_cmpint (cairo_image_surface_get_width (surface), ==, 64);
  g_assert_cmpint (cairo_image_surface_get_height (surface), ==, 48);
  cairo_surface_destroy (surface);
  g_unlink (png);
  g_rmdir (dir);

  /* Residency without a PID is a usage error (exit 2). */
  {
    const char *argv[] = { cli, "render", "--view", "residency", "-o", "x.png", NULL };

    g_clear_pointer (&out, g_free);
    g_clear_pointer (&err, g_free);
    g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL,
                                 &out, &err, &status, &error));
    g_assert_cmpint (WEXITSTATUS (status), ==, 2);
  }
}

/* A machine with a never-initialised top, worked out by hand: one zone of 8192 frames,
 * 3072 managed (0..2047 free, 2048..3071 page cache), 3072..8191 flagless (5120 = present
 * - managed). MemTotal 28672 kB = 3072 managed + 4096: the kernel counts 4096 of the
 * 5120 as memory, so 3072..7167 are free, not yet initialised, and 7168..8191 stay
 * "reserved or other kernel". MemFree 24576 kB = 2048 + 4096 frames. */
static PgsFixture *
uninit_fixture (gboolean with_counters)
{
  PgsFixture *fx = pgs_fixture_new ();

  for (guint i = 0; i < 2048; i++)
    pgs_fixture_set_frame (fx, i, 0, KPF (BUDDY));
  for (guint i = 2048; i < 3072; i++)
    pgs_fixture_set_frame (fx, i, 1, KPF (LRU) | KPF (UPTODATE));
  for (guint i = 3072; i < 8192; i++)
    pgs_fixture_set_frame (fx, i, 0, 0);
  pgs_fixture_add_process (fx, 100, "alpha", 0, FALSE);
  if (with_counters)
    {
      pgs_fixture_write (fx, "meminfo",
                         "MemTotal: 28672 kB\nMemFree: 24576 kB\nBuffers: 0 kB\n"
                         "Cached: 4096 kB\nSwapCached: 0 kB\nAnonPages: 0 kB\nShmem: 0 kB\n"
                         "SReclaimable: 0 kB\nSUnreclaim: 0 kB\nKernelStack: 0 kB\n"
                         "PageTables: 0 kB\nHugetlb: 0 kB\nUnevictable: 0 kB\n", -1);
      pgs_fixture_write (fx, "zoneinfo",
                         "Node 0, zone   Normal\n  pages free     2048\n"
                         "        spanned  8192\n        present  8192\n"
                         "        managed  3072\n  start_pfn:           0\n", -1);
    }
  pgs_fixture_commit (fx);
  return fx;
}

static void
test_counters_legend (void)
{
  g_autoptr(PgsFixture) fx = uninit_fixture (TRUE);
  g_autoptr(PgsSnapshot) snapshot = pgs_test_scan (fx, PGS_SCAN_METRICS | PGS_SCAN_PHYSMAP);
  g_autoptr(PgsRenderer) renderer = pgs_renderer_new (snapshot, PGS_VIEW_FLAGS);
  g_autoptr(PgsRenderer) sharing = pgs_renderer_new (snapshot, PGS_VIEW_SHARING);
  g_autoptr(GPtrArray) lines = NULL;
  g_autoptr(GPtrArray) none = NULL;
  cairo_surface_t *surface, *measure;
  cairo_t *cr;
  double widest = 0;
  guint64 n;

  pgs_renderer_get_legend_item (renderer, PGS_CATEGORY_FREE, NULL, NULL, &n);
  g_assert_cmpuint (n, ==, 2048);
  pgs_renderer_get_legend_item (renderer, PGS_CATEGORY_FREE_UNINIT, NULL, NULL, &n);
  g_assert_cmpuint (n, ==, 4096);
  pgs_renderer_get_legend_item (renderer, PGS_CATEGORY_RESERVED, NULL, NULL, &n);
  g_assert_cmpuint (n, ==, 1024);
  pgs_renderer_get_legend_item (renderer, PGS_CATEGORY_FILE_INACTIVE, NULL, NULL, &n);
  g_assert_cmpuint (n, ==, 1024);
  /* Its own colour, used by no other category. */
  for (guint c = 0; c < PGS_N_CATEGORIES; c++)
    if (c != PGS_CATEGORY_FREE_UNINIT)
      g_assert_cmphex (pgs_palette_category (c), !=, pgs_palette_category (PGS_CATEGORY_FREE_UNINIT));

  lines = pgs_renderer_get_counter_lines (renderer);
  /* A header, then MemFree … not otherwise accounted; no HugeTLB row without a pool. */
  g_assert_cmpuint (lines->len, ==, 1 + PGS_N_COUNTERS - 1);
  g_assert_cmpstr (g_ptr_array_index (lines, 1), ==,
                   "MemFree 24.0 MiB · map 24.0 MiB (Free + not yet initialised)");
  g_assert_cmpstr (g_ptr_array_index (lines, 2), ==,
                   "Cached + Buffers 4.0 MiB · map 4.0 MiB (page cache, dirty, shmem; "
                   "not unevictable)");
  /* 28672 - 24576 - 4096 = 0 */
  g_assert_cmpstr (g_ptr_array_index (lines, lines->len - 1), ==,
                   "Kernel, not otherwise accounted 0 B (no flag: in Reserved or other kernel)");
  none = pgs_renderer_get_counter_lines (sharing);
  g_assert_cmpuint (none->len, ==, 0);
  /* The sharing map agrees: never-initialised frames are free there too. */
  pgs_renderer_get_legend_item (sharing, PGS_SHARE_FREE, NULL, NULL, &n);
  g_assert_cmpuint (n, ==, 2048 + 4096);
  pgs_renderer_get_legend_item (sharing, PGS_SHARE_0, NULL, NULL, &n);
  g_assert_cmpuint (n, ==, 1024);
  pgs_renderer_get_legend_item (sharing, PGS_SHARE_1, NULL, NULL, &n);
  g_assert_cmpuint (n, ==, 1024);

  /* The PNG legend holds every line unclipped: the image is wider than the map and the
   * widest line (wrapped lines are narrower), and taller than the legend's lines. */
  measure = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1, 1);
  cr = cairo_create (measure);
  cairo_select_font_face (cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_font_size (cr, 13.0);
  for (guint i = 0; i < lines->len; i++)
    {
      cairo_text_extents_t ext;

      cairo_text_extents (cr, g_ptr_array_index (lines, i), &ext);
      widest = MAX (widest, MIN (ext.x_advance, 420));
    }
  cairo_destroy (cr);
  cairo_surface_destroy (measure);
  surface = pgs_renderer_render_surface (renderer, 200, 100, TRUE);
  g_assert_cmpint (cairo_image_surface_get_width (surface), >=, 12 + 200 + 12 + widest + 12);
  /* 4 header lines, 16 categories, 10 counter lines at 20 px, at the least */
  g_assert_cmpint (cairo_image_surface_get_height (surface), >=, 20 * (4 + PGS_N_CATEGORIES + lines->len));
  cairo_surface_destroy (surface);
}

/* A fixture tree without meminfo: the legend says the counters are unavailable. */
static void
test_counters_unavailable (void)
{
  g_autoptr(PgsFixture) fx = uninit_fixture (FALSE);
  g_autoptr(PgsSnapshot) snapshot = pgs_test_scan (fx, PGS_SCAN_METRICS | PGS_SCAN_PHYSMAP);
  g_autoptr(PgsRenderer) renderer = pgs_renderer_new (snapshot, PGS_VIEW_FLAGS);
  g_autoptr(GPtrArray) lines = pgs_renderer_get_counter_lines (renderer);
  guint64 n;

  g_assert_cmpuint (lines->len, ==, 1);
  g_assert_nonnull (strstr (g_ptr_array_index (lines, 0), "unavailable"));
  /* Without zoneinfo nothing is decided by counters. */
  pgs_renderer_get_legend_item (renderer, PGS_CATEGORY_FREE_UNINIT, NULL, NULL, &n);
  g_assert_cmpuint (n, ==, 0);
  pgs_renderer_get_legend_item (renderer, PGS_CATEGORY_RESERVED, NULL, NULL, &n);
  g_assert_cmpuint (n, ==, 5120);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  PS = (guint64) sysconf (_SC_PAGESIZE);

  g_test_add_func ("/pgs/render/reference-curve", test_ref_curve);
  g_test_add_func ("/pgs/render/known-frame-linear", test_known_frame_linear);
  g_test_add_func ("/pgs/render/known-frame-hilbert", test_known_frame_hilbert);
  g_test_add_func ("/pgs/render/hilbert-bijection", test_hilbert_bijection);
  g_test_add_func ("/pgs/render/aggregation", test_aggregation);
  g_test_add_func ("/pgs/render/zoom", test_zoom);
  g_test_add_func ("/pgs/render/highlight", test_highlight);
  g_test_add_func ("/pgs/render/highlight-frames", test_highlight_frames);
  g_test_add_func ("/pgs/render/residency", test_residency);
  g_test_add_func ("/pgs/render/png", test_png);
  g_test_add_func ("/pgs/render/png-legend-scale", test_png_legend_scale);
  g_test_add_func ("/pgs/render/frame-users", test_frame_users);
  g_test_add_func ("/pgs/render/cli", test_cli);
  g_test_add_func ("/pgs/render/counters-legend", test_counters_legend);
  g_test_add_func ("/pgs/render/counters-unavailable", test_counters_unavailable);

  return g_test_run ();
}
