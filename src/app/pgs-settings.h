/* pgs-settings.h: the application's settings, saved where they can be
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* The application's settings: where no backend can save them (dconf without a session
 * bus), GLib's memory backend for the run, said once on stderr. */
GSettings *pgs_settings_get_default (void);

G_END_DECLS
