/* pgs-units.h: sizes as the app shows them
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>

#include "pgs-render.h"

G_BEGIN_DECLS

/* The "units" setting. */
typedef enum
{
  PGS_UNITS_IEC,
  PGS_UNITS_BYTES,
} PgsUnits;

/* The enums of the display settings as GTypes, their nicks the settings' values. */
#define PGS_TYPE_UNITS          (pgs_units_get_type ())
#define PGS_TYPE_LAYOUT         (pgs_layout_get_type ())
#define PGS_TYPE_HIGHLIGHT_MODE (pgs_highlight_mode_get_type ())
GType pgs_units_get_type          (void) G_GNUC_CONST;
GType pgs_layout_get_type         (void) G_GNUC_CONST;
GType pgs_highlight_mode_get_type (void) G_GNUC_CONST;

PgsUnits  pgs_units_from_string (const char *nick);
char     *pgs_units_format      (PgsUnits    units,
                                 guint64     bytes);

/* A count with the locale's digit grouping: "6,291,456". */
char     *pgs_units_format_count (guint64    n);
/* An address, offset or frame number: "0x7f12345000". */
char     *pgs_units_format_hex   (guint64    n);

/* Numbers go into translatable messages as strings made by the two above: xgettext cannot
 * see through G_GUINT64_FORMAT, so a message spelled with it would never be translated. */

/* What the app shows in place of a size that could not be read. Its reason goes in a
 * tooltip: an unknown value is never shown as 0. */
#define PGS_UNKNOWN_TEXT "—"

G_END_DECLS
