/* pgs-render-main.c: pagescope-render, the program behind `pagescope-cli render`
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The one command that draws, and so the one that links cairo: apart, so that every other
 * command of pagescope-cli starts without loading it. pagescope-cli starts it in its own
 * place with argv[0] "render"; its options, output and exit codes are `render`'s.
 */

#include "config.h"

#include "pgs-cli.h"

int
main (int   argc,
      char *argv[])
{
  pgs_cli_init_locale ();
  return pgs_cli_render (argc, argv);
}
