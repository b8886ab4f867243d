/* pgs-ui-child.c: the process the ui test looks for in the app
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Exec'd, and linked statically, so it shares no page with the test process: the app running
 * in the test breaks no copy-on-write sharing with it and maps no library page it maps, so
 * its PSS and USS stay exactly what they were from one scan to the next. Writes argv[1]
 * pages, prints their address, and sleeps until its stdin closes. With argv[2], each "g"
 * read from stdin writes argv[2] pages more (test-history's Growth) and prints "grown".
 */

#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

int
main (int   argc,
      char *argv[])
{
  long page = sysconf (_SC_PAGESIZE);
  long n_pages = argc > 1 ? atol (argv[1]) : 0;
  long n_more = argc > 2 ? atol (argv[2]) : 0;
  void *buffer = NULL;
  ssize_t got;
  char c;

  prctl (PR_SET_PDEATHSIG, SIGKILL);
  if (n_pages <= 0 || posix_memalign (&buffer, page, n_pages * page) != 0)
    return 1;
  /* Non-zero bytes: a page only read would map the shared zero page instead. */
  for (long i = 0; i < n_pages; i++)
    memset ((char *) buffer + i * page, 0x5a + (i & 0x1f), page);
  printf ("%" PRIxPTR "\n", (uintptr_t) buffer);
  fflush (stdout);
  while ((got = read (0, &c, 1)) != 0)
    {
      void *more = NULL;

      if (got < 0 && errno == EINTR)
        continue;
      if (got < 0 || c != 'g' || n_more <= 0)
        break;
      if (posix_memalign (&more, page, n_more * page) != 0)
        return 1;
      for (long i = 0; i < n_more; i++)
        memset ((char *) more + i * page, 0x3c + (i & 0x1f), page);
      printf ("grown\n");
      fflush (stdout);
    }
  return 0;
}
