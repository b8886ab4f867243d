/* pgs-render-access.h: DAMON's access heat as a picture, time × physical address
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <cairo.h>
#include <gio/gio.h>

#include "pgs-damon-access.h"
#include "pgs-palette.h"

G_BEGIN_DECLS

typedef struct
{
  GPtrArray      *aggregations;     /* PgsDamonAggregation, in time order */
  guint64         max_nr_accesses;  /* aggr_us / sample_us; 0: the highest seen */
  double          aggr_seconds;     /* 0: unknown (no per-second figure) */
  const char     *resolution;       /* one line on the monitor's resolution, or NULL */
  PgsRenderStyle  style;
} PgsAccessView;

/* The address axis: the ranges some region covers in some aggregation, merged and in
 * order; what lies between them is folded away. PgsDamonRange. */
GArray          *pgs_render_access_spans   (GPtrArray            *aggregations);

/* The map alone, @width × @height pixels 0xAARRGGBB row by row: column bands one per
 * aggregation (left to right in time), rows the covered addresses (top: lowest), each
 * pixel the hottest region in it on the ramp; no region: the background. */
guint32         *pgs_render_access_pixels  (const PgsAccessView  *view,
                                            int                   width,
                                            int                   height);

/* Which aggregation and region pixel (@x, @y) of a @width × @height map shows: the one
 * hit test for the PNG's tests (and a future view's hover). */
gboolean         pgs_render_access_hit     (const PgsAccessView  *view,
                                            int                   width,
                                            int                   height,
                                            int                   x,
                                            int                   y,
                                            guint                *aggregation,
                                            guint                *region);

/* The map with, if @legend, a legend below it (title, resolution, ramp with its units). */
cairo_surface_t *pgs_render_access_surface (const PgsAccessView  *view,
                                            int                   width,
                                            int                   height,
                                            gboolean              legend);
gboolean         pgs_render_access_write_png (const PgsAccessView *view,
                                              const char          *path,
                                              int                  width,
                                              int                  height,
                                              gboolean             legend,
                                              GError             **error);

G_END_DECLS
