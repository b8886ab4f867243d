/* bench-pageout.c: the CPU a page-out measurement costs per GiB paged out
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * With a zram swap of its own (made and removed as the kernel tests do), a child fills
 * 1 GiB of anonymous memory with compressible data and stays idle; then, three times,
 *
 *   pagescope-cli wss PID --method pageout --interval 0.01 --json
 *
 * runs and its CPU time (user + system: the kernel compresses into zram in the caller of
 * process_madvise, so the page-out's cost is the CLI's) is divided by what it paged out
 * (the JSON's paged_out). Between runs the child reads its memory back in. Prints the
 * median, each run, and the command. Needs root (process_madvise on another process);
 * exits 77 without it or without swap.
 *
 *   meson test -C build --benchmark --verbose pageout     (or run the binary)
 */

#include "config.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib.h>

#include "pgs-kernel-util.h"

#define RUNS 3

static GPid child;

static void
cleanup (void)
{
  if (child > 0)
    {
      kill (child, SIGKILL);
      waitpid (child, NULL, 0);
      child = 0;
    }
  pgs_kernel_teardown_swap ();
}

static void
on_signal (int sig)
{
  cleanup ();
  signal (sig, SIG_DFL);
  raise (sig);
}

static guint64
json_number (const char *json,
             const char *key)
{
  const char *p = strstr (json, key);

  if (p == NULL)
    return 0;
  return g_ascii_strtoull (p + strlen (key), NULL, 10);
}

static int
compare_double (const void *a,
                const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

int
main (int   argc,
      char *argv[])
{
  const char *cli = g_getenv ("PAGESCOPE_CLI");
  const char *exe = g_getenv ("PGS_PAGEOUT_CHILD");
  g_autofree char *message = NULL;
  g_autofree char *pid = NULL;
  g_autoptr(GError) error = NULL;
  double per_gib[RUNS];
  char line[128];
  int in, out;
  FILE *child_out;

  if (geteuid () != 0)
    {
      g_print ("bench-pageout: needs root (process_madvise on another process): skipped\n");
      return 77;
    }
  if (cli == NULL || exe == NULL)
    {
      g_printerr ("PAGESCOPE_CLI and PGS_PAGEOUT_CHILD must be set (meson test sets them)\n");
      return 1;
    }
  pgs_kernel_sweep ();
  if (!pgs_kernel_setup_swap_sized (G_GUINT64_CONSTANT (2) << 30, &message))
    {
      g_print ("bench-pageout: %s: skipped\n", message);
      return 77;
    }
  atexit (cleanup);
  signal (SIGTERM, on_signal);
  signal (SIGINT, on_signal);

  {
    const char *args[] = { exe, "anon", "1024", "0", NULL };

    if (!g_spawn_async_with_pipes (NULL, (char **) args, NULL, G_SPAWN_DO_NOT_REAP_CHILD, NULL,
                                   NULL, &child, &in, &out, NULL, &error))
      g_error ("%s", error->message);
  }
  child_out = fdopen (out, "r");
  if (fgets (line, sizeof line, child_out) == NULL || !g_str_has_prefix (line, "ready "))
    g_error ("the child did not start");
  pid = g_strdup_printf ("%d", child);

  for (guint run = 0; run < RUNS; run++)
    {
      const char *args[] = { cli, "wss", pid, "--method", "pageout", "--interval", "0.01",
                             "--json", NULL };
      g_autofree char *json = NULL;
      g_autoptr(GString) text = g_string_new (NULL);
      struct rusage usage;
      GPid p;
      int cli_out, status;
      gint64 start = g_get_monotonic_time ();
      double cpu, wall;
      guint64 paged;
      char buf[65536];
      gssize n;

      if (!g_spawn_async_with_pipes (NULL, (char **) args, NULL,
                                     G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDERR_TO_DEV_NULL,
                                     NULL, NULL, &p, NULL, &cli_out, NULL, &error))
        g_error ("%s", error->message);
      while ((n = read (cli_out, buf, sizeof buf)) > 0)
        g_string_append_len (text, buf, n);
      close (cli_out);
      if (wait4 (p, &status, 0, &usage) != p || !WIFEXITED (status) || WEXITSTATUS (status) != 0)
        g_error ("pagescope-cli failed");
      wall = (g_get_monotonic_time () - start) / 1e6;
      cpu = usage.ru_utime.tv_sec + usage.ru_utime.tv_usec / 1e6 +
            usage.ru_stime.tv_sec + usage.ru_stime.tv_usec / 1e6;
      paged = json_number (text->str, "\"paged_out\":");
      if (paged == 0)
        g_error ("nothing was paged out");
      per_gib[run] = cpu / ((double) paged / (1u << 30));
      g_print ("run %u: %.2f GiB paged out, %.2f s CPU (user %.2f, system %.2f), %.2f s wall: "
               "%.2f s CPU per GiB\n", run + 1, (double) paged / (1u << 30), cpu,
               usage.ru_utime.tv_sec + usage.ru_utime.tv_usec / 1e6,
               usage.ru_stime.tv_sec + usage.ru_stime.tv_usec / 1e6, wall, per_gib[run]);

      /* The child reads every page back in for the next run. */
      if (write (in, "check\n", 6) != 6 || fgets (line, sizeof line, child_out) == NULL ||
          !g_str_has_prefix (line, "ok "))
        g_error ("the child's data did not come back intact: %s", line);
    }
  qsort (per_gib, RUNS, sizeof per_gib[0], compare_double);
  g_print ("pageout: %.2f s CPU per GiB paged out (median of %d; zram, compressible data)\n"
           "  command: %s wss PID --method pageout --interval 0.01 --json\n",
           per_gib[RUNS / 2], RUNS, cli);
  fclose (child_out);
  close (in);
  cleanup ();
  return 0;
}
