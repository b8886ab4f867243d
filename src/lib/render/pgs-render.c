/* pgs-render.c
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Turns a snapshot into pixels without GTK, so the app, the CLI and the tests draw the same
 * picture. This file holds the PgsRenderer object: its properties, the colour of each class
 * and the legend. The rest is kept apart: where the map lies and what a pixel covers (the
 * layout: pgs-render-layout.c and the folds of pgs-render-fold.c, which know numbers, not
 * renderers), the residency view's bands and page classes (pgs-render-residency.c), the
 * physical views' class runs (pgs-render-physical.c); above it, the pixels
 * (pgs-render-fill.c, with the mappings' outlines of pgs-render-outline.c), what a pixel
 * shows (pgs-render-query.c) and the PNG with its legend (pgs-render-png.c,
 * pgs-render-legend.c). Calls go down that list only.
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "pgs-category.h"
#include "pgs-pagemap.h"
#include "pgs-palette.h"
#include "pgs-physmap.h"
#include "pgs-render-fold.h"
#include "pgs-render-private.h"
#include "pgs-snapshot.h"

G_DEFINE_FINAL_TYPE (PgsRenderer, pgs_renderer, G_TYPE_OBJECT)

static void
invalidate_geometry (PgsRenderer *self)
{
  pgs_render_geometry_clear (&self->geometry);
}

static void
pgs_renderer_dispose (GObject *object)
{
  PgsRenderer *self = (PgsRenderer *) object;

  g_clear_object (&self->process);
  g_clear_pointer (&self->highlight, g_bytes_unref);
  g_clear_pointer (&self->highlight_name, g_free);
  g_clear_object (&self->snapshot);

  G_OBJECT_CLASS (pgs_renderer_parent_class)->dispose (object);
}

static void
pgs_renderer_finalize (GObject *object)
{
  PgsRenderer *self = (PgsRenderer *) object;

  pgs_render_geometry_clear (&self->geometry);
  g_clear_pointer (&self->physmap, pgs_physmap_unref);
  g_clear_pointer (&self->folds, g_array_unref);
  g_clear_pointer (&self->unfolded, pgs_class_runs_free);
  g_clear_pointer (&self->classes, pgs_class_runs_free);
  g_clear_pointer (&self->frame_counts, g_free);
  g_clear_pointer (&self->page_counts, g_free);
  g_clear_pointer (&self->bands, g_array_unref);

  G_OBJECT_CLASS (pgs_renderer_parent_class)->finalize (object);
}

static void
pgs_renderer_class_init (PgsRendererClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = pgs_renderer_dispose;
  object_class->finalize = pgs_renderer_finalize;
}

static void
pgs_renderer_init (PgsRenderer *self)
{
  self->zoom = 1.0;
  self->center_x = 0.5;
  self->center_y = 0.5;
  self->style = PGS_RENDER_STYLE_LIGHT;
  self->background = pgs_palette_style (self->style)->background;
  self->highlight_mode = PGS_HIGHLIGHT_OUTLINE;
  self->layout = PGS_LAYOUT_LINEAR;
}

/* ---- class colours ---- */

static guint32
class_color (PgsRenderer *self,
             guint        klass)
{
  switch (self->view)
    {
    case PGS_VIEW_SHARING:
      return pgs_palette_share_for_style (self->style, klass);
    case PGS_VIEW_FLAGS:
      return pgs_palette_category_for_style (self->style, klass);
    case PGS_VIEW_RESIDENCY:
    default:
      return klass == PGS_RES_NONE ? self->background
                                   : pgs_palette_res_for_style (self->style, klass);
    }
}

/* Every class keeps its own colour, highlighted or not: the highlight is a colour no class
 * uses (overlay), or the class colour with a mark in its alpha that the fill
 * (pgs-render-fill.c) turns into a ring. */
static void
update_lut (PgsRenderer *self)
{
  guint32 highlight = pgs_palette_style (self->style)->highlight;

  for (guint c = 0; c < 128; c++)
    {
      guint32 color = c < self->n_classes ? class_color (self, c) : self->background;

      self->lut[c] = color;
      if (!self->highlighted)
        self->lut[c | HIGHLIGHT] = color;
      else if (self->highlight_mode == PGS_HIGHLIGHT_OVERLAY)
        self->lut[c | HIGHLIGHT] = highlight;
      else
        self->lut[c | HIGHLIGHT] = (color & 0x00ffffffu) | MARK_ALPHA;
    }
}

/* ---- physical views: the class runs ---- */

static void
apply_highlight (PgsRenderer *self)
{
  g_autofree guint64 *pfns = NULL;
  gsize n = 0;

  if (self->classes == NULL)
    return;

  if (self->highlight != NULL)
    {
      gsize size = 0;
      const guint64 *set = g_bytes_get_data (self->highlight, &size);

      /* Cells, as for the process's frames below: frames past a fold are cells fewer. */
      pfns = g_new (guint64, MAX (size / sizeof (guint64), 1));
      for (gsize k = 0; k < size / sizeof (guint64); k++)
        {
          gboolean hidden = FALSE;
          guint64 cell = set[k] < self->n_frames
                         ? pgs_render_pfn_to_cell (self->folds, set[k], &hidden) : set[k];

          if (!hidden)
            pfns[n++] = cell;
        }
    }
  else if (self->process != NULL && self->pages.entries != NULL)
    {
      pfns = g_new (guint64, MAX (self->pages.n_pages, 1));
      for (gsize k = 0; k < self->pages.n_pages; k++)
        {
          guint64 pfn = pgs_pm_pfn (self->pages.entries[k]);

          gboolean hidden = FALSE;

          /* Cells, which are frames unless free memory is folded away. */
          if (pfn != 0 && pfn < self->n_frames &&
              (pfn = pgs_render_pfn_to_cell (self->folds, pfn, &hidden), !hidden))
            pfns[n++] = pfn;
        }
    }

  self->highlighted = pgs_class_runs_highlight (self->classes, pfns, n);
  update_lut (self);
}

static void
ensure_classes (PgsRenderer *self)
{
  gboolean flags = self->view == PGS_VIEW_FLAGS;

  if (self->classes != NULL || self->physmap == NULL)
    return;

  self->frame_counts = g_new0 (guint64, flags ? PGS_N_CATEGORIES : PGS_N_SHARE_CLASSES);
  self->classes = pgs_class_runs_new (self->physmap, flags, self->frame_counts);
  if (self->hide_free)
    {
      PgsClassRuns *cut = NULL;

      self->folds = pgs_render_fold_find (self->classes, self->view, self->n_frames, &cut);
      if (self->folds != NULL)
        {
          self->unfolded = self->classes;
          self->classes = cut;
        }
    }
  self->highlighted = FALSE;
  apply_highlight (self);
}

void
pgs_render_prepare (PgsRenderer *self)
{
  if (self->view == PGS_VIEW_RESIDENCY)
    {
      pgs_render_ensure_bands (self);
      pgs_render_ensure_page_counts (self);
    }
  else
    ensure_classes (self);
}

const Geometry *
pgs_render_get_geometry (PgsRenderer *self,
                         int          width,
                         int          height)
{
  Geometry *g = &self->geometry;
  g_autofree guint64 *band_pages = NULL;
  guint64 n;

  pgs_render_prepare (self);
  if (g->width == width && g->height == height && g->width > 0)
    return g;
  if (self->view == PGS_VIEW_RESIDENCY)
    {
      n = self->n_pages;
      band_pages = g_new (guint64, self->bands->len + 1);
      for (guint b = 0; b < self->bands->len; b++)
        band_pages[b] = g_array_index (self->bands, Band, b).n_pages;
    }
  else
    n = self->folds != NULL ? self->n_frames - pgs_render_fold_hidden (self->folds)
                            : self->n_frames;
  pgs_render_geometry_fit (g, self->layout, n, band_pages,
                           band_pages != NULL ? self->bands->len : 0, width, height,
                           self->fit_width, self->fit_height, self->zoom, self->center_x, self->center_y);
  return g;
}

/* ---- properties ---- */

PgsRenderer *
pgs_renderer_new (PgsSnapshot *snapshot,
                  PgsView      view)
{
  PgsRenderer *self;

  g_return_val_if_fail (PGS_IS_SNAPSHOT (snapshot), NULL);
  g_return_val_if_fail (view <= PGS_VIEW_FLAGS, NULL);

  self = g_object_new (PGS_TYPE_RENDERER, NULL);
  self->snapshot = g_object_ref (snapshot);
  self->view = view;
  if (pgs_snapshot_get_physmap (snapshot) != NULL)
    {
      self->physmap = pgs_physmap_ref (pgs_snapshot_get_physmap (snapshot));
      self->n_frames = pgs_physmap_get_n_frames (self->physmap);
    }
  switch (view)
    {
    case PGS_VIEW_SHARING:
      self->n_classes = PGS_N_SHARE_CLASSES;
      break;
    case PGS_VIEW_FLAGS:
      self->n_classes = PGS_N_CATEGORIES;
      break;
    case PGS_VIEW_RESIDENCY:
    default:
      self->n_classes = PGS_N_RES_CLASSES;
      break;
    }
  update_lut (self);
  return self;
}

PgsSnapshot *
pgs_renderer_get_snapshot (PgsRenderer *self)
{
  g_return_val_if_fail (PGS_IS_RENDERER (self), NULL);
  return self->snapshot;
}

PgsView
pgs_renderer_get_view (PgsRenderer *self)
{
  g_return_val_if_fail (PGS_IS_RENDERER (self), PGS_VIEW_RESIDENCY);
  return self->view;
}

void
pgs_renderer_set_process (PgsRenderer *self,
                          PgsProcess  *process)
{
  g_return_if_fail (PGS_IS_RENDERER (self));
  g_return_if_fail (process == NULL || PGS_IS_PROCESS (process));

  if (!g_set_object (&self->process, process))
    return;
  if (process != NULL)
    pgs_process_get_pages (process, &self->pages);
  else
    memset (&self->pages, 0, sizeof self->pages);

  invalidate_geometry (self);
  if (self->view == PGS_VIEW_RESIDENCY)
    {
      g_clear_pointer (&self->bands, g_array_unref);
      g_clear_pointer (&self->page_counts, g_free);
      self->n_pages = 0;
    }
  else
    apply_highlight (self);
}

void
pgs_renderer_set_highlight_frames (PgsRenderer *self,
                                   GBytes      *pfns,
                                   const char  *name)
{
  g_return_if_fail (PGS_IS_RENDERER (self));
  g_return_if_fail (pfns == NULL || name != NULL);

  g_free (self->highlight_name);
  self->highlight_name = g_strdup (name);
  if (self->highlight == pfns)
    return;
  g_clear_pointer (&self->highlight, g_bytes_unref);
  if (pfns != NULL)
    self->highlight = g_bytes_ref (pfns);
  if (self->view != PGS_VIEW_RESIDENCY)
    apply_highlight (self);
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
  g_clear_pointer (&self->folds, g_array_unref);
  g_clear_pointer (&self->unfolded, pgs_class_runs_free);
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

PgsProcess *
pgs_renderer_get_process (PgsRenderer *self)
{
  g_return_val_if_fail (PGS_IS_RENDERER (self), NULL);
  return self->process;
}

void
pgs_renderer_set_layout (PgsRenderer *self,
                         PgsLayout    layout)
{
  g_return_if_fail (PGS_IS_RENDERER (self));
  g_return_if_fail (layout <= PGS_LAYOUT_HILBERT);

  if (self->layout == layout)
    return;
  self->layout = layout;
  invalidate_geometry (self);
}

PgsLayout
pgs_renderer_get_layout (PgsRenderer *self)
{
  g_return_val_if_fail (PGS_IS_RENDERER (self), PGS_LAYOUT_LINEAR);
  return self->layout;
}

void
pgs_renderer_set_viewport (PgsRenderer *self,
                           double       zoom,
                           double       center_x,
                           double       center_y)
{
  g_return_if_fail (PGS_IS_RENDERER (self));

  zoom = MAX (zoom, 1.0);
  center_x = CLAMP (center_x, 0.0, 1.0);
  center_y = CLAMP (center_y, 0.0, 1.0);
  if (zoom == self->zoom && center_x == self->center_x && center_y == self->center_y)
    return;
  self->zoom = zoom;
  self->center_x = center_x;
  self->center_y = center_y;
  invalidate_geometry (self);
}

void
pgs_renderer_set_fit_size (PgsRenderer *self,
                           int          width,
                           int          height)
{
  g_return_if_fail (PGS_IS_RENDERER (self));

  width = MAX (width, 0);
  height = MAX (height, 0);
  if (width == self->fit_width && height == self->fit_height)
    return;
  self->fit_width = width;
  self->fit_height = height;
  invalidate_geometry (self);
}

void
pgs_renderer_get_viewport (PgsRenderer *self,
                           double      *zoom,
                           double      *center_x,
                           double      *center_y)
{
  g_return_if_fail (PGS_IS_RENDERER (self));

  if (zoom != NULL)
    *zoom = self->zoom;
  if (center_x != NULL)
    *center_x = self->center_x;
  if (center_y != NULL)
    *center_y = self->center_y;
}

void
pgs_renderer_set_background (PgsRenderer *self,
                             guint32      argb)
{
  g_return_if_fail (PGS_IS_RENDERER (self));

  self->background = argb | 0xff000000u;
  update_lut (self);
}

void
pgs_renderer_set_style (PgsRenderer    *self,
                        PgsRenderStyle  style)
{
  g_return_if_fail (PGS_IS_RENDERER (self));
  g_return_if_fail (style < PGS_N_RENDER_STYLES);

  self->style = style;
  self->background = pgs_palette_style (style)->background;
  update_lut (self);
}

PgsRenderStyle
pgs_renderer_get_style (PgsRenderer *self)
{
  g_return_val_if_fail (PGS_IS_RENDERER (self), PGS_RENDER_STYLE_LIGHT);
  return self->style;
}

void
pgs_renderer_set_highlight_mode (PgsRenderer      *self,
                                 PgsHighlightMode  mode)
{
  g_return_if_fail (PGS_IS_RENDERER (self));
  g_return_if_fail (mode <= PGS_HIGHLIGHT_OVERLAY);

  self->highlight_mode = mode;
  update_lut (self);
}

PgsHighlightMode
pgs_renderer_get_highlight_mode (PgsRenderer *self)
{
  g_return_val_if_fail (PGS_IS_RENDERER (self), PGS_HIGHLIGHT_OUTLINE);
  return self->highlight_mode;
}

/* ---- legend ---- */

guint
pgs_renderer_get_n_legend_items (PgsRenderer *self)
{
  g_return_val_if_fail (PGS_IS_RENDERER (self), 0);
  return self->n_classes;
}

void
pgs_renderer_get_legend_item (PgsRenderer  *self,
                              guint         index,
                              guint32      *argb,
                              const char  **label,
                              guint64      *n_pages)
{
  const char *text;
  guint64 count = 0;

  g_return_if_fail (PGS_IS_RENDERER (self));
  g_return_if_fail (index < self->n_classes);

  pgs_render_prepare (self);
  switch (self->view)
    {
    case PGS_VIEW_SHARING:
      text = pgs_share_class_get_label (index);
      count = self->frame_counts != NULL ? self->frame_counts[index] : 0;
      break;
    case PGS_VIEW_FLAGS:
      text = pgs_category_get_label (index);
      count = self->frame_counts != NULL ? self->frame_counts[index] : 0;
      break;
    case PGS_VIEW_RESIDENCY:
    default:
      text = pgs_res_class_get_label (index);
      count = self->page_counts != NULL ? self->page_counts[index] : 0;
      break;
    }

  if (argb != NULL)
    *argb = class_color (self, index);
  if (label != NULL)
    *label = text;
  if (n_pages != NULL)
    *n_pages = count;
}

const char *
pgs_renderer_get_legend_id (PgsRenderer *self,
                            guint        index)
{
  g_return_val_if_fail (PGS_IS_RENDERER (self), NULL);
  g_return_val_if_fail (index < self->n_classes, NULL);

  switch (self->view)
    {
    case PGS_VIEW_SHARING:
      return pgs_share_class_get_id (index);
    case PGS_VIEW_FLAGS:
      return pgs_category_get_id (index);
    case PGS_VIEW_RESIDENCY:
    default:
      return pgs_res_class_get_id (index);
    }
}

const char *
pgs_renderer_get_aggregation_rule (PgsRenderer *self)
{
  g_return_val_if_fail (PGS_IS_RENDERER (self), NULL);

  switch (self->view)
    {
    case PGS_VIEW_SHARING:
      return _("A pixel over several frames shows the highest map count among them.");
    case PGS_VIEW_FLAGS:
      return _("A pixel over several frames shows their most common category "
               "(a tie goes to the one listed first).");
    case PGS_VIEW_RESIDENCY:
    default:
      return _("A pixel over several pages shows the most resident of them "
               "(present over swapped over not present), then the most shared.");
    }
}

guint
pgs_renderer_get_n_bands (PgsRenderer *self)
{
  g_return_val_if_fail (PGS_IS_RENDERER (self), 0);

  if (self->view != PGS_VIEW_RESIDENCY)
    return 0;
  pgs_render_ensure_bands (self);
  return self->bands->len;
}

gboolean
pgs_renderer_get_band (PgsRenderer  *self,
                       int           width,
                       int           height,
                       guint         index,
                       double       *y,
                       double       *band_height,
                       const char  **label)
{
  const Geometry *g;
  double top, bottom;

  g_return_val_if_fail (PGS_IS_RENDERER (self), FALSE);

  if (self->view != PGS_VIEW_RESIDENCY || self->layout != PGS_LAYOUT_LINEAR)
    return FALSE;
  pgs_render_prepare (self);
  g = pgs_render_get_geometry (self, width, height);
  if (!g->valid || index >= self->bands->len)
    return FALSE;

  top = (g->band_row[index] - g->y0) / g->scale;
  bottom = (g->band_row[index + 1] - g->y0) / g->scale;
  top = MAX (top, 0);
  bottom = MIN (bottom, height);
  if (bottom <= top)
    return FALSE;
  if (y != NULL)
    *y = top;
  if (band_height != NULL)
    *band_height = bottom - top;
  if (label != NULL)
    *label = g_array_index (self->bands, Band, index).label;
  return TRUE;
}
