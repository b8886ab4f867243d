/* pgs-tooltip.h: a widget's tooltip set only when it changes
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * gtk_widget_set_tooltip_text() asks the display where the pointer is (on X11 a round trip
 * to the server, XQueryPointer) each time it is called, even with the text it already has.
 * Views that set their tooltips again at every refresh spent most of an idle refresh's main
 * loop time waiting on those replies; the same text set again is no call at all here.
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

static inline void
pgs_set_tooltip_text (GtkWidget  *widget,
                      const char *text)
{
  /* GTK keeps an empty text as none. */
  if (text != NULL && *text == '\0')
    text = NULL;
  if (g_strcmp0 (gtk_widget_get_tooltip_text (widget), text) != 0)
    gtk_widget_set_tooltip_text (widget, text);
}

G_END_DECLS
