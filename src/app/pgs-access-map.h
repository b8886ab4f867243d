/* pgs-access-map.h: DAMON's access heat drawn at the widget's size
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "pagescope.h"

G_BEGIN_DECLS

#define PGS_TYPE_ACCESS_MAP (pgs_access_map_get_type ())

G_DECLARE_FINAL_TYPE (PgsAccessMap, pgs_access_map, PGS, ACCESS_MAP, GtkWidget)

/* @aggregations (PgsDamonAggregation, time order; NULL: nothing) is kept, not copied;
 * @max_nr_accesses and @aggr_seconds as in PgsAccessView (0: unknown). */
void        pgs_access_map_set_aggregations (PgsAccessMap *self,
                                             GPtrArray    *aggregations,
                                             guint64       max_nr_accesses,
                                             double        aggr_seconds);
/* The one hit test: which aggregation and region the point (@x, @y) in widget
 * coordinates shows. Hover, tooltip and tests use it. */
gboolean    pgs_access_map_hit              (PgsAccessMap *self,
                                             double        x,
                                             double        y,
                                             guint        *aggregation,
                                             guint        *region);
/* What the tooltip says about the point, or NULL where no region is. */
char       *pgs_access_map_describe         (PgsAccessMap *self,
                                             double        x,
                                             double        y);

/* As a click at @x, @y: emits region-activated for the region there; FALSE where none. */
gboolean pgs_access_map_activate_at (PgsAccessMap *self,
                                     double        x,
                                     double        y);

G_END_DECLS
