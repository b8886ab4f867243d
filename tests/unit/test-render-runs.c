/* test-render-runs.c: the physical views drawn from runs against the per-frame algorithm
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A randomised physical map (2^18 frames in runs of random length, random flags from a
 * palette that includes compound heads and tails, random map counts, fixed seed), with
 * zones and counters that make never-initialised and hole spans, is drawn by the renderer
 * and by a reference kept here: the renderer's algorithm as it was before the map became
 * runs, one class byte per frame (pgs_category_classify() over the frames, the spans set
 * over them, the highlight OR'ed in), the same geometry, max or mode over every frame of a
 * block. The pixel buffers must be the same byte for byte, for both physical views, both
 * layouts, several sizes, zooms and viewports, with and without a highlighted process.
 */

#include "config.h"

#include <math.h>
#include <string.h>
#include <unistd.h>

#include <pagescope.h>

#include "pgs-kpage.h"
#include "pgs-pagemap.h"
#include "pgs-process-private.h"
#include "pgs-snapshot-private.h"

#define KPF(f) PGS_KPF_BIT (PGS_KPF_##f)
#define N      (G_GUINT64_CONSTANT (1) << 18)
#define HALF   (N / 2)
#define TAIL_FRAMES 8192
#define HIGHLIGHT 0x80u
#define CLASS_MASK 0x7fu
#define MAX_MAGNIFY 64
/* The highlight drawn as an overlay: a pixel with the bit takes the light style's
 * highlight colour (black), any other its class's colour, so the bit shows exactly. */
#define OVERLAY 0xff000000u

static guint32 counts_[N];
static guint64 flags_[N];

/* ---- the map ---- */

static PgsPhysMap *
random_physmap (void)
{
  static const guint64 words[] = {
    0, KPF (BUDDY), KPF (LRU) | KPF (UPTODATE), KPF (LRU) | KPF (ACTIVE),
    KPF (ANON) | KPF (LRU) | KPF (SWAPBACKED), KPF (SLAB), KPF (NOPAGE), KPF (RESERVED),
    KPF (DIRTY) | KPF (LRU), KPF (SWAPBACKED) | KPF (LRU), KPF (PGTABLE), KPF (KSM) | KPF (ANON),
    KPF (COMPOUND_HEAD) | KPF (ANON) | KPF (THP) | KPF (LRU),
    KPF (COMPOUND_HEAD) | KPF (SLAB), KPF (COMPOUND_HEAD) | KPF (HUGE),
    KPF (COMPOUND_TAIL), KPF (COMPOUND_TAIL) | KPF (ANON) | KPF (THP),
    KPF (ZERO_PAGE) | KPF (RESERVED), KPF (UNEVICTABLE) | KPF (MLOCKED) | KPF (LRU),
  };
  static const guint32 count_of[] = { 0, 0, 1, 1, 1, 2, 3, 4, 5, 9, 17, 200, 70000 };
  g_autofree char *meminfo = NULL;
  g_autofree char *zoneinfo = NULL;
  GRand *rand = g_rand_new_with_seed (20261204);
  guint64 i = 0;

  while (i < N)
    {
      guint64 len = g_rand_int_range (rand, 0, 8) == 0 ? g_rand_int_range (rand, 1, 3000)
                                                        : g_rand_int_range (rand, 1, 24);
      guint64 w = words[g_rand_int_range (rand, 0, G_N_ELEMENTS (words))];
      guint32 c = count_of[g_rand_int_range (rand, 0, G_N_ELEMENTS (count_of))];

      for (guint64 j = i; j < MIN (i + len, N); j++)
        {
          counts_[j] = c;
          flags_[j] = w;
          /* A head is followed by tails (most of the time). */
          if ((w & KPF (COMPOUND_HEAD)) && j > i && g_rand_int_range (rand, 0, 4) != 0)
            flags_[j] = KPF (COMPOUND_TAIL) | (w & ~KPF (COMPOUND_HEAD));
          /* Some single odd frames inside runs. */
          if (g_rand_int_range (rand, 0, 50) == 0)
            counts_[j] = count_of[g_rand_int_range (rand, 0, G_N_ELEMENTS (count_of))];
        }
      i += len;
    }
  g_rand_free (rand);

  /* Two whole blocks of holes in the first zone, a flagless tail in the second. */
  memset (flags_ + 65536, 0, 2048 * sizeof *flags_);
  memset (counts_ + 65536, 0, 2048 * sizeof *counts_);
  memset (flags_ + N - TAIL_FRAMES, 0, TAIL_FRAMES * sizeof *flags_);
  memset (counts_ + N - TAIL_FRAMES, 0, TAIL_FRAMES * sizeof *counts_);

  zoneinfo = g_strdup_printf ("Node 0, zone    DMA32\n"
                              "  pages free     2000\n"
                              "        spanned  %" G_GUINT64_FORMAT "\n"
                              "        present  %" G_GUINT64_FORMAT "\n"
                              "        managed  %" G_GUINT64_FORMAT "\n"
                              "  start_pfn:           0\n"
                              "Node 0, zone   Normal\n"
                              "  pages free     500\n"
                              "        spanned  %" G_GUINT64_FORMAT "\n"
                              "        present  %" G_GUINT64_FORMAT "\n"
                              "        managed  %" G_GUINT64_FORMAT "\n"
                              "  start_pfn:           %" G_GUINT64_FORMAT "\n",
                              HALF, HALF - 4096, HALF - 4096,
                              HALF, HALF, HALF - 2 * TAIL_FRAMES, HALF);
  /* MemTotal counts half the tail: those frames are never initialised, the rest reserved. */
  meminfo = g_strdup_printf ("MemTotal: %" G_GUINT64_FORMAT " kB\nMemFree: 1000 kB\n",
                             (2 * HALF - 4096 - 2 * TAIL_FRAMES + TAIL_FRAMES / 2) * (sysconf (_SC_PAGESIZE) / 1024));
  return pgs_physmap_new_full (g_memdup2 (counts_, sizeof counts_), g_memdup2 (flags_, sizeof flags_),
                               N, meminfo, zoneinfo);
}

/* ---- the reference: one class byte a frame ---- */

static guint8 *
reference_classes (PgsPhysMap *physmap,
                   PgsView     view,
                   PgsProcess *process,
                   gboolean   *highlighted)
{
  static const guint8 share_of[PGS_N_CATEGORIES] = {
    [PGS_CATEGORY_HOLE] = PGS_SHARE_HOLE,
    [PGS_CATEGORY_FREE_UNINIT] = PGS_SHARE_FREE,
  };
  guint8 *out = g_malloc (N);
  const PgsFrameSpan *spans;
  guint n_spans;

  if (view == PGS_VIEW_FLAGS)
    pgs_category_classify (flags_, N, out, NULL);
  else
    for (guint64 i = 0; i < N; i++)
      {
        guint32 c = counts_[i];
        guint64 f = flags_[i];

        if (c > 1)
          out[i] = MIN (PGS_SHARE_1 + (32 - __builtin_clz (c - 1)), PGS_SHARE_129_PLUS);
        else if (c == 1)
          out[i] = PGS_SHARE_1;
        else
          out[i] = (f & KPF (NOPAGE)) ? PGS_SHARE_HOLE : (f & KPF (BUDDY)) ? PGS_SHARE_FREE : PGS_SHARE_0;
      }

  spans = pgs_physmap_get_spans (physmap, &n_spans);
  for (guint s = 0; s < n_spans; s++)
    for (guint64 i = spans[s].start; i < spans[s].start + spans[s].n_frames; i++)
      out[i] = view == PGS_VIEW_FLAGS ? spans[s].category : share_of[spans[s].category];

  *highlighted = FALSE;
  if (process != NULL)
    for (gsize k = 0; k < process->n_pages; k++)
      {
        guint64 pfn = pgs_pm_pfn (process->entries[k]);

        if (pfn != 0 && pfn < N)
          {
            out[pfn] |= HIGHLIGHT;
            *highlighted = TRUE;
          }
      }
  return out;
}

typedef struct
{
  double   s0, scale, x0, y0;
  guint64  mw, mh, tile, tiles_x, n_tiles, a;
  double   s0y, scale_y;   /* down the map: rows a pixel may differ from columns */
  guint64  ay;
  gboolean valid;
} Geo;

static gboolean
try_fit (PgsLayout layout,
         int       width,
         int       height,
         Geo      *g,
         double    s0,
         double    s0y)
{
  guint64 wc = (guint64) floor (width * s0 + 1e-9), hc = (guint64) floor (height * s0y + 1e-9);
  guint64 a0 = s0 >= 1 ? (guint64) s0 : 1;

  if (wc == 0 || hc == 0)
    return FALSE;
  if (layout == PGS_LAYOUT_HILBERT)
    {
      for (guint64 t = G_GUINT64_CONSTANT (1) << 31; t >= a0; t /= 2)
        {
          guint64 tx, ty, need;

          if (t > wc || t > hc)
            continue;
          tx = wc / t;
          ty = hc / t;
          need = (N + t * t - 1) / (t * t);
          if (tx * ty < need)
            continue;
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
  g->mh = (N + wc - 1) / wc;
  return g->mh <= hc;
}

static void
geometry (PgsLayout layout,
          int       width,
          int       height,
          double    zoom,
          double    cx,
          double    cy,
          Geo      *g)
{
  double s, sy, map_w, map_h;

  memset (g, 0, sizeof *g);
  /* Any whole magnification; then, on rows, the fewest frames a pixel as sx across by sy
   * down with sx / 2 <= sy <= sx; then square. */
  for (int k = MAX_MAGNIFY; k >= 1 && !g->valid; k--)
    if (try_fit (layout, width, height, g, 1.0 / k, 1.0 / k))
      g->s0 = g->s0y = 1.0 / k, g->valid = TRUE;
  if (!g->valid && layout == PGS_LAYOUT_LINEAR)
    {
      guint64 best = G_MAXUINT64;

      for (guint64 sx = 2; sx <= 64; sx++)
        for (guint64 sy2 = (sx + 1) / 2; sy2 <= sx; sy2++)
          if (sx * sy2 < best && try_fit (layout, width, height, g, sx, sy2))
            best = sx * sy2, g->s0 = sx, g->s0y = sy2;
      if (best != G_MAXUINT64)
        g->valid = try_fit (layout, width, height, g, g->s0, g->s0y);
    }
  for (guint64 s0 = 2; !g->valid && s0 < (G_GUINT64_CONSTANT (1) << 40);
       s0 = layout == PGS_LAYOUT_HILBERT || s0 >= 64 ? s0 * 2 : s0 + 1)
    if (try_fit (layout, width, height, g, s0, s0))
      g->s0 = g->s0y = s0, g->valid = TRUE;
  g_assert_true (g->valid);

  zoom = CLAMP (zoom, 1.0, g->s0 * MAX_MAGNIFY);
  s = g->s0 / zoom;
  sy = MAX (g->s0y / zoom, MIN (1.0, s));   /* square once magnified */
  g->scale = s;
  g->scale_y = sy;
  g->a = 1;
  if (layout == PGS_LAYOUT_HILBERT)
    while ((double) g->a < s)
      g->a *= 2;
  else
    g->a = (guint64) MAX (1.0, ceil (s - 1e-9));
  g->ay = g->s0y == g->s0 ? g->a : (guint64) MAX (1.0, ceil (sy - 1e-9));
  map_w = g->mw / s;
  map_h = g->mh / sy;
  if (map_w <= width)
    g->x0 = -floor ((width - map_w) / 2) * s;
  else
    g->x0 = CLAMP (cx * g->mw, width * s / 2, g->mw - width * s / 2) - width * s / 2;
  if (map_h <= height)
    g->y0 = -floor ((height - map_h) / 2) * sy;
  else
    g->y0 = CLAMP (cy * g->mh, height * sy / 2, g->mh - height * sy / 2) - height * sy / 2;
}

static gint64
to_block (double origin, double scale, guint64 a, guint64 extent, double pixel)
{
  double cell = origin + pixel * scale;

  if (cell < 0 || cell >= (double) extent)
    return -1;
  return (gint64) ((guint64) cell / a);
}

static guint64
xy2d (guint64 side, guint64 x, guint64 y)
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

/* The frames of block (bx, by), as ranges; returns how many. */
static guint
block_ranges (PgsLayout  layout,
              const Geo *g,
              guint64    bx,
              guint64    by,
              guint64   *starts,
              guint64   *ends)
{
  guint64 a = g->a;
  guint n = 0;

  if (layout == PGS_LAYOUT_HILBERT)
    {
      guint64 t = g->tile, sub = t / a;
      guint64 tile = (by * a / t) * g->tiles_x + (bx * a / t), start;

      if ((bx * a) / t >= g->tiles_x || tile >= g->n_tiles)
        return 0;
      start = tile * t * t + xy2d (sub, (bx * a % t) / a, (by * a % t) / a) * a * a;
      if (start >= N)
        return 0;
      starts[0] = start;
      ends[0] = MIN (start + a * a, N);
      return 1;
    }
  for (guint64 y = by * g->ay; y < MIN ((by + 1) * g->ay, g->mh); y++)
    {
      guint64 s = y * g->mw + bx * a, e = y * g->mw + MIN ((bx + 1) * a, g->mw);

      if (s >= N)
        break;
      starts[n] = s;
      ends[n] = MIN (e, N);
      n++;
    }
  return n;
}

static guint8
block_class (const guint8 *classes,
             PgsView       view,
             PgsLayout     layout,
             const Geo    *g,
             guint64       bx,
             guint64       by)
{
  guint64 starts[4096], ends[4096];
  guint64 hist[128] = { 0 }, best_n = 0;
  guint8 best = 0, any = 0;
  guint n;

  g_assert_cmpuint (MAX (g->a, g->ay), <=, G_N_ELEMENTS (starts));
  n = block_ranges (layout, g, bx, by, starts, ends);

  if (n == 0)
    return 0xff;
  for (guint r = 0; r < n; r++)
    for (guint64 i = starts[r]; i < ends[r]; i++)
      {
        hist[classes[i] & CLASS_MASK]++;
        best = MAX (best, classes[i] & CLASS_MASK);
        any |= classes[i];
      }
  if (view == PGS_VIEW_FLAGS)
    {
      /* Most common, ties to the lowest. */
      best = 0;
      for (guint c = 0; c < PGS_N_CATEGORIES; c++)
        if (hist[c] > best_n)
          best_n = hist[c], best = c;
    }
  return best | (any & HIGHLIGHT);
}

static void
reference_render (const guint8 *classes,
                  gboolean      highlighted,
                  PgsView       view,
                  PgsLayout     layout,
                  int           width,
                  int           height,
                  double        zoom,
                  double        cx,
                  double        cy,
                  guint32      *pixels)
{
  guint32 lut[256];
  guint n_classes = view == PGS_VIEW_FLAGS ? PGS_N_CATEGORIES : PGS_N_SHARE_CLASSES;
  Geo g;

  for (guint c = 0; c < 128; c++)
    {
      guint32 color = c >= n_classes ? PGS_COLOR_BACKGROUND
                      : view == PGS_VIEW_FLAGS ? pgs_palette_category (c) : pgs_palette_share (c);

      lut[c | HIGHLIGHT] = highlighted ? OVERLAY : color;
      lut[c] = color;
    }
  geometry (layout, width, height, zoom, cx, cy, &g);
  for (int y = 0; y < height; y++)
    for (int x = 0; x < width; x++)
      {
        gint64 bx = to_block (g.x0, g.scale, g.a, g.mw, x + 0.5);
        gint64 by = to_block (g.y0, g.scale_y, g.ay, g.mh, y + 0.5);
        guint8 c = bx < 0 || by < 0 ? 0xff : block_class (classes, view, layout, &g, bx, by);

        pixels[(gsize) y * width + x] = c == 0xff ? PGS_COLOR_BACKGROUND : lut[c];
      }
}

/* ---- the comparison ---- */

static PgsProcess *
random_process (void)
{
  PgsProcess *p = _pgs_process_new (4242);
  GRand *rand = g_rand_new_with_seed (7);

  p->n_pages = 3000;
  p->entries = g_new (guint64, p->n_pages);
  for (gsize k = 0; k < p->n_pages; k++)
    {
      /* Clusters and strays, some repeated. */
      guint64 pfn = k < 2000 ? 70000 + k * 3 : (guint64) g_rand_int_range (rand, 0, N + 100);

      p->entries[k] = PGS_PM_PRESENT | pfn;
    }
  g_rand_free (rand);
  return p;
}

static void
test_runs_match_frames (void)
{
  static const struct { int w, h; } sizes[] = { { 512, 512 }, { 300, 200 }, { 97, 61 }, { 1000, 30 } };
  static const double zooms[] = { 1.0, 2.0, 8.5, 100.0 };
  static const double centres[][2] = { { 0.5, 0.5 }, { 0.13, 0.91 } };
  g_autoptr(PgsPhysMap) physmap = random_physmap ();
  g_autoptr(GPtrArray) processes = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GArray) skipped = g_array_new (FALSE, TRUE, sizeof (PgsSkipped));
  g_autoptr(PgsSnapshot) snapshot = NULL;
  g_autoptr(PgsProcess) process = random_process ();
  guint n_spans, compared = 0;

  /* The map is what it should be: runs, and spans of both kinds. */
  g_assert_cmpuint (pgs_physmap_get_n_frames (physmap), ==, N);
  g_assert_cmpuint (pgs_physmap_get_n_runs (physmap), >, 10000);
  g_assert_cmpuint (pgs_physmap_get_n_runs (physmap), <, N / 2);
  pgs_physmap_get_spans (physmap, &n_spans);
  g_assert_cmpuint (n_spans, >=, 2);
  for (guint64 i = 0; i < N; i += 997)
    {
      guint32 c;
      guint64 f;

      g_assert_true (pgs_physmap_get_frame (physmap, i, &c, &f));
      g_assert_cmpuint (c, ==, counts_[i]);
      g_assert_cmphex (f, ==, flags_[i]);
    }

  snapshot = _pgs_snapshot_new (processes, skipped, TRUE, 4096, physmap);
  for (PgsView view = PGS_VIEW_SHARING; view <= PGS_VIEW_FLAGS; view++)
    for (int hl = 0; hl < 2; hl++)
      {
        gboolean highlighted;
        g_autofree guint8 *classes = reference_classes (physmap, view, hl ? process : NULL,
                                                        &highlighted);

        g_assert_true (view == PGS_VIEW_SHARING || view == PGS_VIEW_FLAGS);
        for (PgsLayout layout = PGS_LAYOUT_LINEAR; layout <= PGS_LAYOUT_HILBERT; layout++)
          for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
            for (guint z = 0; z < G_N_ELEMENTS (zooms); z++)
              for (guint c = 0; c < G_N_ELEMENTS (centres); c++)
                {
                  g_autoptr(PgsRenderer) renderer = pgs_renderer_new (snapshot, view);
                  int w = sizes[s].w, h = sizes[s].h;
                  g_autofree guint32 *got = g_new0 (guint32, (gsize) w * h);
                  g_autofree guint32 *want = g_new0 (guint32, (gsize) w * h);

                  pgs_renderer_set_layout (renderer, layout);
                  pgs_renderer_set_process (renderer, hl ? process : NULL);
                  pgs_renderer_set_highlight_mode (renderer, PGS_HIGHLIGHT_OVERLAY);
                  pgs_renderer_set_viewport (renderer, zooms[z], centres[c][0], centres[c][1]);
                  pgs_renderer_render (renderer, (guint8 *) got, w, h, w * 4);
                  reference_render (classes, highlighted, view, layout, w, h, zooms[z],
                                    centres[c][0], centres[c][1], want);
                  for (gsize i = 0; i < (gsize) w * h; i++)
                    if (got[i] != want[i])
                      g_error ("view %d layout %d %dx%d zoom %g centre %g,%g highlight %d: "
                               "pixel (%zu, %zu) is %08x, per frame %08x", view, layout, w, h,
                               zooms[z], centres[c][0], centres[c][1], hl, i % w, i / w,
                               got[i], want[i]);
                  compared++;
                }
      }
  g_assert_cmpuint (compared, ==, 2 * 2 * 2 * G_N_ELEMENTS (sizes) * G_N_ELEMENTS (zooms) *
                                  G_N_ELEMENTS (centres));
}

/* The runs the map keeps, and the constructors from arrays and from runs, agree. */
static void
test_runs_roundtrip (void)
{
  g_autoptr(PgsPhysMap) a = random_physmap ();
  g_autoptr(PgsPhysMap) b = NULL;
  guint64 n = pgs_physmap_get_n_runs (a), next = 0;
  g_autofree guint64 *len = g_new (guint64, n + 1);
  g_autofree guint32 *cnt = g_new (guint32, n + 1);
  g_autofree guint64 *flg = g_new (guint64, n + 1);

  for (guint64 i = 0; i < n; i++)
    {
      guint64 start;

      pgs_physmap_get_run (a, i, &start, &len[i], &cnt[i], &flg[i]);
      g_assert_cmpuint (start, ==, next);
      g_assert_cmpuint (len[i], >, 0);
      /* Maximal: a run differs from the one before. */
      if (i > 0)
        g_assert_true (cnt[i] != cnt[i - 1] || flg[i] != flg[i - 1]);
      for (guint64 f = start; f < start + len[i]; f += 7)
        {
          g_assert_cmpuint (cnt[i], ==, counts_[f]);
          g_assert_cmphex (flg[i], ==, flags_[f]);
          g_assert_cmpuint (pgs_physmap_find_run (a, f), ==, i);
        }
      next = start + len[i];
    }
  g_assert_cmpuint (next, ==, N);
  g_assert_cmpuint (pgs_physmap_find_run (a, N), ==, n);

  /* Split every run in two and add an empty one: the same runs come back. */
  {
    g_autofree guint64 *len2 = g_new (guint64, 2 * n + 1);
    g_autofree guint32 *cnt2 = g_new (guint32, 2 * n + 1);
    g_autofree guint64 *flg2 = g_new (guint64, 2 * n + 1);
    guint64 m = 0;
    const guint32 *counts;
    const guint64 *flags;

    for (guint64 i = 0; i < n; i++)
      {
        guint64 first = len[i] / 2;

        len2[m] = first, cnt2[m] = cnt[i], flg2[m++] = flg[i];
        len2[m] = len[i] - first, cnt2[m] = cnt[i], flg2[m++] = flg[i];
      }
    len2[m] = 0, cnt2[m] = 99, flg2[m++] = 1;
    b = pgs_physmap_new_from_runs (len2, cnt2, flg2, m, NULL, NULL);
    g_assert_cmpuint (pgs_physmap_get_n_runs (b), ==, n);
    g_assert_cmpuint (pgs_physmap_get_n_frames (b), ==, N);
    counts = pgs_physmap_get_counts (b);
    flags = pgs_physmap_get_flags (b);
    g_assert_cmpmem (counts, N * sizeof *counts, counts_, sizeof counts_);
    g_assert_cmpmem (flags, N * sizeof *flags, flags_, sizeof flags_);
  }
}

/* Past 2^32 frames (16 TiB of 4 KiB pages) a run's first frame needs its high bits. */
static void
test_runs_huge (void)
{
  const guint64 G = G_GUINT64_CONSTANT (1) << 31;
  guint64 len[] = { G, G - 1, 3, G, 5, 3 * G, 7 };
  guint32 cnt[] = { 1, 2, 3, 4, 5, 6, 7 };
  guint64 flg[] = { 0, 0, 0, 0, 0, 0, 0 };
  g_autoptr(PgsPhysMap) pm = pgs_physmap_new_from_runs (len, cnt, flg, G_N_ELEMENTS (len), NULL, NULL);
  guint64 start = 0;

  g_assert_cmpuint (pgs_physmap_get_n_runs (pm), ==, G_N_ELEMENTS (len));
  for (guint i = 0; i < G_N_ELEMENTS (len); i++)
    {
      guint64 s, n;
      guint32 c;
      guint64 f;

      pgs_physmap_get_run (pm, i, &s, &n, &c, &f);
      g_assert_cmpuint (s, ==, start);
      g_assert_cmpuint (n, ==, len[i]);
      g_assert_cmpuint (c, ==, cnt[i]);
      g_assert_cmpuint (pgs_physmap_find_run (pm, start), ==, i);
      g_assert_cmpuint (pgs_physmap_find_run (pm, start + len[i] - 1), ==, i);
      g_assert_true (pgs_physmap_get_frame (pm, start + len[i] / 2, &c, NULL));
      g_assert_cmpuint (c, ==, cnt[i]);
      start += len[i];
    }
  g_assert_cmpuint (pgs_physmap_get_n_frames (pm), ==, start);
  g_assert_false (pgs_physmap_get_frame (pm, start, NULL, NULL));

  /* In batches, from every run on: the same lengths and counts, clamped at the end. */
  for (guint first = 0; first <= G_N_ELEMENTS (len); first++)
    for (guint n = 1; n <= G_N_ELEMENTS (len) + 1; n++)
      {
        guint64 got_len[G_N_ELEMENTS (len) + 1], got_flags[G_N_ELEMENTS (len) + 1];
        guint32 got_cnt[G_N_ELEMENTS (len) + 1];
        guint64 got = pgs_physmap_get_runs (pm, first, n, got_len, got_cnt, got_flags);

        g_assert_cmpuint (got, ==, MIN (n, G_N_ELEMENTS (len) - first));
        for (guint k = 0; k < got; k++)
          {
            g_assert_cmpuint (got_len[k], ==, len[first + k]);
            g_assert_cmpuint (got_cnt[k], ==, cnt[first + k]);
            g_assert_cmpuint (got_flags[k], ==, flg[first + k]);
          }
        /* And as pairs: the same lengths, each pair the run's count and flags. */
        {
          guint32 pairs[G_N_ELEMENTS (len) + 1];
          const guint32 *pair_cnt;
          const guint64 *pair_flg;
          guint32 n_pairs = pgs_physmap_get_pairs (pm, &pair_cnt, &pair_flg);

          g_assert_cmpuint (n_pairs, ==, G_N_ELEMENTS (len));
          g_assert_cmpuint (pgs_physmap_get_run_pairs (pm, first, n, got_len, pairs), ==, got);
          for (guint k = 0; k < got; k++)
            {
              g_assert_cmpuint (got_len[k], ==, len[first + k]);
              g_assert_cmpuint (pairs[k], <, n_pairs);
              g_assert_cmpuint (pair_cnt[pairs[k]], ==, cnt[first + k]);
              g_assert_cmpuint (pair_flg[pairs[k]], ==, flg[first + k]);
            }
        }
      }
}

/* Over 65536 distinct (count, flags) pairs: the wide pair index. */
static void
test_runs_many_pairs (void)
{
  const guint64 n = 70000;
  g_autofree guint64 *len = g_new (guint64, n);
  g_autofree guint32 *cnt = g_new (guint32, n);
  g_autofree guint64 *flg = g_new (guint64, n);
  g_autoptr(PgsPhysMap) pm = NULL;

  for (guint64 i = 0; i < n; i++)
    len[i] = 1 + i % 3, cnt[i] = (guint32) i, flg[i] = i % 5;
  pm = pgs_physmap_new_from_runs (len, cnt, flg, n, NULL, NULL);
  g_assert_cmpuint (pgs_physmap_get_n_runs (pm), ==, n);
  for (guint64 i = 0, start = 0; i < n; start += len[i], i++)
    {
      guint32 c;
      guint64 f;

      g_assert_true (pgs_physmap_get_frame (pm, start + len[i] - 1, &c, &f));
      g_assert_cmpuint (c, ==, i);
      g_assert_cmpuint (f, ==, i % 5);
    }
  /* The wide pair index through pgs_physmap_get_run_pairs(): every run its own pair. */
  {
    g_autofree guint64 *got_len = g_new (guint64, n);
    g_autofree guint32 *pairs = g_new (guint32, n);
    const guint32 *pair_cnt;
    const guint64 *pair_flg;

    g_assert_cmpuint (pgs_physmap_get_pairs (pm, &pair_cnt, &pair_flg), ==, n);
    g_assert_cmpuint (pgs_physmap_get_run_pairs (pm, 0, n + 1, got_len, pairs), ==, n);
    for (guint64 i = 0; i < n; i++)
      {
        g_assert_cmpuint (got_len[i], ==, 1 + i % 3);
        g_assert_cmpuint (pair_cnt[pairs[i]], ==, i);
        g_assert_cmpuint (pair_flg[pairs[i]], ==, i % 5);
      }
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/render-runs/match-frames", test_runs_match_frames);
  g_test_add_func ("/render-runs/roundtrip", test_runs_roundtrip);
  g_test_add_func ("/render-runs/huge", test_runs_huge);
  g_test_add_func ("/render-runs/many-pairs", test_runs_many_pairs);
  return g_test_run ();
}
