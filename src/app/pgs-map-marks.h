/* pgs-map-marks.h: the pages a working-set sample saw accessed, marked on a residency map
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "pgs-map-overlay.h"

G_BEGIN_DECLS

#define PGS_TYPE_MAP_MARKS (pgs_map_marks_get_type ())

G_DECLARE_FINAL_TYPE (PgsMapMarks, pgs_map_marks, PGS, MAP_MARKS, GObject)

PgsMapMarks  *pgs_map_marks_new        (void);
/* TRUE when it changed. */
gboolean      pgs_map_marks_set_sample (PgsMapMarks  *self,
                                        PgsWssSample *sample);
PgsWssSample *pgs_map_marks_get_sample (PgsMapMarks  *self);
/* New pixels: the marks are worked out again when next drawn. */
void          pgs_map_marks_reset      (PgsMapMarks  *self);

G_END_DECLS
