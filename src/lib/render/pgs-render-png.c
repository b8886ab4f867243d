/* pgs-render-png.c: the map as a cairo surface or a PNG file, with its legend
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "pgs-category.h"
#include "pgs-file-png.h"
#include "pgs-format.h"
#include "pgs-palette.h"
#include "pgs-render-legend.h"
#include "pgs-render-private.h"
#include "pgs-snapshot.h"

G_DEFINE_AUTOPTR_CLEANUP_FUNC (cairo_surface_t, cairo_surface_destroy)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (cairo_t, cairo_destroy)

#define FONT_SIZE 13.0
#define LINE 20.0
#define PAD 12.0
#define SWATCH 12.0

/* The legend (and the residency band labels) at the map's scale: the sizes above suit the
 * default 1024 × 768 map, and a 4096 × 3072 export with 13 px text is unreadable once viewed
 * whole. Measured unscaled and drawn under cairo_scale(), so nothing can clip; metrics not
 * hinted, so text scales exactly with its measure. */
static double
legend_scale (int width,
              int height)
{
  return MAX (1.0, MIN (width / 1024.0, height / 768.0));
}

static void
set_font (cairo_t *cr,
          double   size)
{
  cairo_font_options_t *options = cairo_font_options_create ();

  cairo_font_options_set_hint_metrics (options, CAIRO_HINT_METRICS_OFF);
  cairo_set_font_options (cr, options);
  cairo_font_options_destroy (options);
  cairo_select_font_face (cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_font_size (cr, size);
}

static void
set_color (cairo_t *cr,
           guint32  argb)
{
  cairo_set_source_rgb (cr, ((argb >> 16) & 0xff) / 255.0, ((argb >> 8) & 0xff) / 255.0,
                        (argb & 0xff) / 255.0);
}

static double
text_width (cairo_t    *cr,
            const char *text)
{
  cairo_text_extents_t ext;

  cairo_text_extents (cr, text, &ext);
  return ext.x_advance;
}

/* 1234567 → "1,234,567": the legend must read the same in every locale's PNG. */
static char *
group_digits (guint64 value)
{
  g_autofree char *digits = g_strdup_printf ("%" G_GUINT64_FORMAT, value);
  GString *s = g_string_new (NULL);
  gsize len = strlen (digits);

  for (gsize i = 0; i < len; i++)
    {
      if (i > 0 && (len - i) % 3 == 0)
        g_string_append_c (s, ',');
      g_string_append_c (s, digits[i]);
    }
  return g_string_free (s, FALSE);
}

static guint
page_size (PgsRenderer *self)
{
  guint size = pgs_snapshot_get_page_size (self->snapshot);

  return size != 0 ? size : 4096;
}

static GPtrArray *
legend_lines (PgsRenderer *self,
              int          width,
              int          height)
{
  GPtrArray *lines = g_ptr_array_new_with_free_func (g_free);
  const char *unit = self->view == PGS_VIEW_RESIDENCY ? _("pages") : _("frames");
  guint64 total = 0, per;
  g_autofree char *total_s = NULL;
  g_autofree char *total_size = NULL;

  for (guint i = 0; i < self->n_classes; i++)
    {
      guint64 n;

      pgs_renderer_get_legend_item (self, i, NULL, NULL, &n);
      total += n;
    }
  total_s = group_digits (total);
  total_size = pgs_format_size (total * page_size (self));

  switch (self->view)
    {
    case PGS_VIEW_SHARING:
      g_ptr_array_add (lines, g_strdup (_("Sharing: map count of every page frame")));
      break;
    case PGS_VIEW_FLAGS:
      g_ptr_array_add (lines, g_strdup (_("Page flags: what each page frame is used for")));
      break;
    case PGS_VIEW_RESIDENCY:
    default:
      if (self->process != NULL)
        g_ptr_array_add (lines, g_strdup_printf (_("Residency of %s (PID %d)"),
                                                 pgs_process_get_name (self->process) ?: "?",
                                                 pgs_process_get_pid (self->process)));
      else
        g_ptr_array_add (lines, g_strdup (_("Residency: no process")));
      break;
    }
  g_ptr_array_add (lines, g_strdup_printf (_("%s %s (%s), %s"), total_s, unit, total_size,
                                           self->layout == PGS_LAYOUT_HILBERT
                                           ? _("Hilbert layout") : _("in rows")));
  per = pgs_renderer_get_pages_per_pixel (self, width, height);
  if (per > 1)
    {
      g_autofree char *per_size = pgs_format_size (per * page_size (self));
      g_autofree char *per_count = g_strdup_printf ("%" G_GUINT64_FORMAT, per);

      /* Translators: the scale, e.g. "1 pixel = 16 frames (64.0 KiB)"; the number is
       * formatted first so that no 64-bit format macro sits inside the message. */
      g_ptr_array_add (lines, g_strdup_printf (_("1 pixel = %s %s (%s)"),
                                               per_count, unit, per_size));
    }
  else
    g_ptr_array_add (lines, g_strdup_printf (_("1 pixel or more per page (page = %u bytes)"),
                                             page_size (self)));
  return lines;
}

/* With free memory hidden, what the legend says of it (as on screen); NULL otherwise. */
static char *
hidden_note (PgsRenderer *self)
{
  guint n;
  g_autofree char *size = NULL;
  g_autofree char *runs = NULL;

  if (!self->hide_free || (n = pgs_renderer_get_n_folds (self)) == 0)
    return NULL;
  size = pgs_format_size (pgs_renderer_get_hidden_frames (self) * page_size (self));
  runs = group_digits (n);
  /* Translators: the legend, with "Hide free memory" on: "12.3 GiB of free memory is
   * hidden, in 7 runs marked in magenta; the counts above include it." */
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                       "%s of free memory is hidden, in %s run marked in "
                                       "magenta; the counts above include it.",
                                       "%s of free memory is hidden, in %s runs marked in "
                                       "magenta; the counts above include it.", n),
                          size, runs);
}

/* Where free memory was folded out, a bar as on screen (pgs-map-folds.c): magenta, edged
 * in black and white, 3 pixels wide at legend scale @k. */
static void
draw_folds (PgsRenderer *self,
            cairo_t     *cr,
            int          width,
            int          height,
            double       map_x,
            double       map_y,
            double       k)
{
  guint n = self->hide_free ? pgs_renderer_get_n_folds (self) : 0;
  double w = 3 * k;

  for (guint i = 0; i < n; i++)
    {
      double x, y, h;

      if (!pgs_renderer_get_fold (self, width, height, i, NULL, NULL, &x, &y, &h))
        continue;
      h = MAX (h, 4 * k);
      if (x < 0 || x > width || y + h <= 0 || y >= height)
        continue;
      x += map_x - w / 2;
      y += map_y;
      cairo_set_source_rgb (cr, 1, 1, 1);
      cairo_rectangle (cr, x - 1, y, w + 2, h);
      cairo_fill (cr);
      cairo_set_source_rgb (cr, 0, 0, 0);
      cairo_rectangle (cr, x - 0.5, y, w + 1, h);
      cairo_fill (cr);
      cairo_set_source_rgb (cr, 1, 0, 1);
      cairo_rectangle (cr, x, y, w, h);
      cairo_fill (cr);
    }
}

/* Residency, Hilbert: each mapping's label in the largest square of its cells, where it
 * fits, as on screen (pgs-map-labels.c): white on a dark patch at the square's top left,
 * elided at the front. The font is set already. */
static void
draw_squares (PgsRenderer *self,
              cairo_t     *cr,
              int          width,
              int          height,
              double       map_x,
              double       map_y,
              double       k)
{
  guint n = self->view == PGS_VIEW_RESIDENCY && self->layout == PGS_LAYOUT_HILBERT
            ? pgs_renderer_get_n_bands (self) : 0;
  cairo_font_extents_t fe;

  cairo_font_extents (cr, &fe);
  for (guint i = 0; i < n; i++)
    {
      const char *label = NULL;
      g_autofree char *shown = NULL;
      double x, y, side, tw;

      if (!pgs_renderer_get_band_square (self, width, height, i, &x, &y, &side, &label) ||
          label == NULL || side < fe.height + 4 * k ||
          x < 0 || y < 0 || x + side > width || y + side > height)
        continue;
      shown = g_strdup (label);
      while ((tw = text_width (cr, shown)) > side - 6 * k && g_utf8_strlen (shown, -1) > 2)
        {
          g_autofree char *rest = g_strdup (g_utf8_next_char (g_utf8_next_char (shown)));

          g_free (shown);
          shown = g_strconcat ("…", rest, NULL);
        }
      /* A name cut to a few letters says nothing: ten at least, or all of a short one. */
      if (tw > side - 6 * k || g_utf8_strlen (shown, -1) < MIN (11, g_utf8_strlen (label, -1)))
        continue;
      cairo_set_source_rgba (cr, 0, 0, 0, 0.55);
      cairo_rectangle (cr, map_x + x + k, map_y + y + k, tw + 6 * k, fe.height + 2 * k);
      cairo_fill (cr);
      cairo_set_source_rgb (cr, 1, 1, 1);
      cairo_move_to (cr, map_x + x + 4 * k, map_y + y + 2 * k + fe.ascent);
      cairo_show_text (cr, shown);
    }
}

/* Splits @text into lines no wider than @max_width. */
static GPtrArray *
wrap (cairo_t    *cr,
      const char *text,
      double      max_width)
{
  GPtrArray *out = g_ptr_array_new_with_free_func (g_free);
  g_auto(GStrv) words = g_strsplit (text, " ", -1);
  GString *line = g_string_new (NULL);

  for (guint i = 0; words[i] != NULL; i++)
    {
      gsize old = line->len;

      if (line->len > 0)
        g_string_append_c (line, ' ');
      g_string_append (line, words[i]);
      if (old > 0 && text_width (cr, line->str) > max_width)
        {
          g_string_truncate (line, old);
          g_ptr_array_add (out, g_strdup (line->str));
          g_string_assign (line, words[i]);
        }
    }
  if (line->len > 0)
    g_ptr_array_add (out, g_strdup (line->str));
  g_string_free (line, TRUE);
  return out;
}

/* Residency, rows: a run of consecutive bands of one file (a library's text, its data…)
 * and where it lies on a @width x @height map, in pixels. */
typedef struct
{
  guint       first, end;
  double      top, bottom;
  const char *label;
} Span;

/* The runs of bands, each with its label where a line of text fits beside it at legend
 * scale @k, as on screen: a run too thin for its label goes unlabelled rather than lend
 * the label to the band beside it. */
static GArray *
band_spans (PgsRenderer *self,
            int          width,
            int          height,
            double       k)
{
  GArray *spans = g_array_new (FALSE, FALSE, sizeof (Span));
  guint n_bands = pgs_renderer_get_n_bands (self);

  for (guint b = 0, end; b < n_bands; b = end)
    {
      Span span = { b, b, G_MAXDOUBLE, -G_MAXDOUBLE, g_array_index (self->bands, Band, b).label };

      for (end = b; end < n_bands && g_strcmp0 (g_array_index (self->bands, Band, end).label,
                                                 span.label) == 0; end++)
        {
          double by, bh;

          if (!pgs_renderer_get_band (self, width, height, end, &by, &bh, NULL))
            continue;
          span.top = MIN (span.top, by);
          span.bottom = MAX (span.bottom, by + bh);
        }
      span.end = end;
      if (span.bottom - span.top < (FONT_SIZE + 4) * k)
        span.label = NULL;
      g_array_append_val (spans, span);
    }
  return spans;
}

cairo_surface_t *
pgs_renderer_render_surface (PgsRenderer *self,
                             int          width,
                             int          height,
                             gboolean     legend)
{
  cairo_surface_t *surface;
  g_autoptr(cairo_surface_t) measure_surface = NULL;
  g_autoptr(cairo_t) mcr = NULL;
  g_autoptr(cairo_t) cr = NULL;
  g_autoptr(GPtrArray) header = NULL;
  g_autoptr(GPtrArray) rule = NULL;
  g_autoptr(GPtrArray) items = NULL;
  g_autoptr(GPtrArray) counters = NULL;
  g_autofree char *highlight = NULL;
  g_autofree char *hidden = NULL;
  const PgsStyleColors *style = pgs_palette_style (self->style);
  gboolean marked = FALSE;
  double label_w = 0, legend_w = 0, legend_h, map_x, map_y, total_w, total_h;
  double k = legend_scale (width, height);
  g_autoptr(GArray) spans = NULL;

  g_return_val_if_fail (PGS_IS_RENDERER (self), NULL);
  g_return_val_if_fail (width > 0 && height > 0, NULL);

  if (!legend)
    {
      surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height);
      cairo_surface_flush (surface);
      pgs_renderer_render (self, cairo_image_surface_get_data (surface), width, height,
                           cairo_image_surface_get_stride (surface));
      cairo_surface_mark_dirty (surface);
      return surface;
    }

  pgs_render_prepare (self);

  /* Measure every string first, then size the surface so that none is clipped. */
  measure_surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1, 1);
  mcr = cairo_create (measure_surface);
  set_font (mcr, FONT_SIZE);

  header = legend_lines (self, width, height);
  highlight = pgs_renderer_describe_highlight (self, &marked);
  hidden = hidden_note (self);
  items = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < self->n_classes; i++)
    {
      const char *label;
      guint64 n;
      g_autofree char *count = NULL;
      g_autofree char *size = NULL;

      if (self->view == PGS_VIEW_RESIDENCY && i == PGS_RES_NONE)
        {
          g_ptr_array_add (items, NULL);
          continue;
        }
      pgs_renderer_get_legend_item (self, i, NULL, &label, &n);
      count = group_digits (n);
      size = pgs_format_size (n * page_size (self));
      g_ptr_array_add (items, g_strdup_printf ("%s: %s (%s)", label, count, size));
    }
  for (guint i = 0; i < header->len; i++)
    legend_w = MAX (legend_w, text_width (mcr, g_ptr_array_index (header, i)));
  if (highlight != NULL)
    legend_w = MAX (legend_w, SWATCH + 8 + text_width (mcr, highlight));
  for (guint i = 0; i < items->len; i++)
    if (g_ptr_array_index (items, i) != NULL)
      legend_w = MAX (legend_w, SWATCH + 8 + text_width (mcr, g_ptr_array_index (items, i)));
  legend_w = MAX (legend_w, 280);
  rule = wrap (mcr, pgs_renderer_get_aggregation_rule (self), legend_w);
  if (hidden != NULL)
    {
      g_autoptr(GPtrArray) more = wrap (mcr, hidden, legend_w);

      g_ptr_array_add (rule, g_strdup (""));
      for (guint i = 0; i < more->len; i++)
        g_ptr_array_add (rule, g_strdup (g_ptr_array_index (more, i)));
    }
  counters = pgs_render_legend_counters (self, mcr, &legend_w);
  legend_h = PAD + LINE * (header->len + (highlight != NULL) + 0.5 + items->len + 0.5 + rule->len) + PAD
             + (counters->len > 0 ? LINE * (counters->len + 0.5) : 0);
  legend_h *= k;

  if (self->view == PGS_VIEW_RESIDENCY && self->layout == PGS_LAYOUT_LINEAR)
    {
      spans = band_spans (self, width, height, k);
      for (guint i = 0; i < spans->len; i++)
        {
          const char *label = g_array_index (spans, Span, i).label;

          if (label != NULL)
            label_w = MAX (label_w, text_width (mcr, label));
        }
      label_w = (MIN (label_w, 260) + PAD) * k;
    }

  map_x = PAD + label_w;
  map_y = PAD;
  total_w = ceil (map_x + width + (PAD + legend_w + PAD) * k);
  total_h = ceil (MAX (height + 2 * PAD, legend_h));

  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, (int) total_w, (int) total_h);
  cr = cairo_create (surface);
  set_color (cr, style->background);
  cairo_paint (cr);

  /* The map, rendered straight into the surface's memory. */
  cairo_surface_flush (surface);
  pgs_renderer_render (self,
                       cairo_image_surface_get_data (surface)
                       + (gsize) map_y * cairo_image_surface_get_stride (surface)
                       + (gsize) map_x * 4,
                       width, height, cairo_image_surface_get_stride (surface));
  cairo_surface_mark_dirty (surface);
  draw_folds (self, cr, width, height, map_x, map_y, k);

  set_font (cr, FONT_SIZE * k);
  draw_squares (self, cr, width, height, map_x, map_y, k);

  /* Band labels, each beside its own run of bands; elided at the front when long. */
  for (guint i = 0; spans != NULL && i < spans->len; i++)
    {
      const Span *span = &g_array_index (spans, Span, i);
      g_autofree char *shown = NULL;
      double ty;

      /* A tick at the start of each band, so bands are told apart even unlabelled. */
      for (guint b = span->first; b < span->end; b++)
        {
          double by, bh;

          if (!pgs_renderer_get_band (self, width, height, b, &by, &bh, NULL))
            continue;
          set_color (cr, style->grid);
          cairo_rectangle (cr, map_x - 5, map_y + by, 4, MAX (1, floor (bh) - 1));
          cairo_fill (cr);
        }
      if (span->label == NULL)
        continue;
      /* The line's ink (ascent 0.93, descent 0.24 of the size) centred in the run's first
       * line's height. */
      ty = map_y + span->top + MIN (span->bottom - span->top, LINE * k) / 2 + 0.35 * FONT_SIZE * k;
      shown = g_strdup (span->label);
      while (text_width (cr, shown) > label_w - PAD * k && g_utf8_strlen (shown, -1) > 2)
        {
          g_autofree char *rest = g_strdup (g_utf8_next_char (g_utf8_next_char (shown)));

          g_free (shown);
          shown = g_strconcat ("…", rest, NULL);
        }
      set_color (cr, style->text);
      cairo_move_to (cr, map_x - 8 - text_width (cr, shown), ty);
      cairo_show_text (cr, shown);
    }

  {
    double lx = PAD, ly = PAD + FONT_SIZE;

    cairo_save (cr);
    cairo_translate (cr, map_x + width, 0);
    cairo_scale (cr, k, k);
    set_font (cr, FONT_SIZE);
    set_color (cr, style->text);
    for (guint i = 0; i < header->len; i++, ly += LINE)
      {
        cairo_move_to (cr, lx, ly);
        cairo_show_text (cr, g_ptr_array_index (header, i));
      }
    if (highlight != NULL)
      {
        /* The highlight's swatch: filled, or a ring round the background, as on the map. */
        if (marked)
          {
            set_color (cr, style->highlight);
            if (self->highlight_mode == PGS_HIGHLIGHT_OVERLAY)
              {
                cairo_rectangle (cr, lx, ly - SWATCH + 1, SWATCH, SWATCH);
                cairo_fill (cr);
              }
            else
              {
                cairo_set_line_width (cr, 2);
                cairo_rectangle (cr, lx + 1, ly - SWATCH + 2, SWATCH - 2, SWATCH - 2);
                cairo_stroke (cr);
              }
          }
        set_color (cr, style->text);
        cairo_move_to (cr, lx + SWATCH + 8, ly);
        cairo_show_text (cr, highlight);
        ly += LINE;
      }
    ly += LINE / 2;
    for (guint i = 0; i < items->len; i++)
      {
        guint32 argb;

        if (g_ptr_array_index (items, i) == NULL)
          continue;
        pgs_renderer_get_legend_item (self, i, &argb, NULL, NULL);
        set_color (cr, argb);
        cairo_rectangle (cr, lx + 0.5, ly - SWATCH + 1.5, SWATCH - 1, SWATCH - 1);
        cairo_fill_preserve (cr);
        /* An outline keeps a swatch apart from the background. */
        set_color (cr, style->grid);
        cairo_set_line_width (cr, 1);
        cairo_stroke (cr);
        set_color (cr, style->text);
        cairo_move_to (cr, lx + SWATCH + 8, ly);
        cairo_show_text (cr, g_ptr_array_index (items, i));
        ly += LINE;
      }
    ly += counters->len > 0 ? LINE / 2 : 0;
    for (guint i = 0; i < counters->len; i++, ly += LINE)
      {
        cairo_move_to (cr, lx, ly);
        cairo_show_text (cr, g_ptr_array_index (counters, i));
      }
    ly += LINE / 2;
    set_color (cr, style->text_dim);
    for (guint i = 0; i < rule->len; i++, ly += LINE)
      {
        cairo_move_to (cr, lx, ly);
        cairo_show_text (cr, g_ptr_array_index (rule, i));
      }
    cairo_restore (cr);
  }

  cairo_surface_flush (surface);
  return surface;
}

gboolean
pgs_renderer_write_png (PgsRenderer  *self,
                        const char   *path,
                        int           width,
                        int           height,
                        gboolean      legend,
                        GError      **error)
{
  g_autoptr(cairo_surface_t) surface = NULL;

  g_return_val_if_fail (PGS_IS_RENDERER (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (width <= 0 || height <= 0 || width > 32767 || height > 32767)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("Image size %d × %d is out of range"), width, height);
      return FALSE;
    }

  surface = pgs_renderer_render_surface (self, width, height, legend);
  return pgs_file_replace_png (path, surface, error);
}
