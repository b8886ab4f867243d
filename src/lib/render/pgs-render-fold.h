/* pgs-render-fold.h: free memory folded out of the physical maps
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "pgs-render.h"
#include "pgs-render-physical.h"

G_BEGIN_DECLS

/* The folds of @classes (NULL when none is long enough), and in @cut the classes of the
 * frames left, in order: the map's cells. */
GArray  *pgs_render_fold_find       (PgsClassRuns  *classes,
                                     PgsView        view,
                                     guint64        n_frames,
                                     PgsClassRuns **cut);
/* A cell of the map to its frame, and back (@hidden: the frame is folded away). */
guint64  pgs_render_cell_to_pfn     (const GArray  *folds,
                                     guint64        cell);
guint64  pgs_render_pfn_to_cell     (const GArray  *folds,
                                     guint64        pfn,
                                     gboolean      *hidden);
/* Fold @index: the first hidden frame, how many, and the first cell after it. */
void     pgs_render_fold_get        (const GArray  *folds,
                                     guint          index,
                                     guint64       *pfn,
                                     guint64       *n,
                                     guint64       *cell);
guint64  pgs_render_fold_hidden     (const GArray  *folds);

G_END_DECLS
