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
  { "ledger",   N_("Account for every byte of MemTotal: processes, caches, kernel, free"), pgs_cli_ledger },
};

/* pagescope-render beside this executable (the build tree), else where it is installed. */
static char *
render_program (void)
{
  g_autofree char *self = g_file_read_link ("/proc/self/exe", NULL);

  if (self != NULL)
    {
      g_autofree char *dir = g_path_get_dirname (self);
      char *beside = g_build_filename (dir, "pagescope-render", NULL);

      if (access (beside, X_OK) == 0)
        return beside;
      g_free (beside);
    }
  return g_strdup (PGS_RENDER_PATH);
}

/* `pagescope-cli render ARGS` is `pagescope-render ARGS`, in this process: same PID, same
 * standard streams, same exit code. @argv[0] stays "render" (the name --help shows). */
static int
run_render (int    argc,
            char **argv)
{
  g_autofree char *program = render_program ();

  fflush (stdout);
  execv (program, argv);
  pgs_cli_error (_("render: cannot run “%s”: %s"), program, g_strerror (errno));
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
  pgs_cli_init_locale ();

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
