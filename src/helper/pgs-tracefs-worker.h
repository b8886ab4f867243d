/* pgs-tracefs-worker.h: a tracefs instance of our own, reading damon:damon_aggregated
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Header-only and plain libc, because both make the instance the same way: the library's
 * reader (src/lib/core/pgs-damon-reader.c) and the helper (src/helper), which links no
 * library. worker_main() runs in a child of the process that forked it: it finds tracefs
 * (or mounts it in a mount namespace of its own when it is not mounted), makes the
 * instance instances/pagescope-PID-RANDOM, enables only damon:damon_aggregated in it,
 * writes "OK <instance> <private-mount>\n" or "ERR <text>\n" to OUT, then copies
 * trace_pipe to OUT until SIGTERM, the parent's death or a failed write. It disables the
 * event and removes the instance before it exits; a watchdog process it started removes
 * the instance when the worker itself is killed. No monitor changes and the top-level
 * tracing state stays as it was.
 */

#pragma once

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>

#define EVENT_DIR "events/damon/damon_aggregated"
#define FALLBACK_MOUNT "/sys/kernel/tracing"

/* Worker exit codes. */
enum
{
  WORKER_REMOVED = 0,     /* the instance is gone */
  WORKER_FAILED = 1,      /* it never made one (the status line says why) */
  WORKER_NOT_REMOVED = 2, /* rmdir failed: the watchdog tries again */
};


static volatile sig_atomic_t worker_stop;

static inline void
on_term (int sig)
{
  (void) sig;
  worker_stop = 1;
}

static inline int
write_all (int         fd,
           const char *buf,
           size_t      len)
{
  while (len > 0)
    {
      ssize_t n = write (fd, buf, len);

      if (n < 0 && errno == EINTR && !worker_stop)
        continue;
      if (n <= 0)
        return 0;
      buf += n;
      len -= n;
    }
  return 1;
}

static inline int
write_file (const char *path,
            const char *text)
{
  int fd = open (path, O_WRONLY | O_CLOEXEC);
  int ok;

  if (fd < 0)
    return 0;
  ok = write (fd, text, strlen (text)) == (ssize_t) strlen (text);
  close (fd);
  return ok;
}

/* The tracefs mount point this process sees, or "" when none. */
static inline void
find_tracefs (char   *out,
              size_t  size)
{
  FILE *f = fopen ("/proc/self/mounts", "re");
  char line[4096];

  out[0] = '\0';
  if (f == NULL)
    return;
  while (fgets (line, sizeof line, f) != NULL)
    {
      char *dev = strtok (line, " ");
      char *dir = strtok (NULL, " ");
      char *type = strtok (NULL, " ");

      if (dev && dir && type && strcmp (type, "tracefs") == 0 && strchr (dir, '\\') == NULL &&
          strlen (dir) < size)
        {
          strcpy (out, dir);
          break;
        }
    }
  fclose (f);
}

static inline void
close_from (unsigned int first,
            unsigned int last)
{
  if (first > last)
    return;
  /* close_range (5.9+); before it, one close per possible descriptor. */
  if (syscall (SYS_close_range, first, last, 0) == 0)
    return;
  for (unsigned int fd = first; fd <= last && fd < 65536; fd++)
    close ((int) fd);
}

static inline void
quiet_fds (int keep)
{
  int null = open ("/dev/null", O_RDWR | O_CLOEXEC);

  if (null >= 0)
    {
      dup2 (null, 0);
      dup2 (null, 1);
    }
  /* The caller's pipes (a test's stdout, say) must not be held open by us. */
  close_from (3, (unsigned int) keep - 1);
  close_from ((unsigned int) keep + 1, ~0u);
}

static inline int
remove_instance (const char *dir)
{
  /* EBUSY while a reader still has trace_pipe open: ours is closed, but give the kernel
   * a moment; ENOENT: someone (the worker, or the watchdog) removed it. */
  for (int i = 0; i < 200; i++)
    {
      if (rmdir (dir) == 0 || errno == ENOENT)
        return 1;
      if (errno != EBUSY)
        return 0;
      usleep (10000);
    }
  return 0;
}

/* Waits for the worker to go (its end of @wd closes however it dies), then removes the
 * instance if it is still there. Ignores the signals a terminal or a kill of the group
 * sends: it only cleans up. */
static inline void __attribute__ ((noreturn))
watchdog_main (int         wd,
               const char *dir)
{
  char c;

  signal (SIGINT, SIG_IGN);
  signal (SIGTERM, SIG_IGN);
  signal (SIGHUP, SIG_IGN);
  setsid ();
  dup2 (open ("/dev/null", O_RDWR), 2);
  for (;;)
    {
      ssize_t n = read (wd, &c, 1);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        break;
    }
  remove_instance (dir);
  _exit (0);
}

static inline void __attribute__ ((noreturn))
worker_fail (int         out,
             const char *format,
             const char *arg)
{
  char msg[1024];

  snprintf (msg, sizeof msg, "ERR ");
  snprintf (msg + 4, sizeof msg - 5, format, arg, strerror (errno));
  strcat (msg, "\n");
  write_all (out, msg, strlen (msg));
  _exit (WORKER_FAILED);
}

static inline void __attribute__ ((noreturn))
worker_main (int   out,
             pid_t parent)
{
  struct sigaction sa = { 0 };
  char tracefs[2048], dir[4096], path[4600], status[4700];
  static char buf[65536];
  unsigned int rnd = 0;
  int private_mount = 0;
  int wd[2], tp, code;
  pid_t watchdog;

  sa.sa_handler = on_term;    /* no SA_RESTART: a blocked read or write returns */
  sigaction (SIGTERM, &sa, NULL);
  signal (SIGINT, SIG_IGN);   /* the caller handles ^C and stops us */
  signal (SIGHUP, SIG_IGN);
  signal (SIGPIPE, SIG_IGN);
  prctl (PR_SET_PDEATHSIG, SIGTERM);
  if (getppid () != parent)
    _exit (WORKER_FAILED);
  quiet_fds (out);

  find_tracefs (tracefs, sizeof tracefs);
  if (tracefs[0] == '\0')
    {
      /* Not mounted: mount it where only we see it. */
      if (unshare (CLONE_NEWNS) != 0)
        worker_fail (out, "tracefs is not mounted and a mount namespace to mount it in "
                     "cannot be made%s: %s", "");
      if (mount (NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0)
        worker_fail (out, "cannot make the mounts private%s: %s", "");
      if (mount ("tracefs", FALLBACK_MOUNT, "tracefs", MS_NOSUID | MS_NODEV | MS_NOEXEC,
                 NULL) != 0)
        worker_fail (out, "cannot mount tracefs on %s: %s", FALLBACK_MOUNT);
      strcpy (tracefs, FALLBACK_MOUNT);
      private_mount = 1;
    }
  snprintf (path, sizeof path, "%s/" EVENT_DIR "/format", tracefs);
  if (access (path, F_OK) != 0)
    worker_fail (out, "the kernel has no damon:damon_aggregated tracepoint (%s): %s", path);

  for (int tries = 0;; tries++)
    {
      if (getrandom (&rnd, sizeof rnd, 0) != sizeof rnd)
        rnd = (unsigned int) (time (NULL) ^ getpid ());
      snprintf (dir, sizeof dir, "%s/instances/pagescope-%d-%08x", tracefs, (int) getpid (), rnd);
      if (mkdir (dir, 0700) == 0)
        break;
      if (errno != EEXIST || tries > 8)
        worker_fail (out, "cannot make the tracefs instance %s: %s", dir);
    }

  if (pipe2 (wd, O_CLOEXEC) != 0)
    {
      rmdir (dir);
      worker_fail (out, "cannot make a pipe%s: %s", "");
    }
  watchdog = fork ();
  if (watchdog == 0)
    {
      close (wd[1]);
      close (out);
      quiet_fds (wd[0]);
      watchdog_main (wd[0], dir);
    }
  close (wd[0]);
  if (watchdog < 0)
    {
      rmdir (dir);
      worker_fail (out, "cannot start the watchdog%s: %s", "");
    }

  /* Poll wakes at any data, not at half a buffer (buffer_percent, 5.x+; where it is
   * missing poll still times out and the read below drains the buffer). */
  snprintf (path, sizeof path, "%s/buffer_percent", dir);
  write_file (path, "0");
  snprintf (path, sizeof path, "%s/" EVENT_DIR "/enable", dir);
  if (!write_file (path, "1"))
    {
      int saved = errno;

      remove_instance (dir);
      errno = saved;
      worker_fail (out, "cannot enable damon_aggregated in %s: %s", dir);
    }
  snprintf (path, sizeof path, "%s/trace_pipe", dir);
  tp = open (path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (tp < 0)
    {
      int saved = errno;

      remove_instance (dir);
      errno = saved;
      worker_fail (out, "cannot open %s: %s", path);
    }
  snprintf (status, sizeof status, "OK %s %d\n", strrchr (dir, '/') + 1, private_mount);
  if (!write_all (out, status, strlen (status)))
    worker_stop = 1;

  while (!worker_stop)
    {
      struct pollfd p = { tp, POLLIN, 0 };
      ssize_t n;

      poll (&p, 1, 250);
      n = read (tp, buf, sizeof buf);
      if (n > 0)
        {
          if (!write_all (out, buf, n))
            break;
        }
      else if (n == 0 || (errno != EAGAIN && errno != EINTR))
        break;
      if (getppid () != parent)
        break;
    }

  snprintf (path, sizeof path, "%s/" EVENT_DIR "/enable", dir);
  write_file (path, "0");
  close (tp);
  code = remove_instance (dir) ? WORKER_REMOVED : WORKER_NOT_REMOVED;
  close (wd[1]);
  _exit (code);
}
