/* pgs-app-id.c
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <gio/gdesktopappinfo.h>

#include "pgs-app-id.h"

gboolean
pgs_app_id_lookup (const char  *id,
                   char       **name,
                   char       **icon)
{
  g_autoptr(GDesktopAppInfo) info = NULL;
  g_autofree char *file = NULL;
  GIcon *gicon;

  g_return_val_if_fail (id != NULL, FALSE);
  g_return_val_if_fail (name != NULL && icon != NULL, FALSE);

  /* An id with a slash or a NUL-free oddity is not a desktop id; GDesktopAppInfo would
   * read it as a path. */
  if (*id == '\0' || strchr (id, '/') != NULL)
    return FALSE;
  file = g_strconcat (id, ".desktop", NULL);
  info = g_desktop_app_info_new (file);
  if (info == NULL)
    return FALSE;

  *name = g_strdup (g_app_info_get_name (G_APP_INFO (info)));
  gicon = g_app_info_get_icon (G_APP_INFO (info));
  *icon = gicon != NULL ? g_icon_to_string (gicon) : NULL;
  return TRUE;
}
