/* pgs-file.h: files written whole or not at all
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* Writes @data to a new file in the directory of @path, then renames it over @path: a
 * reader sees the old file or the new one, never a part; a failure leaves no temporary file
 * and an existing @path untouched. An existing file keeps its permissions. A @path that is
 * a device or a FIFO (/dev/stdout, /dev/full) has nothing to replace and is written in
 * place. Errors are G_IO_ERROR, "cannot write “PATH”: REASON" with the system's reason. */
gboolean pgs_file_replace_contents (const char  *path,
                                    const void  *data,
                                    gsize        len,
                                    GError     **error);

G_END_DECLS
