/* pgs-category.h: what the kernel uses a page frame for, from its kpageflags
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* One category per frame, decided by the precedence table in pgs-category.c (first match
 * wins, in this order). The order is also the legend order. */
typedef enum
{
  PGS_CATEGORY_HOLE,          /* NOPAGE: no struct page behind this frame number */
  PGS_CATEGORY_ZERO_PAGE,     /* ZERO_PAGE: the shared zero page (or huge zero folio) */
  PGS_CATEGORY_FREE,          /* BUDDY: in the page allocator's free lists */
  PGS_CATEGORY_FREE_UNINIT,   /* never initialised by the kernel, counted free: never from
                               * flags alone, see find_spans() in pgs-physmap-make.c */
  PGS_CATEGORY_RESERVED,      /* RESERVED, OFFLINE, HWPOISON, or no telling flag at all */
  PGS_CATEGORY_SLAB,          /* SLAB, and the tail pages of a slab */
  PGS_CATEGORY_PAGE_TABLE,    /* PGTABLE */
  PGS_CATEGORY_HUGETLB,       /* HUGE: hugetlbfs pages */
  PGS_CATEGORY_KSM,           /* KSM: merged anonymous pages */
  PGS_CATEGORY_UNEVICTABLE,   /* UNEVICTABLE or MLOCKED */
  PGS_CATEGORY_ANON_THP,      /* ANON and THP */
  PGS_CATEGORY_ANON,          /* ANON */
  PGS_CATEGORY_SHMEM,         /* SWAPBACKED without ANON: tmpfs, shmem, memfd */
  PGS_CATEGORY_DIRTY,         /* DIRTY or WRITEBACK file pages */
  PGS_CATEGORY_FILE_ACTIVE,   /* LRU and ACTIVE: page cache, active list */
  PGS_CATEGORY_FILE_INACTIVE, /* LRU: page cache, inactive list */
  PGS_N_CATEGORIES
} PgsCategory;

/* The category of one frame from its /proc/kpageflags word. Tail pages of a compound page
 * that carry no telling flag of their own come out as PGS_CATEGORY_RESERVED here; use
 * pgs_category_classify() on a run of frames to have them follow their head page. */
PgsCategory  pgs_category_from_flags   (guint64        kpageflags);

/* Classifies @n_frames consecutive frames into @out (one byte each, a PgsCategory) through
 * lookup tables, giving the tail pages of a compound page their head page's category.
 * Counts the frames of each category into @counts (PGS_N_CATEGORIES long) if not NULL,
 * adding to what is there. */
void         pgs_category_classify     (const guint64 *flags,
                                        guint64        n_frames,
                                        guint8        *out,
                                        guint64       *counts);

/* One step of pgs_category_classify() for a run of frames with the same flags: the run's
 * category, given the category of the last head page seen before it (@head, start with
 * PGS_CATEGORY_RESERVED), which it updates. Classifying runs in order this way gives
 * every frame what pgs_category_classify() gives it on one thread. */
PgsCategory  pgs_category_classify_run (guint64        kpageflags,
                                        guint8        *head);

/* Translated, for legends: "Page cache (active)". */
const char  *pgs_category_get_label    (PgsCategory    category);
/* Untranslated and stable, for JSON and the command line: "file-active". */
const char  *pgs_category_get_id       (PgsCategory    category);
/* Translated, for a tooltip: what a category that flags alone cannot explain means
 * ("Free, not yet initialised: …"); NULL for the others. */
const char  *pgs_category_get_description (PgsCategory category);
/* The flag bits that decide the category, for a tooltip: "LRU | ACTIVE". */
const char  *pgs_category_get_rule     (PgsCategory    category);

/* All flag names set in @kpageflags, space separated, kernel spelling ("REFERENCED
 * UPTODATE LRU MMAP"), for tooltips; "" for none. Free with g_free(). */
char        *pgs_kpageflags_to_string  (guint64        kpageflags);

G_END_DECLS
