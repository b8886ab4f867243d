/* pgs-helper.c: the client of pagescope-helper
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The helper runs as root on the other end of a SOCK_SEQPACKET socketpair (its stdin) and
 * answers "OPEN <pid> <name>" and "KPAGE <name>" with a descriptor and "PAGEOUT <pid>
 * <ranges>" with a count; the protocol is in src/helper/pgs-helper-protocol.h, which the
 * helper includes too. One request and its reply are one exchange under a mutex, so the
 * scanner's worker thread and the main thread may share it.
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <glib-unix.h>

#include "pgs-error.h"
#include "pgs-helper.h"
#include "pgs-helper-private.h"
#include "pgs-procfs.h"
#include "src/helper/pgs-helper-protocol.h"

/* The most a page-out request asks of the helper, so that other threads' requests and a
 * cancellation wait at most about a second (paging out 1 GiB took 3.6 s into zram). */
#define PAGEOUT_BATCH (256 * 1024 * 1024)
/* What of the helper's words is shown: no control or terminal bytes. */
#define SAFE_CHARS G_CSET_a_2_z G_CSET_A_2_Z G_CSET_DIGITS " ,.:-_()'"
/* pkexec's exit codes (pkexec(1)). */
#define PKEXEC_DISMISSED 126
#define PKEXEC_NOT_AUTHORIZED 127

struct _PgsHelper
{
  GObject       parent_instance;
  GMutex        lock;
  int           fd;
  gint          closed;      /* atomic */
  GSubprocess  *subprocess;  /* NULL when made for an fd */
  int           stderr_fd;   /* pkexec's stderr, a memfd read when it fails; -1 for none */
  GMainContext *context;
  GSource      *watch;
};

G_DEFINE_FINAL_TYPE (PgsHelper, pgs_helper, G_TYPE_OBJECT)

enum {
  CLOSED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
pgs_helper_dispose (GObject *object)
{
  PgsHelper *self = PGS_HELPER (object);

  if (self->watch != NULL)
    {
      g_source_destroy (self->watch);
      g_clear_pointer (&self->watch, g_source_unref);
    }
  /* Closing our end is what tells the helper to exit. */
  if (self->fd >= 0)
    {
      close (self->fd);
      self->fd = -1;
    }
  g_clear_object (&self->subprocess);
  if (self->stderr_fd >= 0)
    close (self->stderr_fd);
  self->stderr_fd = -1;
  G_OBJECT_CLASS (pgs_helper_parent_class)->dispose (object);
}

static void
pgs_helper_finalize (GObject *object)
{
  PgsHelper *self = PGS_HELPER (object);

  g_clear_pointer (&self->context, g_main_context_unref);
  g_mutex_clear (&self->lock);
  G_OBJECT_CLASS (pgs_helper_parent_class)->finalize (object);
}

static void
pgs_helper_class_init (PgsHelperClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = pgs_helper_dispose;
  object_class->finalize = pgs_helper_finalize;

  /**
   * PgsHelper::closed:
   *
   * The helper exited (or was killed); every later pgs_helper_open() fails.
   */
  signals[CLOSED] = g_signal_new ("closed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
pgs_helper_init (PgsHelper *self)
{
  self->stderr_fd = -1;
  g_mutex_init (&self->lock);
  self->fd = -1;
  self->context = g_main_context_ref_thread_default ();
}

static gboolean
on_hangup (int           fd,
           GIOCondition  condition,
           gpointer      user_data)
{
  PgsHelper *self = user_data;

  g_atomic_int_set (&self->closed, TRUE);
  g_clear_pointer (&self->watch, g_source_unref);
  g_signal_emit (self, signals[CLOSED], 0);
  return G_SOURCE_REMOVE;
}

static void
watch_hangup (PgsHelper *self)
{
  self->watch = g_unix_fd_source_new (self->fd, G_IO_HUP | G_IO_ERR);
  g_source_set_callback (self->watch, (GSourceFunc) (void (*) (void)) on_hangup, self, NULL);
  g_source_set_static_name (self->watch, "[pagescope] helper hang-up");
  g_source_attach (self->watch, self->context);
}

/* Waits for the greeting. Returns 0 on success, -1 with error, or 1 when the helper went
 * before greeting (the exit status says why). */
static int
handshake (PgsHelper     *self,
           GCancellable  *cancellable,
           GError       **error)
{
  struct pollfd pfd[2] = { { self->fd, POLLIN, 0 }, { -1, POLLIN, 0 } };
  GPollFD cancel_fd = { -1, 0, 0 };
  char buf[PGS_HELPER_MAX_REPLY];
  gssize n;

  if (cancellable != NULL && g_cancellable_make_pollfd (cancellable, &cancel_fd))
    pfd[1].fd = cancel_fd.fd;
  else
    cancellable = NULL;

  while (poll (pfd, 2, -1) < 0)
    if (errno != EINTR)
      {
        pgs_set_error_from_errno (error, errno, "waiting for the helper");
        goto fail;
      }
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    goto fail;

  do
    n = recv (self->fd, buf, sizeof buf - 1, 0);
  while (n < 0 && errno == EINTR);
  if (n <= 0)
    {
      if (cancellable != NULL)
        g_cancellable_release_fd (cancellable);
      return 1;
    }
  buf[n] = '\0';
  if (g_str_has_prefix (buf, "ERR "))
    {
      /* It will not serve this process (not its parent, or another user's). */
      char *text = strchr (buf + 4, ' ');

      text = g_strcanon (g_strchomp (text != NULL ? text + 1 : buf), SAFE_CHARS, '?');
      g_set_error (error, PGS_ERROR, PGS_ERROR_NO_PERMISSION, "the helper refused: %s", text);
      goto fail;
    }
  if (strcmp (buf, PGS_HELPER_GREETING) != 0)
    {
      g_set_error (error, PGS_ERROR, PGS_ERROR_FAILED,
                   "the helper did not greet as pagescope-helper version 1");
      goto fail;
    }
  if (cancellable != NULL)
    g_cancellable_release_fd (cancellable);
  return 0;

fail:
  if (cancellable != NULL)
    g_cancellable_release_fd (cancellable);
  return -1;
}

/* What pkexec (or the helper) wrote on stderr, its first line, or "" */
static char *
read_stderr (PgsHelper *self)
{
  char buf[1024];
  gssize n;
  char *end;

  if (self->stderr_fd < 0 || lseek (self->stderr_fd, 0, SEEK_SET) < 0)
    return g_strdup ("");
  do
    n = read (self->stderr_fd, buf, sizeof buf - 1);
  while (n < 0 && errno == EINTR);
  buf[MAX (n, 0)] = '\0';
  /* Still said where the user runs the app from a terminal. */
  if (n > 0)
    g_printerr ("%s", buf);
  if ((end = strchr (buf, '\n')) != NULL)
    *end = '\0';
  return g_utf8_make_valid (buf, -1);
}

/* pkexec exits 127 for every failure of its own (pkexec(1)); its stderr tells them apart:
 * "Error accessing PATH: No such file or directory" (no helper installed), "Error
 * executing command as another user: No authentication agent found." (nothing to ask
 * for the password), "Error getting authority: …" (no polkit), "… Not authorized"
 * (refused). Any other status is the helper's own. */
static void
set_status_error (int          status,
                  const char  *said,
                  GError     **error)
{
  if (status != PKEXEC_NOT_AUTHORIZED)
    g_set_error (error, PGS_ERROR, PGS_ERROR_FAILED, "the helper failed (exit status %d)%s%s",
                 status, *said != '\0' ? ": " : "", said);
  else if (g_str_has_prefix (said, "Error accessing") || strstr (said, "No such file") != NULL)
    g_set_error (error, PGS_ERROR, PGS_ERROR_FAILED,
                 "the helper is not installed (%s); reinstall Pagescope", said);
  else if (strstr (said, "authentication agent") != NULL ||
           g_str_has_prefix (said, "Error getting authority"))
    g_set_error (error, PGS_ERROR, PGS_ERROR_FAILED,
                 "no authentication agent is running to ask for the password (%s)", said);
  else if (strstr (said, "Not authorized") != NULL || *said == '\0')
    g_set_error (error, PGS_ERROR, PGS_ERROR_NO_PERMISSION,
                 "authentication was refused: not authorised to read the memory of every "
                 "process");
  else
    g_set_error (error, PGS_ERROR, PGS_ERROR_FAILED, "pkexec failed: %s", said);
}

/* The helper went before greeting: say why, from pkexec's exit status. */
static void
set_exit_error (PgsHelper     *self,
                GCancellable  *cancellable,
                GError       **error)
{
  g_autofree char *said = NULL;
  int status;

  if (self->subprocess == NULL || !g_subprocess_wait (self->subprocess, cancellable, error))
    {
      if (error == NULL || *error == NULL)
        g_set_error (error, PGS_ERROR, PGS_ERROR_FAILED, "the helper closed the connection");
      return;
    }
  if (!g_subprocess_get_if_exited (self->subprocess))
    {
      g_set_error (error, PGS_ERROR, PGS_ERROR_FAILED, "the helper was killed by signal %d",
                   g_subprocess_get_term_sig (self->subprocess));
      return;
    }
  status = g_subprocess_get_exit_status (self->subprocess);
  if (status == PKEXEC_DISMISSED)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, "authentication was dismissed");
      return;
    }
  said = read_stderr (self);
  set_status_error (status, said, error);
}

/* Spawns the helper with one end of a socketpair as its stdin. */
static PgsHelper *
spawn (GError **error)
{
  g_autoptr(PgsHelper) self = g_object_new (PGS_TYPE_HELPER, NULL);
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_auto(GStrv) argv = NULL;
  const char *command = g_getenv ("PGS_HELPER_COMMAND");
  const char *inherited = g_getenv ("PGS_HELPER_FD");
  int sv[2];

  /* A test seam for a user's process whose helper root started: a socket it inherited. */
  if (inherited != NULL && *inherited != '\0')
    {
      guint64 fd;

      if (!g_ascii_string_to_unsigned (inherited, 10, 0, G_MAXINT, &fd, error))
        return NULL;
      self->fd = fcntl ((int) fd, F_DUPFD_CLOEXEC, 3);
      if (self->fd < 0)
        {
          pgs_set_error_from_errno (error, errno, "PGS_HELPER_FD=%s", inherited);
          return NULL;
        }
      return g_steal_pointer (&self);
    }

  if (command != NULL && *command != '\0')
    {
      if (!g_shell_parse_argv (command, NULL, &argv, error))
        return NULL;
    }
  else
    {
      argv = g_new0 (char *, 3);
      argv[0] = g_strdup ("pkexec");
      argv[1] = g_strdup (PGS_HELPER_PATH);
    }

  if (socketpair (AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0)
    {
      pgs_set_error_from_errno (error, errno, "socketpair");
      return NULL;
    }
  self->fd = sv[0];

  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_NONE);
  g_subprocess_launcher_take_stdin_fd (launcher, sv[1]);
  /* Where pkexec says why it failed: read back if it does (an unlinked file, so nothing
   * blocks when nobody reads it). */
  {
    g_autofree char *path = NULL;

    self->stderr_fd = g_file_open_tmp ("pagescope-helper-XXXXXX", &path, NULL);
    if (path != NULL)
      unlink (path);
  }
  if (self->stderr_fd >= 0 && fcntl (self->stderr_fd, F_SETFD, FD_CLOEXEC) == 0)
    g_subprocess_launcher_take_stderr_fd (launcher, fcntl (self->stderr_fd, F_DUPFD_CLOEXEC, 3));
  self->subprocess = g_subprocess_launcher_spawnv (launcher, (const char * const *) argv, error);
  /* The launcher holds the child's end until it goes: drop it now, so that the helper's
   * exit reads as end of file here. */
  g_clear_object (&launcher);
  if (self->subprocess == NULL)
    return NULL;
  return g_steal_pointer (&self);
}

static gboolean
finish_start (PgsHelper     *self,
              GCancellable  *cancellable,
              GError       **error)
{
  int ret = handshake (self, cancellable, error);

  if (ret == 1)
    set_exit_error (self, cancellable, error);
  if (ret != 0)
    {
      if (self->subprocess != NULL)
        g_subprocess_force_exit (self->subprocess);
      return FALSE;
    }
  watch_hangup (self);
  return TRUE;
}

PgsHelper *
pgs_helper_start (GCancellable  *cancellable,
                  GError       **error)
{
  g_autoptr(PgsHelper) self = spawn (error);

  if (self == NULL || !finish_start (self, cancellable, error))
    return NULL;
  return g_steal_pointer (&self);
}

static void
start_thread (GTask        *task,
              gpointer      source_object,
              gpointer      task_data,
              GCancellable *cancellable)
{
  PgsHelper *self = task_data;
  GError *error = NULL;

  if (finish_start (self, cancellable, &error))
    g_task_return_pointer (task, g_object_ref (self), g_object_unref);
  else
    g_task_return_error (task, error);
}

void
pgs_helper_start_async (GCancellable        *cancellable,
                        GAsyncReadyCallback  callback,
                        gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (NULL, cancellable, callback, user_data);
  GError *error = NULL;
  PgsHelper *self;

  g_task_set_source_tag (task, pgs_helper_start_async);
  /* Spawned here, so the helper's hang-up is watched in the caller's main context. */
  self = spawn (&error);
  if (self == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  g_task_set_task_data (task, self, g_object_unref);
  g_task_run_in_thread (task, start_thread);
}

PgsHelper *
pgs_helper_start_finish (GAsyncResult  *result,
                         GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

PgsHelper *
pgs_helper_new_for_fd (int      fd,
                       GError **error)
{
  g_autoptr(PgsHelper) self = NULL;

  g_return_val_if_fail (fd >= 0, NULL);

  self = g_object_new (PGS_TYPE_HELPER, NULL);
  self->fd = fd;
  if (!finish_start (self, NULL, error))
    return NULL;
  return g_steal_pointer (&self);
}

gboolean
pgs_helper_is_running (PgsHelper *self)
{
  struct pollfd pfd;

  g_return_val_if_fail (PGS_IS_HELPER (self), FALSE);

  if (g_atomic_int_get (&self->closed) || self->fd < 0)
    return FALSE;
  /* Without a main loop the watch never runs: ask the socket itself. */
  pfd.fd = self->fd;
  pfd.events = 0;
  pfd.revents = 0;
  if (poll (&pfd, 1, 0) > 0 && (pfd.revents & (POLLHUP | POLLERR)))
    return FALSE;
  return TRUE;
}

static gboolean
name_allowed (int         pid,
              const char *name)
{
  for (gsize i = 0; i < PGS_HELPER_N_FILES; i++)
    if (pgs_helper_files[i].pid_file == (pid > 0) && strcmp (pgs_helper_files[i].name, name) == 0)
      return TRUE;
  return FALSE;
}

/* The error of a reply that is not "OK": "ERR <errno> <text>" mapped to the library's
 * errors (the helper's words shown only as SAFE_CHARS), anything else malformed. REPLY is
 * NUL-terminated and may be changed. */
void
_pgs_helper_set_reply_error (char        *reply,
                             const char  *what,
                             GError     **error)
{
  if (g_str_has_prefix (reply, "ERR "))
    {
      char *end = NULL;
      guint64 errsv = g_ascii_strtoull (reply + 4, &end, 10);

      if (end != reply + 4 && *end == ' ' && errsv > 0 && errsv < 4096)
        {
          char *text = g_strcanon (g_strchomp (end + 1), SAFE_CHARS, '?');

          /* The helper refused the request itself, or a change for want of polkit's
           * authorisation: its words say why. */
          if (errsv == EINVAL || errsv == EMSGSIZE)
            g_set_error (error, PGS_ERROR, PGS_ERROR_FAILED, "%s: the helper refused: %s",
                         what, text);
          else if (errsv == ECANCELED)
            g_set_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, "%s: %s", what, text);
          else if (errsv == EACCES || errsv == EPERM)
            g_set_error (error, PGS_ERROR, PGS_ERROR_NO_PERMISSION, "%s (through the helper): %s",
                         what, text);
          else if (errsv == EIO)
            /* ACCESS's failures, in the helper's (and its tracefs reader's) words. */
            g_set_error (error, PGS_ERROR, PGS_ERROR_FAILED, "%s (through the helper): %s",
                         what, text);
          else if (errsv == ENOSYS)
            g_set_error (error, PGS_ERROR, PGS_ERROR_UNSUPPORTED, "%s (through the helper): %s",
                         what, g_strerror (ENOSYS));
          else
            pgs_set_error_from_errno (error, (int) errsv, "%s (through the helper)", what);
          return;
        }
    }
  g_set_error (error, PGS_ERROR, PGS_ERROR_FAILED, "%s: the helper sent a malformed reply", what);
}

int
_pgs_helper_lock (PgsHelper   *self,
                  const char  *what,
                  GError     **error)
{
  g_mutex_lock (&self->lock);
  if (self->fd < 0 || g_atomic_int_get (&self->closed))
    {
      g_mutex_unlock (&self->lock);
      g_set_error (error, PGS_ERROR, PGS_ERROR_FAILED, "%s: the helper has exited", what);
      return -1;
    }
  return self->fd;
}

void
_pgs_helper_unlock (PgsHelper *self)
{
  g_mutex_unlock (&self->lock);
}

void
_pgs_helper_hang_up (PgsHelper *self)
{
  /* Both ways: the helper sees its peer go (POLLRDHUP) and exits; later requests fail. The
   * descriptor stays open until dispose, so no other file takes its number meanwhile. */
  shutdown (self->fd, SHUT_RDWR);
  g_atomic_int_set (&self->closed, TRUE);
}

/* One request and its reply, which must begin with "OK". Returns TRUE with the reply in
 * REPLY (PGS_HELPER_MAX_REPLY bytes) and the one descriptor that came with it, or -1, in
 * *FD_OUT (caller closes); FALSE with error. Called with the lock held. */
static gboolean
exchange (PgsHelper   *self,
          const char  *request,
          const char  *what,
          char        *reply,
          int         *fd_out,
          GError     **error)
{
  char control[CMSG_SPACE (sizeof (int))];
  struct iovec iov = { (void *) request, strlen (request) };
  struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };
  struct cmsghdr *cmsg;
  gsize n_fds_extra = 0;
  gssize n;
  int fd = -1;

  do
    n = sendmsg (self->fd, &msg, MSG_NOSIGNAL);
  while (n < 0 && errno == EINTR);
  if (n < 0)
    goto gone;

  *fd_out = -1;
  iov.iov_base = reply;
  iov.iov_len = PGS_HELPER_MAX_REPLY - 1;
  memset (&msg, 0, sizeof msg);
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  msg.msg_control = control;
  msg.msg_controllen = sizeof control;
  do
    n = recvmsg (self->fd, &msg, MSG_CMSG_CLOEXEC);
  while (n < 0 && errno == EINTR);
  if (n <= 0)
    goto gone;
  reply[n] = '\0';

  /* Keep exactly one descriptor; close whatever else came (the buffer's padding fits two). */
  for (cmsg = CMSG_FIRSTHDR (&msg); cmsg != NULL; cmsg = CMSG_NXTHDR (&msg, cmsg))
    if (cmsg->cmsg_level == SOL_SOCKET && cmsg->cmsg_type == SCM_RIGHTS)
      {
        gsize n_fds = (cmsg->cmsg_len - CMSG_LEN (0)) / sizeof (int);

        for (gsize i = 0; i < n_fds; i++)
          {
            int one;

            memcpy (&one, CMSG_DATA (cmsg) + i * sizeof (int), sizeof (int));
            if (n_fds == 1 && fd < 0)
              fd = one;
            else
              {
                pgs_close (one);
                n_fds_extra++;
              }
          }
      }

  if (g_str_has_prefix (reply, "OK") && n_fds_extra == 0 && !(msg.msg_flags & MSG_CTRUNC))
    {
      *fd_out = fd;
      return TRUE;
    }
  pgs_close (fd);

  _pgs_helper_set_reply_error (reply, what, error);
  return FALSE;

gone:
  g_atomic_int_set (&self->closed, TRUE);
  g_set_error (error, PGS_ERROR, PGS_ERROR_FAILED, "%s: the helper has exited", what);
  return FALSE;
}

int
pgs_helper_open (PgsHelper   *self,
                 int          pid,
                 const char  *name,
                 GError     **error)
{
  g_autofree char *request = NULL;
  g_autofree char *what = NULL;
  char reply[PGS_HELPER_MAX_REPLY];
  int fd = -1;

  g_return_val_if_fail (PGS_IS_HELPER (self), -1);
  g_return_val_if_fail (pid >= 0, -1);
  g_return_val_if_fail (name != NULL, -1);

  if (!name_allowed (pid, name))
    {
      g_set_error (error, PGS_ERROR, PGS_ERROR_FAILED,
                   "the helper does not open %s%s", pid > 0 ? "/proc/PID/" : "/proc/", name);
      return -1;
    }
  if (pid > 0)
    {
      request = g_strdup_printf ("OPEN %d %s\n", pid, name);
      what = g_strdup_printf ("/proc/%d/%s", pid, name);
    }
  else
    {
      request = g_strdup_printf ("KPAGE %s\n", name);
      what = g_strdup_printf ("/proc/%s", name);
    }

  g_mutex_lock (&self->lock);
  if (self->fd < 0 || g_atomic_int_get (&self->closed))
    g_set_error (error, PGS_ERROR, PGS_ERROR_FAILED, "%s: the helper has exited", what);
  else if (exchange (self, request, what, reply, &fd, error) && (strcmp (reply, "OK\n") != 0 || fd < 0))
    {
      g_set_error (error, PGS_ERROR, PGS_ERROR_FAILED, "%s: the helper sent a malformed reply",
                   what);
      pgs_close (fd);
      fd = -1;
    }
  g_mutex_unlock (&self->lock);
  return fd;
}

/* Sends one PAGEOUT request of N ranges; adds what the kernel advised to *ADVISED. */
static gboolean
pageout_batch (PgsHelper      *self,
               int             pid,
               const guint64  *starts,
               const guint64  *ends,
               guint           n,
               guint64        *advised,
               GError        **error)
{
  g_autoptr(GString) request = g_string_new (NULL);
  g_autofree char *what = g_strdup_printf ("paging out memory of process %d", pid);
  char reply[PGS_HELPER_MAX_REPLY];
  guint64 requested = 0, sent = 0, done = 0;
  gboolean ok = FALSE;
  int fd = -1;

  g_string_printf (request, "PAGEOUT %d", pid);
  for (guint i = 0; i < n; i++)
    {
      g_string_append_printf (request, " %" G_GINT64_MODIFIER "x-%" G_GINT64_MODIFIER "x",
                              starts[i], ends[i]);
      sent += ends[i] - starts[i];
    }
  g_string_append_c (request, '\n');

  g_mutex_lock (&self->lock);
  if (self->fd < 0 || g_atomic_int_get (&self->closed))
    g_set_error (error, PGS_ERROR, PGS_ERROR_FAILED, "%s: the helper has exited", what);
  else if (exchange (self, request->str, what, reply, &fd, error))
    {
      /* "OK <requested> <advised>\n", the first what was sent, the second no more. */
      ok = fd < 0 && sscanf (reply, "OK %" G_GINT64_MODIFIER "u %" G_GINT64_MODIFIER "u",
                             &requested, &done) == 2 && requested == sent && done <= requested;
      if (!ok)
        g_set_error (error, PGS_ERROR, PGS_ERROR_FAILED, "%s: the helper sent a malformed reply",
                     what);
      pgs_close (fd);
    }
  g_mutex_unlock (&self->lock);
  if (ok)
    *advised += done;
  return ok;
}

gboolean
pgs_helper_pageout (PgsHelper      *self,
                    int             pid,
                    const guint64  *starts,
                    const guint64  *ends,
                    guint           n_ranges,
                    guint64        *advised_bytes,
                    GCancellable   *cancellable,
                    GError        **error)
{
  guint64 page = (guint64) sysconf (_SC_PAGESIZE);
  guint64 batch_starts[PGS_HELPER_MAX_RANGES], batch_ends[PGS_HELPER_MAX_RANGES];
  guint64 advised = 0, batch_bytes = 0, at;
  guint n = 0;

  g_return_val_if_fail (PGS_IS_HELPER (self), FALSE);
  g_return_val_if_fail (pid > 0, FALSE);
  g_return_val_if_fail (n_ranges == 0 || (starts != NULL && ends != NULL), FALSE);

  if (advised_bytes != NULL)
    *advised_bytes = 0;
  for (guint i = 0; i < n_ranges; i++)
    if (starts[i] >= ends[i] || starts[i] % page != 0 || ends[i] % page != 0 ||
        (i > 0 && starts[i] < ends[i - 1]))
      {
        g_set_error (error, PGS_ERROR, PGS_ERROR_FAILED,
                     "paging out memory of process %d: range %u (%#" G_GINT64_MODIFIER "x-%#"
                     G_GINT64_MODIFIER "x) is not page-aligned, ascending and apart from the "
                     "one before", pid, i, starts[i], ends[i]);
        return FALSE;
      }

  /* Batches of at most PGS_HELPER_MAX_RANGES ranges and PAGEOUT_BATCH bytes, a range split
   * where a batch fills (both halves stay inside its mapping). */
  for (guint i = 0; i < n_ranges; i++)
    for (at = starts[i]; at < ends[i]; )
      {
        guint64 take = MIN (ends[i] - at, PAGEOUT_BATCH - batch_bytes);

        batch_starts[n] = at;
        batch_ends[n] = at + take;
        n++;
        batch_bytes += take;
        at += take;
        if (n == PGS_HELPER_MAX_RANGES || batch_bytes == PAGEOUT_BATCH ||
            (i == n_ranges - 1 && at == ends[i]))
          {
            if (g_cancellable_set_error_if_cancelled (cancellable, error) ||
                !pageout_batch (self, pid, batch_starts, batch_ends, n, &advised, error))
              {
                if (advised_bytes != NULL)
                  *advised_bytes = advised;
                return FALSE;
              }
            n = 0;
            batch_bytes = 0;
          }
      }
  if (advised_bytes != NULL)
    *advised_bytes = advised;
  return TRUE;
}

int
pgs_helper_open_at (PgsHelper   *helper,
                    int          dirfd,
                    int          pid,
                    const char  *name,
                    GError     **error)
{
  g_return_val_if_fail (helper == NULL || PGS_IS_HELPER (helper), -1);

  if (helper != NULL)
    return pgs_helper_open (helper, pid, name, error);
  return pgs_open_at (dirfd, name, O_RDONLY, error);
}

typedef char *(*ReadFd) (int fd, const char *name, gsize *len, GError **error);

static char *
read_at (PgsHelper   *helper,
         int          dirfd,
         int          pid,
         const char  *name,
         ReadFd       read,
         gsize       *len,
         GError     **error)
{
  g_auto(PgsFd) fd = pgs_helper_open_at (helper, dirfd, pid, name, error);

  return fd >= 0 ? read (fd, name, len, error) : NULL;
}

char *
pgs_helper_read_at (PgsHelper   *helper,
                    int          dirfd,
                    int          pid,
                    const char  *name,
                    gsize       *len,
                    GError     **error)
{
  return read_at (helper, dirfd, pid, name, pgs_read_fd, len, error);
}

char *
pgs_helper_read_record_at (PgsHelper   *helper,
                           int          dirfd,
                           int          pid,
                           const char  *name,
                           gsize       *len,
                           GError     **error)
{
  return read_at (helper, dirfd, pid, name, pgs_read_record_fd, len, error);
}
