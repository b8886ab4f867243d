/* bench-damon-access.c: the CPU that reading a running kdamond's events costs
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Runs `pagescope-cli access --seconds N --json` (N from PGS_BENCH_SECONDS, 30 by default)
 * against the kdamond the machine runs and prints the CPU time (user + system) of the CLI
 * and its tracefs worker, waited for by the CLI and so counted in its rusage, as a share
 * of one core over the wall time. The watchdog sleeps in read() until the worker exits
 * and is not counted. Goal (issue 19): at most 1 % of one core. Exit 77 without root or
 * without a running kdamond.
 *
 *   meson test -C build --benchmark --verbose damon-access   (bench-damon-access CLI)
 */

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <glib.h>
#include <glib/gstdio.h>

static gboolean
kdamond_runs (void)
{
  g_autoptr(GDir) dir = g_dir_open ("/sys/kernel/mm/damon/admin/kdamonds", 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_strdup_printf ("/sys/kernel/mm/damon/admin/kdamonds/%s/state",
                                               name);
      g_autofree char *state = NULL;

      if (g_file_get_contents (path, &state, NULL, NULL) && g_str_has_prefix (state, "on"))
        return TRUE;
    }
  return FALSE;
}

static double
now (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

int
main (int   argc,
      char *argv[])
{
  const char *env = g_getenv ("PGS_BENCH_SECONDS");
  g_autofree char *seconds = g_strdup (env != NULL ? env : "30");
  g_autofree char *out_path = NULL;
  struct rusage ru;
  double t0, wall, cpu;
  int status, fd;
  pid_t pid;

  if (argc != 2)
    {
      fprintf (stderr, "usage: bench-damon-access PAGESCOPE-CLI\n");
      return 2;
    }
  if (geteuid () != 0)
    {
      printf ("SKIP: needs root (tracefs)\n");
      return 77;
    }
  if (!kdamond_runs ())
    {
      printf ("SKIP: no kdamond runs: there are no events to read\n");
      return 77;
    }

  fd = g_file_open_tmp ("pagescope-bench-damon-XXXXXX.json", &out_path, NULL);
  if (fd < 0)
    return 1;
  t0 = now ();
  pid = fork ();
  if (pid == 0)
    {
      dup2 (fd, 1);
      execl (argv[1], argv[1], "access", "--seconds", seconds, "--json", (char *) NULL);
      _exit (127);
    }
  close (fd);
  if (pid < 0 || wait4 (pid, &status, 0, &ru) != pid)
    return 1;
  wall = now () - t0;
  cpu = ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + ru.ru_stime.tv_sec +
        ru.ru_stime.tv_usec / 1e6;
  {
    g_autofree char *json = NULL;
    gsize len = 0;
    guint aggs = 0;
    const char *p;

    g_file_get_contents (out_path, &json, &len, NULL);
    for (p = json; p != NULL && (p = strstr (p, "\"timestamp\":")) != NULL; p++)
      aggs++;
    printf ("pagescope-cli access --seconds %s --json: exit %d, %u aggregations, %zu bytes "
            "of JSON\n", seconds, WIFEXITED (status) ? WEXITSTATUS (status) : -1, aggs, len);
  }
  printf ("CPU %.3f s (user %.3f s, system %.3f s) over %.1f s wall: %.2f %% of one core "
          "(goal: at most 1 %%)\n", cpu, ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6,
          ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6, wall, 100 * cpu / wall);
  printf ("peak RSS %ld KiB\n", ru.ru_maxrss);
  g_unlink (out_path);
  return WIFEXITED (status) && WEXITSTATUS (status) <= 1 ? 0 : 1;
}
