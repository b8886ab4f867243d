/* pgs-render-access.c: DAMON's access heat as a picture, time × physical address
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <inttypes.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "pgs-damon-sysfs.h"
#include "pgs-file-png.h"
#include "pgs-format.h"
#include "pgs-render-access.h"

G_DEFINE_AUTOPTR_CLEANUP_FUNC (cairo_surface_t, cairo_surface_destroy)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (cairo_t, cairo_destroy)

#define FONT_SIZE 13.0
#define LINE 20.0
#define PAD 12.0
#define RAMP_H 14.0

static int
compare_range (gconstpointer a,
               gconstpointer b)
{
  const PgsDamonRange *ra = a;
  const PgsDamonRange *rb = b;

  return ra->start < rb->start ? -1 : ra->start > rb->start;
}

GArray *
pgs_render_access_spans (GPtrArray *aggregations)
{
  g_autoptr(GArray) all = g_array_new (FALSE, FALSE, sizeof (PgsDamonRange));
  GArray *spans = g_array_new (FALSE, FALSE, sizeof (PgsDamonRange));

  g_return_val_if_fail (aggregations != NULL, spans);
  for (guint i = 0; i < aggregations->len; i++)
    {
      const PgsDamonAggregation *a = g_ptr_array_index (aggregations, i);

      for (guint j = 0; j < a->regions->len; j++)
        {
          const PgsDamonRegion *r = &g_array_index (a->regions, PgsDamonRegion, j);
          PgsDamonRange range = { r->start, r->end };

          g_array_append_val (all, range);
        }
    }
  g_array_sort (all, compare_range);
  for (guint i = 0; i < all->len; i++)
    {
      PgsDamonRange *r = &g_array_index (all, PgsDamonRange, i);
      PgsDamonRange *last = spans->len ? &g_array_index (spans, PgsDamonRange, spans->len - 1)
                                       : NULL;

      if (last != NULL && r->start <= last->end)
        last->end = MAX (last->end, r->end);
      else
        g_array_append_val (spans, *r);
    }
  return spans;
}

static guint64
covered (GArray *spans)
{
  guint64 total = 0;

  for (guint i = 0; i < spans->len; i++)
    total += g_array_index (spans, PgsDamonRange, i).end - g_array_index (spans, PgsDamonRange, i).start;
  return total;
}

/* An address's place on the folded axis: bytes of the spans below it. */
static guint64
folded_offset (GArray  *spans,
               guint64  addr)
{
  guint64 off = 0;

  for (guint i = 0; i < spans->len; i++)
    {
      const PgsDamonRange *s = &g_array_index (spans, PgsDamonRange, i);

      if (addr < s->end)
        return off + (addr > s->start ? addr - s->start : 0);
      off += s->end - s->start;
    }
  return off;
}

static guint64
unfold (GArray  *spans,
        guint64  offset)
{
  for (guint i = 0; i < spans->len; i++)
    {
      const PgsDamonRange *s = &g_array_index (spans, PgsDamonRange, i);

      if (offset < s->end - s->start)
        return s->start + offset;
      offset -= s->end - s->start;
    }
  return spans->len ? g_array_index (spans, PgsDamonRange, spans->len - 1).end : 0;
}

static guint64
max_accesses (const PgsAccessView *view)
{
  guint64 max = view->max_nr_accesses;

  if (max == 0)
    for (guint i = 0; i < view->aggregations->len; i++)
      {
        const PgsDamonAggregation *a = g_ptr_array_index (view->aggregations, i);

        for (guint j = 0; j < a->regions->len; j++)
          max = MAX (max, g_array_index (a->regions, PgsDamonRegion, j).nr_accesses);
      }
  return MAX (max, 1);
}

/* Row range [*y0, *y1) of bytes [start, end) on a folded axis of @total bytes. */
static void
rows_of (GArray  *spans,
         guint64  total,
         int      height,
         guint64  start,
         guint64  end,
         int     *y0,
         int     *y1)
{
  guint64 s = folded_offset (spans, start), e = folded_offset (spans, end);

  *y0 = (int) ((double) s * height / total);
  *y1 = (int) (((double) e * height + total - 1) / total);
  *y1 = CLAMP (MAX (*y1, *y0 + 1), 0, height);
}

guint32 *
pgs_render_access_pixels (const PgsAccessView *view,
                          int                  width,
                          int                  height)
{
  const PgsStyleColors *colors;
  g_autoptr(GArray) spans = NULL;
  g_autofree gint64 *hottest = NULL;
  guint32 *pixels;
  guint64 total, max;
  guint n;

  g_return_val_if_fail (view != NULL && view->aggregations != NULL, NULL);
  g_return_val_if_fail (width > 0 && height > 0, NULL);

  colors = pgs_palette_style (view->style);
  pixels = g_new (guint32, (gsize) width * height);
  for (gsize i = 0; i < (gsize) width * height; i++)
    pixels[i] = colors->background;
  n = view->aggregations->len;
  spans = pgs_render_access_spans (view->aggregations);
  total = covered (spans);
  if (n == 0 || total == 0)
    return pixels;
  max = max_accesses (view);

  /* Per row the hottest nr_accesses of an aggregation's regions in it, -1 for none. */
  hottest = g_new (gint64, height);
  for (guint i = 0; i < n; i++)
    {
      const PgsDamonAggregation *a = g_ptr_array_index (view->aggregations, i);
      int x0 = (int) ((guint64) i * width / n), x1 = (int) ((guint64) (i + 1) * width / n);

      for (int y = 0; y < height; y++)
        hottest[y] = -1;
      for (guint j = 0; j < a->regions->len; j++)
        {
          const PgsDamonRegion *r = &g_array_index (a->regions, PgsDamonRegion, j);
          int y0, y1;

          rows_of (spans, total, height, r->start, r->end, &y0, &y1);
          for (int y = y0; y < y1; y++)
            hottest[y] = MAX (hottest[y], (gint64) r->nr_accesses);
        }
      for (int y = 0; y < height; y++)
        if (hottest[y] >= 0)
          {
            guint32 c = pgs_palette_heat_for_style (view->style, (double) hottest[y] / max);

            for (int x = x0; x < MAX (x1, x0 + 1) && x < width; x++)
              pixels[(gsize) y * width + x] = c;
          }
    }
  /* A fold: a line where the axis skips addresses no region covers. */
  for (guint s = 1; s < spans->len; s++)
    {
      int y = (int) ((double) folded_offset (spans, g_array_index (spans, PgsDamonRange, s).start)
                     * height / total);

      if (y > 0 && y < height)
        for (int x = 0; x < width; x++)
          pixels[(gsize) y * width + x] = colors->grid;
    }
  return pixels;
}

gboolean
pgs_render_access_hit (const PgsAccessView *view,
                       int                  width,
                       int                  height,
                       int                  x,
                       int                  y,
                       guint               *aggregation,
                       guint               *region)
{
  g_autoptr(GArray) spans = NULL;
  const PgsDamonAggregation *a;
  guint64 total, addr;
  guint n, lo, hi;

  g_return_val_if_fail (view != NULL && view->aggregations != NULL, FALSE);
  n = view->aggregations->len;
  if (n == 0 || x < 0 || y < 0 || x >= width || y >= height)
    return FALSE;
  spans = pgs_render_access_spans (view->aggregations);
  total = covered (spans);
  if (total == 0)
    return FALSE;
  /* The inverse of the drawing's column bands and rows. */
  for (lo = 0; lo < n; lo++)
    if (x < (int) ((guint64) (lo + 1) * width / n))
      break;
  a = g_ptr_array_index (view->aggregations, MIN (lo, n - 1));
  addr = unfold (spans, (guint64) ((double) y * total / height));
  lo = 0;
  hi = a->regions->len;
  while (lo < hi)
    {
      guint mid = (lo + hi) / 2;
      const PgsDamonRegion *r = &g_array_index (a->regions, PgsDamonRegion, mid);

      if (addr < r->start)
        hi = mid;
      else if (addr >= r->end)
        lo = mid + 1;
      else
        {
          if (aggregation)
            {
              for (guint i = 0; i < n; i++)
                if (g_ptr_array_index (view->aggregations, i) == a)
                  *aggregation = i;
            }
          if (region)
            *region = mid;
          return TRUE;
        }
    }
  return FALSE;
}

static void
set_color (cairo_t *cr,
           guint32  argb)
{
  cairo_set_source_rgb (cr, ((argb >> 16) & 0xff) / 255.0, ((argb >> 8) & 0xff) / 255.0,
                        (argb & 0xff) / 255.0);
}

static GPtrArray *
legend_lines (const PgsAccessView *view)
{
  GPtrArray *lines = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GArray) spans = pgs_render_access_spans (view->aggregations);
  guint n = view->aggregations->len;

  if (n > 0)
    {
      const PgsDamonAggregation *first = g_ptr_array_index (view->aggregations, 0);
      const PgsDamonAggregation *last = g_ptr_array_index (view->aggregations, n - 1);

      g_ptr_array_add (lines, g_strdup_printf (
        _("Access heat from DAMON (kdamond PID %d): %u aggregations, %s s to %s s (left to right)"),
        first->pid, n, first->timestamp, last->timestamp));
    }
  else
    g_ptr_array_add (lines, g_strdup (_("Access heat from DAMON: no whole aggregation was read")));
  if (spans->len > 0)
    {
      g_autofree char *size = pgs_format_size (covered (spans));
      const PgsDamonRange *lo = &g_array_index (spans, PgsDamonRange, 0);
      const PgsDamonRange *hi = &g_array_index (spans, PgsDamonRange, spans->len - 1);

      g_ptr_array_add (lines, g_strdup_printf (
        _("Physical addresses %#" PRIx64 " (top) to %#" PRIx64 " (bottom), "
          "%s monitored; %u gap(s) folded (grey lines)"),
        lo->start, hi->end, size, spans->len - 1));
    }
  if (view->resolution != NULL)
    g_ptr_array_add (lines, g_strdup (view->resolution));
  g_ptr_array_add (lines, g_strdup (_("A region’s rate is the region’s, not each frame’s; a pixel "
                                      "shows the hottest region in it.")));
  return lines;
}

cairo_surface_t *
pgs_render_access_surface (const PgsAccessView *view,
                           int                  width,
                           int                  height,
                           gboolean             legend)
{
  const PgsStyleColors *colors = pgs_palette_style (view->style);
  g_autofree guint32 *pixels = pgs_render_access_pixels (view, width, height);
  g_autoptr(GPtrArray) lines = legend ? legend_lines (view) : NULL;
  g_autoptr(cairo_t) cr = NULL;
  cairo_surface_t *surface;
  double legend_h = legend ? PAD + lines->len * LINE + PAD + RAMP_H + LINE + LINE + PAD : 0;
  guint64 max = max_accesses (view);
  double ramp_w = MIN (width - 2 * PAD, 480.0);
  int stride;
  guchar *data;

  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height + (int) legend_h);
  cairo_surface_flush (surface);
  stride = cairo_image_surface_get_stride (surface);
  data = cairo_image_surface_get_data (surface);
  for (int y = 0; y < height; y++)
    memcpy (data + (gsize) y * stride, pixels + (gsize) y * width, (gsize) width * 4);
  cairo_surface_mark_dirty (surface);
  if (!legend)
    return surface;

  cr = cairo_create (surface);
  set_color (cr, colors->background);
  cairo_rectangle (cr, 0, height, width, legend_h);
  cairo_fill (cr);
  cairo_select_font_face (cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_font_size (cr, FONT_SIZE);
  set_color (cr, colors->text);
  for (guint i = 0; i < lines->len; i++)
    {
      cairo_move_to (cr, PAD, height + PAD + (i + 1) * LINE - 6);
      cairo_show_text (cr, g_ptr_array_index (lines, i));
    }

  /* The ramp: 0 to the most accesses an aggregation can count, with its units. */
  {
    double y0 = height + PAD + lines->len * LINE + PAD;
    int steps = (int) ramp_w;
    g_autofree char *units = NULL;

    for (int i = 0; i < steps; i++)
      {
        set_color (cr, pgs_palette_heat_for_style (view->style, (double) i / MAX (steps - 1, 1)));
        cairo_rectangle (cr, PAD + i, y0, 1.5, RAMP_H);
        cairo_fill (cr);
      }
    set_color (cr, colors->grid);
    cairo_set_line_width (cr, 1);
    cairo_rectangle (cr, PAD + 0.5, y0 + 0.5, steps - 1, RAMP_H - 1);
    cairo_stroke (cr);
    set_color (cr, colors->text);
    for (int t = 0; t <= 4; t++)
      {
        g_autofree char *label = NULL;
        cairo_text_extents_t ext;
        double v = (double) max * t / 4;
        double x = PAD + (steps - 1) * t / 4.0;

        label = view->aggr_seconds > 0
          ? g_strdup_printf ("%g (%.2g/s)", v, v / view->aggr_seconds)
          : g_strdup_printf ("%g", v);
        cairo_text_extents (cr, label, &ext);
        x = CLAMP (x - ext.x_advance / 2, PAD, width - PAD - ext.x_advance);
        cairo_move_to (cr, x, y0 + RAMP_H + LINE - 4);
        cairo_show_text (cr, label);
      }
    units = g_strdup_printf (_("Accesses per aggregation: sampling intervals in which the region "
                               "was accessed, of at most %" PRIu64
                               " (in brackets: per second)"), max);
    cairo_move_to (cr, PAD, y0 + RAMP_H + 2 * LINE - 4);
    cairo_show_text (cr, units);
  }
  cairo_surface_flush (surface);
  return surface;
}

gboolean
pgs_render_access_write_png (const PgsAccessView  *view,
                             const char           *path,
                             int                   width,
                             int                   height,
                             gboolean              legend,
                             GError              **error)
{
  g_autoptr(cairo_surface_t) surface = pgs_render_access_surface (view, width, height, legend);

  return pgs_file_replace_png (path, surface, error);
}
