/* pgs-meminfo.c
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the kernel shows for memory it has not initialised, and why the rule below is right.
 *
 * fs/proc/page.c answers kpageflags from the struct page: a frame whose memory section has
 * no memmap reads NOPAGE (pfn_to_online_page() is NULL), any other frame reads what its
 * struct page says (stable_page_flags(): BUDDY when is_free_buddy_page() finds it inside a
 * free block, and so on). With CONFIG_DEFERRED_STRUCT_PAGE_INIT the memmap of the top of
 * each node is filled in after boot; mainline waits for that to finish
 * (page_alloc_init_late()) before starting init, so user space never sees it. A kernel
 * booted with `deferred_init=lazy` (a vendor patch; Linux 6.18 on Firecracker here)
 * initialises a section at a time when the allocator runs short, and until then the
 * struct pages are zero: the frames read flags 0 and map count 0, exactly as a vmalloc
 * page, a kernel stack or a page on a per-CPU free list does. What tells them apart is
 * the kernel's counters, measured on that machine (24 GiB, 6,553,600 frames):
 *
 *   zone Normal: start_pfn 1048576, spanned = present = 5505024, managed 491520; the frames
 *   from 1540096 (= start + managed) to the end of the zone, 5013504 = present − managed,
 *   all read flags 0 and count 0, a run aligned to a 128 MiB section. The zone's first
 *   491520 frames hold no RESERVED frame at all.
 *   MemTotal − Σ managed = 4902738 frames and MemFree − Σ nr_free_pages the same (to the
 *   per-CPU lists): the patch counts never-initialised memory as total and as free. The
 *   110766 frames of the run it does not count are Σ (present − managed) − that figure
 *   − the RESERVED frames of DMA and DMA32: the boot allocations (the memmap itself, 400
 *   MiB for 24 GiB) that memblock placed top-down, at the highest addresses, where their
 *   struct pages were never initialised either.
 *   zone DMA32: spanned − present = 262144 frames, the 3–4 GiB PCI hole, also read flags 0
 *   and count 0 (this kernel has a memmap for them) instead of NOPAGE.
 *
 * The rule, per zone, from zoneinfo:
 *  1. A never-initialised tail: the frames with flags 0 and count 0 that run up to the end
 *     of the zone, cut to whole max-order blocks (1024 frames, 4 MiB; sections are
 *     multiples of it). Deferred init, mainline and lazy alike, fills a zone from the
 *     bottom up, so what is left is the top. It is taken only when it fits in present −
 *     managed: memory the kernel has and has not handed to the allocator. Every page the
 *     kernel has allocated (vmalloc, stacks, page tables, per-CPU lists) came from the
 *     allocator and is inside managed, so a tail that fits cannot be made of them alone.
 *  2. Holes with a memmap: the other flagless runs of whole max-order blocks, taken as holes
 *     only when all of them together fit in spanned − present.
 *  3. With meminfo: of the tails, MemTotal − Σ managed frames are counted as free ("free, not
 *     yet initialised"): what the kernel itself counts as memory. The rest, taken from the
 *     highest frames down (memblock allocates top-down), stay "reserved or other kernel".
 *     On mainline MemTotal = Σ managed, so a tail (only during boot) would not count as
 *     free, as the kernel does not count it.
 */

#include "config.h"

#include <gio/gio.h>
#include <glib/gi18n-lib.h>
#include <string.h>

#include "pgs-format.h"
#include "pgs-kpage.h"
#include "pgs-meminfo.h"

/* MAX_PAGE_ORDER 10 on every 4 KiB-page architecture: the unit the allocator, and deferred
 * init, work in. */
#define BLOCK_FRAMES 1024u

static gboolean
parse_u64 (const char *s,
           const char *end,
           guint64    *out)
{
  guint64 v = 0;
  const char *p = s;

  while (p < end && *p == ' ')
    p++;
  if (p == end || !g_ascii_isdigit (*p))
    return FALSE;
  for (; p < end && g_ascii_isdigit (*p); p++)
    {
      if (v > (G_MAXUINT64 - 9) / 10)
        return FALSE;
      v = v * 10 + (*p - '0');
    }
  *out = v;
  return TRUE;
}

static char *
quote_line (const char *line,
            gsize       len)
{
  /* Only printable ASCII of a bad line goes into a message. */
  GString *s = g_string_new (NULL);

  for (gsize i = 0; i < MIN (len, 80); i++)
    g_string_append_c (s, g_ascii_isprint (line[i]) ? line[i] : '?');
  return g_string_free (s, FALSE);
}

gboolean
pgs_meminfo_parse (const char  *text,
                   gsize        len,
                   PgsMeminfo  *out,
                   GError     **error)
{
  static const struct
  {
    const char     *key;
    PgsMeminfoField field;
    gboolean        add;   /* added to the field rather than stored */
  } keys[] = {
    { "MemTotal", PGS_MEMINFO_MEM_TOTAL, FALSE },
    { "MemFree", PGS_MEMINFO_MEM_FREE, FALSE },
    { "Buffers", PGS_MEMINFO_BUFFERS, FALSE },
    { "Cached", PGS_MEMINFO_CACHED, FALSE },
    { "SwapCached", PGS_MEMINFO_SWAP_CACHED, FALSE },
    { "AnonPages", PGS_MEMINFO_ANON_PAGES, FALSE },
    { "Shmem", PGS_MEMINFO_SHMEM, FALSE },
    { "SReclaimable", PGS_MEMINFO_SLAB, TRUE },
    { "SUnreclaim", PGS_MEMINFO_SLAB, TRUE },
    { "PageTables", PGS_MEMINFO_PAGE_TABLES, TRUE },
    { "SecPageTables", PGS_MEMINFO_PAGE_TABLES, TRUE },
    { "KernelStack", PGS_MEMINFO_KERNEL_STACK, FALSE },
    { "Hugetlb", PGS_MEMINFO_HUGETLB, FALSE },
    { "Unevictable", PGS_MEMINFO_UNEVICTABLE, FALSE },
  };
  const char *p = text, *end = text + len;
  guint64 huge_total = 0, huge_size = 0;
  gboolean has_huge_total = FALSE, has_huge_size = FALSE;

  g_return_val_if_fail (text != NULL || len == 0, FALSE);
  g_return_val_if_fail (out != NULL, FALSE);

  memset (out, 0, sizeof *out);
  while (p < end)
    {
      const char *eol = memchr (p, '\n', end - p);
      const char *colon;
      gsize key_len;
      guint64 v;

      if (eol == NULL)
        eol = end;
      colon = memchr (p, ':', eol - p);
      if (colon == NULL)
        {
          p = eol + 1;
          continue;
        }
      key_len = colon - p;

      if (key_len == 15 && memcmp (p, "HugePages_Total", 15) == 0)
        has_huge_total = parse_u64 (colon + 1, eol, &huge_total);
      else if (key_len == 12 && memcmp (p, "Hugepagesize", 12) == 0)
        has_huge_size = parse_u64 (colon + 1, eol, &huge_size) && huge_size <= G_MAXUINT64 / 1024;
      else
        for (guint k = 0; k < G_N_ELEMENTS (keys); k++)
          {
            if (strlen (keys[k].key) != key_len || memcmp (p, keys[k].key, key_len) != 0)
              continue;
            if (!parse_u64 (colon + 1, eol, &v) || v > G_MAXUINT64 / 1024 ||
                (keys[k].add && out->value[keys[k].field] > G_MAXUINT64 - v * 1024))
              {
                g_autofree char *q = quote_line (p, eol - p);

                g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                             "meminfo: bad value in line “%s”", q);
                return FALSE;
              }
            if (keys[k].add)
              out->value[keys[k].field] += v * 1024;
            else
              out->value[keys[k].field] = v * 1024;
            out->has |= 1u << keys[k].field;
            break;
          }
      p = eol + 1;
    }

  /* Older kernels have no Hugetlb line: it counted the default size only anyway. */
  if (!PGS_MEMINFO_HAS (out, PGS_MEMINFO_HUGETLB) && has_huge_total && has_huge_size &&
      (huge_total == 0 || huge_size * 1024 <= G_MAXUINT64 / huge_total))
    {
      out->value[PGS_MEMINFO_HUGETLB] = huge_total * huge_size * 1024;
      out->has |= 1u << PGS_MEMINFO_HUGETLB;
    }

  if (!PGS_MEMINFO_HAS (out, PGS_MEMINFO_MEM_TOTAL) || !PGS_MEMINFO_HAS (out, PGS_MEMINFO_MEM_FREE))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "meminfo: no MemTotal or MemFree line");
      return FALSE;
    }
  return TRUE;
}

GArray *
pgs_zoneinfo_parse (const char  *text,
                    gsize        len,
                    GError     **error)
{
  g_autoptr(GArray) zones = g_array_new (FALSE, TRUE, sizeof (PgsZone));
  const char *p = text, *end = text + len;
  PgsZone *zone = NULL;
  gboolean seen_free = FALSE;

  g_return_val_if_fail (text != NULL || len == 0, NULL);

  while (p < end)
    {
      const char *eol = memchr (p, '\n', end - p);
      const char *s;
      gsize n;

      if (eol == NULL)
        eol = end;
      s = p;
      while (s < eol && *s == ' ')
        s++;
      n = eol - s;

      if (s == p && n > 5 && memcmp (s, "Node ", 5) == 0)
        {
          /* "Node 0, zone   Normal" */
          PgsZone z = { 0 };
          guint64 node;
          const char *comma = memchr (s, ',', n);
          const char *name;

          zone = NULL;
          if (comma == NULL || !parse_u64 (s + 5, comma, &node) || node > G_MAXUINT ||
              eol - comma < 7 || memcmp (comma, ", zone ", 7) != 0)
            {
              g_autofree char *q = quote_line (p, eol - p);

              g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                           "zoneinfo: bad zone line “%s”", q);
              return NULL;
            }
          name = comma + 7;
          while (name < eol && *name == ' ')
            name++;
          z.node = node;
          for (gsize i = 0; name + i < eol && i < sizeof z.name - 1; i++)
            z.name[i] = g_ascii_isprint (name[i]) ? name[i] : '?';
          g_array_append_val (zones, z);
          zone = &g_array_index (zones, PgsZone, zones->len - 1);
          seen_free = FALSE;
        }
      else if (zone != NULL)
        {
          static const char *const keys[] = {
            "spanned ", "present ", "managed ", "start_pfn:", "nr_free_pages ", "pages free ",
          };

          for (guint k = 0; k < G_N_ELEMENTS (keys); k++)
            {
              gsize kl = strlen (keys[k]);
              guint64 v;

              if (n < kl || memcmp (s, keys[k], kl) != 0)
                continue;
              if (!parse_u64 (s + kl, eol, &v))
                {
                  g_autofree char *q = quote_line (p, eol - p);

                  g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                               "zoneinfo: bad value in line “%s”", q);
                  return NULL;
                }
              switch (k)
                {
                case 0: zone->spanned = v; break;
                case 1: zone->present = v; break;
                case 2: zone->managed = v; break;
                case 3: zone->start_pfn = v; zone->has_start = TRUE; break;
                default:
                  /* The zone's own figure comes first; per-node stats follow it. */
                  if (!seen_free)
                    zone->nr_free = v;
                  seen_free = TRUE;
                  break;
                }
              break;
            }
        }
      p = eol + 1;
    }

  for (guint i = 0; i < zones->len; i++)
    {
      PgsZone *z = &g_array_index (zones, PgsZone, i);

      if (z->present > z->spanned || z->managed > z->present ||
          (z->has_start && z->start_pfn > G_MAXUINT64 - z->spanned))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       "zoneinfo: zone %s of node %u has spanned %" G_GUINT64_FORMAT
                       ", present %" G_GUINT64_FORMAT ", managed %" G_GUINT64_FORMAT,
                       z->name, z->node, z->spanned, z->present, z->managed);
          return NULL;
        }
    }
  return g_steal_pointer (&zones);
}

static gint
compare_spans (gconstpointer a,
               gconstpointer b)
{
  const PgsFrameSpan *x = a, *y = b;

  return x->start < y->start ? -1 : x->start > y->start;
}

GArray *
pgs_meminfo_find_spans (const PgsZone    *zones,
                        guint             n_zones,
                        const PgsMeminfo *meminfo,
                        PgsFlaglessFunc   flagless_start,
                        gpointer          data,
                        guint64           n_frames,
                        guint             page_size)
{
  GArray *spans = g_array_new (FALSE, TRUE, sizeof (PgsFrameSpan));
  g_autoptr(GArray) tails = g_array_new (FALSE, TRUE, sizeof (PgsFrameSpan));
  guint64 managed = 0, tail_frames = 0, counted;

  g_return_val_if_fail (zones != NULL || n_zones == 0, spans);
  if (flagless_start == NULL || n_frames == 0)
    return spans;

  for (guint z = 0; z < n_zones; z++)
    {
      const PgsZone *zone = &zones[z];
      guint64 first, end, tail_start, holes = 0;
      g_autoptr(GArray) hole_spans = g_array_new (FALSE, TRUE, sizeof (PgsFrameSpan));

      managed += zone->managed;
      if (!zone->has_start || zone->spanned == 0 || zone->start_pfn >= n_frames)
        continue;
      first = zone->start_pfn;
      end = MIN (zone->start_pfn + zone->spanned, n_frames);

      /* 1. The flagless tail, in whole blocks. */
      tail_start = flagless_start (data, first, end);
      tail_start = (tail_start + BLOCK_FRAMES - 1) / BLOCK_FRAMES * BLOCK_FRAMES;
      if (tail_start < end && end - tail_start >= BLOCK_FRAMES &&
          end - tail_start <= zone->present - zone->managed)
        {
          PgsFrameSpan s = { tail_start, end - tail_start, PGS_CATEGORY_FREE_UNINIT };

          g_array_append_val (tails, s);
          tail_frames += s.n_frames;
          end = tail_start;
        }

      /* 2. Flagless whole blocks elsewhere in the zone, as holes if they fit. */
      if (zone->spanned == zone->present)
        continue;
      for (guint64 b = (first + BLOCK_FRAMES - 1) / BLOCK_FRAMES * BLOCK_FRAMES;
           b + BLOCK_FRAMES <= end; b += BLOCK_FRAMES)
        {
          PgsFrameSpan *last;

          if (flagless_start (data, b, b + BLOCK_FRAMES) != b)
            continue;
          last = hole_spans->len > 0
                 ? &g_array_index (hole_spans, PgsFrameSpan, hole_spans->len - 1) : NULL;
          if (last != NULL && last->start + last->n_frames == b)
            last->n_frames += BLOCK_FRAMES;
          else
            {
              PgsFrameSpan s = { b, BLOCK_FRAMES, PGS_CATEGORY_HOLE };

              g_array_append_val (hole_spans, s);
            }
          holes += BLOCK_FRAMES;
        }
      if (holes > 0 && holes <= zone->spanned - zone->present)
        g_array_append_vals (spans, hole_spans->data, hole_spans->len);
    }

  /* 3. Reconcile the tails with what the kernel counts as memory. */
  counted = tail_frames;
  if (meminfo != NULL && PGS_MEMINFO_HAS (meminfo, PGS_MEMINFO_MEM_TOTAL))
    {
      guint64 total = meminfo->value[PGS_MEMINFO_MEM_TOTAL] / MAX (page_size, 1);

      counted = total > managed ? MIN (total - managed, tail_frames) : 0;
    }
  {
    guint64 excess = tail_frames - counted;

    /* Highest tails first: the uncounted frames are the top of memory. */
    for (guint i = tails->len; i-- > 0 && excess > 0;)
      {
        PgsFrameSpan *t = &g_array_index (tails, PgsFrameSpan, i);
        guint64 take = MIN (excess, t->n_frames);

        t->n_frames -= take;
        excess -= take;
      }
  }
  for (guint i = 0; i < tails->len; i++)
    if (g_array_index (tails, PgsFrameSpan, i).n_frames > 0)
      g_array_append_val (spans, g_array_index (tails, PgsFrameSpan, i));

  g_array_sort (spans, compare_spans);
  return spans;
}

static const struct
{
  const char *kernel_label;
  const char *map_label;
  guint32     categories;   /* bit per PgsCategory */
} counter_info[PGS_N_COUNTERS] = {
#define C(x) (1u << PGS_CATEGORY_##x)
  [PGS_COUNTER_FREE] = { N_("MemFree"), N_("Free + not yet initialised"),
                         C (FREE) | C (FREE_UNINIT) },
  [PGS_COUNTER_CACHED] = { N_("Cached + Buffers"), N_("page cache, dirty, shmem; not unevictable"),
                           C (FILE_ACTIVE) | C (FILE_INACTIVE) | C (DIRTY) | C (SHMEM) },
  [PGS_COUNTER_ANON] = { N_("AnonPages"), N_("anonymous, huge, KSM; not unevictable"),
                         C (ANON) | C (ANON_THP) | C (KSM) },
  [PGS_COUNTER_SHMEM] = { N_("Shmem"), N_("shared memory; not unevictable"), C (SHMEM) },
  [PGS_COUNTER_SLAB] = { N_("Slab"), N_("slab"), C (SLAB) },
  [PGS_COUNTER_PAGE_TABLES] = { N_("PageTables"), N_("page table"), C (PAGE_TABLE) },
  [PGS_COUNTER_HUGETLB] = { N_("HugeTLB"), N_("HugeTLB"), C (HUGETLB) },
  [PGS_COUNTER_UNEVICTABLE] = { N_("Unevictable"), N_("unevictable or locked, of any kind"),
                                C (UNEVICTABLE) },
  [PGS_COUNTER_KERNEL_STACK] = { N_("KernelStack"), NULL, 0 },
  [PGS_COUNTER_UNACCOUNTED] = { N_("Kernel, not otherwise accounted"), NULL, 0 },
#undef C
};

void
pgs_counter_get_row (PgsCounter        counter,
                     const PgsMeminfo *meminfo,
                     const guint64    *category_counts,
                     guint             page_size,
                     PgsCounterRow    *row)
{
  static const PgsMeminfoField kernel_fields[PGS_N_COUNTERS][2] = {
    [PGS_COUNTER_FREE] = { PGS_MEMINFO_MEM_FREE, PGS_MEMINFO_N_FIELDS },
    [PGS_COUNTER_CACHED] = { PGS_MEMINFO_CACHED, PGS_MEMINFO_BUFFERS },
    [PGS_COUNTER_ANON] = { PGS_MEMINFO_ANON_PAGES, PGS_MEMINFO_N_FIELDS },
    [PGS_COUNTER_SHMEM] = { PGS_MEMINFO_SHMEM, PGS_MEMINFO_N_FIELDS },
    [PGS_COUNTER_SLAB] = { PGS_MEMINFO_SLAB, PGS_MEMINFO_N_FIELDS },
    [PGS_COUNTER_PAGE_TABLES] = { PGS_MEMINFO_PAGE_TABLES, PGS_MEMINFO_N_FIELDS },
    [PGS_COUNTER_HUGETLB] = { PGS_MEMINFO_HUGETLB, PGS_MEMINFO_N_FIELDS },
    [PGS_COUNTER_UNEVICTABLE] = { PGS_MEMINFO_UNEVICTABLE, PGS_MEMINFO_N_FIELDS },
    [PGS_COUNTER_KERNEL_STACK] = { PGS_MEMINFO_KERNEL_STACK, PGS_MEMINFO_N_FIELDS },
    [PGS_COUNTER_UNACCOUNTED] = { PGS_MEMINFO_N_FIELDS, PGS_MEMINFO_N_FIELDS },
  };

  g_return_if_fail (counter < PGS_N_COUNTERS);
  g_return_if_fail (row != NULL);

  memset (row, 0, sizeof *row);
  row->kernel_label = g_dgettext (GETTEXT_PACKAGE, counter_info[counter].kernel_label);
  row->map_label = counter_info[counter].map_label != NULL
                   ? g_dgettext (GETTEXT_PACKAGE, counter_info[counter].map_label) : NULL;

  if (meminfo != NULL && counter == PGS_COUNTER_UNACCOUNTED)
    {
      /* MemTotal less everything named: vmalloc, percpu, per-CPU free lists, drivers. Shmem
       * is inside Cached, so not subtracted again. */
      static const PgsMeminfoField named[] = {
        PGS_MEMINFO_MEM_FREE, PGS_MEMINFO_BUFFERS, PGS_MEMINFO_CACHED,
        PGS_MEMINFO_SWAP_CACHED, PGS_MEMINFO_ANON_PAGES, PGS_MEMINFO_SLAB,
        PGS_MEMINFO_PAGE_TABLES, PGS_MEMINFO_KERNEL_STACK, PGS_MEMINFO_HUGETLB,
      };
      guint64 sum = 0;

      row->has_kernel = TRUE;
      for (guint i = 0; i < G_N_ELEMENTS (named); i++)
        {
          if (!PGS_MEMINFO_HAS (meminfo, named[i]))
            row->has_kernel = FALSE;
          sum += meminfo->value[named[i]];
        }
      /* The counters are read one by one and move meanwhile: never below zero. */
      row->kernel_bytes = meminfo->value[PGS_MEMINFO_MEM_TOTAL] > sum
                          ? meminfo->value[PGS_MEMINFO_MEM_TOTAL] - sum : 0;
    }
  else if (meminfo != NULL)
    {
      row->has_kernel = TRUE;
      for (guint i = 0; i < 2; i++)
        {
          PgsMeminfoField f = kernel_fields[counter][i];

          if (f == PGS_MEMINFO_N_FIELDS)
            continue;
          if (!PGS_MEMINFO_HAS (meminfo, f))
            row->has_kernel = FALSE;
          row->kernel_bytes += meminfo->value[f];
        }
    }

  if (category_counts != NULL && counter_info[counter].categories != 0)
    {
      row->has_map = TRUE;
      for (guint c = 0; c < PGS_N_CATEGORIES; c++)
        if (counter_info[counter].categories & (1u << c))
          row->map_bytes += category_counts[c] * page_size;
    }
}

char *
pgs_counter_format_row (const PgsCounterRow *row)
{
  g_autofree char *kernel = NULL;
  g_autofree char *map = NULL;

  g_return_val_if_fail (row != NULL, NULL);

  kernel = row->has_kernel ? pgs_format_size (row->kernel_bytes) : g_strdup (_("unknown"));
  if (row->map_label == NULL)
    /* Translators: a kernel counter with no page flag of its own, e.g. "KernelStack 1.6 MiB
     * (no flag: in Reserved or other kernel)". */
    return g_strdup_printf (_("%s %s (no flag: in Reserved or other kernel)"),
                            row->kernel_label, kernel);
  map = row->has_map ? pgs_format_size (row->map_bytes) : g_strdup (_("unknown"));
  /* Translators: "MemFree 23.4 GiB · map 23.5 GiB (Free + not yet initialised)". */
  return g_strdup_printf (_("%s %s · map %s (%s)"), row->kernel_label, kernel, map,
                          row->map_label);
}
