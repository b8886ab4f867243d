/* test-thp.c: a process's transparent huge pages against its own smaps
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A forked child maps 4 MiB of anonymous memory on a 2 MiB boundary, asks for huge pages
 * (MADV_HUGEPAGE) and writes every page, then waits. The library's THP figure for it
 * (smaps_rollup AnonHugePages + ShmemPmdMapped + FilePmdMapped) must equal the sum of the
 * AnonHugePages, ShmemPmdMapped and FilePmdMapped lines of its /proc/PID/smaps, read here,
 * and cover at least one huge page; its pages whose frames carry KPF_THP (from kpageflags,
 * with the pages scanned) at least the AnonHugePages of the region. memrank --json shows
 * the same figure as "thp". Skips where THP is off ("never") or a madvised region gets no
 * huge page on this kernel (the probe tells).
 */

#include "config.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <pagescope.h>

#include "pgs-kernel-probe.h"
#include "pgs-kernel-util.h"
#include "pgs-test-json.h"

#define HUGE_SIZE   (2u << 20)
#define REGION_SIZE (4u << 20)

static pid_t child = -1;
static int   ready_pipe[2];

static void
run_child (void)
{
  char *raw = mmap (NULL, REGION_SIZE + HUGE_SIZE, PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  char *aligned;
  char c = 1;

  prctl (PR_SET_PDEATHSIG, SIGKILL);
  if (raw == MAP_FAILED)
    _exit (2);
  aligned = (char *) (((guintptr) raw + HUGE_SIZE - 1) & ~(guintptr) (HUGE_SIZE - 1));
  if (madvise (aligned, REGION_SIZE, MADV_HUGEPAGE) != 0)
    _exit (3);
  for (gsize off = 0; off < REGION_SIZE; off += 4096)
    aligned[off] = (char) (off >> 12) | 1;
  if (write (ready_pipe[1], &c, 1) != 1)
    _exit (4);
  for (;;)
    pause ();
}

/* The sums of the per-mapping lines of /proc/PID/smaps, in bytes. */
static void
read_smaps_thp (int      pid,
                guint64 *anon,
                guint64 *total)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/smaps", pid);
  g_autofree char *contents = NULL;
  g_auto(GStrv) lines = NULL;

  *anon = *total = 0;
  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  lines = g_strsplit (contents, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      static const char *const keys[] = { "AnonHugePages:", "ShmemPmdMapped:", "FilePmdMapped:" };

      for (guint k = 0; k < G_N_ELEMENTS (keys); k++)
        if (g_str_has_prefix (lines[i], keys[k]))
          {
            guint64 kb = g_ascii_strtoull (lines[i] + strlen (keys[k]), NULL, 10);

            *total += kb * 1024;
            if (k == 0)
              *anon += kb * 1024;
          }
    }
}

static void
test_thp (void)
{
  const PgsKernelProbe *probe = pgs_kernel_probe ();
  g_autoptr(PgsScanner) scanner = NULL;
  g_autoptr(PgsSnapshot) snapshot = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL;
  g_autofree char *expect = NULL;
  const char *argv[] = { NULL, "memrank", "--json", NULL };
  g_autofree char *row_start = NULL;
  const char *row;
  guint64 anon, total, thp, kpf_thp;
  PgsProcess *p;
  int status;
  char c;

  if (probe->thp_mode == NULL || g_str_equal (probe->thp_mode, "never") || !probe->thp_madvise_works)
    {
      g_test_skip ("transparent huge pages are off, or a madvised region gets none here");
      return;
    }

  g_assert_cmpint (pipe (ready_pipe), ==, 0);
  child = fork ();
  g_assert_cmpint (child, >=, 0);
  if (child == 0)
    run_child ();
  pgs_kernel_track_child (child);
  close (ready_pipe[1]);
  g_assert_cmpint (read (ready_pipe[0], &c, 1), ==, 1);
  close (ready_pipe[0]);

  scanner = pgs_scanner_new ();
  pgs_scanner_set_flags (scanner, PGS_SCAN_MAPPINGS | PGS_SCAN_PAGES | PGS_SCAN_PHYSMAP);
  pgs_scanner_set_pids (scanner, &child, 1);
  snapshot = pgs_scanner_scan (scanner, NULL, &error);
  g_assert_no_error (error);
  /* Read right after the scan: khugepaged only adds huge pages, and a sleeping child
   * splits none. */
  read_smaps_thp (child, &anon, &total);
  p = pgs_snapshot_lookup_pid (snapshot, child);
  g_assert_nonnull (p);

  g_test_message ("smaps: AnonHugePages %" G_GUINT64_FORMAT ", all THP %" G_GUINT64_FORMAT,
                  anon, total);
  g_assert_cmpuint (anon, >=, HUGE_SIZE);
  g_assert_true (pgs_process_is_known (p, PGS_METRIC_THP));
  g_assert_true (pgs_process_get_thp_total (p, &thp));
  g_assert_cmpuint (thp, ==, total);
  g_assert_cmpuint (pgs_process_get_metric (p, PGS_METRIC_THP), ==, total);

  /* Every 4 KiB piece of a PMD-mapped huge page is a KPF_THP frame. */
  g_assert_true (pgs_process_count_thp_pages (p, pgs_snapshot_get_physmap (snapshot), &kpf_thp));
  g_test_message ("KPF_THP pages: %" G_GUINT64_FORMAT " bytes", kpf_thp);
  g_assert_cmpuint (kpf_thp, >=, anon);

  /* memrank --json: the same figure. */
  argv[0] = g_getenv ("PAGESCOPE_CLI");
  g_assert_nonnull (argv[0]);
    {
      g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL,
                                   NULL, &out, NULL, &status, &error));
      g_assert_no_error (error);
      pgs_test_assert_json (out);
      read_smaps_thp (child, &anon, &total);
      expect = g_strdup_printf (",\"thp\":%" G_GUINT64_FORMAT ",", total);
      row_start = g_strdup_printf ("{\"pid\":%d,", child);
      row = strstr (out, row_start);
      g_assert_nonnull (row);
      g_assert_true (g_str_has_prefix (strstr (row, ",\"thp\":"), expect));
    }

  kill (child, SIGKILL);
  waitpid (child, NULL, 0);
  pgs_kernel_forget_child (child);
}

int
main (int   argc,
      char *argv[])
{
  pgs_kernel_init ();
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/pgs/kernel/thp", test_thp);
  return g_test_run ();
}
