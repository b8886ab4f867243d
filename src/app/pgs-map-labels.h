/* pgs-map-labels.h: the words drawn on a map: its bands' names and its zoom
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "pgs-map-overlay.h"

G_BEGIN_DECLS

#define PGS_TYPE_MAP_LABELS (pgs_map_labels_get_type ())

G_DECLARE_FINAL_TYPE (PgsMapLabels, pgs_map_labels, PGS, MAP_LABELS, GObject)

PgsMapLabels *pgs_map_labels_new (void);

G_END_DECLS
