/* bench-render.c: reading and drawing the physical map against their floors
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Side by side, in interleaved rounds, medians of the per-round ratios:
 *
 *   read:   pgs_physmap_read (kpagecount + kpageflags into the snapshot's arrays)
 *   raw:    read(2) of both files whole through one reused 64 KiB buffer, nothing kept
 *           (goal: read <= 1.1 x raw)
 *
 *   render: 6.5 million frames (a 24 GiB machine) into 1920 x 1080, the flags and the
 *           sharing view, linear and Hilbert; "cold" includes classifying every frame
 *           (a new renderer, as after a refresh), "warm" redraws (as on pan and zoom)
 *   floor:  one pass that reads every frame's flags and writes each pixel once
 *           (goal: cold render <= 2 x floor, warm <= 1.5 x)
 *
 * The 6.5 million frames repeat this machine's own counts and flags. Its map ends in a
 * long run of flagless frames (memory the hypervisor holds back), which draws faster than
 * real use, so a second mix repeats only the frames below the first such run of 64 Ki
 * frames. Needs root for /proc/kpage*; exits 77 without.
 *
 *   meson test -C build --benchmark --verbose        (or run the binary)
 *   build/tests/bench/bench-render --map ROOT        (the render rounds of a map saved
 *     under ROOT, its kpagecount and kpageflags: as it is, busy, and its head)
 *   valgrind --tool=callgrind --toggle-collect=pgs_renderer_render \
 *     build/tests/bench/bench-render --once [flags|sharing] [linear|hilbert] [ROOT [busy|head]]
 *   (instructions of one cold and one warm render; ROOT: a directory holding a saved
 *   kpagecount and kpageflags, for counts that repeat; busy: the second mix; head: the
 *   frames before the map's flagless end, repeated)
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <pagescope.h>

#include "pgs-snapshot-private.h"

#define N_FRAMES (6500000)
#define WIDTH    1920
#define HEIGHT   1080
#define ROUNDS   7
#define CHUNK    (64 * 1024)

static double
now (void)
{
  return g_get_monotonic_time () / 1e6;
}

static int
compare_double (const void *a,
                const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

static double
median (double *v,
        guint   n)
{
  qsort (v, n, sizeof *v, compare_double);
  return v[n / 2];
}

static guint64
raw_read (const char *path,
          guint8     *buf)
{
  int fd = open (path, O_RDONLY | O_CLOEXEC);
  guint64 total = 0;
  ssize_t n;

  g_assert (fd >= 0);
  while ((n = read (fd, buf, CHUNK)) > 0)
    total += n;
  close (fd);
  return total;
}

/* The floor: every frame's flags read, every pixel written once. */
static void
floor_pass (const guint64 *flags,
            guint64        n,
            guint32       *pixels)
{
  guint64 per = (n + (guint64) WIDTH * HEIGHT - 1) / ((guint64) WIDTH * HEIGHT);
  guint64 i = 0;

  for (guint64 p = 0; p < (guint64) WIDTH * HEIGHT; p++)
    {
      guint64 v = 0;

      for (guint64 k = 0; k < per && i < n; k++, i++)
        v |= flags[i];
      pixels[p] = 0xff000000u | (guint32) v;
    }
}

static PgsSnapshot *
synthesize (const guint32 *counts,
            const guint64 *flags,
            guint64        n_source)
{
  guint32 *c = g_new (guint32, N_FRAMES);
  guint64 *f = g_new (guint64, N_FRAMES);
  g_autoptr(PgsPhysMap) physmap = NULL;
  g_autoptr(GPtrArray) processes = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GArray) skipped = g_array_new (FALSE, TRUE, sizeof (PgsSkipped));

  for (guint64 i = 0; i < N_FRAMES; i += n_source)
    {
      guint64 len = MIN (n_source, N_FRAMES - i);

      memcpy (c + i, counts, len * sizeof *c);
      memcpy (f + i, flags, len * sizeof *f);
    }
  physmap = pgs_physmap_new_take (c, f, N_FRAMES);
  return _pgs_snapshot_new (processes, skipped, TRUE, 4096, physmap);
}

/* The frames below the first run of 64 Ki flagless frames. */
static guint64
busy_prefix (const guint64 *flags,
             guint64        n)
{
  guint64 run = 0;

  for (guint64 i = 0; i < n; i++)
    {
      run = flags[i] == 0 ? run + 1 : 0;
      if (run == 65536)
        return i + 1 - run;
    }
  return n;
}

/* The frames a mix repeats: all, "busy" (busy_prefix()), or "head" (those before the
 * flagless stretch that ends the map). */
static guint64
mix_frames (const guint64 *flags,
            guint64        n,
            const char    *mix)
{
  if (g_strcmp0 (mix, "busy") == 0)
    return busy_prefix (flags, n);
  if (g_strcmp0 (mix, "head") == 0)
    while (n > 1 && flags[n - 1] == 0)
      n--;
  return n;
}

static void
bench_render (const char  *mix,
              PgsSnapshot *snapshot,
              guint32     *pixels)
{
  const guint64 *flags = pgs_physmap_get_flags (pgs_snapshot_get_physmap (snapshot));
  static const struct { PgsView view; PgsLayout layout; const char *name; } cases[] = {
    { PGS_VIEW_FLAGS, PGS_LAYOUT_LINEAR, "flags   linear " },
    { PGS_VIEW_FLAGS, PGS_LAYOUT_HILBERT, "flags   hilbert" },
    { PGS_VIEW_SHARING, PGS_LAYOUT_LINEAR, "sharing linear " },
    { PGS_VIEW_SHARING, PGS_LAYOUT_HILBERT, "sharing hilbert" },
  };

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      double cold[ROUNDS], warm[ROUNDS], floor_t[ROUNDS], rc[ROUNDS], rw[ROUNDS];

      for (guint r = 0; r < ROUNDS; r++)
        {
          g_autoptr(PgsRenderer) renderer = pgs_renderer_new (snapshot, cases[c].view);
          double t0, t1, t2, t3;

          pgs_renderer_set_layout (renderer, cases[c].layout);
          t0 = now ();
          floor_pass (flags, N_FRAMES, pixels);
          t1 = now ();
          pgs_renderer_render (renderer, (guint8 *) pixels, WIDTH, HEIGHT, WIDTH * 4);
          t2 = now ();
          pgs_renderer_render (renderer, (guint8 *) pixels, WIDTH, HEIGHT, WIDTH * 4);
          t3 = now ();
          floor_t[r] = t1 - t0;
          cold[r] = t2 - t1;
          warm[r] = t3 - t2;
          rc[r] = cold[r] / floor_t[r];
          rw[r] = warm[r] / floor_t[r];
        }
      printf ("%-6s %s  floor %6.2f ms  cold %6.2f ms (%.2fx)  warm %6.2f ms (%.2fx)\n", mix,
              cases[c].name, median (floor_t, ROUNDS) * 1e3, median (cold, ROUNDS) * 1e3,
              median (rc, ROUNDS), median (warm, ROUNDS) * 1e3, median (rw, ROUNDS));
    }
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(PgsPhysMap) machine = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(PgsSnapshot) as_is = NULL;
  g_autoptr(PgsSnapshot) busy = NULL;
  g_autofree guint8 *buf = g_malloc (CHUNK);
  g_autofree guint32 *pixels = g_new (guint32, WIDTH * HEIGHT);
  double t_read[ROUNDS], t_raw[ROUNDS], ratio[ROUNDS];
  guint64 prefix;

  if (argc > 1 && g_str_equal (argv[1], "--once"))
    {
      /* One cold and one warm render, for callgrind: of this machine's mix, or of the map
       * saved under ROOT (its kpagecount and kpageflags), so that counts repeat. */
      g_autoptr(PgsRenderer) renderer = NULL;
      const char *root = argc > 4 ? argv[4] : NULL;
      g_autofree char *sum = NULL;
      const guint64 *flags;

      if (root == NULL && access ("/proc/kpageflags", R_OK) != 0)
        {
          printf ("SKIP: needs root to read /proc/kpageflags\n");
          return 77;
        }
      machine = pgs_physmap_read (root, NULL, &error);
      g_assert_no_error (error);
      flags = pgs_physmap_get_flags (machine);
      as_is = synthesize (pgs_physmap_get_counts (machine), flags,
                          mix_frames (flags, pgs_physmap_get_n_frames (machine),
                                      argc > 5 ? argv[5] : NULL));
      renderer = pgs_renderer_new (as_is, argc > 2 && g_str_equal (argv[2], "sharing")
                                          ? PGS_VIEW_SHARING : PGS_VIEW_FLAGS);
      pgs_renderer_set_layout (renderer, argc > 3 && g_str_equal (argv[3], "hilbert")
                                         ? PGS_LAYOUT_HILBERT : PGS_LAYOUT_LINEAR);
      pgs_renderer_render (renderer, (guint8 *) pixels, WIDTH, HEIGHT, WIDTH * 4);
      pgs_renderer_render (renderer, (guint8 *) pixels, WIDTH, HEIGHT, WIDTH * 4);
      sum = g_compute_checksum_for_data (G_CHECKSUM_SHA1, (const guint8 *) pixels,
                                         (gsize) WIDTH * HEIGHT * 4);
      printf ("frames %d, pixels sha1 %s\n", N_FRAMES, sum);
      return 0;
    }

  if (argc > 2 && g_str_equal (argv[1], "--map"))
    {
      /* The render rounds only, on the map saved under ROOT, in three mixes. */
      static const char *const mixes[] = { "as-is", "busy", "head" };
      const guint64 *flags;

      machine = pgs_physmap_read (argv[2], NULL, &error);
      g_assert_no_error (error);
      flags = pgs_physmap_get_flags (machine);
      for (guint m = 0; m < G_N_ELEMENTS (mixes); m++)
        {
          g_autoptr(PgsSnapshot) mix = NULL;

          mix = synthesize (pgs_physmap_get_counts (machine), flags,
                            mix_frames (flags, pgs_physmap_get_n_frames (machine), mixes[m]));
          bench_render (mixes[m], mix, pixels);
        }
      return 0;
    }

  if (access ("/proc/kpageflags", R_OK) != 0)
    {
      printf ("SKIP: needs root to read /proc/kpageflags\n");
      return 77;
    }

  for (guint r = 0; r < ROUNDS; r++)
    {
      g_autoptr(PgsPhysMap) physmap = NULL;
      double t0, t1, t2;

      t0 = now ();
      raw_read ("/proc/kpagecount", buf);
      raw_read ("/proc/kpageflags", buf);
      t1 = now ();
      physmap = pgs_physmap_read (NULL, NULL, &error);
      g_assert_no_error (error);
      t2 = now ();
      t_raw[r] = t1 - t0;
      t_read[r] = t2 - t1;
      ratio[r] = t_read[r] / t_raw[r];
      if (r == ROUNDS - 1)
        machine = g_steal_pointer (&physmap);
    }
  printf ("physmap of %" G_GUINT64_FORMAT " frames: read %.1f ms, raw read of both files %.1f ms: "
          "%.2fx (goal <= 1.1x)\n", pgs_physmap_get_n_frames (machine),
          median (t_read, ROUNDS) * 1e3, median (t_raw, ROUNDS) * 1e3, median (ratio, ROUNDS));

  as_is = synthesize (pgs_physmap_get_counts (machine), pgs_physmap_get_flags (machine),
                      pgs_physmap_get_n_frames (machine));
  prefix = mix_frames (pgs_physmap_get_flags (machine), pgs_physmap_get_n_frames (machine),
                       "busy");
  busy = synthesize (pgs_physmap_get_counts (machine), pgs_physmap_get_flags (machine), prefix);
  printf ("render of %d frames into %dx%d (goal: cold <= 2x floor, warm <= 1.5x); \"busy\" "
          "repeats the first %" G_GUINT64_FORMAT " frames\n", N_FRAMES, WIDTH, HEIGHT, prefix);
  bench_render ("as-is", as_is, pixels);
  bench_render ("busy", busy, pixels);
  return 0;
}
