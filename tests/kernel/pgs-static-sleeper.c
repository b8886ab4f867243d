/* pgs-static-sleeper.c: a process that shares no file page with pagescope-cli
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Linked statically, so an observer that maps libc (the CLI) does not change this process's
 * PSS or USS while it looks: the kernel's figures before and after a run are then the
 * figures during it. Writes 4 MiB, says "ready", sleeps until killed.
 */

#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <signal.h>
#include <unistd.h>

int
main (void)
{
  char *block = malloc (4u << 20);

  prctl (PR_SET_PDEATHSIG, SIGKILL);
  if (block == NULL)
    return 1;
  memset (block, 7, 4u << 20);
  printf ("ready\n");
  fflush (stdout);
  for (;;)
    pause ();
}
