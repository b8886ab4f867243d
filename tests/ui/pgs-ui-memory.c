/* pgs-ui-memory.c
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <malloc.h>
#include <string.h>
#include <sys/resource.h>

#include "pgs-ui-memory.h"

/* Anonymous and Pss of smaps_rollup, in bytes: the kernel's own count for this process. */
void
pgs_ui_memory_read (PgsUiMemory *memory)
{
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  g_autoptr(GError) error = NULL;
  struct rusage usage;
  struct mallinfo2 info = mallinfo2 ();

  g_file_get_contents ("/proc/self/smaps_rollup", &text, NULL, &error);
  g_assert_no_error (error);

  memory->anonymous = memory->pss = 0;
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      guint64 *field = NULL;
      const char *rest = NULL;

      if (g_str_has_prefix (lines[i], "Anonymous:"))
        field = &memory->anonymous, rest = lines[i] + strlen ("Anonymous:");
      else if (g_str_has_prefix (lines[i], "Pss:"))
        field = &memory->pss, rest = lines[i] + strlen ("Pss:");
      if (field != NULL)
        *field = g_ascii_strtoull (rest, NULL, 10) * 1024;
    }
  g_assert_cmpuint (memory->pss, >, 0);

  g_assert_cmpint (getrusage (RUSAGE_SELF, &usage), ==, 0);
  memory->cpu_s = usage.ru_utime.tv_sec + usage.ru_utime.tv_usec / 1e6 +
                  usage.ru_stime.tv_sec + usage.ru_stime.tv_usec / 1e6;
  memory->wall_s = g_get_monotonic_time () / 1e6;
  memory->malloc_used = info.uordblks + info.hblkhd;
  memory->malloc_held = info.arena + info.hblkhd;
}

static gboolean
scan_idle (gpointer data)
{
  return !pgs_window_is_busy (data) && pgs_window_get_snapshot (data) != NULL;
}

void
pgs_ui_memory_refresh (PgsWindow *window,
                       guint      times)
{
  for (guint i = 0; i < times; i++)
    {
      g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.refresh", NULL));
      g_assert_true (pgs_ui_wait (scan_idle, window, 120000));
      /* One frame drawn with the new figures, as a user would see it. */
      gtk_test_widget_wait_for_draw (GTK_WIDGET (window));
    }
  /* The last snapshot is freed, and its memory given back, in a worker (pgs-release.c):
   * a moment for it, so that every reading is taken in the same state. */
  pgs_ui_spin (1000);
}

void
pgs_ui_memory_visit_all (PgsWindow *window)
{
  static const char * const views[] = {
    "processes", "groups", "libraries", "residency", "sharing", "flags",
  };

  for (guint i = 0; i < G_N_ELEMENTS (views); i++)
    {
      PgsMapPage *page;

      pgs_window_set_view (window, views[i]);
      pgs_ui_wait_idle_scan (window);
      /* The last three are the map pages, PgsView 0, 1, 2. */
      page = i >= 3 ? pgs_window_get_map_page (window, (PgsView) (i - 3)) : NULL;
      if (page != NULL)
        pgs_ui_wait_map_ready (pgs_map_page_get_map_view (page));
      /* The Groups and Libraries pages compute in threads of their own. */
      pgs_ui_spin (500);
    }
  pgs_window_set_view (window, "processes");
  pgs_ui_wait_idle_scan (window);
}
