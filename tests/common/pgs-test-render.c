/* pgs-test-render.c: reading a rendered map back, for the render tests
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "pgs-test-render.h"

guint32
pgs_test_pixel (cairo_surface_t *surface,
                int              x,
                int              y)
{
  const guint8 *data = cairo_image_surface_get_data (surface);

  return *(const guint32 *) (data + (gsize) y * cairo_image_surface_get_stride (surface) + x * 4);
}

void
pgs_test_d2xy (guint64  side,
               guint64  d,
               guint64 *x,
               guint64 *y)
{
  guint64 half = side / 2, q, sx, sy;

  if (side == 1)
    {
      *x = *y = 0;
      return;
    }
  q = d / (half * half);
  pgs_test_d2xy (half, d % (half * half), &sx, &sy);
  switch (q)
    {
    case 0: *x = sy; *y = sx; break;
    case 1: *x = sx; *y = sy + half; break;
    case 2: *x = sx + half; *y = sy + half; break;
    default: *x = side - 1 - sy; *y = half - 1 - sx; break;
    }
}
