/* pgs-format.h: sizes for people
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* IEC units with one decimal above KiB: "812 B", "4.0 KiB", "1.5 GiB". */
char *pgs_format_size (guint64 bytes);

G_END_DECLS
