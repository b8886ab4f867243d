/* pgs-ledger-view.c
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The ledger (src/lib/core/pgs-ledger.c) of the snapshot shown: one stacked bar, MemTotal wide,
 * a segment per row in the page-flag map's colours (the kernel's rows share the map's
 * kernel colour: what the map cannot tell apart, the bar does not pretend to), and a table
 * in three blocks with each row's size and share, its source and kernel counter in the
 * tooltip. An unknown row is "—", never 0; the unexplained rest is a row of its own.
 *
 * The figures are worked out once per snapshot and hold nothing of it: the snapshot is
 * only remembered (a weak reference), so that a page behind another, which is not told of
 * new scans until it is shown, keeps no older scan alive through its ledger (issue 22).
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n.h>

#include "pgs-ledger-view.h"
#include "pgs-release.h"
#include "pgs-tooltip.h"

#define N_ROWS      PGS_LEDGER_N_ROWS
#define ROW_REST    N_ROWS        /* the unexplained (or unknown) rest */
#define ROW_TOTAL   (N_ROWS + 1)  /* MemTotal */
#define N_TABLE     (N_ROWS + 2)
#define A11Y_SCHEMA "org.gnome.desktop.a11y.interface"

struct _PgsLedgerView
{
  GtkWidget       parent_instance;

  GWeakRef        snapshot;      /* PgsSnapshot */
  PgsLedger      *ledger;
  PgsUnits        units;
  PgsRenderStyle  style;

  guint           n_segments;
  guint64         seg_bytes[N_ROWS + 1];
  guint           seg_row[N_ROWS + 1];   /* a PgsLedgerRow, or ROW_REST */

  /* template children */
  GtkLabel       *title_label;
  GtkLabel       *summary_label;
  GtkDrawingArea *bar;
  GtkGrid        *grid;

  GtkWidget      *swatch[N_TABLE];
  GtkLabel       *name[N_TABLE];
  GtkLabel       *size[N_TABLE];
  GtkLabel       *share[N_TABLE];
};

enum {
  PROP_0,
  PROP_SNAPSHOT,
  PROP_UNITS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (PgsLedgerView, pgs_ledger_view, GTK_TYPE_WIDGET)

/* ---- style: the same rule as the maps' (pgs-map-view-style.c) ---- */

static double
channel (float c)
{
  return c <= 0.04045 ? c / 12.92 : pow ((c + 0.055) / 1.055, 2.4);
}

static GSettings *
a11y_settings (void)
{
  static GSettings *settings;
  static gsize once;

  if (g_once_init_enter (&once))
    {
      GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
      g_autoptr(GSettingsSchema) schema = NULL;

      schema = source != NULL ? g_settings_schema_source_lookup (source, A11Y_SCHEMA, TRUE) : NULL;
      if (schema != NULL && g_settings_schema_has_key (schema, "high-contrast"))
        settings = g_settings_new (A11Y_SCHEMA);
      g_once_init_leave (&once, 1);
    }
  return settings;
}

static PgsRenderStyle
detect_style (GtkWidget *widget)
{
  g_autofree char *theme = NULL;
  GdkRGBA fg;
  gboolean dark, hc;

  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  gtk_style_context_get_color (gtk_widget_get_style_context (widget), &fg);
  G_GNUC_END_IGNORE_DEPRECATIONS
  dark = 0.2126 * channel (fg.red) + 0.7152 * channel (fg.green) + 0.0722 * channel (fg.blue) > 0.18;
  g_object_get (gtk_widget_get_settings (widget), "gtk-theme-name", &theme, NULL);
  hc = (theme != NULL && strstr (theme, "HighContrast") != NULL) ||
       (a11y_settings () != NULL && g_settings_get_boolean (a11y_settings (), "high-contrast"));
  if (hc)
    return dark ? PGS_RENDER_STYLE_HC_DARK : PGS_RENDER_STYLE_HC_LIGHT;
  return dark ? PGS_RENDER_STYLE_DARK : PGS_RENDER_STYLE_LIGHT;
}

static void
update_style (PgsLedgerView *self)
{
  PgsRenderStyle style = detect_style (GTK_WIDGET (self));

  if (style == self->style)
    return;
  self->style = style;
  gtk_widget_queue_draw (GTK_WIDGET (self->bar));
  for (guint i = 0; i <= ROW_REST; i++)
    gtk_widget_queue_draw (self->swatch[i]);
}

/* The colour of a table row or bar segment: the map's category colour; the rest (unknown
 * or unexplained) the zero page's, which no other row takes. */
static guint32
row_color (PgsLedgerView *self,
           guint          row)
{
  PgsCategory c = row < N_ROWS ? pgs_ledger_row_get_category (row) : PGS_CATEGORY_ZERO_PAGE;

  return pgs_palette_category_for_style (self->style, c);
}

static void
set_source (cairo_t *cr,
            guint32  argb)
{
  cairo_set_source_rgb (cr, ((argb >> 16) & 0xff) / 255.0, ((argb >> 8) & 0xff) / 255.0,
                        (argb & 0xff) / 255.0);
}

/* ---- text ---- */

static char *
format_size (PgsLedgerView *self,
             gint64         bytes)
{
  g_autofree char *s = pgs_units_format (self->units, bytes < 0 ? (guint64) -bytes : (guint64) bytes);

  return bytes < 0 ? g_strconcat ("−", s, NULL) : g_steal_pointer (&s);
}

static char *
format_share (gint64  bytes,
              guint64 total)
{
  double pc;

  if (total == 0)
    return g_strdup ("");
  pc = 100.0 * (double) bytes / (double) total;
  /* Translators: a share of MemTotal, "12.3 %" */
  return g_strdup_printf (_("%.1f %%"), fabs (pc) < 0.05 ? 0.0 : pc);
}

static const char *
row_label (guint row,
           const PgsLedger *ledger)
{
  if (row < N_ROWS)
    return pgs_ledger_row_get_label (row);
  if (row == ROW_REST)
    return ledger == NULL || ledger->unexplained_known ? _("Unexplained") : _("Unknown or unexplained");
  return _("MemTotal");
}

static char *
row_tooltip (PgsLedgerView *self,
             guint          row)
{
  const PgsLedger *l = self->ledger;
  GString *text = g_string_new (NULL);

  if (row == ROW_REST)
    {
      g_string_append (text, l != NULL && !l->unexplained_known
        ? _("What the rows that are unknown without root and the unexplained rest hold together")
        : _("MemTotal less every row: what the frames and the kernel’s counters do not agree on"));
      return g_string_free (text, FALSE);
    }
  if (row == ROW_TOTAL)
    {
      g_string_append (text, _("MemTotal (/proc/meminfo): the memory the kernel manages"));
      if (l != NULL && l->outside_known)
        {
          g_autofree char *outside = format_size (self, l->outside_mem_total);

          /* Translators: %s is a size */
          g_string_append_printf (text, _("\nBeside it, not in it: %s reserved at boot by the firmware and the kernel (zoneinfo present less MemTotal)"), outside);
        }
      return g_string_free (text, FALSE);
    }

  g_string_append (text, pgs_ledger_row_get_description (row));
  if (l == NULL)
    return g_string_free (text, FALSE);
  if (!l->rows[row].known)
    g_string_append (text, l->from_frames
                     ? _("\nUnknown: a counter it needs is missing from this scan")
                     : _("\nUnknown without root: it is counted from the page frames (kpageflags)"));
  else
    g_string_append (text, l->rows[row].source == PGS_LEDGER_SOURCE_FRAMES
                     ? _("\nFrom the page frames (kpageflags, kpagecount)")
                     : _("\nFrom the kernel’s counters"));
  if (l->rows[row].counter != NULL)
    {
      g_autofree char *value = l->rows[row].counter_known
                               ? format_size (self, l->rows[row].counter_value)
                               : g_strdup (PGS_UNKNOWN_TEXT);

      /* Translators: "Kernel counter: AnonPages 171.2 MiB" */
      g_string_append_printf (text, _("\nKernel counter: %s %s"), l->rows[row].counter, value);
    }
  return g_string_free (text, FALSE);
}

/* ---- the table ---- */

static void
draw_swatch (GtkDrawingArea *area,
             cairo_t        *cr,
             int             width,
             int             height,
             gpointer        user_data)
{
  PgsLedgerView *self = user_data;
  guint row = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (area), "row"));
  const PgsStyleColors *colors = pgs_palette_style (self->style);

  set_source (cr, row_color (self, row));
  cairo_rectangle (cr, 0, 0, width, height);
  cairo_fill_preserve (cr);
  set_source (cr, colors->grid);
  cairo_set_line_width (cr, 1);
  cairo_rectangle (cr, 0.5, 0.5, width - 1, height - 1);
  cairo_stroke (cr);
}

static GtkLabel *
cell (GtkGrid  *grid,
      int       column,
      int       row,
      float     xalign,
      gboolean  numeric)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), xalign);
  if (numeric)
    gtk_widget_add_css_class (label, "numeric");
  gtk_grid_attach (grid, label, column, row, 1, 1);
  return GTK_LABEL (label);
}

/* Three blocks side by side: what processes and caches hold, the kernel's, the rest. */
static void
build_table (PgsLedgerView *self)
{
  static const struct { const char *title; guint first, last; } blocks[] = {
    { N_("Processes and caches"), PGS_LEDGER_PROCESS_ANON, PGS_LEDGER_SHMEM_UNMAPPED },
    { N_("Kernel"), PGS_LEDGER_SLAB_RECLAIMABLE, PGS_LEDGER_KERNEL_OTHER },
    { N_("Huge pages, compressed, free"), PGS_LEDGER_HUGETLB, ROW_TOTAL },
  };

  for (guint b = 0; b < G_N_ELEMENTS (blocks); b++)
    {
      int col = b * 4;
      GtkWidget *heading = gtk_label_new (_(blocks[b].title));

      gtk_label_set_xalign (GTK_LABEL (heading), 0);
      gtk_widget_add_css_class (heading, "heading");
      gtk_grid_attach (self->grid, heading, col, 0, 4, 1);
      if (b > 0)
        gtk_widget_set_margin_start (heading, 24);

      for (guint r = blocks[b].first; r <= blocks[b].last; r++)
        {
          int y = 1 + (r - blocks[b].first);

          if (r != ROW_TOTAL)
            {
              GtkWidget *swatch = gtk_drawing_area_new ();

              gtk_drawing_area_set_content_width (GTK_DRAWING_AREA (swatch), 12);
              gtk_drawing_area_set_content_height (GTK_DRAWING_AREA (swatch), 12);
              gtk_widget_set_valign (swatch, GTK_ALIGN_CENTER);
              g_object_set_data (G_OBJECT (swatch), "row", GUINT_TO_POINTER (r));
              gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (swatch), draw_swatch, self, NULL);
              gtk_grid_attach (self->grid, swatch, col, y, 1, 1);
              if (b > 0)
                gtk_widget_set_margin_start (swatch, 24);
              self->swatch[r] = swatch;
            }
          self->name[r] = cell (self->grid, col + 1, y, 0, FALSE);
          gtk_label_set_text (self->name[r], row_label (r, NULL));
          gtk_label_set_ellipsize (self->name[r], PANGO_ELLIPSIZE_END);
          gtk_widget_set_hexpand (GTK_WIDGET (self->name[r]), TRUE);
          self->size[r] = cell (self->grid, col + 2, y, 1, TRUE);
          self->share[r] = cell (self->grid, col + 3, y, 1, TRUE);
          gtk_widget_add_css_class (GTK_WIDGET (self->share[r]), "dim-label");
          if (r == ROW_TOTAL)
            {
              gtk_widget_add_css_class (GTK_WIDGET (self->name[r]), "heading");
              gtk_widget_add_css_class (GTK_WIDGET (self->size[r]), "heading");
            }
        }
    }
}

static void
update_table (PgsLedgerView *self)
{
  const PgsLedger *l = self->ledger;

  for (guint r = 0; r < N_TABLE; r++)
    {
      g_autofree char *size = NULL, *share = NULL, *tooltip = row_tooltip (self, r);

      if (l == NULL)
        size = g_strdup (PGS_UNKNOWN_TEXT), share = g_strdup ("");
      else if (r < N_ROWS && !l->rows[r].known)
        size = g_strdup (PGS_UNKNOWN_TEXT), share = g_strdup ("");
      else
        {
          gint64 bytes = r < N_ROWS ? (gint64) l->rows[r].bytes
                       : r == ROW_REST ? l->unknown : (gint64) l->mem_total;

          size = format_size (self, bytes);
          share = format_share (bytes, l->mem_total);
        }
      gtk_label_set_text (self->name[r], row_label (r, l));
      gtk_label_set_text (self->size[r], size);
      gtk_label_set_text (self->share[r], share);
      pgs_set_tooltip_text (GTK_WIDGET (self->name[r]), tooltip);
      pgs_set_tooltip_text (GTK_WIDGET (self->size[r]), tooltip);
    }
}

/* ---- the bar ---- */

static void
update_segments (PgsLedgerView *self)
{
  const PgsLedger *l = self->ledger;

  self->n_segments = 0;
  if (l == NULL)
    return;
  for (guint r = 0; r < N_ROWS; r++)
    if (l->rows[r].known && l->rows[r].bytes > 0)
      {
        self->seg_row[self->n_segments] = r;
        self->seg_bytes[self->n_segments++] = l->rows[r].bytes;
      }
  if (l->unknown > 0)
    {
      self->seg_row[self->n_segments] = ROW_REST;
      self->seg_bytes[self->n_segments++] = (guint64) l->unknown;
    }
}

static guint64
bar_total (PgsLedgerView *self)
{
  guint64 sum = 0;

  for (guint i = 0; i < self->n_segments; i++)
    sum += self->seg_bytes[i];
  /* Rows above MemTotal (a negative rest) still fit the bar. */
  return self->ledger != NULL ? MAX (sum, self->ledger->mem_total) : sum;
}

static void
draw_bar (GtkDrawingArea *area,
          cairo_t        *cr,
          int             width,
          int             height,
          gpointer        user_data)
{
  PgsLedgerView *self = user_data;
  const PgsStyleColors *colors = pgs_palette_style (self->style);
  guint64 total = bar_total (self), cum = 0;
  double x0 = 0;

  if (total == 0)
    return;
  for (guint i = 0; i < self->n_segments; i++)
    {
      double x1;

      cum += self->seg_bytes[i];
      x1 = round ((double) cum / (double) total * width);
      if (x1 <= x0)
        continue;
      set_source (cr, row_color (self, self->seg_row[i]));
      cairo_rectangle (cr, x0, 0, x1 - x0, height);
      cairo_fill (cr);
      /* The unknown rest (no root): hatched, not a colour of its own. */
      if (self->seg_row[i] == ROW_REST && !self->ledger->unexplained_known)
        {
          cairo_save (cr);
          cairo_rectangle (cr, x0, 0, x1 - x0, height);
          cairo_clip (cr);
          set_source (cr, colors->background);
          cairo_set_line_width (cr, 2);
          for (double x = x0 - height; x < x1; x += 8)
            {
              cairo_move_to (cr, x, height);
              cairo_line_to (cr, x + height, 0);
            }
          cairo_stroke (cr);
          cairo_restore (cr);
        }
      /* A hairline between segments of one colour (the kernel's rows). */
      if (x1 - x0 >= 3 && i + 1 < self->n_segments)
        {
          set_source (cr, colors->background);
          cairo_rectangle (cr, x1 - 1, 0, 1, height);
          cairo_fill (cr);
        }
      x0 = x1;
    }
  set_source (cr, colors->grid);
  cairo_set_line_width (cr, 1);
  cairo_rectangle (cr, 0.5, 0.5, width - 1, height - 1);
  cairo_stroke (cr);
}

/* The segment under @x, or -1. */
static int
segment_at (PgsLedgerView *self,
            double         x)
{
  int width = gtk_widget_get_width (GTK_WIDGET (self->bar));
  guint64 total = bar_total (self), cum = 0;

  if (total == 0 || width <= 0)
    return -1;
  for (guint i = 0; i < self->n_segments; i++)
    {
      cum += self->seg_bytes[i];
      if (x < round ((double) cum / (double) total * width))
        return i;
    }
  return -1;
}

static gboolean
on_bar_query_tooltip (GtkWidget  *widget,
                      int         x,
                      int         y,
                      gboolean    keyboard,
                      GtkTooltip *tooltip,
                      gpointer    user_data)
{
  PgsLedgerView *self = user_data;
  int s = segment_at (self, x);
  g_autofree char *size = NULL, *share = NULL, *text = NULL;

  if (s < 0)
    return FALSE;
  size = format_size (self, self->seg_bytes[s]);
  share = format_share (self->seg_bytes[s], self->ledger->mem_total);
  /* Translators: a segment of the memory bar: "Page cache, no process maps: clean — 1.4 GiB
   * (5.8 %)" */
  text = g_strdup_printf (_("%s — %s (%s)"), row_label (self->seg_row[s], self->ledger), size, share);
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

/* ---- updating ---- */

static void
update (PgsLedgerView *self)
{
  const PgsLedger *l = self->ledger;
  g_autofree char *total = NULL;
  g_autofree char *summary = NULL;

  update_segments (self);
  update_table (self);
  gtk_widget_queue_draw (GTK_WIDGET (self->bar));

  if (l == NULL)
    {
      gtk_label_set_text (self->title_label, _("Where the memory is"));
      gtk_label_set_text (self->summary_label, _("The kernel’s counters could not be read with this map"));
      return;
    }
  total = format_size (self, l->mem_total);
  {
    /* Translators: above the memory bar: "Where all of MemTotal (23.5 GiB) is" */
    g_autofree char *title = g_strdup_printf (_("Where all of MemTotal (%s) is"), total);

    gtk_label_set_text (self->title_label, title);
  }
  {
    g_autofree char *rest = format_size (self, l->unknown);
    g_autofree char *share = format_share (l->unknown, l->mem_total);
    g_autofree char *outside = l->outside_known ? format_size (self, l->outside_mem_total) : NULL;
    g_autofree char *first = NULL;

    if (l->unexplained_known)
      /* Translators: "Unexplained −388 KiB (0.0 %)" */
      first = g_strdup_printf (_("Unexplained %s (%s)"), rest, share);
    else
      first = g_strdup_printf (_("Without root only the kernel’s counters: %s (%s) unknown or unexplained"),
                               rest, share);
    if (outside != NULL)
      /* Translators: "Unexplained 0 B (0.0 %) · beside MemTotal, 470 MiB reserved at boot" */
      summary = g_strdup_printf (_("%s · beside MemTotal, %s reserved at boot (firmware and kernel)"),
                                 first, outside);
    else
      summary = g_steal_pointer (&first);
    gtk_label_set_text (self->summary_label, summary);
    gtk_accessible_update_property (GTK_ACCESSIBLE (self->bar),
                                    GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, summary, -1);
  }
}

void
pgs_ledger_view_set_snapshot (PgsLedgerView *self,
                              PgsSnapshot   *snapshot)
{
  g_autoptr(GError) error = NULL;
  PgsSnapshot *old;

  g_return_if_fail (PGS_IS_LEDGER_VIEW (self));
  g_return_if_fail (snapshot == NULL || PGS_IS_SNAPSHOT (snapshot));

  old = g_weak_ref_get (&self->snapshot);
  /* The last reference to a scan frees it all: off the main thread. */
  pgs_release (old);
  if (old == snapshot)
    return;
  g_weak_ref_set (&self->snapshot, snapshot);
  g_clear_pointer (&self->ledger, pgs_ledger_free);
  /* One walk over the map's runs (a few ms for 24 GiB): no thread needed. */
  if (snapshot != NULL)
    self->ledger = pgs_ledger_new_for_snapshot (snapshot, &error);
  if (error != NULL)
    g_debug ("ledger: %s", error->message);
  update (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SNAPSHOT]);
}

PgsSnapshot *
pgs_ledger_view_get_snapshot (PgsLedgerView *self)
{
  PgsSnapshot *snapshot;

  g_return_val_if_fail (PGS_IS_LEDGER_VIEW (self), NULL);
  snapshot = g_weak_ref_get (&self->snapshot);
  /* Whoever gave it holds it: the reference taken here is not the last. */
  if (snapshot != NULL)
    g_object_unref (snapshot);
  return snapshot;
}

void
pgs_ledger_view_set_units (PgsLedgerView *self,
                           PgsUnits       units)
{
  g_return_if_fail (PGS_IS_LEDGER_VIEW (self));

  if (self->units == units)
    return;
  self->units = units;
  update (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_UNITS]);
}

const PgsLedger *
pgs_ledger_view_get_ledger (PgsLedgerView *self)
{
  g_return_val_if_fail (PGS_IS_LEDGER_VIEW (self), NULL);
  return self->ledger;
}

const char *
pgs_ledger_view_get_size_text (PgsLedgerView *self,
                               guint          row)
{
  g_return_val_if_fail (PGS_IS_LEDGER_VIEW (self), NULL);
  g_return_val_if_fail (row < N_TABLE, NULL);
  return gtk_label_get_text (self->size[row]);
}

guint
pgs_ledger_view_get_n_segments (PgsLedgerView *self)
{
  g_return_val_if_fail (PGS_IS_LEDGER_VIEW (self), 0);
  return self->n_segments;
}

guint64
pgs_ledger_view_get_segment_bytes (PgsLedgerView *self,
                                   guint          segment)
{
  g_return_val_if_fail (PGS_IS_LEDGER_VIEW (self), 0);
  g_return_val_if_fail (segment < self->n_segments, 0);
  return self->seg_bytes[segment];
}

GtkWidget *
pgs_ledger_view_new (void)
{
  return g_object_new (PGS_TYPE_LEDGER_VIEW, NULL);
}

static void
pgs_ledger_view_css_changed (GtkWidget         *widget,
                             GtkCssStyleChange *change)
{
  GTK_WIDGET_CLASS (pgs_ledger_view_parent_class)->css_changed (widget, change);
  update_style (PGS_LEDGER_VIEW (widget));
}

static void
pgs_ledger_view_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  PgsLedgerView *self = PGS_LEDGER_VIEW (object);

  switch (prop_id)
    {
    case PROP_SNAPSHOT:
      g_value_take_object (value, g_weak_ref_get (&self->snapshot));
      break;
    case PROP_UNITS:
      g_value_set_int (value, self->units);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pgs_ledger_view_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  PgsLedgerView *self = PGS_LEDGER_VIEW (object);

  switch (prop_id)
    {
    case PROP_SNAPSHOT:
      pgs_ledger_view_set_snapshot (self, g_value_get_object (value));
      break;
    case PROP_UNITS:
      pgs_ledger_view_set_units (self, g_value_get_int (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pgs_ledger_view_dispose (GObject *object)
{
  PgsLedgerView *self = PGS_LEDGER_VIEW (object);
  GtkWidget *child;

  gtk_widget_dispose_template (GTK_WIDGET (self), PGS_TYPE_LEDGER_VIEW);
  /* GTK 4.8 leaves a template's unnamed top child in place. */
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  g_weak_ref_set (&self->snapshot, NULL);
  g_clear_pointer (&self->ledger, pgs_ledger_free);

  G_OBJECT_CLASS (pgs_ledger_view_parent_class)->dispose (object);
}

static void
pgs_ledger_view_class_init (PgsLedgerViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = pgs_ledger_view_dispose;
  object_class->get_property = pgs_ledger_view_get_property;
  object_class->set_property = pgs_ledger_view_set_property;
  widget_class->css_changed = pgs_ledger_view_css_changed;

  properties[PROP_SNAPSHOT] =
    g_param_spec_object ("snapshot", NULL, NULL, PGS_TYPE_SNAPSHOT,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* A PgsUnits. */
  properties[PROP_UNITS] =
    g_param_spec_int ("units", NULL, NULL, PGS_UNITS_IEC, PGS_UNITS_BYTES, PGS_UNITS_IEC,
                      G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/pagescope/Pagescope/pgs-ledger-view.ui");
  gtk_widget_class_bind_template_child (widget_class, PgsLedgerView, title_label);
  gtk_widget_class_bind_template_child (widget_class, PgsLedgerView, summary_label);
  gtk_widget_class_bind_template_child (widget_class, PgsLedgerView, bar);
  gtk_widget_class_bind_template_child (widget_class, PgsLedgerView, grid);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "ledger");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
pgs_ledger_view_init (PgsLedgerView *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->style = detect_style (GTK_WIDGET (self));
  gtk_drawing_area_set_draw_func (self->bar, draw_bar, self, NULL);
  g_signal_connect (self->bar, "query-tooltip", G_CALLBACK (on_bar_query_tooltip), self);
  build_table (self);
  /* Plain GTK does not restyle when GNOME's setting changes (libadwaita does). */
  if (a11y_settings () != NULL)
    g_signal_connect_object (a11y_settings (), "changed::high-contrast",
                             G_CALLBACK (update_style), self, G_CONNECT_SWAPPED);
  update (self);
}
