/* pgs-category.c
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One precedence table turns kpageflags into a category. The renderer classifies millions of
 * frames, so the table is compiled once into three slice tables (bits 4-14, 16-26, 32-39 of
 * the flags word) that gather the 16 deciding features into a compact index, and a 64 Ki
 * entry table from that index to the category: three loads and a handful of shifts per
 * frame, no branches.
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "pgs-category.h"
#include "pgs-kpage.h"

#define B(f) PGS_KPF_BIT (PGS_KPF_##f)

/* Documentation/admin-guide/mm/pagemap.rst, and fs/proc/page.c for what Linux 6.x really
 * sets. First match wins. A rule matches when any bit of @any is set (or @any is 0) and
 * all bits of @all are set. */
static const struct
{
  guint64     any;
  guint64     all;
  PgsCategory category;
} rules[] = {
  /* No struct page: nothing else is meaningful. */
  { B (NOPAGE), 0, PGS_CATEGORY_HOLE },
  /* The zero page is PG_reserved too; it is interesting in its own right. */
  { B (ZERO_PAGE), 0, PGS_CATEGORY_ZERO_PAGE },
  /* Set on every page of a free block (is_free_buddy_page), whatever stale bits remain. */
  { B (BUDDY), 0, PGS_CATEGORY_FREE },
  { B (RESERVED) | B (OFFLINE) | B (HWPOISON), 0, PGS_CATEGORY_RESERVED },
  /* Before ANON and KSM: struct slab overlays folio->mapping with a pointer whose low bits
   * make fs/proc/page.c report ANON and even KSM on slab pages (seen on 6.18). */
  { B (SLAB), 0, PGS_CATEGORY_SLAB },
  { B (PGTABLE), 0, PGS_CATEGORY_PAGE_TABLE },
  { B (HUGE), 0, PGS_CATEGORY_HUGETLB },
  { 0, B (KSM) | B (ANON), PGS_CATEGORY_KSM },
  /* Mlocked pages are unevictable too; either bit says the page cannot be reclaimed. */
  { B (UNEVICTABLE) | B (MLOCKED), 0, PGS_CATEGORY_UNEVICTABLE },
  { 0, B (ANON) | B (THP), PGS_CATEGORY_ANON_THP },
  { B (ANON), 0, PGS_CATEGORY_ANON },
  /* Swap-backed but not anonymous: shmem and tmpfs, always dirty, so before DIRTY. */
  { B (SWAPBACKED), 0, PGS_CATEGORY_SHMEM },
  { B (DIRTY) | B (WRITEBACK), 0, PGS_CATEGORY_DIRTY },
  { 0, B (LRU) | B (ACTIVE), PGS_CATEGORY_FILE_ACTIVE },
  { B (LRU), 0, PGS_CATEGORY_FILE_INACTIVE },
};

/* Not a category: "a tail page with nothing to say; take the head page's category". */
#define INHERIT PGS_N_CATEGORIES

/* The features the rules look at. Bits in one feature are interchangeable for every rule
 * (checked by test-category), which is what lets them share one bit of the index. */
static const guint64 features[] = {
  B (DIRTY) | B (WRITEBACK),
  B (LRU),
  B (ACTIVE),
  B (SLAB),
  B (BUDDY),
  B (ANON),
  B (SWAPBACKED),
  B (COMPOUND_TAIL),
  B (HUGE),
  B (UNEVICTABLE) | B (MLOCKED),
  B (RESERVED) | B (OFFLINE) | B (HWPOISON),
  B (NOPAGE),
  B (KSM),
  B (THP),
  B (ZERO_PAGE),
  B (PGTABLE),
};

G_STATIC_ASSERT (G_N_ELEMENTS (features) == 16);

/* Every feature bit must fall in one of the three slices. */
#define SLICE0_SHIFT 4
#define SLICE1_SHIFT 16
#define SLICE2_SHIFT 32
#define SLICE01_MASK 0x7ff
#define SLICE2_MASK  0xff

typedef struct
{
  guint16 slice0[SLICE01_MASK + 1];
  guint16 slice1[SLICE01_MASK + 1];
  guint16 slice2[SLICE2_MASK + 1];
  guint8  category[1 << 16];
} Tables;

static Tables tables;

static PgsCategory
apply_rules (guint64 flags)
{
  for (guint i = 0; i < G_N_ELEMENTS (rules); i++)
    if ((rules[i].any == 0 || (flags & rules[i].any) != 0) &&
        (flags & rules[i].all) == rules[i].all)
      return rules[i].category;

  return flags & B (COMPOUND_TAIL) ? INHERIT : PGS_CATEGORY_RESERVED;
}

static guint16
gather (guint64 bits)
{
  guint16 index = 0;

  for (guint j = 0; j < G_N_ELEMENTS (features); j++)
    if (bits & features[j])
      index |= 1u << j;
  return index;
}

static const Tables *
get_tables (void)
{
  static gsize init = 0;

  if (g_once_init_enter (&init))
    {
      for (guint i = 0; i <= SLICE01_MASK; i++)
        {
          tables.slice0[i] = gather ((guint64) i << SLICE0_SHIFT);
          tables.slice1[i] = gather ((guint64) i << SLICE1_SHIFT);
        }
      for (guint i = 0; i <= SLICE2_MASK; i++)
        tables.slice2[i] = gather ((guint64) i << SLICE2_SHIFT);

      /* Rebuild a flags word from each index (the first bit of each feature) and let the
       * one rule table decide; the word from the index's two bytes, each half worked out
       * once (a program that draws one map builds this once: it should cost little). */
      {
        guint64 low[256], high[256];

        for (guint half = 0; half < 256; half++)
          {
            low[half] = high[half] = 0;
            for (guint j = 0; j < 8; j++)
              if (half & (1u << j))
                {
                  low[half] |= features[j] & -features[j];
                  high[half] |= features[j + 8] & -features[j + 8];
                }
          }
        for (guint index = 0; index < (1u << 16); index++)
          tables.category[index] = apply_rules (low[index & 0xff] | high[index >> 8]);
      }
      g_once_init_leave (&init, 1);
    }

  return &tables;
}

static inline guint8
lookup (const Tables *t,
        guint64       flags)
{
  guint index = t->slice0[(flags >> SLICE0_SHIFT) & SLICE01_MASK] |
                t->slice1[(flags >> SLICE1_SHIFT) & SLICE01_MASK] |
                t->slice2[(flags >> SLICE2_SHIFT) & SLICE2_MASK];

  return t->category[index];
}

PgsCategory
pgs_category_from_flags (guint64 kpageflags)
{
  guint8 c = lookup (get_tables (), kpageflags);

  return c == INHERIT ? PGS_CATEGORY_RESERVED : (PgsCategory) c;
}

PgsCategory
pgs_category_classify_run (guint64  kpageflags,
                           guint8  *head)
{
  guint8 c = lookup (get_tables (), kpageflags);

  c = c == INHERIT ? *head : c;
  if (kpageflags & B (COMPOUND_HEAD))
    *head = c;
  return (PgsCategory) c;
}

static void
classify_range (const guint64 *flags,
                guint64        n_frames,
                guint8        *out,
                guint64       *counts)
{
  const Tables *t = get_tables ();
  /* A run that starts on a tail page has lost its head: "other" is all we can say. */
  guint8 head = PGS_CATEGORY_RESERVED;
  guint64 local[4][PGS_N_CATEGORIES] = { { 0 } };
  guint64 deciding = 0, last_key = G_MAXUINT64;
  guint8 last = PGS_CATEGORY_RESERVED;

  for (guint j = 0; j < G_N_ELEMENTS (features); j++)
    deciding |= features[j];

  for (guint64 i = 0; i < n_frames; i++)
    {
      guint64 f = flags[i];
      guint64 key = f & deciding;
      guint8 c;

      /* Neighbouring frames mostly differ only in bits that decide nothing (REFERENCED,
       * IDLE, MMAP…): reuse the last answer rather than walk the tables again. */
      if (key != last_key)
        {
          last = lookup (t, f);
          last_key = key;
        }
      c = last;

      /* Compound pages are contiguous, head first, so the last head seen is ours. Written
       * as selects so the compiler emits conditional moves, not branches. */
      c = c == INHERIT ? head : c;
      head = (f & B (COMPOUND_HEAD)) ? c : head;
      out[i] = c;
    }

  if (counts == NULL)
    return;

  /* Four interleaved histograms: runs of one category would otherwise make every increment
   * wait for the previous one to the same counter. */
  {
    guint64 i = 0;

    for (; i + 4 <= n_frames; i += 4)
      {
        local[0][out[i]]++;
        local[1][out[i + 1]]++;
        local[2][out[i + 2]]++;
        local[3][out[i + 3]]++;
      }
    for (; i < n_frames; i++)
      local[0][out[i]]++;
    for (guint c = 0; c < PGS_N_CATEGORIES; c++)
      counts[c] += local[0][c] + local[1][c] + local[2][c] + local[3][c];
  }
}

static const struct
{
  const char *id;
  const char *label;
  const char *rule;
} category_info[PGS_N_CATEGORIES] = {
  [PGS_CATEGORY_HOLE] = { "hole", N_("Hole (no page)"), "NOPAGE" },
  [PGS_CATEGORY_ZERO_PAGE] = { "zero-page", N_("Zero page"), "ZERO_PAGE" },
  [PGS_CATEGORY_FREE] = { "free", N_("Free"), "BUDDY" },
  [PGS_CATEGORY_FREE_UNINIT] = { "free-uninit", N_("Free, not yet initialised"),
                                 "no flags, map count 0, in a zone's never-initialised top "
                                 "that the kernel counts in MemTotal (zoneinfo, meminfo)" },
  [PGS_CATEGORY_RESERVED] = { "reserved", N_("Reserved or other kernel"),
                              "RESERVED, OFFLINE, HWPOISON, or no telling flag" },
  [PGS_CATEGORY_SLAB] = { "slab", N_("Slab"), "SLAB (or a tail of a slab page)" },
  [PGS_CATEGORY_PAGE_TABLE] = { "page-table", N_("Page table"), "PGTABLE" },
  [PGS_CATEGORY_HUGETLB] = { "hugetlb", N_("HugeTLB"), "HUGE" },
  [PGS_CATEGORY_KSM] = { "ksm", N_("KSM (merged)"), "ANON and KSM" },
  [PGS_CATEGORY_UNEVICTABLE] = { "unevictable", N_("Unevictable or locked"),
                                 "UNEVICTABLE or MLOCKED" },
  [PGS_CATEGORY_ANON_THP] = { "anon-thp", N_("Anonymous, huge page"), "ANON and THP" },
  [PGS_CATEGORY_ANON] = { "anon", N_("Anonymous"), "ANON" },
  [PGS_CATEGORY_SHMEM] = { "shmem", N_("Shared memory (tmpfs)"), "SWAPBACKED without ANON" },
  [PGS_CATEGORY_DIRTY] = { "dirty", N_("Dirty or writeback"), "DIRTY or WRITEBACK" },
  [PGS_CATEGORY_FILE_ACTIVE] = { "file-active", N_("Page cache, active"), "LRU and ACTIVE" },
  [PGS_CATEGORY_FILE_INACTIVE] = { "file-inactive", N_("Page cache, inactive"), "LRU" },
};

const char *
pgs_category_get_label (PgsCategory category)
{
  g_return_val_if_fail (category < PGS_N_CATEGORIES, NULL);
  return g_dgettext (GETTEXT_PACKAGE, category_info[category].label);
}

const char *
pgs_category_get_description (PgsCategory category)
{
  g_return_val_if_fail (category < PGS_N_CATEGORIES, NULL);

  switch (category)
    {
    case PGS_CATEGORY_FREE_UNINIT:
      /* Translators: keep the lines short: tooltips do not wrap. */
      return _("Free, not yet initialised: the kernel has not set up this frame\n"
               "yet (deferred initialisation), so it shows no flags.\n"
               "It counts as free in MemFree and is handed out when first needed.");
    case PGS_CATEGORY_RESERVED:
      return _("Reserved or other kernel: no flag says what this frame holds\n"
               "(kernel stacks, vmalloc, per-CPU lists, boot allocations).\n"
               "The legend compares it with the kernel's counters.");
    default:
      return NULL;
    }
}

const char *
pgs_category_get_id (PgsCategory category)
{
  g_return_val_if_fail (category < PGS_N_CATEGORIES, NULL);
  return category_info[category].id;
}

const char *
pgs_category_get_rule (PgsCategory category)
{
  g_return_val_if_fail (category < PGS_N_CATEGORIES, NULL);
  return category_info[category].rule;
}

static const char *const flag_names[] = {
  [PGS_KPF_LOCKED] = "LOCKED",
  [PGS_KPF_ERROR] = "ERROR",
  [PGS_KPF_REFERENCED] = "REFERENCED",
  [PGS_KPF_UPTODATE] = "UPTODATE",
  [PGS_KPF_DIRTY] = "DIRTY",
  [PGS_KPF_LRU] = "LRU",
  [PGS_KPF_ACTIVE] = "ACTIVE",
  [PGS_KPF_SLAB] = "SLAB",
  [PGS_KPF_WRITEBACK] = "WRITEBACK",
  [PGS_KPF_RECLAIM] = "RECLAIM",
  [PGS_KPF_BUDDY] = "BUDDY",
  [PGS_KPF_MMAP] = "MMAP",
  [PGS_KPF_ANON] = "ANON",
  [PGS_KPF_SWAPCACHE] = "SWAPCACHE",
  [PGS_KPF_SWAPBACKED] = "SWAPBACKED",
  [PGS_KPF_COMPOUND_HEAD] = "COMPOUND_HEAD",
  [PGS_KPF_COMPOUND_TAIL] = "COMPOUND_TAIL",
  [PGS_KPF_HUGE] = "HUGE",
  [PGS_KPF_UNEVICTABLE] = "UNEVICTABLE",
  [PGS_KPF_HWPOISON] = "HWPOISON",
  [PGS_KPF_NOPAGE] = "NOPAGE",
  [PGS_KPF_KSM] = "KSM",
  [PGS_KPF_THP] = "THP",
  [PGS_KPF_OFFLINE] = "OFFLINE",
  [PGS_KPF_ZERO_PAGE] = "ZERO_PAGE",
  [PGS_KPF_IDLE] = "IDLE",
  [PGS_KPF_PGTABLE] = "PGTABLE",
  [PGS_KPF_RESERVED] = "RESERVED",
  [PGS_KPF_MLOCKED] = "MLOCKED",
  [PGS_KPF_MAPPEDTODISK] = "MAPPEDTODISK",
  [PGS_KPF_PRIVATE] = "PRIVATE",
  [PGS_KPF_PRIVATE_2] = "PRIVATE_2",
  [PGS_KPF_OWNER_PRIVATE] = "OWNER_PRIVATE",
  [PGS_KPF_ARCH] = "ARCH",
  [PGS_KPF_UNCACHED] = "UNCACHED",
  [PGS_KPF_SOFTDIRTY] = "SOFTDIRTY",
  [PGS_KPF_ARCH_2] = "ARCH_2",
};

char *
pgs_kpageflags_to_string (guint64 kpageflags)
{
  GString *s = g_string_new (NULL);

  for (guint bit = 0; bit < 64; bit++)
    {
      if (!(kpageflags & (G_GUINT64_CONSTANT (1) << bit)))
        continue;
      if (s->len > 0)
        g_string_append_c (s, ' ');
      /* Bits the kernel may add later still show, by number. */
      if (bit < G_N_ELEMENTS (flag_names) && flag_names[bit] != NULL)
        g_string_append (s, flag_names[bit]);
      else
        g_string_append_printf (s, "BIT%u", bit);
    }

  return g_string_free (s, FALSE);
}

typedef struct
{
  const guint64 *flags;
  guint64        n_frames;
  guint8        *out;
  guint64        counts[PGS_N_CATEGORIES];
} Half;

static gpointer
classify_half (gpointer data)
{
  Half *half = data;

  classify_range (half->flags, half->n_frames, half->out, half->counts);
  return NULL;
}

/* Below this, a thread costs more than it saves. */
#define PARALLEL_MIN_FRAMES (1u << 20)

void
pgs_category_classify (const guint64 *flags,
                       guint64        n_frames,
                       guint8        *out,
                       guint64       *counts)
{
  guint64 split;
  Half second = { 0 };
  GThread *thread;

  g_return_if_fail (flags != NULL || n_frames == 0);
  g_return_if_fail (out != NULL || n_frames == 0);

  if (n_frames < PARALLEL_MIN_FRAMES || g_get_num_processors () < 2)
    {
      classify_range (flags, n_frames, out, counts);
      return;
    }

  /* Two halves, the second starting on a frame that is not a tail, so that no compound
   * page straddles the split and each half finds its own heads. */
  get_tables ();
  split = n_frames / 2;
  while (split < n_frames && (flags[split] & B (COMPOUND_TAIL)))
    split++;
  second.flags = flags + split;
  second.n_frames = n_frames - split;
  second.out = out + split;
  thread = g_thread_try_new ("pgs-classify", classify_half, &second, NULL);
  if (thread == NULL)
    classify_half (&second);
  classify_range (flags, split, out, counts);
  if (thread != NULL)
    g_thread_join (thread);
  if (counts != NULL)
    for (guint c = 0; c < PGS_N_CATEGORIES; c++)
      counts[c] += second.counts[c];
}
