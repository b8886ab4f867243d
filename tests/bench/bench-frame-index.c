/* bench-frame-index.c: what the frame → processes index costs on this machine
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Scans the live machine with per-page data (as the Pages and physical views do), then
 * times the first pgs_snapshot_find_frame_users call, which builds the index, and prints:
 *
 *   page mappings  present pages with a frame number, summed over the processes
 *   build          time of the first call
 *   peak, kept     the process's peak RSS during that call (VmHWM, reset through
 *                  clear_refs 5) and its RSS afterwards, less the RSS before, in MiB and
 *                  in bytes per page mapping
 *   index          the runs it holds and their bytes per page mapping, by its own count
 *   lookup         ns per call for frames that are mapped (drawn at random from the page
 *                  mappings) and for frames drawn at random below the highest one
 *
 * and checks the users of 64 frames against a plain search through every process's pages.
 * Needs root for frame numbers in pagemap; exits 77 without.
 *
 *   meson test -C build --benchmark --verbose frame-index     (or run the binary)
 */

#include "config.h"

#include <fcntl.h>
#include <malloc.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <pagescope.h>

#include "pgs-frame-index.h"
#include "pgs-pagemap.h"
#include "pgs-process-private.h"
#include "pgs-snapshot-private.h"

#define N_LOOKUPS 200000
#define N_CHECKS  64

typedef struct
{
  guint   process;
  guint32 page;
} PageRef;

/* A "Vm...:" line of /proc/self/status, in bytes. */
static guint64
status_bytes (const char *field)
{
  g_autofree char *text = NULL;
  const char *line;

  g_assert (g_file_get_contents ("/proc/self/status", &text, NULL, NULL));
  line = strstr (text, field);
  g_assert (line != NULL);
  return g_ascii_strtoull (line + strlen (field), NULL, 10) * 1024;
}

static void
reset_peak (void)
{
  int fd = open ("/proc/self/clear_refs", O_WRONLY);

  g_assert (fd >= 0);
  g_assert (write (fd, "5", 1) == 1);
  close (fd);
}

/* The users of @pfn, found without any index: every page of every process. */
static GArray *
naive_users (PgsSnapshot *snapshot,
             guint64      pfn)
{
  GArray *users = g_array_new (FALSE, FALSE, sizeof (PgsFrameUser));

  for (guint i = 0; i < pgs_snapshot_get_n_processes (snapshot); i++)
    {
      PgsProcess *p = pgs_snapshot_get_process (snapshot, i);

      if (p->entries == NULL || p->pfn_hidden)
        continue;
      for (guint r = 0; r < p->runs->len; r++)
        {
          const PgsPageRun *run = &g_array_index (p->runs, PgsPageRun, r);

          for (guint32 j = 0; j < run->n_pages; j++)
            if (pgs_pm_pfn (p->entries[run->first + j]) == pfn)
              {
                PgsFrameUser user = { p->pid, run->start + (guint64) j * p->page_size };

                g_array_append_val (users, user);
              }
        }
    }
  return users;
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(PgsScanner) scanner = NULL;
  g_autoptr(PgsSnapshot) snapshot = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) pages = g_array_new (FALSE, FALSE, sizeof (PageRef));
  g_autoptr(GRand) rand = g_rand_new_with_seed (10);
  guint64 *hits, *misses;
  guint64 max_pfn = 0, n_users = 0;
  guint64 rss_before, rss_after, peak;
  gint64 t0, build_us, hit_us, miss_us;

  if (geteuid () != 0)
    {
      g_print ("1..0 # SKIP needs root for frame numbers\n");
      return 77;
    }

  scanner = pgs_scanner_new ();
  pgs_scanner_set_flags (scanner, PGS_SCAN_MAPPINGS | PGS_SCAN_PAGES);
  snapshot = pgs_scanner_scan (scanner, NULL, &error);
  g_assert_no_error (error);

  for (guint i = 0; i < pgs_snapshot_get_n_processes (snapshot); i++)
    {
      PgsProcess *p = pgs_snapshot_get_process (snapshot, i);

      if (p->entries == NULL || p->pfn_hidden)
        continue;
      for (gsize k = 0; k < p->n_pages; k++)
        {
          guint64 pfn = pgs_pm_pfn (p->entries[k]);
          PageRef ref = { i, (guint32) k };

          if (pfn == 0)
            continue;
          g_array_append_val (pages, ref);
          max_pfn = MAX (max_pfn, pfn);
        }
    }
  if (pages->len == 0)
    {
      g_print ("1..0 # SKIP no frame numbers in pagemap\n");
      return 77;
    }

  hits = g_new (guint64, N_LOOKUPS);
  misses = g_new (guint64, N_LOOKUPS);
  for (guint i = 0; i < N_LOOKUPS; i++)
    {
      const PageRef *ref = &g_array_index (pages, PageRef, g_rand_int_range (rand, 0, pages->len));
      PgsProcess *p = pgs_snapshot_get_process (snapshot, ref->process);

      hits[i] = pgs_pm_pfn (p->entries[ref->page]);
      misses[i] = 1 + (guint64) (g_rand_double (rand) * max_pfn);
    }

  /* Freed memory of the scan goes back to the kernel first, so that the index cannot hide
   * in pages that are resident already. */
  malloc_trim (0);
  rss_before = status_bytes ("VmRSS:");
  reset_peak ();
  t0 = g_get_monotonic_time ();
  g_array_unref (pgs_snapshot_find_frame_users (snapshot, hits[0]));
  build_us = g_get_monotonic_time () - t0;
  peak = status_bytes ("VmHWM:");
  rss_after = status_bytes ("VmRSS:");

  t0 = g_get_monotonic_time ();
  for (guint i = 0; i < N_LOOKUPS; i++)
    {
      GArray *users = pgs_snapshot_find_frame_users (snapshot, hits[i]);

      n_users += users->len;
      g_array_unref (users);
    }
  hit_us = g_get_monotonic_time () - t0;
  t0 = g_get_monotonic_time ();
  for (guint i = 0; i < N_LOOKUPS; i++)
    g_array_unref (pgs_snapshot_find_frame_users (snapshot, misses[i]));
  miss_us = g_get_monotonic_time () - t0;

  for (guint i = 0; i < N_CHECKS; i++)
    {
      guint64 pfn = i % 2 ? hits[i] : misses[i];
      g_autoptr(GArray) got = pgs_snapshot_find_frame_users (snapshot, pfn);
      g_autoptr(GArray) want = naive_users (snapshot, pfn);

      g_assert_cmpuint (got->len, ==, want->len);
      for (guint u = 0; u < want->len; u++)
        {
          g_assert_cmpint (g_array_index (got, PgsFrameUser, u).pid, ==,
                           g_array_index (want, PgsFrameUser, u).pid);
          g_assert_cmphex (g_array_index (got, PgsFrameUser, u).address, ==,
                           g_array_index (want, PgsFrameUser, u).address);
        }
    }

  g_print ("processes      %u\n", pgs_snapshot_get_n_processes (snapshot));
  g_print ("page mappings  %u (highest frame %" G_GUINT64_FORMAT ")\n", pages->len, max_pfn);
  g_print ("build          %.1f ms\n", build_us / 1e3);
  g_print ("peak           %.2f MiB, %.2f bytes per page mapping\n",
           (peak - MIN (peak, rss_before)) / 1048576.0,
           (double) (peak - MIN (peak, rss_before)) / pages->len);
  g_print ("kept           %.2f MiB, %.2f bytes per page mapping\n",
           (rss_after - MIN (rss_after, rss_before)) / 1048576.0,
           (double) (rss_after - MIN (rss_after, rss_before)) / pages->len);
  {
    PgsFrameIndex *index = pgs_frame_index_new (_pgs_snapshot_get_processes (snapshot));

    g_print ("index          %" G_GSIZE_FORMAT " runs (%.2f pages each), %.2f bytes per page mapping\n",
             pgs_frame_index_get_n_runs (index),
             (double) pages->len / MAX (pgs_frame_index_get_n_runs (index), 1),
             (double) pgs_frame_index_get_size (index) / pages->len);
    pgs_frame_index_free (index);
  }
  g_print ("lookup         %.0f ns mapped (%.2f users each), %.0f ns random\n",
           hit_us * 1e3 / N_LOOKUPS, (double) n_users / N_LOOKUPS, miss_us * 1e3 / N_LOOKUPS);
  g_print ("checked        %u frames against a search of every page: same users\n", N_CHECKS);

  g_free (hits);
  g_free (misses);
  return 0;
}
