/* test-physmap.c: this machine's physical map, drawn, against the kernel's own files
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The test reads /proc/kpageflags and /proc/kpagecount itself, before and after the scan,
 * and classifies every frame with its own copy of the documented precedence; the
 * renderer's per-colour counts must fall between the two readings (memory moves a little
 * while a machine runs, so give or take a small slack). Root only: exits 77 without.
 */

#include "config.h"

#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include <pagescope.h>

#include "pgs-kernel-util.h"
#include "pgs-kpage.h"

#define KPF(f) PGS_KPF_BIT (PGS_KPF_##f)

static GArray *
read_kpage (const char *path)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (guint64));
  guint64 buf[8192];
  int fd = open (path, O_RDONLY | O_CLOEXEC);
  ssize_t n;

  g_assert_cmpint (fd, >=, 0);
  while ((n = read (fd, buf, sizeof buf)) > 0)
    g_array_append_vals (out, buf, n / 8);
  g_assert_cmpint (n, ==, 0);
  close (fd);
  return out;
}

/* pagemap.rst's precedence, as in test-category.c, with tails following their head. */
static guint
own_category (guint64 f)
{
  if (f & KPF (NOPAGE)) return PGS_CATEGORY_HOLE;
  if (f & KPF (ZERO_PAGE)) return PGS_CATEGORY_ZERO_PAGE;
  if (f & KPF (BUDDY)) return PGS_CATEGORY_FREE;
  if (f & (KPF (RESERVED) | KPF (OFFLINE) | KPF (HWPOISON))) return PGS_CATEGORY_RESERVED;
  if (f & KPF (SLAB)) return PGS_CATEGORY_SLAB;
  if (f & KPF (PGTABLE)) return PGS_CATEGORY_PAGE_TABLE;
  if (f & KPF (HUGE)) return PGS_CATEGORY_HUGETLB;
  if ((f & KPF (KSM)) && (f & KPF (ANON))) return PGS_CATEGORY_KSM;
  if (f & (KPF (UNEVICTABLE) | KPF (MLOCKED))) return PGS_CATEGORY_UNEVICTABLE;
  if ((f & KPF (ANON)) && (f & KPF (THP))) return PGS_CATEGORY_ANON_THP;
  if (f & KPF (ANON)) return PGS_CATEGORY_ANON;
  if (f & KPF (SWAPBACKED)) return PGS_CATEGORY_SHMEM;
  if (f & (KPF (DIRTY) | KPF (WRITEBACK))) return PGS_CATEGORY_DIRTY;
  if ((f & KPF (LRU)) && (f & KPF (ACTIVE))) return PGS_CATEGORY_FILE_ACTIVE;
  if (f & KPF (LRU)) return PGS_CATEGORY_FILE_INACTIVE;
  return G_MAXUINT;  /* nothing telling: a tail follows its head, anything else is "other" */
}

static void
count_categories (const guint64 *flags,
                  guint64        n,
                  guint64       *counts)
{
  guint head = PGS_CATEGORY_RESERVED;

  for (guint64 i = 0; i < n; i++)
    {
      guint c = own_category (flags[i]);

      if (c == G_MAXUINT)
        c = (flags[i] & KPF (COMPOUND_TAIL)) ? head : PGS_CATEGORY_RESERVED;
      if (flags[i] & KPF (COMPOUND_HEAD))
        head = c;
      counts[c]++;
    }
}

/* Map count classes: 0, 1, 2, 3-4, 5-8, … with hole and free apart. */
static guint
own_share_class (guint64 count,
                 guint64 flags)
{
  guint k = PGS_SHARE_1;

  if (count == 0)
    return (flags & KPF (NOPAGE)) ? PGS_SHARE_HOLE
           : (flags & KPF (BUDDY)) ? PGS_SHARE_FREE : PGS_SHARE_0;
  for (guint64 top = 1; top < count && k < PGS_SHARE_129_PLUS; top *= 2)
    k++;
  return k;
}

static gboolean
within (guint64 got,
        guint64 a,
        guint64 b)
{
  /* Memory moves while the test runs: allow a little around the two readings, and as much
   * again as moved between them. */
  guint64 lo = MIN (a, b), hi = MAX (a, b), slack = 2048 + hi / 50 + (hi - lo);

  return got + slack >= lo && got <= hi + slack;
}

/* Returns FALSE (with a message) when a live count is off; exact checks assert. */
static gboolean
counts_match_kernel (char **why)
{
  g_autoptr(GArray) flags_before = read_kpage ("/proc/kpageflags");
  g_autoptr(GArray) counts_before = read_kpage ("/proc/kpagecount");
  g_autoptr(GArray) flags_after = NULL;
  g_autoptr(GArray) counts_after = NULL;
  g_autoptr(PgsScanner) scanner = pgs_scanner_new ();
  g_autoptr(PgsSnapshot) snapshot = NULL;
  g_autoptr(PgsRenderer) flags_view = NULL;
  g_autoptr(PgsRenderer) sharing_view = NULL;
  g_autoptr(GError) error = NULL;
  guint64 before[PGS_N_CATEGORIES] = { 0 }, after[PGS_N_CATEGORIES] = { 0 };
  guint64 exact[PGS_N_CATEGORIES] = { 0 };
  guint64 share_before[PGS_N_SHARE_CLASSES] = { 0 }, share_after[PGS_N_SHARE_CLASSES] = { 0 };
  PgsPhysMap *physmap;
  guint64 total = 0;

  pgs_scanner_set_flags (scanner, PGS_SCAN_PHYSMAP);
  pgs_scanner_set_pids (scanner, (const int[]) { getpid () }, 1);
  snapshot = pgs_scanner_scan (scanner, NULL, &error);
  g_assert_no_error (error);
  flags_after = read_kpage ("/proc/kpageflags");
  counts_after = read_kpage ("/proc/kpagecount");

  physmap = pgs_snapshot_get_physmap (snapshot);
  g_assert_nonnull (physmap);
  g_assert_cmpuint (pgs_physmap_get_n_frames (physmap), ==, flags_before->len);
  g_assert_cmpuint (flags_after->len, ==, flags_before->len);

  count_categories ((guint64 *) (void *) flags_before->data, flags_before->len, before);
  count_categories ((guint64 *) (void *) flags_after->data, flags_after->len, after);
  /* And the very words the snapshot holds: there the counts must agree exactly. */
  count_categories (pgs_physmap_get_flags (physmap), pgs_physmap_get_n_frames (physmap), exact);
  for (guint i = 0; i < flags_before->len; i++)
    {
      share_before[own_share_class (g_array_index (counts_before, guint64, i),
                                    g_array_index (flags_before, guint64, i))]++;
      share_after[own_share_class (g_array_index (counts_after, guint64, i),
                                   g_array_index (flags_after, guint64, i))]++;
    }

  flags_view = pgs_renderer_new (snapshot, PGS_VIEW_FLAGS);
  sharing_view = pgs_renderer_new (snapshot, PGS_VIEW_SHARING);
  for (guint c = 0; c < PGS_N_CATEGORIES; c++)
    {
      guint64 n;

      pgs_renderer_get_legend_item (flags_view, c, NULL, NULL, &n);
      g_test_message ("%-14s renderer %8" G_GUINT64_FORMAT "  kernel %8" G_GUINT64_FORMAT
                      " .. %8" G_GUINT64_FORMAT, pgs_category_get_id (c), n, before[c], after[c]);
      /* Frames the kernel's counters decide (never initialised, holes with a memmap) are
       * flagless: by their flags alone, "reserved or other kernel". Those three are
       * compared as one here, and the free figure against MemFree below. */
      if (c == PGS_CATEGORY_HOLE || c == PGS_CATEGORY_FREE_UNINIT || c == PGS_CATEGORY_RESERVED)
        {
          guint64 m = 0;

          if (c != PGS_CATEGORY_RESERVED)
            {
              total += n;
              continue;
            }
          for (guint d = 0; d < PGS_N_CATEGORIES; d++)
            if (d == PGS_CATEGORY_HOLE || d == PGS_CATEGORY_FREE_UNINIT || d == PGS_CATEGORY_RESERVED)
              {
                pgs_renderer_get_legend_item (flags_view, d, NULL, NULL, &n);
                m += n;
              }
          g_assert_cmpuint (m, ==, exact[PGS_CATEGORY_HOLE] + exact[PGS_CATEGORY_RESERVED]);
          pgs_renderer_get_legend_item (flags_view, c, NULL, NULL, &n);
          total += n;
          continue;
        }
      g_assert_cmpuint (n, ==, exact[c]);
      if (!within (n, before[c], after[c]))
        {
          *why = g_strdup_printf ("%s: %" G_GUINT64_FORMAT " frames, the kernel said %"
                                  G_GUINT64_FORMAT " then %" G_GUINT64_FORMAT,
                                  pgs_category_get_id (c), n, before[c], after[c]);
          return FALSE;
        }
      total += n;
    }
  g_assert_cmpuint (total, ==, flags_before->len);

  for (guint k = 0; k < PGS_N_SHARE_CLASSES; k++)
    {
      guint64 n;

      pgs_renderer_get_legend_item (sharing_view, k, NULL, NULL, &n);
      /* As for the categories: frames the counters decide (hole, free) are "0" by their
       * flags and map count; those three classes are compared as one. */
      if (k == PGS_SHARE_HOLE || k == PGS_SHARE_FREE)
        continue;
      if (k == PGS_SHARE_0)
        {
          guint64 m;

          for (guint j = PGS_SHARE_HOLE; j <= PGS_SHARE_FREE; j++)
            {
              pgs_renderer_get_legend_item (sharing_view, j, NULL, NULL, &m);
              n += m;
              share_before[k] += share_before[j];
              share_after[k] += share_after[j];
            }
        }
      g_test_message ("share %-8s renderer %8" G_GUINT64_FORMAT "  kernel %8" G_GUINT64_FORMAT
                      " .. %8" G_GUINT64_FORMAT, pgs_share_class_get_id (k), n,
                      share_before[k], share_after[k]);
      if (!within (n, share_before[k], share_after[k]))
        {
          *why = g_strdup_printf ("map count %s: %" G_GUINT64_FORMAT " frames, the kernel said %"
                                  G_GUINT64_FORMAT " then %" G_GUINT64_FORMAT,
                                  pgs_share_class_get_id (k), n, share_before[k], share_after[k]);
          return FALSE;
        }
    }
  return TRUE;
}

/* A burst of activity elsewhere (a build) can move tens of thousands of frames between
 * two reads; three tries tell that from a wrong count, which is wrong every time. */
static void
check_three_times (gboolean (*check) (char **why))
{
  for (guint attempt = 0; attempt < 3; attempt++)
    {
      g_autofree char *why = NULL;

      if (check (&why))
        return;
      g_test_message ("attempt %u: %s", attempt + 1, why);
      if (attempt == 2)
        g_error ("%s", why);
      g_usleep (G_USEC_PER_SEC / 2);
    }
}

static void
test_counts_match_kernel (void)
{
  check_three_times (counts_match_kernel);
}

/* This process's own pages: a buffer it wrote is private anonymous memory, drawn where
 * the hit test says, and the reverse lookup finds it from its frame. */
static void
test_own_process (void)
{
  const gsize n_pages = 256;
  gsize ps = sysconf (_SC_PAGESIZE);
  guint8 *buf = mmap (NULL, n_pages * ps, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  g_autoptr(PgsScanner) scanner = pgs_scanner_new ();
  g_autoptr(PgsSnapshot) snapshot = NULL;
  g_autoptr(PgsRenderer) residency = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) users = NULL;
  PgsProcess *self;
  PgsPageInfo info;
  PgsHit hit;
  guint64 private_anon;
  gboolean found = FALSE, found_pixel = FALSE;

  g_assert_true (buf != MAP_FAILED);
  memset (buf, 0x5a, n_pages * ps);

  pgs_scanner_set_flags (scanner, PGS_SCAN_MAPPINGS | PGS_SCAN_PAGES | PGS_SCAN_PHYSMAP);
  pgs_scanner_set_pids (scanner, (const int[]) { getpid () }, 1);
  snapshot = pgs_scanner_scan (scanner, NULL, &error);
  g_assert_no_error (error);
  self = pgs_snapshot_lookup_pid (snapshot, getpid ());
  g_assert_nonnull (self);

  residency = pgs_renderer_new (snapshot, PGS_VIEW_RESIDENCY);
  pgs_renderer_set_process (residency, self);
  pgs_renderer_get_legend_item (residency, PGS_RES_PRIVATE_ANON, NULL, NULL, &private_anon);
  g_assert_cmpuint (private_anon, >=, n_pages);

  /* The buffer's first frame: its users are this process at the buffer's address, and the
   * flags view says anonymous (or anonymous huge page) and highlights it. */
  g_assert_true (pgs_process_lookup_page (self, (guint64) (guintptr) buf, &info));
  g_assert_true (info.entry != 0);
  users = pgs_snapshot_find_frame_users (snapshot, info.entry & ((G_GUINT64_CONSTANT (1) << 55) - 1));
  for (guint i = 0; i < users->len; i++)
    found |= g_array_index (users, PgsFrameUser, i).pid == getpid () &&
             g_array_index (users, PgsFrameUser, i).address == (guint64) (guintptr) buf;
  g_assert_true (found);

  /* The pixel of the buffer's first page on the residency map: its frame, anonymous. Under
   * a sanitizer the address space holds terabytes of shadow reservations and 512 x 512
   * pixels cannot give a page its own cell: the hit test then names another page. */
  if (pgs_renderer_get_pages_per_pixel (residency, 512, 512) > 1)
    {
      g_test_message ("residency aggregates %" G_GUINT64_FORMAT " pages a pixel here; "
                      "no single-page pixel to look for",
                      pgs_renderer_get_pages_per_pixel (residency, 512, 512));
      munmap (buf, n_pages * ps);
      return;
    }
  for (int y = 0; y < 512 && !found_pixel; y++)
    for (int x = 0; x < 512 && !found_pixel; x++)
      if (pgs_renderer_hit_test (residency, 512, 512, x + 0.5, y + 0.5, &hit) &&
          hit.address == (guint64) (guintptr) buf)
        found_pixel = TRUE;
  g_assert_true (found_pixel);
  g_assert_cmpuint (hit.pfn, ==, info.entry & ((G_GUINT64_CONSTANT (1) << 55) - 1));
  g_assert_true (hit.category == PGS_CATEGORY_ANON || hit.category == PGS_CATEGORY_ANON_THP);
  g_assert_cmpuint (hit.legend_index, ==, PGS_RES_PRIVATE_ANON);
  munmap (buf, n_pages * ps);
}

static void
test_pngs (void)
{
  g_autoptr(PgsScanner) scanner = pgs_scanner_new ();
  g_autoptr(PgsSnapshot) snapshot = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("pgs-physmap-XXXXXX", &error);
  static const PgsView views[] = { PGS_VIEW_RESIDENCY, PGS_VIEW_SHARING, PGS_VIEW_FLAGS };

  g_assert_no_error (error);
  pgs_scanner_set_flags (scanner, PGS_SCAN_MAPPINGS | PGS_SCAN_PAGES | PGS_SCAN_PHYSMAP);
  pgs_scanner_set_pids (scanner, (const int[]) { getpid () }, 1);
  snapshot = pgs_scanner_scan (scanner, NULL, &error);
  g_assert_no_error (error);

  for (guint v = 0; v < G_N_ELEMENTS (views); v++)
    for (PgsLayout layout = PGS_LAYOUT_LINEAR; layout <= PGS_LAYOUT_HILBERT; layout++)
      {
        g_autoptr(PgsRenderer) renderer = pgs_renderer_new (snapshot, views[v]);
        g_autofree char *path = g_strdup_printf ("%s/%u-%u.png", dir, v, layout);
        cairo_surface_t *surface;

        pgs_renderer_set_layout (renderer, layout);
        pgs_renderer_set_process (renderer, pgs_snapshot_lookup_pid (snapshot, getpid ()));
        g_assert_true (pgs_renderer_write_png (renderer, path, 1920, 1080, FALSE, &error));
        g_assert_no_error (error);
        surface = cairo_image_surface_create_from_png (path);
        g_assert_cmpint (cairo_surface_status (surface), ==, CAIRO_STATUS_SUCCESS);
        g_assert_cmpint (cairo_image_surface_get_width (surface), ==, 1920);
        g_assert_cmpint (cairo_image_surface_get_height (surface), ==, 1080);
        cairo_surface_destroy (surface);
        g_unlink (path);
      }
  g_rmdir (dir);
}

/* /proc/meminfo read by the test itself, in kB. */
static gboolean
own_meminfo (const char *key,
             guint64    *kb)
{
  g_autofree char *text = NULL;
  g_autofree char *needle = g_strdup_printf ("\n%s:", key);
  const char *p;

  g_autofree char *body = NULL;

  g_assert_true (g_file_get_contents ("/proc/meminfo", &body, NULL, NULL));
  text = g_strconcat ("\n", body, NULL);
  p = strstr (text, needle);
  if (p == NULL)
    return FALSE;
  *kb = g_ascii_strtoull (p + strlen (needle), NULL, 10);
  return TRUE;
}

static guint64
own_meminfo_sum (const char *const *keys)
{
  guint64 sum = 0, kb;

  for (guint i = 0; keys[i] != NULL; i++)
    if (own_meminfo (keys[i], &kb))
      sum += kb;
  return sum;
}

/* The map's free frames (free + never initialised) against MemFree, read right before and
 * right after the frames: within 2 % of MemTotal, plus what MemFree itself moved meanwhile.
 * And the other categories that have a counter, each within the tolerance said beside it. */
static gboolean
counters_match (char **why)
{
  static const char *const k_free[] = { "MemFree", NULL };
  static const char *const k_cached[] = { "Cached", "Buffers", NULL };
  static const char *const k_anon[] = { "AnonPages", NULL };
  static const char *const k_shmem[] = { "Shmem", NULL };
  static const char *const k_slab[] = { "SReclaimable", "SUnreclaim", NULL };
  static const char *const k_pt[] = { "PageTables", "SecPageTables", NULL };
  static const char *const k_unevictable[] = { "Unevictable", NULL };
  static const char *const k_swapcached[] = { "SwapCached", NULL };
  static const struct
  {
    const char *const *keys;
    guint32            categories;
    gboolean           unevictable_slack;  /* these pages may sit in "unevictable" instead */
  } rows[] = {
#define C(x) (1u << PGS_CATEGORY_##x)
    { k_free, C (FREE) | C (FREE_UNINIT), FALSE },
    { k_cached, C (FILE_ACTIVE) | C (FILE_INACTIVE) | C (DIRTY) | C (SHMEM), TRUE },
    { k_anon, C (ANON) | C (ANON_THP) | C (KSM), TRUE },
    { k_shmem, C (SHMEM), TRUE },
    { k_slab, C (SLAB), FALSE },
    { k_pt, C (PAGE_TABLE), FALSE },
#undef C
  };
  g_autoptr(PgsScanner) scanner = pgs_scanner_new ();
  g_autoptr(PgsSnapshot) snapshot = NULL;
  g_autoptr(PgsRenderer) view = NULL;
  g_autoptr(GError) error = NULL;
  guint64 before[G_N_ELEMENTS (rows)], after[G_N_ELEMENTS (rows)];
  guint64 total_kb = 0, unevictable_kb, swapcached_kb, ps_kb = sysconf (_SC_PAGESIZE) / 1024;
  guint64 ncpu = sysconf (_SC_NPROCESSORS_CONF);

  g_assert_true (own_meminfo ("MemTotal", &total_kb));
  for (guint r = 0; r < G_N_ELEMENTS (rows); r++)
    before[r] = own_meminfo_sum (rows[r].keys);
  pgs_scanner_set_flags (scanner, PGS_SCAN_PHYSMAP);
  pgs_scanner_set_pids (scanner, (const int[]) { getpid () }, 1);
  snapshot = pgs_scanner_scan (scanner, NULL, &error);
  g_assert_no_error (error);
  for (guint r = 0; r < G_N_ELEMENTS (rows); r++)
    after[r] = own_meminfo_sum (rows[r].keys);
  unevictable_kb = own_meminfo_sum (k_unevictable);
  swapcached_kb = own_meminfo_sum (k_swapcached);
  g_assert_nonnull (pgs_physmap_get_meminfo (pgs_snapshot_get_physmap (snapshot)));

  view = pgs_renderer_new (snapshot, PGS_VIEW_FLAGS);
  for (guint r = 0; r < G_N_ELEMENTS (rows); r++)
    {
      guint64 map_kb = 0, lo = MIN (before[r], after[r]), hi = MAX (before[r], after[r]);
      guint64 tolerance;

      for (guint c = 0; c < PGS_N_CATEGORIES; c++)
        if (rows[r].categories & (1u << c))
          {
            guint64 n;

            pgs_renderer_get_legend_item (view, c, NULL, NULL, &n);
            map_kb += n * ps_kb;
          }
      if (r == 0)
        /* The brief's bound: 2 % of MemTotal, and what MemFree moved during the read. */
        tolerance = total_kb / 50;
      else
        /* The kernel's counters are per-CPU batched (vmstat: up to 125 pages per CPU and
         * zone behind, 3 zones); pages on the unevictable LRU are shown as such, not as
         * their kind (shmem here: Shmem 9.5 MiB, all of it unevictable); anonymous pages
         * in the swap cache carry ANON but count as SwapCached; and 10 % of the counter
         * for what moves while the frames are read one by one over ~0.2 s (the drift
         * between the two readings is allowed on top) and for slab: on 6.18 the SLAB
         * frames came to 93 % of SReclaimable + SUnreclaim. */
        tolerance = 125 * ncpu * 3 * ps_kb + hi / 10
                    + (rows[r].unevictable_slack ? unevictable_kb + swapcached_kb : 0);
      g_test_message ("%-12s kernel %10" G_GUINT64_FORMAT " .. %10" G_GUINT64_FORMAT
                      " kB  map %10" G_GUINT64_FORMAT " kB  tolerance %" G_GUINT64_FORMAT " kB",
                      rows[r].keys[0], before[r], after[r], map_kb, tolerance);
      if (map_kb + tolerance < lo || map_kb > hi + tolerance)
        {
          *why = g_strdup_printf ("%s: map %" G_GUINT64_FORMAT " kB, kernel %" G_GUINT64_FORMAT
                                  " .. %" G_GUINT64_FORMAT " kB, tolerance %" G_GUINT64_FORMAT
                                  " kB", rows[r].keys[0], map_kb, before[r], after[r], tolerance);
          return FALSE;
        }
    }
  return TRUE;
}

static void
test_counters_match (void)
{
  check_three_times (counters_match);
}

/* Frames the counters decide are flagless in the very words read, and never more than the
 * kernel's own zoneinfo allows (present - managed, spanned - present). */
static void
test_spans_are_flagless (void)
{
  g_autoptr(PgsPhysMap) physmap = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *zoneinfo = NULL;
  const PgsFrameSpan *spans;
  const guint64 *flags;
  const guint32 *counts;
  guint n_spans;
  guint64 uninit = 0, holes = 0, unmanaged = 0, absent = 0;
  const char *p;

  physmap = pgs_physmap_read (NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_null (pgs_physmap_get_counters_error (physmap));
  flags = pgs_physmap_get_flags (physmap);
  counts = pgs_physmap_get_counts (physmap);
  spans = pgs_physmap_get_spans (physmap, &n_spans);
  for (guint i = 0; i < n_spans; i++)
    {
      for (guint64 f = spans[i].start; f < spans[i].start + spans[i].n_frames; f++)
        if (flags[f] != 0 || counts[f] != 0)
          g_error ("frame %" G_GUINT64_FORMAT " in a span has flags %" G_GINT64_MODIFIER "x",
                   f, flags[f]);
      if (spans[i].category == PGS_CATEGORY_FREE_UNINIT)
        uninit += spans[i].n_frames;
      else
        holes += spans[i].n_frames;
    }

  /* Sum the zones with the test's own reading of zoneinfo. */
  g_assert_true (g_file_get_contents ("/proc/zoneinfo", &zoneinfo, NULL, NULL));
  for (p = zoneinfo; (p = strstr (p, "\n        spanned")) != NULL; p++)
    {
      guint64 spanned = g_ascii_strtoull (p + 16, NULL, 10);
      const char *q = strstr (p, "present"), *m = strstr (p, "managed");
      guint64 present = g_ascii_strtoull (q + 7, NULL, 10);
      guint64 managed = g_ascii_strtoull (m + 7, NULL, 10);

      unmanaged += present - managed;
      absent += spanned - present;
    }
  g_test_message ("never initialised %" G_GUINT64_FORMAT " (present - managed %" G_GUINT64_FORMAT
                  "), holes %" G_GUINT64_FORMAT " (spanned - present %" G_GUINT64_FORMAT ")",
                  uninit, unmanaged, holes, absent);
  g_assert_cmpuint (uninit, <=, unmanaged);
  g_assert_cmpuint (holes, <=, absent);
}

int
main (int    argc,
      char **argv)
{
  pgs_kernel_require_root ();
  if (access ("/proc/kpageflags", R_OK) != 0)
    return 77;

  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/pgs/kernel/physmap/counts-match-kernel", test_counts_match_kernel);
  g_test_add_func ("/pgs/kernel/physmap/own-process", test_own_process);
  g_test_add_func ("/pgs/kernel/physmap/counters-match", test_counters_match);
  g_test_add_func ("/pgs/kernel/physmap/spans-are-flagless", test_spans_are_flagless);
  g_test_add_func ("/pgs/kernel/physmap/pngs", test_pngs);
  return g_test_run ();
}
