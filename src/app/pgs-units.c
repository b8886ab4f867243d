/* pgs-units.c
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "pgs-format.h"
#include "pgs-units.h"

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
