/* bench-memrank.c: a full scan against the kernel computing every rollup itself
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Starts a known load (32 processes, each with 32 Ki private pages and 32 Ki pages shared
 * copy-on-write with all the others: about 2 million present pages over about 1 million
 * frames), then in interleaved rounds times
 *   scan:   what `pagescope-cli memrank` does (pgs_scanner_scan, metrics only), and
 *   rollup: reading every process's /proc/PID/smaps_rollup (the kernel doing it all),
 * and prints the median of the per-round ratios, the syscalls per process (strace -c -f of
 * the CLI, where strace is installed) and the CLI's peak RSS. Needs root; exits 77 without.
 *
 *   meson test -C build --benchmark --verbose        (or run the binary)
 */

#include "config.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <pagescope.h>

#define N_PROCS      32
#define PRIV_PAGES   (32 * 1024)
#define SHARED_PAGES (32 * 1024)
#define ROUNDS       11

static pid_t children[N_PROCS];

static void
start_load (void)
{
  long ps = sysconf (_SC_PAGESIZE);
  char *shared = mmap (NULL, SHARED_PAGES * ps, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  int ready[2];

  g_assert (shared != MAP_FAILED);
  memset (shared, 1, SHARED_PAGES * ps);
  g_assert (pipe (ready) == 0);

  for (int i = 0; i < N_PROCS; i++)
    {
      pid_t pid = fork ();

      g_assert (pid >= 0);
      if (pid == 0)
        {
          char *priv;

          prctl (PR_SET_PDEATHSIG, SIGKILL);
          priv = mmap (NULL, PRIV_PAGES * ps, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
          if (priv == MAP_FAILED)
            _exit (1);
          memset (priv, 2, PRIV_PAGES * ps);
          if (write (ready[1], "r", 1) != 1)
            _exit (1);
          for (;;)
            pause ();
        }
      children[i] = pid;
    }
  for (int i = 0; i < N_PROCS; i++)
    {
      char c;

      g_assert (read (ready[0], &c, 1) == 1);
    }
  /* Drop the parent's copy: the shared pages have N_PROCS mappers, and the CLI forked below
   * to measure its peak RSS does not start out holding them. */
  munmap (shared, SHARED_PAGES * ps);
}

static void
stop_load (void)
{
  for (int i = 0; i < N_PROCS; i++)
    kill (children[i], SIGKILL);
  for (int i = 0; i < N_PROCS; i++)
    waitpid (children[i], NULL, 0);
}

static double
time_scan (guint *n_processes)
{
  g_autoptr(PgsScanner) scanner = pgs_scanner_new ();
  g_autoptr(PgsSnapshot) snap = NULL;
  g_autoptr(GError) error = NULL;
  gint64 start = g_get_monotonic_time ();

  snap = pgs_scanner_scan (scanner, NULL, &error);
  g_assert_no_error (error);
  *n_processes = pgs_snapshot_get_n_processes (snap);
  return (g_get_monotonic_time () - start) / 1e6;
}

/* The floor: the kernel computes Rss, Pss, USS and Swap for every process itself. */
static double
time_rollups (guint *n_read)
{
  static char buf[4096];
  gint64 start = g_get_monotonic_time ();
  DIR *dir = opendir ("/proc");
  struct dirent *de;

  *n_read = 0;
  while ((de = readdir (dir)) != NULL)
    {
      char path[64];
      int fd;

      if (!g_ascii_isdigit (de->d_name[0]))
        continue;
      g_snprintf (path, sizeof path, "/proc/%s/smaps_rollup", de->d_name);
      fd = open (path, O_RDONLY | O_CLOEXEC);
      if (fd < 0)
        continue;
      while (read (fd, buf, sizeof buf) > 0)
        ;
      close (fd);
      (*n_read)++;
    }
  closedir (dir);
  return (g_get_monotonic_time () - start) / 1e6;
}

static int
compare_double (const void *a,
                const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

static void
measure_cli (const char *cli,
             guint       n_processes)
{
  g_autofree char *strace = g_find_program_in_path ("strace");
  struct rusage usage;
  int status;
  pid_t pid;

  if (cli == NULL)
    return;

  pid = fork ();
  if (pid == 0)
    {
      int null = open ("/dev/null", O_WRONLY);

      dup2 (null, 1);
      execl (cli, cli, "memrank", "--json", NULL);
      _exit (127);
    }
  wait4 (pid, &status, 0, &usage);
  printf ("pagescope-cli memrank peak RSS: %.1f MiB\n", usage.ru_maxrss / 1024.0);

  if (strace != NULL)
    {
      g_autofree char *out = NULL;
      g_autofree char *log = g_strdup ("/tmp/pagescope-bench-strace.txt");
      g_autofree char *text = NULL;
      const char *argv[] = { strace, "-f", "-c", "-o", log, cli, "memrank", "--json", NULL };
      char **lines;

      g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL,
                    NULL, NULL, NULL);
      if (g_file_get_contents (log, &text, NULL, NULL))
        {
          lines = g_strsplit (text, "\n", -1);
          printf ("strace -c -f of pagescope-cli memrank --json:\n");
          for (guint i = 0; lines[i] && i < 10; i++)
            printf ("  %s\n", lines[i]);
          for (guint i = 0; lines[i]; i++)
            if (strstr (lines[i], " total") != NULL)
              {
                guint64 calls = 0;
                char **f = g_strsplit_set (g_strstrip (lines[i]), " ", -1);
                guint n = 0;

                for (guint k = 0; f[k]; k++)
                  if (*f[k] != '\0' && ++n == 4)
                    calls = g_ascii_strtoull (f[k], NULL, 10);
                printf ("syscalls: %" G_GUINT64_FORMAT " for %u processes = %.1f per process "
                        "(reading a rollup takes 3: open, read, close)\n",
                        calls, n_processes, (double) calls / n_processes);
                g_strfreev (f);
              }
          g_strfreev (lines);
        }
      unlink (log);
    }
  else
    printf ("syscalls per process: strace is not installed\n");
}

int
main (int   argc,
      char *argv[])
{
  double ratios[ROUNDS], scans[ROUNDS], rollups[ROUNDS];
  guint n_processes = 0, n_rollups = 0;

  if (geteuid () != 0)
    {
      fprintf (stderr, "bench-memrank needs root (kpagecount): skipped\n");
      return 77;
    }

  start_load ();
  printf ("load: %d processes x (%d private + %d shared pages) = %d present pages\n",
          N_PROCS, PRIV_PAGES, SHARED_PAGES, N_PROCS * (PRIV_PAGES + SHARED_PAGES));

  /* Warm up both paths once. */
  time_scan (&n_processes);
  time_rollups (&n_rollups);

  for (guint r = 0; r < ROUNDS; r++)
    {
      /* Alternate the order so neither side always runs on a warmer cache. */
      if (r % 2 == 0)
        {
          scans[r] = time_scan (&n_processes);
          rollups[r] = time_rollups (&n_rollups);
        }
      else
        {
          rollups[r] = time_rollups (&n_rollups);
          scans[r] = time_scan (&n_processes);
        }
      ratios[r] = scans[r] / rollups[r];
      printf ("round %2u: scan %7.1f ms   rollups %7.1f ms   ratio %.2f\n",
              r + 1, scans[r] * 1e3, rollups[r] * 1e3, ratios[r]);
    }

  qsort (ratios, ROUNDS, sizeof (double), compare_double);
  qsort (scans, ROUNDS, sizeof (double), compare_double);
  qsort (rollups, ROUNDS, sizeof (double), compare_double);
  printf ("processes: %u scanned, %u rollups read\n", n_processes, n_rollups);
  printf ("median: scan %.1f ms, rollups %.1f ms\n", scans[ROUNDS / 2] * 1e3, rollups[ROUNDS / 2] * 1e3);
  printf ("median ratio scan/rollup: %.2fx (goal <= 2.0x, stretch 1.5x)\n", ratios[ROUNDS / 2]);

  measure_cli (g_getenv ("PAGESCOPE_CLI"), n_processes);

  stop_load ();
  return 0;
}
