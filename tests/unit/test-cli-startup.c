/* test-cli-startup.c: pagescope-cli loads no cairo; `render` still draws
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The libraries a program would load are what the dynamic loader lists when
 * LD_TRACE_LOADED_OBJECTS is set (what ldd does): the program itself does not run.
 */

#include "config.h"

#include <sys/wait.h>

#include <string.h>

#include <glib.h>

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
  g_assert_nonnull (strstr (err2, "--view takes residency, sharing or flags"));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/cli-startup/no-cairo", test_cli_loads_no_cairo);
  g_test_add_func ("/cli-startup/render-has-cairo", test_render_loads_cairo);
  g_test_add_func ("/cli-startup/render-through-cli", test_render_through_cli);
  return g_test_run ();
}
