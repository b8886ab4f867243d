/* test-swap.c: Swap and SwapPss against the kernel's smaps_rollup
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A child holds three kinds of swapped memory, paged out with MADV_PAGEOUT:
 *   - private anonymous pages (swap PTEs, swap count 1: SwapPss = Swap),
 *   - shmem: a memfd and a MAP_SHARED | MAP_ANONYMOUS range (no PTE once swapped: not in
 *     pagemap, but in smaps Swap; not in SwapPss),
 *   - private anonymous pages swapped out before the child forked a grandchild, so that
 *     both hold the same swap entries (swap count 2: SwapPss half of their Swap).
 * Pagescope's swap and swap_pss of the child must equal smaps_rollup's Swap and SwapPss
 * exactly. Needs root and swap (a zram device is set up for the test where there is none,
 * and removed afterwards); skips with the reason otherwise, or where the kernel pages
 * nothing out.
 */

#define _GNU_SOURCE 1
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <pagescope.h>

#include "pgs-kernel-util.h"

#ifndef MADV_PAGEOUT
#define MADV_PAGEOUT 21
#endif

#define N_PAGES 64

static pid_t child = -1;
static pid_t grandchild = -1;
static gboolean have_swap;

static void
fill_and_page_out (char   *p,
                   gsize   len,
                   int     seed)
{
  for (gsize i = 0; i < len; i += 64)
    p[i] = (char) (seed + i / 4096 + 1);   /* not zero: zero pages may be dropped, not swapped */
  (void) madvise (p, len, MADV_PAGEOUT);
}

/* The child: sets the memory up, forks the grandchild, says "ready" and waits. */
static void
run_child (int ready_fd)
{
  long ps = sysconf (_SC_PAGESIZE);
  gsize len = N_PAGES * (gsize) ps;
  char *priv = mmap (NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  char *shanon = mmap (NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  char *cow = mmap (NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  int memfd = memfd_create ("pgs-swap", 0);
  char *mfd;
  pid_t gc;

  if (priv == MAP_FAILED || shanon == MAP_FAILED || cow == MAP_FAILED || memfd < 0 ||
      ftruncate (memfd, len) != 0)
    _exit (2);
  mfd = mmap (NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, memfd, 0);
  if (mfd == MAP_FAILED)
    _exit (2);

  /* Swapped before the fork: both processes then hold the swap entries (count 2). */
  fill_and_page_out (cow, len, 3);
  gc = fork ();
  if (gc == 0)
    {
      for (;;)
        pause ();
    }
  fill_and_page_out (priv, len, 1);
  fill_and_page_out (shanon, len, 2);
  fill_and_page_out (mfd, len, 4);

  if (write (ready_fd, &gc, sizeof gc) != sizeof gc)
    _exit (2);
  for (;;)
    pause ();
}

static void
stop_children (void)
{
  if (grandchild > 0)
    kill (grandchild, SIGKILL);
  if (child > 0)
    {
      kill (child, SIGKILL);
      waitpid (child, NULL, 0);
    }
  child = grandchild = -1;
}

static void
on_signal (int sig)
{
  stop_children ();
  if (have_swap)
    pgs_kernel_teardown_swap ();
  signal (sig, SIG_DFL);
  raise (sig);
}

static void
test_swap_and_swap_pss (void)
{
  int pipefd[2];
  PgsSmapsFields before, after;
  gboolean matched = FALSE;

  g_assert_cmpint (pipe (pipefd), ==, 0);
  child = fork ();
  g_assert_cmpint (child, >=, 0);
  if (child == 0)
    {
      close (pipefd[0]);
      run_child (pipefd[1]);
    }
  close (pipefd[1]);
  g_assert_cmpint (read (pipefd[0], &grandchild, sizeof grandchild), ==, sizeof grandchild);
  close (pipefd[0]);

  for (int attempt = 0; attempt < 5 && !matched; attempt++)
    {
      g_autoptr(PgsScanner) scanner = pgs_scanner_new ();
      g_autoptr(PgsSnapshot) snap = NULL;
      g_autoptr(GError) error = NULL;
      PgsProcess *p;
      int pid = child;

      g_assert_true (pgs_kernel_read_rollup (child, &before));
      if (before.swap == 0)
        {
          g_test_skip ("MADV_PAGEOUT swapped nothing out on this kernel");
          return;
        }
      pgs_scanner_set_pids (scanner, &pid, 1);
      pgs_scanner_set_flags (scanner, PGS_SCAN_MAPPINGS);
      snap = pgs_scanner_scan (scanner, NULL, &error);
      g_assert_no_error (error);
      g_assert_true (pgs_kernel_read_rollup (child, &after));

      p = pgs_snapshot_lookup_pid (snap, child);
      g_assert_nonnull (p);
      g_assert_cmpint (pgs_process_get_source (p), ==, PGS_SOURCE_PAGES);
      g_assert_true (pgs_process_is_known (p, PGS_METRIC_SWAP));
      g_assert_true (pgs_process_is_known (p, PGS_METRIC_SWAP_PSS));

      /* Reclaim may swap more of the child in between: compare only a stable pair. */
      if (before.swap != after.swap || before.swap_pss != after.swap_pss)
        continue;
      g_test_message ("smaps_rollup Swap %" G_GUINT64_FORMAT " SwapPss %" G_GUINT64_FORMAT
                      "; pagescope %" G_GUINT64_FORMAT " / %" G_GUINT64_FORMAT,
                      after.swap, after.swap_pss, pgs_process_get_swap (p),
                      pgs_process_get_metric (p, PGS_METRIC_SWAP_PSS));
      g_assert_cmpuint (pgs_process_get_swap (p), ==, after.swap);
      g_assert_cmpuint (pgs_process_get_metric (p, PGS_METRIC_SWAP_PSS), ==, after.swap_pss);
      /* The layout is what makes this test: shmem swap (Swap > SwapPss) and shared swap
       * entries (SwapPss not a whole number of pages' worth of swap). */
      if (after.swap == after.swap_pss)
        g_test_message ("no shmem page was swapped out: Swap equals SwapPss");
      matched = TRUE;
    }
  if (!matched)
    g_test_skip ("the child's swap kept changing under reclaim");
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *message = NULL;
  int status;

  g_test_init (&argc, &argv, NULL);
  pgs_kernel_require_root ();

  have_swap = pgs_kernel_setup_swap (&message);
  if (!have_swap)
    {
      g_print ("1..0 # SKIP no swap: %s\n", message);
      return 77;
    }
  signal (SIGINT, on_signal);
  signal (SIGTERM, on_signal);

  g_test_add_func ("/pgs/kernel/swap/swap-and-swap-pss", test_swap_and_swap_pss);
  status = g_test_run ();
  stop_children ();
  pgs_kernel_teardown_swap ();
  return status;
}
