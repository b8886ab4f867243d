/* pgs-group-child.c: one process of the load tests/kernel/test-group.py groups
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Static, like pgs-static-sleeper, so the CLI mapping libc while it looks changes none of
 * this process's figures. Usage: pgs-group-child MEMFD DATA MEMFD_PAGES DATA_PAGES
 * PRIVATE_PAGES. Waits for a line on stdin (the test moves it into its cgroup first), maps
 * and writes MEMFD_PAGES of the inherited memfd (shared), maps and reads DATA_PAGES of the
 * file DATA (shared), writes PRIVATE_PAGES of anonymous memory, says "ready" and waits for
 * stdin to close.
 */

#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <unistd.h>

int
main (int   argc,
      char *argv[])
{
  long ps = sysconf (_SC_PAGESIZE);
  char line[64];
  int memfd, data_fd;
  long memfd_pages, data_pages, private_pages;
  volatile char *m, *d, *p;
  volatile char sink = 0;

  prctl (PR_SET_PDEATHSIG, SIGKILL);
  if (argc != 6)
    return 2;
  memfd = atoi (argv[1]);
  memfd_pages = atol (argv[3]);
  data_pages = atol (argv[4]);
  private_pages = atol (argv[5]);
  if (fgets (line, sizeof line, stdin) == NULL)
    return 1;

  data_fd = open (argv[2], O_RDONLY | O_CLOEXEC);
  if (data_fd < 0)
    return 1;
  m = mmap (NULL, memfd_pages * ps, PROT_READ | PROT_WRITE, MAP_SHARED, memfd, 0);
  d = mmap (NULL, data_pages * ps, PROT_READ, MAP_SHARED, data_fd, 0);
  p = mmap (NULL, private_pages * ps, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (m == MAP_FAILED || d == MAP_FAILED || p == MAP_FAILED)
    return 1;
  for (long i = 0; i < memfd_pages; i++)
    m[i * ps] = 1;
  for (long i = 0; i < data_pages; i++)
    sink += d[i * ps];
  for (long i = 0; i < private_pages; i++)
    p[i * ps] = 2;

  printf ("ready\n");
  fflush (stdout);
  while (fgets (line, sizeof line, stdin) != NULL)
    ;
  return sink == 42 ? 3 : 0;
}
