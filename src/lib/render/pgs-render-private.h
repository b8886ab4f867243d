/* pgs-render-private.h: the renderer's internals, shared by the pgs-render-*.c files
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "pgs-physmap.h"
#include "pgs-process.h"
#include "pgs-render.h"
#include "pgs-render-layout.h"
#include "pgs-render-physical.h"
#include "pgs-snapshot.h"

G_BEGIN_DECLS

/* Bit 7 of a class byte: "a frame of the highlighted process". */
#define HIGHLIGHT PGS_CLASS_HIGHLIGHT
#define CLASS_MASK PGS_CLASS_MASK
/* Outline mode: the alpha that marks a pixel of a highlighted class while rendering, and
 * the one that marks a pixel turned into outline; both are made opaque before returning. */
#define MARK_ALPHA    0xfe000000u
#define OUTLINE_ALPHA 0xfd000000u

typedef struct
{
  guint    mapping;     /* index in the process */
  guint64  first_page;  /* index of its first page among all the process's mapped pages */
  guint64  n_pages;
  guint64  start;       /* virtual address */
  gboolean file;
  guint    first_run;   /* first run at or after start */
  char    *label;       /* short: basename or [anon] */
} Band;

struct _PgsRenderer
{
  GObject      parent_instance;

  PgsSnapshot *snapshot;
  PgsPhysMap  *physmap;
  PgsView      view;
  PgsLayout    layout;
  PgsProcess  *process;
  PgsPages     pages;         /* the process's packed pages (pgs_process_get_pages) */
  GBytes      *highlight;     /* physical views: guint64 PFNs highlighted instead of the
                               * process's frames; NULL for the process's */
  char        *highlight_name; /* what those frames are, for the legend */
  double       zoom;
  double       center_x;
  double       center_y;
  int          fit_width;     /* the size the cells are laid out for; 0 for the output's */
  int          fit_height;
  guint32      background;
  PgsRenderStyle style;
  PgsHighlightMode highlight_mode;

  /* Physical views: the class byte of every frame, as runs, made on first use. */
  PgsClassRuns *classes;
  guint64      n_frames;
  gboolean     highlighted;   /* some HIGHLIGHT bits are set */
  guint64     *frame_counts;  /* per class, over all frames */
  /* Hide free memory (pgs-render-fold.c): classes then holds the frames outside the folds,
   * unfolded all of them. */
  gboolean      hide_free;
  GArray       *folds;
  PgsClassRuns *unfolded;

  /* Residency */
  GArray      *bands;
  guint64      n_pages;
  guint64     *page_counts;

  guint        n_classes;
  guint32      lut[256];

  Geometry     geometry;      /* of the last render or hit test */
};

/* Residency: calls @func on each (band, first page, end page) piece of block (bx, by). */
typedef gboolean (*PieceFunc) (PgsRenderer *self,
                               const Band  *band,
                               guint64      p0,
                               guint64      p1,
                               gpointer     data);

/* pgs-render.c */
/* Builds what the view needs (bands and page counts, or the class runs and folds) on
 * first use. */
void            pgs_render_prepare              (PgsRenderer    *self);
/* Prepares, then the geometry at @width x @height, worked out again only when the size
 * changed. */
const Geometry *pgs_render_get_geometry         (PgsRenderer    *self,
                                                 int             width,
                                                 int             height);

/* pgs-render-residency.c */
void            pgs_render_ensure_bands         (PgsRenderer    *self);
void            pgs_render_ensure_page_counts   (PgsRenderer    *self);
/* The band that holds page @page (of all the process's mapped pages): the last that starts
 * at or before it. */
guint           pgs_render_band_for_page        (PgsRenderer    *self,
                                                 guint64         page);
guint8          pgs_render_band_max             (PgsRenderer    *self,
                                                 const Band     *band,
                                                 guint64         p0,
                                                 guint64         p1,
                                                 int             first_of,
                                                 guint64        *first_index);
/* Residency: fills @hit (address, mapping, n_pages) from the first page of block (bx, by)
 * whose class is hit->legend_index. */
void            pgs_render_residency_first      (PgsRenderer    *self,
                                                 const Geometry *g,
                                                 guint64         bx,
                                                 guint64         by,
                                                 PgsHit         *hit);
/* The class byte of block (bx, by), 0xff for no frame; @ranges holds g->a. */
guint8          pgs_render_block_class          (PgsRenderer    *self,
                                                 const Geometry *g,
                                                 guint64         bx,
                                                 guint64         by,
                                                 Range          *ranges);

/* pgs-render-outline.c */
/* Residency, Hilbert layout, cells of 3 pixels or more: a line between the cells of two
 * mappings, over the pixels @pixels filled for @g. */
void            pgs_render_outline_bands        (PgsRenderer    *self,
                                                 const Geometry *g,
                                                 guint8         *pixels,
                                                 int             width,
                                                 int             height,
                                                 int             stride);

G_END_DECLS
