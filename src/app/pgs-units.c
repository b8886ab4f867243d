/* pgs-units.c
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "pgs-format.h"
#include "pgs-units.h"

G_DEFINE_ENUM_TYPE (PgsUnits, pgs_units,
  G_DEFINE_ENUM_VALUE (PGS_UNITS_IEC, "iec"),
  G_DEFINE_ENUM_VALUE (PGS_UNITS_BYTES, "bytes"))
G_DEFINE_ENUM_TYPE (PgsLayout, pgs_layout,
  G_DEFINE_ENUM_VALUE (PGS_LAYOUT_LINEAR, "linear"),
  G_DEFINE_ENUM_VALUE (PGS_LAYOUT_HILBERT, "hilbert"))
G_DEFINE_ENUM_TYPE (PgsHighlightMode, pgs_highlight_mode,
  G_DEFINE_ENUM_VALUE (PGS_HIGHLIGHT_OUTLINE, "outline"),
  G_DEFINE_ENUM_VALUE (PGS_HIGHLIGHT_OVERLAY, "overlay"))

PgsUnits
pgs_units_from_string (const char *nick)
{
  return g_strcmp0 (nick, "bytes") == 0 ? PGS_UNITS_BYTES : PGS_UNITS_IEC;
}

char *
pgs_units_format (PgsUnits units,
                  guint64  bytes)
{
  if (units == PGS_UNITS_IEC)
    return pgs_format_size (bytes);

  /* The locale's digit grouping: 1,234,567,890 reads, 1234567890 does not. */
  return pgs_units_format_count (bytes);
}

char *
pgs_units_format_count (guint64 n)
{
  return g_strdup_printf ("%'" G_GUINT64_FORMAT, n);
}

char *
pgs_units_format_hex (guint64 n)
{
  return g_strdup_printf ("0x%" G_GINT64_MODIFIER "x", n);
}
