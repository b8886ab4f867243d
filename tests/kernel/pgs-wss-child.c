/* pgs-wss-child.c: a process with a known working set, for the working-set tests
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Usage: pgs-wss-child [--rounds] FILE
 *
 * Maps and fills three regions (sizes in pgs-wss-child.h), then touches a known part of two
 * of them:
 *   touched    anonymous, WSS_TOUCHED_MIB; the first WSS_HOT_MIB written to in a loop
 *   untouched  anonymous, WSS_UNTOUCHED_MIB; filled once, never touched again
 *   file       FILE, shared, WSS_FILE_MIB; the first WSS_FILE_HOT_MIB read in a loop
 * Prints "ready TOUCHED UNTOUCHED FILE" (hex addresses) once all of it is resident. THP is
 * turned off on the regions so that the kernel counts them 4 KiB at a time. Dies with its
 * parent.
 *
 * Without --rounds it touches them in a loop forever (every 2 ms), for a measurement whose
 * interval it cannot see (the app's dialog). With --rounds it touches them once per line read
 * on stdin and answers "done N" on stdout after round N, exiting at the end of stdin: a test
 * clears, asks for a round, waits for "done", then reads back, and so knows that a whole
 * round happened inside the interval however busy the machine is.
 */

#include "config.h"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#include "pgs-wss-child.h"

/* Each region sits between PROT_NONE guard pages, so the kernel cannot merge it with a
 * neighbouring mapping of the same kind: every region is one VMA, one smaps record. */
static char *
map_region (size_t bytes,
            int    fd)
{
  size_t page = (size_t) sysconf (_SC_PAGESIZE);
  char *area, *p;

  area = mmap (NULL, bytes + 2 * page, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (area == MAP_FAILED)
    {
      perror ("mmap");
      exit (1);
    }
  p = mmap (area + page, bytes, PROT_READ | PROT_WRITE,
            MAP_FIXED | (fd < 0 ? MAP_PRIVATE | MAP_ANONYMOUS : MAP_SHARED), fd, 0);
  if (p == MAP_FAILED)
    {
      perror ("mmap");
      exit (1);
    }
  madvise (p, bytes, MADV_NOHUGEPAGE);
  /* Every page written once: resident, and in the anonymous case not the zero page. */
  for (size_t off = 0; off < bytes; off += page)
    p[off] = 1;
  return p;
}

int
main (int   argc,
      char *argv[])
{
  const size_t mib = 1024 * 1024;
  long page = sysconf (_SC_PAGESIZE);
  const struct timespec pause = { 0, 2 * 1000 * 1000 };
  volatile char *touched, *file;
  char *untouched;
  unsigned long sum = 0;
  unsigned long round = 0;
  int rounds = argc == 3 && strcmp (argv[1], "--rounds") == 0;
  char line[64];
  int fd;

  if (argc != 2 + rounds)
    {
      fprintf (stderr, "usage: %s [--rounds] FILE\n", argv[0]);
      return 2;
    }
  argv += rounds;
  prctl (PR_SET_PDEATHSIG, SIGKILL);
  if (getppid () == 1)
    return 1;

  fd = open (argv[1], O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0 || ftruncate (fd, WSS_FILE_MIB * mib) != 0)
    {
      perror (argv[1]);
      return 1;
    }

  touched = map_region (WSS_TOUCHED_MIB * mib, -1);
  untouched = map_region (WSS_UNTOUCHED_MIB * mib, -1);
  file = map_region (WSS_FILE_MIB * mib, fd);

  printf ("ready %lx %lx %lx\n", (unsigned long) touched, (unsigned long) untouched,
          (unsigned long) file);
  fflush (stdout);

  for (;;)
    {
      if (rounds && fgets (line, sizeof line, stdin) == NULL)
        break;
      /* A translation the CPU cached before the clearing may still say "accessed", and an
       * access through it sets nothing in the page table (clear_refs 1-3 need not flush
       * TLBs): under load a round came out 31 pages short of 16 MiB. Taking write permission
       * away and back flushes this process's translations, so every page of the round is
       * walked again and marked. */
      if (rounds)
        {
          mprotect ((void *) touched, WSS_TOUCHED_MIB * mib, PROT_READ);
          mprotect ((void *) touched, WSS_TOUCHED_MIB * mib, PROT_READ | PROT_WRITE);
          mprotect ((void *) file, WSS_FILE_MIB * mib, PROT_READ);
          mprotect ((void *) file, WSS_FILE_MIB * mib, PROT_READ | PROT_WRITE);
        }
      for (size_t off = 0; off < WSS_HOT_MIB * mib; off += page)
        touched[off]++;
      for (size_t off = 0; off < WSS_FILE_HOT_MIB * mib; off += page)
        sum += file[off];
      if (rounds)
        {
          printf ("done %lu\n", ++round);
          fflush (stdout);
        }
      else
        nanosleep (&pause, NULL);
    }

  return (int) (sum & 1);
}
