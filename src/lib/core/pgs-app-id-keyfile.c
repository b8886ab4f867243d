/* pgs-app-id-keyfile.c: pgs_app_id_lookup () for pagescope-cli, with GKeyFile
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * pgs-app-id.c asks GDesktopAppInfo, which brings GFile and GIO's local files, and with
 * them libmount, libselinux and libblkid into every start of pagescope-cli (issue 22). The
 * command-line tool links this file in its place: the same answer from the same desktop
 * files, found and accepted as GLib 2.74's gdesktopappinfo.c finds and accepts them (the
 * user's data directory, then the system's, "a-b.desktop" also as "a/b.desktop"; Type
 * Application, a TryExec and an Exec that are installed; Name localised, "Unnamed" without
 * one), the icon as g_icon_to_string () writes a GThemedIcon or a GFileIcon.
 */

#include "config.h"

#include <string.h>

#include <gio/gio.h>

#include "pgs-app-id.h"

/* The file of the desktop id @id under @dir, or NULL: "a-b-c.desktop" may also be
 * "a/b-c.desktop", "a-b/c.desktop" or "a/b/c.desktop". */
static char *
find_in (const char *dir,
         const char *id)
{
  g_autofree char *path = g_build_filename (dir, id, NULL);

  if (g_file_test (path, G_FILE_TEST_IS_REGULAR))
    return g_steal_pointer (&path);
  for (const char *dash = strchr (id, '-'); dash != NULL; dash = strchr (dash + 1, '-'))
    {
      g_autofree char *prefix = g_strndup (id, dash - id);
      g_autofree char *sub = g_build_filename (dir, prefix, NULL);
      char *found;

      if (dash[1] == '\0' || !g_file_test (sub, G_FILE_TEST_IS_DIR))
        continue;
      found = find_in (sub, dash + 1);
      if (found != NULL)
        return found;
    }
  return NULL;
}

static gboolean
installed (const char *program)
{
  g_autofree char *found = g_find_program_in_path (program);

  return found != NULL;
}

/* gdesktopappinfo.c's g_desktop_app_info_load_from_keyfile (): what makes a desktop file an
 * application it offers. */
static gboolean
is_application (GKeyFile *key_file)
{
  g_autofree char *type = NULL;
  g_autofree char *try_exec = NULL;
  g_autofree char *exec = NULL;

  if (!g_key_file_has_group (key_file, G_KEY_FILE_DESKTOP_GROUP))
    return FALSE;
  type = g_key_file_get_string (key_file, G_KEY_FILE_DESKTOP_GROUP, G_KEY_FILE_DESKTOP_KEY_TYPE, NULL);
  if (type == NULL || strcmp (type, G_KEY_FILE_DESKTOP_TYPE_APPLICATION) != 0)
    return FALSE;
  try_exec = g_key_file_get_string (key_file, G_KEY_FILE_DESKTOP_GROUP, G_KEY_FILE_DESKTOP_KEY_TRY_EXEC, NULL);
  if (try_exec != NULL && try_exec[0] != '\0' && !installed (try_exec))
    return FALSE;
  exec = g_key_file_get_string (key_file, G_KEY_FILE_DESKTOP_GROUP, G_KEY_FILE_DESKTOP_KEY_EXEC, NULL);
  if (exec != NULL && exec[0] != '\0')
    {
      g_auto(GStrv) argv = NULL;

      if (!g_shell_parse_argv (exec, NULL, &argv, NULL) || !installed (argv[0]))
        return FALSE;
    }
  return TRUE;
}

/* g_icon_to_string () of the icon GDesktopAppInfo makes of @icon_name. */
static char *
icon_string (const char *icon_name)
{
  g_autofree char *name = g_strdup (icon_name);
  g_autofree char *escaped = NULL;
  char *dot;

  if (g_path_is_absolute (name))
    {
      /* A GFileIcon: its (canonical) path. */
      g_autofree char *path = g_canonicalize_filename (name, NULL);
      g_autofree char *uri = NULL;

      if (g_utf8_validate (path, -1, NULL))
        return g_steal_pointer (&path);
      uri = g_filename_to_uri (path, NULL, NULL);
      escaped = g_uri_escape_string (uri != NULL ? uri : "", G_URI_RESERVED_CHARS_ALLOWED_IN_PATH, TRUE);
      return g_strconcat (". GFileIcon ", escaped, NULL);
    }
  /* gdesktopappinfo.c works around a common mistake in desktop files. */
  dot = strrchr (name, '.');
  if (dot != NULL && (strcmp (dot, ".png") == 0 || strcmp (dot, ".xpm") == 0 || strcmp (dot, ".svg") == 0))
    *dot = '\0';
  if (name[0] != '.' && g_utf8_validate (name, -1, NULL))
    return g_steal_pointer (&name);
  escaped = g_uri_escape_string (name, G_URI_RESERVED_CHARS_ALLOWED_IN_PATH, TRUE);
  return g_strconcat (". GThemedIcon ", escaped, NULL);
}

gboolean
pgs_app_id_lookup (const char  *id,
                   char       **name,
                   char       **icon)
{
  g_autofree char *desktop_id = NULL;
  g_autoptr(GPtrArray) dirs = g_ptr_array_new_with_free_func (g_free);
  const char * const *system = g_get_system_data_dirs ();

  g_return_val_if_fail (id != NULL, FALSE);
  g_return_val_if_fail (name != NULL && icon != NULL, FALSE);

  /* An id with a slash is not a desktop id. */
  if (*id == '\0' || strchr (id, '/') != NULL)
    return FALSE;
  desktop_id = g_strconcat (id, ".desktop", NULL);

  g_ptr_array_add (dirs, g_build_filename (g_get_user_data_dir (), "applications", NULL));
  for (guint i = 0; system[i] != NULL; i++)
    g_ptr_array_add (dirs, g_build_filename (system[i], "applications", NULL));

  for (guint i = 0; i < dirs->len; i++)
    {
      g_autofree char *file = find_in (g_ptr_array_index (dirs, i), desktop_id);
      g_autoptr(GKeyFile) key_file = NULL;
      g_autofree char *icon_name = NULL;
      char *app_name;

      if (file == NULL)
        continue;
      key_file = g_key_file_new ();
      if (!g_key_file_load_from_file (key_file, file, G_KEY_FILE_NONE, NULL) || !is_application (key_file))
        continue;

      app_name = g_key_file_get_locale_string (key_file, G_KEY_FILE_DESKTOP_GROUP,
                                               G_KEY_FILE_DESKTOP_KEY_NAME, NULL, NULL);
      *name = app_name != NULL ? app_name : g_strdup (g_dgettext ("glib20", "Unnamed"));
      icon_name = g_key_file_get_locale_string (key_file, G_KEY_FILE_DESKTOP_GROUP,
                                                G_KEY_FILE_DESKTOP_KEY_ICON, NULL, NULL);
      *icon = icon_name != NULL ? icon_string (icon_name) : NULL;
      return TRUE;
    }
  return FALSE;
}
