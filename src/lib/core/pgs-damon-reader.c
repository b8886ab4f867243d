/* pgs-damon-reader.c: damon:damon_aggregated events from a tracefs instance of our own
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The worker runs between fork() and _exit() on plain libc: the caller may have threads,
 * and a mount namespace (unshare(CLONE_NEWNS)) can only be made by a single-threaded
 * process, and must not change the caller's view of the file system.
 */

#include "config.h"

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gio/gio.h>
#include <glib/gi18n-lib.h>

#include "pgs-damon-reader.h"
#include "pgs-error.h"

#define EVENT_DIR "events/damon/damon_aggregated"
#define FALLBACK_MOUNT "/sys/kernel/tracing"

/* Worker exit codes. */
enum
{
  WORKER_REMOVED = 0,     /* the instance is gone */
  WORKER_FAILED = 1,      /* it never made one (the status line says why) */
  WORKER_NOT_REMOVED = 2, /* rmdir failed: the watchdog tries again */
};

struct _PgsDamonReader
{
  GPid      pid;
  int       fd;
  char     *instance;
  gboolean  private_mount;
  gboolean  stopped;
};

static volatile sig_atomic_t worker_stop;

static void
on_term (int sig)
{
  (void) sig;
  worker_stop = 1;
}

static gboolean
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
        return FALSE;
      buf += n;
      len -= n;
    }
  return TRUE;
}

static gboolean
write_file (const char *path,
            const char *text)
{
  int fd = open (path, O_WRONLY | O_CLOEXEC);
  gboolean ok;

  if (fd < 0)
    return FALSE;
  ok = write (fd, text, strlen (text)) == (ssize_t) strlen (text);
  close (fd);
  return ok;
}

/* The tracefs mount point this process sees, or "" when none. */
static void
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

static void
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

static void
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

static gboolean
remove_instance (const char *dir)
{
  /* EBUSY while a reader still has trace_pipe open: ours is closed, but give the kernel
   * a moment; ENOENT: someone (the worker, or the watchdog) removed it. */
  for (int i = 0; i < 200; i++)
    {
      if (rmdir (dir) == 0 || errno == ENOENT)
        return TRUE;
      if (errno != EBUSY)
        return FALSE;
      usleep (10000);
    }
  return FALSE;
}

/* Waits for the worker to go (its end of @wd closes however it dies), then removes the
 * instance if it is still there. Ignores the signals a terminal or a kill of the group
 * sends: it only cleans up. */
static void G_GNUC_NORETURN
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

static void G_GNUC_NORETURN
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

static void G_GNUC_NORETURN
worker_main (int   out,
             pid_t parent)
{
  struct sigaction sa = { 0 };
  char tracefs[2048], dir[4096], path[4600], status[4700];
  static char buf[65536];
  unsigned int rnd = 0;
  gboolean private_mount = FALSE;
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
      private_mount = TRUE;
    }
  snprintf (path, sizeof path, "%s/" EVENT_DIR "/format", tracefs);
  if (access (path, F_OK) != 0)
    worker_fail (out, "the kernel has no damon:damon_aggregated tracepoint (%s): %s", path);

  for (int tries = 0;; tries++)
    {
      if (getrandom (&rnd, sizeof rnd, 0) != sizeof rnd)
        rnd = (unsigned int) (g_get_monotonic_time () ^ getpid ());
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

PgsDamonReader *
pgs_damon_reader_start (GError **error)
{
  g_autoptr(PgsDamonReader) self = g_new0 (PgsDamonReader, 1);
  g_autoptr(GString) status = g_string_new (NULL);
  gint64 deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
  pid_t parent = getpid ();
  int fds[2];

  self->fd = -1;
  self->pid = -1;
  if (pipe2 (fds, O_CLOEXEC) != 0)
    {
      int saved = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved), "pipe: %s",
                   g_strerror (saved));
      return NULL;
    }
  fflush (NULL);
  self->pid = fork ();
  if (self->pid == 0)
    {
      close (fds[0]);
      worker_main (fds[1], parent);
    }
  close (fds[1]);
  self->fd = fds[0];
  if (self->pid < 0)
    {
      int saved = errno;

      self->stopped = TRUE;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved), "fork: %s",
                   g_strerror (saved));
      return NULL;
    }

  /* The status line, then trace_pipe's bytes. */
  while (status->len < 1024)
    {
      struct pollfd p = { self->fd, POLLIN, 0 };
      gint64 left = (deadline - g_get_monotonic_time ()) / 1000;
      char c;
      ssize_t n;

      if (left <= 0 || poll (&p, 1, (int) left) == 0)
        break;
      n = read (self->fd, &c, 1);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0 || c == '\n')
        break;
      g_string_append_c (status, c);
    }
  if (g_str_has_prefix (status->str, "OK "))
    {
      g_auto(GStrv) parts = g_strsplit (status->str + 3, " ", 2);

      self->instance = g_strdup (parts[0]);
      self->private_mount = parts[1] != NULL && g_str_equal (parts[1], "1");
      return g_steal_pointer (&self);
    }
  g_set_error (error, PGS_ERROR, PGS_ERROR_UNSUPPORTED, _("Cannot read DAMON’s events: %s"),
               g_str_has_prefix (status->str, "ERR ") ? status->str + 4
               : _("the tracefs reader did not start"));
  return NULL;
}

int
pgs_damon_reader_get_fd (PgsDamonReader *self)
{
  g_return_val_if_fail (self != NULL, -1);
  return self->fd;
}

const char *
pgs_damon_reader_get_instance (PgsDamonReader *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->instance;
}

gboolean
pgs_damon_reader_get_private_mount (PgsDamonReader *self)
{
  g_return_val_if_fail (self != NULL, FALSE);
  return self->private_mount;
}

gboolean
pgs_damon_reader_stop (PgsDamonReader  *self,
                       GError         **error)
{
  int status = 0;

  g_return_val_if_fail (self != NULL, FALSE);
  if (self->stopped)
    return TRUE;
  self->stopped = TRUE;
  kill (self->pid, SIGTERM);
  while (waitpid (self->pid, &status, 0) < 0)
    if (errno != EINTR)
      {
        int saved = errno;

        g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved), "waitpid: %s",
                     g_strerror (saved));
        return FALSE;
      }
  if (WIFEXITED (status) && WEXITSTATUS (status) == WORKER_REMOVED)
    return TRUE;
  if (WIFEXITED (status) && WEXITSTATUS (status) == WORKER_FAILED)
    return TRUE;   /* it made nothing */
  g_set_error (error, PGS_ERROR, PGS_ERROR_FAILED,
               _("The tracefs instance %s could not be removed yet; a watchdog process "
                 "keeps trying"), self->instance ? self->instance : "?");
  return FALSE;
}

void
pgs_damon_reader_free (PgsDamonReader *self)
{
  if (self == NULL)
    return;
  if (self->pid > 0 && !self->stopped)
    pgs_damon_reader_stop (self, NULL);
  if (self->fd >= 0)
    close (self->fd);
  g_free (self->instance);
  g_free (self);
}
