/* pgs-file-name.h: the names the save and export dialogs suggest
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* "@subject-@pid-YYYY-MM-DD-HHMM.@extension" in @time's zone, "-@pid" only when @pid > 0:
 * "firefox-12345-2026-12-03-1502.png". @subject (a process name, a host name: anything)
 * is made a safe file name: valid UTF-8 with no '/', control or format (bidi) characters
 * (each becomes '_'), no leading '.', at most 64 characters; "pagescope" when it is
 * NULL or nothing is left of it. */
char *pgs_file_name_suggest (const char *subject,
                             int         pid,
                             GDateTime  *time,
                             const char *extension);

G_END_DECLS
