/* pgs-cli-main.c: pagescope-cli, the display-less front end
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Links libpagescope-core only: a command that draws nothing loads no cairo. `render` is
 * the separate program pagescope-render, started in this process's place (exec).
 */

#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <glib/gi18n.h>

#include "pgs-cli.h"

static int run_render (int argc, char **argv);

static const PgsCliCommand commands[] = {
  { "memrank",  N_("Rank every process by proportional set size (PSS)"), pgs_cli_memrank },
  { "memstats", N_("Explain the memory of one or more processes, mapping by mapping"),
    pgs_cli_memstats },
  { "render",   N_("Draw a residency, sharing or page-flag map as PNG"), run_render },
  { "snapshot", N_("Save every process and the physical map to a snapshot file"), pgs_cli_snapshot },
  { "compare",  N_("Compare two snapshot files: what grew, shrank, came and went"), pgs_cli_compare },
  { "wss",      N_("Estimate the working set of a process over time (clear_refs)"), pgs_cli_wss },
  { "librank",  N_("Rank every mapped file (libraries, fonts, data) by PSS"), pgs_cli_librank },
  { "system",   N_("Show the RAM behind swap (zram), KSM merging and huge pages"), pgs_cli_system },
  { "record",   N_("Record memory over time: totals every second, pages every minute"), pgs_cli_record },
  { "series",   N_("Print figures over time from a recording"), pgs_cli_series },
  { "ledger",   N_("Account for every byte of MemTotal: processes, caches, kernel, free"), pgs_cli_ledger },
  { "access",   N_("Show the machine’s memory access heat from a running DAMON monitor"), pgs_cli_access },
};

/* The directory of this program, from the path it was started with: argv[0] taken against
 * the working directory and PATH at start, symbolic links resolved (a link in ~/bin to a
 * build tree finds the build tree). Not /proc/self/exe, which a process cannot always read:
 * /proc may be absent or another one (containers, chroots, a mount namespace), and the
 * link names the file as it was ("… (deleted)" after a rebuild). NULL, with the reason in
 * start_error, when argv[0] leads nowhere. */
static char *start_dir;
static char *start_error;

static void
note_start_path (const char *argv0)
{
  g_autofree char *found = NULL;
  g_autofree char *real = NULL;

  if (argv0 == NULL || *argv0 == '\0')
    {
      start_error = g_strdup (_("started without a program name"));
      return;
    }
  found = strchr (argv0, '/') != NULL ? g_strdup (argv0) : g_find_program_in_path (argv0);
  if (found == NULL)
    {
      start_error = g_strdup_printf (_("“%s” is not in PATH"), argv0);
      return;
    }
  real = realpath (found, NULL);
  if (real == NULL)
    {
      start_error = g_strdup_printf ("“%s”: %s", found, g_strerror (errno));
      return;
    }
  start_dir = g_path_get_dirname (real);
}

/* `pagescope-cli render ARGS` is `pagescope-render ARGS`, in this process: same PID, same
 * standard streams, same exit code. @argv[0] stays "render" (the name --help shows).
 * pagescope-render is looked for beside this program (the build tree), then where it is
 * installed; a failure names both places and why each would not do. */
static int
run_render (int    argc,
            char **argv)
{
  g_autofree char *beside = NULL;
  g_autofree char *beside_why = NULL;
  int saved;

  fflush (stdout);
  if (start_dir != NULL)
    {
      beside = g_build_filename (start_dir, "pagescope-render", NULL);
      execv (beside, argv);
      beside_why = g_strdup_printf ("“%s”: %s", beside, g_strerror (errno));
    }
  else
    beside_why = g_strdup (start_error);
  execv (PGS_RENDER_PATH, argv);
  saved = errno;
  pgs_cli_error (_("render: cannot run pagescope-render, neither beside this program (%s) nor "
                   "where it is installed (“%s”: %s)"),
                 beside_why, PGS_RENDER_PATH, g_strerror (saved));
  return PGS_EXIT_FAILED;
}

static void
print_usage (FILE *stream)
{
  fprintf (stream, "%s\n\n", _("Usage: pagescope-cli COMMAND [OPTION…] [ARGUMENT…]"));
  fprintf (stream, "%s\n", _("Commands:"));
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    fprintf (stream, "  %-10s %s\n", commands[i].name, _(commands[i].summary));
  fprintf (stream, "\n%s\n", _("Run “pagescope-cli COMMAND --help” for a command’s options."));
  fprintf (stream, "%s\n", _("Run as root for every process; as a normal user, other users’ "
                             "PSS and USS are unknown."));
}

int
main (int   argc,
      char *argv[])
{
#ifdef PGS_CLI_STATIC_GLIB
  /* This program carries its own copy of GIO and GObject (cli_static_glib). A GIO module
   * (gvfs, dconf) is built against the shared ones: loaded here it would register every
   * type a second time. The CLI reads local files only and needs none; set before any GIO
   * call, so the extension points find no module directory. */
  g_setenv ("GIO_MODULE_DIR", "/nonexistent/pagescope-cli-static", TRUE);
  g_unsetenv ("GIO_EXTRA_MODULES");
#endif
  pgs_cli_init_locale ();
  note_start_path (argv[0]);

  if (argc < 2 || g_str_equal (argv[1], "--help") || g_str_equal (argv[1], "-h") ||
      g_str_equal (argv[1], "help"))
    {
      print_usage (argc < 2 ? stderr : stdout);
      return argc < 2 ? PGS_EXIT_USAGE : PGS_EXIT_OK;
    }
  if (g_str_equal (argv[1], "--version"))
    {
      printf ("pagescope-cli %s\n", PACKAGE_VERSION);
      return PGS_EXIT_OK;
    }

  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    if (g_str_equal (argv[1], commands[i].name))
      return commands[i].run (argc - 1, argv + 1);

  pgs_cli_error (_("unknown command “%s”"), argv[1]);
  print_usage (stderr);
  return PGS_EXIT_USAGE;
}
