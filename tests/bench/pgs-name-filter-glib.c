/* pgs-name-filter-glib.c: the yardstick for a name filter, as a minimal GLib program
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * pgs-name-filter's work written the way a GLib program would: GDir lists /proc,
 * g_file_get_contents() reads every /proc/PID/comm, the PIDs whose name holds WORD and the
 * count are printed. Links libglib-2.0 alone (no GObject, no GIO): what it costs beyond
 * pgs-name-filter is loading and starting GLib, the floor for any GLib program.
 *
 *   pgs-name-filter-glib WORD
 */

#include <string.h>

#include <glib.h>

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GDir) dir = NULL;
  const char *name;
  guint n = 0, matched = 0;

  if (argc != 2)
    {
      g_printerr ("usage: pgs-name-filter-glib WORD\n");
      return 2;
    }
  dir = g_dir_open ("/proc", 0, &error);
  if (dir == NULL)
    {
      g_printerr ("%s\n", error->message);
      return 1;
    }
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = NULL;
      g_autofree char *comm = NULL;
      gsize len;

      if (!g_ascii_isdigit (name[0]))
        continue;
      n++;
      path = g_build_filename ("/proc", name, "comm", NULL);
      if (!g_file_get_contents (path, &comm, &len, NULL) || len == 0)
        continue;   /* exited since the listing */
      if (comm[len - 1] == '\n')
        comm[len - 1] = '\0';
      if (strstr (comm, argv[1]) != NULL)
        {
          g_print ("%s\n", name);
          matched++;
        }
    }

  g_print ("%u of %u processes\n", matched, n);
  return 0;
}
