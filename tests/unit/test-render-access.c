/* test-render-access.c: DAMON's access heat drawn, on two hand-made aggregations
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "pagescope.h"

static PgsDamonAggregation *
aggregation (const PgsDamonRegion *regions,
             guint                 n)
{
  PgsDamonAggregation *a = g_new0 (PgsDamonAggregation, 1);

  a->pid = 107;
  a->nr_regions = n;
  a->regions = g_array_new (FALSE, FALSE, sizeof (PgsDamonRegion));
  g_array_append_vals (a->regions, regions, n);
  return a;
}

static void
aggregation_free (gpointer data)
{
  PgsDamonAggregation *a = data;

  g_array_unref (a->regions);
  g_free (a);
}

static void
test_pixels_and_hits (void)
{
  static const PgsDamonRegion first[] = { { 0x1000, 0x3000, 10, 2 }, { 0x3000, 0x4000, 0, 9 } };
  static const PgsDamonRegion second[] = { { 0x9000, 0xa000, 5, 0 } };
  g_autoptr(GPtrArray) aggs = g_ptr_array_new_with_free_func (aggregation_free);
  g_autoptr(GArray) spans = NULL;
  g_autofree guint32 *px = NULL;
  const PgsStyleColors *colors = pgs_palette_style (PGS_RENDER_STYLE_LIGHT);
  PgsAccessView view = { 0 };
  guint a = 99, r = 99;

  g_ptr_array_add (aggs, aggregation (first, 2));
  g_ptr_array_add (aggs, aggregation (second, 1));
  view.aggregations = aggs;
  view.max_nr_accesses = 10;
  view.style = PGS_RENDER_STYLE_LIGHT;

  /* Covered: 0x1000–0x4000 and 0x9000–0xa000, 16 KiB; 0x4000–0x9000 folded. */
  spans = pgs_render_access_spans (aggs);
  g_assert_cmpuint (spans->len, ==, 2);
  g_assert_cmpuint (g_array_index (spans, PgsDamonRange, 0).start, ==, 0x1000);
  g_assert_cmpuint (g_array_index (spans, PgsDamonRange, 0).end, ==, 0x4000);
  g_assert_cmpuint (g_array_index (spans, PgsDamonRange, 1).start, ==, 0x9000);
  g_assert_cmpuint (g_array_index (spans, PgsDamonRange, 1).end, ==, 0xa000);

  /* 2 × 4 pixels: a column per aggregation, 4 KiB per row: rows 0–1 the first region
   * (10 of 10: the ramp's end), row 2 the second (0: its start), row 3 0x9000–0xa000,
   * where the fold's line is drawn across both columns. */
  px = pgs_render_access_pixels (&view, 2, 4);
  g_assert_cmphex (px[0 * 2 + 0], ==, pgs_palette_heat_for_style (PGS_RENDER_STYLE_LIGHT, 1.0));
  g_assert_cmphex (px[1 * 2 + 0], ==, pgs_palette_heat_for_style (PGS_RENDER_STYLE_LIGHT, 1.0));
  g_assert_cmphex (px[2 * 2 + 0], ==, pgs_palette_heat_for_style (PGS_RENDER_STYLE_LIGHT, 0.0));
  g_assert_cmphex (px[3 * 2 + 0], ==, colors->grid);
  g_assert_cmphex (px[3 * 2 + 1], ==, colors->grid);
  /* The second aggregation has nothing at 0x1000–0x4000. */
  g_assert_cmphex (px[0 * 2 + 1], ==, colors->background);
  g_assert_cmphex (px[2 * 2 + 1], ==, colors->background);

  g_assert_true (pgs_render_access_hit (&view, 2, 4, 0, 1, &a, &r));
  g_assert_cmpuint (a, ==, 0);
  g_assert_cmpuint (r, ==, 0);
  g_assert_true (pgs_render_access_hit (&view, 2, 4, 0, 2, &a, &r));
  g_assert_cmpuint (r, ==, 1);
  g_assert_true (pgs_render_access_hit (&view, 2, 4, 1, 3, &a, &r));
  g_assert_cmpuint (a, ==, 1);
  g_assert_cmpuint (r, ==, 0);
  g_assert_false (pgs_render_access_hit (&view, 2, 4, 1, 0, NULL, NULL));
  g_assert_false (pgs_render_access_hit (&view, 2, 4, 2, 0, NULL, NULL));
}

static void
test_empty (void)
{
  g_autoptr(GPtrArray) aggs = g_ptr_array_new ();
  PgsAccessView view = { aggs, 10, 5.0, NULL, PGS_RENDER_STYLE_DARK };
  g_autofree guint32 *px = pgs_render_access_pixels (&view, 3, 3);
  cairo_surface_t *s;

  for (guint i = 0; i < 9; i++)
    g_assert_cmphex (px[i], ==, pgs_palette_style (PGS_RENDER_STYLE_DARK)->background);
  /* With a legend the picture grows below the map. */
  s = pgs_render_access_surface (&view, 300, 40, TRUE);
  g_assert_cmpint (cairo_image_surface_get_width (s), ==, 300);
  g_assert_cmpint (cairo_image_surface_get_height (s), >, 40);
  cairo_surface_destroy (s);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/pgs/render-access/pixels-and-hits", test_pixels_and_hits);
  g_test_add_func ("/pgs/render-access/empty", test_empty);
  return g_test_run ();
}
