/* pgs-cell.c
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Both tables refresh every cell in place on each scan; these keep that cheap on GTK 4.8.
 */

#include "config.h"

#include <glib/gi18n.h>

#include "pgs-cell.h"
#include "pgs-page.h"
#include "pgs-units.h"

/* PgsCell: one table cell's text, drawn by the cell itself.
 *
 * GTK 4.8's list views keep up to 200 rows of widgets per table whatever is in view, so a
 * table of 15 columns holds 3,000 cells. A GtkLabel inside each cell was a widget, a CSS
 * node and an accessible object more per cell, and laid itself out again on every
 * refresh. The cell keeps its text and a PangoLayout, measures and draws them, and reports
 * the text as its accessible label. */

struct _PgsCell
{
  GtkWidget           parent_instance;

  char               *text;
  char               *tip;          /* handed over only when a tooltip is asked for */
  GtkExpression      *tip_expression;  /* or worked out then */
  PangoLayout        *layout;       /* of text, in the cell's font; NULL until needed */
  gboolean            numeric;
  PangoEllipsizeMode  ellipsize;
  GtkWidget          *page;         /* the PgsPage it is shown in, while rooted */
  PgsUnits            units;        /* that page's session's */
  gulong              units_handler;
};

enum {
  PROP_0,
  PROP_PAGE,
  PROP_UNITS,
  PROP_TEXT,
  PROP_TIP,
  PROP_TIP_EXPRESSION,
  PROP_NUMERIC,
  PROP_ELLIPSIZE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (PgsCell, pgs_cell, GTK_TYPE_WIDGET)

static PangoLayout *
ensure_layout (PgsCell *self)
{
  if (self->layout == NULL)
    {
      self->layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), self->text);
      pango_layout_set_ellipsize (self->layout, self->ellipsize);
      /* Digits of one width, so a column's figures line up (libadwaita's .numeric). */
      if (self->numeric)
        {
          PangoAttrList *attrs = pango_attr_list_new ();

          pango_attr_list_insert (attrs, pango_attr_font_features_new ("tnum=1"));
          pango_layout_set_attributes (self->layout, attrs);
          pango_attr_list_unref (attrs);
        }
    }
  return self->layout;
}

static void
pgs_cell_measure (GtkWidget      *widget,
                  GtkOrientation  orientation,
                  int             for_size,
                  int            *minimum,
                  int            *natural,
                  int            *minimum_baseline,
                  int            *natural_baseline)
{
  PgsCell *self = PGS_CELL (widget);
  PangoLayout *layout = ensure_layout (self);
  PangoRectangle logical;

  /* The whole text, not cut to the last allocation. */
  pango_layout_set_width (layout, -1);
  pango_layout_get_pixel_extents (layout, NULL, &logical);
  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      *natural = logical.width;
      /* An ellipsized cell can be as narrow as its ellipsis. */
      *minimum = self->ellipsize != PANGO_ELLIPSIZE_NONE ? MIN (logical.width, logical.height) : logical.width;
    }
  else
    {
      *minimum = *natural = logical.height;
      *minimum_baseline = *natural_baseline = pango_layout_get_baseline (layout) / PANGO_SCALE;
    }
}

static void
pgs_cell_snapshot (GtkWidget   *widget,
                   GtkSnapshot *snapshot)
{
  PgsCell *self = PGS_CELL (widget);
  PangoLayout *layout;
  PangoRectangle logical;
  GdkRGBA color;
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  gboolean end;

  if (self->text == NULL || *self->text == '\0')
    return;
  layout = ensure_layout (self);
  pango_layout_set_width (layout, self->ellipsize != PANGO_ELLIPSIZE_NONE ? width * PANGO_SCALE : -1);
  pango_layout_get_pixel_extents (layout, NULL, &logical);
  /* A figure at the end of its column, a name at the start, as the text direction says. */
  end = self->numeric != (gtk_widget_get_direction (widget) == GTK_TEXT_DIR_RTL);
G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  gtk_style_context_get_color (gtk_widget_get_style_context (widget), &color);
G_GNUC_END_IGNORE_DEPRECATIONS
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (end ? width - logical.width : 0,
                                                         (height - logical.height) / 2));
  gtk_snapshot_append_layout (snapshot, layout, &color);
  gtk_snapshot_restore (snapshot);
}

/* The font or the text direction changed: the layout is made again when next needed. */
static void
pgs_cell_css_changed (GtkWidget         *widget,
                      GtkCssStyleChange *change)
{
  PgsCell *self = PGS_CELL (widget);

  GTK_WIDGET_CLASS (pgs_cell_parent_class)->css_changed (widget, change);
  g_clear_object (&self->layout);
}

static void
pgs_cell_direction_changed (GtkWidget        *widget,
                            GtkTextDirection  previous)
{
  g_clear_object (&PGS_CELL (widget)->layout);
  gtk_widget_queue_resize (widget);
}

/* gtk_widget_set_tooltip_text() makes GTK ask the X server where the pointer is, a round
 * trip per call: for every cell of a refresh that was most of the main loop's time. The
 * cell keeps its tooltip as plain data and hands it over only when one is asked for. */
/* The tooltip the cell shows, worked out now; NULL for none. */
char *
pgs_cell_get_tip (PgsCell *self)
{
  g_auto(GValue) value = G_VALUE_INIT;

  g_return_val_if_fail (PGS_IS_CELL (self), NULL);
  if (self->tip_expression != NULL && gtk_expression_evaluate (self->tip_expression, NULL, &value))
    return g_value_dup_string (&value);
  return g_strdup (self->tip);
}

static gboolean
pgs_cell_query_tooltip (GtkWidget  *widget,
                        int         x,
                        int         y,
                        gboolean    keyboard,
                        GtkTooltip *tooltip)
{
  g_autofree char *text = pgs_cell_get_tip (PGS_CELL (widget));

  if (text == NULL || *text == '\0')
    return FALSE;
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

/* After a refresh most cells show the text they had: those cost nothing. A new text of
 * the same width is drawn again without a new layout of the table. */
static void
set_text (PgsCell    *self,
          const char *text)
{
  int before = -1, after = -1;

  if (text == NULL)
    text = "";
  if (g_strcmp0 (self->text, text) == 0)
    return;
  g_free (self->text);
  self->text = g_strdup (text);
  if (self->layout != NULL)
    {
      pango_layout_set_width (self->layout, -1);
      pango_layout_get_pixel_size (self->layout, &before, NULL);
      pango_layout_set_text (self->layout, text, -1);
      pango_layout_get_pixel_size (self->layout, &after, NULL);
    }
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL, text, -1);
  if (before != after || before < 0)
    gtk_widget_queue_resize (GTK_WIDGET (self));
  else
    gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* The text shown, for tests and accessibility tools. */
const char *
pgs_cell_get_text (PgsCell *self)
{
  g_return_val_if_fail (PGS_IS_CELL (self), NULL);
  return self->text != NULL ? self->text : "";
}

static void
pgs_cell_dispose (GObject *object)
{
  PgsCell *self = PGS_CELL (object);

  g_clear_object (&self->layout);
  g_clear_pointer (&self->tip_expression, gtk_expression_unref);
  G_OBJECT_CLASS (pgs_cell_parent_class)->dispose (object);
}

static void
pgs_cell_finalize (GObject *object)
{
  PgsCell *self = PGS_CELL (object);

  g_free (self->text);
  g_free (self->tip);
  G_OBJECT_CLASS (pgs_cell_parent_class)->finalize (object);
}

static void
pgs_cell_set_property (GObject      *object,
                       guint         prop_id,
                       const GValue *value,
                       GParamSpec   *pspec)
{
  PgsCell *self = PGS_CELL (object);

  switch (prop_id)
    {
    case PROP_TEXT:
      set_text (self, g_value_get_string (value));
      break;
    case PROP_TIP:
      g_free (self->tip);
      self->tip = g_value_dup_string (value);
      break;
    case PROP_TIP_EXPRESSION:
      g_clear_pointer (&self->tip_expression, gtk_expression_unref);
      self->tip_expression = gtk_value_dup_expression (value);
      break;
    case PROP_NUMERIC:
      self->numeric = g_value_get_boolean (value);
      g_clear_object (&self->layout);
      gtk_widget_queue_resize (GTK_WIDGET (self));
      break;
    case PROP_ELLIPSIZE:
      self->ellipsize = g_value_get_enum (value);
      g_clear_object (&self->layout);
      gtk_widget_queue_resize (GTK_WIDGET (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}
static void
pgs_cell_get_property (GObject    *object,
                       guint       prop_id,
                       GValue     *value,
                       GParamSpec *pspec)
{
  PgsCell *self = PGS_CELL (object);

  switch (prop_id)
    {
    case PROP_PAGE:
      g_value_set_object (value, self->page);
      break;
    case PROP_UNITS:
      g_value_set_enum (value, self->units);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
follow_units (PgsCell    *self,
              GParamSpec *pspec,
              PgsSession *session)
{
  if (session != NULL && self->units != pgs_session_get_units (session))
    {
      self->units = pgs_session_get_units (session);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_UNITS]);
    }
}

/* A cell's template cannot name the page its table is on (a list item is built apart):
 * the cell finds it once shown, and follows its session's units, for the template's
 * bindings to read as cell.page and cell.units. Through the page's detailed
 * session-notify signal, not an expression watch: a screenful of cells is rooted in one
 * frame when a table is first shown, and a handler costs a fraction of a watch's ~10 us.
 * (Rooting cannot ask whether a binding reads the units: a list item's child is set, and
 * so rooted, before its template's bindings are in place.) */
static void
pgs_cell_root (GtkWidget *widget)
{
  PgsCell *self = PGS_CELL (widget);

  GTK_WIDGET_CLASS (pgs_cell_parent_class)->root (widget);
  self->page = gtk_widget_get_ancestor (widget, PGS_TYPE_PAGE);
  if (self->page == NULL)
    return;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PAGE]);
  follow_units (self, NULL, pgs_page_get_session (PGS_PAGE (self->page)));
  self->units_handler = g_signal_connect_swapped (self->page, "session-notify::units",
                                                  G_CALLBACK (follow_units), self);
}

static void
pgs_cell_unroot (GtkWidget *widget)
{
  PgsCell *self = PGS_CELL (widget);

  if (self->units_handler != 0)
    g_clear_signal_handler (&self->units_handler, self->page);
  self->page = NULL;
  GTK_WIDGET_CLASS (pgs_cell_parent_class)->unroot (widget);
}

static void
pgs_cell_class_init (PgsCellClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  /* Written by the template's bindings, never read. */
  GParamFlags flags = G_PARAM_WRITABLE | G_PARAM_STATIC_STRINGS;

  object_class->dispose = pgs_cell_dispose;
  object_class->finalize = pgs_cell_finalize;
  object_class->set_property = pgs_cell_set_property;
  object_class->get_property = pgs_cell_get_property;
  widget_class->measure = pgs_cell_measure;
  widget_class->snapshot = pgs_cell_snapshot;
  widget_class->css_changed = pgs_cell_css_changed;
  widget_class->direction_changed = pgs_cell_direction_changed;
  widget_class->query_tooltip = pgs_cell_query_tooltip;
  widget_class->root = pgs_cell_root;
  widget_class->unroot = pgs_cell_unroot;

  properties[PROP_PAGE] = g_param_spec_object ("page", NULL, NULL, GTK_TYPE_WIDGET,
                                               G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY |
                                               G_PARAM_STATIC_STRINGS);
  /* Followed from the session (follow_units), read by the bindings: nothing writes it. */
  properties[PROP_UNITS] = g_param_spec_enum ("units", NULL, NULL, PGS_TYPE_UNITS, PGS_UNITS_IEC,
                                              G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY |
                                              G_PARAM_STATIC_STRINGS);
  properties[PROP_TEXT] = g_param_spec_string ("text", NULL, NULL, NULL, flags);
  properties[PROP_TIP] = g_param_spec_string ("tip", NULL, NULL, NULL, flags);
  /* A tooltip worked out only when it is asked for, not for 3,000 cells at each refresh:
   * the template's expression (of the list item, as its bindings are), not a binding. */
  properties[PROP_TIP_EXPRESSION] = gtk_param_spec_expression ("tip-expression", NULL, NULL, flags);
  properties[PROP_NUMERIC] = g_param_spec_boolean ("numeric", NULL, NULL, FALSE, flags);
  properties[PROP_ELLIPSIZE] = g_param_spec_enum ("ellipsize", NULL, NULL, PANGO_TYPE_ELLIPSIZE_MODE,
                                                  PANGO_ELLIPSIZE_NONE, flags);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_LABEL);
}

static void
pgs_cell_init (PgsCell *self)
{
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
}

/* The template closures */

static const struct
{
  const char *name;
  PgsMetric   metric;
} metric_names[] = {
  { "vss", PGS_METRIC_VSS }, { "rss", PGS_METRIC_RSS }, { "pss", PGS_METRIC_PSS },
  { "uss", PGS_METRIC_USS }, { "swap", PGS_METRIC_SWAP }, { "clean", PGS_METRIC_CLEAN },
  { "dirty", PGS_METRIC_DIRTY }, { "shared", PGS_METRIC_SHARED },
  { "private", PGS_METRIC_PRIVATE },
};

PgsMetric
pgs_cell_metric_named (const char *name)
{
  for (guint i = 0; i < G_N_ELEMENTS (metric_names); i++)
    if (g_str_equal (metric_names[i].name, name))
      return metric_names[i].metric;
  g_return_val_if_reached (0);
}

static gboolean
item_knows (GObject    *item,
            const char *metric)
{
  guint known = 0;

  g_object_get (item, "known", &known, NULL);
  return (known & pgs_cell_metric_named (metric)) != 0;
}

char *
pgs_cell_size_in (gpointer    this,
                  GObject    *item,
                  const char *metric,
                  PgsUnits    units)
{
  guint64 value = 0;

  if (item == NULL)
    return NULL;
  if (!item_knows (item, metric))
    return g_strdup (PGS_UNKNOWN_TEXT);
  g_object_get (item, metric, &value, NULL);
  return pgs_units_format (units, value);
}

char *
pgs_cell_size (gpointer    this,
               GObject    *item,
               const char *metric)
{
  return pgs_cell_size_in (this, item, metric, PGS_UNITS_IEC);
}

/* An unknown size says why; a known one the exact count of bytes. */
char *
pgs_cell_size_tip (gpointer    this,
                   GObject    *item,
                   const char *metric)
{
  g_autofree char *reason = NULL;
  g_autofree char *bytes = NULL;
  guint64 value = 0;

  if (item == NULL)
    return NULL;
  if (item_knows (item, metric))
    {
      g_object_get (item, metric, &value, NULL);
      bytes = pgs_units_format_count (value);
      /* Translators: a size's tooltip: "1,234,567 bytes" */
      return g_strdup_printf (_("%s bytes"), bytes);
    }
  g_object_get (item, "unknown-reason", &reason, NULL);
  return reason != NULL ? g_steal_pointer (&reason) : g_strdup (_("Unknown"));
}

char *
pgs_cell_count (gpointer this,
                guint    count)
{
  return g_strdup_printf ("%u", count);
}

void
pgs_cell_class_add_callbacks (GtkWidgetClass *widget_class)
{
  g_type_ensure (PGS_TYPE_CELL);
  gtk_widget_class_bind_template_callback_full (widget_class, "size", G_CALLBACK (pgs_cell_size));
  gtk_widget_class_bind_template_callback_full (widget_class, "size_in", G_CALLBACK (pgs_cell_size_in));
  gtk_widget_class_bind_template_callback_full (widget_class, "size_tip",
                                                G_CALLBACK (pgs_cell_size_tip));
  gtk_widget_class_bind_template_callback_full (widget_class, "count", G_CALLBACK (pgs_cell_count));
}
