/* pgs-timeline-draw.c: the timeline strip's picture, for the screen and for a PNG
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Drawn with cairo and Pango from a PgsTimelineScene, so the widget and the exported file
 * are the same picture and the hit test reads the same geometry. The memory is stacked by
 * kind, bottom to top; the PSS line has its own axis on the right.
 */

#include "config.h"

#include <math.h>

#include <glib/gi18n.h>

#include "pgs-timeline-draw.h"

#define PAD  6.0
#define TICK 5.0

/* Okabe & Ito's colour-blind-safe palette, bottom band to top; free memory in its grey. */
static const struct
{
  const char *name;
  const char *tooltip;
  double      r, g, b, a;
} kinds[PGS_TIMELINE_N_KINDS] = {
  [PGS_TIMELINE_ANON] = { N_("Anonymous"), N_("AnonPages: applications’ own memory"),
                          0x00 / 255., 0x72 / 255., 0xb2 / 255., 0.9 },
  [PGS_TIMELINE_MAPPED] = { N_("Mapped files"), N_("Mapped: file pages processes map"),
                            0x56 / 255., 0xb4 / 255., 0xe9 / 255., 0.9 },
  [PGS_TIMELINE_SHMEM] = { N_("Shmem"), N_("Shmem: shared memory and tmpfs"),
                           0xcc / 255., 0x79 / 255., 0xa7 / 255., 0.9 },
  [PGS_TIMELINE_CACHE] = { N_("Cache"), N_("Cached − Mapped − Shmem: cache no process maps"),
                           0x00 / 255., 0x9e / 255., 0x73 / 255., 0.9 },
  [PGS_TIMELINE_KERNEL] = { N_("Kernel"), N_("Slab + KernelStack + PageTables"),
                            0xe6 / 255., 0x9f / 255., 0x00 / 255., 0.9 },
  [PGS_TIMELINE_ZRAM] = { N_("zram"), N_("mem_used_total of every zram device: compressed swap in RAM"),
                          0xf0 / 255., 0xe4 / 255., 0x42 / 255., 0.9 },
  [PGS_TIMELINE_FREE] = { N_("Free"), N_("MemFree"),
                          0x99 / 255., 0x99 / 255., 0x99 / 255., 0.45 },
};

/* Vermillion, the palette's colour left for the line. */
#define PSS_R (0xd5 / 255.)
#define PSS_G (0x5e / 255.)
#define PSS_B (0x00 / 255.)

/* Geometry */

typedef struct
{
  double left, right, top, bottom;
} Plot;

static PangoLayout *
make_layout (const PgsTimelineScene *self,
             const char             *text)
{
  PangoLayout *layout = pango_layout_new (self->context);
  PangoAttrList *attrs = pango_attr_list_new ();

  pango_layout_set_text (layout, text, -1);
  pango_attr_list_insert (attrs, pango_attr_scale_new (0.8));
  pango_attr_list_insert (attrs, pango_attr_font_features_new ("tnum=1"));
  pango_layout_set_attributes (layout, attrs);
  pango_attr_list_unref (attrs);
  return layout;
}

static char *
format_size (guint64 bytes)
{
  return bytes == 0 ? g_strdup ("0") : g_format_size_full (bytes, G_FORMAT_SIZE_IEC_UNITS);
}

/* The smallest of 1, 2, 4, 8… × 2^(10k) not below @bytes, as the working-set chart's. */
static guint64
round_axis (guint64 bytes)
{
  guint64 top = 1024;

  while (top < bytes && top < G_MAXUINT64 / 2)
    top *= 2;
  return top;
}

static guint64
memory_axis (const PgsTimelineScene *self)
{
  return self->data != NULL && self->data->top > 0 ? self->data->top : 1024;
}

static gboolean
has_pss (const PgsTimelineScene *self)
{
  return self->data != NULL && self->data->pss != NULL && self->data->pss_top > 0;
}

/* The plot inside the labels: the legend above, the memory axis to the left, the PSS axis
 * to the right, times under it. The sizes of the labels' text, not of their values, so a
 * press maps to the same sample whatever is drawn. */
gboolean
pgs_timeline_scene_get_plot (const PgsTimelineScene *self,
                             PgsTimelinePlot        *plot)
{
  int width = self->width;
  int height = self->height;
  g_autoptr(PangoLayout) sample = make_layout (self, "888.8 MiB");
  PangoRectangle rect;

  pango_layout_get_pixel_extents (sample, NULL, &rect);
  if (self->compact)
    {
      g_autoptr(PangoLayout) clock = make_layout (self, "88:88:88");

      /* The times left and right of the plot; room above it for the cursor's head. */
      pango_layout_get_pixel_extents (clock, NULL, &rect);
      plot->left = PAD + rect.width + 6;
      plot->right = width - PAD - rect.width - 6;
      plot->top = 7;
      plot->bottom = height - TICK - 2;
      return self->recording != NULL && plot->right - plot->left > 20 && plot->bottom > plot->top;
    }
  plot->left = PAD + rect.width + 6;
  plot->right = width - PAD - rect.width - 6;
  plot->top = PAD + rect.height + 6;
  plot->bottom = height - PAD - rect.height - TICK - 2;
  return self->recording != NULL && plot->right - plot->left > 20 && plot->bottom - plot->top > 20;
}

static double
x_of_time (const PgsTimelineScene *self,
           const PgsTimelinePlot  *plot,
           gint64                  time)
{
  gint64 t0 = pgs_recording_get_start_time (self->recording);
  gint64 t1 = pgs_recording_get_end_time (self->recording);

  if (t1 <= t0)
    return (plot->left + plot->right) / 2;
  return plot->left + (plot->right - plot->left) * (double) (time - t0) / (double) (t1 - t0);
}

gboolean
pgs_timeline_scene_get_sample_x (const PgsTimelineScene *self,
                                 guint                   sample,
                                 double                 *x)
{
  PgsTimelinePlot plot;

  if (!pgs_timeline_scene_get_plot (self, &plot) || sample >= pgs_recording_get_n_samples (self->recording))
    return FALSE;
  *x = x_of_time (self, &plot, pgs_recording_get_sample_time (self->recording, sample));
  return TRUE;
}

guint
pgs_timeline_scene_get_sample_at (const PgsTimelineScene *self,
                                  double                  x)
{
  gint64 t0, t1;
  PgsTimelinePlot plot;
  double f;

  if (!pgs_timeline_scene_get_plot (self, &plot))
    return G_MAXUINT;
  t0 = pgs_recording_get_start_time (self->recording);
  t1 = pgs_recording_get_end_time (self->recording);
  f = CLAMP ((x - plot.left) / (plot.right - plot.left), 0.0, 1.0);
  return pgs_recording_find_sample (self->recording, t0 + (gint64) round (f * (double) (t1 - t0)));
}

/* Drawing */

static void
show_text (cairo_t     *cr,
           PangoLayout *layout,
           double       x,
           double       y)
{
  cairo_move_to (cr, x, y);
  pango_cairo_show_layout (cr, layout);
}

/* "10:04:07" in the recording's time zone, "+67 s" after the start. */
static char *
format_clock (const PgsTimelineScene *self,
              gint64                  time,
              gboolean                offset)
{
  g_autoptr(GDateTime) utc = g_date_time_new_from_unix_utc (time / G_USEC_PER_SEC);
  g_autoptr(GDateTime) local = NULL;
  g_autofree char *clock = NULL;
  gint64 since = (time - pgs_recording_get_start_time (self->recording)) / G_USEC_PER_SEC;

  if (utc == NULL)
    return g_strdup ("?");
  local = g_date_time_to_timezone (utc, pgs_recording_get_time_zone (self->recording));
  clock = g_date_time_format (local, "%H:%M:%S");
  if (!offset)
    return g_steal_pointer (&clock);
  return g_strdup_printf ("%s (+%" G_GINT64_FORMAT " s)", clock, since);
}

/* One kind's band: each run of samples that have it, as one polygon between the bands
 * below it and its own top; a sample without it breaks the run (a gap, not a zero). A
 * sample alone is drawn as wide as the room to its neighbours, so it is seen. */
static void
draw_band (const PgsTimelineScene *self,
           cairo_t                *cr,
           const PgsTimelinePlot  *plot,
           guint                   kind,
           guint64                 axis)
{
  const PgsTimelineData *d = self->data;
  guint n = d->n_samples;
  double scale = (plot->bottom - plot->top) / (double) axis;
  g_autofree double *xs = g_new (double, n);
  g_autofree double *base = g_new (double, n);

  for (guint i = 0; i < n; i++)
    {
      guint64 below = 0;

      xs[i] = x_of_time (self, plot, d->times[i]);
      for (guint k = 0; k < kind; k++)
        if (d->values[(gsize) i * PGS_TIMELINE_N_KINDS + k] != PGS_SAMPLE_ABSENT)
          below += d->values[(gsize) i * PGS_TIMELINE_N_KINDS + k];
      base[i] = plot->bottom - below * scale;
    }

  cairo_set_source_rgba (cr, kinds[kind].r, kinds[kind].g, kinds[kind].b, kinds[kind].a);
  for (guint a = 0; a < n;)
    {
      guint b;
      double from, to;

      if (pgs_timeline_data_get (d, a, kind) == PGS_SAMPLE_ABSENT)
        {
          a++;
          continue;
        }
      for (b = a; b + 1 < n && pgs_timeline_data_get (d, b + 1, kind) != PGS_SAMPLE_ABSENT &&
                  !pgs_timeline_data_gap_after (d, b); b++)
        ;
      /* The run's edges: the plot's ends, halfway to the sample missing it, or half a step
       * into a gap in time. */
      from = a == 0 ? plot->left
             : pgs_timeline_data_gap_after (d, a - 1) ? x_of_time (self, plot, d->times[a] - d->step / 2)
             : (xs[a - 1] + xs[a]) / 2;
      to = b == n - 1 ? plot->right
           : pgs_timeline_data_gap_after (d, b) ? x_of_time (self, plot, d->times[b] + d->step / 2)
           : (xs[b] + xs[b + 1]) / 2;
      if (a == b && n == 1)
        from = plot->left, to = plot->right;
      cairo_move_to (cr, from, base[a] - pgs_timeline_data_get (d, a, kind) * scale);
      for (guint i = a; i <= b; i++)
        cairo_line_to (cr, xs[i], base[i] - pgs_timeline_data_get (d, i, kind) * scale);
      cairo_line_to (cr, to, base[b] - pgs_timeline_data_get (d, b, kind) * scale);
      cairo_line_to (cr, to, base[b]);
      for (guint i = b + 1; i-- > a;)
        cairo_line_to (cr, xs[i], base[i]);
      cairo_line_to (cr, from, base[a]);
      cairo_close_path (cr);
      a = b + 1;
    }
  cairo_fill (cr);
}

static void
draw_pss (const PgsTimelineScene *self,
          cairo_t                *cr,
          const PgsTimelinePlot  *plot,
          guint64                 axis)
{
  const PgsTimelineData *d = self->data;
  double scale = (plot->bottom - plot->top) / (double) axis;
  gboolean drawing = FALSE;

  for (guint i = 0; i < d->n_samples; i++)
    {
      double x = x_of_time (self, plot, d->times[i]);

      if (d->pss[i] == PGS_SAMPLE_ABSENT)
        {
          drawing = FALSE;
          continue;
        }
      if (!drawing)
        cairo_move_to (cr, d->n_samples == 1 ? plot->left : x, plot->bottom - d->pss[i] * scale);
      cairo_line_to (cr, d->n_samples == 1 ? plot->right : x, plot->bottom - d->pss[i] * scale);
      /* No line across a gap in time. */
      drawing = !pgs_timeline_data_gap_after (d, i);
    }
  /* A light edge under the line keeps it readable over every band. */
  cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);
  cairo_set_line_width (cr, 4);
  cairo_set_source_rgba (cr, 1, 1, 1, 0.7);
  cairo_stroke_preserve (cr);
  cairo_set_line_width (cr, 2);
  cairo_set_source_rgb (cr, PSS_R, PSS_G, PSS_B);
  cairo_stroke (cr);
}

/* Swatches and names along the top; the entries that do not fit are left out. */
static void
draw_legend (const PgsTimelineScene *self,
             cairo_t                *cr,
             const PgsTimelinePlot  *plot,
             const GdkRGBA          *fg,
             guint64                 pss_axis)
{
  double x = plot->left;
  double right = self->width - PAD;

  for (guint k = 0; k <= PGS_TIMELINE_N_KINDS; k++)
    {
      g_autofree char *text = NULL;
      g_autoptr(PangoLayout) layout = NULL;
      PangoRectangle rect;
      double h;

      if (k == PGS_TIMELINE_N_KINDS)
        {
          g_autofree char *top = NULL;

          if (!has_pss (self))
            break;
          top = format_size (pss_axis);
          /* Translators: the legend of the line: a process's PSS, on the right-hand axis */
          text = g_strdup_printf (_("PSS of %s (right axis, 0–%s)"), self->process_name, top);
        }
      else
        text = g_strdup (_(kinds[k].name));
      layout = make_layout (self, text);
      pango_layout_get_pixel_extents (layout, NULL, &rect);
      h = rect.height;
      if (x + h + 4 + rect.width > right)
        break;
      if (k == PGS_TIMELINE_N_KINDS)
        {
          cairo_set_source_rgb (cr, PSS_R, PSS_G, PSS_B);
          cairo_rectangle (cr, x, PAD + h / 2 - 1.5, h, 3);
        }
      else
        {
          cairo_set_source_rgba (cr, kinds[k].r, kinds[k].g, kinds[k].b, kinds[k].a);
          cairo_rectangle (cr, x + 2, PAD + 2, h - 4, h - 4);
        }
      cairo_fill (cr);
      gdk_cairo_set_source_rgba (cr, fg);
      show_text (cr, layout, x + h + 4, PAD);
      x += h + 4 + rect.width + 14;
    }
}

static void
draw_axes (const PgsTimelineScene *self,
           cairo_t                *cr,
           const PgsTimelinePlot  *plot,
           const GdkRGBA          *fg,
           guint64                 axis,
           guint64                 pss_axis)
{
  g_autofree char *top_text = format_size (axis);
  g_autofree char *mid_text = format_size (axis / 2);
  g_autofree char *start_text = NULL;
  g_autofree char *end_text = NULL;
  g_autoptr(PangoLayout) top = make_layout (self, top_text);
  g_autoptr(PangoLayout) mid = make_layout (self, mid_text);
  g_autoptr(PangoLayout) zero = make_layout (self, "0");
  g_autoptr(PangoLayout) start = NULL;
  g_autoptr(PangoLayout) end = NULL;
  PangoRectangle r;
  double mid_y = (plot->top + plot->bottom) / 2;

  if (self->compact)
    {
      /* Only the times, beside the plot: its figures are in the tooltip. */
      gdk_cairo_set_source_rgba (cr, fg);
      start_text = format_clock (self, pgs_recording_get_start_time (self->recording), FALSE);
      end_text = format_clock (self, pgs_recording_get_end_time (self->recording), FALSE);
      start = make_layout (self, start_text);
      end = make_layout (self, end_text);
      pango_layout_get_pixel_extents (start, NULL, &r);
      show_text (cr, start, plot->left - 6 - r.width, mid_y - r.height / 2.0);
      if (pgs_recording_get_n_samples (self->recording) > 1)
        show_text (cr, end, plot->right + 6, mid_y - r.height / 2.0);
      return;
    }

  /* The memory axis, right-aligned against the plot. */
  gdk_cairo_set_source_rgba (cr, fg);
  pango_layout_get_pixel_extents (top, NULL, &r);
  show_text (cr, top, plot->left - 6 - r.width, plot->top - r.height / 2.0);
  pango_layout_get_pixel_extents (mid, NULL, &r);
  show_text (cr, mid, plot->left - 6 - r.width, mid_y - r.height / 2.0);
  pango_layout_get_pixel_extents (zero, NULL, &r);
  show_text (cr, zero, plot->left - 6 - r.width, plot->bottom - r.height / 2.0);

  /* The PSS axis, in the line's colour. */
  if (has_pss (self))
    {
      g_autofree char *pss_text = format_size (pss_axis);
      g_autoptr(PangoLayout) pss = make_layout (self, pss_text);
      g_autoptr(PangoLayout) pss_zero = make_layout (self, "0");

      cairo_set_source_rgb (cr, PSS_R, PSS_G, PSS_B);
      pango_layout_get_pixel_extents (pss, NULL, &r);
      show_text (cr, pss, plot->right + 6, plot->top - r.height / 2.0);
      pango_layout_get_pixel_extents (pss_zero, NULL, &r);
      show_text (cr, pss_zero, plot->right + 6, plot->bottom - r.height / 2.0);
    }

  /* Clock times at both ends, the end with its offset from the start. */
  gdk_cairo_set_source_rgba (cr, fg);
  start_text = format_clock (self, pgs_recording_get_start_time (self->recording), FALSE);
  end_text = format_clock (self, pgs_recording_get_end_time (self->recording), TRUE);
  start = make_layout (self, start_text);
  end = make_layout (self, end_text);
  show_text (cr, start, plot->left, plot->bottom + TICK + 2);
  pango_layout_get_pixel_extents (end, NULL, &r);
  if (pgs_recording_get_n_samples (self->recording) > 1)
    show_text (cr, end, plot->right - r.width, plot->bottom + TICK + 2);

  /* Grid: the top, the half, the floor. */
  cairo_set_line_width (cr, 1);
  cairo_set_source_rgba (cr, fg->red, fg->green, fg->blue, fg->alpha * 0.2);
  for (int i = 0; i <= 2; i++)
    {
      double y = round (plot->top + (plot->bottom - plot->top) * i / 2.0) + 0.5;

      cairo_move_to (cr, plot->left, y);
      cairo_line_to (cr, plot->right, y);
    }
  cairo_stroke (cr);
}

static void
draw_marks (const PgsTimelineScene *self,
            cairo_t                *cr,
            const PgsTimelinePlot  *plot,
            const GdkRGBA          *fg)
{
  guint n_pictures = pgs_recording_get_n_pictures (self->recording);
  guint from, to, last = pgs_recording_get_n_samples (self->recording) - 1;
  guint sample;
  double x, x2;

  /* The range, when one is chosen (or being chosen): shaded, with edges. */
  from = MIN (self->range_from, self->range_to);
  to = MAX (self->range_from, self->range_to);
  if ((from != 0 || to != last) && pgs_timeline_scene_get_sample_x (self, from, &x) &&
      pgs_timeline_scene_get_sample_x (self, to, &x2))
    {
      cairo_set_source_rgba (cr, fg->red, fg->green, fg->blue, fg->alpha * 0.22);
      cairo_rectangle (cr, x, plot->top, MAX (x2 - x, 2), plot->bottom - plot->top);
      cairo_fill (cr);
      cairo_set_source_rgba (cr, fg->red, fg->green, fg->blue, fg->alpha * 0.6);
      cairo_set_line_width (cr, 1);
      cairo_move_to (cr, round (x) + 0.5, plot->top);
      cairo_line_to (cr, round (x) + 0.5, plot->bottom);
      cairo_move_to (cr, round (x2) + 0.5, plot->top);
      cairo_line_to (cr, round (x2) + 0.5, plot->bottom);
      cairo_stroke (cr);
    }

  /* A tick under the axis for each page-level picture. */
  gdk_cairo_set_source_rgba (cr, fg);
  cairo_set_line_width (cr, 1);
  for (guint i = 0; i < n_pictures; i++)
    {
      /* A picture is taken after the sample of its instant: the last can end past it. */
      x = x_of_time (self, plot, pgs_recording_get_picture_time (self->recording, i));
      x = round (CLAMP (x, plot->left, plot->right)) + 0.5;
      cairo_move_to (cr, x, plot->bottom);
      cairo_line_to (cr, x, plot->bottom + TICK);
    }
  cairo_stroke (cr);

  /* The sample shown. */
  sample = self->sample;
  if (pgs_timeline_scene_get_sample_x (self, sample, &x))
    {
      cairo_set_line_width (cr, 2);
      cairo_move_to (cr, x, plot->top - 3);
      cairo_line_to (cr, x, plot->bottom);
      cairo_stroke (cr);
      cairo_move_to (cr, x - 4, plot->top - 5);
      cairo_line_to (cr, x + 4, plot->top - 5);
      cairo_line_to (cr, x, plot->top);
      cairo_close_path (cr);
      cairo_fill (cr);
    }
}


void
pgs_timeline_scene_draw (const PgsTimelineScene *self,
                         cairo_t                *cr)
{
  guint64 axis, pss_axis;
  PgsTimelinePlot plot;

  if (!pgs_timeline_scene_get_plot (self, &plot))
    return;
  axis = memory_axis (self);
  pss_axis = has_pss (self) ? round_axis (self->data->pss_top) : 1024;

  if (self->data != NULL && self->data->n_samples == pgs_recording_get_n_samples (self->recording))
    {
      for (guint k = 0; k < PGS_TIMELINE_N_KINDS; k++)
        draw_band (self, cr, &plot, k, axis);
      if (has_pss (self))
        draw_pss (self, cr, &plot, pss_axis);
      if (!self->compact)
        draw_legend (self, cr, &plot, &self->fg, pss_axis);
    }
  else
    {
      g_autoptr(PangoLayout) layout = make_layout (self, _("Reading the recording…"));

      gdk_cairo_set_source_rgba (cr, &self->fg);
      show_text (cr, layout, plot.left, PAD);
    }
  draw_axes (self, cr, &plot, &self->fg, axis, pss_axis);
  draw_marks (self, cr, &plot, &self->fg);
}

char *
pgs_timeline_scene_describe (const PgsTimelineScene *self,
                             guint                   sample)
{
  const PgsTimelineData *d = self->data;
  g_autofree char *clock = NULL;
  GString *text;

  if (self->recording == NULL || sample >= pgs_recording_get_n_samples (self->recording))
    return NULL;
  clock = format_clock (self, pgs_recording_get_sample_time (self->recording, sample), TRUE);
  text = g_string_new (clock);
  if (d == NULL || sample >= d->n_samples)
    return g_string_free (text, FALSE);
  /* Top to bottom, as the bands are stacked. */
  for (guint k = PGS_TIMELINE_N_KINDS; k-- > 0;)
    {
      guint64 v = pgs_timeline_data_get (d, sample, k);
      g_autofree char *size = v != PGS_SAMPLE_ABSENT ? g_format_size_full (v, G_FORMAT_SIZE_IEC_UNITS)
                                                     : g_strdup (_("not recorded"));

      g_string_append_printf (text, "\n%s: %s (%s)", _(kinds[k].name), size, _(kinds[k].tooltip));
    }
  if (d->pss != NULL)
    {
      g_autofree char *size = d->pss[sample] != PGS_SAMPLE_ABSENT
                              ? g_format_size_full (d->pss[sample], G_FORMAT_SIZE_IEC_UNITS)
                              : g_strdup (_("not running"));

      /* Translators: the selected process's PSS at the sample under the pointer */
      g_string_append_printf (text, _("\nPSS of %s: %s"), self->process_name, size);
    }
  return g_string_free (text, FALSE);
}

#define HINT N_("Click or drag: show that instant. Shift+drag: choose a range (Shift+click: the " \
                "whole recording). Left, Right: one sample. Right-click: export.")

char *
pgs_timeline_scene_get_tooltip (const PgsTimelineScene *self,
                                double                  x)
{
  g_autofree char *figures = NULL;
  PgsTimelinePlot plot;
  guint sample = G_MAXUINT;

  if (!pgs_timeline_scene_get_plot (self, &plot))
    return NULL;
  if (x < 0)
    sample = self->sample;
  else if (x >= plot.left - 4 && x <= plot.right + 4)
    sample = pgs_timeline_scene_get_sample_at (self, x);
  figures = pgs_timeline_scene_describe (self, sample);
  return figures != NULL ? g_strconcat (figures, "\n\n", _(HINT), NULL) : g_strdup (_(HINT));
}

gboolean
pgs_timeline_scene_write_png (PgsTimelineScene  *self,
                              const char        *path,
                              GError           **error)
{
  cairo_surface_t *surface;
  cairo_status_t status;
  cairo_t *cr;

  /* Twice as sharp as the screen, dark on white whatever the theme: a picture for a
   * report. */
  self->fg = (GdkRGBA) { 0.13, 0.13, 0.13, 1.0 };
  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, self->width * 2, self->height * 2);
  cr = cairo_create (surface);
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_paint (cr);
  cairo_scale (cr, 2, 2);
  pgs_timeline_scene_draw (self, cr);
  cairo_destroy (cr);
  status = cairo_surface_write_to_png (surface, path);
  cairo_surface_destroy (surface);
  if (status != CAIRO_STATUS_SUCCESS)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s", cairo_status_to_string (status));
      return FALSE;
    }
  return TRUE;
}
