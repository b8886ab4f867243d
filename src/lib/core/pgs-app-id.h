/* pgs-app-id.h: a desktop application id to its name and icon
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Looks up "@id.desktop" in the XDG data directories (GDesktopAppInfo). Returns FALSE where
 * there is no such desktop file; else sets @name to its Name (localised) and @icon to its
 * icon as g_icon_to_string () gives it, or NULL. */
gboolean pgs_app_id_lookup (const char  *id,
                            char       **name,
                            char       **icon);

G_END_DECLS
