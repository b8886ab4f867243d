/* pgs-layout-child.c: a process with a known memory layout, for the kernel tests
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Exec'd (not forked) by the test so it shares nothing with the test's own heap. It maps:
 *   priv    N_PRIV pages of private anonymous memory, all written after fork()
 *   cow     N_COW pages written before fork(): shared copy-on-write with its child
 *   shanon  N_SHANON pages of shared anonymous memory, written before fork()
 *   file    N_FILE pages of a file mapped shared, read before fork()
 *   thp     4 MiB aligned to 2 MiB, MADV_HUGEPAGE, written after fork()
 *   swapped N_SWAP pages written after fork(), then MADV_PAGEOUT
 *   zero    N_ZERO pages of private anonymous memory only read: the zero page
 * then prints the addresses on one line and sleeps until killed. The child sleeps too.
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "pgs-layout.h"

#ifndef MADV_PAGEOUT
#define MADV_PAGEOUT 21
#endif

/* Each region is followed by a PROT_NONE guard page, so the kernel cannot merge it with a
 * neighbour of the same kind and every region stays a mapping of its own. */
static char *
map (size_t len,
     int    prot,
     int    flags)
{
  long ps = sysconf (_SC_PAGESIZE);
  char *p = mmap (NULL, len + ps, prot, flags, -1, 0);

  if (p == MAP_FAILED || mprotect (p + len, ps, PROT_NONE) != 0)
    {
      perror ("mmap");
      exit (1);
    }
  return p;
}

int
main (int   argc,
      char *argv[])
{
  long ps = sysconf (_SC_PAGESIZE);
  const size_t thp_size = 4u << 20, align = 2u << 20;
  char *priv, *cow, *shanon, *file, *thp, *swapped, *zero, *raw;
  volatile char sink = 0;
  int pageout = 0;
  int ready[2];
  char byte;
  pid_t child;
  int fd;

  /* Die with the test, whatever happens to it. */
  prctl (PR_SET_PDEATHSIG, SIGKILL);

  if (argc != 2)
    {
      fprintf (stderr, "usage: %s FILE\n", argv[0]);
      return 2;
    }

  cow = map (N_COW * ps, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS);
  memset (cow, 2, N_COW * ps);
  shanon = map (N_SHANON * ps, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS);
  memset (shanon, 3, N_SHANON * ps);

  fd = open (argv[1], O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0 || ftruncate (fd, N_FILE * ps) != 0)
    {
      perror (argv[1]);
      return 1;
    }
  for (long i = 0; i < N_FILE; i++)
    if (pwrite (fd, "pagescope", 9, i * ps) != 9)
      return 1;
  file = mmap (NULL, N_FILE * ps, PROT_READ, MAP_SHARED, fd, 0);
  if (file == MAP_FAILED)
    return 1;
  for (long i = 0; i < N_FILE; i++)
    sink += file[i * ps];

  if (pipe (ready) != 0)
    return 1;
  child = fork ();
  if (child < 0)
    return 1;
  if (child == 0)
    {
      prctl (PR_SET_PDEATHSIG, SIGKILL);
      /* fork() copies no page tables for shared mappings: fault them in by reading, so
       * both processes map every page of shanon and file. */
      for (long i = 0; i < N_SHANON; i++)
        sink += shanon[i * ps];
      for (long i = 0; i < N_FILE; i++)
        sink += file[i * ps];
      if (write (ready[1], "y", 1) != 1)
        return 1;
      for (;;)
        pause ();
    }
  if (read (ready[0], &byte, 1) != 1)
    return 1;

  priv = map (N_PRIV * ps, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS);
  memset (priv, 1, N_PRIV * ps);

  raw = map (thp_size + align, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS);
  thp = (char *) (((uintptr_t) raw + align - 1) & ~(uintptr_t) (align - 1));
  /* Trim so the THP region is exactly 4 MiB, with the guard page after it. */
  if (thp > raw)
    munmap (raw, thp - raw);
  if (raw + align > thp)
    munmap (thp + thp_size, raw + align - thp);
  mprotect (thp + thp_size, ps, PROT_NONE);
  madvise (thp, thp_size, MADV_HUGEPAGE);
  memset (thp, 4, thp_size);

  swapped = map (N_SWAP * ps, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS);
  memset (swapped, 5, N_SWAP * ps);
  if (madvise (swapped, N_SWAP * ps, MADV_PAGEOUT) != 0)
    pageout = errno;

  zero = map (N_ZERO * ps, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS);
  for (long i = 0; i < N_ZERO; i++)
    sink += zero[i * ps];

  printf ("%d %d %p %p %p %p %p %p %p %d\n", (int) getpid (), (int) child, (void *) priv,
          (void *) cow, (void *) shanon, (void *) file, (void *) thp, (void *) swapped,
          (void *) zero, pageout);
  fflush (stdout);

  for (;;)
    pause ();
}
