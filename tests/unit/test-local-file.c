/* test-local-file.c: pagescope-cli's GLib-only file code says what GIO says
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * pgs-local-file.c and pgs-app-id-keyfile.c stand in for GFile and GDesktopAppInfo in
 * pagescope-cli (issue 22). The expectations here are GIO's own answers for the same files,
 * asked in the same process: the reference is the library the CLI used before.
 */

#include "config.h"

#include <gio/gdesktopappinfo.h>
#include <glib/gstdio.h>

#include "pgs-app-id.h"
#include "pgs-local-file.h"

static char *tmp_dir;

static void
check_arg (const char *arg)
{
  g_autoptr(GFile) file = g_file_new_for_commandline_arg (arg);
  g_autofree char *expected = g_file_get_path (file);
  g_autofree char *path = pgs_local_file_from_arg (arg);

  g_test_message ("arg %s", arg);
  g_assert_cmpstr (path, ==, expected);
  if (expected != NULL)
    {
      g_autofree char *parse_expected = g_file_get_parse_name (file);
      g_autofree char *parse = pgs_local_file_parse_name (path);

      g_assert_cmpstr (parse, ==, parse_expected);
    }
}

static void
test_arg (void)
{
  check_arg ("/tmp/a.pgsnap");
  check_arg ("/tmp//b/../a.pgsnap");
  check_arg ("rel/./x.pgsnap");
  check_arg ("../x.pgsnap");
  check_arg ("file:///tmp/a%20b.pgsnap");
  check_arg ("file:///tmp/a.pgsnap#frag");
  check_arg ("/tmp/caf\xc3\xa9");
  check_arg ("/tmp/bad\xff" "name");
  check_arg ("/tmp/tab\there");
  check_arg ("/");
}

/* Loading @path: GIO's query_info and load_contents against ours. */
static void
check_load (const char *path)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) gio_error = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GFileInfo) info = NULL;
  g_autofree char *gio_data = NULL;
  g_autofree char *data = NULL;
  gsize gio_len = 0, len = 0;
  goffset size = -1;
  gboolean gio_ok, ok;

  g_test_message ("load %s", path);
  info = g_file_query_info (file, G_FILE_ATTRIBUTE_STANDARD_SIZE, G_FILE_QUERY_INFO_NONE, NULL, &gio_error);
  ok = pgs_local_file_query_size (path, &size, &error);
  g_assert_cmpint (ok, ==, info != NULL);
  if (info == NULL)
    {
      g_assert_error (error, gio_error->domain, gio_error->code);
      g_assert_cmpstr (error->message, ==, gio_error->message);
      return;
    }
  g_assert_cmpint (size, ==, g_file_info_get_size (info));

  gio_ok = g_file_load_contents (file, NULL, &gio_data, &gio_len, NULL, &gio_error);
  ok = pgs_local_file_load (path, &data, &len, &error);
  g_assert_cmpint (ok, ==, gio_ok);
  if (!gio_ok)
    {
      g_assert_error (error, gio_error->domain, gio_error->code);
      g_assert_cmpstr (error->message, ==, gio_error->message);
      return;
    }
  g_assert_cmpmem (data, len + 1, gio_data, gio_len + 1);
}

static void
test_load (void)
{
  g_autofree char *file = g_build_filename (tmp_dir, "data", NULL);
  g_autofree char *big = g_build_filename (tmp_dir, "big", NULL);
  g_autofree char *link = g_build_filename (tmp_dir, "link", NULL);
  g_autofree char *dangling = g_build_filename (tmp_dir, "dangling", NULL);
  g_autofree char *missing = g_build_filename (tmp_dir, "missing", NULL);
  g_autofree char *under_file = g_build_filename (file, "x", NULL);
  g_autofree char *filler = g_strnfill (100000, 'p');

  g_assert_true (g_file_set_contents (file, "snap\nshot", -1, NULL));
  g_assert_true (g_file_set_contents (big, filler, -1, NULL));
  g_assert_cmpint (symlink (file, link), ==, 0);
  g_assert_cmpint (symlink (missing, dangling), ==, 0);

  check_load (file);
  check_load (big);
  check_load (link);
  check_load (dangling);
  check_load (missing);
  check_load (under_file);
  check_load (tmp_dir);
}

/* Saving over @path: the same error as GIO's create-then-move, or the same file. */
static void
check_save (const char *path,
            gboolean    expect_ok)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *data = NULL;
  gsize len;
  gboolean ok;

  g_test_message ("save %s", path);
  ok = pgs_local_file_save_atomic (path, (const guint8 *) "head", 4, (const guint8 *) "body", 4, &error);
  g_assert_cmpint (ok, ==, expect_ok);
  if (ok)
    {
      g_assert_true (g_file_get_contents (path, &data, &len, NULL));
      g_assert_cmpstr (data, ==, "headbody");
    }
  else
    {
      /* What GIO says for the step that failed. */
      g_autoptr(GFile) file = g_file_new_for_path (path);
      g_autoptr(GFile) parent = g_file_get_parent (file);
      g_autofree char *base = g_file_get_basename (file);
      g_autofree char *name = g_strdup_printf (".%s.0.tmp", base);
      g_autoptr(GFile) tmp = g_file_get_child (parent, name);
      g_autoptr(GError) gio_error = NULL;
      g_autoptr(GFileOutputStream) out = g_file_create (tmp, G_FILE_CREATE_NONE, NULL, &gio_error);

      if (out != NULL)
        {
          g_assert_true (g_output_stream_close (G_OUTPUT_STREAM (out), NULL, NULL));
          g_assert_false (g_file_move (tmp, file, G_FILE_COPY_OVERWRITE | G_FILE_COPY_NO_FALLBACK_FOR_MOVE,
                                       NULL, NULL, NULL, &gio_error));
          g_file_delete (tmp, NULL, NULL);
          g_assert_cmpstr (error->message, ==, gio_error->message);
        }
      else
        {
          /* The temporary file's random name is in the message: compare around it. */
          g_assert_true (g_str_has_prefix (error->message, "Error opening file “"));
          g_assert_true (g_str_has_suffix (error->message, strrchr (gio_error->message, ':')));
        }
      g_assert_error (error, gio_error->domain, gio_error->code);
    }
}

static void
test_save (void)
{
  g_autofree char *file = g_build_filename (tmp_dir, "saved", NULL);
  g_autofree char *dir = g_build_filename (tmp_dir, "adir", NULL);
  g_autofree char *in_missing = g_build_filename (tmp_dir, "nodir", "saved", NULL);
  g_autoptr(GDir) listing = NULL;
  const char *entry;

  g_assert_cmpint (g_mkdir (dir, 0755), ==, 0);
  check_save (file, TRUE);
  check_save (file, TRUE);
  check_save (dir, FALSE);
  check_save (in_missing, FALSE);

  /* No temporary file is left behind. */
  listing = g_dir_open (tmp_dir, 0, NULL);
  while ((entry = g_dir_read_name (listing)) != NULL)
    g_assert_false (g_str_has_suffix (entry, ".tmp"));
}

static void
check_app (const char *id)
{
  g_autofree char *desktop = g_strconcat (id, ".desktop", NULL);
  g_autoptr(GDesktopAppInfo) info = g_desktop_app_info_new (desktop);
  g_autofree char *name = NULL;
  g_autofree char *icon = NULL;

  g_test_message ("app %s", id);
  g_assert_cmpint (pgs_app_id_lookup (id, &name, &icon), ==, info != NULL);
  if (info != NULL)
    {
      GIcon *gicon = g_app_info_get_icon (G_APP_INFO (info));
      g_autofree char *expected_icon = gicon != NULL ? g_icon_to_string (gicon) : NULL;

      g_assert_cmpstr (name, ==, g_app_info_get_name (G_APP_INFO (info)));
      g_assert_cmpstr (icon, ==, expected_icon);
    }
}

static void
write_desktop (const char *relative,
               const char *contents)
{
  g_autofree char *path = g_build_filename (tmp_dir, "applications", relative, NULL);
  g_autofree char *dir = g_path_get_dirname (path);

  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  g_assert_true (g_file_set_contents (path, contents, -1, NULL));
}

/* Must run first in the process: GIO reads the XDG directories once. */
static void
test_app_id (void)
{
  write_desktop ("org.example.Editor.desktop",
                 "[Desktop Entry]\nType=Application\nName=My Editor\nName[de]=Editor\nExec=true %U\n"
                 "Icon=accessories-text-editor\n");
  write_desktop ("org.example.Png.desktop",
                 "[Desktop Entry]\nType=Application\nName=Png\nExec=true\nIcon=viewer.png\n");
  write_desktop ("org.example.Path.desktop",
                 "[Desktop Entry]\nType=Application\nName=Path\nExec=true\nIcon=/usr/share/x/../y.svg\n");
  write_desktop ("org.example.NoName.desktop", "[Desktop Entry]\nType=Application\nExec=true\n");
  write_desktop ("org.example.Link.desktop", "[Desktop Entry]\nType=Link\nName=L\nURL=http://x\n");
  write_desktop ("org.example.Gone.desktop",
                 "[Desktop Entry]\nType=Application\nName=Gone\nExec=pagescope-no-such-program\n");
  write_desktop ("org.example.Try.desktop",
                 "[Desktop Entry]\nType=Application\nName=Try\nTryExec=pagescope-no-such-program\nExec=true\n");
  write_desktop ("vendor/sub-app.desktop", "[Desktop Entry]\nType=Application\nName=Sub\nExec=true\n");
  write_desktop ("broken.desktop", "not a key file\n");

  check_app ("org.example.Editor");
  check_app ("org.example.Png");
  check_app ("org.example.Path");
  check_app ("org.example.NoName");
  check_app ("org.example.Link");
  check_app ("org.example.Gone");
  check_app ("org.example.Try");
  check_app ("vendor-sub-app");
  check_app ("broken");
  check_app ("org.example.Missing");
}

int
main (int   argc,
      char *argv[])
{
  int result;

  tmp_dir = g_dir_make_tmp ("pagescope-local-file-XXXXXX", NULL);
  g_assert_nonnull (tmp_dir);
  /* Only this directory: the machine's own desktop files must not change the answer. */
  g_setenv ("XDG_DATA_DIRS", tmp_dir, TRUE);
  g_setenv ("XDG_DATA_HOME", tmp_dir, TRUE);
  g_setenv ("XDG_CONFIG_HOME", tmp_dir, TRUE);
  g_setenv ("XDG_CONFIG_DIRS", tmp_dir, TRUE);
  g_setenv ("GIO_USE_VFS", "local", TRUE);
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/pgs/local-file/app-id", test_app_id);
  g_test_add_func ("/pgs/local-file/arg", test_arg);
  g_test_add_func ("/pgs/local-file/load", test_load);
  g_test_add_func ("/pgs/local-file/save", test_save);
  result = g_test_run ();

  {
    g_autofree char *cmd = g_strdup_printf ("rm -rf '%s'", tmp_dir);
    (void) !system (cmd);
  }
  g_free (tmp_dir);
  return result;
}
