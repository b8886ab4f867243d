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
#include "src/helper/pgs-tracefs-worker.h"

struct _PgsDamonReader
{
  GPid      pid;
  int       fd;
  char     *instance;
  gboolean  private_mount;
  gboolean  stopped;
};

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
