/* pgs-render.h: page data into pixels (residency, sharing and page-flag maps)
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <cairo.h>
#include <glib-object.h>

#include "pgs-category.h"
#include "pgs-palette.h"
#include "pgs-types.h"

G_BEGIN_DECLS

typedef enum
{
  PGS_VIEW_RESIDENCY,  /* one process: one cell per virtual page, a band per mapping */
  PGS_VIEW_SHARING,    /* all frames: map count on a log scale */
  PGS_VIEW_FLAGS,      /* all frames: category from kpageflags */
} PgsView;

typedef enum
{
  PGS_LAYOUT_LINEAR,   /* rows in frame (or address) order, left to right, top to bottom */
  PGS_LAYOUT_HILBERT,  /* square tiles each filled along a Hilbert curve, tiles in rows */
} PgsLayout;

/* How the physical views show the frames of the process set: the other frames always keep
 * their own colour, so none can be read as another class. */
typedef enum
{
  PGS_HIGHLIGHT_OUTLINE,  /* its frames keep their colour, ringed in the highlight colour */
  PGS_HIGHLIGHT_OVERLAY,  /* its frames are filled with the highlight colour */
} PgsHighlightMode;

/* What lies under a pixel. A pixel may aggregate several pages (see
 * pgs_renderer_get_aggregation_rule()); the fields describe the page that decided its colour
 * (the first one of that colour in page order), n_pages how many it stands for. */
typedef struct
{
  gboolean     valid;          /* FALSE outside the map */
  gboolean     is_frame;       /* TRUE on the physical views: pfn, count, flags are a frame's */
  guint64      pfn;            /* frame number; residency: from the pagemap entry, 0 if none */
  guint64      address;        /* residency: virtual address of the page */
  guint        mapping;        /* residency: index of its mapping in the process */
  guint64      entry;          /* residency: raw pagemap entry (0 for not present) */
  guint32      count;          /* map count; PGS_COUNT_UNKNOWN (G_MAXUINT32) where not read */
  guint64      flags;          /* kpageflags, 0 where not read */
  PgsCategory  category;       /* from flags; PGS_CATEGORY_HOLE where there is no frame */
  guint64      n_pages;        /* pages aggregated in that pixel */
  /* Added beyond the list: */
  guint        legend_index;   /* the legend item whose colour the pixel has */
  guint64      first_page;     /* index of the first aggregated page: a pfn on the physical
                                * views, a page index in the mapping on residency */
  gboolean     highlighted;    /* physical views: the frame is mapped by the set process */
} PgsHit;

#define PGS_TYPE_RENDERER (pgs_renderer_get_type ())

G_DECLARE_FINAL_TYPE (PgsRenderer, pgs_renderer, PGS, RENDERER, GObject)

PgsRenderer     *pgs_renderer_new                (PgsSnapshot  *snapshot,
                                                  PgsView       view);
PgsSnapshot     *pgs_renderer_get_snapshot       (PgsRenderer  *self);
PgsView          pgs_renderer_get_view           (PgsRenderer  *self);

/* Residency: the process drawn (nothing is drawn without one). Physical views: its frames
 * are highlighted (see PgsHighlightMode). NULL for none. */
void             pgs_renderer_set_process        (PgsRenderer  *self,
                                                  PgsProcess   *process);
PgsProcess      *pgs_renderer_get_process        (PgsRenderer  *self);
/* Physical views: highlight the frames @pfns (guint64, any order) instead of the process's,
 * e.g. the frames of a file called @name in the legend ("libc.so.6"); NULL to go back to
 * the process's. Ignored on residency. */
void             pgs_renderer_set_highlight_frames (PgsRenderer *self,
                                                    GBytes      *pfns,
                                                    const char  *name);
void             pgs_renderer_set_layout         (PgsRenderer  *self,
                                                  PgsLayout     layout);
PgsLayout        pgs_renderer_get_layout         (PgsRenderer  *self);
/* @zoom 1 fits the whole map in the output; 2 shows half of it across. The centre is given
 * as fractions (0..1) of the map's width and height, and clamped so the map stays in view. */
void             pgs_renderer_set_viewport       (PgsRenderer  *self,
                                                  double        zoom,
                                                  double        center_x,
                                                  double        center_y);
void             pgs_renderer_get_viewport       (PgsRenderer  *self,
                                                  double       *zoom,
                                                  double       *center_x,
                                                  double       *center_y);
/* Lays the map out as for a @width x @height output (Hilbert tiles, rows), whatever size it
 * is then drawn at, scaled to fit: a larger export of a map keeps the layout shown on
 * screen, more pixels to a cell. 0 x 0 (the default): as for the size drawn. */
void             pgs_renderer_set_fit_size       (PgsRenderer  *self,
                                                  int           width,
                                                  int           height);
/* The colour around the map (opaque 0xAARRGGBB); the style's background by default. */
void             pgs_renderer_set_background     (PgsRenderer  *self,
                                                  guint32       argb);
/* The palette, background and legend colours; PGS_RENDER_STYLE_LIGHT by default. Sets the
 * background to the style's. */
void             pgs_renderer_set_style          (PgsRenderer  *self,
                                                  PgsRenderStyle style);
PgsRenderStyle   pgs_renderer_get_style          (PgsRenderer  *self);
/* PGS_HIGHLIGHT_OUTLINE by default. */
void             pgs_renderer_set_highlight_mode (PgsRenderer  *self,
                                                  PgsHighlightMode mode);
PgsHighlightMode pgs_renderer_get_highlight_mode (PgsRenderer  *self);

/* Fills @pixels (CAIRO_FORMAT_ARGB32, native endian, opaque) of @width x @height, @stride
 * bytes a row. No text: a GTK widget draws labels and legends itself. */
void             pgs_renderer_render             (PgsRenderer  *self,
                                                  guint8       *pixels,
                                                  int           width,
                                                  int           height,
                                                  int           stride);
/* The map at @width x @height; with @legend, a legend (and residency band labels, and the
 * bars where free memory is hidden) is added beside or below it, so the surface is larger
 * than asked. */
cairo_surface_t *pgs_renderer_render_surface     (PgsRenderer  *self,
                                                  int           width,
                                                  int           height,
                                                  gboolean      legend);
gboolean         pgs_renderer_write_png          (PgsRenderer  *self,
                                                  const char   *path,
                                                  int           width,
                                                  int           height,
                                                  gboolean      legend,
                                                  GError      **error);

/* Same geometry as pgs_renderer_render() at @width x @height; @x, @y in pixels. */
gboolean         pgs_renderer_hit_test           (PgsRenderer  *self,
                                                  int           width,
                                                  int           height,
                                                  double        x,
                                                  double        y,
                                                  PgsHit       *hit);
/* Pixel ↔ map fractions (0..1), for zooming around the pointer. */
gboolean         pgs_renderer_pixel_to_map       (PgsRenderer  *self,
                                                  int           width,
                                                  int           height,
                                                  double        x,
                                                  double        y,
                                                  double       *map_x,
                                                  double       *map_y);

/* The reverse of the hit test: where the cell of @hit's frame (is_frame, pfn) or page
 * (address) lies, as map fractions (0..1) of the centre of the block of cells that shows
 * it, for pgs_renderer_map_to_pixel(). FALSE when it is not on the map. */
gboolean         pgs_renderer_locate             (PgsRenderer  *self,
                                                  int           width,
                                                  int           height,
                                                  const PgsHit *hit,
                                                  double       *map_x,
                                                  double       *map_y);
/* Map fractions to pixels: the inverse of pgs_renderer_pixel_to_map(); the pixel may lie
 * outside the output when that part of the map is not in view. */
gboolean         pgs_renderer_map_to_pixel       (PgsRenderer  *self,
                                                  int           width,
                                                  int           height,
                                                  double        map_x,
                                                  double        map_y,
                                                  double       *x,
                                                  double       *y);

/* Physical views: runs of at least this many free frames are folded out of the map. */
#define PGS_FOLD_MIN_FRAMES 1024

/* Physical views: draw the map without the runs of PGS_FOLD_MIN_FRAMES or more free frames
 * (free or never initialised). The legend still counts every frame; the hit test and
 * pgs_renderer_locate() give the frames' own numbers. */
void             pgs_renderer_set_hide_free      (PgsRenderer  *self,
                                                  gboolean      hide_free);
gboolean         pgs_renderer_get_hide_free      (PgsRenderer  *self);
/* How many runs are folded away, and how many frames they hold together. */
guint            pgs_renderer_get_n_folds        (PgsRenderer  *self);
guint64          pgs_renderer_get_hidden_frames  (PgsRenderer  *self);
/* Fold @index: its frames, and where its marker goes at @width x @height: the top of the
 * boundary between the cells before and after it (pixels; it may be outside the output
 * when zoomed), and the height of a cell there. */
gboolean         pgs_renderer_get_fold           (PgsRenderer  *self,
                                                  int           width,
                                                  int           height,
                                                  guint         index,
                                                  guint64      *first_pfn,
                                                  guint64      *n_frames,
                                                  double       *x,
                                                  double       *y,
                                                  double       *cell_height);

/* The legend: one item per colour, with the number of pages (or frames) of that colour in
 * the whole map (not only the part in view). Labels are translated. */
guint            pgs_renderer_get_n_legend_items (PgsRenderer  *self);
void             pgs_renderer_get_legend_item    (PgsRenderer  *self,
                                                  guint         index,
                                                  guint32      *argb,
                                                  const char  **label,
                                                  guint64      *n_pages);
/* Stable untranslated id of a legend item ("anon", "3-4", "swapped"), for JSON. */
const char      *pgs_renderer_get_legend_id      (PgsRenderer  *self,
                                                  guint         index);
/* Translated, e.g. "Each pixel shows the most common category of the frames it covers". */
const char      *pgs_renderer_get_aggregation_rule (PgsRenderer *self);
/* Physical views with a process set: the legend line that says what marks its frames,
 * "Outlined: frames of firefox (PID 123)", with @marked TRUE (they are drawn in the
 * style's highlight colour), or "No frames of firefox (PID 123) in this map" with @marked
 * FALSE; NULL without a process or on the residency view. Free with g_free(). */
char            *pgs_renderer_describe_highlight (PgsRenderer  *self,
                                                  gboolean     *marked);
/* The flags view's comparison with the kernel's counters, one line each ("MemFree 23.4 GiB
 * · map 23.5 GiB (Free + not yet initialised)"), or one line saying the counters are
 * unavailable; empty for other views. Free with g_ptr_array_unref(). */
GPtrArray       *pgs_renderer_get_counter_lines  (PgsRenderer  *self);
/* Pages (frames) each pixel stands for at this size and zoom: 1 when zoomed in to single
 * pages, 0 when there is nothing to draw. */
guint64          pgs_renderer_get_pages_per_pixel (PgsRenderer *self,
                                                   int          width,
                                                   int          height);

/* Residency, linear layout: one band per mapping. Its vertical extent in pixels of a
 * @width x @height render (clipped to it) and its label; FALSE when out of view or when the
 * layout has no bands. */
guint            pgs_renderer_get_n_bands        (PgsRenderer  *self);
/* Residency, Hilbert layout: where band @index has room for its label, the largest square
 * of its cells (in pixels of a @width x @height render, its top left and side, which may
 * lie partly out of view), and its label; FALSE on the rows layout (see
 * pgs_renderer_get_band()). */
gboolean         pgs_renderer_get_band_square    (PgsRenderer  *self,
                                                  int           width,
                                                  int           height,
                                                  guint         index,
                                                  double       *x,
                                                  double       *y,
                                                  double       *side,
                                                  const char  **label);
gboolean         pgs_renderer_get_band           (PgsRenderer  *self,
                                                  int           width,
                                                  int           height,
                                                  guint         index,
                                                  double       *y,
                                                  double       *band_height,
                                                  const char  **label);

G_END_DECLS
