/* pgs-kdamond-writer.h: a kdamond of Pagescope's own, started and removed exactly
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Header-only and plain libc, because both start the monitor the same way: the library
 * (src/lib/core/pgs-damon-own.c, as root) and the helper (src/helper, MONITOR), which links
 * no library. All under a sysfs root, so tests run it against a fake tree.
 *
 * Free means: DAMON's sysfs is there, nr_kdamonds is 0, and no DAMON module (damon_reclaim,
 * damon_lru_sort, damon_stat) is enabled or has a kdamond. Kdamonds that exist but are off
 * are someone's configuration: the kernel rebuilds every kdamonds/N directory, with default
 * values, whenever nr_kdamonds is written (mm/damon/sysfs.c, damon_sysfs_kdamonds_add_dirs),
 * so adding ours beside them would erase theirs; that is refused too.
 *
 * The monitor: one kdamond, one context of "paddr" operations, one target whose initial
 * region is the biggest System RAM range of /proc/iomem (as damo and DAMON's own modules
 * choose it; the sysfs interface sets none by itself), sampling every 5 ms,
 * aggregating every 100 ms, updating every 1 s, 10 to 1000 regions. These are DAMON's own
 * defaults, which its authors chose for a bounded cost: the work per sample is one page
 * per region, so at most 1000 page checks every 5 ms whatever the RAM, and a region's rate
 * is 0 to 20 samples per aggregation; a 5 s read shows 50 aggregations. Written explicitly,
 * because another kernel's defaults may differ.
 *
 * Every file written is read first and its bytes kept; undoing writes them back in reverse
 * order, "off" first and nr_kdamonds last. Undo touches kdamonds/0 only while it is still
 * ours: nr_kdamonds as we left it, and its pid what it was when we turned it on (or the
 * kdamond off by itself).
 *
 * kdamond_spawn() forks a watchdog that starts the monitor and holds a socket from its
 * parent: when the socket reads end of file (the parent released it, exited, was killed,
 * SIGKILL included) the watchdog removes the monitor and exits. Starting inside the
 * watchdog leaves no moment where a monitor runs with nobody to remove it.
 */

#pragma once

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>

#define KDAMOND_PATH_MAX   1024
/* The sysfs root and the kdamonds directory: short enough that every path fits. */
#define KDAMOND_ROOT_MAX   512
#define KDAMOND_DIR_MAX    768
#define KDAMOND_VALUE_MAX  64
#define KDAMOND_MAX_WRITES 16
/* "OK <index> <pid>\n" or "ERR <errno> <text>\n". */
#define KDAMOND_REPLY_MAX  240

/* What is written, in order, under SYSFS/kernel/mm/damon/admin/kdamonds. */
static const struct
{
  const char *path;
  const char *value;
} kdamond_config[] __attribute__ ((unused)) = {
  { "nr_kdamonds", "1\n" },
  { "0/contexts/nr_contexts", "1\n" },
  { "0/contexts/0/operations", "paddr\n" },
  { "0/contexts/0/monitoring_attrs/intervals/sample_us", "5000\n" },
  { "0/contexts/0/monitoring_attrs/intervals/aggr_us", "100000\n" },
  { "0/contexts/0/monitoring_attrs/intervals/update_us", "1000000\n" },
  { "0/contexts/0/monitoring_attrs/nr_regions/min", "10\n" },
  { "0/contexts/0/monitoring_attrs/nr_regions/max", "1000\n" },
  { "0/contexts/0/targets/nr_targets", "1\n" },
  /* NULL: the biggest System RAM range, when /proc/iomem shows one. */
  { "0/contexts/0/targets/0/regions/nr_regions", NULL },
  { "0/contexts/0/targets/0/regions/0/start", NULL },
  { "0/contexts/0/targets/0/regions/0/end", NULL },
  { "0/state", "on\n" },
};

#define KDAMOND_N_CONFIG (sizeof kdamond_config / sizeof kdamond_config[0])

static const char *const kdamond_modules[] __attribute__ ((unused)) = {
  "damon_reclaim", "damon_lru_sort", "damon_stat"
};

typedef struct
{
  char    dir[KDAMOND_DIR_MAX];       /* SYSFS/kernel/mm/damon/admin/kdamonds */
  int     pid;                        /* kdamonds/0/pid once on (-1 on a fake tree) */
  char    pid_text[KDAMOND_VALUE_MAX];
  int     n_writes;
  int     on;                         /* state was written: kdamonds/0 was turned on */
  struct
  {
    char path[KDAMOND_PATH_MAX];
    char before[KDAMOND_VALUE_MAX];
    size_t len;
  } writes[KDAMOND_MAX_WRITES];
} KdamondOwn;

/* Reads a small file whole into BUF (NUL-terminated); 0 or an errno. */
static inline int
kdamond_read (const char *path,
              char       *buf,
              size_t      size,
              size_t     *len)
{
  int fd = open (path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  size_t got = 0;
  int errsv = 0;

  if (fd < 0)
    return errno;
  for (;;)
    {
      ssize_t n = read (fd, buf + got, size - 1 - got);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        errsv = errno;
      if (n <= 0)
        break;
      got += (size_t) n;
      /* A value longer than any DAMON writes is not one we can restore. */
      if (got == size - 1)
        {
          errsv = EFBIG;
          break;
        }
    }
  close (fd);
  buf[got] = '\0';
  if (len != NULL)
    *len = got;
  return errsv;
}

/* One write of the whole value, as sysfs wants it; 0 or an errno. */
static inline int
kdamond_write (const char *path,
               const char *value,
               size_t      len)
{
  /* O_TRUNC means nothing to sysfs and keeps a fake tree's file exact. */
  int fd = open (path, O_WRONLY | O_TRUNC | O_CLOEXEC | O_NOFOLLOW);
  ssize_t n;
  int errsv = 0;

  if (fd < 0)
    return errno;
  do
    n = write (fd, value, len);
  while (n < 0 && errno == EINTR);
  if (n < 0)
    errsv = errno;
  else if ((size_t) n != len)
    errsv = EIO;
  if (close (fd) < 0 && errsv == 0 && errno != EINTR)
    errsv = errno;
  return errsv;
}

/* DIR/NAME into PATH (KDAMOND_PATH_MAX): DIR is at most KDAMOND_DIR_MAX, NAME short. */
static inline void
kdamond_join (char       *path,
              const char *dir,
              const char *name)
{
  size_t a = strnlen (dir, KDAMOND_DIR_MAX - 1);
  size_t b = strnlen (name, KDAMOND_PATH_MAX - KDAMOND_DIR_MAX - 1);

  memcpy (path, dir, a);
  path[a] = '/';
  memcpy (path + a + 1, name, b);
  path[a + 1 + b] = '\0';
}

/* The biggest top-level "System RAM" range of PROCFS_ROOT/iomem, [*START, *END); 0, or -1
 * where there is none (no such file, or zeros: the reader is not root). No stdio: this runs
 * in a child forked from a threaded process. */
static inline int
kdamond_biggest_ram (const char         *procfs_root,
                     unsigned long long *start,
                     unsigned long long *end)
{
  static char text[65536];
  char path[KDAMOND_PATH_MAX];
  unsigned long long best = 0;
  size_t len = 0;
  int fd;

  snprintf (path, sizeof path, "%s/iomem", procfs_root);
  if ((fd = open (path, O_RDONLY | O_CLOEXEC)) < 0)
    return -1;
  for (;;)
    {
      ssize_t n = read (fd, text + len, sizeof text - 1 - len);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        break;
      len += (size_t) n;
    }
  close (fd);
  text[len] = '\0';
  for (char *line = text, *next; line != NULL && *line != '\0'; line = next)
    {
      unsigned long long lo, hi;
      char *dash;

      next = strchr (line, '\n');
      if (next != NULL)
        *next++ = '\0';
      /* Top-level entries only: nested ones are indented. */
      if (line[0] == ' ' || strstr (line, " : System RAM") == NULL ||
          (dash = strchr (line, '-')) == NULL)
        continue;
      lo = strtoull (line, NULL, 16);
      hi = strtoull (dash + 1, NULL, 16);
      if (hi > lo && hi - lo + 1 > best)
        {
          best = hi - lo + 1;
          *start = lo;
          *end = hi + 1;
        }
    }
  return best > 0 ? 0 : -1;
}

/* A decimal value of FILE; -1 when missing or not a number. */
static inline long
kdamond_read_long (const char *path)
{
  char buf[KDAMOND_VALUE_MAX], *end = NULL;
  long v;

  if (kdamond_read (path, buf, sizeof buf, NULL) != 0)
    return -1;
  errno = 0;
  v = strtol (buf, &end, 10);
  if (errno != 0 || end == buf || (*end != '\0' && *end != '\n'))
    return -1;
  return v;
}

static inline int
kdamond_set_reason (char       *reason,
                    size_t      size,
                    int         errsv,
                    const char *format,
                    ...) __attribute__ ((format (printf, 4, 5)));

static inline int
kdamond_set_reason (char       *reason,
                    size_t      size,
                    int         errsv,
                    const char *format,
                    ...)
{
  va_list args;

  if (reason != NULL && size > 0)
    {
      va_start (args, format);
      vsnprintf (reason, size, format, args);
      va_end (args);
    }
  return errsv;
}

/* 0 when Pagescope may start its own kdamond under SYSFS_ROOT, else an errno (EBUSY: it
 * is not free; ENOENT: no DAMON sysfs; any other: reading failed) with the reason. */
static inline int
kdamond_check_free (const char *sysfs_root,
                    char       *reason,
                    size_t      size)
{
  char path[KDAMOND_PATH_MAX], buf[KDAMOND_VALUE_MAX];
  long nr, pid;
  int errsv;

  for (size_t i = 0; i < sizeof kdamond_modules / sizeof kdamond_modules[0]; i++)
    {
      snprintf (path, sizeof path, "%s/module/%s/parameters/enabled", sysfs_root,
                kdamond_modules[i]);
      if (kdamond_read (path, buf, sizeof buf, NULL) == 0 && (buf[0] == 'Y' || buf[0] == '1'))
        return kdamond_set_reason (reason, size, EBUSY, "%s is enabled", kdamond_modules[i]);
      snprintf (path, sizeof path, "%s/module/%s/parameters/kdamond_pid", sysfs_root,
                kdamond_modules[i]);
      if ((pid = kdamond_read_long (path)) > 0)
        return kdamond_set_reason (reason, size, EBUSY, "%s runs a kdamond (PID %ld)",
                                   kdamond_modules[i], pid);
    }

  snprintf (path, sizeof path, "%s/kernel/mm/damon/admin/kdamonds/nr_kdamonds", sysfs_root);
  if ((errsv = kdamond_read (path, buf, sizeof buf, NULL)) != 0)
    return errsv == ENOENT
      ? kdamond_set_reason (reason, size, ENOENT, "the kernel has no DAMON sysfs interface "
                            "(/sys/kernel/mm/damon/admin)")
      : kdamond_set_reason (reason, size, errsv, "cannot read %s: %s", path, strerror (errsv));
  if ((nr = kdamond_read_long (path)) < 0)
    return kdamond_set_reason (reason, size, EIO, "%s is not a number", path);
  for (long i = 0; i < nr && i < 1024; i++)
    {
      snprintf (path, sizeof path, "%s/kernel/mm/damon/admin/kdamonds/%ld/state", sysfs_root, i);
      if (kdamond_read (path, buf, sizeof buf, NULL) != 0)
        return kdamond_set_reason (reason, size, EBUSY, "the state of kdamond %ld cannot be read",
                                   i);
      if (strcmp (buf, "off\n") != 0 && strcmp (buf, "off") != 0)
        {
          snprintf (path, sizeof path, "%s/kernel/mm/damon/admin/kdamonds/%ld/pid", sysfs_root, i);
          return kdamond_set_reason (reason, size, EBUSY, "a kdamond runs (PID %ld)",
                                     kdamond_read_long (path));
        }
    }
  if (nr > 0)
    return kdamond_set_reason (reason, size, EBUSY, "%ld kdamond(s) are configured, though off: "
                               "adding one would make the kernel erase their configuration", nr);
  return 0;
}

/* Writes back what OWN wrote, newest first, while kdamonds/0 is still ours. 0, or an errno
 * with the reason (EBUSY: no longer ours, left as it is). */
static inline int
kdamond_undo (KdamondOwn *own,
              char       *reason,
              size_t      size)
{
  char path[KDAMOND_PATH_MAX], buf[KDAMOND_VALUE_MAX];
  int first = 0;

  if (own->n_writes == 0)
    return 0;
  /* Ours: nr_kdamonds as we wrote it, and kdamond 0 either the one we turned on (its pid)
   * or off (it stopped by itself; the configuration there is still what we wrote). */
  if (own->n_writes > 0)
    {
      kdamond_join (path, own->dir, "nr_kdamonds");
      if (kdamond_read (path, buf, sizeof buf, NULL) != 0 || strcmp (buf, "1\n") != 0)
        return kdamond_set_reason (reason, size, EBUSY, "nr_kdamonds changed after Pagescope "
                                   "started its kdamond: left as it is");
    }
  if (own->on)
    {
      kdamond_join (path, own->dir, "0/pid");
      if (kdamond_read (path, buf, sizeof buf, NULL) != 0 || strcmp (buf, own->pid_text) != 0)
        {
          char state[KDAMOND_VALUE_MAX];

          kdamond_join (path, own->dir, "0/state");
          if (kdamond_read (path, state, sizeof state, NULL) != 0 || strcmp (state, "off\n") != 0)
            return kdamond_set_reason (reason, size, EBUSY, "kdamond 0 is no longer Pagescope's "
                                       "(PID %d when started): left as it is", own->pid);
        }
    }
  for (int i = own->n_writes - 1; i >= 0; i--)
    {
      int errsv = 0;

      /* nr_kdamonds cannot change while the kdamond still stops: EBUSY for a moment. */
      for (int tries = 0; tries < 50; tries++)
        {
          errsv = kdamond_write (own->writes[i].path, own->writes[i].before, own->writes[i].len);
          if (errsv != EBUSY)
            break;
          usleep (20000);
        }
      /* Turning off a kdamond that stopped by itself fails; it is off all the same. */
      if (errsv != 0 && own->on && i == own->n_writes - 1 &&
          kdamond_read (own->writes[i].path, buf, sizeof buf, NULL) == 0 &&
          strcmp (buf, own->writes[i].before) == 0)
        errsv = 0;
      if (errsv != 0 && first == 0)
        {
          first = errsv;
          kdamond_set_reason (reason, size, errsv, "cannot restore %s: %s", own->writes[i].path,
                              strerror (errsv));
        }
    }
  own->n_writes = 0;
  return first;
}

/* Starts the monitor under SYSFS_ROOT when DAMON's sysfs is free, its region from
 * PROCFS_ROOT's iomem. 0 with OWN filled, or an errno with the reason and nothing left
 * changed. */
static inline int
kdamond_start (const char *sysfs_root,
               const char *procfs_root,
               KdamondOwn *own,
               char       *reason,
               size_t      size)
{
  char path[KDAMOND_PATH_MAX], region[3][32];
  unsigned long long ram_start = 0, ram_end = 0;
  int errsv, have_ram;

  memset (own, 0, sizeof *own);
  own->pid = -1;
  if (strlen (sysfs_root) >= KDAMOND_ROOT_MAX)
    return kdamond_set_reason (reason, size, ENAMETOOLONG, "the sysfs root is too long");
  if ((errsv = kdamond_check_free (sysfs_root, reason, size)) != 0)
    return errsv;
  snprintf (own->dir, sizeof own->dir, "%.*s/kernel/mm/damon/admin/kdamonds",
            KDAMOND_ROOT_MAX - 1, sysfs_root);
  have_ram = kdamond_biggest_ram (procfs_root, &ram_start, &ram_end) == 0;
  snprintf (region[0], sizeof region[0], "1\n");
  snprintf (region[1], sizeof region[1], "%llu\n", ram_start);
  snprintf (region[2], sizeof region[2], "%llu\n", ram_end);
  for (size_t i = 0, r = 0; i < KDAMOND_N_CONFIG; i++)
    {
      __typeof__ (own->writes[0]) *w = &own->writes[own->n_writes];
      const char *value = kdamond_config[i].value;

      /* Without a region the kernel is left to its own (none on some kernels). */
      if (value == NULL && !have_ram)
        continue;
      if (value == NULL)
        value = region[r++];
      kdamond_join (w->path, own->dir, kdamond_config[i].path);
      /* Kept only once written: a write the kernel refused changed nothing, and writing
       * back over it could undo someone else's (nr_kdamonds that another tool set between
       * our check and our write). */
      if ((errsv = kdamond_read (w->path, w->before, sizeof w->before, &w->len)) != 0 ||
          (errsv = kdamond_write (w->path, value, strlen (value))) != 0)
        {
          char ignored[KDAMOND_REPLY_MAX];

          kdamond_set_reason (reason, size, errsv, "cannot write %s: %s", w->path,
                              strerror (errsv));
          kdamond_undo (own, ignored, sizeof ignored);
          return errsv;
        }
      own->n_writes++;
      own->on = i == KDAMOND_N_CONFIG - 1;
    }
  kdamond_join (path, own->dir, "0/pid");
  kdamond_read (path, own->pid_text, sizeof own->pid_text, NULL);
  own->pid = (int) kdamond_read_long (path);
  return 0;
}

/* The watchdog: starts, says so on SOCK, removes the monitor at SOCK's end of file and says
 * how that went (to nobody when the parent died). */
static inline void __attribute__ ((noreturn))
kdamond_watchdog_main (const char *sysfs_root,
                       const char *procfs_root,
                       int         sock)
{
  char reply[KDAMOND_REPLY_MAX], reason[KDAMOND_REPLY_MAX - 32], c;
  KdamondOwn own;
  int errsv;

  /* A terminal's ^C, a kill of the group or a hang-up must not end us before we clean up. */
  signal (SIGINT, SIG_IGN);
  signal (SIGTERM, SIG_IGN);
  signal (SIGHUP, SIG_IGN);
  signal (SIGQUIT, SIG_IGN);
  signal (SIGPIPE, SIG_IGN);
  setsid ();
  /* Hold nothing of the parent's: its clients must see it go when it goes. */
  for (int fd = 0; fd < sock; fd++)
    close (fd);
  if (syscall (SYS_close_range, (unsigned) sock + 1, ~0u, 0) != 0)
    for (int fd = sock + 1; fd < 65536; fd++)
      close (fd);

  errsv = kdamond_start (sysfs_root, procfs_root, &own, reason, sizeof reason);
  if (errsv != 0)
    snprintf (reply, sizeof reply, "ERR %d %s\n", errsv, reason);
  else
    snprintf (reply, sizeof reply, "OK 0 %d\n", own.pid);
  send (sock, reply, strlen (reply), MSG_NOSIGNAL);
  if (errsv != 0)
    _exit (1);

  for (;;)
    {
      ssize_t n = read (sock, &c, 1);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        break;
    }
  errsv = kdamond_undo (&own, reason, sizeof reason);
  if (errsv != 0)
    snprintf (reply, sizeof reply, "ERR %d %s\n", errsv, reason);
  else
    snprintf (reply, sizeof reply, "OK\n");
  send (sock, reply, strlen (reply), MSG_NOSIGNAL);
  _exit (errsv != 0);
}

/* Reads one reply line from SOCK into REPLY; its length, or -1. */
static inline ssize_t
kdamond_read_reply (int     sock,
                    char   *reply,
                    size_t  size)
{
  size_t len = 0;

  while (len < size - 1)
    {
      ssize_t n = read (sock, reply + len, 1);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        break;
      if (reply[len++] == '\n')
        break;
    }
  reply[len] = '\0';
  return len > 0 && reply[len - 1] == '\n' ? (ssize_t) len : -1;
}

/* Forks the watchdog, which starts the monitor. Its PID with *SOCK_OUT (CLOEXEC; closing
 * it, or kdamond_release(), removes the monitor) and REPLY "OK <index> <pid>\n"; or -1 with
 * REPLY "ERR <errno> <text>\n" (nothing left running or changed). */
static inline pid_t
kdamond_spawn (const char *sysfs_root,
               const char *procfs_root,
               int        *sock_out,
               char       *reply,
               size_t      size)
{
  int sv[2], status;
  pid_t pid;

  *sock_out = -1;
  if (socketpair (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
    {
      snprintf (reply, size, "ERR %d cannot make a socket: %s\n", errno, strerror (errno));
      return -1;
    }
  pid = fork ();
  if (pid < 0)
    {
      snprintf (reply, size, "ERR %d cannot fork: %s\n", errno, strerror (errno));
      close (sv[0]);
      close (sv[1]);
      return -1;
    }
  if (pid == 0)
    kdamond_watchdog_main (sysfs_root, procfs_root, sv[1]);
  close (sv[1]);
  if (kdamond_read_reply (sv[0], reply, size) < 0 || strncmp (reply, "OK ", 3) != 0)
    {
      if (strncmp (reply, "ERR ", 4) != 0)
        snprintf (reply, size, "ERR %d the monitor's watchdog failed\n", EIO);
      close (sv[0]);
      while (waitpid (pid, &status, 0) < 0 && errno == EINTR)
        ;
      return -1;
    }
  *sock_out = sv[0];
  return pid;
}

/* Has the watchdog PID remove the monitor and waits for it: 0 with REPLY "OK\n", or -1
 * with REPLY "ERR <errno> <text>\n". Closes SOCK. */
static inline int
kdamond_release (pid_t   pid,
                 int     sock,
                 char   *reply,
                 size_t  size)
{
  int status = 0;

  shutdown (sock, SHUT_WR);
  if (kdamond_read_reply (sock, reply, size) < 0)
    snprintf (reply, size, "ERR %d the monitor's watchdog went without a word\n", EIO);
  close (sock);
  while (waitpid (pid, &status, 0) < 0 && errno == EINTR)
    ;
  return strcmp (reply, "OK\n") == 0 ? 0 : -1;
}
