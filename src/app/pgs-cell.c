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

/* gtk_widget_set_tooltip_text() makes GTK ask the X server where the pointer is, a round
 * trip per call: for every cell of a refresh that was most of the main loop's time. The
 * cells keep their tooltip as plain data and hand it over only when one is asked for. */
static gboolean
query_cell_tooltip (GtkWidget  *widget,
                    int         x,
                    int         y,
                    gboolean    keyboard,
                    GtkTooltip *tooltip,
                    gpointer    user_data)
{
  const char *text = g_object_get_data (G_OBJECT (widget), "tooltip");

  if (text == NULL || *text == '\0')
    return FALSE;
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

/* GTK 4.8 lays a label out again even when its text is the same: after a refresh most
 * cells are, and skipping them is most of what keeps a refresh off the main loop. */
static void
set_text (GtkLabel   *label,
          const char *text)
{
  if (text == NULL)
    text = "";
  if (g_strcmp0 (gtk_label_get_text (label), text) != 0)
    gtk_label_set_text (label, text);
}

/* PgsCell */

struct _PgsCell
{
  GtkWidget           parent_instance;

  GtkLabel           *label;
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
  PROP_NUMERIC,
  PROP_ELLIPSIZE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (PgsCell, pgs_cell, GTK_TYPE_WIDGET)

static void
pgs_cell_dispose (GObject *object)
{
  PgsCell *self = PGS_CELL (object);

  if (self->label != NULL)
    gtk_widget_unparent (GTK_WIDGET (self->label));
  self->label = NULL;
  G_OBJECT_CLASS (pgs_cell_parent_class)->dispose (object);
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
      set_text (self->label, g_value_get_string (value));
      break;
    case PROP_TIP:
      g_object_set_data_full (G_OBJECT (self->label), "tooltip",
                              g_value_dup_string (value), g_free);
      break;
    case PROP_NUMERIC:
      /* A figure: right-aligned, with digits of one width so columns line up. */
      gtk_label_set_xalign (self->label, g_value_get_boolean (value) ? 1.0 : 0.0);
      if (g_value_get_boolean (value))
        gtk_widget_add_css_class (GTK_WIDGET (self->label), "numeric");
      else
        gtk_widget_remove_css_class (GTK_WIDGET (self->label), "numeric");
      break;
    case PROP_ELLIPSIZE:
      gtk_label_set_ellipsize (self->label, g_value_get_enum (value));
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
  object_class->set_property = pgs_cell_set_property;
  object_class->get_property = pgs_cell_get_property;
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
  properties[PROP_NUMERIC] = g_param_spec_boolean ("numeric", NULL, NULL, FALSE, flags);
  properties[PROP_ELLIPSIZE] = g_param_spec_enum ("ellipsize", NULL, NULL, PANGO_TYPE_ELLIPSIZE_MODE,
                                                  PANGO_ELLIPSIZE_NONE, flags);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

static void
pgs_cell_init (PgsCell *self)
{
  self->label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->label, 0.0);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self->label), TRUE);
  g_signal_connect (self->label, "query-tooltip", G_CALLBACK (query_cell_tooltip), NULL);
  gtk_widget_set_parent (GTK_WIDGET (self->label), GTK_WIDGET (self));
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
