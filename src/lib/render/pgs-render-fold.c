/* pgs-render-fold.c: free memory folded out of the physical maps
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * On a mostly idle machine most frames are free, and a map of all of them shows the used
 * ones as specks. With "hide free memory" every run of at least PGS_FOLD_MIN_FRAMES free
 * frames (free or never initialised) is cut out of the map: the cells are the remaining
 * frames in order, and a fold remembers where each cut was, so the hit test, the focus
 * cell and the markers map cells back to frame numbers. The legend still counts every
 * frame: its figures come from the class runs before the cut. Part of the renderers'
 * layout: it knows class runs and numbers, not the renderer.
 */

#include "config.h"

#include <math.h>

#include "pgs-palette.h"
#include "pgs-render-fold.h"

typedef struct
{
  guint64 cell;        /* the first cell after the fold (n_cells when nothing follows) */
  guint64 pfn;         /* the first hidden frame */
  guint64 n;           /* hidden frames */
  guint64 hidden_upto; /* hidden frames up to and including this fold */
} Fold;

static gboolean
is_free_class (PgsView view,
               guint8  klass)
{
  klass &= PGS_CLASS_MASK;
  if (view == PGS_VIEW_FLAGS)
    return klass == PGS_CATEGORY_FREE || klass == PGS_CATEGORY_FREE_UNINIT;
  return klass == PGS_SHARE_FREE;
}

GArray *
pgs_render_fold_find (PgsClassRuns  *classes,
                      PgsView        view,
                      guint64        n_frames,
                      PgsClassRuns **cut)
{
  g_autoptr(GArray) cuts = NULL;
  GArray *folds;
  guint64 n_runs, run_start = 0, run_end = 0, hidden = 0;
  gboolean in_free = FALSE;

  *cut = NULL;
  cuts = g_array_new (FALSE, FALSE, sizeof (PgsFrameRange));
  n_runs = pgs_class_runs_get_n_runs (classes);
  /* One pass past the end closes a free stretch that reaches the last frame. */
  for (guint64 i = 0; i <= n_runs; i++)
    {
      guint64 s = n_frames, e = n_frames;
      guint8 c = 0;
      gboolean free_run = FALSE;

      if (i < n_runs)
        {
          pgs_class_runs_get_run (classes, i, &s, &e, &c);
          free_run = is_free_class (view, c);
        }
      if (free_run && in_free && s == run_end)
        {
          run_end = e;
          continue;
        }
      if (in_free && run_end - run_start >= PGS_FOLD_MIN_FRAMES)
        {
          PgsFrameRange range = { run_start, run_end };

          g_array_append_val (cuts, range);
        }
      in_free = free_run;
      run_start = s;
      run_end = e;
    }
  if (cuts->len == 0)
    return NULL;

  folds = g_array_sized_new (FALSE, FALSE, sizeof (Fold), cuts->len);
  for (guint k = 0; k < cuts->len; k++)
    {
      const PgsFrameRange *range = &g_array_index (cuts, PgsFrameRange, k);
      Fold fold = { range->start - hidden, range->start, range->end - range->start, 0 };

      hidden += fold.n;
      fold.hidden_upto = hidden;
      g_array_append_val (folds, fold);
    }
  *cut = pgs_class_runs_cut (classes, (const PgsFrameRange *) (gpointer) cuts->data, cuts->len);
  return folds;
}

/* The last fold at or before @key (a cell, or a frame), -1 for none. */
static gint64
fold_before (const GArray *folds,
             guint64       key,
             gboolean      by_pfn)
{
  gint64 lo = -1, hi = folds->len;

  while (hi - lo > 1)
    {
      gint64 mid = (lo + hi) / 2;
      const Fold *f = &g_array_index (folds, Fold, mid);

      if ((by_pfn ? f->pfn : f->cell) <= key)
        lo = mid;
      else
        hi = mid;
    }
  return lo;
}

guint64
pgs_render_cell_to_pfn (const GArray *folds,
                        guint64       cell)
{
  gint64 k;

  if (folds == NULL)
    return cell;
  k = fold_before (folds, cell, FALSE);
  return k < 0 ? cell : cell + g_array_index (folds, Fold, k).hidden_upto;
}

guint64
pgs_render_pfn_to_cell (const GArray *folds,
                        guint64       pfn,
                        gboolean     *hidden)
{
  const Fold *f;
  gint64 k;

  *hidden = FALSE;
  if (folds == NULL)
    return pfn;
  k = fold_before (folds, pfn, TRUE);
  if (k < 0)
    return pfn;
  f = &g_array_index (folds, Fold, k);
  if (pfn < f->pfn + f->n)
    {
      *hidden = TRUE;
      return f->cell;
    }
  return pfn - f->hidden_upto;
}

void
pgs_render_fold_get (const GArray *folds,
                     guint         index,
                     guint64      *pfn,
                     guint64      *n,
                     guint64      *cell)
{
  const Fold *f = &g_array_index (folds, Fold, index);

  *pfn = f->pfn;
  *n = f->n;
  *cell = f->cell;
}

guint64
pgs_render_fold_hidden (const GArray *folds)
{
  if (folds == NULL || folds->len == 0)
    return 0;
  return g_array_index (folds, Fold, folds->len - 1).hidden_upto;
}
