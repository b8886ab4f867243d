/* bench-physmap-scale.c: `render` of a 1 TiB-like physical map, as a whole process
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Tiles this machine's own /proc/kpagecount and /proc/kpageflags into a procfs-like tree
 * of at least 256 Mi frames (1 TiB of 4 KiB pages) in a temporary directory under
 * /var/tmp, then, in interleaved rounds:
 *
 *   render: the built `pagescope-cli render --procfs TREE --view flags -o x.png` (no PID:
 *           the tree has no processes, so only the physical map is read), start to exit,
 *           its peak RSS from wait4()
 *   read:   a plain read(2) of both files through one 1 MiB buffer, nothing kept
 *
 * and prints the medians: peak RSS per frame (goal <= 1 B/frame) and the render's time
 * per frame beyond the plain read (goal <= 10 ns/frame). The tree is deleted at the end,
 * also on failure or SIGINT/SIGTERM/SIGHUP. Needs root for /proc/kpage*; exits 77 without.
 *
 *   meson test -C build --benchmark --verbose physmap-scale
 *   build/tests/bench/bench-physmap-scale [ROUNDS]      (PAGESCOPE_CLI: the binary to run,
 *   PGS_BENCH_FRAMES: frames in the tree, PGS_BENCH_VIEW: flags or sharing,
 *   PGS_BENCH_LAYOUT: linear or hilbert)
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <glib.h>

static char tree[64];
static char count_path[96], flags_path[96], png_path[96];

static void
remove_tree (void)
{
  /* Async-signal-safe: unlink and rmdir only. */
  if (tree[0] == '\0')
    return;
  unlink (count_path);
  unlink (flags_path);
  unlink (png_path);
  rmdir (tree);
  tree[0] = '\0';
}

static void
on_signal (int sig)
{
  remove_tree ();
  signal (sig, SIG_DFL);
  raise (sig);
}

static double
now (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int
cmp_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

static double
median (double *v, int n)
{
  qsort (v, n, sizeof *v, cmp_double);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static gboolean
write_all (int fd, const void *data, size_t len)
{
  const char *p = data;

  while (len > 0)
    {
      ssize_t w = write (fd, p, len);

      if (w < 0 && errno == EINTR)
        continue;
      if (w <= 0)
        return FALSE;
      p += w;
      len -= w;
    }
  return TRUE;
}

static gboolean
write_tiled (const char *path, const char *data, gsize len, guint tiles)
{
  int fd = open (path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  gboolean ok = fd >= 0;

  for (guint t = 0; ok && t < tiles; t++)
    ok = write_all (fd, data, len);
  if (fd >= 0 && close (fd) < 0)
    ok = FALSE;
  return ok;
}

/* Both files through one reused buffer, as `cat` would. */
static double
cpu_self (void)
{
  struct rusage ru;

  getrusage (RUSAGE_SELF, &ru);
  return ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6 + ru.ru_stime.tv_sec + ru.ru_stime.tv_usec * 1e-6;
}

static double
plain_read (double *cpu)
{
  static char buf[1 << 20];
  const char *paths[] = { count_path, flags_path };
  double t0 = now (), c0 = cpu_self ();

  for (int i = 0; i < 2; i++)
    {
      int fd = open (paths[i], O_RDONLY);
      ssize_t got;

      if (fd < 0)
        g_error ("%s: %s", paths[i], g_strerror (errno));
      while ((got = read (fd, buf, sizeof buf)) > 0)
        ;
      close (fd);
    }
  *cpu = cpu_self () - c0;
  return now () - t0;
}

static gboolean
run_render (const char *cli, const char *view, const char *layout,
            double *seconds, double *cpu, long *maxrss_kib)
{
  struct rusage ru;
  int status;
  double t0 = now ();
  pid_t pid = fork ();

  if (pid < 0)
    return FALSE;
  if (pid == 0)
    {
      int null = open ("/dev/null", O_WRONLY);

      if (null >= 0)
        dup2 (null, STDOUT_FILENO);
      execl (cli, cli, "render", "--procfs", tree, "--view", view, "--layout", layout,
             "-o", png_path, (char *) NULL);
      _exit (127);
    }
  while (wait4 (pid, &status, 0, &ru) < 0)
    if (errno != EINTR)
      return FALSE;
  *seconds = now () - t0;
  *cpu = ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6 + ru.ru_stime.tv_sec + ru.ru_stime.tv_usec * 1e-6;
  *maxrss_kib = ru.ru_maxrss;
  return WIFEXITED (status) && WEXITSTATUS (status) == 0;
}

int
main (int argc, char **argv)
{
  const char *cli = g_getenv ("PAGESCOPE_CLI");
  const char *view = g_getenv ("PGS_BENCH_VIEW") ? g_getenv ("PGS_BENCH_VIEW") : "flags";
  const char *layout = g_getenv ("PGS_BENCH_LAYOUT") ? g_getenv ("PGS_BENCH_LAYOUT") : "linear";
  guint64 want = g_getenv ("PGS_BENCH_FRAMES")
                 ? g_ascii_strtoull (g_getenv ("PGS_BENCH_FRAMES"), NULL, 10) : (G_GUINT64_CONSTANT (1) << 28);
  int rounds = argc > 1 ? atoi (argv[1]) : 3;
  g_autofree char *counts = NULL, *flags = NULL;
  gsize n_counts = 0, n_flags = 0;
  g_autoptr(GError) error = NULL;
  guint tiles;
  guint64 runs;
  guint64 frames;
  struct statvfs vfs;
  double *t_render, *t_read, *c_render, *c_read, dummy;
  long peak_kib = 0;
  int failed = 0;

  if (cli == NULL || rounds < 1)
    {
      fprintf (stderr, "usage: PAGESCOPE_CLI=path/to/pagescope-cli %s [ROUNDS]\n", argv[0]);
      return 2;
    }
  if (!g_file_get_contents ("/proc/kpagecount", &counts, &n_counts, &error) ||
      !g_file_get_contents ("/proc/kpageflags", &flags, &n_flags, &error))
    {
      printf ("SKIP: %s\n", error->message);
      return 77;
    }
  if (n_counts != n_flags || n_counts == 0)
    {
      fprintf (stderr, "kpagecount and kpageflags differ in length\n");
      return 1;
    }
  tiles = (guint) ((want + n_counts / 8 - 1) / (n_counts / 8));
  /* The runs of (count, flags) in one tile: what the map's size follows (8 bytes a run),
   * and it changes with the machine's state, so it is printed with the figures. */
  {
    const guint64 *c = (const guint64 *) (gpointer) counts, *f = (const guint64 *) (gpointer) flags;

    runs = 1;
    for (gsize i = 1; i < n_counts / 8; i++)
      runs += c[i] != c[i - 1] || f[i] != f[i - 1];
  }
  frames = (guint64) tiles * (n_counts / 8);

  g_snprintf (tree, sizeof tree, "/var/tmp/pgs-physmap-scale-XXXXXX");
  if (mkdtemp (tree) == NULL)
    {
      fprintf (stderr, "mkdtemp: %s\n", g_strerror (errno));
      return 1;
    }
  g_snprintf (count_path, sizeof count_path, "%s/kpagecount", tree);
  g_snprintf (flags_path, sizeof flags_path, "%s/kpageflags", tree);
  g_snprintf (png_path, sizeof png_path, "%s/x.png", tree);
  atexit (remove_tree);
  signal (SIGINT, on_signal);
  signal (SIGTERM, on_signal);
  signal (SIGHUP, on_signal);

  if (statvfs (tree, &vfs) == 0 &&
      (guint64) vfs.f_bavail * vfs.f_frsize < frames * 16 + (G_GUINT64_CONSTANT (1) << 30))
    {
      printf ("SKIP: %s has %" G_GUINT64_FORMAT " MiB free, the tree needs %" G_GUINT64_FORMAT " MiB\n",
              tree, (guint64) vfs.f_bavail * vfs.f_frsize >> 20, frames * 16 >> 20);
      return 77;
    }
  if (!write_tiled (count_path, counts, n_counts, tiles) ||
      !write_tiled (flags_path, flags, n_flags, tiles))
    {
      fprintf (stderr, "writing %s: %s\n", tree, g_strerror (errno));
      return 1;
    }
  g_clear_pointer (&counts, g_free);
  g_clear_pointer (&flags, g_free);

  printf ("tree: %s, %" G_GUINT64_FORMAT " frames (this machine's %" G_GSIZE_FORMAT " x %u), "
          "%" G_GUINT64_FORMAT " MiB; %" G_GUINT64_FORMAT " runs of (count, flags) a tile\n",
          tree, frames, n_counts / 8, tiles, frames * 16 >> 20, runs);
  printf ("render: %s render --procfs TREE --view %s --layout %s -o x.png\n", cli, view, layout);

  t_render = g_new (double, rounds);
  t_read = g_new (double, rounds);
  c_render = g_new (double, rounds);
  c_read = g_new (double, rounds);
  plain_read (&dummy);  /* into the page cache, for both alike */
  for (int r = 0; r < rounds; r++)
    {
      long kib = 0;

      t_read[r] = plain_read (&c_read[r]);
      if (!run_render (cli, view, layout, &t_render[r], &c_render[r], &kib))
        {
          fprintf (stderr, "round %d: render failed\n", r);
          failed = 1;
          break;
        }
      peak_kib = MAX (peak_kib, kib);
      printf ("round %d: render %.2f s (CPU %.2f s, peak RSS %ld MiB), plain read %.2f s (CPU %.2f s)\n",
              r, t_render[r], c_render[r], kib >> 10, t_read[r], c_read[r]);
    }
  if (!failed)
    {
      double render = median (t_render, rounds), read = median (t_read, rounds);

      printf ("render median %.2f s = %.1f ns/frame; plain read %.2f s = %.1f ns/frame\n",
              render, render * 1e9 / frames, read, read * 1e9 / frames);
      printf ("beyond the plain read: %.1f ns/frame (goal <= 10)\n",
              (render - read) * 1e9 / frames);
      render = median (c_render, rounds);
      read = median (c_read, rounds);
      printf ("CPU time (user + system, steadier on a shared machine): render %.2f s, plain read "
              "%.2f s, beyond: %.1f ns/frame\n", render, read, (render - read) * 1e9 / frames);
      printf ("peak RSS: %ld MiB = %.2f B/frame (goal <= 1)\n", peak_kib >> 10,
              peak_kib * 1024.0 / frames);
    }
  g_free (t_render);
  g_free (t_read);
  g_free (c_render);
  g_free (c_read);
  remove_tree ();
  return failed;
}
