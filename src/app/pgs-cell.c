/* pgs-cell.c
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Both tables refresh every cell in place on each scan; these keep that cheap on GTK 4.8.
 */

#include "config.h"

#include "pgs-cell.h"

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

GtkWidget *
pgs_cell_new (void)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_widget_set_has_tooltip (label, TRUE);
  g_signal_connect (label, "query-tooltip", G_CALLBACK (query_cell_tooltip), NULL);
  return label;
}

/* GTK 4.8 lays a label out again even when its text is the same: after a refresh most
 * cells are, and skipping them is most of what keeps a refresh off the main loop. */
void
pgs_cell_set_text (GtkLabel   *label,
                   const char *text)
{
  if (text == NULL)
    text = "";
  if (g_strcmp0 (gtk_label_get_text (label), text) != 0)
    gtk_label_set_text (label, text);
}

void
pgs_cell_set_tooltip (GtkWidget  *widget,
                      const char *text)
{
  g_object_set_data_full (G_OBJECT (widget), "tooltip", g_strdup (text), g_free);
}

/* A cell for a figure: right-aligned, with digits of one width so columns line up. */
GtkWidget *
pgs_cell_new_numeric (void)
{
  GtkWidget *label = pgs_cell_new ();

  gtk_label_set_xalign (GTK_LABEL (label), 1.0);
  gtk_widget_add_css_class (label, "numeric");
  return label;
}

/* A cell for a name or a path: left-aligned, cut where `ellipsize` says when too long. */
GtkWidget *
pgs_cell_new_text (PangoEllipsizeMode ellipsize)
{
  GtkWidget *label = pgs_cell_new ();

  gtk_label_set_xalign (GTK_LABEL (label), 0.0);
  gtk_label_set_ellipsize (GTK_LABEL (label), ellipsize);
  return label;
}

/* Appends a resizable column made by `factory` (taken over) to `view`. */
void
pgs_cell_append_column (GtkColumnView      *view,
                        const char         *title,
                        GtkListItemFactory *factory,
                        gboolean            expand)
{
  g_autoptr(GtkColumnViewColumn) column = gtk_column_view_column_new (title, factory);

  gtk_column_view_column_set_expand (column, expand);
  gtk_column_view_column_set_resizable (column, TRUE);
  gtk_column_view_append_column (view, column);
}

GtkListItemFactory *
pgs_cell_factory_new (GCallback setup,
                      GCallback bind,
                      GCallback unbind,
                      gpointer  data)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();

  if (setup != NULL)
    g_signal_connect (factory, "setup", setup, data);
  if (bind != NULL)
    g_signal_connect (factory, "bind", bind, data);
  if (unbind != NULL)
    g_signal_connect (factory, "unbind", unbind, data);
  return factory;
}
