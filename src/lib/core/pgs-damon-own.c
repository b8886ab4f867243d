/* pgs-damon-own.c: a kdamond of Pagescope's own, for a session
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <sys/socket.h>

#include <gio/gio.h>
#include <glib/gi18n-lib.h>

#include "pgs-damon-own.h"
#include "pgs-error.h"
#include "pgs-helper-private.h"
#include "src/helper/pgs-helper-protocol.h"
#include "src/helper/pgs-kdamond-writer.h"

struct _PgsDamonOwn
{
  guint      index;
  int        pid;
  pid_t      watchdog;   /* as root: the process that removes the monitor */
  int        sock;       /* ... when this closes */
  PgsHelper *helper;     /* else: the helper whose watchdog does */
  gboolean   stopped;
};

/* "ERR <errno> <text>\n" (the writer's, the watchdog's or the helper's) as an error. */
static void
set_reply_error (const char  *reply,
                 const char  *what,
                 GError     **error)
{
  g_autofree char *text = NULL;
  char *end = NULL;
  guint64 errsv = 0;

  if (g_str_has_prefix (reply, "ERR "))
    errsv = g_ascii_strtoull (reply + 4, &end, 10);
  if (errsv == 0 || errsv > 4095 || *end != ' ')
    {
      g_set_error (error, PGS_ERROR, PGS_ERROR_FAILED, "%s: %s", what, reply);
      return;
    }
  text = g_strchomp (g_strdup (end + 1));
  if (errsv == EBUSY)
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_BUSY, "%s: %s", what, text);
  else if (errsv == ENOENT)
    g_set_error (error, PGS_ERROR, PGS_ERROR_UNSUPPORTED, "%s: %s", what, text);
  else if (errsv == EACCES || errsv == EPERM)
    g_set_error (error, PGS_ERROR, PGS_ERROR_NO_PERMISSION, "%s: %s", what, text);
  else if (errsv == ECANCELED)
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, "%s: %s", what, text);
  else
    g_set_error (error, PGS_ERROR, PGS_ERROR_FAILED, "%s: %s", what, text);
}

gboolean
pgs_damon_own_can_start (const char  *sysfs_root,
                         char       **reason)
{
  char text[KDAMOND_REPLY_MAX];

  if (kdamond_check_free (sysfs_root ? sysfs_root : "/sys", text, sizeof text) == 0)
    return TRUE;
  if (reason != NULL)
    *reason = g_strdup (text);
  return FALSE;
}

PgsDamonOwn *
pgs_damon_own_start (const char  *sysfs_root,
                     const char  *procfs_root,
                     GError     **error)
{
  g_autoptr(PgsDamonOwn) self = g_new0 (PgsDamonOwn, 1);
  char reply[KDAMOND_REPLY_MAX];
  int index = 0, pid = -1;

  self->sock = -1;
  self->watchdog = kdamond_spawn (sysfs_root ? sysfs_root : "/sys",
                                  procfs_root ? procfs_root : "/proc", &self->sock, reply,
                                  sizeof reply);
  if (self->watchdog < 0)
    {
      self->stopped = TRUE;
      set_reply_error (reply, _("Cannot start a memory access monitor"), error);
      return NULL;
    }
  sscanf (reply, "OK %d %d", &index, &pid);
  self->index = (guint) MAX (index, 0);
  self->pid = pid;
  return g_steal_pointer (&self);
}

/* One request to the helper and its one-datagram reply (NUL-terminated). */
static gboolean
helper_exchange (PgsHelper   *helper,
                 const char  *request,
                 const char  *what,
                 char        *reply,
                 GError     **error)
{
  int fd = _pgs_helper_lock (helper, what, error);
  gssize n;

  if (fd < 0)
    return FALSE;
  do
    n = send (fd, request, strlen (request), MSG_NOSIGNAL);
  while (n < 0 && errno == EINTR);
  if (n >= 0)
    do
      n = recv (fd, reply, PGS_HELPER_MAX_REPLY - 1, 0);
    while (n < 0 && errno == EINTR);
  _pgs_helper_unlock (helper);
  if (n <= 0)
    {
      g_set_error (error, PGS_ERROR, PGS_ERROR_FAILED, "%s: the helper has exited", what);
      return FALSE;
    }
  reply[n] = '\0';
  return TRUE;
}

PgsDamonOwn *
pgs_damon_own_start_through_helper (PgsHelper  *helper,
                                    GError    **error)
{
  g_autoptr(PgsDamonOwn) self = NULL;
  const char *what = _("Cannot start a memory access monitor");
  char reply[PGS_HELPER_MAX_REPLY];
  int index = -1, pid = 0;

  g_return_val_if_fail (PGS_IS_HELPER (helper), NULL);

  if (!helper_exchange (helper, "MONITOR\n", what, reply, error))
    return NULL;
  if (!g_str_has_prefix (reply, "OK "))
    {
      set_reply_error (reply, what, error);
      return NULL;
    }
  if (sscanf (reply, "OK %d %d", &index, &pid) != 2 || index < 0)
    {
      g_set_error (error, PGS_ERROR, PGS_ERROR_FAILED, "%s: the helper sent a malformed reply",
                   what);
      return NULL;
    }
  self = g_new0 (PgsDamonOwn, 1);
  self->sock = -1;
  self->watchdog = -1;
  self->helper = g_object_ref (helper);
  self->index = (guint) index;
  self->pid = pid;
  return g_steal_pointer (&self);
}

typedef struct
{
  char      *sysfs_root;
  char      *procfs_root;
  PgsHelper *helper;
} StartData;

static void
start_data_free (StartData *data)
{
  g_free (data->sysfs_root);
  g_free (data->procfs_root);
  g_clear_object (&data->helper);
  g_free (data);
}

static void
start_thread (GTask        *task,
              gpointer      source_object,
              gpointer      task_data,
              GCancellable *cancellable)
{
  StartData *data = task_data;
  GError *error = NULL;
  PgsDamonOwn *own = data->helper != NULL
    ? pgs_damon_own_start_through_helper (data->helper, &error)
    : pgs_damon_own_start (data->sysfs_root, data->procfs_root, &error);

  if (own == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, own, (GDestroyNotify) pgs_damon_own_free);
}

void
pgs_damon_own_start_async (const char          *sysfs_root,
                           const char          *procfs_root,
                           PgsHelper           *helper,
                           GCancellable        *cancellable,
                           GAsyncReadyCallback  callback,
                           gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (NULL, cancellable, callback, user_data);
  StartData *data = g_new0 (StartData, 1);

  g_return_if_fail (helper == NULL || PGS_IS_HELPER (helper));

  data->sysfs_root = g_strdup (sysfs_root);
  data->procfs_root = g_strdup (procfs_root);
  data->helper = helper != NULL ? g_object_ref (helper) : NULL;
  g_task_set_source_tag (task, pgs_damon_own_start_async);
  g_task_set_task_data (task, data, (GDestroyNotify) start_data_free);
  /* Not cancelled midway: a monitor half started is the writer's to undo, not ours. */
  g_task_set_check_cancellable (task, FALSE);
  g_task_run_in_thread (task, start_thread);
}

PgsDamonOwn *
pgs_damon_own_start_finish (GAsyncResult  *result,
                            GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

guint
pgs_damon_own_get_index (PgsDamonOwn *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->index;
}

int
pgs_damon_own_get_pid (PgsDamonOwn *self)
{
  g_return_val_if_fail (self != NULL, -1);
  return self->pid;
}

gboolean
pgs_damon_own_stop (PgsDamonOwn  *self,
                    GError      **error)
{
  const char *what = _("Cannot remove Pagescope’s memory access monitor");
  char reply[PGS_HELPER_MAX_REPLY];

  g_return_val_if_fail (self != NULL, FALSE);

  if (self->stopped)
    return TRUE;
  self->stopped = TRUE;
  if (self->helper != NULL)
    {
      g_autoptr(GError) local = NULL;

      /* A helper that has gone took the monitor with it (its watchdog removed it). */
      if (!helper_exchange (self->helper, "UNMONITOR\n", what, reply, &local))
        return TRUE;
      if (strcmp (reply, "OK\n") == 0)
        return TRUE;
      set_reply_error (reply, what, error);
      return FALSE;
    }
  if (kdamond_release (self->watchdog, self->sock, reply, sizeof reply) == 0)
    return TRUE;
  set_reply_error (reply, what, error);
  return FALSE;
}

void
pgs_damon_own_free (PgsDamonOwn *self)
{
  if (self == NULL)
    return;
  pgs_damon_own_stop (self, NULL);
  g_clear_object (&self->helper);
  g_free (self);
}
