/* pgs-churn-load.c: processes that start, fork, exec and exit by the hundred per second
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The load of test-churn.py. Each round forks a child that does one of: exit at once; fork
 * a grandchild and exit (the grandchild is reparented, touches memory and exits); exec
 * /bin/true; take a name that is not UTF-8 and holds an ESC (as any user may), map 64 MiB,
 * touch 1024 pages of it and exit after 10 to 70 ms. At most one fork per millisecond, at most 64
 * alive. Everything dies with the test: PR_SET_PDEATHSIG here and in every child, and the
 * test kills the process group. On SIGTERM prints the number of processes started.
 *
 * Usage: pgs-churn-load
 */

#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t stop;

static void
on_term (int sig)
{
  stop = 1;
}

static void
nap (long ns)
{
  struct timespec ts = { 0, ns };

  nanosleep (&ts, NULL);
}

/* 64 MiB mapped, every 16th page touched: a pagemap long enough that the process often
 * exits while a scan is reading it, the case that must give a skip and not an error. */
static void
touch_and_exit (long ns)
{
  size_t len = 64 << 20;
  char *p = mmap (NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

  for (size_t i = 0; p != MAP_FAILED && i < len; i += 16 * 4096)
    p[i] = 1;
  nap (ns);
  _exit (0);
}

int
main (void)
{
  struct sigaction sa;
  unsigned long started = 0;
  int alive = 0;

  memset (&sa, 0, sizeof sa);
  sa.sa_handler = on_term;
  sigaction (SIGTERM, &sa, NULL);
  prctl (PR_SET_PDEATHSIG, SIGKILL);
  if (getppid () == 1)
    return 1;

  while (!stop)
    {
      pid_t pid;

      while (alive > 0 && waitpid (-1, NULL, WNOHANG) > 0)
        alive--;
      if (alive >= 64)
        {
          if (waitpid (-1, NULL, 0) > 0)
            alive--;
          continue;
        }

      pid = fork ();
      if (pid < 0)
        {
          nap (10 * 1000 * 1000);
          continue;
        }
      if (pid == 0)
        {
          prctl (PR_SET_PDEATHSIG, SIGKILL);
          switch (started % 4)
            {
            case 0:
              _exit (0);
            case 1:
              /* No PR_SET_PDEATHSIG: its parent exits at once. It lives 5 ms, in the
               * process group the test kills. */
              if (fork () == 0)
                touch_and_exit (5 * 1000 * 1000);
              _exit (0);
            case 2:
              execl ("/bin/true", "true", (char *) NULL);
              _exit (127);
            default:
              prctl (PR_SET_NAME, "churn\xf0\x1b[2J");
              touch_and_exit ((started % 7 + 1) * 10 * 1000 * 1000);
            }
        }
      started++;
      alive++;
      nap (1000 * 1000);
    }

  printf ("%lu\n", started);
  fflush (stdout);
  while (wait (NULL) > 0 || errno == EINTR)
    ;
  return 0;
}
