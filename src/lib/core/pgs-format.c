/* pgs-format.c
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "pgs-format.h"

char *
pgs_format_size (guint64 bytes)
{
  static const char *const units[] = { "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
  double value = bytes;
  guint unit = 0;

  if (bytes < 1024)
    return g_strdup_printf ("%" G_GUINT64_FORMAT " B", bytes);

  value /= 1024.0;
  while (value >= 1024.0 && unit + 1 < G_N_ELEMENTS (units))
    {
      value /= 1024.0;
      unit++;
    }
  /* Round the way printf does, but never show "1024.0 KiB": move up a unit instead. */
  if (value >= 1023.95 && unit + 1 < G_N_ELEMENTS (units))
    {
      value /= 1024.0;
      unit++;
    }
  return g_strdup_printf ("%.1f %s", value, units[unit]);
}
