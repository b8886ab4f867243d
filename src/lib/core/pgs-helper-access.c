/* pgs-helper-access.c: DAMON's trace read through pagescope-helper (ACCESS)
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * "ACCESS <seconds>\n", then "OK <instance> <private-mount>\n", any number of "+<bytes>"
 * datagrams and "END\n" (src/helper/pgs-helper-protocol.h). Every frame is checked before
 * its bytes are passed on: a chunk larger than PGS_HELPER_ACCESS_CHUNK, a total beyond
 * PGS_HELPER_ACCESS_MAX_BYTES, an end of file before "END" or a frame of any other shape
 * is an error, never a short read taken for a whole one.
 *
 * The cap: a kdamond at DAMON's defaults (aggregating every 100 ms, up to 1,000 regions, a
 * damon_aggregated line of about 130 bytes) writes about 1.3 MB/s, so 256 MiB holds over
 * three minutes of it, more than the app's longest read (two aggregations, at most 120 s).
 * A stream beyond it comes from a monitor set far finer than that, and a shorter read
 * serves it better than a quarter of a gigabyte held in memory.
 */

#include "config.h"

#include <errno.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>

#include "pgs-damon-access.h"
#include "pgs-error.h"
#include "pgs-helper-private.h"
#include "pgs-procfs.h"
#include "src/helper/pgs-helper-protocol.h"

#define WHAT "reading memory access heat"
/* After "OK" the helper ends the stream SECONDS later; this long past that, it has hung. */
#define END_GRACE_SECONDS 60
/* After "STOP" the helper stops its reader and removes the instance at once. */
#define STOP_GRACE_SECONDS 10

/* Waits for a datagram on FD, at most until DEADLINE (monotonic µs; 0 for none), and
 * receives it into BUF (SIZE bytes, one kept for the NUL). Returns its length (0 at end
 * of file), or -1 with error; *TRUNCATED when it did not fit. */
static gssize
receive (int            fd,
         char          *buf,
         gsize          size,
         gint64         deadline,
         gboolean      *truncated,
         GCancellable  *cancellable,
         GError       **error)
{
  struct pollfd pfd[2] = { { fd, POLLIN, 0 }, { -1, POLLIN, 0 } };
  GPollFD cancel_fd = { -1, 0, 0 };
  struct iovec iov = { buf, size - 1 };
  struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };
  gboolean have_cancel_fd = cancellable != NULL &&
                            g_cancellable_make_pollfd (cancellable, &cancel_fd);
  gssize n = -1;

  if (have_cancel_fd)
    pfd[1].fd = cancel_fd.fd;
  for (;;)
    {
      int timeout = -1, ready;

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        goto out;
      if (deadline > 0)
        {
          gint64 left = deadline - g_get_monotonic_time ();

          if (left <= 0)
            {
              g_set_error (error, PGS_ERROR, PGS_ERROR_FAILED,
                           WHAT ": the helper stopped sending before the end of the trace");
              goto out;
            }
          timeout = (int) MIN (left / 1000 + 1, 1000);
        }
      ready = poll (pfd, 2, timeout);
      if (ready < 0 && errno != EINTR)
        {
          pgs_set_error_from_errno (error, errno, WHAT ": waiting for the helper");
          goto out;
        }
      if (ready > 0 && pfd[0].revents != 0)
        break;
    }
  do
    n = recvmsg (fd, &msg, MSG_CMSG_CLOEXEC);
  while (n < 0 && errno == EINTR);
  if (n < 0)
    pgs_set_error_from_errno (error, errno, WHAT ": reading from the helper");
  else
    {
      buf[n] = '\0';
      /* No descriptor comes with ACCESS's frames: any would have been closed unseen. */
      *truncated = (msg.msg_flags & MSG_TRUNC) != 0 || (gsize) n == size - 1;
    }

out:
  if (have_cancel_fd)
    g_cancellable_release_fd (cancellable);
  return n;
}

/* Cancelled mid-read: asks the helper to stop and reads what it still sends, up to its
 * "END", so that it waits for the next request with its instance removed. FALSE when it
 * did not answer so (then the caller hangs up). */
static gboolean
stop_read (int   fd,
           char *buf)
{
  gint64 deadline = g_get_monotonic_time () + STOP_GRACE_SECONDS * G_USEC_PER_SEC;
  gboolean truncated = FALSE;
  gssize n;

  do
    n = send (fd, "STOP\n", 5, MSG_NOSIGNAL);
  while (n < 0 && errno == EINTR);
  if (n != 5)
    return FALSE;
  for (;;)
    {
      n = receive (fd, buf, PGS_HELPER_ACCESS_CHUNK + 3, deadline, &truncated, NULL, NULL);
      if (n <= 0 || truncated)
        return FALSE;
      if (buf[0] != '+')
        return strcmp (buf, "END\n") == 0 || g_str_has_prefix (buf, "ERR ");
    }
}

/* "OK <instance> <0|1>\n": the instance a name the helper's worker makes
 * ("pagescope-PID-RANDOM"), no path or control bytes in it. */
static gboolean
parse_ok (const char  *reply,
          char       **instance,
          gboolean    *private_mount)
{
  const char *name = reply + 3, *space;
  gsize len;

  if (!g_str_has_prefix (reply, "OK "))
    return FALSE;
  space = strchr (name, ' ');
  if (space == NULL || space == name || (len = space - name) > 64)
    return FALSE;
  for (gsize i = 0; i < len; i++)
    if (!g_ascii_isalnum (name[i]) && name[i] != '-' && name[i] != '_' && name[i] != '.')
      return FALSE;
  if ((space[1] != '0' && space[1] != '1') || strcmp (space + 2, "\n") != 0)
    return FALSE;
  if (instance != NULL)
    *instance = g_strndup (name, len);
  if (private_mount != NULL)
    *private_mount = space[1] == '1';
  return TRUE;
}

/* The exchange, with the lock held. */
static gboolean
read_locked (PgsHelper           *self,
             int                  fd,
             guint                seconds,
             PgsDamonAccess      *access,
             GByteArray          *bytes,
             char               **instance,
             gboolean            *private_mount,
             GCancellable        *cancellable,
             GError             **error)
{
  g_autofree char *request = g_strdup_printf ("ACCESS %u\n", seconds);
  /* '+', a chunk, and one byte more to tell an oversized datagram, and the NUL. */
  g_autofree char *buf = g_malloc (PGS_HELPER_ACCESS_CHUNK + 3);
  gsize total = 0;
  gint64 deadline;
  gboolean truncated = FALSE;
  gssize n;

  do
    n = send (fd, request, strlen (request), MSG_NOSIGNAL);
  while (n < 0 && errno == EINTR);
  if (n < 0)
    {
      _pgs_helper_hang_up (self);
      g_set_error (error, PGS_ERROR, PGS_ERROR_FAILED, WHAT ": the helper has exited");
      return FALSE;
    }

  /* No deadline for the first reply: polkit may be asking the user for a password. */
  n = receive (fd, buf, PGS_HELPER_MAX_REPLY, 0, &truncated, cancellable, error);
  if (n < 0)
    goto hang_up;
  if (n == 0)
    {
      _pgs_helper_hang_up (self);
      g_set_error (error, PGS_ERROR, PGS_ERROR_FAILED, WHAT ": the helper has exited");
      return FALSE;
    }
  if (truncated || !parse_ok (buf, instance, private_mount))
    {
      /* An error ends the request: the helper waits for the next. Anything else leaves the
       * stream in an unknown state, so the helper is let go. */
      if (!truncated && g_str_has_prefix (buf, "ERR "))
        {
          _pgs_helper_set_reply_error (buf, WHAT, error);
          return FALSE;
        }
      g_set_error (error, PGS_ERROR, PGS_ERROR_FAILED,
                   WHAT ": the helper sent a malformed reply");
      _pgs_helper_hang_up (self);
      return FALSE;
    }

  deadline = g_get_monotonic_time () + (gint64) (seconds + END_GRACE_SECONDS) * G_USEC_PER_SEC;
  for (;;)
    {
      GError *local = NULL;

      n = receive (fd, buf, PGS_HELPER_ACCESS_CHUNK + 3, deadline, &truncated, cancellable,
                   &local);
      if (n < 0 && g_error_matches (local, G_IO_ERROR, G_IO_ERROR_CANCELLED) &&
          stop_read (fd, buf))
        {
          g_propagate_error (error, local);
          return FALSE;
        }
      if (n < 0)
        {
          g_propagate_error (error, local);
          goto hang_up;
        }
      if (n == 0)
        {
          g_set_error (error, PGS_ERROR, PGS_ERROR_FAILED,
                       WHAT ": the helper closed the connection before the end of the trace");
          goto hang_up;
        }
      if (buf[0] == '+')
        {
          if (truncated || n - 1 > PGS_HELPER_ACCESS_CHUNK)
            {
              g_set_error (error, PGS_ERROR, PGS_ERROR_FAILED,
                           WHAT ": the helper sent a chunk of more than %d bytes",
                           PGS_HELPER_ACCESS_CHUNK);
              goto hang_up;
            }
          total += n - 1;
          if (total > PGS_HELPER_ACCESS_MAX_BYTES)
            {
              g_set_error (error, PGS_ERROR, PGS_ERROR_FAILED,
                           WHAT ": the trace grew beyond %d MiB; read for a shorter time",
                           PGS_HELPER_ACCESS_MAX_BYTES / (1024 * 1024));
              goto hang_up;
            }
          if (access != NULL)
            pgs_damon_access_feed (access, buf + 1, n - 1);
          else
            g_byte_array_append (bytes, (const guint8 *) buf + 1, n - 1);
          continue;
        }
      if (!truncated && strcmp (buf, "END\n") == 0)
        return TRUE;
      if (!truncated && g_str_has_prefix (buf, "ERR "))
        {
          /* The helper's last reply: it serves the next request. */
          _pgs_helper_set_reply_error (buf, WHAT, error);
          return FALSE;
        }
      g_set_error (error, PGS_ERROR, PGS_ERROR_FAILED,
                   WHAT ": the helper sent a malformed frame in the trace");
      goto hang_up;
    }

hang_up:
  /* Cancelled before the read began (polkit still asking) or when STOP went unanswered,
   * or the stream cannot be trusted: the helper stops its reader, removes its tracefs
   * instance and exits when we go (pagescope-helper.c, read_access). */
  _pgs_helper_hang_up (self);
  return FALSE;
}

/* Feeds ACCESS's bytes to ACCESS, or gathers them in BYTES. */
static gboolean
read_access (PgsHelper       *self,
             guint            seconds,
             PgsDamonAccess  *access,
             GByteArray      *bytes,
             char           **instance,
             gboolean        *private_mount,
             GCancellable    *cancellable,
             GError         **error)
{
  g_autofree char *name = NULL;
  gboolean priv = FALSE, ok;
  int fd;

  if (seconds < 1 || seconds > PGS_HELPER_MAX_ACCESS_SECONDS)
    {
      g_set_error (error, PGS_ERROR, PGS_ERROR_FAILED,
                   WHAT ": the helper reads for 1 to %d seconds, not %u",
                   PGS_HELPER_MAX_ACCESS_SECONDS, seconds);
      return FALSE;
    }
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return FALSE;
  fd = _pgs_helper_lock (self, WHAT, error);
  if (fd < 0)
    return FALSE;
  ok = read_locked (self, fd, seconds, access, bytes, &name, &priv, cancellable, error);
  _pgs_helper_unlock (self);
  if (ok && instance != NULL)
    *instance = g_steal_pointer (&name);
  if (ok && private_mount != NULL)
    *private_mount = priv;
  return ok;
}

gboolean
pgs_helper_read_access (PgsHelper       *self,
                        guint            seconds,
                        PgsDamonAccess  *access,
                        char           **instance,
                        gboolean        *private_mount,
                        GCancellable    *cancellable,
                        GError         **error)
{
  g_return_val_if_fail (PGS_IS_HELPER (self), FALSE);
  g_return_val_if_fail (access != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  return read_access (self, seconds, access, NULL, instance, private_mount, cancellable, error);
}

typedef struct
{
  guint       seconds;
  GByteArray *bytes;
  char       *instance;
  gboolean    private_mount;
} AccessData;

static void
access_data_free (AccessData *data)
{
  g_clear_pointer (&data->bytes, g_byte_array_unref);
  g_free (data->instance);
  g_free (data);
}

static void
access_thread (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  AccessData *data = task_data;
  GError *error = NULL;

  if (read_access (source_object, data->seconds, NULL, data->bytes, &data->instance, &data->private_mount, cancellable, &error))
    g_task_return_pointer (task, g_byte_array_free_to_bytes (g_steal_pointer (&data->bytes)),
                           (GDestroyNotify) g_bytes_unref);
  else
    g_task_return_error (task, error);
}

void
pgs_helper_read_access_async (PgsHelper           *self,
                              guint                seconds,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  AccessData *data;

  g_return_if_fail (PGS_IS_HELPER (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, pgs_helper_read_access_async);
  data = g_new0 (AccessData, 1);
  data->seconds = seconds;
  data->bytes = g_byte_array_new ();
  g_task_set_task_data (task, data, (GDestroyNotify) access_data_free);
  /* The cancellable is polled in the thread; a cancelled task returns its own error. */
  g_task_set_return_on_cancel (task, FALSE);
  g_task_run_in_thread (task, access_thread);
}

GBytes *
pgs_helper_read_access_finish (PgsHelper     *self,
                               GAsyncResult  *result,
                               char         **instance,
                               gboolean      *private_mount,
                               GError       **error)
{
  AccessData *data;
  GBytes *bytes;

  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == pgs_helper_read_access_async,
                        NULL);

  bytes = g_task_propagate_pointer (G_TASK (result), error);
  data = g_task_get_task_data (G_TASK (result));
  if (bytes != NULL && instance != NULL)
    *instance = g_steal_pointer (&data->instance);
  if (bytes != NULL && private_mount != NULL)
    *private_mount = data->private_mount;
  return bytes;
}
