/* pgs-map-style.c: which map style (light, dark, high contrast) suits the window
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The renderer knows nothing of GTK: the view tells it the style. Dark or light comes from
 * the widget's own CSS foreground (light text means a dark theme, whatever made it so:
 * libadwaita's style manager, GTK's theme, a user's CSS); high contrast from GTK's
 * HighContrast themes or GNOME's accessibility setting, which libadwaita follows. Both are
 * looked at again whenever the widget's CSS changes, which is what a switch of either
 * causes, and a change renders the map again from the snapshot it has: no rescan.
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "pgs-map-style.h"

#define A11Y_SCHEMA "org.gnome.desktop.a11y.interface"

static double
channel (float c)
{
  return c <= 0.04045 ? c / 12.92 : pow ((c + 0.055) / 1.055, 2.4);
}

/* GNOME's setting, where its schema is installed; made once. */
GSettings *
pgs_map_style_a11y_settings (void)
{
  static GSettings *settings;
  static gsize once;

  if (g_once_init_enter (&once))
    {
      GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
      g_autoptr(GSettingsSchema) schema = NULL;

      schema = source != NULL ? g_settings_schema_source_lookup (source, A11Y_SCHEMA, TRUE)
                              : NULL;
      if (schema != NULL && g_settings_schema_has_key (schema, "high-contrast"))
        settings = g_settings_new (A11Y_SCHEMA);
      g_once_init_leave (&once, 1);
    }
  return settings;
}

static gboolean
wants_high_contrast (GtkWidget *widget)
{
  g_autofree char *theme = NULL;

  g_object_get (gtk_widget_get_settings (widget), "gtk-theme-name", &theme, NULL);
  if (theme != NULL && strstr (theme, "HighContrast") != NULL)
    return TRUE;
  return pgs_map_style_a11y_settings () != NULL && g_settings_get_boolean (pgs_map_style_a11y_settings (), "high-contrast");
}

PgsRenderStyle
pgs_map_style_detect (GtkWidget *widget)
{
  GdkRGBA fg;
  gboolean dark, hc;

  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  gtk_style_context_get_color (gtk_widget_get_style_context (widget), &fg);
  G_GNUC_END_IGNORE_DEPRECATIONS
  /* Text lighter than mid grey (relative luminance 0.18, L* 50) is drawn on a dark
   * background. */
  dark = 0.2126 * channel (fg.red) + 0.7152 * channel (fg.green) +
         0.0722 * channel (fg.blue) > 0.18;
  hc = wants_high_contrast (widget);
  if (hc)
    return dark ? PGS_RENDER_STYLE_HC_DARK : PGS_RENDER_STYLE_HC_LIGHT;
  return dark ? PGS_RENDER_STYLE_DARK : PGS_RENDER_STYLE_LIGHT;
}
