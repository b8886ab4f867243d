/* pgs-settings.c: the application's settings, saved where they can be
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#define G_SETTINGS_ENABLE_BACKEND
#include <gio/gsettingsbackend.h>

#include "pgs-settings.h"

GSettings *
pgs_settings_get_default (void)
{
  static GSettings *settings;

  if (g_once_init_enter (&settings))
    {
      g_autoptr(GSettingsBackend) backend = g_settings_backend_get_default ();
      g_autoptr(GDBusConnection) bus = NULL;
      GSettings *made;

      /* dconf commits through the session bus: without one (sudo, a bare X session) every
       * change would be undone a moment later, with a warning. */
      if (g_str_equal (G_OBJECT_TYPE_NAME (backend), "DConfSettingsBackend") &&
          (bus = g_bus_get_sync (G_BUS_TYPE_SESSION, NULL, NULL)) == NULL)
        {
          g_autoptr(GSettingsBackend) memory = g_memory_settings_backend_new ();

          g_printerr (_("pagescope: no session bus to save settings through: settings are kept "
                        "in memory until Pagescope quits\n"));
          made = g_settings_new_with_backend (APP_ID, memory);
        }
      else
        made = g_settings_new (APP_ID);
      g_once_init_leave (&settings, made);
    }
  return settings;
}
