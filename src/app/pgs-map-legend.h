/* pgs-map-legend.h: a map's legend, beside the map
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "pagescope.h"
#include "pgs-units.h"

G_BEGIN_DECLS

#define PGS_TYPE_MAP_LEGEND (pgs_map_legend_get_type ())

/* Properties: renderer (the PgsRenderer it describes), units (a PgsUnits). */
G_DECLARE_FINAL_TYPE (PgsMapLegend, pgs_map_legend, PGS, MAP_LEGEND, GtkWidget)

G_END_DECLS
