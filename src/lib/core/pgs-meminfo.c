/* pgs-meminfo.c
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <gio/gio.h>
#include <glib/gi18n-lib.h>
#include <string.h>

#include "pgs-format.h"
#include "pgs-kpage.h"
#include "pgs-meminfo.h"

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
