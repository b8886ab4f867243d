/* pgs-render-physical.h: the physical views' classes of frames, as runs (private)
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "pgs-physmap.h"

G_BEGIN_DECLS

/* A class byte: the class in the low bits, the highlight (a frame of the chosen process)
 * in the top bit. */
#define PGS_CLASS_HIGHLIGHT 0x80u
#define PGS_CLASS_MASK 0x7fu

typedef struct
{
  guint64 start;
  guint64 end;
} PgsFrameRange;

typedef struct _PgsClassRuns PgsClassRuns;

/* The class of every frame, as runs of one class byte: by category (the flag map,
 * PgsCategory) or by map count (the sharing map, PgsShareClass), spans of the counters
 * applied as pgs_physmap_classify() and pgs_physmap_override_share_classes() do. Adds the
 * frames of each class to @frame_counts (PGS_N_CATEGORIES or PGS_N_SHARE_CLASSES long). */
PgsClassRuns *pgs_class_runs_new       (PgsPhysMap          *physmap,
                                        gboolean             by_category,
                                        guint64             *frame_counts);
void          pgs_class_runs_free      (PgsClassRuns        *self);
/* Sets the highlight on frames @pfns (any order, repeats and frames past the end
 * ignored; sorted in place), clearing the last one. Returns whether any frame has it. */
gboolean      pgs_class_runs_highlight (PgsClassRuns        *self,
                                        guint64             *pfns,
                                        gsize                n_pfns);
/* The class byte of frame @pfn (< n_frames). */
guint8        pgs_class_runs_at        (PgsClassRuns        *self,
                                        guint64              pfn);
/* Over frames in @ranges (non-empty): the highest class, or the most common one (ties to
 * the lowest), with the highlight bit if any frame has it. */
guint8        pgs_class_runs_max       (PgsClassRuns        *self,
                                        const PgsFrameRange *ranges,
                                        guint                n_ranges);
guint8        pgs_class_runs_mode      (PgsClassRuns        *self,
                                        const PgsFrameRange *ranges,
                                        guint                n_ranges);
/* The first frame in [@start, @end) of class @want (highlight ignored), or G_MAXUINT64. */
guint64       pgs_class_runs_find      (PgsClassRuns        *self,
                                        guint64              start,
                                        guint64              end,
                                        guint8               want);
/* The class byte of @n_blocks blocks of @size consecutive frames from @start (the last ones
 * cut short or left out at @end), into @out: what pgs_class_runs_max() or _mode() give on
 * each, in one walk over the runs (a memset for the blocks inside one run). Returns
 * whether one run holds them all (all one class). */
gboolean      pgs_class_runs_blocks     (PgsClassRuns       *self,
                                         gboolean            mode,
                                         guint64             start,
                                         guint64             size,
                                         guint64             n_blocks,
                                         guint64             end,
                                         guint8             *out);
/* Linear layout: the class byte of blocks @bx0 to @bx1 (inclusive) of block row @by, into
 * @out (0xff for a block without frames): what pgs_class_runs_max() or _mode() give on each
 * block's frames (@ay rows of @a frames of a map @mw frames wide, @n frames), found in one
 * walk over the runs of each row. */
void          pgs_class_runs_linear_row (PgsClassRuns       *self,
                                         gboolean            mode,
                                         guint64             n,
                                         guint64             mw,
                                         guint64             mh,
                                         guint64             a,
                                         guint64             ay,
                                         guint64             by,
                                         guint64             bx0,
                                         guint64             bx1,
                                         guint8             *out);

/* Folding free memory away (pgs-render-fold.c): the runs without the highlight, and the
 * runs of the frames outside @cuts (sorted, disjoint), renumbered from 0. */
guint64       pgs_class_runs_get_n_runs (PgsClassRuns       *self);
void          pgs_class_runs_get_run    (PgsClassRuns       *self,
                                         guint64             i,
                                         guint64            *start,
                                         guint64            *end,
                                         guint8             *klass);
PgsClassRuns *pgs_class_runs_cut        (PgsClassRuns       *self,
                                         const PgsFrameRange *cuts,
                                         gsize               n_cuts);

G_END_DECLS
