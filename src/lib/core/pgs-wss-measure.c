/* pgs-wss-measure.c: pgs_wss_measure and its async form: clear, wait out the interval (in
 * this thread, or on the caller's main context), collect
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <string.h>

#include <glib-unix.h>

#include "pgs-error.h"
#include "pgs-procfs.h"
#include "pgs-wss-private.h"

/* Waits until @deadline (monotonic), waking for a cancellation or the process's exit. */
static gboolean
wait_until (PgsWss        *self,
            gint64         deadline,
            GCancellable  *cancellable,
            GError       **error)
{
  GPollFD fds[2];
  guint n_fds = 0;
  gboolean have_cancel_fd = FALSE;
  gboolean ok = FALSE;

  memset (fds, 0, sizeof fds);
  if (cancellable != NULL && g_cancellable_make_pollfd (cancellable, &fds[n_fds]))
    {
      have_cancel_fd = TRUE;
      n_fds++;
    }
  if (self->pidfd >= 0)
    {
      fds[n_fds].fd = self->pidfd;
      fds[n_fds].events = G_IO_IN;
      n_fds++;
    }

  for (;;)
    {
      gint64 now = g_get_monotonic_time ();
      int ret;

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        break;
      if (self->pidfd >= 0 && (fds[n_fds - 1].revents & (G_IO_IN | G_IO_HUP | G_IO_ERR)))
        {
          pgs_wss_set_gone_error (self, error, "during the interval");
          break;
        }
      if (now >= deadline)
        {
          ok = TRUE;
          break;
        }
      for (guint i = 0; i < n_fds; i++)
        fds[i].revents = 0;
      ret = g_poll (fds, n_fds, (int) MIN ((deadline - now + 999) / 1000, (gint64) G_MAXINT));
      if (ret < 0 && errno != EINTR)
        {
          pgs_set_error_from_errno (error, errno, "waiting for the interval");
          break;
        }
    }

  if (have_cancel_fd)
    g_cancellable_release_fd (cancellable);
  return ok;
}

PgsWssSample *
pgs_wss_measure (PgsWss        *self,
                 guint          interval_ms,
                 GCancellable  *cancellable,
                 GError       **error)
{
  PgsWssSample *sample = NULL;

  g_return_val_if_fail (PGS_IS_WSS (self), NULL);
  g_return_val_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);
  g_return_val_if_fail (!self->busy, NULL);

  self->busy = TRUE;
  if (pgs_wss_clear (self, error) &&
      wait_until (self, self->cleared_at + (gint64) interval_ms * 1000, cancellable, error))
    sample = pgs_wss_collect (self, error);
  self->busy = FALSE;
  return sample;
}

/* The async measurement: clear in a worker thread, wait on the caller's main context (a
 * timeout, the cancellable and the pidfd as sources, no thread held for the interval),
 * collect in a worker thread. */
typedef struct
{
  guint    interval_ms;
  GSource *timeout;
  GSource *cancelled;
  GSource *exited;
} MeasureData;

static void
destroy_sources (MeasureData *data)
{
  if (data->timeout != NULL)
    g_source_destroy (data->timeout);
  if (data->cancelled != NULL)
    g_source_destroy (data->cancelled);
  if (data->exited != NULL)
    g_source_destroy (data->exited);
  g_clear_pointer (&data->timeout, g_source_unref);
  g_clear_pointer (&data->cancelled, g_source_unref);
  g_clear_pointer (&data->exited, g_source_unref);
}

static void
measure_data_free (MeasureData *data)
{
  destroy_sources (data);
  g_free (data);
}

static void
measure_return_error (GTask  *task,
                      GError *error)
{
  PgsWss *self = g_task_get_source_object (task);

  destroy_sources (g_task_get_task_data (task));
  self->busy = FALSE;
  g_task_return_error (task, error);
}

static void
clear_thread (GTask        *task,
              gpointer      source_object,
              gpointer      task_data,
              GCancellable *cancellable)
{
  GError *error = NULL;

  if (pgs_wss_clear (source_object, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

static void
collect_thread (GTask        *task,
                gpointer      source_object,
                gpointer      task_data,
                GCancellable *cancellable)
{
  GError *error = NULL;
  PgsWssSample *sample = pgs_wss_collect (source_object, &error);

  if (sample == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, sample, (GDestroyNotify) pgs_wss_sample_unref);
}

static void
on_collected (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  PgsWss *self = PGS_WSS (source);
  GError *error = NULL;
  PgsWssSample *sample;

  sample = g_task_propagate_pointer (G_TASK (result), &error);
  if (sample == NULL)
    {
      measure_return_error (task, error);
      return;
    }
  self->busy = FALSE;
  g_task_return_pointer (task, sample, (GDestroyNotify) pgs_wss_sample_unref);
}

static gboolean
on_interval_over (gpointer user_data)
{
  GTask *task = user_data;
  GTask *step;

  destroy_sources (g_task_get_task_data (task));
  step = g_task_new (g_task_get_source_object (task), g_task_get_cancellable (task),
                     on_collected, g_object_ref (task));
  g_task_set_source_tag (step, collect_thread);
  g_task_run_in_thread (step, collect_thread);
  g_object_unref (step);
  return G_SOURCE_REMOVE;
}

static gboolean
on_cancelled (GCancellable *cancellable,
              gpointer      user_data)
{
  GTask *task = user_data;
  GError *error = NULL;

  g_cancellable_set_error_if_cancelled (cancellable, &error);
  measure_return_error (task, error);
  return G_SOURCE_REMOVE;
}

static gboolean
on_exited (int          fd,
           GIOCondition condition,
           gpointer     user_data)
{
  GTask *task = user_data;
  GError *error = NULL;

  pgs_wss_set_gone_error (g_task_get_source_object (task), &error, "during the interval");
  measure_return_error (task, error);
  return G_SOURCE_REMOVE;
}

static GSource *
attach (GSource     *source,
        GSourceFunc  func,
        GTask       *task)
{
  g_source_set_callback (source, func, g_object_ref (task), g_object_unref);
  g_source_set_static_name (source, "[pagescope] working-set interval");
  g_source_attach (source, g_task_get_context (task));
  return source;
}

static void
on_cleared (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  PgsWss *self = PGS_WSS (source);
  MeasureData *data = g_task_get_task_data (task);
  GCancellable *cancellable = g_task_get_cancellable (task);
  GError *error = NULL;
  gint64 remaining;

  if (!g_task_propagate_boolean (G_TASK (result), &error))
    {
      measure_return_error (task, error);
      return;
    }

  remaining = self->cleared_at + (gint64) data->interval_ms * 1000 - g_get_monotonic_time ();
  data->timeout = attach (g_timeout_source_new (remaining > 0 ? (guint) ((remaining + 999) / 1000) : 0),
                          on_interval_over, task);
  if (cancellable != NULL)
    data->cancelled = attach (g_cancellable_source_new (cancellable), G_SOURCE_FUNC (on_cancelled), task);
  if (self->pidfd >= 0)
    data->exited = attach (g_unix_fd_source_new (self->pidfd, G_IO_IN), G_SOURCE_FUNC (on_exited), task);
}

void
pgs_wss_measure_async (PgsWss              *self,
                       guint                interval_ms,
                       GCancellable        *cancellable,
                       GAsyncReadyCallback  callback,
                       gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GTask) step = NULL;
  MeasureData *data;

  g_return_if_fail (PGS_IS_WSS (self));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));
  g_return_if_fail (!self->busy);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, pgs_wss_measure_async);
  data = g_new0 (MeasureData, 1);
  data->interval_ms = interval_ms;
  g_task_set_task_data (task, data, (GDestroyNotify) measure_data_free);

  self->busy = TRUE;
  step = g_task_new (self, cancellable, on_cleared, g_object_ref (task));
  g_task_set_source_tag (step, clear_thread);
  g_task_run_in_thread (step, clear_thread);
}

PgsWssSample *
pgs_wss_measure_finish (PgsWss        *self,
                        GAsyncResult  *result,
                        GError       **error)
{
  g_return_val_if_fail (PGS_IS_WSS (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == pgs_wss_measure_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
