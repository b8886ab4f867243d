/* test-category.c: the kpageflags precedence table, case by case
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Several flag words below were read from /proc/kpageflags on Linux 6.18 (noted "6.18"), so
 * the table is checked against what the kernel really reports, quirks included.
 */

#include "config.h"

#include <string.h>

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
  g_assert_cmpstr (pgs_category_get_id (PGS_CATEGORY_FREE_UNINIT), ==, "free-uninit");
  g_assert_nonnull (strstr (pgs_category_get_description (PGS_CATEGORY_FREE_UNINIT), "MemFree"));
  g_assert_null (pgs_category_get_description (PGS_CATEGORY_ANON));
}

/* ---- the kernel's counters and the frames they decide ---- */

/* Two zones, worked out by hand (4 KiB pages):
 *   DMA32  start 0, spanned 4096, present 3072, managed 3000
 *     0..1999 BUDDY; 2000..2047 flagless (kernel allocations: not a whole block);
 *     2048..2999 ANON; 3000..3071 RESERVED (= present - managed, 72);
 *     3072..4095 flagless: a hole with a memmap (1024 = spanned - present)
 *   Normal start 4096, spanned = present 4096, managed 1024
 *     4096..4595 BUDDY; 4596..4600 flagless (5); 4601..5119 LRU;
 *     5120..8191 flagless: the never-initialised tail (3072 = present - managed)
 * MemTotal = (3000 + 1024 managed + 2048) pages = 24288 kB: the kernel counts 2048 of the
 * tail's 3072 frames, so 5120..7167 are free, not yet initialised, and the top 1024
 * (7168..8191, boot allocations placed top-down) stay reserved or other kernel. */
#define N_FX 8192

static const char fx_meminfo[] =
  "MemTotal:          24288 kB\n"
  "MemFree:           18192 kB\n"
  "MemAvailable:      20000 kB\n"
  "Buffers:             100 kB\n"
  "Cached:             1976 kB\n"
  "SwapCached:            0 kB\n"
  "Unevictable:           0 kB\n"
  "AnonPages:          3808 kB\n"
  "Shmem:                 0 kB\n"
  "SReclaimable:         12 kB\n"
  "SUnreclaim:            8 kB\n"
  "KernelStack:          16 kB\n"
  "PageTables:            4 kB\n"
  "SecPageTables:         4 kB\n"
  "HugePages_Total:       0\n"
  "Hugepagesize:       2048 kB\n";

static const char fx_zoneinfo[] =
  "Node 0, zone    DMA32\n"
  "  pages free     2000\n"
  "        boost    0\n"
  "        spanned  4096\n"
  "        present  3072\n"
  "        managed  3000\n"
  "        cma      0\n"
  "      nr_free_pages 2000\n"
  "  pagesets\n"
  "    cpu: 0\n"
  "              count: 7\n"
  "  start_pfn:           0\n"
  "Node 0, zone   Normal\n"
  "  per-node stats\n"
  "      nr_inactive_anon 952\n"
  "  pages free     500\n"
  "        spanned  4096\n"
  "        present  4096\n"
  "        managed  1024\n"
  "      nr_free_pages 500\n"
  "  start_pfn:           4096\n"
  "Node 0, zone  Movable\n"
  "  pages free     0\n"
  "        spanned  0\n"
  "        present  0\n"
  "        managed  0\n";

static PgsPhysMap *
fx_physmap (const char *meminfo,
            const char *zoneinfo)
{
  guint32 *counts = g_new0 (guint32, N_FX);
  guint64 *flags = g_new0 (guint64, N_FX);

  for (guint i = 0; i < 2000; i++)
    flags[i] = KPF (BUDDY);
  for (guint i = 2048; i < 3000; i++)
    flags[i] = KPF (ANON) | KPF (LRU), counts[i] = 1;
  for (guint i = 3000; i < 3072; i++)
    flags[i] = KPF (RESERVED);
  for (guint i = 4096; i < 4596; i++)
    flags[i] = KPF (BUDDY);
  for (guint i = 4601; i < 5120; i++)
    flags[i] = KPF (LRU) | KPF (UPTODATE), counts[i] = 1;
  return pgs_physmap_new_full (counts, flags, N_FX, meminfo, zoneinfo);
}

static void
test_meminfo_parse (void)
{
  PgsMeminfo mi;
  g_autoptr(GError) error = NULL;
  const char huge[] = "MemTotal: 100 kB\nMemFree: 50 kB\nHugePages_Total: 4\nHugepagesize: 2048 kB\n";
  const char bad[] = "MemTotal: 100 kB\nMemFree: lots kB\n";
  const char overflow[] = "MemTotal: 18446744073709551615 kB\nMemFree: 1 kB\n";

  g_assert_true (pgs_meminfo_parse (fx_meminfo, strlen (fx_meminfo), &mi, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (mi.value[PGS_MEMINFO_MEM_TOTAL], ==, 24288 * 1024);
  g_assert_cmpuint (mi.value[PGS_MEMINFO_SLAB], ==, 20 * 1024);        /* 12 + 8 */
  g_assert_cmpuint (mi.value[PGS_MEMINFO_PAGE_TABLES], ==, 8 * 1024);  /* 4 + 4 */
  g_assert_cmpuint (mi.value[PGS_MEMINFO_HUGETLB], ==, 0);
  g_assert_true (PGS_MEMINFO_HAS (&mi, PGS_MEMINFO_HUGETLB));

  /* Without a Hugetlb line: HugePages_Total × Hugepagesize. */
  g_assert_true (pgs_meminfo_parse (huge, strlen (huge), &mi, NULL));
  g_assert_cmpuint (mi.value[PGS_MEMINFO_HUGETLB], ==, 8 * 1024 * 1024);
  g_assert_false (PGS_MEMINFO_HAS (&mi, PGS_MEMINFO_CACHED));

  g_assert_false (pgs_meminfo_parse (bad, strlen (bad), &mi, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  g_assert_nonnull (strstr (error->message, "MemFree: lots kB"));
  g_clear_error (&error);
  g_assert_false (pgs_meminfo_parse (overflow, strlen (overflow), &mi, &error));
  g_clear_error (&error);
  g_assert_false (pgs_meminfo_parse ("Cached: 1 kB\n", 13, &mi, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
}

static void
test_zoneinfo_parse (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) zones = pgs_zoneinfo_parse (fx_zoneinfo, strlen (fx_zoneinfo), &error);
  const char bad[] = "Node 0, zone DMA\n  spanned 10\n  present 20\n  managed 5\n";
  const PgsZone *z;

  g_assert_no_error (error);
  g_assert_cmpuint (zones->len, ==, 3);
  z = &g_array_index (zones, PgsZone, 1);
  g_assert_cmpstr (z->name, ==, "Normal");
  g_assert_true (z->has_start);
  g_assert_cmpuint (z->start_pfn, ==, 4096);
  g_assert_cmpuint (z->spanned, ==, 4096);
  g_assert_cmpuint (z->present, ==, 4096);
  g_assert_cmpuint (z->managed, ==, 1024);
  g_assert_cmpuint (z->nr_free, ==, 500);
  g_assert_false (g_array_index (zones, PgsZone, 2).has_start);

  /* present > spanned cannot be. */
  g_assert_null (pgs_zoneinfo_parse (bad, strlen (bad), &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
}

static void
test_uninit_frames (void)
{
  g_autoptr(PgsPhysMap) pm = fx_physmap (fx_meminfo, fx_zoneinfo);
  g_autofree guint8 *out = g_malloc (N_FX);
  guint64 counts[PGS_N_CATEGORIES] = { 0 };
  const PgsFrameSpan *spans;
  guint n_spans;

  g_assert_null (pgs_physmap_get_counters_error (pm));
  g_assert_cmpstr (pgs_physmap_get_meminfo_text (pm), ==, fx_meminfo);
  g_assert_cmpstr (pgs_physmap_get_zoneinfo_text (pm), ==, fx_zoneinfo);

  spans = pgs_physmap_get_spans (pm, &n_spans);
  g_assert_cmpuint (n_spans, ==, 2);
  g_assert_cmpuint (spans[0].start, ==, 3072);
  g_assert_cmpuint (spans[0].n_frames, ==, 1024);
  g_assert_cmpint (spans[0].category, ==, PGS_CATEGORY_HOLE);
  g_assert_cmpuint (spans[1].start, ==, 5120);
  g_assert_cmpuint (spans[1].n_frames, ==, 2048);
  g_assert_cmpint (spans[1].category, ==, PGS_CATEGORY_FREE_UNINIT);

  pgs_physmap_classify (pm, out, counts);
  g_assert_cmpuint (counts[PGS_CATEGORY_HOLE], ==, 1024);
  g_assert_cmpuint (counts[PGS_CATEGORY_FREE], ==, 2500);
  g_assert_cmpuint (counts[PGS_CATEGORY_FREE_UNINIT], ==, 2048);
  /* 48 + 72 + 5 + the top 1024 of the tail */
  g_assert_cmpuint (counts[PGS_CATEGORY_RESERVED], ==, 1149);
  g_assert_cmpuint (counts[PGS_CATEGORY_ANON], ==, 952);
  g_assert_cmpuint (counts[PGS_CATEGORY_FILE_INACTIVE], ==, 519);

  g_assert_cmpint (out[2047], ==, PGS_CATEGORY_RESERVED);
  g_assert_cmpint (out[7167], ==, PGS_CATEGORY_FREE_UNINIT);
  g_assert_cmpint (out[7168], ==, PGS_CATEGORY_RESERVED);
  g_assert_cmpint (pgs_physmap_get_category (pm, 3072), ==, PGS_CATEGORY_HOLE);
  g_assert_cmpint (pgs_physmap_get_category (pm, 4095), ==, PGS_CATEGORY_HOLE);
  g_assert_cmpint (pgs_physmap_get_category (pm, 4598), ==, PGS_CATEGORY_RESERVED);
  g_assert_cmpint (pgs_physmap_get_category (pm, 5120), ==, PGS_CATEGORY_FREE_UNINIT);
  g_assert_cmpint (pgs_physmap_get_category (pm, 7167), ==, PGS_CATEGORY_FREE_UNINIT);
  g_assert_cmpint (pgs_physmap_get_category (pm, 7168), ==, PGS_CATEGORY_RESERVED);
  g_assert_cmpint (pgs_physmap_get_category (pm, 8191), ==, PGS_CATEGORY_RESERVED);
  g_assert_cmpint (pgs_physmap_get_category (pm, 8192), ==, PGS_CATEGORY_HOLE);
}

/* The same frames read by other kernels' counters. */
static void
test_uninit_rules (void)
{
  g_autofree guint8 *out = g_malloc (N_FX);

  /* No meminfo: nothing to reconcile with, the whole tail is never initialised. */
  {
    g_autoptr(PgsPhysMap) pm = fx_physmap (NULL, fx_zoneinfo);
    guint64 counts[PGS_N_CATEGORIES] = { 0 };

    g_assert_null (pgs_physmap_get_meminfo (pm));
    g_assert_cmpstr (pgs_physmap_get_counters_error (pm), ==, "no meminfo");
    pgs_physmap_classify (pm, out, counts);
    g_assert_cmpuint (counts[PGS_CATEGORY_FREE_UNINIT], ==, 3072);
    g_assert_cmpuint (counts[PGS_CATEGORY_RESERVED], ==, 125);
  }

  /* Mainline: MemTotal is the sum of managed (16096 kB = 4024 pages), so the kernel does
   * not count the tail and neither does the map. */
  {
    g_autofree char *mainline = g_strdup (fx_meminfo);
    g_autoptr(PgsPhysMap) pm = NULL;
    guint64 counts[PGS_N_CATEGORIES] = { 0 };

    memcpy (strstr (mainline, "24288"), "16096", 5);
    pm = fx_physmap (mainline, fx_zoneinfo);
    pgs_physmap_classify (pm, out, counts);
    g_assert_cmpuint (counts[PGS_CATEGORY_FREE_UNINIT], ==, 0);
    g_assert_cmpuint (counts[PGS_CATEGORY_RESERVED], ==, 125 + 3072);
  }

  /* A tail longer than present - managed is not (only) never-initialised memory: kept. */
  {
    g_autofree char *zi = g_strdup (fx_zoneinfo);
    g_autoptr(PgsPhysMap) pm = NULL;
    guint64 counts[PGS_N_CATEGORIES] = { 0 };

    memcpy (strstr (zi, "managed  1024"), "managed  2048", 13);
    pm = fx_physmap (fx_meminfo, zi);
    pgs_physmap_classify (pm, out, counts);
    g_assert_cmpuint (counts[PGS_CATEGORY_FREE_UNINIT], ==, 0);
    g_assert_cmpuint (counts[PGS_CATEGORY_HOLE], ==, 1024);
  }

  /* No zoneinfo: nothing is decided by counters, flagless frames stay "other kernel". */
  {
    g_autoptr(PgsPhysMap) pm = fx_physmap (fx_meminfo, NULL);
    guint64 counts[PGS_N_CATEGORIES] = { 0 };

    g_assert_nonnull (pgs_physmap_get_meminfo (pm));
    g_assert_cmpstr (pgs_physmap_get_counters_error (pm), ==, "no zoneinfo");
    pgs_physmap_classify (pm, out, counts);
    g_assert_cmpuint (counts[PGS_CATEGORY_FREE_UNINIT], ==, 0);
    g_assert_cmpuint (counts[PGS_CATEGORY_HOLE], ==, 0);
    g_assert_cmpuint (counts[PGS_CATEGORY_RESERVED], ==, 125 + 3072 + 1024);
  }

  /* Garbage zoneinfo: an error for the legend, no spans. */
  {
    g_autoptr(PgsPhysMap) pm = fx_physmap (fx_meminfo, "Node x, zone \x1b[2J\n");

    g_assert_nonnull (strstr (pgs_physmap_get_counters_error (pm), "bad zone line"));
    g_assert_null (strchr (pgs_physmap_get_counters_error (pm), '\x1b'));
  }
}

static void
test_counter_rows (void)
{
  g_autoptr(PgsPhysMap) pm = fx_physmap (fx_meminfo, fx_zoneinfo);
  g_autofree guint8 *out = g_malloc (N_FX);
  guint64 counts[PGS_N_CATEGORIES] = { 0 };
  PgsCounterRow row;
  g_autofree char *line = NULL;

  pgs_physmap_classify (pm, out, counts);

  /* MemFree 18192 kB; map (2500 + 2048) frames × 4 KiB = 18192 kB. */
  pgs_counter_get_row (PGS_COUNTER_FREE, pgs_physmap_get_meminfo (pm), counts, 4096, &row);
  g_assert_true (row.has_kernel && row.has_map);
  g_assert_cmpuint (row.kernel_bytes, ==, 18192 * 1024);
  g_assert_cmpuint (row.map_bytes, ==, (2500 + 2048) * 4096);
  line = pgs_counter_format_row (&row);
  g_assert_cmpstr (line, ==, "MemFree 17.8 MiB · map 17.8 MiB (Free + not yet initialised)");

  /* Cached 1976 + Buffers 100 = 2076 kB = 519 frames of page cache. */
  pgs_counter_get_row (PGS_COUNTER_CACHED, pgs_physmap_get_meminfo (pm), counts, 4096, &row);
  g_assert_cmpuint (row.kernel_bytes, ==, 2076 * 1024);
  g_assert_cmpuint (row.map_bytes, ==, 519 * 4096);
  pgs_counter_get_row (PGS_COUNTER_ANON, pgs_physmap_get_meminfo (pm), counts, 4096, &row);
  g_assert_cmpuint (row.kernel_bytes, ==, 3808 * 1024);
  g_assert_cmpuint (row.map_bytes, ==, 952 * 4096);
  pgs_counter_get_row (PGS_COUNTER_SLAB, pgs_physmap_get_meminfo (pm), counts, 4096, &row);
  g_assert_cmpuint (row.kernel_bytes, ==, 20 * 1024);
  pgs_counter_get_row (PGS_COUNTER_KERNEL_STACK, pgs_physmap_get_meminfo (pm), counts, 4096, &row);
  g_assert_cmpuint (row.kernel_bytes, ==, 16 * 1024);
  g_assert_false (row.has_map);

  /* 24288 - (18192 + 100 + 1976 + 0 + 3808 + 20 + 8 + 16 + 0) = 168 kB. */
  pgs_counter_get_row (PGS_COUNTER_UNACCOUNTED, pgs_physmap_get_meminfo (pm), counts, 4096, &row);
  g_assert_true (row.has_kernel);
  g_assert_cmpuint (row.kernel_bytes, ==, 168 * 1024);
  g_free (line);
  line = pgs_counter_format_row (&row);
  g_assert_cmpstr (line, ==, "Kernel, not otherwise accounted 168.0 KiB "
                   "(no flag: in Reserved or other kernel)");

  /* No counters: unknown, never 0. */
  pgs_counter_get_row (PGS_COUNTER_FREE, NULL, counts, 4096, &row);
  g_assert_false (row.has_kernel);
  g_free (line);
  line = pgs_counter_format_row (&row);
  g_assert_nonnull (strstr (line, "unknown"));
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
  g_test_add_func ("/pgs/meminfo/parse", test_meminfo_parse);
  g_test_add_func ("/pgs/meminfo/zoneinfo-parse", test_zoneinfo_parse);
  g_test_add_func ("/pgs/meminfo/uninit-frames", test_uninit_frames);
  g_test_add_func ("/pgs/meminfo/uninit-rules", test_uninit_rules);
  g_test_add_func ("/pgs/meminfo/counter-rows", test_counter_rows);

  return g_test_run ();
}
