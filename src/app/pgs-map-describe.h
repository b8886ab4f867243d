/* pgs-map-describe.h: what a map's cell is, in words
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "pgs-map-focus.h"
#include "pgs-map-folds.h"
#include "pgs-map-hover.h"

G_BEGIN_DECLS

/* Tooltip text for a hit of @renderer, as markup-free text lines; @process is the latest
 * scan of the process shown, in @snapshot (a hit carried over a refresh is looked up in it), NULL on the
 * physical views. */
char *pgs_map_describe_hit (PgsRenderer  *renderer,
                            PgsSnapshot  *snapshot,
                            PgsProcess   *process,
                            const PgsHit *hit);

/* The words for what is at (x, y): a fold marker's, else its cell's; NULL for nothing. */
char *pgs_map_describe_at  (PgsMapFolds       *folds,
                            const PgsMapShown *shown,
                            double             x,
                            double             y,
                            PgsSnapshot       *snapshot,
                            PgsProcess        *process,
                            PgsUnits           units);

/* The status line: the words for the hovered cell, else for the focus cell, else how to
 * get them; the tooltip's lines on one line. */
char *pgs_map_describe_status (PgsMapFolds       *folds,
                               PgsMapHover       *hover,
                               PgsMapFocus       *focus,
                               const PgsMapShown *shown,
                               PgsSnapshot       *snapshot,
                               PgsProcess        *process,
                               PgsUnits           units);

G_END_DECLS
