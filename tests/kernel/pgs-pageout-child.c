/* pgs-pageout-child.c: a process whose working set is known, for the page-out tests
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Usage:
 *   pgs-pageout-child anon TOTAL_MIB HOT_MIB
 *     Maps TOTAL_MIB of private anonymous memory, fills every page with a pattern of its
 *     own (compressible, not same-filled), prints "ready ADDRESS" (hex) and then reads the
 *     first HOT_MIB over and over, a page at a time, resting PASS_REST_MS between passes,
 *     until a line arrives on stdin: "check"
 *     stops the touching and compares every page with its pattern, answering "ok PAGES" or
 *     "bad PAGE-INDEX"; the end of stdin exits.
 *   pgs-pageout-child shared MIB
 *     Maps a memfd of MIB shared, fills it, forks a second process that maps it too (the
 *     mapping is inherited; it reads every page so that its page table maps them), prints "ready ADDRESS PID-OF-THE-SECOND" and waits for the end
 *     of stdin.
 * Dies with its parent. THP is left as the machine has it.
 */

#include "config.h"

#define _GNU_SOURCE
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

static inline uint64_t
word_of (size_t page,
         size_t k)
{
  uint64_t v = (uint64_t) page * UINT64_C (0x9E3779B97F4A7C15);

  return k == 0 ? v ^ UINT64_C (0x5047530000000000) : v;
}

static void
fill (uint64_t *m,
      size_t    bytes,
      size_t    page)
{
  size_t words = page / sizeof (uint64_t);

  for (size_t p = 0; p < bytes / page; p++)
    for (size_t k = 0; k < words; k++)
      m[p * words + k] = word_of (p, k);
}

/* Whether a line waits on stdin, after waiting for one up to PASS_REST_MS. The rest between
 * two passes over the hot pages keeps them touched hundreds of times in any interval the
 * tests measure, while leaving the CPU to the page-out: two children reading without rest
 * kept both cores of a CI machine busy, and the page-out lost the race against their faults
 * for one in three hot pages, four measurements running (kernel-pageout/group). */
#define PASS_REST_MS 20

static int
line_ready (void)
{
  struct pollfd pfd = { STDIN_FILENO, POLLIN, 0 };

  return poll (&pfd, 1, PASS_REST_MS) > 0;
}

int
main (int   argc,
      char *argv[])
{
  size_t page = (size_t) sysconf (_SC_PAGESIZE);
  size_t mib = 1024 * 1024;
  char line[64];

  prctl (PR_SET_PDEATHSIG, SIGKILL);
  if (getppid () == 1)
    return 1;
  setvbuf (stdout, NULL, _IOLBF, 0);

  if (argc == 4 && strcmp (argv[1], "anon") == 0)
    {
      size_t total = strtoul (argv[2], NULL, 10) * mib;
      size_t hot = strtoul (argv[3], NULL, 10) * mib;
      uint64_t *m = mmap (NULL, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      volatile const char *h = (volatile const char *) m;
      unsigned long sum = 0;

      if (m == MAP_FAILED || hot > total)
        return 1;
      fill (m, total, page);
      printf ("ready %" PRIxPTR "\n", (uintptr_t) m);

      while (!line_ready ())
        for (size_t off = 0; off < hot; off += page)
          sum += h[off];

      while (fgets (line, sizeof line, stdin) != NULL)
        {
          size_t words = page / sizeof (uint64_t);
          size_t bad = (size_t) -1;

          if (strncmp (line, "check", 5) != 0)
            continue;
          for (size_t p = 0; p < total / page && bad == (size_t) -1; p++)
            for (size_t k = 0; k < words; k++)
              if (m[p * words + k] != word_of (p, k))
                {
                  bad = p;
                  break;
                }
          if (bad == (size_t) -1)
            printf ("ok %zu\n", total / page);
          else
            printf ("bad %zu\n", bad);
        }
      return (int) (sum & 0);
    }

  if (argc == 3 && strcmp (argv[1], "shared") == 0)
    {
      size_t bytes = strtoul (argv[2], NULL, 10) * mib;
      int fd = memfd_create ("pgs-pageout-shared", MFD_CLOEXEC);
      uint64_t *m;
      pid_t other;
      int sync[2];

      if (fd < 0 || ftruncate (fd, (off_t) bytes) != 0)
        return 1;
      m = mmap (NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
      if (m == MAP_FAILED)
        return 1;
      fill (m, bytes, page);
      if (pipe (sync) != 0)
        return 1;
      other = fork ();
      if (other < 0)
        return 1;
      if (other == 0)
        {
          volatile const char *p = (volatile const char *) m;
          unsigned long sum = 0;

          /* fork() copies no page table entries of a shared file mapping: reading every
           * page maps it here too, so that each page is mapped twice. */
          prctl (PR_SET_PDEATHSIG, SIGKILL);
          for (size_t off = 0; off < bytes; off += page)
            sum += p[off];
          if (write (sync[1], "r", 1) != 1 || sum == 1)
            _exit (1);
          for (;;)
            pause ();
        }
      if (read (sync[0], line, 1) != 1)
        return 1;
      printf ("ready %" PRIxPTR " %d\n", (uintptr_t) m, (int) other);
      while (fgets (line, sizeof line, stdin) != NULL)
        ;
      kill (other, SIGKILL);
      waitpid (other, NULL, 0);
      return 0;
    }

  fprintf (stderr, "usage: %s anon TOTAL_MIB HOT_MIB | shared MIB\n", argv[0]);
  return 2;
}
