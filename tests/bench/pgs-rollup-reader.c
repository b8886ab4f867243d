/* pgs-rollup-reader.c: the yardstick for bench-cli
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The least a program can do to rank processes by PSS: list /proc, read every
 * /proc/PID/smaps_rollup (the kernel computes RSS, PSS, USS and swap itself), print the sums.
 * With --list it only lists /proc and counts the processes: the floor for a name filter
 * that keeps nothing. With --same-files it also reads each process's status and cmdline,
 * which memrank --json needs for the user, name, parent, VSS and command line it prints:
 * the floor for a ranking that says whose each figure is. Plain C and libc, no GLib, so that what it costs is the kernel's work.
 */

#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static unsigned long long
field (const char *buf,
       const char *name)
{
  const char *p = strstr (buf, name);

  return p != NULL ? strtoull (p + strlen (name), NULL, 10) : 0;
}

int
main (int   argc,
      char *argv[])
{
  int list_only = argc > 1 && strcmp (argv[1], "--list") == 0;
  int same_files = argc > 1 && strcmp (argv[1], "--same-files") == 0;
  static const char *const also[] = { "status", "cmdline" };
  unsigned long long rss = 0, pss = 0, uss = 0, swap = 0;
  unsigned int n = 0;
  static char buf[8192];
  struct dirent *de;
  DIR *dir = opendir ("/proc");

  if (dir == NULL)
    {
      perror ("/proc");
      return 1;
    }
  while ((de = readdir (dir)) != NULL)
    {
      char path[300];
      ssize_t len;
      int fd;

      if (!isdigit ((unsigned char) de->d_name[0]))
        continue;
      if (list_only)
        {
          n++;
          continue;
        }
      for (unsigned int k = 0; same_files && k < sizeof also / sizeof also[0]; k++)
        {
          snprintf (path, sizeof path, "%s/%s", de->d_name, also[k]);
          fd = openat (dirfd (dir), path, O_RDONLY | O_CLOEXEC);
          if (fd >= 0)
            {
              len = read (fd, buf, sizeof buf - 1);
              close (fd);
            }
        }
      snprintf (path, sizeof path, "%s/smaps_rollup", de->d_name);
      fd = openat (dirfd (dir), path, O_RDONLY | O_CLOEXEC);
      if (fd < 0)
        continue;
      len = read (fd, buf, sizeof buf - 1);
      close (fd);
      if (len <= 0)
        continue;   /* a kernel thread or a process that just exited */
      buf[len] = '\0';
      rss += field (buf, "\nRss:");
      pss += field (buf, "\nPss:");
      uss += field (buf, "\nPrivate_Clean:") + field (buf, "\nPrivate_Dirty:");
      swap += field (buf, "\nSwap:");
      n++;
    }
  closedir (dir);

  if (list_only)
    printf ("%u processes\n", n);
  else
    printf ("%u processes rss %llu pss %llu uss %llu swap %llu kB\n", n, rss, pss, uss, swap);
  return 0;
}
