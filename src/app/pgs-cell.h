/* pgs-cell.h: the label cells and columns of the app's tables
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

GtkWidget *pgs_cell_new         (void);
void       pgs_cell_set_text    (GtkLabel   *label,
                                 const char *text);
void       pgs_cell_set_tooltip (GtkWidget  *widget,
                                 const char *text);

GtkWidget *pgs_cell_new_numeric (void);
GtkWidget *pgs_cell_new_text    (PangoEllipsizeMode ellipsize);
/* A factory calling @setup, @bind and @unbind (each NULL for none) with @data. */
GtkListItemFactory *pgs_cell_factory_new (GCallback setup,
                                          GCallback bind,
                                          GCallback unbind,
                                          gpointer  data);
void       pgs_cell_append_column (GtkColumnView      *view,
                                   const char         *title,
                                   GtkListItemFactory *factory,
                                   gboolean            expand);

G_END_DECLS
