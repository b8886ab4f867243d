/* pgs-test-render.h: reading a rendered map back, for the render tests
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <cairo.h>
#include <glib.h>

G_BEGIN_DECLS

/* The ARGB32 pixel at @x, @y of an image surface. */
guint32 pgs_test_pixel (cairo_surface_t *surface,
                        int              x,
                        int              y);

/* Point @d of the Hilbert curve of side @side (a power of 2), worked out independently of
 * the library: the curve of side 2^k is four curves of side 2^(k-1), the first transposed,
 * the middle two as they are, the last transposed about the other diagonal; it starts at
 * (0, 0) and ends at (side - 1, 0). */
void    pgs_test_d2xy  (guint64          side,
                        guint64          d,
                        guint64         *x,
                        guint64         *y);

G_END_DECLS
