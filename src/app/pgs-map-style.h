/* pgs-map-style.h: which map style (light, dark, high contrast) suits a widget
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "pgs-render.h"

G_BEGIN_DECLS

/* From the widget's CSS foreground and the high-contrast settings. */
PgsRenderStyle  pgs_map_style_detect        (GtkWidget *widget);
/* GNOME's accessibility settings, NULL where the schema is not installed. Plain GTK does
 * not restyle when their high-contrast key changes (libadwaita does): watch it. */
GSettings      *pgs_map_style_a11y_settings (void);

G_END_DECLS
