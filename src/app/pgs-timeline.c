/* pgs-timeline.c: a recording's memory over time, a strip to move through it with
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Shown under the header while a recording is shown (issue 18): the machine's memory
 * stacked by kind, sample by sample (pgs-timeline-data.c reads them in a worker thread),
 * the selected process's PSS as a line on its own scale, ticks where the page-level
 * pictures are, the sample shown as a cursor and the chosen range shaded. A press or a
 * drag moves the session's replay (every page follows it); Shift+drag chooses the range.
 * It talks to the session and its replay only, never to the window.
 */

#include "config.h"

#include <math.h>

#include <glib/gi18n.h>

#include "pgs-timeline-private.h"

#define STRIP_HEIGHT 150
#define PAD          6.0
#define TICK         5.0

struct _PgsTimeline
{
  PgsPage          parent_instance;

  PgsRecording    *recording;   /* the session's, while it shows one */
  PgsReplay       *replay;
  GSignalGroup    *replay_signals;
  PgsTimelineData *data;        /* for recording, or NULL until read */
  GCancellable    *building;
  int              pid;         /* the process whose PSS is drawn; 0 for none */
  guint64          start_time;
  char            *process_name;

  gboolean         dragging_range;
  guint            anchor;      /* the range being chosen: anchor..pointer */
  guint            pointer;
};

enum {
  PROP_0,
  PROP_LOADING,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (PgsTimeline, pgs_timeline, PGS_TYPE_PAGE)

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
make_layout (PgsTimeline *self,
             const char  *text)
{
  PangoLayout *layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), text);
  PangoAttrList *attrs = pango_attr_list_new ();

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
memory_axis (PgsTimeline *self)
{
  return self->data != NULL && self->data->top > 0 ? self->data->top : 1024;
}

static gboolean
has_pss (PgsTimeline *self)
{
  return self->data != NULL && self->data->pss != NULL && self->data->pss_top > 0;
}

/* The plot inside the labels: the legend above, the memory axis to the left, the PSS axis
 * to the right, times under it. The sizes of the labels' text, not of their values, so a
 * press maps to the same sample whatever is drawn. */
static gboolean
get_plot (PgsTimeline *self,
          Plot        *plot)
{
  int width = gtk_widget_get_width (GTK_WIDGET (self));
  int height = gtk_widget_get_height (GTK_WIDGET (self));
  g_autoptr(PangoLayout) sample = make_layout (self, "888.8 MiB");
  PangoRectangle rect;

  pango_layout_get_pixel_extents (sample, NULL, &rect);
  plot->left = PAD + rect.width + 6;
  plot->right = width - PAD - rect.width - 6;
  plot->top = PAD + rect.height + 6;
  plot->bottom = height - PAD - rect.height - TICK - 2;
  return self->recording != NULL && plot->right - plot->left > 20 && plot->bottom - plot->top > 20;
}

static double
x_of_time (PgsTimeline *self,
           const Plot  *plot,
           gint64       time)
{
  gint64 t0 = pgs_recording_get_start_time (self->recording);
  gint64 t1 = pgs_recording_get_end_time (self->recording);

  if (t1 <= t0)
    return (plot->left + plot->right) / 2;
  return plot->left + (plot->right - plot->left) * (double) (time - t0) / (double) (t1 - t0);
}

gboolean
pgs_timeline_get_sample_x (PgsTimeline *self,
                           guint        sample,
                           double      *x)
{
  Plot plot;

  g_return_val_if_fail (PGS_IS_TIMELINE (self), FALSE);
  if (!get_plot (self, &plot) || sample >= pgs_recording_get_n_samples (self->recording))
    return FALSE;
  *x = x_of_time (self, &plot, pgs_recording_get_sample_time (self->recording, sample));
  return TRUE;
}

guint
pgs_timeline_get_sample_at (PgsTimeline *self,
                            double       x)
{
  gint64 t0, t1;
  Plot plot;
  double f;

  g_return_val_if_fail (PGS_IS_TIMELINE (self), G_MAXUINT);
  if (!get_plot (self, &plot))
    return G_MAXUINT;
  t0 = pgs_recording_get_start_time (self->recording);
  t1 = pgs_recording_get_end_time (self->recording);
  f = CLAMP ((x - plot.left) / (plot.right - plot.left), 0.0, 1.0);
  return pgs_recording_find_sample (self->recording, t0 + (gint64) round (f * (double) (t1 - t0)));
}

/* Drawing */

static void
get_fg_color (PgsTimeline *self,
              GdkRGBA     *color)
{
  GtkStyleContext *context;

  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  context = gtk_widget_get_style_context (GTK_WIDGET (self));
  gtk_style_context_get_color (context, color);
  G_GNUC_END_IGNORE_DEPRECATIONS
}

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
format_clock (PgsTimeline *self,
              gint64       time,
              gboolean     offset)
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
draw_band (PgsTimeline *self,
           cairo_t     *cr,
           const Plot  *plot,
           guint        kind,
           guint64      axis)
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
      for (b = a; b + 1 < n && pgs_timeline_data_get (d, b + 1, kind) != PGS_SAMPLE_ABSENT; b++)
        ;
      /* The run's edges: the plot's ends, or halfway to the sample missing it. */
      from = a == 0 ? plot->left : (xs[a - 1] + xs[a]) / 2;
      to = b == n - 1 ? plot->right : (xs[b] + xs[b + 1]) / 2;
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
draw_pss (PgsTimeline *self,
          cairo_t     *cr,
          const Plot  *plot,
          guint64      axis)
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
      drawing = TRUE;
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
draw_legend (PgsTimeline   *self,
             cairo_t       *cr,
             const Plot    *plot,
             const GdkRGBA *fg,
             guint64        pss_axis)
{
  double x = plot->left;
  double right = gtk_widget_get_width (GTK_WIDGET (self)) - PAD;

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
draw_axes (PgsTimeline   *self,
           cairo_t       *cr,
           const Plot    *plot,
           const GdkRGBA *fg,
           guint64        axis,
           guint64        pss_axis)
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
draw_marks (PgsTimeline   *self,
            cairo_t       *cr,
            const Plot    *plot,
            const GdkRGBA *fg)
{
  guint n_pictures = pgs_recording_get_n_pictures (self->recording);
  guint from = 0, to = 0, last = pgs_recording_get_n_samples (self->recording) - 1;
  guint sample;
  double x, x2;

  /* The range, when one is chosen (or being chosen): shaded, with edges. */
  if (self->dragging_range)
    from = MIN (self->anchor, self->pointer), to = MAX (self->anchor, self->pointer);
  else if (self->replay != NULL)
    pgs_replay_get_range (self->replay, &from, &to);
  if ((from != 0 || to != last) && pgs_timeline_get_sample_x (self, from, &x) &&
      pgs_timeline_get_sample_x (self, to, &x2))
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
  sample = self->replay != NULL ? pgs_replay_get_sample (self->replay) : G_MAXUINT;
  if (pgs_timeline_get_sample_x (self, sample, &x))
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

static void
pgs_timeline_snapshot (GtkWidget   *widget,
                       GtkSnapshot *snapshot)
{
  PgsTimeline *self = PGS_TIMELINE (widget);
  guint64 axis, pss_axis;
  GdkRGBA fg;
  cairo_t *cr;
  Plot plot;

  if (!get_plot (self, &plot))
    return;
  get_fg_color (self, &fg);
  axis = memory_axis (self);
  pss_axis = has_pss (self) ? round_axis (self->data->pss_top) : 1024;

  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, gtk_widget_get_width (widget),
                                                                 gtk_widget_get_height (widget)));
  if (self->data != NULL && self->data->n_samples == pgs_recording_get_n_samples (self->recording))
    {
      for (guint k = 0; k < PGS_TIMELINE_N_KINDS; k++)
        draw_band (self, cr, &plot, k, axis);
      if (has_pss (self))
        draw_pss (self, cr, &plot, pss_axis);
      draw_legend (self, cr, &plot, &fg, pss_axis);
    }
  else
    {
      g_autoptr(PangoLayout) layout = make_layout (self, _("Reading the recording…"));

      gdk_cairo_set_source_rgba (cr, &fg);
      show_text (cr, layout, plot.left, PAD);
    }
  draw_axes (self, cr, &plot, &fg, axis, pss_axis);
  draw_marks (self, cr, &plot, &fg);
  cairo_destroy (cr);

  if (gtk_widget_has_visible_focus (widget))
    {
      GdkRGBA focus = fg;

      focus.alpha *= 0.5;
      gtk_snapshot_append_border (snapshot,
                                  &GSK_ROUNDED_RECT_INIT (plot.left - 2, plot.top - 2,
                                                          plot.right - plot.left + 4,
                                                          plot.bottom - plot.top + 4),
                                  (float[]) { 1, 1, 1, 1 },
                                  (GdkRGBA[]) { focus, focus, focus, focus });
    }
}

static void
pgs_timeline_measure (GtkWidget      *widget,
                      GtkOrientation  orientation,
                      int             for_size,
                      int            *minimum,
                      int            *natural,
                      int            *minimum_baseline,
                      int            *natural_baseline)
{
  /* Fixed: no height for width, so a narrow window never relays it out in a loop. */
  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      *minimum = 200;
      *natural = 600;
    }
  else
    *minimum = *natural = STRIP_HEIGHT;
}

/* Input: the gesture calls these, with the modifiers held at the press. */

static void
move_to (PgsTimeline *self,
         double       x)
{
  guint sample = pgs_timeline_get_sample_at (self, x);

  if (sample != G_MAXUINT && self->replay != NULL)
    pgs_replay_move_to_sample (self->replay, sample);
}

void
_pgs_timeline_press (PgsTimeline *self,
                     double       x,
                     gboolean     range)
{
  g_return_if_fail (PGS_IS_TIMELINE (self));

  gtk_widget_grab_focus (GTK_WIDGET (self));
  self->dragging_range = range && self->replay != NULL;
  if (self->dragging_range)
    {
      self->anchor = self->pointer = pgs_timeline_get_sample_at (self, x);
      if (self->anchor == G_MAXUINT)
        self->dragging_range = FALSE;
      gtk_widget_queue_draw (GTK_WIDGET (self));
    }
  else
    move_to (self, x);
}

void
_pgs_timeline_move (PgsTimeline *self,
                    double       x)
{
  guint sample;

  g_return_if_fail (PGS_IS_TIMELINE (self));

  if (!self->dragging_range)
    {
      move_to (self, x);
      return;
    }
  sample = pgs_timeline_get_sample_at (self, x);
  if (sample != G_MAXUINT && sample != self->pointer)
    {
      self->pointer = sample;
      gtk_widget_queue_draw (GTK_WIDGET (self));
    }
}

void
_pgs_timeline_release (PgsTimeline *self,
                       double       x)
{
  g_return_if_fail (PGS_IS_TIMELINE (self));

  _pgs_timeline_move (self, x);
  if (!self->dragging_range)
    return;
  self->dragging_range = FALSE;
  /* Shift+click without a drag: the whole recording again. */
  if (self->anchor == self->pointer)
    pgs_replay_set_range (self->replay, 0, G_MAXUINT);
  else
    pgs_replay_set_range (self->replay, self->anchor, self->pointer);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
on_drag_begin (PgsTimeline    *self,
               double          x,
               double          y,
               GtkGestureDrag *gesture)
{
  GdkModifierType state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (gesture));

  _pgs_timeline_press (self, x, (state & GDK_SHIFT_MASK) != 0);
}

static void
on_drag_update (PgsTimeline    *self,
                double          dx,
                double          dy,
                GtkGestureDrag *gesture)
{
  double x, y;

  if (gtk_gesture_drag_get_start_point (gesture, &x, &y))
    _pgs_timeline_move (self, x + dx);
}

static void
on_drag_end (PgsTimeline    *self,
             double          dx,
             double          dy,
             GtkGestureDrag *gesture)
{
  double x, y;

  if (gtk_gesture_drag_get_start_point (gesture, &x, &y))
    _pgs_timeline_release (self, x + dx);
  else
    self->dragging_range = FALSE;
}

static void
move_by_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  PgsSession *session = pgs_page_get_session (PGS_PAGE (widget));

  if (session != NULL)
    pgs_session_move_by (session, g_variant_get_int32 (parameter));
}

/* Following the session */

static void
set_loading (PgsTimeline  *self,
             GCancellable *building)
{
  gboolean was = self->building != NULL;

  if (self->building != NULL && self->building != building)
    g_cancellable_cancel (self->building);
  g_set_object (&self->building, building);
  if (was != (building != NULL))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOADING]);
}

static void
build_done (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(PgsTimeline) self = user_data;
  g_autoptr(GError) error = NULL;
  PgsTimelineData *data = pgs_timeline_data_build_finish (result, &error);

  /* Cancelled: another build replaced this one, or the widget is going. */
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  if (data == NULL)
    g_warning ("Could not read the recording's figures: %s", error->message);
  g_clear_pointer (&self->data, pgs_timeline_data_free);
  self->data = data;
  set_loading (self, NULL);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
rebuild (PgsTimeline *self)
{
  g_autoptr(GCancellable) building = NULL;

  if (self->recording == NULL)
    {
      set_loading (self, NULL);
      return;
    }
  building = g_cancellable_new ();
  set_loading (self, building);
  pgs_timeline_data_build_async (self->recording, self->pid, self->start_time, building,
                                 build_done, g_object_ref (self));
}

static void
on_recording_changed (PgsTimeline *self,
                      GParamSpec  *pspec,
                      PgsSession  *session)
{
  PgsRecording *recording = pgs_session_get_recording (session);

  gtk_widget_set_visible (GTK_WIDGET (self), recording != NULL);
  if (recording == self->recording)
    return;
  g_set_object (&self->recording, recording);
  g_clear_pointer (&self->data, pgs_timeline_data_free);
  self->dragging_range = FALSE;
  rebuild (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
on_replay_changed (PgsTimeline *self,
                   GParamSpec  *pspec,
                   PgsSession  *session)
{
  g_set_object (&self->replay, pgs_session_get_replay (session));
  g_signal_group_set_target (self->replay_signals, self->replay);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* A new sample brings a new PgsProcess for the same process: read again only for another. */
static void
on_selected_process_changed (PgsTimeline *self,
                             GParamSpec  *pspec,
                             PgsSession  *session)
{
  PgsProcess *process = NULL;
  int pid = 0;
  guint64 start_time = 0;

  g_object_get (session, "selected-process", &process, NULL);
  if (process != NULL)
    {
      pid = pgs_process_get_pid (process);
      start_time = pgs_process_get_start_time (process);
      g_free (self->process_name);
      self->process_name = g_strdup (pgs_process_get_name (process));
      g_object_unref (process);
    }
  if (pid == self->pid && start_time == self->start_time)
    return;
  self->pid = pid;
  self->start_time = start_time;
  rebuild (self);
}

static void
pgs_timeline_dispose (GObject *object)
{
  PgsTimeline *self = PGS_TIMELINE (object);

  if (self->building != NULL)
    g_cancellable_cancel (self->building);
  g_clear_object (&self->building);
  g_signal_group_set_target (self->replay_signals, NULL);
  g_clear_object (&self->replay);
  g_clear_object (&self->recording);

  G_OBJECT_CLASS (pgs_timeline_parent_class)->dispose (object);
}

static void
pgs_timeline_finalize (GObject *object)
{
  PgsTimeline *self = PGS_TIMELINE (object);

  g_clear_object (&self->replay_signals);
  g_clear_pointer (&self->data, pgs_timeline_data_free);
  g_free (self->process_name);

  G_OBJECT_CLASS (pgs_timeline_parent_class)->finalize (object);
}

static void
pgs_timeline_get_property (GObject    *object,
                           guint       prop_id,
                           GValue     *value,
                           GParamSpec *pspec)
{
  switch (prop_id)
    {
    case PROP_LOADING:
      g_value_set_boolean (value, pgs_timeline_is_loading (PGS_TIMELINE (object)));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pgs_timeline_class_init (PgsTimelineClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = pgs_timeline_dispose;
  object_class->finalize = pgs_timeline_finalize;
  object_class->get_property = pgs_timeline_get_property;
  widget_class->snapshot = pgs_timeline_snapshot;
  widget_class->measure = pgs_timeline_measure;

  properties[PROP_LOADING] =
    g_param_spec_boolean ("loading", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* Left and Right without a modifier: the window keeps Alt+Left and Alt+Right. */
  gtk_widget_class_install_action (widget_class, "timeline.move-by", "i", move_by_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Left, 0, "timeline.move-by", "i", -1);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Left, 0, "timeline.move-by", "i", -1);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Right, 0, "timeline.move-by", "i", 1);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Right, 0, "timeline.move-by", "i", 1);

  gtk_widget_class_set_css_name (widget_class, "timeline");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
pgs_timeline_init (PgsTimeline *self)
{
  GtkGesture *drag = gtk_gesture_drag_new ();

  gtk_widget_set_visible (GTK_WIDGET (self), FALSE);
  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self),
                               _("Click or drag: show that instant. Shift+drag: choose a range "
                                 "(Shift+click: the whole recording). Left, Right: one sample."));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Memory over the recording"), -1);

  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (drag), GDK_BUTTON_PRIMARY);
  g_signal_connect_swapped (drag, "drag-begin", G_CALLBACK (on_drag_begin), self);
  g_signal_connect_swapped (drag, "drag-update", G_CALLBACK (on_drag_update), self);
  g_signal_connect_swapped (drag, "drag-end", G_CALLBACK (on_drag_end), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drag));

  self->replay_signals = g_signal_group_new (PGS_TYPE_REPLAY);
  for (guint i = 0; i < 4; i++)
    g_signal_group_connect_object (self->replay_signals,
                                   (const char *[]) { "notify::sample", "notify::picture-index",
                                                      "notify::range-from", "notify::range-to" }[i],
                                   G_CALLBACK (gtk_widget_queue_draw), self, G_CONNECT_SWAPPED);

  g_signal_connect (self, "session-notify::recording", G_CALLBACK (on_recording_changed), NULL);
  g_signal_connect (self, "session-notify::replay", G_CALLBACK (on_replay_changed), NULL);
  g_signal_connect (self, "session-notify::selected-process",
                    G_CALLBACK (on_selected_process_changed), NULL);
}

GtkWidget *
pgs_timeline_new (void)
{
  return g_object_new (PGS_TYPE_TIMELINE, NULL);
}

gboolean
pgs_timeline_is_loading (PgsTimeline *self)
{
  g_return_val_if_fail (PGS_IS_TIMELINE (self), FALSE);
  return self->building != NULL;
}

guint64
pgs_timeline_get_value (PgsTimeline     *self,
                        guint            sample,
                        PgsTimelineKind  kind)
{
  g_return_val_if_fail (PGS_IS_TIMELINE (self), PGS_SAMPLE_ABSENT);
  g_return_val_if_fail (kind < PGS_TIMELINE_N_KINDS, PGS_SAMPLE_ABSENT);
  return self->data != NULL ? pgs_timeline_data_get (self->data, sample, kind) : PGS_SAMPLE_ABSENT;
}

guint64
pgs_timeline_get_pss (PgsTimeline *self,
                      guint        sample)
{
  g_return_val_if_fail (PGS_IS_TIMELINE (self), PGS_SAMPLE_ABSENT);
  if (self->data == NULL || self->data->pss == NULL || sample >= self->data->n_samples)
    return PGS_SAMPLE_ABSENT;
  return self->data->pss[sample];
}
