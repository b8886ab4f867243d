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
 * frame: its figures come from the class runs before the cut.
 */

#include "config.h"

#include <math.h>

#include "pgs-palette.h"
#include "pgs-render-private.h"

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
  klass &= CLASS_MASK;
  if (view == PGS_VIEW_FLAGS)
    return klass == PGS_CATEGORY_FREE || klass == PGS_CATEGORY_FREE_UNINIT;
  return klass == PGS_SHARE_FREE;
}

void
pgs_render_fold_clear (PgsRenderer *self)
{
  g_clear_pointer (&self->folds, g_array_unref);
  g_clear_pointer (&self->unfolded, pgs_class_runs_free);
  self->n_cells = 0;
}

void
pgs_render_fold (PgsRenderer *self)
{
  g_autoptr(GArray) cuts = NULL;
  guint64 n_runs, run_start = 0, run_end = 0, hidden = 0;
  gboolean in_free = FALSE;

  pgs_render_fold_clear (self);
  if (!self->hide_free || self->view == PGS_VIEW_RESIDENCY || self->classes == NULL)
    return;

  cuts = g_array_new (FALSE, FALSE, sizeof (Range));
  n_runs = pgs_class_runs_get_n_runs (self->classes);
  /* One pass past the end closes a free stretch that reaches the last frame. */
  for (guint64 i = 0; i <= n_runs; i++)
    {
      guint64 s = self->n_frames, e = self->n_frames;
      guint8 c = 0;
      gboolean free_run = FALSE;

      if (i < n_runs)
        {
          pgs_class_runs_get_run (self->classes, i, &s, &e, &c);
          free_run = is_free_class (self->view, c);
        }
      if (free_run && in_free && s == run_end)
        {
          run_end = e;
          continue;
        }
      if (in_free && run_end - run_start >= PGS_FOLD_MIN_FRAMES)
        {
          Range cut = { run_start, run_end };

          g_array_append_val (cuts, cut);
        }
      in_free = free_run;
      run_start = s;
      run_end = e;
    }
  if (cuts->len == 0)
    return;

  self->folds = g_array_sized_new (FALSE, FALSE, sizeof (Fold), cuts->len);
  for (guint k = 0; k < cuts->len; k++)
    {
      const Range *cut = &g_array_index (cuts, Range, k);
      Fold fold = { cut->start - hidden, cut->start, cut->end - cut->start, 0 };

      hidden += fold.n;
      fold.hidden_upto = hidden;
      g_array_append_val (self->folds, fold);
    }
  self->unfolded = self->classes;
  self->classes = pgs_class_runs_cut (self->unfolded, (const Range *) (gpointer) cuts->data,
                                      cuts->len);
  self->n_cells = self->n_frames - hidden;
}

/* The last fold at or before @key (a cell, or a frame), -1 for none. */
static gint64
fold_before (PgsRenderer *self,
             guint64      key,
             gboolean     by_pfn)
{
  gint64 lo = -1, hi = self->folds->len;

  while (hi - lo > 1)
    {
      gint64 mid = (lo + hi) / 2;
      const Fold *f = &g_array_index (self->folds, Fold, mid);

      if ((by_pfn ? f->pfn : f->cell) <= key)
        lo = mid;
      else
        hi = mid;
    }
  return lo;
}

guint64
pgs_render_cell_to_pfn (PgsRenderer *self,
                        guint64      cell)
{
  gint64 k;

  if (self->folds == NULL)
    return cell;
  k = fold_before (self, cell, FALSE);
  return k < 0 ? cell : cell + g_array_index (self->folds, Fold, k).hidden_upto;
}

guint64
pgs_render_pfn_to_cell (PgsRenderer *self,
                        guint64      pfn,
                        gboolean    *hidden)
{
  const Fold *f;
  gint64 k;

  *hidden = FALSE;
  if (self->folds == NULL)
    return pfn;
  k = fold_before (self, pfn, TRUE);
  if (k < 0)
    return pfn;
  f = &g_array_index (self->folds, Fold, k);
  if (pfn < f->pfn + f->n)
    {
      *hidden = TRUE;
      return f->cell;
    }
  return pfn - f->hidden_upto;
}

void
pgs_renderer_set_hide_free (PgsRenderer *self,
                            gboolean     hide_free)
{
  g_return_if_fail (PGS_IS_RENDERER (self));

  hide_free = !!hide_free;
  if (self->hide_free == hide_free)
    return;
  self->hide_free = hide_free;
  /* Made again on next use, folded or not (the highlight with them). */
  pgs_render_fold_clear (self);
  g_clear_pointer (&self->classes, pgs_class_runs_free);
  g_clear_pointer (&self->frame_counts, g_free);
  pgs_render_geometry_clear (&self->geometry);
}

gboolean
pgs_renderer_get_hide_free (PgsRenderer *self)
{
  g_return_val_if_fail (PGS_IS_RENDERER (self), FALSE);
  return self->hide_free;
}

guint
pgs_renderer_get_n_folds (PgsRenderer *self)
{
  g_return_val_if_fail (PGS_IS_RENDERER (self), 0);

  pgs_render_prepare (self);
  return self->folds != NULL ? self->folds->len : 0;
}

guint64
pgs_renderer_get_hidden_frames (PgsRenderer *self)
{
  g_return_val_if_fail (PGS_IS_RENDERER (self), 0);

  pgs_render_prepare (self);
  if (self->folds == NULL || self->folds->len == 0)
    return 0;
  return g_array_index (self->folds, Fold, self->folds->len - 1).hidden_upto;
}

gboolean
pgs_renderer_get_fold (PgsRenderer *self,
                       int          width,
                       int          height,
                       guint        index,
                       guint64     *first_pfn,
                       guint64     *n_frames,
                       double      *x,
                       double      *y,
                       double      *cell_height)
{
  const Geometry *g;
  const Fold *f;
  guint64 cell, bx, by, a;
  gboolean after = FALSE;

  g_return_val_if_fail (PGS_IS_RENDERER (self), FALSE);

  pgs_render_prepare (self);
  if (self->folds == NULL || index >= self->folds->len)
    return FALSE;
  f = &g_array_index (self->folds, Fold, index);
  if (first_pfn != NULL)
    *first_pfn = f->pfn;
  if (n_frames != NULL)
    *n_frames = f->n;

  g = pgs_render_get_geometry (self, width, height);
  if (!g->valid || g->n == 0)
    return FALSE;
  /* The marker goes before the first cell after the fold, or after the last cell. */
  cell = f->cell;
  if (cell >= g->n)
    {
      cell = g->n - 1;
      after = TRUE;
    }
  a = g->a;
  if (self->layout == PGS_LAYOUT_HILBERT)
    {
      guint64 t = g->tile, sub = t / a, tile = cell / (t * t), bxi, byi;

      pgs_render_hilbert_d2xy (sub, (cell % (t * t)) / (a * a), &bxi, &byi);
      bx = (tile % g->tiles_x) * sub + bxi;
      by = (tile / g->tiles_x) * sub + byi;
    }
  else
    {
      bx = (cell % g->mw) / a;
      by = (cell / g->mw) / a;
    }
  if (self->layout == PGS_LAYOUT_LINEAR)
    {
      /* A row holds consecutive cells: the marker goes between two of them. */
      if (x != NULL)
        *x = ((double) (cell % g->mw + after) - g->x0) / g->scale;
    }
  else if (x != NULL)
    *x = ((double) (bx + after) * a - g->x0) / g->scale;
  if (y != NULL)
    *y = ((double) by * a - g->y0) / g->scale;
  if (cell_height != NULL)
    *cell_height = MAX (1.0, a / g->scale);
  return TRUE;
}
