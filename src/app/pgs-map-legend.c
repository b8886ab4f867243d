/* pgs-map-legend.c: a map's legend, beside the map
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * On the physical maps with a process chosen, first a row that says how its frames are
 * marked (a swatch drawn as the map draws them: filled, or ringed); then one row per class
 * (swatch, label, count and size), then the rule that says how a pixel over several pages
 * is coloured, and how much free memory is folded away. It describes a renderer (the map
 * view's, bound to :renderer); laid out once per renderer and units, snapshot() only draws.
 */

#include "config.h"

#include <glib/gi18n.h>

#include "pgs-map-legend.h"

#define LEGEND_GAP       12
#define LEGEND_SWATCH    12
#define LEGEND_ROW_GAP    4
#define LEGEND_MAX_WIDTH 340

struct _PgsMapLegend
{
  GtkWidget    parent_instance;
  PgsRenderer *renderer;
  PgsUnits     units;
  GArray      *rows;     /* LegendRow */
  PangoLayout *rule;
  int          width;    /* of the rows, without the gap before them */
  int          height;
};

enum {
  PROP_0,
  PROP_RENDERER,
  PROP_UNITS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (PgsMapLegend, pgs_map_legend, GTK_TYPE_WIDGET)

static PangoLayout *
legend_layout (PgsMapLegend *self,
               const char   *text,
               gboolean      small)
{
  PangoLayout *layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), text);

  if (small)
    {
      PangoAttrList *attrs = pango_attr_list_new ();

      pango_attr_list_insert (attrs, pango_attr_scale_new (0.85));
      pango_layout_set_attributes (layout, attrs);
      pango_attr_list_unref (attrs);
    }
  return layout;
}

static guint
legend_page_size (PgsMapLegend *self)
{
  return self->renderer ? pgs_snapshot_get_page_size (pgs_renderer_get_snapshot (self->renderer))
                        : 4096;
}

static char *
legend_count_text (PgsMapLegend *self,
                   guint64       n_pages)
{
  guint page_size = legend_page_size (self);
  g_autofree char *size = pgs_units_format (self->units, n_pages * page_size);
  g_autofree char *count = pgs_units_format_count (n_pages);

  /* Translators: a legend entry's count: "12,345 · 48.2 MiB" (pages and their size) */
  return g_strdup_printf (_("%s · %s"), count, size);
}

typedef enum
{
  ROW_CLASS,
  ROW_FILLED,    /* the highlight, overlay mode */
  ROW_RINGED,    /* the highlight, outline mode */
  ROW_UNMARKED,  /* a process with no frame in the map: text only */
} RowKind;

typedef struct
{
  RowKind      kind;
  PangoLayout *label;
  PangoLayout *count;   /* NULL on a highlight row */
  guint32      argb;
  guint64      n_pages;
  int          height;
} LegendRow;

/* Lays the legend out: label on the left, count on the right, wrapped and never clipped.
 * Returns the rows; @width and @height receive its size. */
static GArray *
legend_rows (PgsMapLegend *self,
             int          *width,
             int          *height)
{
  GArray *rows = g_array_new (FALSE, TRUE, sizeof (LegendRow));
  guint n = self->renderer ? pgs_renderer_get_n_legend_items (self->renderer) : 0;
  int label_width = 0, count_width = 0, total = 0, full;
  g_autofree char *highlight = NULL;
  gboolean marked = FALSE;

  highlight = self->renderer ? pgs_renderer_describe_highlight (self->renderer, &marked) : NULL;
  if (highlight != NULL)
    {
      LegendRow row = { 0 };

      row.kind = !marked ? ROW_UNMARKED
                 : pgs_renderer_get_highlight_mode (self->renderer) == PGS_HIGHLIGHT_OVERLAY
                 ? ROW_FILLED : ROW_RINGED;
      row.argb = pgs_palette_style (pgs_renderer_get_style (self->renderer))->highlight;
      row.n_pages = 1;   /* drawn in full text colour */
      row.label = legend_layout (self, highlight, FALSE);
      g_array_append_val (rows, row);
    }

  for (guint i = 0; i < n; i++)
    {
      LegendRow row = { 0 };
      const char *label = NULL;
      guint64 n_pages = 0;
      g_autofree char *count = NULL;
      int w, h;

      pgs_renderer_get_legend_item (self->renderer, i, &row.argb, &label, &n_pages);
      row.n_pages = n_pages;
      /* translated already */
      row.label = legend_layout (self, label ? label : "", FALSE);
      count = legend_count_text (self, n_pages);
      row.count = legend_layout (self, count, TRUE);
      pango_layout_get_pixel_size (row.label, &w, &h);
      label_width = MAX (label_width, w);
      pango_layout_get_pixel_size (row.count, &w, &h);
      count_width = MAX (count_width, w);
      g_array_append_val (rows, row);
    }

  /* The legend is always as wide as its limit, labels wrapping within it: a width that
   * followed the counts (or the highlighted name) would move the map sideways on a refresh
   * whenever a count gained a digit, and with it the zoomed-in range the user is reading. */
  full = LEGEND_MAX_WIDTH - (LEGEND_SWATCH + 6);
  label_width = MAX (80, full - 12 - count_width);
  full = MAX (full, label_width + 12 + count_width);

  for (guint i = 0; i < rows->len; i++)
    {
      LegendRow *row = &g_array_index (rows, LegendRow, i);
      int lh, ch;

      pango_layout_set_width (row->label,
                              (row->count != NULL ? label_width : full) * PANGO_SCALE);
      pango_layout_set_wrap (row->label, PANGO_WRAP_WORD_CHAR);
      pango_layout_get_pixel_size (row->label, NULL, &lh);
      ch = 0;
      if (row->count != NULL)
        pango_layout_get_pixel_size (row->count, NULL, &ch);
      row->height = MAX (MAX (lh, ch), LEGEND_SWATCH);
      total += row->height + LEGEND_ROW_GAP;
    }

  *width = rows->len ? LEGEND_SWATCH + 6 + full : 0;
  *height = total;
  return rows;
}

static void
legend_rows_free (GArray *rows)
{
  for (guint i = 0; i < rows->len; i++)
    {
      LegendRow *row = &g_array_index (rows, LegendRow, i);

      g_clear_object (&row->label);
      g_clear_object (&row->count);
    }
  g_array_unref (rows);
}

/* The line about hidden free memory, NULL when none is hidden. */
static char *
hidden_note (PgsMapLegend *self)
{
  guint64 hidden;
  guint n;
  g_autofree char *size = NULL;
  g_autofree char *runs = NULL;

  if (self->renderer == NULL || !pgs_renderer_get_hide_free (self->renderer) ||
      (n = pgs_renderer_get_n_folds (self->renderer)) == 0)
    return NULL;
  hidden = pgs_renderer_get_hidden_frames (self->renderer);
  size = pgs_units_format (self->units, hidden * legend_page_size (self));
  runs = pgs_units_format_count (n);
  /* Translators: the legend, with "Hide free memory" on: "12.3 GiB of free memory is
   * hidden, in 7 runs marked in magenta; the counts above include it." */
  return g_strdup_printf (ngettext ("%s of free memory is hidden, in %s run marked in magenta; "
                                    "the counts above include it.",
                                    "%s of free memory is hidden, in %s runs marked in magenta; "
                                    "the counts above include it.", n),
                          size, runs);
}

static PangoLayout *
rule_layout (PgsMapLegend *self,
             int           width)
{
  const char *rule = self->renderer ? pgs_renderer_get_aggregation_rule (self->renderer) : NULL;
  g_autofree char *hidden = hidden_note (self);
  g_autofree char *text = NULL;
  PangoLayout *layout;

  if (rule == NULL || *rule == '\0' || width <= 0)
    return NULL;
  /* With free memory folded away, the legend says how much is not drawn. */
  text = hidden != NULL ? g_strconcat (rule, "\n\n", hidden, NULL) : g_strdup (rule);
  layout = legend_layout (self, text, TRUE);   /* translated already */
  pango_layout_set_width (layout, width * PANGO_SCALE);
  pango_layout_set_wrap (layout, PANGO_WRAP_WORD_CHAR);
  return layout;
}

static void
update_layout (PgsMapLegend *self)
{
  int width, height, old_width = self->width, old_height = self->height;

  g_clear_pointer (&self->rows, legend_rows_free);
  g_clear_object (&self->rule);

  self->rows = legend_rows (self, &width, &height);
  self->rule = rule_layout (self, width);
  if (self->rule != NULL)
    {
      int rh;

      pango_layout_get_pixel_size (self->rule, NULL, &rh);
      height += LEGEND_GAP + rh;
    }
  self->width = width;
  self->height = height;
  if (old_width != width || old_height != height)
    gtk_widget_queue_resize (GTK_WIDGET (self));
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
get_fg_color (PgsMapLegend *self,
              GdkRGBA      *color)
{
  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  gtk_style_context_get_color (gtk_widget_get_style_context (GTK_WIDGET (self)), color);
  G_GNUC_END_IGNORE_DEPRECATIONS
}

static void
pgs_map_legend_snapshot (GtkWidget   *widget,
                         GtkSnapshot *snapshot)
{
  PgsMapLegend *self = PGS_MAP_LEGEND (widget);
  GArray *rows = self->rows;
  GdkRGBA fg, dim, faint, border;
  int width = self->width;
  float x = LEGEND_GAP, y = 0;

  get_fg_color (self, &fg);
  dim = fg;
  dim.alpha *= 0.7f;
  faint = fg;
  faint.alpha *= 0.4f;
  border = fg;
  border.alpha *= 0.35f;

  if (rows == NULL)
    return;
  for (guint i = 0; i < rows->len; i++)
    {
      LegendRow *row = &g_array_index (rows, LegendRow, i);
      GdkRGBA swatch = {
        ((row->argb >> 16) & 0xff) / 255.f,
        ((row->argb >> 8) & 0xff) / 255.f,
        (row->argb & 0xff) / 255.f,
        1.f,
      };
      graphene_rect_t sr = GRAPHENE_RECT_INIT (x, y + 3, LEGEND_SWATCH, LEGEND_SWATCH);
      GskRoundedRect outline;
      float widths[4] = { 1, 1, 1, 1 };
      GdkRGBA colors[4] = { border, border, border, border };
      int cw;

      if (row->kind == ROW_CLASS || row->kind == ROW_FILLED)
        {
          gtk_snapshot_append_color (snapshot, &swatch, &sr);
          gsk_rounded_rect_init_from_rect (&outline, &sr, 0);
          gtk_snapshot_append_border (snapshot, &outline, widths, colors);
        }
      else if (row->kind == ROW_RINGED)
        {
          float ring[4] = { 2, 2, 2, 2 };
          GdkRGBA ring_colors[4] = { swatch, swatch, swatch, swatch };

          gsk_rounded_rect_init_from_rect (&outline, &sr, 0);
          gtk_snapshot_append_border (snapshot, &outline, ring, ring_colors);
        }

      /* Colours with no page in this map recede, so the ones in use stand out. */
      gtk_snapshot_save (snapshot);
      gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (x + LEGEND_SWATCH + 6, y));
      gtk_snapshot_append_layout (snapshot, row->label, row->n_pages > 0 ? &fg : &faint);
      gtk_snapshot_restore (snapshot);

      if (row->count != NULL)
        {
          pango_layout_get_pixel_size (row->count, &cw, NULL);
          gtk_snapshot_save (snapshot);
          gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (x + width - cw, y + 1));
          gtk_snapshot_append_layout (snapshot, row->count, row->n_pages > 0 ? &dim : &faint);
          gtk_snapshot_restore (snapshot);
        }

      y += row->height + LEGEND_ROW_GAP;
    }

  if (self->rule != NULL)
    {
      gtk_snapshot_save (snapshot);
      gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (x, y + LEGEND_GAP - LEGEND_ROW_GAP));
      gtk_snapshot_append_layout (snapshot, self->rule, &dim);
      gtk_snapshot_restore (snapshot);
    }
}

/* Beside the map, the gap included: an empty legend takes no room at all. */
static void
pgs_map_legend_measure (GtkWidget      *widget,
                        GtkOrientation  orientation,
                        int             for_size,
                        int            *minimum,
                        int            *natural,
                        int            *minimum_baseline,
                        int            *natural_baseline)
{
  PgsMapLegend *self = PGS_MAP_LEGEND (widget);

  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    *minimum = *natural = self->width > 0 ? self->width + LEGEND_GAP : 0;
  else
    *minimum = *natural = self->height;
}

static void
pgs_map_legend_css_changed (GtkWidget         *widget,
                            GtkCssStyleChange *change)
{
  GTK_WIDGET_CLASS (pgs_map_legend_parent_class)->css_changed (widget, change);
  update_layout (PGS_MAP_LEGEND (widget));
}

static void
pgs_map_legend_set_property (GObject      *object,
                             guint         prop_id,
                             const GValue *value,
                             GParamSpec   *pspec)
{
  PgsMapLegend *self = PGS_MAP_LEGEND (object);

  switch (prop_id)
    {
    case PROP_RENDERER:
      if (!g_set_object (&self->renderer, g_value_get_object (value)))
        return;
      break;
    case PROP_UNITS:
      if (self->units == g_value_get_uint (value))
        return;
      self->units = g_value_get_uint (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      return;
    }
  update_layout (self);
}

static void
pgs_map_legend_dispose (GObject *object)
{
  PgsMapLegend *self = PGS_MAP_LEGEND (object);

  g_clear_object (&self->renderer);
  g_clear_pointer (&self->rows, legend_rows_free);
  g_clear_object (&self->rule);
  G_OBJECT_CLASS (pgs_map_legend_parent_class)->dispose (object);
}

static void
pgs_map_legend_class_init (PgsMapLegendClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  /* Written by bindings from the map view, never read. */
  GParamFlags flags = G_PARAM_WRITABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->set_property = pgs_map_legend_set_property;
  object_class->dispose = pgs_map_legend_dispose;
  widget_class->measure = pgs_map_legend_measure;
  widget_class->snapshot = pgs_map_legend_snapshot;
  widget_class->css_changed = pgs_map_legend_css_changed;

  properties[PROP_RENDERER] = g_param_spec_object ("renderer", NULL, NULL, PGS_TYPE_RENDERER, flags);
  /* A PgsUnits. */
  properties[PROP_UNITS] = g_param_spec_uint ("units", NULL, NULL, 0, PGS_UNITS_BYTES, 0, flags);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_css_name (widget_class, "maplegend");
}

static void
pgs_map_legend_init (PgsMapLegend *self)
{
}
