/* bench-app-memory.c: the app's memory over refreshes, its cost per refresh, its first pixels
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Issue 10's figures for the app, measured on the app itself under a virtual X server
 * (`meson test -C build --benchmark app-memory --verbose`):
 *
 *  - start to first pixels: the built pagescope, spawned, logs the monotonic time of its
 *    window's first painted frame (G_MESSAGES_DEBUG); the time from just before the spawn
 *    to that frame, median of five starts;
 *  - memory: the window of this process (the app's own code, as pgs-ui-util.c runs it), every
 *    view visited, then 20 refreshes, then 100 more: Anonymous and Pss of smaps_rollup at
 *    the start, after 20 and after 100 (goal: anonymous ≤ 64 MB, no growth 20 → 100);
 *  - the refresh cost: CPU seconds of the whole process (every thread) and wall time per
 *    refresh on the process list, and on the Sharing page (which reads the physical map).
 */

#include "config.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gio/gunixinputstream.h>

#include "pgs-ui-memory.h"

#define N_STARTS 5
#define MB       (1024.0 * 1024.0)

/* Seconds from spawning @app to its first painted frame, and to its first figures shown
 * (the first scan in the list), or negative numbers. */
static void
first_pixels (const char *app,
              double     *frame,
              double     *figures)
{
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) env = g_get_environ ();
  const char *argv[] = { app, NULL };
  g_autoptr(GDataInputStream) in = NULL;
  GInputStream *raw;
  gint64 start;
  GPid pid;
  int out_fd;

  env = g_environ_setenv (env, "G_MESSAGES_DEBUG", "Pagescope", TRUE);
  start = g_get_monotonic_time ();
  if (!g_spawn_async_with_pipes (NULL, (char **) argv, env, G_SPAWN_DO_NOT_REAP_CHILD, NULL, NULL,
                                 &pid, NULL, &out_fd, NULL, &error))
    g_error ("Could not start %s: %s", app, error->message);

  raw = g_unix_input_stream_new (out_fd, TRUE);
  in = g_data_input_stream_new (raw);
  g_object_unref (raw);
  for (;;)
    {
      g_autofree char *line = g_data_input_stream_read_line (in, NULL, NULL, NULL);
      const char *mark;

      if (line == NULL)
        break;
      if ((mark = strstr (line, "First frame painted at ")) != NULL)
        *frame = (g_ascii_strtoll (mark + strlen ("First frame painted at "), NULL, 10) - start) / 1e6;
      else if ((mark = strstr (line, "First figures shown at ")) != NULL)
        *figures = (g_ascii_strtoll (mark + strlen ("First figures shown at "), NULL, 10) - start) / 1e6;
      if (*frame >= 0 && *figures >= 0)
        break;
    }
  kill (pid, SIGTERM);
  waitpid (pid, NULL, 0);
  g_spawn_close_pid (pid);
}

static int
compare_double (gconstpointer a,
                gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

static void
print_memory (const char        *when,
              const PgsUiMemory *m)
{
  /* malloc's own view: what is allocated, against what its arenas hold from the kernel. */
  g_print ("  %-28s anonymous %7.1f MB   pss %7.1f MB   (malloc: %.1f MB in use of %.1f MB)\n",
           when, m->anonymous / MB, m->pss / MB, m->malloc_used / MB, m->malloc_held / MB);
}

static void
print_cost (const char        *what,
            const PgsUiMemory *before,
            const PgsUiMemory *after,
            guint              n)
{
  g_print ("  %-28s %6.3f CPU-s   %6.3f s wall  (per refresh, %u refreshes)\n", what,
           (after->cpu_s - before->cpu_s) / n, (after->wall_s - before->wall_s) / n, n);
}

int
main (int   argc,
      char *argv[])
{
  PgsApplication *app;
  PgsWindow *window;
  PgsUiMemory start, visited, after20, after100, sharing0, sharing5;
  double frames[N_STARTS], figures[N_STARTS];
  guint n_starts = 0;

  pgs_ui_init (&argc, &argv);

  g_print ("bench-app-memory (issue 10), pid %d\n", getpid ());
  if (argc > 1)
    {
      for (guint i = 0; i < N_STARTS; i++)
        {
          double frame = -1, shown = -1;

          first_pixels (argv[1], &frame, &shown);
          if (frame >= 0 && shown >= 0)
            {
              frames[n_starts] = frame;
              figures[n_starts++] = shown;
            }
        }
      if (n_starts > 0)
        {
          qsort (frames, n_starts, sizeof (double), compare_double);
          qsort (figures, n_starts, sizeof (double), compare_double);
          g_print ("  start to first pixels       median %.3f s (min %.3f, max %.3f, %u starts)\n",
                   frames[n_starts / 2], frames[0], frames[n_starts - 1], n_starts);
          g_print ("  start to first figures      median %.3f s (min %.3f, max %.3f)\n",
                   figures[n_starts / 2], figures[0], figures[n_starts - 1]);
        }
      else
        g_print ("  start to first pixels       not logged by %s\n", argv[1]);
    }

  window = pgs_ui_open_window (&app);
  pgs_ui_wait_idle_scan (window);
  /* A selected process, as a user has: this one (its pages are the window's own). */
  pgs_window_select_pid (window, getpid ());
  pgs_ui_memory_read (&start);

  pgs_ui_memory_visit_all (window);
  pgs_ui_memory_read (&visited);
  pgs_ui_memory_refresh (window, 20);
  pgs_ui_memory_read (&after20);
  pgs_ui_memory_refresh (window, 100);
  pgs_ui_memory_read (&after100);

  pgs_window_set_view (window, "sharing");
  pgs_ui_wait_idle_scan (window);
  pgs_ui_memory_read (&sharing0);
  pgs_ui_memory_refresh (window, 5);
  pgs_ui_memory_read (&sharing5);

  print_memory ("window shown, first scan", &start);
  print_memory ("every view visited", &visited);
  print_memory ("after 20 refreshes", &after20);
  print_memory ("after 100 more", &after100);
  g_print ("  growth 20 → 100             anonymous %+7.1f MB   pss %+7.1f MB\n",
           ((double) after100.anonymous - after20.anonymous) / MB,
           ((double) after100.pss - after20.pss) / MB);
  print_cost ("refresh, process list", &after20, &after100, 100);
  print_cost ("refresh, Sharing page", &sharing0, &sharing5, 5);

  /* Back on the list, the window is left as it is: under heaptrack, what is still
   * allocated at exit is then what the app holds there. */
  pgs_window_set_view (window, "processes");
  pgs_ui_memory_refresh (window, 2);
  return 0;
}
