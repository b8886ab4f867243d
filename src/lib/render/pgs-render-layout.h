/* pgs-render-layout.h: where the cells of a map lie on the output (the renderers' layout)
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A plain object over numbers: how many cells, the layout, where bands start rows, the
 * zoom and centre. It knows no renderer, process or frame; the renderer and its queries
 * use it, never the other way.
 */

#pragma once

#include <glib.h>

#include "pgs-render.h"
#include "pgs-render-physical.h"

G_BEGIN_DECLS

/* The largest magnification: one cell is at most this many pixels wide. */
#define MAX_MAGNIFY 64

typedef PgsFrameRange Range;

typedef struct
{
  int      width;
  int      height;
  gboolean valid;
  PgsLayout layout;
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
   * than pixels, where a pixel may cover fewer rows than columns (see the .c file). */
  double   s0y;
  double   scale_y;
  guint64  ay;
  /* Hilbert block order for one sub-grid side (shared, not owned). */
  const guint32 *hilbert_table;
  guint64  hilbert_side;
} Geometry;

void     pgs_render_geometry_clear       (Geometry       *g);
/* Lays @n cells out on @width x @height pixels. @band_pages (n_bands sizes, NULL on the
 * physical views) makes each band start a row and keeps blocks square. With @fit_width x
 * @fit_height (0 x 0: the output's size), the cells (Hilbert tiles, row width) are laid
 * out as for that size and scaled to the output: an export keeps the screen's layout. */
void     pgs_render_geometry_fit         (Geometry       *g,
                                          PgsLayout       layout,
                                          guint64         n,
                                          const guint64  *band_pages,
                                          guint           n_bands,
                                          int             width,
                                          int             height,
                                          int             fit_width,
                                          int             fit_height,
                                          double          zoom,
                                          double          center_x,
                                          double          center_y);
/* Pixel column → block column, -1 outside the map. */
gint64   pgs_render_pixel_to_block       (double          origin,
                                          double          scale,
                                          guint64         a,
                                          guint64         extent,
                                          double          pixel);
/* The cell ranges of block (bx, by): at most a of them. */
guint    pgs_render_block_ranges         (const Geometry *g,
                                          guint64         bx,
                                          guint64         by,
                                          Range          *ranges);
/* Hilbert: the largest square of cells wholly inside cells [@first, @end), its top left
 * cell and side; FALSE on other layouts or when empty. */
gboolean pgs_render_hilbert_square       (const Geometry *g,
                                          guint64         first,
                                          guint64         end,
                                          guint64        *cx,
                                          guint64        *cy,
                                          guint64        *side);
/* The block that holds @cell (not on residency's linear layout, whose bands start rows). */
void     pgs_render_cell_block           (const Geometry *g,
                                          guint64         cell,
                                          guint64        *bx,
                                          guint64        *by);
void     pgs_render_ensure_hilbert_table (Geometry       *g,
                                          guint64         visible_blocks);
/* Hilbert, much of the map showing: the class of every visible block (a grid), or NULL
 * where the caller must go block by block. */
guint8  *pgs_render_hilbert_grid         (const Geometry *g,
                                          PgsClassRuns   *classes,
                                          gboolean        mode,
                                          gint64          bx_first,
                                          gint64          bx_last,
                                          gint64          by_first,
                                          gint64          by_last);

G_END_DECLS
