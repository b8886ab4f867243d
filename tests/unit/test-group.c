/* test-group.c: memrank --group-by on a fixture tree, every figure worked out by hand
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Two users, three cgroups (one a GNOME app scope), a library mapped by three processes,
 * a memfd shared only inside the app, a shm page shared with an outsider, a frame one
 * process maps twice, the zero page and a swapped page. PS is the page size; F = PS << 12
 * is a page in the kernel's PSS fixed point.
 *
 *   frame        count  mapped by
 *   70, 71       3      100, 101, 200   /usr/lib/libshared.so (r-xp)
 *   80, 81, 82   2      101, 102        /memfd:buffers (deleted) (rw-s)
 *   85           2      102, 200        /dev/shm/ipc (rw-s)
 *   86           2      100 twice       /data/table (two r--s mappings of one page)
 *   90..93       1      101             anonymous, exclusive
 *   94, 95       1      102             anonymous, exclusive (+1 page swapped out)
 *   96           1      100             anonymous, exclusive
 *   97, 98       1      200             anonymous, exclusive
 *   99           0      101             the zero page (not in RSS)
 *
 *   pid  uid   cgroup                                         pages RSS  PSS (fixed point)        USS  VSS  swap
 *   100  4242  …/session-3.scope                              5         2F/3·… see below          1    5    0
 *   101  4242  …/app-gnome-org.example.My\x2dEditor-7.scope   9                                   4    10   0
 *   102  4242  (same app scope)                               6                                   2    7    1
 *   200  4343  /system.slice/foo.service                      5                                   2    5    0
 *
 *   PSS_fp(100) = 2·⌊F/3⌋ + F + 2·(F/2)            = 2·⌊F/3⌋ + 2F
 *   PSS_fp(101) = 2·⌊F/3⌋ + 3·(F/2) + 4F           = 2·⌊F/3⌋ + 5.5F
 *   PSS_fp(102) = 3·(F/2) + 2F + F/2               = 4F
 *   PSS_fp(200) = 2·⌊F/3⌋ + 2F + F/2               = 2·⌊F/3⌋ + 2.5F
 *
 * Private (pages whose every mapping is a member's):
 *   user 4242 {100,101,102}: exclusive 1+4+2, frame 86 (2 of 2), memfd 80–82 (2 of 2) = 11
 *                            (not 70, 71: 2 of 3; not 85: 1 of 2)
 *   user 4343 {200}:         exclusive 2 = 2
 *   session-3.scope {100}:   exclusive 1 + frame 86 = 2
 *   app {101,102}:           exclusive 4+2 + memfd 3 = 9
 *   foo.service {200}:       2
 */

#include "config.h"

#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib/gstdio.h>
#include <pagescope.h>

#include "pgs-fixture.h"
#include "pgs-test-cli.h"
#include "pgs-kpage.h"

#define KPF(f) PGS_KPF_BIT (PGS_KPF_##f)
#define BASE   G_GUINT64_CONSTANT (0x10000000)

#define SESSION_CG "/user.slice/user-4242.slice/session-3.scope"
#define APP_CG     "/user.slice/user-4242.slice/user@4242.service/app.slice/" \
                   "app-gnome-org.example.My\\x2dEditor-7.scope"
#define SERVICE_CG "/system.slice/foo.service"

static guint64 PS;
static guint64 F;
static char *data_dir;

static void
add (PgsFixture *fx,
     int         pid,
     guint       uid,
     int         ppid,
     const char *cgroup)
{
  g_autofree char *rel = g_strdup_printf ("%d/cgroup", pid);
  /* A hybrid hierarchy, as systemd's "hybrid" mode writes it: v1 lines first. */
  g_autofree char *text = g_strdup_printf ("12:memory:/foo\n1:name=systemd:%s\n0::%s\n",
                                           cgroup, cgroup);

  g_autofree char *status_rel = g_strdup_printf ("%d/status", pid);
  g_autofree char *status_path = NULL;
  g_autofree char *status = NULL;
  g_autoptr(GString) fixed = NULL;

  pgs_fixture_add_process (fx, pid, pid == 200 ? "daemon" : "editor", uid, FALSE);
  pgs_fixture_set_parent (fx, pid, ppid);
  pgs_fixture_write (fx, rel, text, -1);

  /* The fixture's default VmRSS (100 kB) is more than these processes map (20-40 KiB), which
   * the scanner rightly refuses as a maps file cut short: say 8 kB, as status could. */
  status_path = g_build_filename (pgs_fixture_get_root (fx), status_rel, NULL);
  g_assert_true (g_file_get_contents (status_path, &status, NULL, NULL));
  fixed = g_string_new (status);
  g_assert_cmpuint (g_string_replace (fixed, "VmRSS:\t     100 kB", "VmRSS:\t       8 kB", 1), ==, 1);
  pgs_fixture_write (fx, status_rel, fixed->str, -1);
}

static void
map (PgsFixture    *fx,
     int            pid,
     guint64        page,
     const char    *perms,
     const char    *path,
     const guint64 *entries,
     gsize          n)
{
  pgs_fixture_add_mapping (fx, pid, BASE + page * PS, BASE + (page + n) * PS, perms, path);
  pgs_fixture_set_pages (fx, pid, BASE + page * PS, entries, n);
}

static PgsFixture *
build_full (gboolean unprivileged)
{
  PgsFixture *fx = pgs_fixture_new ();
  const guint64 lib[] = { FX_PRESENT (70) | FX_FILE, FX_PRESENT (71) | FX_FILE };
  const guint64 memfd[] = { FX_PRESENT (80) | FX_FILE, FX_PRESENT (81) | FX_FILE,
                            FX_PRESENT (82) | FX_FILE };
  const guint64 shm[] = { FX_PRESENT (85) | FX_FILE };
  const guint64 table[] = { FX_PRESENT (86) | FX_FILE };
  const guint64 anon100[] = { FX_PRESENT_EXCL (96) };
  const guint64 anon101[] = { FX_PRESENT_EXCL (90), FX_PRESENT_EXCL (91), FX_PRESENT_EXCL (92),
                              FX_PRESENT_EXCL (93), FX_PRESENT (99) };
  const guint64 anon102[] = { FX_PRESENT_EXCL (94), FX_PRESENT_EXCL (95), FX_SWAPPED (1, 77) };
  const guint64 anon200[] = { FX_PRESENT_EXCL (97), FX_PRESENT_EXCL (98) };

  add (fx, 100, 4242, 1, SESSION_CG);
  add (fx, 101, 4242, 100, APP_CG);
  add (fx, 102, 4242, 101, APP_CG);
  add (fx, 200, 4343, 1, SERVICE_CG);

  map (fx, 100, 0, "r-xp", "/usr/lib/libshared.so", lib, 2);
  map (fx, 100, 10, "rw-p", "", anon100, 1);
  map (fx, 100, 20, "r--s", "/data/table", table, 1);
  map (fx, 100, 30, "r--s", "/data/table", table, 1);

  map (fx, 101, 0, "r-xp", "/usr/lib/libshared.so", lib, 2);
  map (fx, 101, 10, "rw-p", "[heap]", anon101, 5);
  map (fx, 101, 20, "rw-s", "/memfd:buffers (deleted)", memfd, 3);

  map (fx, 102, 10, "rw-p", "", anon102, 3);
  map (fx, 102, 20, "rw-s", "/memfd:buffers (deleted)", memfd, 3);
  map (fx, 102, 30, "rw-s", "/dev/shm/ipc", shm, 1);

  map (fx, 200, 0, "r-xp", "/usr/lib/libshared.so", lib, 2);
  map (fx, 200, 10, "rw-p", "", anon200, 2);
  map (fx, 200, 30, "rw-s", "/dev/shm/ipc", shm, 1);

  for (guint64 pfn = 70; pfn <= 71; pfn++)
    pgs_fixture_set_frame (fx, pfn, 3, KPF (LRU) | KPF (MMAP) | KPF (UPTODATE));
  for (guint64 pfn = 80; pfn <= 82; pfn++)
    pgs_fixture_set_frame (fx, pfn, 2, KPF (LRU) | KPF (SWAPBACKED));
  pgs_fixture_set_frame (fx, 85, 2, KPF (LRU) | KPF (SWAPBACKED));
  pgs_fixture_set_frame (fx, 86, 2, KPF (LRU) | KPF (MMAP));
  for (guint64 pfn = 90; pfn <= 98; pfn++)
    pgs_fixture_set_frame (fx, pfn, 1, KPF (ANON) | KPF (LRU) | KPF (SWAPBACKED));
  pgs_fixture_set_frame (fx, 99, 0, KPF (ZERO_PAGE));
  pgs_fixture_set_unprivileged (fx, unprivileged);
  pgs_fixture_commit (fx);
  return fx;
}

static PgsFixture *
build (void)
{
  return build_full (FALSE);
}

static PgsSnapshot *
scan (PgsFixture   *fx,
      PgsScanFlags  flags)
{
  PgsSnapshot *snapshot = pgs_test_scan (fx, flags);

  g_assert_cmpuint (pgs_snapshot_get_n_skipped (snapshot), ==, 0);
  return snapshot;
}

static GPtrArray *
all_processes (PgsSnapshot *snap)
{
  GPtrArray *all = g_ptr_array_new ();

  for (guint i = 0; i < pgs_snapshot_get_n_processes (snap); i++)
    g_ptr_array_add (all, pgs_snapshot_get_process (snap, i));
  return all;
}

static const PgsGroup *
find_group (GPtrArray  *groups,
            const char *name)
{
  for (guint i = 0; i < groups->len; i++)
    {
      const PgsGroup *g = g_ptr_array_index (groups, i);

      if (g_strcmp0 (g->name, name) == 0)
        return g;
    }
  g_error ("no group “%s”", name);
  return NULL;
}

static void
assert_group (const PgsGroup *g,
              guint           n_processes,
              guint64         vss_pages,
              guint64         rss_pages,
              guint64         pss_fp,
              guint64         uss_pages,
              guint64         private_pages,
              guint64         swap_pages)
{
  g_assert_cmpuint (g->processes->len, ==, n_processes);
  g_assert_cmpuint (g->known, ==, PGS_METRIC_ALL);
  g_assert_cmpuint (g->vss, ==, vss_pages * PS);
  g_assert_cmpuint (g->rss, ==, rss_pages * PS);
  g_assert_cmpuint (g->pss_fp, ==, pss_fp);
  g_assert_cmpuint (g->uss, ==, uss_pages * PS);
  g_assert_true (g->private_known);
  g_assert_cmpuint (g->private_bytes, ==, private_pages * PS);
  g_assert_cmpuint (g->swap, ==, swap_pages * PS);
}

/* The per-process figures the groups add up (see the table above). */
static void
test_processes (void)
{
  g_autoptr(PgsFixture) fx = build ();
  g_autoptr(PgsSnapshot) snap = scan (fx, PGS_SCAN_PAGES);
  PgsProcess *p100 = pgs_snapshot_lookup_pid (snap, 100);
  PgsProcess *p101 = pgs_snapshot_lookup_pid (snap, 101);

  g_assert_cmpuint (pgs_process_get_rss (p100), ==, 5 * PS);
  g_assert_cmpuint (pgs_process_get_pss_fixed (p100), ==, 2 * (F / 3) + 2 * F);
  g_assert_cmpuint (pgs_process_get_uss (p100), ==, 1 * PS);
  g_assert_cmpuint (pgs_process_get_rss (p101), ==, 9 * PS);
  g_assert_cmpuint (pgs_process_get_pss_fixed (p101), ==, 2 * (F / 3) + 3 * (F / 2) + 4 * F);
  g_assert_cmpstr (pgs_process_get_cgroup (p101), ==, APP_CG);
  g_assert_cmpint (pgs_process_get_ppid (p101), ==, 100);
}

static void
test_by_user (void)
{
  g_autoptr(PgsFixture) fx = build ();
  g_autoptr(PgsSnapshot) snap = scan (fx, PGS_SCAN_PAGES);
  g_autoptr(GPtrArray) all = all_processes (snap);
  g_autoptr(GPtrArray) groups = pgs_group_processes (snap, all, PGS_GROUP_BY_USER);

  g_assert_cmpuint (groups->len, ==, 2);
  /* 4242: VSS 5+10+7, RSS 5+9+6, USS 1+4+2, swap 1 */
  assert_group (find_group (groups, "4242"), 3, 22, 20,
                (2 * (F / 3) + 2 * F) + (2 * (F / 3) + 3 * (F / 2) + 4 * F) + 4 * F,
                7, 11, 1);
  assert_group (find_group (groups, "4343"), 1, 5, 5, 2 * (F / 3) + 2 * F + F / 2, 2, 2, 0);
  /* Largest PSS first; by swap, 4242 (1 page) still before 4343 (none); by USS too
   * (7 pages against 2). */
  g_assert_cmpstr (((PgsGroup *) g_ptr_array_index (groups, 0))->name, ==, "4242");
  pgs_group_sort (groups, PGS_METRIC_SWAP);
  g_assert_cmpstr (((PgsGroup *) g_ptr_array_index (groups, 0))->name, ==, "4242");
}

static void
test_by_cgroup (void)
{
  g_autoptr(PgsFixture) fx = build ();
  g_autoptr(PgsSnapshot) snap = scan (fx, PGS_SCAN_PAGES);
  g_autoptr(GPtrArray) all = all_processes (snap);
  g_autoptr(GPtrArray) groups = pgs_group_processes (snap, all, PGS_GROUP_BY_CGROUP);

  g_assert_cmpuint (groups->len, ==, 3);
  assert_group (find_group (groups, SESSION_CG), 1, 5, 5, 2 * (F / 3) + 2 * F, 1, 2, 0);
  assert_group (find_group (groups, APP_CG), 2, 17, 15,
                2 * (F / 3) + 3 * (F / 2) + 4 * F + 4 * F, 6, 9, 1);
  assert_group (find_group (groups, SERVICE_CG), 1, 5, 5, 2 * (F / 3) + 2 * F + F / 2, 2, 2, 0);
}

static void
test_by_app (void)
{
  g_autoptr(PgsFixture) fx = build ();
  g_autoptr(PgsSnapshot) snap = scan (fx, PGS_SCAN_PAGES);
  g_autoptr(GPtrArray) all = all_processes (snap);
  g_autoptr(GPtrArray) groups = pgs_group_processes (snap, all, PGS_GROUP_BY_APP);
  const PgsGroup *app;

  g_assert_cmpuint (groups->len, ==, 3);
  /* The desktop file's Name and Icon, found by the decoded id "org.example.My-Editor". */
  app = find_group (groups, "My Editor");
  g_assert_cmpstr (app->app_id, ==, "org.example.My-Editor");
  g_assert_cmpstr (app->icon, ==, "accessories-text-editor");
  assert_group (app, 2, 17, 15, 2 * (F / 3) + 3 * (F / 2) + 4 * F + 4 * F, 6, 9, 1);
  g_assert_null (find_group (groups, "session-3.scope")->app_id);
  assert_group (find_group (groups, "session-3.scope"), 1, 5, 5, 2 * (F / 3) + 2 * F, 1, 2, 0);
  assert_group (find_group (groups, "foo.service"), 1, 5, 5, 2 * (F / 3) + 2 * F + F / 2, 2, 2, 0);
}

/* A member without frames (its pagemap unreadable: here, 102 taken from a scan without
 * pages) leaves the group's private figure a lower bound, not blank. By hand, 4242's
 * members with frames are 100 and 101: frames mapped once 96, 90-93 (5 pages), and 86
 * mapped twice, both times by 100 (1 page); 70-71 (count 3) and 80-82 (count 2, the other
 * mapping 102's) are not claimed. 6 pages, against the 11 that all three members give. */
static void
test_private_at_least (void)
{
  g_autoptr(PgsFixture) fx = build ();
  g_autoptr(PgsSnapshot) pages = scan (fx, PGS_SCAN_PAGES);
  g_autoptr(PgsSnapshot) metrics = scan (fx, PGS_SCAN_METRICS);
  g_autoptr(GPtrArray) some = g_ptr_array_new ();
  g_autoptr(GPtrArray) groups = NULL;
  const PgsGroup *g;

  g_ptr_array_add (some, pgs_snapshot_lookup_pid (pages, 100));
  g_ptr_array_add (some, pgs_snapshot_lookup_pid (pages, 101));
  g_ptr_array_add (some, pgs_snapshot_lookup_pid (metrics, 102));
  g_ptr_array_add (some, pgs_snapshot_lookup_pid (pages, 200));
  groups = pgs_group_processes (pages, some, PGS_GROUP_BY_USER);
  g = find_group (groups, "4242");
  g_assert_false (g->private_known);
  g_assert_true (g->private_at_least);
  g_assert_nonnull (strstr (g->private_reason, "frames"));
  g_assert_cmpuint (g->private_bytes, ==, 6 * PS);
  g = find_group (groups, "4343");
  g_assert_true (g->private_known);
  g_assert_false (g->private_at_least);
  g_assert_cmpuint (g->private_bytes, ==, 2 * PS);
}

/* A process in the root cgroup (a container without systemd, as root sees it there) is
 * grouped by app under a name that says so, not under a bare "/". Process 200 moved there:
 * its figures are foo.service's in test_by_app. */
static void
test_by_app_root_cgroup (void)
{
  g_autoptr(PgsFixture) fx = build ();
  g_autoptr(PgsSnapshot) snap = NULL;
  g_autoptr(GPtrArray) all = NULL;
  g_autoptr(GPtrArray) groups = NULL;

  pgs_fixture_write (fx, "200/cgroup", "0::/\n", -1);
  snap = scan (fx, PGS_SCAN_PAGES);
  all = all_processes (snap);
  groups = pgs_group_processes (snap, all, PGS_GROUP_BY_APP);
  g_assert_cmpuint (groups->len, ==, 3);
  for (guint i = 0; i < groups->len; i++)
    {
      const PgsGroup *g = g_ptr_array_index (groups, i);

      g_assert_cmpstr (g->name, !=, "/");
      g_assert_cmpstr (g->name, !=, "foo.service");
    }
  assert_group (find_group (groups, "(root cgroup: no app or service)"), 1, 5, 5,
                2 * (F / 3) + 2 * F + F / 2, 2, 2, 0);
}

static void
test_by_parent (void)
{
  g_autoptr(PgsFixture) fx = build ();
  g_autoptr(PgsSnapshot) snap = scan (fx, PGS_SCAN_PAGES);
  g_autoptr(GPtrArray) all = all_processes (snap);
  g_autoptr(GPtrArray) groups = pgs_group_processes (snap, all, PGS_GROUP_BY_PARENT);

  /* Parents: 1 (not in the tree) for 100 and 200, 100 for 101, 101 for 102. */
  g_assert_cmpuint (groups->len, ==, 3);
  /* {100, 200}: private = exclusive 1+2 + frame 86 (both mappings 100's) + frame 85?
   * no (102 maps it too); lib 70, 71: 2 of 3: no. = 4 */
  assert_group (find_group (groups, "1"), 2, 10, 10,
                (2 * (F / 3) + 2 * F) + (2 * (F / 3) + 2 * F + F / 2), 3, 4, 0);
  /* {101}: exclusive 4, memfd 1 of 2: no. = 4 */
  assert_group (find_group (groups, "100 (editor)"), 1, 10, 9,
                2 * (F / 3) + 3 * (F / 2) + 4 * F, 4, 4, 0);
  assert_group (find_group (groups, "101 (editor)"), 1, 7, 6, 4 * F, 2, 2, 1);

  /* Orders: PSS 2⌊F/3⌋ + 5.5F ("100 (editor)") > 4⌊F/3⌋ + 4.5F ("1") > 4F; swap: only
   * "101 (editor)" has any; VSS: 10 and 10 tie, RSS breaks it (10 before 9). */
  g_assert_cmpstr (((PgsGroup *) g_ptr_array_index (groups, 0))->name, ==, "100 (editor)");
  g_assert_cmpstr (((PgsGroup *) g_ptr_array_index (groups, 1))->name, ==, "1");
  pgs_group_sort (groups, PGS_METRIC_SWAP);
  g_assert_cmpstr (((PgsGroup *) g_ptr_array_index (groups, 0))->name, ==, "101 (editor)");
  pgs_group_sort (groups, PGS_METRIC_VSS);
  g_assert_cmpstr (((PgsGroup *) g_ptr_array_index (groups, 0))->name, ==, "1");
  g_assert_cmpstr (((PgsGroup *) g_ptr_array_index (groups, 2))->name, ==, "101 (editor)");
}

/* Without page data (a scan without PGS_SCAN_PAGES, or no root) the private figure is
 * unknown, with the reason, never 0. */
static void
test_private_unknown (void)
{
  g_autoptr(PgsFixture) fx = build ();
  g_autoptr(PgsSnapshot) snap = NULL;
  g_autoptr(GPtrArray) all = NULL;
  g_autoptr(GPtrArray) groups = NULL;
  const PgsGroup *g;

  snap = scan (fx, PGS_SCAN_METRICS);
  all = all_processes (snap);
  groups = pgs_group_processes (snap, all, PGS_GROUP_BY_USER);
  g = find_group (groups, "4343");
  g_assert_false (g->private_known);
  g_assert_nonnull (strstr (g->private_reason, "frames"));
  g_assert_cmpuint (g->known, ==, PGS_METRIC_ALL);
  g_clear_pointer (&groups, g_ptr_array_unref);
  g_clear_pointer (&all, g_ptr_array_unref);
  g_clear_object (&snap);
  g_clear_pointer (&fx, pgs_fixture_free);

  /* As a normal user (no kpagecount; this fixture has no smaps_rollup either): PSS, USS and
   * private unknown, RSS and swap from status. */
  fx = build_full (TRUE);
  snap = scan (fx, PGS_SCAN_PAGES);
  all = all_processes (snap);
  groups = pgs_group_processes (snap, all, PGS_GROUP_BY_USER);
  g = find_group (groups, "4343");
  g_assert_false (g->private_known);
  g_assert_false (g->known & PGS_METRIC_PSS);
  g_assert_false (g->known & PGS_METRIC_USS);
  g_assert_nonnull (g->unknown_reason);
  g_assert_nonnull (strstr (g->private_reason, "root"));
}

/* Frame numbers above 2^11 take the radix sort through two passes (the main fixture's take
 * one): users 4545 {300, 301} share frames 5000, 2100 and 4097 (count 2) between them and
 * 2101 (count 3) with 302 of user 4646. Private to 4545: the three, not 2101. */
static void
test_private_sorted (void)
{
  g_autoptr(PgsFixture) fx = pgs_fixture_new ();
  g_autoptr(PgsSnapshot) snap = NULL;
  g_autoptr(GPtrArray) all = NULL;
  g_autoptr(GPtrArray) groups = NULL;
  const guint64 a[] = { FX_PRESENT (5000) | FX_FILE, FX_PRESENT (2100) | FX_FILE,
                        FX_PRESENT (2101) | FX_FILE, FX_PRESENT (4097) | FX_FILE };
  const guint64 b[] = { FX_PRESENT (4097) | FX_FILE, FX_PRESENT (2101) | FX_FILE,
                        FX_PRESENT (2100) | FX_FILE, FX_PRESENT (5000) | FX_FILE };
  const guint64 c[] = { FX_PRESENT (2101) | FX_FILE };
  const PgsGroup *g;

  pgs_fixture_add_process (fx, 300, "a", 4545, FALSE);
  pgs_fixture_add_process (fx, 301, "b", 4545, FALSE);
  pgs_fixture_add_process (fx, 302, "c", 4646, FALSE);
  map (fx, 300, 0, "r--s", "/dev/shm/s", a, 4);
  map (fx, 301, 0, "r--s", "/dev/shm/s", b, 4);
  map (fx, 302, 0, "r--s", "/dev/shm/s", c, 1);
  pgs_fixture_set_frame (fx, 5000, 2, KPF (LRU));
  pgs_fixture_set_frame (fx, 2100, 2, KPF (LRU));
  pgs_fixture_set_frame (fx, 4097, 2, KPF (LRU));
  pgs_fixture_set_frame (fx, 2101, 3, KPF (LRU));
  pgs_fixture_commit (fx);

  snap = scan (fx, PGS_SCAN_PAGES);
  all = all_processes (snap);
  groups = pgs_group_processes (snap, all, PGS_GROUP_BY_USER);
  g = find_group (groups, "4545");
  g_assert_true (g->private_known);
  g_assert_cmpuint (g->private_bytes, ==, 3 * PS);
  g_assert_cmpuint (g->uss, ==, 0);
  g = find_group (groups, "4646");
  g_assert_cmpuint (g->private_bytes, ==, 0);
}

static void
test_cgroup_parse (void)
{
  static const struct { const char *text; const char *path; } cases[] = {
    { "0::/user.slice/user-1000.slice/session-2.scope\n", "/user.slice/user-1000.slice/session-2.scope" },
    { "9:name=systemd:/\n4:memory:/x\n0::/\n", "/" },
    { "12:memory:/a\n1:name=systemd:/a\n", NULL },            /* v1 only */
    { "0::/no/newline", "/no/newline" },
    { "0::relative\n", NULL },
    { "", NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *path = pgs_cgroup_parse (cases[i].text, strlen (cases[i].text));

      g_assert_cmpstr (path, ==, cases[i].path);
    }
}

static void
test_cgroup_classify (void)
{
  static const struct { const char *path; PgsUnitKind kind; const char *name; } cases[] = {
    { "/user.slice/user-1000.slice/user@1000.service/app.slice/app-gnome-firefox-2841.scope",
      PGS_UNIT_APP, "firefox" },
    { "/user.slice/user-1000.slice/user@1000.service/app.slice/"
      "app-gnome-org.gnome.Terminal-3101.scope", PGS_UNIT_APP, "org.gnome.Terminal" },
    { "/user.slice/user-1000.slice/user@1000.service/app.slice/"
      "app-flatpak-org.mozilla.firefox-12345.scope", PGS_UNIT_APP, "org.mozilla.firefox" },
    { "/user.slice/user-1000.slice/user@1000.service/app.slice/"
      "app-org.gnome.Nautilus@2b1d.service", PGS_UNIT_APP, "org.gnome.Nautilus" },
    { "/a/app-gnome-gnome\\x2dsystem\\x2dmonitor-77.scope", PGS_UNIT_APP, "gnome-system-monitor" },
    { "/a/app-KDE-org.kde.konsole-4e1f2a.scope", PGS_UNIT_APP, "org.kde.konsole" },
    { "/a/app-firefox-2841.scope", PGS_UNIT_APP, "firefox" },
    { "/a/app-gnome-foo.desktop-5.scope", PGS_UNIT_APP, "foo" },
    { "/system.slice/cron.service", PGS_UNIT_SERVICE, "cron.service" },
    { "/system.slice/docker.service/worker", PGS_UNIT_SERVICE, "docker.service" },
    { "/system.slice/systemd-journald.service", PGS_UNIT_SERVICE, "systemd-journald.service" },
    { "/user.slice/user-1000.slice/user@1000.service/init.scope", PGS_UNIT_SERVICE,
      "user@1000.service" },
    { "/user.slice/user-1000.slice/session-3.scope", PGS_UNIT_SESSION, "session-3.scope" },
    { "/", PGS_UNIT_OTHER, "/" },
    { "/machine.slice/libpod-abc.scope", PGS_UNIT_OTHER, "/machine.slice/libpod-abc.scope" },
    { "/a/app-.scope", PGS_UNIT_OTHER, "/a/app-.scope" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *name = NULL;
      PgsUnitKind kind = pgs_cgroup_classify (cases[i].path, &name);

      g_test_message ("%s", cases[i].path);
      g_assert_cmpint (kind, ==, cases[i].kind);
      g_assert_cmpstr (name, ==, cases[i].name);
    }
}

/* The JSON a script reads: the app group's line, in bytes. PSS of {101, 102} is
 * ⌊(2·⌊F/3⌋ + 9.5F) / 4096⌋ bytes. */
static void
test_cli_json (void)
{
  g_autoptr(PgsFixture) fx = build ();
  g_autofree char *out = NULL;
  g_autofree char *expect = NULL;

  g_assert_cmpint (pgs_test_run_cli (fx, &out, NULL, "memrank", "--group-by", "app", "--json", NULL), ==, 0);
  expect = g_strdup_printf ("{\"group\":\"My Editor\",\"app_id\":\"org.example.My-Editor\","
                            "\"icon\":\"accessories-text-editor\",\"processes\":2,\"unknown_processes\":0,"
                            "\"vss\":%" G_GUINT64_FORMAT ",\"rss\":%" G_GUINT64_FORMAT
                            ",\"pss\":%" G_GUINT64_FORMAT ",\"uss\":%" G_GUINT64_FORMAT
                            ",\"private\":%" G_GUINT64_FORMAT ",\"swap\":%" G_GUINT64_FORMAT
                            ",\"unknown_reason\":null,\"private_unknown_reason\":null,"
                            "\"pids\":[101,102]}",
                            17 * PS, 15 * PS, (2 * (F / 3) + 9 * F + F / 2) >> 12, 6 * PS,
                            9 * PS, 1 * PS);
  g_assert_nonnull (strstr (out, expect));
  g_clear_pointer (&out, g_free);

  g_assert_cmpint (pgs_test_run_cli (fx, &out, NULL, "memrank", "--group-by", "user", NULL), ==, 0);
  /* The totals line: 4 processes, private 11 + 2 pages. */
  g_assert_nonnull (strstr (out, "TOTAL (2 groups)"));
  g_clear_pointer (&out, g_free);

  g_assert_cmpint (pgs_test_run_cli (fx, &out, NULL, "memrank", "--group-by", "color", NULL), ==, 2);
}

static void
setup_desktop_files (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *apps = NULL;
  g_autofree char *file = NULL;

  data_dir = g_dir_make_tmp ("pagescope-xdg-XXXXXX", &error);
  g_assert_no_error (error);
  apps = g_build_filename (data_dir, "applications", NULL);
  g_assert_cmpint (g_mkdir (apps, 0755), ==, 0);
  file = g_build_filename (apps, "org.example.My-Editor.desktop", NULL);
  g_file_set_contents (file, "[Desktop Entry]\nType=Application\nName=My Editor\n"
                             "Exec=true\nIcon=accessories-text-editor\n", -1, &error);
  g_assert_no_error (error);
  /* Only this directory: the machine's own desktop files must not change the answer. */
  g_setenv ("XDG_DATA_DIRS", data_dir, TRUE);
  g_setenv ("XDG_DATA_HOME", data_dir, TRUE);
}

static void
cleanup_desktop_files (void)
{
  g_autofree char *apps = g_build_filename (data_dir, "applications", NULL);
  g_autofree char *file = g_build_filename (apps, "org.example.My-Editor.desktop", NULL);

  g_unlink (file);
  g_rmdir (apps);
  g_rmdir (data_dir);
  g_free (data_dir);
}

int
main (int   argc,
      char *argv[])
{
  int ret;

  setup_desktop_files ();
  g_test_init (&argc, &argv, NULL);
  PS = (guint64) sysconf (_SC_PAGESIZE);
  F = PS << PGS_PSS_SHIFT;

  g_test_add_func ("/pgs/group/processes", test_processes);
  g_test_add_func ("/pgs/group/by-user", test_by_user);
  g_test_add_func ("/pgs/group/by-cgroup", test_by_cgroup);
  g_test_add_func ("/pgs/group/by-app-root-cgroup", test_by_app_root_cgroup);
  g_test_add_func ("/pgs/group/private-at-least", test_private_at_least);
  g_test_add_func ("/pgs/group/by-app", test_by_app);
  g_test_add_func ("/pgs/group/by-parent", test_by_parent);
  g_test_add_func ("/pgs/group/private-unknown", test_private_unknown);
  g_test_add_func ("/pgs/group/private-sorted", test_private_sorted);
  g_test_add_func ("/pgs/group/cgroup-parse", test_cgroup_parse);
  g_test_add_func ("/pgs/group/cgroup-classify", test_cgroup_classify);
  g_test_add_func ("/pgs/group/cli-json", test_cli_json);

  ret = g_test_run ();
  cleanup_desktop_files ();
  return ret;
}
