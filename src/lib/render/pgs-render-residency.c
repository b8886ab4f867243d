/* pgs-render-residency.c: the residency view's bands and the class of each page
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One band per mapping of the process, each starting a row on the linear layout. The page class
 * (present, swapped, zero page, private, shared by how many) comes from the pagemap entry,
 * the map count and the frame flags; the class of a block is the highest of its pages.
 *
 * The residency view stores only present and swapped runs (PgsPages, pgs-process.h); holes
 * between them are worked out from the mapping extents by range arithmetic, so a 100 GiB
 * reservation with 4 MiB resident costs what its runs cost.
 */

#include "config.h"

#include "pgs-category.h"
#include "pgs-kpage.h"
#include "pgs-mapping.h"
#include "pgs-pagemap.h"
#include "pgs-palette.h"
#include "pgs-physmap.h"
#include "pgs-render-private.h"

static void
clear_band (gpointer data)
{
  Band *band = data;

  g_clear_pointer (&band->label, g_free);
}

/* ---- residency: bands and page classes ---- */

static char *
short_label (const char *path)
{
  if (path == NULL || path[0] == '\0')
    return g_strdup (pgs_mapping_label_for_path (NULL));
  if (path[0] == '[')
    return g_strdup (path);
  return g_path_get_basename (path);
}

void
pgs_render_ensure_bands (PgsRenderer *self)
{
  const PgsPages *p = &self->pages;
  guint run = 0;

  if (self->bands != NULL)
    return;

  self->bands = g_array_new (FALSE, TRUE, sizeof (Band));
  g_array_set_clear_func (self->bands, clear_band);
  self->n_pages = 0;
  if (self->process == NULL || p->runs == NULL)
    return;

  for (guint i = 0; i < pgs_process_get_n_mappings (self->process); i++)
    {
      guint64 start, end;
      gboolean file;
      const char *path;
      Band band = { 0 };

      pgs_process_get_mapping_extent (self->process, i, &start, &end, &file, &path);
      if (end <= start)
        continue;
      band.mapping = i;
      band.first_page = self->n_pages;
      band.n_pages = (end - start) / p->page_size;
      band.start = start;
      band.file = file;
      while (run < p->n_runs && p->runs[run].start < start)
        run++;
      band.first_run = run;
      band.label = short_label (path);
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
  if (pgs_pm_is_swapped (entry))
    return PGS_RES_SWAPPED;
  if (!pgs_pm_is_present (entry))
    return PGS_RES_NONE;
  if (run_flags & PGS_RUN_ZERO)
    return PGS_RES_ZERO;
  if (self->physmap != NULL)
    {
      guint64 pfn = pgs_pm_pfn (entry), flags = 0;

      if (pfn != 0 && pgs_physmap_get_frame (self->physmap, pfn, NULL, &flags) &&
          (flags & PGS_KPF_BIT (PGS_KPF_ZERO_PAGE)))
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
guint8
pgs_render_band_max (PgsRenderer *self,
                     const Band  *band,
                     guint64      p0,
                     guint64      p1,
                     int          first_of,
                     guint64     *first_index)
{
  const PgsPages *p = &self->pages;
  guint page_size = p->page_size;
  guint64 a0 = band->start + p0 * page_size, a1 = band->start + p1 * page_size;
  guint8 base = band->file ? PGS_RES_NOT_PRESENT_FILE : PGS_RES_NOT_PRESENT_ANON;
  guint8 best = base;
  guint64 stored = 0;
  guint lo = band->first_run, hi = p->n_runs;

  /* The first run that ends after a0, by bisection within the band's runs. */
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      const PgsPageRun *r = &p->runs[mid];

      if (r->start + (guint64) r->n_pages * page_size <= a0)
        lo = mid + 1;
      else
        hi = mid;
    }

  for (guint i = lo; i < p->n_runs; i++)
    {
      const PgsPageRun *r = &p->runs[i];
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
      /* Asked for a not-present class: the first page not in a run (or, in a file, in a run
       * with no entry). Walked run by run from the first one that ends after a0: a piece of
       * a vast mapping spans millions of pages, nearly all of them holes. */
      if (first_of == base)
        {
          guint64 q = p0;

          for (guint i = lo; i < p->n_runs && q < p1; i++)
            {
              const PgsPageRun *r = &p->runs[i];
              guint64 addr = band->start + q * page_size;
              guint64 end = r->start + (guint64) r->n_pages * page_size;

              if (r->start > addr)
                break;  /* q is in the hole before this run */
              for (; addr < end && q < p1; addr += page_size, q++)
                if (p->entries[r->first + (addr - r->start) / page_size] == 0)
                  break;
              if (addr < end && q < p1)
                break;  /* a page of the run without an entry */
            }
          if (q < p1)
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

void
pgs_render_ensure_page_counts (PgsRenderer *self)
{
  const PgsPages *p = &self->pages;

  if (self->page_counts != NULL)
    return;
  self->page_counts = g_new0 (guint64, PGS_N_RES_CLASSES);
  pgs_render_ensure_bands (self);
  if (self->process == NULL || p->runs == NULL)
    return;

  /* A band's runs follow its first one for as long as they are of its mapping. */
  for (guint b = 0; b < self->bands->len; b++)
    {
      const Band *band = &g_array_index (self->bands, Band, b);
      guint8 absent = band->file ? PGS_RES_NOT_PRESENT_FILE : PGS_RES_NOT_PRESENT_ANON;

      self->page_counts[absent] += band->n_pages;
      for (guint r = band->first_run; r < p->n_runs && p->runs[r].mapping == band->mapping; r++)
        {
          const PgsPageRun *run = &p->runs[r];

          for (guint32 j = 0; j < run->n_pages; j++)
            {
              gsize k = run->first + j;
              guint8 c = page_class (self, p->entries[k],
                                     p->counts != NULL ? p->counts[k] : PGS_COUNT_UNKNOWN,
                                     run->flags);

              self->page_counts[c]++;
              self->page_counts[absent]--;
            }
        }
    }
}

guint
pgs_render_band_for_page (PgsRenderer *self,
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

      if (pgs_render_block_ranges (g, bx, by, &range) == 0)
        return;
      d = range.start;
      b = pgs_render_band_for_page (self, d);
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

  m->best = MAX (m->best, pgs_render_band_max (self, band, p0, p1, -1, NULL));
  /* Nothing outranks the top class: stop early. */
  return m->best < PGS_RES_SHARED_129_PLUS;
}

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
  pgs_render_band_max (self, band, p0, p1, hit->legend_index, &index);
  if (index != G_MAXUINT64)
    {
      hit->valid = TRUE;
      hit->mapping = band->mapping;
      hit->first_page = index;
      hit->address = band->start + index * self->pages.page_size;
    }
  return TRUE;
}

void
pgs_render_residency_first (PgsRenderer    *self,
                            const Geometry *g,
                            guint64         bx,
                            guint64         by,
                            PgsHit         *hit)
{
  residency_pieces (self, g, bx, by, piece_first, hit);
}

/* Linear residency: the highest class of block (bx, by), from the runs that fall in it.
 * The rows of a band inside the block are never walked one by one: a block of a mapping of
 * terabytes spans thousands of rows of holes, and a row at a time made a render cost the
 * pixels times the rows of a block. Only rows a run reaches are visited, and each such row
 * gives at least one stored page to classify, so the cost is the stored pages in the block. */
static guint8
linear_block_max (PgsRenderer    *self,
                  const Geometry *g,
                  guint64         bx,
                  guint64         by)
{
  const PgsPages *p = &self->pages;
  guint page_size = p->page_size;
  guint64 a = g->a, mw = g->mw;
  guint64 x0 = bx * a, x1 = MIN ((bx + 1) * a, mw);
  guint64 y0 = by * a, y1 = MIN ((by + 1) * a, g->mh);
  guint n_bands = self->bands->len;
  guint8 best = PGS_RES_NONE;

  if (x0 >= x1 || y0 >= y1 || n_bands == 0)
    return best;

  for (guint b = band_for_row (g, n_bands, y0); b < n_bands && g->band_row[b] < y1; b++)
    {
      const Band *band = &g_array_index (self->bands, Band, b);
      /* The band's rows inside the block, counted from its own first row, and its pages on
       * them. */
      guint64 ya = MAX (y0, g->band_row[b]) - g->band_row[b];
      guint64 yb = MIN (y1, g->band_row[b + 1]) - g->band_row[b];
      guint64 q0 = ya * mw, q1 = MIN (yb * mw, band->n_pages);
      guint64 a0, a1;
      guint lo = band->first_run, hi = p->n_runs;

      if (ya >= yb || q0 + x0 >= band->n_pages)
        continue;  /* no cell of this band under the block */
      best = MAX (best, band->file ? PGS_RES_NOT_PRESENT_FILE : PGS_RES_NOT_PRESENT_ANON);

      a0 = band->start + q0 * page_size;
      a1 = band->start + q1 * page_size;
      while (lo < hi)
        {
          guint mid = lo + (hi - lo) / 2;
          const PgsPageRun *r = &p->runs[mid];

          if (r->start + (guint64) r->n_pages * page_size <= a0)
            lo = mid + 1;
          else
            hi = mid;
        }
      for (guint i = lo; i < p->n_runs; i++)
        {
          const PgsPageRun *r = &p->runs[i];
          guint64 r0, s, e;

          if (r->start >= a1)
            break;
          /* The run's pages in the band, clipped to the block's rows. */
          r0 = (r->start - band->start) / page_size;
          s = MAX (r0, q0);
          e = MIN (r0 + r->n_pages, q1);
          for (guint64 row = s / mw; s < e; row++)
            {
              guint64 row_end = MIN ((row + 1) * mw, e);
              guint64 c0 = MAX (s, row * mw + x0), c1 = MIN (row_end, row * mw + x1);

              for (guint64 q = c0; q < c1; q++)
                {
                  gsize k = r->first + (q - r0);
                  guint8 c = page_class (self, p->entries[k],
                                         p->counts != NULL ? p->counts[k] : PGS_COUNT_UNKNOWN, r->flags);

                  best = MAX (best, c);
                }
              if (best == PGS_RES_SHARED_129_PLUS)
                return best;  /* nothing outranks it */
              s = row_end;
            }
        }
    }
  return best;
}

guint8
pgs_render_block_class (PgsRenderer    *self,
                        const Geometry *g,
                        guint64         bx,
                        guint64         by,
                        Range          *ranges)
{
  guint n;

  if (self->view == PGS_VIEW_RESIDENCY && self->layout == PGS_LAYOUT_LINEAR)
    return linear_block_max (self, g, bx, by);
  if (self->view == PGS_VIEW_RESIDENCY)
    {
      MaxData m = { PGS_RES_NONE };

      residency_pieces (self, g, bx, by, piece_max, &m);
      return m.best;
    }

  n = pgs_render_block_ranges (g, bx, by, ranges);
  if (n == 0)
    return 0xff;  /* no frame: background */
  return self->view == PGS_VIEW_FLAGS ? pgs_class_runs_mode (self->classes, ranges, n)
                                      : pgs_class_runs_max (self->classes, ranges, n);
}
