/* pgs-record-child.c: grows and shrinks on command, for test-record.py
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Reads lines on stdin: "g" maps 10 MiB of private anonymous memory and writes every page,
 * "f" unmaps the later half of what it holds; after each it writes "ok" and waits. Static,
 * so that it shares no library page whose PSS others' comings and goings would move.
 */

#include "config.h"

#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#define STEP (10u << 20)

int
main (void)
{
  static void *held[64];
  unsigned n = 0;
  char line[16];

  while (fgets (line, sizeof line, stdin) != NULL)
    {
      if (line[0] == 'g' && n < 64)
        {
          void *p = mmap (NULL, STEP, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

          if (p == MAP_FAILED)
            return 1;
          memset (p, 1, STEP);
          held[n++] = p;
        }
      else if (line[0] == 'f')
        {
          unsigned keep = n / 2;

          while (n > keep)
            munmap (held[--n], STEP);
        }
      fputs ("ok\n", stdout);
      fflush (stdout);
    }
  return 0;
}
