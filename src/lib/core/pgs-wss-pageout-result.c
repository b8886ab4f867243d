/* pgs-wss-pageout-result.c: what a page-out measurement found in one process
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Immutable once handed out: per mapping the sums, per page coalesced runs of one state
 * (only the pages that were measured or are not measurable; nothing for holes).
 */

#include "config.h"

#include <string.h>

#include "pgs-wss-pageout-private.h"

struct _PgsPageoutResult
{
  gatomicrefcount ref_count;
  int             pid;
  char           *name;
  guint           page_size;
  gboolean        swap;
  gboolean        swapoff;
  gint64          interval;
  gint64          elapsed;
  gint64          pageout_time;
  guint64         paged_out;
  GArray         *mappings;   /* PgsPageoutMapping; path owned */
  GArray         *runs;       /* PoPageRun, address order */
};

PgsPageoutResult *
_pgs_pageout_result_new (int         pid,
                         const char *name,
                         guint       page_size,
                         gboolean    swap)
{
  PgsPageoutResult *self = g_new0 (PgsPageoutResult, 1);

  g_atomic_ref_count_init (&self->ref_count);
  self->pid = pid;
  self->name = g_strdup (name);
  self->page_size = page_size;
  self->swap = swap;
  self->mappings = g_array_new (FALSE, TRUE, sizeof (PgsPageoutMapping));
  self->runs = g_array_new (FALSE, FALSE, sizeof (PoPageRun));
  return self;
}

PgsPageoutResult *
pgs_pageout_result_ref (PgsPageoutResult *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
pgs_pageout_result_unref (PgsPageoutResult *self)
{
  g_return_if_fail (self != NULL);
  if (!g_atomic_ref_count_dec (&self->ref_count))
    return;
  for (guint i = 0; i < self->mappings->len; i++)
    g_free ((char *) g_array_index (self->mappings, PgsPageoutMapping, i).path);
  g_array_unref (self->mappings);
  g_array_unref (self->runs);
  g_free (self->name);
  g_free (self);
}

guint
_pgs_pageout_result_add_mapping (PgsPageoutResult *self,
                                 const PoVma      *vma)
{
  PgsPageoutMapping m = { 0 };

  m.start = vma->start;
  m.end = vma->end;
  m.inode = vma->inode;
  memcpy (m.perms, vma->perms, sizeof m.perms);
  m.anonymous = vma->anonymous;
  m.path = g_strdup (vma->path != NULL ? vma->path : "");
  m.bound = vma->bound;
  m.refused = vma->refused;
  g_array_append_val (self->mappings, m);
  return self->mappings->len - 1;
}

void
_pgs_pageout_result_add_pages (PgsPageoutResult *self,
                               guint             index,
                               guint64           start,
                               guint64           n_pages,
                               PgsPageoutPage    state)
{
  PgsPageoutMapping *m = &g_array_index (self->mappings, PgsPageoutMapping, index);
  guint64 bytes = n_pages * self->page_size;
  PoPageRun *last = self->runs->len > 0
                    ? &g_array_index (self->runs, PoPageRun, self->runs->len - 1) : NULL;

  switch (state)
    {
    case PGS_PAGEOUT_PAGE_TOUCHED:
      m->touched += bytes;
      break;
    case PGS_PAGEOUT_PAGE_STAYED_OUT:
      m->stayed_out += bytes;
      break;
    case PGS_PAGEOUT_PAGE_SHARED:
      m->shared += bytes;
      m->not_measured += bytes;
      break;
    case PGS_PAGEOUT_PAGE_NOT_PAGED:
      m->not_paged += bytes;
      m->not_measured += bytes;
      break;
    case PGS_PAGEOUT_PAGE_NO_SWAP:
      m->no_swap += bytes;
      m->not_measured += bytes;
      break;
    case PGS_PAGEOUT_PAGE_UNKNOWN:
    default:
      return;
    }

  if (last != NULL && last->state == state &&
      last->start + last->n_pages * self->page_size == start)
    last->n_pages += n_pages;
  else
    {
      PoPageRun run = { start, n_pages, state };

      g_assert (last == NULL || last->start + last->n_pages * self->page_size <= start);
      g_array_append_val (self->runs, run);
    }
}

void
_pgs_pageout_result_set_swapoff (PgsPageoutResult *self,
                                 gboolean          swapoff)
{
  self->swapoff = swapoff;
}

gboolean
pgs_pageout_result_get_swapoff (PgsPageoutResult *self)
{
  g_return_val_if_fail (self != NULL, FALSE);
  return self->swapoff;
}

void
_pgs_pageout_result_set_times (PgsPageoutResult *self,
                               gint64            interval,
                               gint64            elapsed,
                               gint64            pageout_time,
                               guint64           paged_out)
{
  self->interval = interval;
  self->elapsed = elapsed;
  self->pageout_time = pageout_time;
  self->paged_out = paged_out;
}

int
pgs_pageout_result_get_pid (PgsPageoutResult *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->pid;
}

const char *
pgs_pageout_result_get_name (PgsPageoutResult *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->name;
}

guint
pgs_pageout_result_get_page_size (PgsPageoutResult *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->page_size;
}

gint64
pgs_pageout_result_get_interval (PgsPageoutResult *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->interval;
}

gint64
pgs_pageout_result_get_elapsed (PgsPageoutResult *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->elapsed;
}

gint64
pgs_pageout_result_get_pageout_time (PgsPageoutResult *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->pageout_time;
}

guint64
pgs_pageout_result_get_paged_out (PgsPageoutResult *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->paged_out;
}

gboolean
pgs_pageout_result_get_swap (PgsPageoutResult *self)
{
  g_return_val_if_fail (self != NULL, FALSE);
  return self->swap;
}

#define SUM_FIELD(field)                                                        \
  guint64 sum = 0;                                                              \
  g_return_val_if_fail (self != NULL, 0);                                       \
  for (guint i = 0; i < self->mappings->len; i++)                               \
    sum += g_array_index (self->mappings, PgsPageoutMapping, i).field;          \
  return sum

guint64
pgs_pageout_result_get_touched (PgsPageoutResult *self)
{
  SUM_FIELD (touched);
}

guint64
pgs_pageout_result_get_stayed_out (PgsPageoutResult *self)
{
  SUM_FIELD (stayed_out);
}

guint64
pgs_pageout_result_get_not_measured (PgsPageoutResult *self)
{
  SUM_FIELD (not_measured);
}

guint64
pgs_pageout_result_get_shared (PgsPageoutResult *self)
{
  SUM_FIELD (shared);
}

guint64
pgs_pageout_result_get_upper_bound (PgsPageoutResult *self)
{
  guint64 sum = 0;

  g_return_val_if_fail (self != NULL, 0);
  for (guint i = 0; i < self->mappings->len; i++)
    {
      const PgsPageoutMapping *m = &g_array_index (self->mappings, PgsPageoutMapping, i);

      if (m->bound != PGS_PAGEOUT_EXACT)
        sum += m->touched;
    }
  return sum;
}

guint
pgs_pageout_result_get_n_mappings (PgsPageoutResult *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->mappings->len;
}

const PgsPageoutMapping *
pgs_pageout_result_get_mapping (PgsPageoutResult *self,
                                guint             index)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (index < self->mappings->len, NULL);
  return &g_array_index (self->mappings, PgsPageoutMapping, index);
}

PgsPageoutPage
pgs_pageout_result_lookup_page (PgsPageoutResult *self,
                                guint64           address)
{
  guint lo = 0, hi;

  g_return_val_if_fail (self != NULL, PGS_PAGEOUT_PAGE_UNKNOWN);

  hi = self->runs->len;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      const PoPageRun *run = &g_array_index (self->runs, PoPageRun, mid);

      if (address < run->start)
        hi = mid;
      else if (address >= run->start + run->n_pages * self->page_size)
        lo = mid + 1;
      else
        return run->state;
    }
  return PGS_PAGEOUT_PAGE_UNKNOWN;
}

void
pgs_pageout_result_foreach_run (PgsPageoutResult  *self,
                                PgsPageoutRunFunc  func,
                                gpointer           user_data)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (func != NULL);

  for (guint i = 0; i < self->runs->len; i++)
    {
      const PoPageRun *run = &g_array_index (self->runs, PoPageRun, i);

      func (run->start, run->n_pages, run->state, user_data);
    }
}

const char *
pgs_pageout_page_to_string (PgsPageoutPage state)
{
  switch (state)
    {
    case PGS_PAGEOUT_PAGE_TOUCHED:
      return "touched";
    case PGS_PAGEOUT_PAGE_STAYED_OUT:
      return "stayed_out";
    case PGS_PAGEOUT_PAGE_SHARED:
      return "shared";
    case PGS_PAGEOUT_PAGE_NOT_PAGED:
      return "not_paged";
    case PGS_PAGEOUT_PAGE_NO_SWAP:
      return "no_swap";
    case PGS_PAGEOUT_PAGE_UNKNOWN:
    default:
      return "unknown";
    }
}
