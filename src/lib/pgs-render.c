/* pgs-render.c
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Turns a snapshot into pixels without GTK, so the app, the CLI and the tests draw the same
 * picture.
 *
 * Geometry. The map is a grid of cells, one page (or frame) each, mw x mh cells. At zoom 1
 * a pixel is s0 x s0 cells, s0 a power of two (or 1/k when the map is small and is
 * magnified), chosen as the smallest that fits, so every pixel of the unzoomed picture
 * stands for the same number of pages. At other zooms a pixel is s = s0 / zoom cells wide
 * and shows the aligned block of A x A cells under its centre, A the smallest power of two
 * >= s: since a block is at least as wide as a pixel, no block falls between two pixel
 * centres, so no page is ever dropped from the picture.
 *
 * Aligned power-of-two blocks are what make this fast. On the Hilbert layout (square tiles
 * of T x T cells, each filled along a Hilbert curve, tiles in rows) every aligned block of
 * A x A cells is one contiguous range of A² frames; on the linear layout it is A ranges of A.
 * Per frame, the work is one byte of a class array (computed once per snapshot through the
 * lookup tables of pgs-category.c and kept) and a max or a histogram; per pixel, one colour
 * table lookup. Pixel rows and columns that fall on the same block are copied, not
 * recomputed. No cairo call touches the map itself.
 *
 * The residency view stores only present and swapped runs (pgs-process-private.h); holes
 * between them are worked out from the mapping extents by range arithmetic, so a 100 GiB
 * reservation with 4 MiB resident costs what its runs cost.
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "pgs-category.h"
#include "pgs-format.h"
#include "pgs-kpage.h"
#include "pgs-mapping.h"
#include "pgs-palette.h"
#include "pgs-pagemap.h"
#include "pgs-physmap.h"
#include "pgs-process-private.h"
#include "pgs-render.h"
#include "pgs-render-legend.h"
#include "pgs-snapshot.h"

/* Bit 7 of a class byte: "a frame of the highlighted process". */
#define HIGHLIGHT 0x80u
#define CLASS_MASK 0x7fu
/* How far the frames of other processes fade towards the background (of 255). */
#define DIM_AMOUNT 170
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
} Geometry;

struct _PgsRenderer
{
  GObject      parent_instance;

  PgsSnapshot *snapshot;
  PgsPhysMap  *physmap;
  PgsView      view;
  PgsLayout    layout;
  PgsProcess  *process;
  double       zoom;
  double       center_x;
  double       center_y;
  guint32      background;

  /* Physical views: one class byte per frame, made on first use. */
  guint8      *classes;
  guint64      n_frames;
  gboolean     highlighted;   /* some HIGHLIGHT bits are set */
  guint64     *frame_counts;  /* per class, over all frames */

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

G_DEFINE_FINAL_TYPE (PgsRenderer, pgs_renderer, G_TYPE_OBJECT)

G_DEFINE_AUTOPTR_CLEANUP_FUNC (cairo_surface_t, cairo_surface_destroy)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (cairo_t, cairo_destroy)

static void
clear_band (gpointer data)
{
  Band *band = data;

  g_clear_pointer (&band->label, g_free);
}

static void
geometry_clear (Geometry *g)
{
  g_clear_pointer (&g->band_row, g_free);
  memset (g, 0, sizeof *g);
}

static void
invalidate_geometry (PgsRenderer *self)
{
  geometry_clear (&self->geometry);
}

static void
pgs_renderer_dispose (GObject *object)
{
  PgsRenderer *self = (PgsRenderer *) object;

  g_clear_object (&self->process);
  g_clear_object (&self->snapshot);

  G_OBJECT_CLASS (pgs_renderer_parent_class)->dispose (object);
}

static void
pgs_renderer_finalize (GObject *object)
{
  PgsRenderer *self = (PgsRenderer *) object;

  geometry_clear (&self->geometry);
  g_clear_pointer (&self->physmap, pgs_physmap_unref);
  g_clear_pointer (&self->classes, g_free);
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
  self->background = PGS_COLOR_BACKGROUND;
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
      return pgs_palette_share (klass);
    case PGS_VIEW_FLAGS:
      return pgs_palette_category (klass);
    case PGS_VIEW_RESIDENCY:
    default:
      return klass == PGS_RES_NONE ? self->background : pgs_palette_res (klass);
    }
}

static void
update_lut (PgsRenderer *self)
{
  for (guint c = 0; c < 128; c++)
    {
      guint32 color = c < self->n_classes ? class_color (self, c) : self->background;

      self->lut[c | HIGHLIGHT] = color;
      self->lut[c] = self->highlighted ? pgs_palette_mix (color, self->background, DIM_AMOUNT)
                                       : color;
    }
}

/* ---- physical views: the class array ---- */

static void
share_classify (const guint32 *counts,
                const guint64 *flags,
                guint64        n,
                guint8        *out,
                guint64       *totals)
{
  const guint64 hole = PGS_KPF_BIT (PGS_KPF_NOPAGE), free_ = PGS_KPF_BIT (PGS_KPF_BUDDY);
  guint64 local[4][PGS_N_SHARE_CLASSES] = { { 0 } };
  guint64 i;

  for (i = 0; i < n; i++)
    {
      guint32 c = counts[i];
      guint64 f = flags[i];
      guint8 k;

      if (c > 1)
        k = MIN (PGS_SHARE_1 + (32 - __builtin_clz (c - 1)), PGS_SHARE_129_PLUS);
      else if (c == 1)
        k = PGS_SHARE_1;
      else
        k = (f & hole) ? PGS_SHARE_HOLE : (f & free_) ? PGS_SHARE_FREE : PGS_SHARE_0;
      out[i] = k;
    }

  for (i = 0; i + 4 <= n; i += 4)
    {
      local[0][out[i]]++;
      local[1][out[i + 1]]++;
      local[2][out[i + 2]]++;
      local[3][out[i + 3]]++;
    }
  for (; i < n; i++)
    local[0][out[i]]++;
  for (guint k = 0; k < PGS_N_SHARE_CLASSES; k++)
    totals[k] += local[0][k] + local[1][k] + local[2][k] + local[3][k];
}

typedef struct
{
  const guint32 *counts;
  const guint64 *flags;
  guint64        n;
  guint8        *out;
  guint64        totals[PGS_N_SHARE_CLASSES];
} ShareHalf;

static gpointer
share_half (gpointer data)
{
  ShareHalf *h = data;

  share_classify (h->counts, h->flags, h->n, h->out, h->totals);
  return NULL;
}

/* The frames split over two threads where there are many: on a 24 GiB machine this pass
 * reads 78 MB and is most of a first render. */
static void
share_classify_all (const guint32 *counts,
                    const guint64 *flags,
                    guint64        n,
                    guint8        *out,
                    guint64       *totals)
{
  ShareHalf second = { counts + n / 2, flags + n / 2, n - n / 2, out + n / 2, { 0 } };
  GThread *thread = NULL;

  if (n < (1u << 20) || g_get_num_processors () < 2)
    {
      share_classify (counts, flags, n, out, totals);
      return;
    }
  thread = g_thread_try_new ("pgs-share", share_half, &second, NULL);
  if (thread == NULL)
    share_half (&second);
  share_classify (counts, flags, n / 2, out, totals);
  if (thread != NULL)
    g_thread_join (thread);
  for (guint k = 0; k < PGS_N_SHARE_CLASSES; k++)
    totals[k] += second.totals[k];
}

static void
apply_highlight (PgsRenderer *self)
{
  gboolean any = FALSE;

  if (self->classes == NULL)
    return;

  if (self->highlighted)
    for (guint64 i = 0; i < self->n_frames; i++)
      self->classes[i] &= CLASS_MASK;

  if (self->process != NULL && self->process->entries != NULL)
    for (gsize k = 0; k < self->process->n_pages; k++)
      {
        guint64 pfn = pgs_pm_pfn (self->process->entries[k]);

        if (pfn != 0 && pfn < self->n_frames)
          {
            self->classes[pfn] |= HIGHLIGHT;
            any = TRUE;
          }
      }

  self->highlighted = any;
  update_lut (self);
}

static void
ensure_classes (PgsRenderer *self)
{
  const guint32 *counts;
  const guint64 *flags;

  if (self->classes != NULL || self->physmap == NULL)
    return;

  counts = pgs_physmap_get_counts (self->physmap);
  flags = pgs_physmap_get_flags (self->physmap);
  self->classes = g_malloc (MAX (self->n_frames, 1));

  if (self->view == PGS_VIEW_FLAGS)
    {
      self->frame_counts = g_new0 (guint64, PGS_N_CATEGORIES);
      pgs_physmap_classify (self->physmap, self->classes, self->frame_counts);
    }
  else
    {
      self->frame_counts = g_new0 (guint64, PGS_N_SHARE_CLASSES);
      share_classify_all (counts, flags, self->n_frames, self->classes, self->frame_counts);
      /* Never-initialised frames are free here too, holes with a memmap holes. */
      pgs_physmap_override_share_classes (self->physmap, self->classes, self->frame_counts);
    }

  self->highlighted = FALSE;
  apply_highlight (self);
}

/* ---- residency: bands and page classes ---- */

static char *
short_label (const PgsMappingData *m)
{
  if (m->path == NULL || m->path[0] == '\0')
    return g_strdup (pgs_mapping_label_for_path (NULL));
  if (m->path[0] == '[')
    return g_strdup (m->path);
  return g_path_get_basename (m->path);
}

static void
ensure_bands (PgsRenderer *self)
{
  PgsProcess *p = self->process;
  guint run = 0;

  if (self->bands != NULL)
    return;

  self->bands = g_array_new (FALSE, TRUE, sizeof (Band));
  g_array_set_clear_func (self->bands, clear_band);
  self->n_pages = 0;
  if (p == NULL || p->runs == NULL)
    return;

  for (guint i = 0; i < p->mappings->len; i++)
    {
      const PgsMappingData *m = &g_array_index (p->mappings, PgsMappingData, i);
      Band band = { 0 };

      if (m->end <= m->start)
        continue;
      band.mapping = i;
      band.first_page = self->n_pages;
      band.n_pages = (m->end - m->start) / p->page_size;
      band.start = m->start;
      band.file = m->inode != 0;
      while (run < p->runs->len && g_array_index (p->runs, PgsPageRun, run).start < m->start)
        run++;
      band.first_run = run;
      band.label = short_label (m);
      self->n_pages += band.n_pages;
      g_array_append_val (self->bands, band);
    }
}

static inline guint8
page_class (PgsRenderer *self,
            guint64      entry,
            guint32      count,
            guint32      run_flags)
{
  const guint64 *flags = self->physmap != NULL ? pgs_physmap_get_flags (self->physmap) : NULL;

  if (pgs_pm_is_swapped (entry))
    return PGS_RES_SWAPPED;
  if (!pgs_pm_is_present (entry))
    return PGS_RES_NONE;
  if (run_flags & PGS_RUN_ZERO)
    return PGS_RES_ZERO;
  if (flags != NULL)
    {
      guint64 pfn = pgs_pm_pfn (entry);

      if (pfn != 0 && pfn < self->n_frames && (flags[pfn] & PGS_KPF_BIT (PGS_KPF_ZERO_PAGE)))
        return PGS_RES_ZERO;
    }
  if (count == PGS_COUNT_UNKNOWN)
    count = (entry & PGS_PM_EXCLUSIVE) ? 1 : 0;
  if (count == 0)
    return PGS_RES_PRESENT;
  if (count == 1)
    return (entry & PGS_PM_FILE) ? PGS_RES_PRIVATE_FILE : PGS_RES_PRIVATE_ANON;
  return PGS_RES_SHARED_2 + (pgs_share_class_for_count (count) - PGS_SHARE_2);
}

/* Max class over pages [p0, p1) of a band. With @first_of set, returns instead the index
 * of the first page of that class (for hit tests), or G_MAXUINT64. */
static guint8
band_max (PgsRenderer *self,
          const Band  *band,
          guint64      p0,
          guint64      p1,
          int          first_of,
          guint64     *first_index)
{
  PgsProcess *p = self->process;
  guint page_size = p->page_size;
  guint64 a0 = band->start + p0 * page_size, a1 = band->start + p1 * page_size;
  guint8 base = band->file ? PGS_RES_NOT_PRESENT_FILE : PGS_RES_NOT_PRESENT_ANON;
  guint8 best = base;
  guint64 stored = 0;
  guint lo = band->first_run, hi = p->runs->len;

  /* The first run that ends after a0, by bisection within the band's runs. */
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      const PgsPageRun *r = &g_array_index (p->runs, PgsPageRun, mid);

      if (r->start + (guint64) r->n_pages * page_size <= a0)
        lo = mid + 1;
      else
        hi = mid;
    }

  for (guint i = lo; i < p->runs->len; i++)
    {
      const PgsPageRun *r = &g_array_index (p->runs, PgsPageRun, i);
      guint64 s, e;

      if (r->start >= a1)
        break;
      s = MAX (r->start, a0);
      e = MIN (r->start + (guint64) r->n_pages * page_size, a1);
      for (guint64 addr = s; addr < e; addr += page_size)
        {
          gsize k = r->first + (addr - r->start) / page_size;
          guint8 c = page_class (self, p->entries[k],
                                 p->counts != NULL ? p->counts[k] : PGS_COUNT_UNKNOWN, r->flags);

          if (first_of >= 0 && c == first_of)
            {
              *first_index = (addr - band->start) / page_size;
              return c;
            }
          best = MAX (best, c);
          stored++;
        }
    }

  if (first_of >= 0)
    {
      /* Asked for a not-present class: the first page not in a run. */
      if (first_of == base)
        for (guint64 q = p0; q < p1; q++)
          {
            PgsPageInfo info;

            pgs_process_lookup_page (p, band->start + q * page_size, &info);
            if (info.entry == 0)
              {
                *first_index = q;
                return base;
              }
          }
      *first_index = G_MAXUINT64;
    }
  (void) stored;
  return best;
}

static void
ensure_page_counts (PgsRenderer *self)
{
  PgsProcess *p = self->process;

  if (self->page_counts != NULL)
    return;
  self->page_counts = g_new0 (guint64, PGS_N_RES_CLASSES);
  ensure_bands (self);
  if (p == NULL || p->runs == NULL)
    return;

  for (guint b = 0; b < self->bands->len; b++)
    {
      const Band *band = &g_array_index (self->bands, Band, b);

      self->page_counts[band->file ? PGS_RES_NOT_PRESENT_FILE : PGS_RES_NOT_PRESENT_ANON] += band->n_pages;
    }
  for (guint r = 0; r < p->runs->len; r++)
    {
      const PgsPageRun *run = &g_array_index (p->runs, PgsPageRun, r);
      const PgsMappingData *m = &g_array_index (p->mappings, PgsMappingData, run->mapping);

      for (guint32 j = 0; j < run->n_pages; j++)
        {
          gsize k = run->first + j;
          guint8 c = page_class (self, p->entries[k],
                                 p->counts != NULL ? p->counts[k] : PGS_COUNT_UNKNOWN, run->flags);

          self->page_counts[c]++;
          self->page_counts[m->inode != 0 ? PGS_RES_NOT_PRESENT_FILE : PGS_RES_NOT_PRESENT_ANON]--;
        }
    }
}

/* ---- geometry ---- */

/* (x, y) → index along a Hilbert curve filling a side x side square (side a power of two),
 * starting at (0, 0) and ending at (side - 1, 0). */
static guint64
hilbert_xy2d (guint64 side,
              guint64 x,
              guint64 y)
{
  guint64 d = 0;

  for (guint64 s = side / 2; s > 0; s /= 2)
    {
      guint64 rx = (x & s) > 0, ry = (y & s) > 0;

      d += s * s * ((3 * rx) ^ ry);
      if (ry == 0)
        {
          guint64 t;

          if (rx == 1)
            {
              x = side - 1 - x;
              y = side - 1 - y;
            }
          t = x;
          x = y;
          y = t;
        }
    }
  return d;
}

static void
hilbert_d2xy (guint64  side,
              guint64  d,
              guint64 *xp,
              guint64 *yp)
{
  guint64 x = 0, y = 0, t = d;

  for (guint64 s = 1; s < side; s *= 2)
    {
      guint64 rx = 1 & (t / 2), ry = 1 & (t ^ rx);

      if (ry == 0)
        {
          guint64 tmp;

          if (rx == 1)
            {
              x = s - 1 - x;
              y = s - 1 - y;
            }
          tmp = x;
          x = y;
          y = tmp;
        }
      x += s * rx;
      y += s * ry;
      t /= 4;
    }
  *xp = x;
  *yp = y;
}

static guint64
n_cells (PgsRenderer *self)
{
  if (self->view == PGS_VIEW_RESIDENCY)
    {
      ensure_bands (self);
      return self->n_pages;
    }
  return self->n_frames;
}

/* Rows the bands take at @mw columns, each band starting a row. */
static guint64
band_rows (PgsRenderer *self,
           guint64      mw,
           guint64     *row_starts)
{
  guint64 rows = 0;

  for (guint b = 0; b < self->bands->len; b++)
    {
      const Band *band = &g_array_index (self->bands, Band, b);

      if (row_starts != NULL)
        row_starts[b] = rows;
      rows += (band->n_pages + mw - 1) / mw;
    }
  if (row_starts != NULL)
    row_starts[self->bands->len] = rows;
  return rows;
}

/* Tries cells per pixel @s0 (a power of two, or its inverse): does the map fit? */
static gboolean
try_fit (PgsRenderer *self,
         Geometry    *g,
         double       s0)
{
  guint64 wc = (guint64) floor (g->width * s0), hc = (guint64) floor (g->height * s0);
  guint64 a0 = s0 >= 1 ? (guint64) s0 : 1;

  if (wc == 0 || hc == 0)
    return FALSE;

  if (self->layout == PGS_LAYOUT_HILBERT)
    {
      /* The largest tile that fits, for the most locality; at least one block. */
      for (guint64 t = G_GUINT64_CONSTANT (1) << 31; t >= a0; t /= 2)
        {
          guint64 tx, ty, need;

          if (t > wc || t > hc)
            continue;
          tx = wc / t;
          ty = hc / t;
          need = (g->n + t * t - 1) / (t * t);
          if (tx * ty < need)
            continue;
          /* As compact as the tile count allows. */
          tx = MIN (tx, need);
          ty = (need + tx - 1) / tx;
          tx = (need + ty - 1) / ty;
          g->tile = t;
          g->tiles_x = tx;
          g->n_tiles = need;
          g->mw = tx * t;
          g->mh = ty * t;
          return TRUE;
        }
      return FALSE;
    }

  g->mw = wc;
  if (self->view == PGS_VIEW_RESIDENCY)
    g->mh = band_rows (self, wc, NULL);
  else
    g->mh = (g->n + wc - 1) / wc;
  return g->mh <= hc;
}

static const Geometry *
get_geometry (PgsRenderer *self,
              int          width,
              int          height)
{
  Geometry *g = &self->geometry;
  double s, map_w, map_h, zoom;

  if (g->width == width && g->height == height && g->width > 0)
    return g;

  geometry_clear (g);
  g->width = width;
  g->height = height;
  g->n = n_cells (self);
  if (width <= 0 || height <= 0 || g->n == 0)
    return g;

  /* The smallest scale (most pixels per page) that fits: magnifications 1/64 … 1/1, then
   * whole numbers of cells per pixel. The Hilbert layout needs powers of two, for blocks
   * that are whole sub-squares of a tile; rows take any whole number, which fills the
   * output better. */
  for (int k = MAX_MAGNIFY; k >= 1 && !g->valid; k /= 2)
    if (try_fit (self, g, 1.0 / k))
      {
        g->s0 = 1.0 / k;
        g->valid = TRUE;
      }
  for (guint64 s0 = 2; !g->valid && s0 < (G_GUINT64_CONSTANT (1) << 40);
       s0 = self->layout == PGS_LAYOUT_HILBERT || s0 >= 64 ? s0 * 2 : s0 + 1)
    if (try_fit (self, g, s0))
      {
        g->s0 = s0;
        g->valid = TRUE;
      }
  if (!g->valid)
    return g;

  if (self->view == PGS_VIEW_RESIDENCY && self->layout == PGS_LAYOUT_LINEAR)
    {
      g->band_row = g_new (guint64, self->bands->len + 1);
      band_rows (self, g->mw, g->band_row);
    }

  zoom = CLAMP (self->zoom, 1.0, g->s0 * MAX_MAGNIFY);
  s = g->s0 / zoom;
  g->scale = s;
  g->a = 1;
  if (self->layout == PGS_LAYOUT_HILBERT)
    while ((double) g->a < s)
      g->a *= 2;
  else
    g->a = (guint64) MAX (1.0, ceil (s - 1e-9));

  map_w = g->mw / s;
  map_h = g->mh / s;
  /* A map narrower than the output is centred on a whole pixel; a wider one follows the
   * centre, clamped so no empty space shows on one side while map hides on the other. */
  if (map_w <= width)
    g->x0 = -floor ((width - map_w) / 2) * s;
  else
    g->x0 = CLAMP (self->center_x * g->mw, width * s / 2, g->mw - width * s / 2) - width * s / 2;
  if (map_h <= height)
    g->y0 = -floor ((height - map_h) / 2) * s;
  else
    g->y0 = CLAMP (self->center_y * g->mh, height * s / 2, g->mh - height * s / 2) - height * s / 2;

  return g;
}

/* Pixel column → block column, -1 outside the map. */
static gint64
pixel_to_block (double  origin,
                double  scale,
                guint64 a,
                guint64 extent,
                double  pixel)
{
  double cell = origin + pixel * scale;

  if (cell < 0 || cell >= (double) extent)
    return -1;
  return (gint64) ((guint64) cell / a);
}

/* ---- aggregation over a block ---- */

typedef struct
{
  guint64 start;
  guint64 end;
} Range;

/* The frame ranges of block (bx, by) on a physical view: at most a of them. */
static guint
block_ranges (PgsRenderer    *self,
              const Geometry *g,
              guint64         bx,
              guint64         by,
              Range          *ranges)
{
  guint64 a = g->a;
  guint n = 0;

  if (self->layout == PGS_LAYOUT_HILBERT)
    {
      guint64 t = g->tile, sub = t / a;
      guint64 tile = (by * a / t) * g->tiles_x + (bx * a / t);
      guint64 cx = (bx * a % t) / a, cy = (by * a % t) / a, d, start;

      if ((bx * a) / t >= g->tiles_x || tile >= g->n_tiles)
        return 0;
      if (self->hilbert_table != NULL && self->hilbert_side == sub)
        d = self->hilbert_table[cy * sub + cx];
      else
        d = hilbert_xy2d (sub, cx, cy);
      start = tile * t * t + d * a * a;
      if (start < g->n)
        {
          ranges[0].start = start;
          ranges[0].end = MIN (start + a * a, g->n);
          n = 1;
        }
      return n;
    }

  for (guint64 y = by * a; y < MIN ((by + 1) * a, g->mh); y++)
    {
      guint64 s = y * g->mw + bx * a, e = y * g->mw + MIN ((bx + 1) * a, g->mw);

      if (s >= g->n)
        break;
      ranges[n].start = s;
      ranges[n].end = MIN (e, g->n);
      n++;
    }
  return n;
}

/* Highest class; OR of the highlight bits. */
static guint8
aggregate_max (const guint8 *classes,
               const Range  *ranges,
               guint         n_ranges)
{
  guint8 best = 0, any = 0;

  for (guint r = 0; r < n_ranges; r++)
    for (guint64 i = ranges[r].start; i < ranges[r].end; i++)
      {
        guint8 c = classes[i];

        best = MAX (best, c & CLASS_MASK);
        any |= c;
      }
  return best | (any & HIGHLIGHT);
}

/* Most common class, ties to the lowest (the one listed first in the legend). */
static guint8
aggregate_mode (const guint8 *classes,
                const Range  *ranges,
                guint         n_ranges)
{
  guint32 hist[PGS_N_CATEGORIES] = { 0 };
  guint8 first = classes[ranges[0].start], any = 0, best = 0;
  gboolean uniform = TRUE;
  guint32 best_n = 0;

  /* Most blocks are one category throughout: check that before counting. */
  for (guint r = 0; r < n_ranges && uniform; r++)
    for (guint64 i = ranges[r].start; i < ranges[r].end; i++)
      if ((classes[i] & CLASS_MASK) != (first & CLASS_MASK))
        {
          uniform = FALSE;
          break;
        }
      else
        any |= classes[i];
  if (uniform)
    return (first & CLASS_MASK) | (any & HIGHLIGHT);

  any = 0;
  for (guint r = 0; r < n_ranges; r++)
    for (guint64 i = ranges[r].start; i < ranges[r].end; i++)
      {
        hist[classes[i] & CLASS_MASK]++;
        any |= classes[i];
      }
  for (guint c = 0; c < PGS_N_CATEGORIES; c++)
    if (hist[c] > best_n)
      {
        best_n = hist[c];
        best = c;
      }
  return best | (any & HIGHLIGHT);
}

/* Residency: calls @func on each (band, first page, end page) piece of block (bx, by). */
typedef gboolean (*PieceFunc) (PgsRenderer *self,
                               const Band  *band,
                               guint64      p0,
                               guint64      p1,
                               gpointer     data);

static guint
band_for_page (PgsRenderer *self,
               guint64      page)
{
  guint lo = 0, hi = self->bands->len;

  while (hi - lo > 1)
    {
      guint mid = (lo + hi) / 2;

      if (g_array_index (self->bands, Band, mid).first_page <= page)
        lo = mid;
      else
        hi = mid;
    }
  return lo;
}

static guint
band_for_row (const Geometry *g,
              guint           n_bands,
              guint64         row)
{
  guint lo = 0, hi = n_bands;

  while (hi - lo > 1)
    {
      guint mid = (lo + hi) / 2;

      if (g->band_row[mid] <= row)
        lo = mid;
      else
        hi = mid;
    }
  return lo;
}

static void
residency_pieces (PgsRenderer    *self,
                  const Geometry *g,
                  guint64         bx,
                  guint64         by,
                  PieceFunc       func,
                  gpointer        data)
{
  Range range;

  if (self->layout == PGS_LAYOUT_HILBERT)
    {
      guint64 d;
      guint b;

      if (block_ranges (self, g, bx, by, &range) == 0)
        return;
      d = range.start;
      b = band_for_page (self, d);
      while (d < range.end && b < self->bands->len)
        {
          const Band *band = &g_array_index (self->bands, Band, b);
          guint64 p0 = d - band->first_page;
          guint64 p1 = MIN (range.end - band->first_page, band->n_pages);

          if (p1 > p0 && !func (self, band, p0, p1, data))
            return;
          d = band->first_page + band->n_pages;
          b++;
        }
      return;
    }

  {
    guint64 a = g->a, x0 = bx * a, x1 = MIN ((bx + 1) * a, g->mw);
    guint n_bands = self->bands->len;
    guint64 y_end = MIN ((by + 1) * a, g->mh);
    guint b = by * a < g->mh ? band_for_row (g, n_bands, by * a) : n_bands;

    for (guint64 y = by * a; y < y_end && b < n_bands; y++)
      {
        const Band *band;
        guint64 p0, p1;

        while (b + 1 < n_bands && g->band_row[b + 1] <= y)
          b++;
        band = &g_array_index (self->bands, Band, b);
        /* Consecutive rows of one band with the block's full width: one piece per row still,
         * since the columns outside the block sit between them. */
        p0 = (y - g->band_row[b]) * g->mw + x0;
        p1 = MIN ((y - g->band_row[b]) * g->mw + x1, band->n_pages);
        if (p1 > p0 && !func (self, band, p0, p1, data))
          return;
      }
  }
}

typedef struct
{
  guint8 best;
} MaxData;

static gboolean
piece_max (PgsRenderer *self,
           const Band  *band,
           guint64      p0,
           guint64      p1,
           gpointer     data)
{
  MaxData *m = data;

  m->best = MAX (m->best, band_max (self, band, p0, p1, -1, NULL));
  /* Nothing outranks the top class: stop early. */
  return m->best < PGS_RES_SHARED_129_PLUS;
}

static guint8
block_class (PgsRenderer    *self,
             const Geometry *g,
             guint64         bx,
             guint64         by,
             Range          *ranges)
{
  guint n;

  if (self->view == PGS_VIEW_RESIDENCY)
    {
      MaxData m = { PGS_RES_NONE };

      residency_pieces (self, g, bx, by, piece_max, &m);
      return m.best;
    }

  n = block_ranges (self, g, bx, by, ranges);
  if (n == 0)
    return 0xff;  /* no frame: background */
  return self->view == PGS_VIEW_FLAGS ? aggregate_mode (self->classes, ranges, n)
                                      : aggregate_max (self->classes, ranges, n);
}

/* Block order tables, one per sub-grid side and direction, shared by every renderer and
 * never freed: sides are powers of two up to HILBERT_TABLE_MAX, so at most a dozen small
 * tables each way (the largest 16 MiB). Building one costs a few milliseconds; a refresh
 * should not pay it. The forward table maps (y * side + x) → curve index d, the inverse
 * maps d → (y << 16 | x), to walk a tile in curve order. */
#define HILBERT_TABLE_MAX 2048

static const guint32 *
get_hilbert_cached (guint64  side,
                    gboolean inverse)
{
  static const guint32 *tables[2][32];
  static GMutex lock;
  guint level = 0;
  const guint32 *table;

  if (side > HILBERT_TABLE_MAX || side == 0)
    return NULL;
  while ((G_GUINT64_CONSTANT (1) << level) < side)
    level++;

  g_mutex_lock (&lock);
  if (tables[inverse][level] == NULL)
    {
      guint32 *t = g_new (guint32, side * side);

      for (guint64 d = 0; d < side * side; d++)
        {
          guint64 x, y;

          hilbert_d2xy (side, d, &x, &y);
          if (inverse)
            t[d] = (guint32) (y << 16 | x);
          else
            t[y * side + x] = (guint32) d;
        }
      tables[inverse][level] = t;
    }
  table = tables[inverse][level];
  g_mutex_unlock (&lock);
  return table;
}

static void
ensure_hilbert_table (PgsRenderer    *self,
                      const Geometry *g,
                      guint64         visible_blocks)
{
  guint64 sub;

  if (self->layout != PGS_LAYOUT_HILBERT || !g->valid)
    return;
  sub = g->tile / g->a;
  if (self->hilbert_table != NULL && self->hilbert_side == sub)
    return;
  /* Worth it only when much of a tile shows; a deep zoom computes its few blocks. */
  if (sub * sub > 4 * visible_blocks)
    return;
  self->hilbert_table = (guint32 *) get_hilbert_cached (sub, FALSE);
  self->hilbert_side = self->hilbert_table != NULL ? sub : 0;
}

/* Hilbert, unzoomed or nearly: the class of every visible block, found by walking each
 * tile in curve order. Reading the class bytes in order and scattering into a small grid
 * is much faster than gathering each block's bytes from across the tile row by row.
 * Returns NULL where the general path must do it. */
static guint8 *
hilbert_grid (PgsRenderer    *self,
              const Geometry *g,
              gint64          bx_first,
              gint64          bx_last,
              gint64          by_first,
              gint64          by_last,
              Range          *ranges)
{
  guint64 a = g->a, aa = a * a, t = g->tile, sub = t / a;
  guint64 gw = bx_last - bx_first + 1, gh = by_last - by_first + 1;
  gboolean mode = self->view == PGS_VIEW_FLAGS;
  const guint8 *classes = self->classes;
  const guint32 *inv;
  guint8 *grid;

  if (self->layout != PGS_LAYOUT_HILBERT || self->highlighted || a > 2 ||
      bx_last < 0 || by_last < 0)
    return NULL;
  /* Only when most of each tile shows: a deep zoom gathers its few blocks instead. */
  if (gw * gh * 2 < MIN (g->n_tiles * sub * sub, (guint64) g->width * g->height / 4))
    return NULL;
  inv = get_hilbert_cached (sub, TRUE);
  if (inv == NULL)
    return NULL;

  grid = g_malloc (gw * gh);
  memset (grid, 0xff, gw * gh);
  for (guint64 ti = 0; ti < g->n_tiles; ti++)
    {
      guint64 ox = (ti % g->tiles_x) * sub, oy = (ti / g->tiles_x) * sub;
      guint64 base = ti * t * t;

      if ((gint64) (ox + sub) <= bx_first || (gint64) ox > bx_last ||
          (gint64) (oy + sub) <= by_first || (gint64) oy > by_last)
        continue;
      for (guint64 d = 0; d < sub * sub; d++)
        {
          guint64 start = base + d * aa;
          gint64 bx = ox + (inv[d] & 0xffff), by = oy + (inv[d] >> 16);
          const guint8 *p = classes + start;
          guint8 v;

          if (start >= g->n)
            break;
          if (bx < bx_first || bx > bx_last || by < by_first || by > by_last)
            continue;
          if (a == 1)
            v = p[0];
          else if (start + aa > g->n)
            v = block_class (self, g, bx, by, ranges);
          else if (!mode)
            v = MAX (MAX (p[0], p[1]), MAX (p[2], p[3]));
          else if (p[0] == p[1] && p[0] == p[2] && p[0] == p[3])
            v = p[0];
          else
            {
              ranges[0].start = start;
              ranges[0].end = start + aa;
              v = aggregate_mode (classes, ranges, 1);
            }
          grid[(by - by_first) * gw + (bx - bx_first)] = v;
        }
    }
  return grid;
}

/* The fast path of the physical views: every block of block row @by from @bx0 to @bx1
 * (inclusive) at once, into @out (one class byte each, 0xff for no frame). Row-wise, so
 * the linear layout streams through memory, and with the block sizes of an unzoomed
 * picture (1 and 2 cells) written out. Without highlighting a class byte is the class,
 * so max works on raw bytes. Returns FALSE where the caller should go block by block. */
static gboolean
aggregate_block_row (PgsRenderer    *self,
                     const Geometry *g,
                     guint64         by,
                     guint64         bx0,
                     guint64         bx1,
                     guint8         *out,
                     guint8         *mixed)
{
  const guint8 *classes = self->classes;
  gboolean mode = self->view == PGS_VIEW_FLAGS;
  guint64 a = g->a, nb = bx1 - bx0 + 1;

  if (self->highlighted)
    return FALSE;

  if (self->layout == PGS_LAYOUT_HILBERT)
    {
      guint64 t = g->tile, sub = t / a, aa = a * a;
      guint64 cy = (by * a % t) / a, tile_row = by * a / t;

      if (a > 2 || self->hilbert_table == NULL || self->hilbert_side != sub)
        return FALSE;
      for (guint64 bx = bx0; bx <= bx1; bx++)
        {
          guint64 tile = tile_row * g->tiles_x + (bx * a / t), start;
          const guint8 *p;

          out[bx - bx0] = 0xff;
          mixed[bx - bx0] = 0;
          if ((bx * a) / t >= g->tiles_x || tile >= g->n_tiles)
            continue;
          start = tile * t * t + (guint64) self->hilbert_table[cy * sub + (bx * a % t) / a] * aa;
          if (start + aa > g->n)
            {
              /* The last, partial block: the general path. */
              mixed[bx - bx0] = start < g->n;
              continue;
            }
          p = classes + start;
          if (a == 1)
            out[bx - bx0] = p[0];
          else
            {
              guint8 m01 = MAX (p[0], p[1]), m23 = MAX (p[2], p[3]);

              if (!mode)
                out[bx - bx0] = MAX (m01, m23);
              else if (p[0] == p[1] && p[0] == p[2] && p[0] == p[3])
                out[bx - bx0] = p[0];
              else
                mixed[bx - bx0] = 1;
            }
        }
      return TRUE;
    }

  /* Linear: rows y of the block row, each a run of frames. */
  {
    guint64 y0 = by * a, y1 = MIN ((by + 1) * a, g->mh);

    memset (out, 0xff, nb);
    memset (mixed, 0, nb);
    for (guint64 y = y0; y < y1; y++)
      {
        guint64 row = y * g->mw, row_end = MIN (row + g->mw, g->n), full_end, bx;
        const guint8 *p = classes + row;
        gboolean first = y == y0;

        if (row + bx0 * a >= g->n)
          break;

        /* Whole blocks of 1 or 2 frames in this row: the unzoomed picture's common case,
         * as straight loops the compiler can unroll. Mixed marks the blocks that need a
         * histogram; their class byte here is only a candidate. */
        full_end = MIN (bx1 + 1, (row_end - row) / a);
        bx = bx0;
        if (a == 1)
          for (; bx < full_end; bx++)
            {
              guint8 v = p[bx], o = out[bx - bx0];

              if (first)
                out[bx - bx0] = v;
              else if (mode)
                mixed[bx - bx0] |= o != v;
              else
                out[bx - bx0] = MAX (o, v);
            }
        else if (a == 2)
          for (; bx < full_end; bx++)
            {
              guint8 v0 = p[2 * bx], v1 = p[2 * bx + 1], o = out[bx - bx0];

              if (mode)
                {
                  mixed[bx - bx0] |= (v0 != v1) | (!first && o != v0);
                  out[bx - bx0] = v0;
                }
              else
                out[bx - bx0] = first ? MAX (v0, v1) : MAX (o, MAX (v0, v1));
            }

        for (; bx <= bx1; bx++)
          {
            guint64 s = row + bx * a, e = MIN (row + MIN ((bx + 1) * a, g->mw), g->n);
            guint8 *o = &out[bx - bx0];
            guint8 v;

            if (s >= e)
              break;
            if (e - s == a && a <= 2)
              {
                v = classes[s];
                if (a == 2)
                  {
                    guint8 v1 = classes[s + 1];

                    if (mode && v1 != v)
                      mixed[bx - bx0] = 1;
                    v = MAX (v, v1);
                  }
              }
            else
              {
                /* Other sizes: max, or first byte with a mixed mark. */
                v = classes[s];
                for (guint64 i = s + 1; i < e; i++)
                  {
                    if (mode && classes[i] != v)
                      mixed[bx - bx0] = 1;
                    v = MAX (v, classes[i]);
                  }
              }
            if (*o == 0xff)
              *o = v;
            else if (mode)
              {
                if (*o != v)
                  mixed[bx - bx0] = 1;
              }
            else
              *o = MAX (*o, v);
          }
      }
  }
  return TRUE;
}

static void
prepare (PgsRenderer *self)
{
  if (self->view == PGS_VIEW_RESIDENCY)
    {
      ensure_bands (self);
      ensure_page_counts (self);
    }
  else
    ensure_classes (self);
}

void
pgs_renderer_render (PgsRenderer *self,
                     guint8      *pixels,
                     int          width,
                     int          height,
                     int          stride)
{
  const Geometry *g;
  g_autofree gint64 *col_block = NULL;
  g_autofree Range *ranges = NULL;
  g_autofree guint8 *row_classes = NULL;
  g_autofree guint8 *row_mixed = NULL;
  g_autofree guint8 *grid = NULL;
  gint64 prev_by = -2, bx_first = -1, bx_last = -1, grid_by_first = 0;
  guint32 background;

  g_return_if_fail (PGS_IS_RENDERER (self));
  g_return_if_fail (pixels != NULL);
  g_return_if_fail (width > 0 && height > 0 && stride >= width * 4);

  prepare (self);
  g = get_geometry (self, width, height);
  background = self->background;

  if (!g->valid || (self->view != PGS_VIEW_RESIDENCY && self->classes == NULL))
    {
      for (int y = 0; y < height; y++)
        {
          guint32 *row = (guint32 *) (pixels + (gsize) y * stride);

          for (int x = 0; x < width; x++)
            row[x] = background;
        }
      return;
    }

  col_block = g_new (gint64, width);
  {
    guint64 n_cols = 0;
    gint64 last = -1;

    for (int x = 0; x < width; x++)
      {
        col_block[x] = pixel_to_block (g->x0, g->scale, g->a, g->mw, x + 0.5);
        if (col_block[x] >= 0)
          {
            if (bx_first < 0)
              bx_first = col_block[x];
            bx_last = col_block[x];
          }
        if (col_block[x] >= 0 && col_block[x] != last)
          n_cols++;
        last = col_block[x];
      }
    ensure_hilbert_table (self, g, n_cols * MAX (1, (guint64) (height * g->scale / g->a)));
  }
  ranges = g_new (Range, g->a);
  if (bx_last >= 0)
    {
      row_classes = g_malloc (bx_last - bx_first + 1);
      row_mixed = g_malloc (bx_last - bx_first + 1);
    }
  if (self->view != PGS_VIEW_RESIDENCY && self->layout == PGS_LAYOUT_HILBERT)
    {
      gint64 by_first = -1, by_last = -1;

      for (int y = 0; y < height; y++)
        {
          gint64 by = pixel_to_block (g->y0, g->scale, g->a, g->mh, y + 0.5);

          if (by >= 0)
            {
              if (by_first < 0)
                by_first = by;
              by_last = by;
            }
        }
      grid = hilbert_grid (self, g, bx_first, bx_last, by_first, by_last, ranges);
      grid_by_first = by_first;
    }

  for (int y = 0; y < height; y++)
    {
      guint32 *row = (guint32 *) (pixels + (gsize) y * stride);
      gint64 by = pixel_to_block (g->y0, g->scale, g->a, g->mh, y + 0.5);
      gint64 prev_bx = -2;
      guint32 color = background;

      /* Rows on the same block row as the row above are the same pixels. */
      if (by == prev_by && y > 0)
        {
          memcpy (row, pixels + (gsize) (y - 1) * stride, (gsize) width * 4);
          continue;
        }
      prev_by = by;

      if (grid != NULL && by >= 0)
        {
          const guint8 *grow = grid + (by - grid_by_first) * (bx_last - bx_first + 1);

          for (int x = 0; x < width; x++)
            {
              gint64 bx = col_block[x];
              guint8 c = bx < 0 ? 0xff : grow[bx - bx_first];

              row[x] = c == 0xff ? background : self->lut[c];
            }
          continue;
        }

      if (by >= 0 && bx_last >= 0 && self->view != PGS_VIEW_RESIDENCY &&
          aggregate_block_row (self, g, by, bx_first, bx_last, row_classes, row_mixed))
        {
          for (guint64 i = 0; i <= (guint64) (bx_last - bx_first); i++)
            if (row_mixed[i])
              row_classes[i] = block_class (self, g, bx_first + i, by, ranges);
          for (int x = 0; x < width; x++)
            {
              gint64 bx = col_block[x];
              guint8 c = bx < 0 ? 0xff : row_classes[bx - bx_first];

              row[x] = c == 0xff ? background : self->lut[c];
            }
          continue;
        }

      for (int x = 0; x < width; x++)
        {
          gint64 bx = col_block[x];

          if (bx != prev_bx)
            {
              prev_bx = bx;
              if (bx < 0 || by < 0)
                color = background;
              else
                {
                  guint8 c = block_class (self, g, bx, by, ranges);

                  color = c == 0xff ? background : self->lut[c];
                }
            }
          row[x] = color;
        }
    }
}

/* ---- hit test ---- */

static gboolean
piece_first (PgsRenderer *self,
             const Band  *band,
             guint64      p0,
             guint64      p1,
             gpointer     data)
{
  PgsHit *hit = data;
  guint64 index;

  hit->n_pages += p1 - p0;
  if (hit->valid)
    return TRUE;
  band_max (self, band, p0, p1, hit->legend_index, &index);
  if (index != G_MAXUINT64)
    {
      hit->valid = TRUE;
      hit->mapping = band->mapping;
      hit->first_page = index;
      hit->address = band->start + index * self->process->page_size;
    }
  return TRUE;
}

/* The category of a frame, following a tail page back to its head. */
static PgsCategory
frame_category (PgsRenderer *self,
                guint64      pfn)
{
  if (self->view == PGS_VIEW_FLAGS && self->classes != NULL)
    return self->classes[pfn] & CLASS_MASK;
  return pgs_physmap_get_category (self->physmap, pfn);
}

gboolean
pgs_renderer_hit_test (PgsRenderer *self,
                       int          width,
                       int          height,
                       double       x,
                       double       y,
                       PgsHit      *hit)
{
  const Geometry *g;
  gint64 bx, by;
  g_autofree Range *ranges = NULL;
  guint8 c;

  g_return_val_if_fail (PGS_IS_RENDERER (self), FALSE);
  g_return_val_if_fail (hit != NULL, FALSE);

  memset (hit, 0, sizeof *hit);
  hit->count = PGS_COUNT_UNKNOWN;
  prepare (self);
  g = get_geometry (self, width, height);
  if (!g->valid || x < 0 || y < 0 || x >= width || y >= height)
    return FALSE;
  if (self->view != PGS_VIEW_RESIDENCY && self->classes == NULL)
    return FALSE;

  /* The pixel's centre, as render() samples it. */
  bx = pixel_to_block (g->x0, g->scale, g->a, g->mw, floor (x) + 0.5);
  by = pixel_to_block (g->y0, g->scale, g->a, g->mh, floor (y) + 0.5);
  if (bx < 0 || by < 0)
    return FALSE;

  ranges = g_new (Range, g->a);
  c = block_class (self, g, bx, by, ranges);
  if (c == 0xff || (self->view == PGS_VIEW_RESIDENCY && c == PGS_RES_NONE))
    return FALSE;

  hit->legend_index = c & CLASS_MASK;
  hit->highlighted = (c & HIGHLIGHT) != 0;

  if (self->view == PGS_VIEW_RESIDENCY)
    {
      PgsPageInfo info;

      residency_pieces (self, g, bx, by, piece_first, hit);
      if (!hit->valid)
        return FALSE;
      pgs_process_lookup_page (self->process, hit->address, &info);
      hit->entry = info.entry;
      hit->count = info.count;
      hit->pfn = pgs_pm_pfn (info.entry);
      hit->category = PGS_CATEGORY_HOLE;
      if (self->physmap != NULL && hit->pfn != 0 && hit->pfn < self->n_frames)
        {
          hit->flags = pgs_physmap_get_flags (self->physmap)[hit->pfn];
          hit->category = frame_category (self, hit->pfn);
        }
      return TRUE;
    }

  {
    guint n = block_ranges (self, g, bx, by, ranges);
    guint8 want = c & CLASS_MASK;

    for (guint r = 0; r < n; r++)
      {
        hit->n_pages += ranges[r].end - ranges[r].start;
        for (guint64 i = ranges[r].start; i < ranges[r].end && !hit->valid; i++)
          if ((self->classes[i] & CLASS_MASK) == want)
            {
              hit->valid = TRUE;
              hit->pfn = i;
            }
      }
    if (!hit->valid)
      return FALSE;
    hit->is_frame = TRUE;
    hit->first_page = hit->pfn;
    hit->count = pgs_physmap_get_counts (self->physmap)[hit->pfn];
    hit->flags = pgs_physmap_get_flags (self->physmap)[hit->pfn];
    hit->category = frame_category (self, hit->pfn);
  }
  return TRUE;
}

gboolean
pgs_renderer_pixel_to_map (PgsRenderer *self,
                           int          width,
                           int          height,
                           double       x,
                           double       y,
                           double      *map_x,
                           double      *map_y)
{
  const Geometry *g;

  g_return_val_if_fail (PGS_IS_RENDERER (self), FALSE);

  prepare (self);
  g = get_geometry (self, width, height);
  if (!g->valid)
    return FALSE;
  if (map_x != NULL)
    *map_x = (g->x0 + x * g->scale) / g->mw;
  if (map_y != NULL)
    *map_y = (g->y0 + y * g->scale) / g->mh;
  return TRUE;
}

guint64
pgs_renderer_get_pages_per_pixel (PgsRenderer *self,
                                  int          width,
                                  int          height)
{
  const Geometry *g;

  g_return_val_if_fail (PGS_IS_RENDERER (self), 0);

  prepare (self);
  g = get_geometry (self, width, height);
  return g->valid ? g->a * g->a : 0;
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

  prepare (self);
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
  ensure_bands (self);
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
  prepare (self);
  g = get_geometry (self, width, height);
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

/* ---- surfaces and PNG ---- */

#define FONT_SIZE 13.0
#define LINE 20.0
#define PAD 12.0
#define SWATCH 12.0

static void
set_color (cairo_t *cr,
           guint32  argb)
{
  cairo_set_source_rgb (cr, ((argb >> 16) & 0xff) / 255.0, ((argb >> 8) & 0xff) / 255.0,
                        (argb & 0xff) / 255.0);
}

static double
text_width (cairo_t    *cr,
            const char *text)
{
  cairo_text_extents_t ext;

  cairo_text_extents (cr, text, &ext);
  return ext.x_advance;
}

/* 1234567 → "1,234,567": the legend must read the same in every locale's PNG. */
static char *
group_digits (guint64 value)
{
  g_autofree char *digits = g_strdup_printf ("%" G_GUINT64_FORMAT, value);
  GString *s = g_string_new (NULL);
  gsize len = strlen (digits);

  for (gsize i = 0; i < len; i++)
    {
      if (i > 0 && (len - i) % 3 == 0)
        g_string_append_c (s, ',');
      g_string_append_c (s, digits[i]);
    }
  return g_string_free (s, FALSE);
}

static guint
page_size (PgsRenderer *self)
{
  guint size = pgs_snapshot_get_page_size (self->snapshot);

  return size != 0 ? size : 4096;
}

static GPtrArray *
legend_lines (PgsRenderer *self,
              int          width,
              int          height)
{
  GPtrArray *lines = g_ptr_array_new_with_free_func (g_free);
  const char *unit = self->view == PGS_VIEW_RESIDENCY ? _("pages") : _("frames");
  guint64 total = 0, per;
  g_autofree char *total_s = NULL;
  g_autofree char *total_size = NULL;

  for (guint i = 0; i < self->n_classes; i++)
    {
      guint64 n;

      pgs_renderer_get_legend_item (self, i, NULL, NULL, &n);
      total += n;
    }
  total_s = group_digits (total);
  total_size = pgs_format_size (total * page_size (self));

  switch (self->view)
    {
    case PGS_VIEW_SHARING:
      g_ptr_array_add (lines, g_strdup (_("Sharing: map count of every page frame")));
      break;
    case PGS_VIEW_FLAGS:
      g_ptr_array_add (lines, g_strdup (_("Page flags: what each page frame is used for")));
      break;
    case PGS_VIEW_RESIDENCY:
    default:
      if (self->process != NULL)
        g_ptr_array_add (lines, g_strdup_printf (_("Residency of %s (PID %d)"),
                                                 pgs_process_get_name (self->process) ?: "?",
                                                 pgs_process_get_pid (self->process)));
      else
        g_ptr_array_add (lines, g_strdup (_("Residency: no process")));
      break;
    }
  g_ptr_array_add (lines, g_strdup_printf (_("%s %s (%s), %s"), total_s, unit, total_size,
                                           self->layout == PGS_LAYOUT_HILBERT
                                           ? _("Hilbert layout") : _("in rows")));
  if (self->view != PGS_VIEW_RESIDENCY && self->highlighted)
    g_ptr_array_add (lines, g_strdup_printf (_("Frames of %s (PID %d) in full colour, the rest faded"),
                                             pgs_process_get_name (self->process) ?: "?",
                                             pgs_process_get_pid (self->process)));
  per = pgs_renderer_get_pages_per_pixel (self, width, height);
  if (per > 1)
    {
      g_autofree char *per_size = pgs_format_size (per * page_size (self));
      g_autofree char *per_count = g_strdup_printf ("%" G_GUINT64_FORMAT, per);

      /* Translators: the scale, e.g. "1 pixel = 16 frames (64.0 KiB)"; the number is
       * formatted first so that no 64-bit format macro sits inside the message. */
      g_ptr_array_add (lines, g_strdup_printf (_("1 pixel = %s %s (%s)"),
                                               per_count, unit, per_size));
    }
  else
    g_ptr_array_add (lines, g_strdup_printf (_("1 pixel or more per page (page = %u bytes)"),
                                             page_size (self)));
  return lines;
}

/* Splits @text into lines no wider than @max_width. */
static GPtrArray *
wrap (cairo_t    *cr,
      const char *text,
      double      max_width)
{
  GPtrArray *out = g_ptr_array_new_with_free_func (g_free);
  g_auto(GStrv) words = g_strsplit (text, " ", -1);
  GString *line = g_string_new (NULL);

  for (guint i = 0; words[i] != NULL; i++)
    {
      gsize old = line->len;

      if (line->len > 0)
        g_string_append_c (line, ' ');
      g_string_append (line, words[i]);
      if (old > 0 && text_width (cr, line->str) > max_width)
        {
          g_string_truncate (line, old);
          g_ptr_array_add (out, g_strdup (line->str));
          g_string_assign (line, words[i]);
        }
    }
  if (line->len > 0)
    g_ptr_array_add (out, g_strdup (line->str));
  g_string_free (line, TRUE);
  return out;
}

cairo_surface_t *
pgs_renderer_render_surface (PgsRenderer *self,
                             int          width,
                             int          height,
                             gboolean     legend)
{
  cairo_surface_t *surface;
  g_autoptr(cairo_surface_t) measure_surface = NULL;
  g_autoptr(cairo_t) mcr = NULL;
  g_autoptr(cairo_t) cr = NULL;
  g_autoptr(GPtrArray) header = NULL;
  g_autoptr(GPtrArray) rule = NULL;
  g_autoptr(GPtrArray) items = NULL;
  g_autoptr(GPtrArray) counters = NULL;
  double label_w = 0, legend_w = 0, legend_h, map_x, map_y, total_w, total_h;
  guint n_bands = 0;

  g_return_val_if_fail (PGS_IS_RENDERER (self), NULL);
  g_return_val_if_fail (width > 0 && height > 0, NULL);

  if (!legend)
    {
      surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height);
      cairo_surface_flush (surface);
      pgs_renderer_render (self, cairo_image_surface_get_data (surface), width, height,
                           cairo_image_surface_get_stride (surface));
      cairo_surface_mark_dirty (surface);
      return surface;
    }

  prepare (self);

  /* Measure every string first, then size the surface so that none is clipped. */
  measure_surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1, 1);
  mcr = cairo_create (measure_surface);
  cairo_select_font_face (mcr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_font_size (mcr, FONT_SIZE);

  header = legend_lines (self, width, height);
  items = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < self->n_classes; i++)
    {
      const char *label;
      guint64 n;
      g_autofree char *count = NULL;
      g_autofree char *size = NULL;

      if (self->view == PGS_VIEW_RESIDENCY && i == PGS_RES_NONE)
        {
          g_ptr_array_add (items, NULL);
          continue;
        }
      pgs_renderer_get_legend_item (self, i, NULL, &label, &n);
      count = group_digits (n);
      size = pgs_format_size (n * page_size (self));
      g_ptr_array_add (items, g_strdup_printf ("%s: %s (%s)", label, count, size));
    }
  for (guint i = 0; i < header->len; i++)
    legend_w = MAX (legend_w, text_width (mcr, g_ptr_array_index (header, i)));
  for (guint i = 0; i < items->len; i++)
    if (g_ptr_array_index (items, i) != NULL)
      legend_w = MAX (legend_w, SWATCH + 8 + text_width (mcr, g_ptr_array_index (items, i)));
  legend_w = MAX (legend_w, 280);
  rule = wrap (mcr, pgs_renderer_get_aggregation_rule (self), legend_w);
  counters = pgs_render_legend_counters (self, mcr, &legend_w);
  legend_h = PAD + LINE * (header->len + 0.5 + items->len + 0.5 + rule->len) + PAD
             + (counters->len > 0 ? LINE * (counters->len + 0.5) : 0);

  if (self->view == PGS_VIEW_RESIDENCY && self->layout == PGS_LAYOUT_LINEAR)
    {
      n_bands = pgs_renderer_get_n_bands (self);
      for (guint b = 0; b < n_bands; b++)
        {
          const char *label;

          if (pgs_renderer_get_band (self, width, height, b, NULL, NULL, &label))
            label_w = MAX (label_w, text_width (mcr, label));
        }
      label_w = MIN (label_w, 260) + PAD;
    }

  map_x = PAD + label_w;
  map_y = PAD;
  total_w = ceil (map_x + width + PAD + legend_w + PAD);
  total_h = ceil (MAX (height + 2 * PAD, legend_h));

  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, (int) total_w, (int) total_h);
  cr = cairo_create (surface);
  set_color (cr, 0xffffffffu);
  cairo_paint (cr);

  /* The map, rendered straight into the surface's memory. */
  cairo_surface_flush (surface);
  pgs_renderer_render (self,
                       cairo_image_surface_get_data (surface)
                       + (gsize) map_y * cairo_image_surface_get_stride (surface)
                       + (gsize) map_x * 4,
                       width, height, cairo_image_surface_get_stride (surface));
  cairo_surface_mark_dirty (surface);

  cairo_select_font_face (cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_font_size (cr, FONT_SIZE);

  /* Band labels: those with room, never overlapping, elided at the front when long. */
  if (n_bands > 0)
    {
      double next_free = -1e9;

      for (guint b = 0; b < n_bands; b++)
        {
          double by, bh;
          const char *label;
          g_autofree char *shown = NULL;
          double ty;

          if (!pgs_renderer_get_band (self, width, height, b, &by, &bh, &label))
            continue;
          /* A tick at the start of each band, so bands are told apart even unlabelled. */
          set_color (cr, 0xff9a9a9au);
          cairo_rectangle (cr, map_x - 5, map_y + by, 4, MAX (1, floor (bh) - 1));
          cairo_fill (cr);
          ty = map_y + by + MIN (bh, LINE) / 2 + FONT_SIZE / 2 - 2;
          if (ty - FONT_SIZE < next_free)
            continue;
          shown = g_strdup (label);
          while (text_width (cr, shown) > label_w - PAD && g_utf8_strlen (shown, -1) > 2)
            {
              g_autofree char *rest = g_strdup (g_utf8_next_char (g_utf8_next_char (shown)));

              g_free (shown);
              shown = g_strconcat ("…", rest, NULL);
            }
          set_color (cr, 0xff202020u);
          cairo_move_to (cr, map_x - 8 - text_width (cr, shown), ty);
          cairo_show_text (cr, shown);
          next_free = ty + 3;
        }
    }

  {
    double lx = map_x + width + PAD, ly = PAD + FONT_SIZE;

    set_color (cr, 0xff202020u);
    for (guint i = 0; i < header->len; i++, ly += LINE)
      {
        cairo_move_to (cr, lx, ly);
        cairo_show_text (cr, g_ptr_array_index (header, i));
      }
    ly += LINE / 2;
    for (guint i = 0; i < items->len; i++)
      {
        guint32 argb;

        if (g_ptr_array_index (items, i) == NULL)
          continue;
        pgs_renderer_get_legend_item (self, i, &argb, NULL, NULL);
        set_color (cr, argb);
        cairo_rectangle (cr, lx + 0.5, ly - SWATCH + 1.5, SWATCH - 1, SWATCH - 1);
        cairo_fill_preserve (cr);
        /* An outline keeps light swatches visible on white. */
        set_color (cr, 0xff707070u);
        cairo_set_line_width (cr, 1);
        cairo_stroke (cr);
        set_color (cr, 0xff202020u);
        cairo_move_to (cr, lx + SWATCH + 8, ly);
        cairo_show_text (cr, g_ptr_array_index (items, i));
        ly += LINE;
      }
    ly += counters->len > 0 ? LINE / 2 : 0;
    for (guint i = 0; i < counters->len; i++, ly += LINE)
      {
        cairo_move_to (cr, lx, ly);
        cairo_show_text (cr, g_ptr_array_index (counters, i));
      }
    ly += LINE / 2;
    set_color (cr, 0xff505050u);
    for (guint i = 0; i < rule->len; i++, ly += LINE)
      {
        cairo_move_to (cr, lx, ly);
        cairo_show_text (cr, g_ptr_array_index (rule, i));
      }
  }

  cairo_surface_flush (surface);
  return surface;
}

gboolean
pgs_renderer_write_png (PgsRenderer  *self,
                        const char   *path,
                        int           width,
                        int           height,
                        gboolean      legend,
                        GError      **error)
{
  g_autoptr(cairo_surface_t) surface = NULL;
  cairo_status_t status;

  g_return_val_if_fail (PGS_IS_RENDERER (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (width <= 0 || height <= 0 || width > 32767 || height > 32767)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("Image size %d × %d is out of range"), width, height);
      return FALSE;
    }

  surface = pgs_renderer_render_surface (self, width, height, legend);
  status = cairo_surface_status (surface);
  if (status == CAIRO_STATUS_SUCCESS)
    status = cairo_surface_write_to_png (surface, path);
  if (status != CAIRO_STATUS_SUCCESS)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("Could not write %s: %s"), path,
                   cairo_status_to_string (status));
      return FALSE;
    }
  return TRUE;
}
