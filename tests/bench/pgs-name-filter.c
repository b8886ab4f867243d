/* pgs-name-filter.c: the yardstick for a name filter (bench-cli's nosuchname)
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The least a program can do to find the processes whose name holds a word: list /proc,
 * read every /proc/PID/comm (as pagescope-cli's filter does for the processes it leaves
 * out), print the PIDs that match and the count. Plain C and libc, no GLib, so that what it
 * costs is the kernel's work and the start-up of a process linked against libc alone.
 *
 *   pgs-name-filter WORD
 */

#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int
main (int   argc,
      char *argv[])
{
  unsigned int n = 0, matched = 0;
  struct dirent *de;
  DIR *dir;

  if (argc != 2)
    {
      fprintf (stderr, "usage: pgs-name-filter WORD\n");
      return 2;
    }
  dir = opendir ("/proc");
  if (dir == NULL)
    {
      perror ("/proc");
      return 1;
    }
  while ((de = readdir (dir)) != NULL)
    {
      char path[300], comm[64];
      ssize_t len;
      int fd;

      if (!isdigit ((unsigned char) de->d_name[0]))
        continue;
      n++;
      snprintf (path, sizeof path, "%s/comm", de->d_name);
      fd = openat (dirfd (dir), path, O_RDONLY | O_CLOEXEC);
      if (fd < 0)
        continue;   /* exited since the listing */
      len = read (fd, comm, sizeof comm - 1);
      close (fd);
      if (len <= 0)
        continue;
      if (comm[len - 1] == '\n')
        len--;
      comm[len] = '\0';
      if (strstr (comm, argv[1]) != NULL)
        {
          printf ("%s\n", de->d_name);
          matched++;
        }
    }
  closedir (dir);

  printf ("%u of %u processes\n", matched, n);
  return 0;
}
