/* pgs-cell.h: the label cells of the process and mapping tables
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

G_END_DECLS
