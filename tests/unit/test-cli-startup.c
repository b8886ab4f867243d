/* test-cli-startup.c: pagescope-cli loads no cairo (nor libmount); `render` still draws
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The libraries a program would load are what the dynamic loader lists when
 * LD_TRACE_LOADED_OBJECTS is set (what ldd does): the program itself does not run.
 */

#define _GNU_SOURCE 1   /* unshare () */

#include "config.h"

#include <sched.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

#include <string.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "pgs-fixture.h"
#include "pgs-kpage.h"
#include "pgs-test-cli.h"

static char *
loaded_libraries (const char *program)
{
  const char *argv[] = { program, NULL };
  g_auto(GStrv) env = g_environ_setenv (g_get_environ (), "LD_TRACE_LOADED_OBJECTS", "1", TRUE);
  g_autoptr(GError) error = NULL;
  char *out = NULL;
  int status = 0;

  g_spawn_sync (NULL, (char **) argv, env, G_SPAWN_DEFAULT, NULL, NULL, &out, NULL, &status,
                &error);
  g_assert_no_error (error);
  g_assert_true (WIFEXITED (status) && WEXITSTATUS (status) == 0);
  return out;
}

static char *
render_program (void)
{
  g_autofree char *dir = g_path_get_dirname (g_getenv ("PAGESCOPE_CLI"));

  return g_build_filename (dir, "pagescope-render", NULL);
}

static void
test_cli_loads_no_cairo (void)
{
  g_autofree char *libs = loaded_libraries (g_getenv ("PAGESCOPE_CLI"));

  /* The listing works (GLib is there), and cairo is not in it. */
  g_assert_nonnull (strstr (libs, "libglib-2.0.so"));
  g_assert_null (strstr (libs, "libcairo"));
  g_assert_null (strstr (libs, "libX11"));
}

/* With GIO linked in (-Dcli_static_glib), nothing the CLI calls reaches GIO's local files,
 * so the libraries only they need are not loaded (issue 22). */
static void
test_cli_loads_no_libmount (void)
{
  g_autofree char *libs = loaded_libraries (g_getenv ("PAGESCOPE_CLI"));

  if (strstr (libs, "libgio-2.0.so") != NULL)
    {
      g_test_skip ("pagescope-cli links the shared GIO, which needs them");
      return;
    }
  g_assert_null (strstr (libs, "libmount"));
  g_assert_null (strstr (libs, "libselinux"));
  g_assert_null (strstr (libs, "libblkid"));
}

static void
test_render_loads_cairo (void)
{
  g_autofree char *program = render_program ();
  g_autofree char *libs = loaded_libraries (program);

  g_assert_nonnull (strstr (libs, "libcairo.so"));
}

/* `pagescope-cli render` is pagescope-render in the same process: its --help, its exit
 * codes, its messages. */
static void
test_render_through_cli (void)
{
  const char *help[] = { g_getenv ("PAGESCOPE_CLI"), "render", "--help", NULL };
  const char *bad[] = { g_getenv ("PAGESCOPE_CLI"), "render", "--view", "nosuchview", NULL };
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autofree char *out2 = NULL;
  g_autofree char *err2 = NULL;
  int status = 0;

  g_spawn_sync (NULL, (char **) help, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, &err, &status,
                &error);
  g_assert_no_error (error);
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 0);
  g_assert_true (g_str_has_prefix (out, "Usage:\n  render [OPTION"));
  g_assert_nonnull (strstr (out, "--view"));

  g_spawn_sync (NULL, (char **) bad, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out2, &err2, &status,
                &error);
  g_assert_no_error (error);
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 2);
  g_assert_true (g_str_has_prefix (err2, "pagescope-cli: "));
  g_assert_nonnull (strstr (err2, "--view takes residency, sharing, flags (pages is residency) or access"));
  g_assert_nonnull (strstr (err2, "(pages is residency)"));
}

/* In the child: a /proc without self/exe (an empty tmpfs over it, in a mount namespace of
 * its own), as in a container or chroot without /proc. Exit 77 where mounts are denied. */
static void
hide_proc (gpointer data)
{
  if (unshare (CLONE_NEWNS) != 0 || mount (NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0 ||
      mount ("pagescope-test", "/proc", "tmpfs", 0, "size=4k") != 0)
    _exit (77);
}

/* Runs @program with argv[0] @argv0 and `render --help`, /proc hidden, PATH @path. */
static int
render_help_without_proc (const char  *program,
                          const char  *argv0,
                          const char  *path,
                          char       **out,
                          char       **err)
{
  const char *argv[] = { program, argv0, "render", "--help", NULL };
  g_auto(GStrv) env = g_environ_setenv (g_get_environ (), "PATH", path, TRUE);

  g_autoptr(GError) error = NULL;
  int status = 0;

  g_spawn_sync (NULL, (char **) argv, env, G_SPAWN_FILE_AND_ARGV_ZERO, hide_proc, NULL, out,
                err, &status, &error);
  g_assert_no_error (error);
  g_assert_true (WIFEXITED (status));
  return WEXITSTATUS (status);
}

/* `render` finds pagescope-render beside the program from the path it was started with,
 * not through /proc/self/exe: given as a path, and found in PATH. */
static void
test_render_without_proc (void)
{
  const char *cli = g_getenv ("PAGESCOPE_CLI");
  g_autofree char *dir = g_path_get_dirname (cli);
  g_autofree char *out = NULL, *err = NULL;
  g_autofree char *out2 = NULL, *err2 = NULL;
  int code;

#ifdef __SANITIZE_ADDRESS__
  /* LeakSanitizer reads /proc at exit and fails fatally without it; its options, read from
   * /proc/self/environ, cannot even turn it off there. */
  g_test_skip ("a sanitizer build needs /proc in every process it runs");
  return;
#endif
  code = render_help_without_proc (cli, cli, "/usr/bin:/bin", &out, &err);
  if (code == 77)
    {
      g_test_skip ("mounts are denied here: cannot hide /proc");
      return;
    }
  g_test_message ("as a path: exit %d, %s", code, err);
  g_assert_cmpint (code, ==, 0);
  g_assert_true (g_str_has_prefix (out, "Usage:\n  render [OPTION"));

  code = render_help_without_proc (cli, "pagescope-cli", dir, &out2, &err2);
  g_test_message ("from PATH: exit %d, %s", code, err2);
  g_assert_cmpint (code, ==, 0);
  g_assert_true (g_str_has_prefix (out2, "Usage:\n  render [OPTION"));
}

/* Where there is no pagescope-render beside the program, the message names both places:
 * beside it, and where it is installed. */
static void
test_render_missing (void)
{
  g_autofree char *dir = g_dir_make_tmp ("pgs-cli-startup-XXXXXX", NULL);
  g_autofree char *copy = g_build_filename (dir, "pagescope-cli", NULL);
  g_autofree char *beside = g_build_filename (dir, "pagescope-render", NULL);
  g_autofree char *contents = NULL;
  g_autofree char *out = NULL, *err = NULL;
  g_autofree char *expect = NULL;
  g_autoptr(GError) error = NULL;
  const char *argv[] = { copy, "render", "--help", NULL };
  gsize len = 0;
  int status = 0;

  g_assert_true (g_file_get_contents (g_getenv ("PAGESCOPE_CLI"), &contents, &len, &error));
  g_assert_true (g_file_set_contents_full (copy, contents, len, G_FILE_SET_CONTENTS_NONE, 0755,
                                           &error));
  g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, &err, &status,
                &error);
  g_assert_no_error (error);
  g_unlink (copy);
  g_rmdir (dir);
  g_assert_true (WIFEXITED (status));
  if (WEXITSTATUS (status) == 0)
    {
      g_test_skip ("pagescope-render is installed on this machine");
      return;
    }
  g_test_message ("%s", err);
  g_assert_cmpint (WEXITSTATUS (status), ==, 3);
  g_assert_cmpstr (out, ==, "");
  expect = g_strdup_printf ("pagescope-cli: render: cannot run pagescope-render, neither beside "
                            "this program (“%s”: No such file or directory) nor where it is "
                            "installed (“", beside);
  g_assert_true (g_str_has_prefix (err, expect));
  g_assert_nonnull (strstr (err, "/pagescope/pagescope-render”: "));
}

/* `--view pages`, the name of the app's tab, is the residency view: the same PNG, byte for
 * byte, and the same figures. One process, 8 pages mapped, the first 3 resident. */
static void
test_render_pages (void)
{
  g_autoptr(PgsFixture) fx = pgs_fixture_new ();
  g_autofree char *dir = g_dir_make_tmp ("pgs-cli-startup-XXXXXX", NULL);
  g_autofree char *a = g_build_filename (dir, "residency.png", NULL);
  g_autofree char *b = g_build_filename (dir, "pages.png", NULL);
  g_autofree char *out_a = NULL, *out_b = NULL, *png_a = NULL, *png_b = NULL;
  gsize len_a = 0, len_b = 0;
  guint64 pages[3];

  pgs_fixture_add_process (fx, 100, "alpha", 0, FALSE);
  pgs_fixture_add_mapping (fx, 100, 0x10000000, 0x10000000 + 8 * 4096, "rw-p", "[heap]");
  for (guint i = 0; i < 3; i++)
    {
      pages[i] = FX_PRESENT_EXCL (10 + i);
      pgs_fixture_set_frame (fx, 10 + i, 1, PGS_KPF_BIT (PGS_KPF_ANON));
    }
  pgs_fixture_set_pages (fx, 100, 0x10000000, pages, 3);
  pgs_fixture_commit (fx);

  g_assert_cmpint (pgs_test_run_cli (fx, &out_a, NULL, "render", "--view", "residency", "--pid",
                                     "100", "--width", "16", "--height", "16", "--json", "-o", a,
                                     NULL), ==, 0);
  g_assert_cmpint (pgs_test_run_cli (fx, &out_b, NULL, "render", "--view", "pages", "--pid",
                                     "100", "--width", "16", "--height", "16", "--json", "-o", b,
                                     NULL), ==, 0);
  g_assert_nonnull (strstr (out_b, "\"view\": \"residency\""));
  /* All but the file name. */
  g_assert_cmpstr (strstr (out_a, "\"width\""), ==, strstr (out_b, "\"width\""));
  g_assert_nonnull (strstr (strstr (out_a, "\"id\": \"private-anon\""), "\"pages\": 3,"));
  g_assert_true (g_file_get_contents (a, &png_a, &len_a, NULL));
  g_assert_true (g_file_get_contents (b, &png_b, &len_b, NULL));
  g_assert_cmpuint (len_a, >, 100);
  g_assert_cmpmem (png_a, len_a, png_b, len_b);
  g_unlink (a);
  g_unlink (b);
  g_rmdir (dir);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/cli-startup/no-cairo", test_cli_loads_no_cairo);
  g_test_add_func ("/cli-startup/no-libmount", test_cli_loads_no_libmount);
  g_test_add_func ("/cli-startup/render-has-cairo", test_render_loads_cairo);
  g_test_add_func ("/cli-startup/render-through-cli", test_render_through_cli);
  g_test_add_func ("/cli-startup/render-without-proc", test_render_without_proc);
  g_test_add_func ("/cli-startup/render-missing", test_render_missing);
  g_test_add_func ("/cli-startup/render-pages", test_render_pages);
  return g_test_run ();
}
