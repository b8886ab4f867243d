/* pgs-cli-wss-group.c: the processes of a cgroup or an application, for wss --method
 * pageout
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A cgroup is read from its own cgroup.procs (and its descendants'), which works on any
 * hierarchy: cgroup v2, or a v1 controller hierarchy such as the memory one on machines
 * that mount v1 beside an empty v2 tree. An application is found as memrank --group-by app
 * finds it: the systemd scope or service its launcher put it in.
 */

#include "config.h"

#include <string.h>
#include <unistd.h>

#include <glib/gi18n.h>

#include "pgs-cli-wss.h"

/* Where cgroup2 is mounted, from mountinfo ("… mountpoint … - cgroup2 …"). */
static char *
cgroup2_mount (void)
{
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;

  if (!g_file_get_contents ("/proc/self/mountinfo", &text, NULL, NULL))
    return NULL;
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *sep = strstr (lines[i], " - ");
      g_auto(GStrv) left = NULL;

      if (sep == NULL || !g_str_has_prefix (sep + 3, "cgroup2 "))
        continue;
      left = g_strsplit (lines[i], " ", 6);
      if (g_strv_length (left) >= 5)
        return g_strcompress (left[4]);
    }
  return NULL;
}

static void
add_pid (GArray *pids,
         int     pid)
{
  /* This process, started from inside the group, does not measure itself. */
  if (pid == getpid ())
    return;
  for (guint i = 0; i < pids->len; i++)
    if (g_array_index (pids, int, i) == pid)
      return;
  g_array_append_val (pids, pid);
}

static gboolean
read_procs (const char  *dir,
            GArray      *pids,
            guint        depth,
            GError     **error)
{
  g_autofree char *procs = g_build_filename (dir, "cgroup.procs", NULL);
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  g_autoptr(GDir) d = NULL;
  const char *name;

  if (!g_file_get_contents (procs, &text, NULL, error))
    return FALSE;
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      int pid;

      if (lines[i][0] != '\0' && pgs_cli_parse_pid (lines[i], &pid))
        add_pid (pids, pid);
    }
  if (depth >= 64 || (d = g_dir_open (dir, 0, NULL)) == NULL)
    return TRUE;
  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *sub = g_build_filename (dir, name, NULL);
      g_autofree char *sub_procs = g_build_filename (sub, "cgroup.procs", NULL);

      if (g_file_test (sub_procs, G_FILE_TEST_EXISTS) && !read_procs (sub, pids, depth + 1, error))
        return FALSE;
    }
  return TRUE;
}

static gboolean
app_pids (const char  *app,
          const char  *procfs_root,
          GArray      *pids)
{
  g_autoptr(GDir) d = g_dir_open (procfs_root, 0, NULL);
  const char *name;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = NULL;
      g_autofree char *text = NULL;
      g_autofree char *cgroup = NULL;
      g_autofree char *unit = NULL;
      gsize len;
      int pid;

      if (!pgs_cli_parse_pid (name, &pid))
        continue;
      path = g_build_filename (procfs_root, name, "cgroup", NULL);
      if (!g_file_get_contents (path, &text, &len, NULL) ||
          (cgroup = pgs_cgroup_parse (text, len)) == NULL)
        continue;
      if (pgs_cgroup_classify (cgroup, &unit) == PGS_UNIT_APP && g_strcmp0 (unit, app) == 0)
        add_pid (pids, pid);
    }
  return TRUE;
}

gboolean
pgs_cli_wss_group_pids (const char  *cgroup,
                        const char  *app,
                        const char  *procfs_root,
                        GArray      *pids,
                        GError     **error)
{
  if (cgroup != NULL)
    {
      g_autofree char *dir = NULL;
      g_autofree char *procs = NULL;
      g_autoptr(GError) local = NULL;

      if (g_path_is_absolute (cgroup) &&
          g_file_test ((procs = g_build_filename (cgroup, "cgroup.procs", NULL)), G_FILE_TEST_EXISTS))
        dir = g_strdup (cgroup);
      else
        {
          g_autofree char *mount = cgroup2_mount ();

          if (mount != NULL)
            {
              g_clear_pointer (&procs, g_free);
              dir = g_build_filename (mount, cgroup, NULL);
              procs = g_build_filename (dir, "cgroup.procs", NULL);
              if (!g_file_test (procs, G_FILE_TEST_EXISTS))
                g_clear_pointer (&dir, g_free);
            }
        }
      if (dir == NULL)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                       _("no cgroup “%s”: give a directory of a mounted cgroup hierarchy "
                         "or a cgroup v2 path as memrank --group-by cgroup shows it"), cgroup);
          return FALSE;
        }
      if (!read_procs (dir, pids, 0, &local))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("cgroup %s: %s"), dir,
                       local->message);
          return FALSE;
        }
      if (pids->len == 0)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                       _("cgroup %s has no processes"), dir);
          return FALSE;
        }
      return TRUE;
    }

  app_pids (app, procfs_root != NULL ? procfs_root : "/proc", pids);
  if (pids->len == 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                   _("no running process of the application “%s” (found through the systemd "
                     "scope or service it runs in, as memrank --group-by app shows)"), app);
      return FALSE;
    }
  return TRUE;
}
