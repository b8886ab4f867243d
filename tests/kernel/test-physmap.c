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
test_counts_match_kernel (void)
{
  for (guint attempt = 0; attempt < 3; attempt++)
    {
      g_autofree char *why = NULL;

      if (counts_match_kernel (&why))
        return;
      g_test_message ("attempt %u: %s", attempt + 1, why);
      if (attempt == 2)
        g_error ("%s", why);
      g_usleep (G_USEC_PER_SEC / 2);
    }
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
  g_test_add_func ("/pgs/kernel/physmap/pngs", test_pngs);
  return g_test_run ();
}
