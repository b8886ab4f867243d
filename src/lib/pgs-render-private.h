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
/* The largest magnification: one cell is at most this many pixels wide. */
#define MAX_MAGNIFY 64

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

typedef struct
{
  int      width;
  int      height;
  gboolean valid;
  guint64  n;           /* cells with a page behind them */
  double   s0;          /* cells per pixel at zoom 1 */
  guint64  mw, mh;      /* the map, in cells */
  guint64  tile;        /* Hilbert tile side (a power of two) */
  guint64  tiles_x;
  guint64  n_tiles;
  double   scale;       /* cells per pixel now */
  double   x0, y0;      /* cell coordinates of the output's top left corner */
  guint64  a;           /* block side in cells */
  guint64 *band_row;    /* residency linear: first row of each band, n_bands + 1 */
  /* Down the map: rows of cells per pixel at zoom 1 and now, and the block height. The
   * same as s0, scale and a but on the rows layout of a physical map that has more frames
   * than pixels, where a pixel may cover fewer rows than columns (see get_geometry). */
  double   s0y;
  double   scale_y;
  guint64  ay;
} Geometry;

struct _PgsRenderer
{
  GObject      parent_instance;

  PgsSnapshot *snapshot;
  PgsPhysMap  *physmap;
  PgsView      view;
  PgsLayout    layout;
  PgsProcess  *process;
  GBytes      *highlight;     /* physical views: guint64 PFNs highlighted instead of the
                               * process's frames; NULL for the process's */
  char        *highlight_name; /* what those frames are, for the legend */
  double       zoom;
  double       center_x;
  double       center_y;
  guint32      background;
  PgsRenderStyle style;
  PgsHighlightMode highlight_mode;

  /* Physical views: the class byte of every frame, as runs, made on first use. */
  PgsClassRuns *classes;
  guint64      n_frames;
  gboolean     highlighted;   /* some HIGHLIGHT bits are set */
  guint64     *frame_counts;  /* per class, over all frames */
  /* Hide free memory (pgs-render-fold.c): classes then holds the frames outside the folds,
   * unfolded all of them; n_cells how many are drawn. */
  gboolean      hide_free;
  GArray       *folds;
  PgsClassRuns *unfolded;
  guint64       n_cells;

  /* Residency */
  GArray      *bands;
  guint64      n_pages;
  guint64     *page_counts;

  guint        n_classes;
  guint32      lut[256];

  /* Hilbert block order for one sub-grid side (shared, not owned). */
  guint32     *hilbert_table;
  guint64      hilbert_side;

  Geometry     geometry;      /* of the last render or hit test */
};

typedef PgsFrameRange Range;

/* Residency: calls @func on each (band, first page, end page) piece of block (bx, by). */
typedef gboolean (*PieceFunc) (PgsRenderer *self,
                               const Band  *band,
                               guint64      p0,
                               guint64      p1,
                               gpointer     data);

/* pgs-render.c */
/* Builds what the view needs (bands and page counts, or the class runs) on first use. */
void            pgs_render_prepare              (PgsRenderer    *self);

/* pgs-render-layout.c */
void            pgs_render_geometry_clear       (Geometry       *g);
/* The geometry at @width x @height, worked out again only when the size changed. */
const Geometry *pgs_render_get_geometry         (PgsRenderer    *self,
                                                 int             width,
                                                 int             height);
/* Pixel column → block column, -1 outside the map. */
gint64          pgs_render_pixel_to_block       (double          origin,
                                                 double          scale,
                                                 guint64         a,
                                                 guint64         extent,
                                                 double          pixel);
/* The frame ranges of block (bx, by) on a physical view: at most a of them. */
guint           pgs_render_block_ranges         (PgsRenderer    *self,
                                                 const Geometry *g,
                                                 guint64         bx,
                                                 guint64         by,
                                                 Range          *ranges);
void            pgs_render_ensure_hilbert_table (PgsRenderer    *self,
                                                 const Geometry *g,
                                                 guint64         visible_blocks);
guint8         *pgs_render_hilbert_grid         (PgsRenderer    *self,
                                                 const Geometry *g,
                                                 gint64          bx_first,
                                                 gint64          bx_last,
                                                 gint64          by_first,
                                                 gint64          by_last,
                                                 Range          *ranges);
gboolean        pgs_render_aggregate_block_row  (PgsRenderer    *self,
                                                 const Geometry *g,
                                                 guint64         by,
                                                 guint64         bx0,
                                                 guint64         bx1,
                                                 guint8         *out,
                                                 guint8         *mixed);

void            pgs_render_hilbert_d2xy         (guint64         side,
                                                 guint64         d,
                                                 guint64        *x,
                                                 guint64        *y);

/* pgs-render-fold.c */
/* Cuts the long free runs out of the classes, when free memory is hidden. */
void            pgs_render_fold                 (PgsRenderer    *self);
void            pgs_render_fold_clear           (PgsRenderer    *self);
/* A cell of the map to its frame, and back (@hidden: the frame is folded away). */
guint64         pgs_render_cell_to_pfn          (PgsRenderer    *self,
                                                 guint64         cell);
guint64         pgs_render_pfn_to_cell          (PgsRenderer    *self,
                                                 guint64         pfn,
                                                 gboolean       *hidden);

/* pgs-render-residency.c */
void            pgs_render_ensure_bands         (PgsRenderer    *self);
void            pgs_render_ensure_page_counts   (PgsRenderer    *self);
guint8          pgs_render_band_max             (PgsRenderer    *self,
                                                 const Band     *band,
                                                 guint64         p0,
                                                 guint64         p1,
                                                 int             first_of,
                                                 guint64        *first_index);
void            pgs_render_residency_pieces     (PgsRenderer    *self,
                                                 const Geometry *g,
                                                 guint64         bx,
                                                 guint64         by,
                                                 PieceFunc       func,
                                                 gpointer        data);
/* The class byte of block (bx, by), 0xff for no frame; @ranges holds g->a. */
guint8          pgs_render_block_class          (PgsRenderer    *self,
                                                 const Geometry *g,
                                                 guint64         bx,
                                                 guint64         by,
                                                 Range          *ranges);

G_END_DECLS
