/* test-layouts.c: pagescope against the kernel's own smaps for processes of known layout
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The oracle is /proc/PID/smaps_rollup and smaps, read by this same process right before and
 * after each scan (so the observer maps the same libraries either way); a pair of reads that
 * differ means something on the machine changed a shared page's count in between, and the
 * comparison is retried. RSS, USS and swap must be equal and PSS within 1 kB. Each mapping is
 * also checked against what the layout implies (pgs-layout-child.c).
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <stdio.h>
#include <sys/wait.h>
#include <glib/gstdio.h>
#include <unistd.h>

#include <pagescope.h>

#include "pgs-kernel-probe.h"
#include "pgs-kernel-util.h"
#include "pgs-kpage.h"
#include "pgs-layout.h"
#include "pgs-pagemap.h"

typedef struct
{
  GPid    pid;
  int     child;
  guint64 priv, cow, shanon, file, thp, swapped, zero;
  int     pageout_errno;
  char   *tmpdir;
  gboolean have_swap;
  char   *swap_message;
} Layout;

static Layout layout;
static guint64 PS;
static const PgsKernelProbe *probe;

static void
start_layout (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *file = NULL;
  const char *helper = g_getenv ("PGS_LAYOUT_CHILD");
  const char *argv[] = { helper, NULL, NULL };
  char line[512];
  int out_fd;
  FILE *out;

  g_assert_nonnull (helper);
  layout.have_swap = pgs_kernel_setup_swap (&layout.swap_message);
  if (!layout.have_swap)
    g_print ("# no swap: %s\n", layout.swap_message);

  layout.tmpdir = pgs_kernel_make_tmpdir ("layout");
  file = g_build_filename (layout.tmpdir, "mapped-file", NULL);
  argv[1] = file;

  g_spawn_async_with_pipes (NULL, (char **) argv, NULL, G_SPAWN_STDERR_TO_DEV_NULL | G_SPAWN_DO_NOT_REAP_CHILD, NULL, NULL,
                            &layout.pid, NULL, &out_fd, NULL, &error);
  g_assert_no_error (error);
  pgs_kernel_track_child (layout.pid);
  out = fdopen (out_fd, "r");
  g_assert_nonnull (fgets (line, sizeof line, out));
  fclose (out);
  g_assert_cmpint (sscanf (line, "%d %d %" G_GINT64_MODIFIER "x %" G_GINT64_MODIFIER "x %"
                           G_GINT64_MODIFIER "x %" G_GINT64_MODIFIER "x %" G_GINT64_MODIFIER "x %"
                           G_GINT64_MODIFIER "x %" G_GINT64_MODIFIER "x %d",
                           &layout.pid, &layout.child, &layout.priv, &layout.cow, &layout.shanon,
                           &layout.file, &layout.thp, &layout.swapped, &layout.zero,
                           &layout.pageout_errno), ==, 10);
  pgs_kernel_track_child (layout.child);
}

static void
stop_layout (void)
{
  g_autofree char *file = NULL;

  if (layout.child > 0)
    kill (layout.child, SIGKILL);
  if (layout.pid > 0)
    {
      kill (layout.pid, SIGKILL);
      waitpid (layout.pid, NULL, 0);
    }
  if (layout.tmpdir != NULL)
    {
      file = g_build_filename (layout.tmpdir, "mapped-file", NULL);
      g_unlink (file);
      g_rmdir (layout.tmpdir);
    }
  pgs_kernel_teardown_swap ();
}

static gboolean
rollups_equal (const PgsSmapsFields *a,
               const PgsSmapsFields *b)
{
  return a->rss == b->rss && a->pss == b->pss && a->private_clean == b->private_clean &&
         a->private_dirty == b->private_dirty && a->swap == b->swap;
}

static gboolean
pss_agrees (PgsSnapshot          *snap,
            int                   pid,
            const PgsSmapsFields *r)
{
  PgsProcess *p = pgs_snapshot_lookup_pid (snap, pid);

  return p != NULL &&
         ABS ((gint64) (pgs_process_get_pss (p) >> 10) - (gint64) (r->pss >> 10)) <= 1;
}

/* Scans one PID between two identical rollups; returns the snapshot and the rollup.
 *
 * Identical rollups are not quite enough on a busy machine: the scan reads pagemap first and
 * kpagecount after, so a process that starts and exits in between (mapping libc pages the
 * child maps too) changes a shared page's count for the scan alone. Such a sample is taken
 * again; a real disagreement would repeat every time, and after 50 tries the last sample is
 * returned for the assertions to report. RSS, USS and swap do not depend on other
 * processes and are compared whatever happens. */
static PgsSnapshot *
scan_stable (int             pid,
             PgsSmapsFields *rollup)
{
  g_autoptr(PgsSnapshot) last = NULL;

  for (guint attempt = 0; attempt < 50; attempt++)
    {
      g_autoptr(PgsScanner) scanner = pgs_scanner_new ();
      g_autoptr(PgsSnapshot) snap = NULL;
      g_autoptr(GError) error = NULL;
      PgsSmapsFields before, after;

      g_assert_true (pgs_kernel_read_rollup (pid, &before));
      pgs_scanner_set_pids (scanner, &pid, 1);
      pgs_scanner_set_flags (scanner, PGS_SCAN_MAPPINGS | PGS_SCAN_PAGES);
      snap = pgs_scanner_scan (scanner, NULL, &error);
      g_assert_no_error (error);
      g_assert_true (pgs_kernel_read_rollup (pid, &after));
      if (!rollups_equal (&before, &after))
        {
          g_test_message ("pid %d changed during the scan (attempt %u), again", pid, attempt);
          continue;
        }
      *rollup = after;
      if (pss_agrees (snap, pid, &after))
        return g_steal_pointer (&snap);
      g_test_message ("pid %d: a shared page's count moved between pagemap and kpagecount "
                      "(attempt %u), again", pid, attempt);
      g_clear_object (&last);
      last = g_steal_pointer (&snap);
    }
  g_assert_nonnull (last);
  return g_steal_pointer (&last);
}

static void
assert_matches_rollup (PgsProcess           *p,
                       const PgsSmapsFields *r)
{
  g_test_message ("pid %d: pagescope rss %" G_GUINT64_FORMAT " pss %" G_GUINT64_FORMAT " uss %"
                  G_GUINT64_FORMAT " swap %" G_GUINT64_FORMAT "; kernel rss %" G_GUINT64_FORMAT
                  " pss %" G_GUINT64_FORMAT " uss %" G_GUINT64_FORMAT " swap %" G_GUINT64_FORMAT,
                  pgs_process_get_pid (p), pgs_process_get_rss (p), pgs_process_get_pss (p),
                  pgs_process_get_uss (p), pgs_process_get_swap (p), r->rss, r->pss,
                  r->private_clean + r->private_dirty, r->swap);
  g_assert_cmpint (pgs_process_get_source (p), ==, PGS_SOURCE_PAGES);
  g_assert_cmpuint (pgs_process_get_rss (p), ==, r->rss);
  g_assert_cmpuint (pgs_process_get_uss (p), ==, r->private_clean + r->private_dirty);
  g_assert_cmpuint (pgs_process_get_swap (p), ==, r->swap);
  /* The kernel prints PSS truncated to kB: ours, truncated the same way, within 1 kB. */
  g_assert_cmpint (ABS ((gint64) (pgs_process_get_pss (p) >> 10) - (gint64) (r->pss >> 10)), <=, 1);
}

static PgsMapping *
find_mapping (PgsProcess *p,
              guint64     start)
{
  GListModel *maps = pgs_process_get_mappings (p);

  for (guint i = 0; i < g_list_model_get_n_items (maps); i++)
    {
      g_autoptr(PgsMapping) m = g_list_model_get_item (maps, i);

      if (pgs_mapping_get_start (m) == start)
        return g_steal_pointer (&m);
    }
  g_error ("no mapping at 0x%" G_GINT64_MODIFIER "x", start);
}

static void
assert_mapping (PgsProcess *p,
                guint64     start,
                guint64     vss,
                guint64     rss,
                guint64     pss,
                guint64     uss,
                guint64     swap)
{
  g_autoptr(PgsMapping) m = find_mapping (p, start);

  g_test_message ("mapping 0x%" G_GINT64_MODIFIER "x: vss %" G_GUINT64_FORMAT " rss %"
                  G_GUINT64_FORMAT " pss %" G_GUINT64_FORMAT " uss %" G_GUINT64_FORMAT " swap %"
                  G_GUINT64_FORMAT, start, pgs_mapping_get_vss (m), pgs_mapping_get_rss (m),
                  pgs_mapping_get_pss (m), pgs_mapping_get_uss (m), pgs_mapping_get_swap (m));
  g_assert_cmpuint (pgs_mapping_get_vss (m), ==, vss);
  g_assert_cmpuint (pgs_mapping_get_rss (m), ==, rss);
  g_assert_cmpuint (pgs_mapping_get_pss (m), ==, pss);
  g_assert_cmpuint (pgs_mapping_get_uss (m), ==, uss);
  g_assert_cmpuint (pgs_mapping_get_swap (m), ==, swap);
}

static void
test_rollup_parent (void)
{
  g_autoptr(PgsSnapshot) snap = NULL;
  PgsSmapsFields r;

  snap = scan_stable (layout.pid, &r);
  assert_matches_rollup (pgs_snapshot_lookup_pid (snap, layout.pid), &r);
}

static void
test_rollup_child (void)
{
  g_autoptr(PgsSnapshot) snap = NULL;
  PgsSmapsFields r;

  snap = scan_stable (layout.child, &r);
  assert_matches_rollup (pgs_snapshot_lookup_pid (snap, layout.child), &r);
}

/* Totals alone (PGS_SCAN_KERNEL_TOTALS, what memrank asks for) come from smaps_rollup
 * without a page walk: the same figures as the kernel's, byte for byte, and RSS and USS as
 * the page walk's (PSS moves with other processes mapping libc; the walk's own PSS is held
 * to the rollup by the tests above); VSS, from VmSize, is the sum of the mappings. */
static void assert_whole_physmap (PgsPhysMap *physmap);

static void
assert_totals_route (int          pid,
                     PgsScanFlags flags)
{
  for (guint attempt = 0; ; attempt++)
    {
      g_autoptr(PgsScanner) scanner = pgs_scanner_new ();
      g_autoptr(PgsSnapshot) snap = NULL, walked = NULL;
      g_autoptr(GError) error = NULL;
      PgsSmapsFields before, after, r;
      PgsProcess *p, *w;
      guint64 vss = 0;
      GListModel *maps;

      g_assert_true (pgs_kernel_read_rollup (pid, &before));
      pgs_scanner_set_pids (scanner, &pid, 1);
      pgs_scanner_set_flags (scanner, flags);
      snap = pgs_scanner_scan (scanner, NULL, &error);
      g_assert_no_error (error);
      g_assert_true (pgs_kernel_read_rollup (pid, &after));
      if (!rollups_equal (&before, &after) && attempt < 50)
        continue;

      p = pgs_snapshot_lookup_pid (snap, pid);
      g_assert_nonnull (p);
      g_assert_cmpint (pgs_process_get_source (p), ==, PGS_SOURCE_KERNEL);
      g_assert_cmpuint (pgs_process_get_known (p), ==, PGS_METRIC_ALL);
      g_assert_cmpuint (pgs_process_get_rss (p), ==, after.rss);
      g_assert_cmpuint (pgs_process_get_pss (p), ==, after.pss);
      g_assert_cmpuint (pgs_process_get_uss (p), ==, after.private_clean + after.private_dirty);
      g_assert_cmpuint (pgs_process_get_swap (p), ==, after.swap);

      walked = scan_stable (pid, &r);
      w = pgs_snapshot_lookup_pid (walked, pid);
      maps = pgs_process_get_mappings (w);
      for (guint i = 0; i < g_list_model_get_n_items (maps); i++)
        {
          g_autoptr(PgsMapping) m = g_list_model_get_item (maps, i);

          vss += pgs_mapping_get_end (m) - pgs_mapping_get_start (m);
        }
      g_assert_cmpuint (pgs_process_get_vss (p), ==, vss);
      g_assert_cmpuint (pgs_process_get_rss (p), ==, pgs_process_get_rss (w));
      g_assert_cmpuint (pgs_process_get_uss (p), ==, pgs_process_get_uss (w));

      if (flags & PGS_SCAN_PHYSMAP)
        assert_whole_physmap (pgs_snapshot_get_physmap (snap));
      else
        g_assert_null (pgs_snapshot_get_physmap (snap));
      return;
    }
}

/* The map covers every frame kpagecount has: one entry (8 bytes) a frame up to its end. */
static void
assert_whole_physmap (PgsPhysMap *physmap)
{
  int fd = open ("/proc/kpagecount", O_RDONLY);
  guint64 n, entry;

  g_assert_cmpint (fd, >=, 0);
  g_assert_nonnull (physmap);
  n = pgs_physmap_get_n_frames (physmap);
  g_assert_cmpuint (n, >, 0);
  g_assert_cmpint (pread (fd, &entry, 8, (n - 1) * 8), ==, 8);
  g_assert_cmpint (pread (fd, &entry, 8, n * 8), ==, 0);
  close (fd);
}

static void
test_totals_route (void)
{
  assert_totals_route (layout.pid, PGS_SCAN_KERNEL_TOTALS);
  assert_totals_route (layout.child, PGS_SCAN_KERNEL_TOTALS);
}

/* With the physical map (the app's list under Sharing and Page Flags): the same totals
 * from the rollup, and the whole map read besides. */
static void
test_totals_route_physmap (void)
{
  if (access ("/proc/kpagecount", R_OK) != 0 || access ("/proc/kpageflags", R_OK) != 0)
    {
      g_test_skip ("the physical map needs root");
      return;
    }
  assert_totals_route (layout.pid, PGS_SCAN_KERNEL_TOTALS | PGS_SCAN_PHYSMAP);
}

/* Private: every page ours alone. Copy-on-write after fork and shared anonymous: two
 * mappers, so PSS is half and USS none. The shared file: mapped by parent and child only. */
static void
test_layout_private_and_shared (void)
{
  g_autoptr(PgsSnapshot) snap = NULL;
  PgsSmapsFields r;
  PgsProcess *p;

  snap = scan_stable (layout.pid, &r);
  p = pgs_snapshot_lookup_pid (snap, layout.pid);
  assert_mapping (p, layout.priv, N_PRIV * PS, N_PRIV * PS, N_PRIV * PS, N_PRIV * PS, 0);
  assert_mapping (p, layout.cow, N_COW * PS, N_COW * PS, N_COW * PS / 2, 0, 0);
  assert_mapping (p, layout.shanon, N_SHANON * PS, N_SHANON * PS, N_SHANON * PS / 2, 0, 0);
  assert_mapping (p, layout.file, N_FILE * PS, N_FILE * PS, N_FILE * PS / 2, 0, 0);

  /* pagemap's exclusive bit, where the probe found the kernel keeps it exactly (kernels
   * without per-page map counts may only guess): set on the private pages, clear on the
   * copy-on-write ones the forked child still shares. */
  if (probe->exclusive_bit_reliable)
    {
      PgsPageInfo info;

      g_assert_true (pgs_process_lookup_page (p, layout.priv + 3 * PS, &info));
      g_assert_true (info.entry & PGS_PM_EXCLUSIVE);
      g_assert_true (pgs_process_lookup_page (p, layout.cow + 3 * PS, &info));
      g_assert_false (info.entry & PGS_PM_EXCLUSIVE);
    }
  else
    g_test_message ("pagemap's exclusive bit not checked: the probe found it unreliable here");

  g_clear_object (&snap);
  snap = scan_stable (layout.child, &r);
  p = pgs_snapshot_lookup_pid (snap, layout.child);
  assert_mapping (p, layout.cow, N_COW * PS, N_COW * PS, N_COW * PS / 2, 0, 0);
  assert_mapping (p, layout.shanon, N_SHANON * PS, N_SHANON * PS, N_SHANON * PS / 2, 0, 0);
}

static guint64
frame_flags (guint64 pfn)
{
  int fd = open ("/proc/kpageflags", O_RDONLY | O_CLOEXEC);
  guint64 flags = 0;

  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (pread (fd, &flags, 8, pfn * 8), ==, 8);
  close (fd);
  return flags;
}

/* THP by madvise: 4 MiB, all private. The frames should carry KPF_THP; the kernel may fall
 * back to small pages when memory is fragmented, which changes nothing in the totals. */
static void
test_layout_thp (void)
{
  g_autoptr(PgsSnapshot) snap = NULL;
  PgsSmapsFields r;
  PgsProcess *p;
  PgsPageInfo info;

  snap = scan_stable (layout.pid, &r);
  p = pgs_snapshot_lookup_pid (snap, layout.pid);
  assert_mapping (p, layout.thp, THP_BYTES, THP_BYTES, THP_BYTES, THP_BYTES, 0);
  g_assert_true (pgs_process_lookup_page (p, layout.thp + 5 * PS, &info));
  g_assert_true (pgs_pm_is_present (info.entry));
  if (frame_flags (pgs_pm_pfn (info.entry)) & PGS_KPF_BIT (PGS_KPF_THP))
    {
      /* Only a kernel with THP on (always or madvise) makes one. */
      g_assert_nonnull (probe->thp_mode);
      g_assert_cmpstr (probe->thp_mode, !=, "never");
      g_test_message ("THP mapping is backed by transparent huge pages");
    }
  else
    {
      g_test_message ("THP mapping fell back to small pages (THP mode %s; fragmentation)",
                      probe->thp_mode ? probe->thp_mode : "none");
    }
  g_assert_cmpuint (info.count, ==, 1);
}

/* MADV_PAGEOUT on a swap device: every page of the mapping is swapped, none resident. */
static void
test_layout_swap (void)
{
  g_autoptr(PgsSnapshot) snap = NULL;
  PgsSmapsFields r;
  PgsProcess *p;
  PgsPageInfo info;

  if (!layout.have_swap)
    {
      g_autofree char *why = g_strdup_printf ("no swap to page out to: %s", layout.swap_message);

      g_test_skip (why);
      return;
    }
  g_assert_cmpint (layout.pageout_errno, ==, 0);
  snap = scan_stable (layout.pid, &r);
  p = pgs_snapshot_lookup_pid (snap, layout.pid);
  assert_mapping (p, layout.swapped, N_SWAP * PS, 0, 0, 0, N_SWAP * PS);
  g_assert_true (pgs_process_lookup_page (p, layout.swapped, &info));
  g_assert_true (pgs_pm_is_swapped (info.entry));
}

/* Read-only reads of fresh anonymous memory: where the kernel maps the shared zero page (the
 * probe found out), present in pagemap, in no Rss; where it does not (pvm_no_zero_page and
 * the like), each read allocates a private page: all of it resident and the process's own. */
static void
test_layout_zero_page (void)
{
  g_autoptr(PgsSnapshot) snap = NULL;
  PgsSmapsFields r;
  PgsProcess *p;
  PgsPageInfo info;
  guint64 flags;

  snap = scan_stable (layout.pid, &r);
  p = pgs_snapshot_lookup_pid (snap, layout.pid);
  g_assert_true (pgs_process_lookup_page (p, layout.zero + PS, &info));
  g_assert_true (pgs_pm_is_present (info.entry));
  flags = frame_flags (pgs_pm_pfn (info.entry));
  if (probe->zero_page)
    {
      assert_mapping (p, layout.zero, N_ZERO * PS, 0, 0, 0, 0);
      g_assert_true (flags & PGS_KPF_BIT (PGS_KPF_ZERO_PAGE));
    }
  else
    {
      assert_mapping (p, layout.zero, N_ZERO * PS, N_ZERO * PS, N_ZERO * PS, N_ZERO * PS, 0);
      g_assert_false (flags & PGS_KPF_BIT (PGS_KPF_ZERO_PAGE));
      g_assert_true (flags & PGS_KPF_BIT (PGS_KPF_ANON));
      g_assert_cmpuint (info.count, ==, 1);
    }
}

typedef struct
{
  PgsProcess *process;
  guint       checked;
} SmapsCheck;

static void
check_smaps_mapping (const PgsMapsEntry   *entry,
                     const PgsSmapsFields *fields,
                     gpointer              user_data)
{
  SmapsCheck *check = user_data;
  g_autoptr(PgsMapping) m = NULL;

  if (strncmp (entry->path, "[vsyscall]", entry->path_len) == 0 && entry->path_len == 10)
    return;
  m = find_mapping (check->process, entry->start);
  g_assert_cmpuint (pgs_mapping_get_rss (m), ==, fields->rss);
  g_assert_cmpuint (pgs_mapping_get_uss (m), ==, fields->private_clean + fields->private_dirty);
  g_assert_cmpuint (pgs_mapping_get_swap (m), ==, fields->swap);
  g_assert_cmpint (ABS ((gint64) (pgs_mapping_get_pss (m) >> 10) - (gint64) (fields->pss >> 10)), <=, 1);
  check->checked++;
}

/* Every mapping, not only the totals, against smaps (which truncates PSS per mapping). */
static void
test_every_mapping (void)
{
  for (guint attempt = 0; attempt < 50; attempt++)
    {
      g_autoptr(PgsSnapshot) snap = NULL;
      g_autofree char *path = g_strdup_printf ("/proc/%d/smaps", layout.pid);
      g_autofree char *before = NULL;
      g_autofree char *after = NULL;
      PgsSmapsFields r;
      SmapsCheck check = { NULL, 0 };
      PgsSmapsReader reader;
      PgsMapsEntry entry;
      PgsSmapsFields fields;
      g_autoptr(GError) error = NULL;

      g_assert_true (g_file_get_contents (path, &before, NULL, NULL));
      snap = scan_stable (layout.pid, &r);
      g_assert_true (g_file_get_contents (path, &after, NULL, NULL));
      if (!g_str_equal (before, after))
        continue;
      check.process = pgs_snapshot_lookup_pid (snap, layout.pid);
      pgs_smaps_reader_init (&reader, after, strlen (after));
      while (pgs_smaps_reader_next (&reader, &entry, &fields, &error))
        check_smaps_mapping (&entry, &fields, &check);
      g_assert_no_error (error);
      g_assert_cmpuint (check.checked, ==, pgs_process_get_n_mappings (check.process));
      return;
    }
  g_assert_not_reached ();
}

/* The whole machine at once, as memrank does: every process the kernel lets us see is
 * measured from pages, and the kernel threads are left out. */
static void
test_whole_system (void)
{
  g_autoptr(PgsScanner) scanner = pgs_scanner_new ();
  g_autoptr(PgsSnapshot) snap = NULL;
  g_autoptr(GError) error = NULL;

  snap = pgs_scanner_scan (scanner, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (pgs_snapshot_is_privileged (snap));
  g_assert_nonnull (pgs_snapshot_lookup_pid (snap, layout.pid));
  g_assert_nonnull (pgs_snapshot_lookup_pid (snap, getpid ()));
  for (guint i = 0; i < pgs_snapshot_get_n_processes (snap); i++)
    {
      PgsProcess *p = pgs_snapshot_get_process (snap, i);

      g_assert_true (pgs_process_is_known (p, PGS_METRIC_RSS));
      if (pgs_process_get_source (p) == PGS_SOURCE_PAGES)
        g_assert_true (pgs_process_is_known (p, PGS_METRIC_PSS));
      else
        g_assert_nonnull (pgs_process_get_unknown_reason (p));
    }
  g_assert_null (pgs_snapshot_lookup_pid (snap, 2));  /* kthreadd */
}

int
main (int   argc,
      char *argv[])
{
  int ret;

  pgs_kernel_init ();
  probe = pgs_kernel_probe ();
  g_test_init (&argc, &argv, NULL);
  PS = (guint64) sysconf (_SC_PAGESIZE);

  start_layout ();

  g_test_add_func ("/pgs/kernel/rollup/parent", test_rollup_parent);
  g_test_add_func ("/pgs/kernel/rollup/cow-child", test_rollup_child);
  g_test_add_func ("/pgs/kernel/rollup/totals-route", test_totals_route);
  g_test_add_func ("/pgs/kernel/rollup/totals-route-physmap", test_totals_route_physmap);
  g_test_add_func ("/pgs/kernel/layout/private-and-shared", test_layout_private_and_shared);
  g_test_add_func ("/pgs/kernel/layout/thp", test_layout_thp);
  g_test_add_func ("/pgs/kernel/layout/swap", test_layout_swap);
  g_test_add_func ("/pgs/kernel/layout/zero-page", test_layout_zero_page);
  g_test_add_func ("/pgs/kernel/smaps/every-mapping", test_every_mapping);
  g_test_add_func ("/pgs/kernel/whole-system", test_whole_system);

  ret = g_test_run ();
  stop_layout ();
  return ret;
}
