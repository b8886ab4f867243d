/* pgs-map-folds.h: where free memory was folded out of a physical map
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "pgs-map-overlay.h"
#include "pgs-units.h"

G_BEGIN_DECLS

#define PGS_TYPE_MAP_FOLDS (pgs_map_folds_get_type ())

G_DECLARE_FINAL_TYPE (PgsMapFolds, pgs_map_folds, PGS, MAP_FOLDS, GObject)

PgsMapFolds *pgs_map_folds_new      (void);
/* The fold marker under (x, y), -1 for none. */
int          pgs_map_folds_at       (PgsMapFolds       *self,
                                     const PgsMapShown *shown,
                                     double             x,
                                     double             y);
/* The tooltip of marker @index ("12.3 GiB free, hidden (frames 0x…–0x…, N frames)"),
 * NULL when there is no such fold. */
char        *pgs_map_folds_describe (PgsMapFolds       *self,
                                     const PgsMapShown *shown,
                                     guint              index,
                                     PgsUnits           units);

G_END_DECLS
