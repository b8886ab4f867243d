/* pgs-file-png.h: a cairo surface written as a PNG file, whole or not at all
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <cairo.h>
#include <gio/gio.h>

G_BEGIN_DECLS

/* @surface as PNG, through pgs_file_replace_contents(). */
gboolean pgs_file_replace_png      (const char       *path,
                                    cairo_surface_t  *surface,
                                    GError          **error);

G_END_DECLS
