/* test-category.c: the kpageflags precedence table, case by case
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Several flag words below were read from /proc/kpageflags on Linux 6.18 (noted "6.18"), so
 * the table is checked against what the kernel really reports, quirks included.
 */

#include "config.h"

#include <pagescope.h>

#include "pgs-kpage.h"

#define KPF(f) PGS_KPF_BIT (PGS_KPF_##f)

static const struct
{
  guint64     flags;
  PgsCategory expected;
  const char *why;
} cases[] = {
  { KPF (NOPAGE), PGS_CATEGORY_HOLE, "no struct page" },
  { KPF (NOPAGE) | KPF (BUDDY), PGS_CATEGORY_HOLE, "NOPAGE before everything" },
  { KPF (ZERO_PAGE) | KPF (RESERVED), PGS_CATEGORY_ZERO_PAGE, "the zero page is PG_reserved" },
  { KPF (ZERO_PAGE) | KPF (THP), PGS_CATEGORY_ZERO_PAGE, "huge zero folio" },
  { 0x400, PGS_CATEGORY_FREE, "6.18: BUDDY" },
  { 0x408, PGS_CATEGORY_FREE, "6.18: UPTODATE BUDDY (stale bit on a free page)" },
  { KPF (BUDDY) | KPF (SLAB), PGS_CATEGORY_FREE, "BUDDY before SLAB" },
  { G_GUINT64_CONSTANT (0x100000000), PGS_CATEGORY_RESERVED, "6.18: RESERVED" },
  { KPF (OFFLINE), PGS_CATEGORY_RESERVED, "OFFLINE (balloon)" },
  { KPF (HWPOISON) | KPF (LRU), PGS_CATEGORY_RESERVED, "HWPOISON before LRU" },
  { 0, PGS_CATEGORY_RESERVED, "6.18: no flags at all" },
  { KPF (COMPOUND_HEAD), PGS_CATEGORY_RESERVED, "a bare compound head" },
  { KPF (COMPOUND_TAIL), PGS_CATEGORY_RESERVED, "a bare tail, alone: nothing to follow" },
  { 0x80, PGS_CATEGORY_SLAB, "6.18: SLAB" },
  { 0x10080, PGS_CATEGORY_SLAB, "6.18: SLAB TAIL" },
  { 0x1080, PGS_CATEGORY_SLAB, "6.18: SLAB ANON (struct slab overlays mapping)" },
  { 0x201080, PGS_CATEGORY_SLAB, "6.18: SLAB ANON KSM" },
  { 0x4000000, PGS_CATEGORY_PAGE_TABLE, "6.18: PGTABLE" },
  { 0x4000004, PGS_CATEGORY_PAGE_TABLE, "6.18: REFERENCED PGTABLE" },
  { KPF (HUGE) | KPF (COMPOUND_HEAD) | KPF (MMAP), PGS_CATEGORY_HUGETLB, "hugetlbfs head" },
  { KPF (HUGE) | KPF (COMPOUND_TAIL), PGS_CATEGORY_HUGETLB, "hugetlbfs tail" },
  { KPF (ANON) | KPF (KSM) | KPF (LRU) | KPF (MMAP), PGS_CATEGORY_KSM, "merged page" },
  { KPF (KSM), PGS_CATEGORY_RESERVED, "KSM without ANON means nothing" },
  { G_GUINT64_CONSTANT (0x20204483c), PGS_CATEGORY_UNEVICTABLE, "6.18: mlocked shmem" },
  { G_GUINT64_CONSTANT (0x602045828), PGS_CATEGORY_UNEVICTABLE, "6.18: mlocked anon" },
  { KPF (MLOCKED) | KPF (LRU), PGS_CATEGORY_UNEVICTABLE, "MLOCKED alone counts" },
  { KPF (ANON) | KPF (THP) | KPF (COMPOUND_TAIL) | KPF (LRU), PGS_CATEGORY_ANON_THP, "anon THP tail" },
  { G_GUINT64_CONSTANT (0x400005828), PGS_CATEGORY_ANON, "6.18: UPTODATE LRU MMAP ANON SWAPBACKED" },
  { KPF (ANON) | KPF (DIRTY) | KPF (SWAPCACHE), PGS_CATEGORY_ANON, "anon in swap cache, dirty" },
  { KPF (SWAPBACKED) | KPF (DIRTY) | KPF (LRU) | KPF (UPTODATE), PGS_CATEGORY_SHMEM, "tmpfs page" },
  { KPF (DIRTY) | KPF (LRU) | KPF (ACTIVE), PGS_CATEGORY_DIRTY, "dirty file page" },
  { KPF (WRITEBACK) | KPF (LRU), PGS_CATEGORY_DIRTY, "file page under writeback" },
  { G_GUINT64_CONSTANT (0x80000007c), PGS_CATEGORY_DIRTY, "6.18: REFERENCED UPTODATE DIRTY LRU ACTIVE PRIVATE" },
  { G_GUINT64_CONSTANT (0x400000068), PGS_CATEGORY_FILE_ACTIVE, "6.18: UPTODATE LRU ACTIVE MAPPEDTODISK" },
  { G_GUINT64_CONSTANT (0x402000028), PGS_CATEGORY_FILE_INACTIVE, "6.18: UPTODATE LRU IDLE MAPPEDTODISK" },
  { G_GUINT64_CONSTANT (0x402410028), PGS_CATEGORY_FILE_INACTIVE, "6.18: file large folio tail (THP without ANON)" },
  { KPF (ACTIVE), PGS_CATEGORY_RESERVED, "ACTIVE off the LRU (isolated): other" },
};

static void
test_precedence (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      PgsCategory got = pgs_category_from_flags (cases[i].flags);

      if (got != cases[i].expected)
        g_error ("flags 0x%" G_GINT64_MODIFIER "x (%s): got %s, expected %s", cases[i].flags,
                 cases[i].why, pgs_category_get_id (got), pgs_category_get_id (cases[i].expected));
    }
}

/* The documented precedence written as a plain if-chain, independent of the tables. */
static PgsCategory
reference (guint64 f)
{
  if (f & KPF (NOPAGE))
    return PGS_CATEGORY_HOLE;
  if (f & KPF (ZERO_PAGE))
    return PGS_CATEGORY_ZERO_PAGE;
  if (f & KPF (BUDDY))
    return PGS_CATEGORY_FREE;
  if (f & (KPF (RESERVED) | KPF (OFFLINE) | KPF (HWPOISON)))
    return PGS_CATEGORY_RESERVED;
  if (f & KPF (SLAB))
    return PGS_CATEGORY_SLAB;
  if (f & KPF (PGTABLE))
    return PGS_CATEGORY_PAGE_TABLE;
  if (f & KPF (HUGE))
    return PGS_CATEGORY_HUGETLB;
  if ((f & KPF (KSM)) && (f & KPF (ANON)))
    return PGS_CATEGORY_KSM;
  if (f & (KPF (UNEVICTABLE) | KPF (MLOCKED)))
    return PGS_CATEGORY_UNEVICTABLE;
  if ((f & KPF (ANON)) && (f & KPF (THP)))
    return PGS_CATEGORY_ANON_THP;
  if (f & KPF (ANON))
    return PGS_CATEGORY_ANON;
  if (f & KPF (SWAPBACKED))
    return PGS_CATEGORY_SHMEM;
  if (f & (KPF (DIRTY) | KPF (WRITEBACK)))
    return PGS_CATEGORY_DIRTY;
  if ((f & KPF (LRU)) && (f & KPF (ACTIVE)))
    return PGS_CATEGORY_FILE_ACTIVE;
  if (f & KPF (LRU))
    return PGS_CATEGORY_FILE_INACTIVE;
  return PGS_CATEGORY_RESERVED;
}

/* Every combination of the deciding bits, and random words over all 42 flag bits: the
 * compiled tables agree with the if-chain everywhere. */
static void
test_tables_match_reference (void)
{
  static const guint64 bits[] = {
    KPF (DIRTY), KPF (WRITEBACK), KPF (LRU), KPF (ACTIVE), KPF (SLAB), KPF (BUDDY), KPF (ANON),
    KPF (SWAPBACKED), KPF (HUGE), KPF (UNEVICTABLE), KPF (MLOCKED), KPF (RESERVED),
    KPF (OFFLINE), KPF (HWPOISON), KPF (NOPAGE), KPF (KSM), KPF (THP), KPF (ZERO_PAGE),
    KPF (PGTABLE),
  };
  GRand *rand = g_rand_new_with_seed (42);

  G_STATIC_ASSERT (G_N_ELEMENTS (bits) == 19);
  for (guint32 combo = 0; combo < (1u << 19); combo++)
    {
      guint64 f = 0;

      for (guint j = 0; j < 19; j++)
        if (combo & (1u << j))
          f |= bits[j];
      if (pgs_category_from_flags (f) != reference (f))
        g_error ("flags 0x%" G_GINT64_MODIFIER "x: tables say %s, precedence says %s", f,
                 pgs_category_get_id (pgs_category_from_flags (f)), pgs_category_get_id (reference (f)));
    }

  for (guint i = 0; i < 200000; i++)
    {
      guint64 f = ((guint64) g_rand_int (rand) << 32 | g_rand_int (rand)) & ((G_GUINT64_CONSTANT (1) << 42) - 1);

      /* Tails are the one place the chain and a single-frame lookup differ by design. */
      f &= ~KPF (COMPOUND_TAIL);
      g_assert_cmpint (pgs_category_from_flags (f), ==, reference (f));
    }
  g_rand_free (rand);
}

/* Tail pages with nothing of their own follow their head (slab tails before 6.x folios). */
static void
test_tails_follow_head (void)
{
  const guint64 flags[] = {
    KPF (COMPOUND_TAIL),                      /* a run starting mid-folio: head unknown */
    KPF (SLAB) | KPF (COMPOUND_HEAD),         /* an order-2 slab */
    KPF (COMPOUND_TAIL),
    KPF (COMPOUND_TAIL),
    KPF (COMPOUND_TAIL),
    KPF (LRU),                                /* a single page cache page */
    KPF (COMPOUND_HEAD),                      /* a kernel compound allocation */
    KPF (COMPOUND_TAIL),
    KPF (ANON) | KPF (THP) | KPF (COMPOUND_HEAD), /* anon THP: tails carry their own flags */
    KPF (ANON) | KPF (THP) | KPF (COMPOUND_TAIL),
  };
  const guint8 expected[] = {
    PGS_CATEGORY_RESERVED,
    PGS_CATEGORY_SLAB, PGS_CATEGORY_SLAB, PGS_CATEGORY_SLAB, PGS_CATEGORY_SLAB,
    PGS_CATEGORY_FILE_INACTIVE,
    PGS_CATEGORY_RESERVED, PGS_CATEGORY_RESERVED,
    PGS_CATEGORY_ANON_THP, PGS_CATEGORY_ANON_THP,
  };
  guint8 out[G_N_ELEMENTS (flags)];
  guint64 counts[PGS_N_CATEGORIES] = { 0 };

  pgs_category_classify (flags, G_N_ELEMENTS (flags), out, counts);
  for (guint i = 0; i < G_N_ELEMENTS (flags); i++)
    g_assert_cmpuint (out[i], ==, expected[i]);
  /* 3 reserved, 4 slab, 1 inactive, 2 anon THP */
  g_assert_cmpuint (counts[PGS_CATEGORY_RESERVED], ==, 3);
  g_assert_cmpuint (counts[PGS_CATEGORY_SLAB], ==, 4);
  g_assert_cmpuint (counts[PGS_CATEGORY_FILE_INACTIVE], ==, 1);
  g_assert_cmpuint (counts[PGS_CATEGORY_ANON_THP], ==, 2);
  g_assert_cmpuint (counts[PGS_CATEGORY_FREE], ==, 0);
}

static void
test_flag_names (void)
{
  g_autofree char *a = pgs_kpageflags_to_string (G_GUINT64_CONSTANT (0x400000068));
  g_autofree char *b = pgs_kpageflags_to_string (0);
  g_autofree char *c = pgs_kpageflags_to_string (KPF (NOPAGE) | (G_GUINT64_CONSTANT (1) << 50));

  g_assert_cmpstr (a, ==, "UPTODATE LRU ACTIVE MAPPEDTODISK");
  g_assert_cmpstr (b, ==, "");
  g_assert_cmpstr (c, ==, "NOPAGE BIT50");
}

static void
test_labels (void)
{
  for (guint c = 0; c < PGS_N_CATEGORIES; c++)
    {
      g_assert_nonnull (pgs_category_get_label (c));
      g_assert_nonnull (pgs_category_get_rule (c));
      for (guint d = 0; d < c; d++)
        g_assert_cmpstr (pgs_category_get_id (c), !=, pgs_category_get_id (d));
    }
  g_assert_cmpstr (pgs_category_get_id (PGS_CATEGORY_FILE_ACTIVE), ==, "file-active");
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/pgs/category/precedence", test_precedence);
  g_test_add_func ("/pgs/category/tables-match-reference", test_tables_match_reference);
  g_test_add_func ("/pgs/category/tails-follow-head", test_tails_follow_head);
  g_test_add_func ("/pgs/category/flag-names", test_flag_names);
  g_test_add_func ("/pgs/category/labels", test_labels);

  return g_test_run ();
}
