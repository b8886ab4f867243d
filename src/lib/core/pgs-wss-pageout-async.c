/* pgs-wss-pageout-async.c: pgs_pageout_measure_async: page out in a thread, wait on the
 * main loop, read back in a thread
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The wait is a main-loop timeout: a cancel ends it at once, and so does the exit of every
 * process measured (their pidfds become readable), after which the read-back says so.
 */

#include "config.h"

#include <glib-unix.h>

#include "pgs-wss-pageout-private.h"

/* The async measurement: page out in a thread, wait on the main loop, read back in a
 * thread. */
typedef struct
{
  guint    interval_ms;
  guint    timeout;
  GSource *cancel_source;
  int      step;
  GArray  *exit_watches;   /* guint: a source per pidfd, to end the wait when all exit */
} MeasureData;

static void
remove_exit_watches (MeasureData *data)
{
  for (guint i = 0; data->exit_watches != NULL && i < data->exit_watches->len; i++)
    g_source_remove (g_array_index (data->exit_watches, guint, i));
  g_clear_pointer (&data->exit_watches, g_array_unref);
}

static void
measure_data_free (MeasureData *data)
{
  remove_exit_watches (data);
  g_clear_handle_id (&data->timeout, g_source_remove);
  if (data->cancel_source != NULL)
    {
      g_source_destroy (data->cancel_source);
      g_source_unref (data->cancel_source);
    }
  g_free (data);
}

static void
pageout_thread (GTask        *task,
                gpointer      source,
                gpointer      task_data,
                GCancellable *cancellable)
{
  PgsPageout *self = source;
  MeasureData *data = task_data;
  GError *error = NULL;

  if (data->step == 0)
    {
      if (!pgs_pageout_page_out (self, cancellable, &error))
        g_task_return_error (task, error);
      else
        g_task_return_pointer (task, NULL, NULL);
    }
  else
    {
      GPtrArray *results = pgs_pageout_collect (self, (gint64) data->interval_ms * 1000, &error);

      if (results == NULL)
        g_task_return_error (task, error);
      else
        g_task_return_pointer (task, results, (GDestroyNotify) g_ptr_array_unref);
    }
}

static void collect_done (GObject *source, GAsyncResult *res, gpointer user_data);

static gboolean
interval_over (gpointer user_data)
{
  GTask *task = user_data;
  MeasureData *data = g_task_get_task_data (task);
  GTask *inner;

  data->timeout = 0;
  remove_exit_watches (data);
  if (data->cancel_source != NULL)
    {
      g_source_destroy (data->cancel_source);
      g_clear_pointer (&data->cancel_source, g_source_unref);
    }
  inner = g_task_new (g_task_get_source_object (task), NULL, collect_done, task);
  {
    MeasureData *step = g_new0 (MeasureData, 1);

    step->step = 1;
    step->interval_ms = data->interval_ms;
    g_task_set_task_data (inner, step, g_free);
  }
  g_task_run_in_thread (inner, pageout_thread);
  g_object_unref (inner);
  return G_SOURCE_REMOVE;
}

static gboolean
wait_cancelled (GCancellable *cancellable,
                gpointer      user_data)
{
  GTask *task = user_data;
  MeasureData *data = g_task_get_task_data (task);

  g_clear_handle_id (&data->timeout, g_source_remove);
  g_clear_pointer (&data->cancel_source, g_source_unref);
  remove_exit_watches (data);
  PGS_PAGEOUT (g_task_get_source_object (task))->busy = FALSE;
  g_task_return_error_if_cancelled (task);
  g_object_unref (task);
  return G_SOURCE_REMOVE;
}

static void
collect_done (GObject      *source,
              GAsyncResult *res,
              gpointer      user_data)
{
  GTask *task = user_data;
  GError *error = NULL;
  GPtrArray *results = g_task_propagate_pointer (G_TASK (res), &error);

  PGS_PAGEOUT (source)->busy = FALSE;
  if (results == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, results, (GDestroyNotify) g_ptr_array_unref);
  g_object_unref (task);
}

/* Every process measured has exited: the read-back need not wait for the interval. */
static gboolean
process_exited (int          fd,
                GIOCondition condition,
                gpointer     user_data)
{
  GTask *task = user_data;
  MeasureData *data = g_task_get_task_data (task);
  PgsPageout *self = g_task_get_source_object (task);

  for (guint i = 0; i < self->procs->len; i++)
    {
      PoProc *proc = &g_array_index (self->procs, PoProc, i);

      if (!proc->gone && !_pgs_pageout_has_exited (proc))
        return G_SOURCE_CONTINUE;
    }
  /* This source is removed by interval_over with the others. */
  for (guint i = 0; i < data->exit_watches->len; i++)
    if (g_array_index (data->exit_watches, guint, i) == g_source_get_id (g_main_current_source ()))
      g_array_remove_index_fast (data->exit_watches, i);
  g_clear_handle_id (&data->timeout, g_source_remove);
  interval_over (task);
  return G_SOURCE_REMOVE;
}

static void
pageout_done (GObject      *source,
              GAsyncResult *res,
              gpointer      user_data)
{
  GTask *task = user_data;
  MeasureData *data = g_task_get_task_data (task);
  GCancellable *cancellable = g_task_get_cancellable (task);
  GError *error = NULL;

  g_task_propagate_pointer (G_TASK (res), &error);
  if (error != NULL)
    {
      PGS_PAGEOUT (source)->busy = FALSE;
      g_task_return_error (task, error);
      g_object_unref (task);
      return;
    }
  /* The interval starts now that the page-out is over. */
  data->timeout = g_timeout_add (data->interval_ms, interval_over, task);
  data->exit_watches = g_array_new (FALSE, FALSE, sizeof (guint));
  for (guint i = 0; i < PGS_PAGEOUT (source)->procs->len; i++)
    {
      PoProc *proc = &g_array_index (PGS_PAGEOUT (source)->procs, PoProc, i);
      guint id;

      if (proc->gone || proc->pidfd < 0)
        continue;
      id = g_unix_fd_add (proc->pidfd, G_IO_IN, process_exited, task);
      g_array_append_val (data->exit_watches, id);
    }
  if (cancellable != NULL)
    {
      data->cancel_source = g_cancellable_source_new (cancellable);
      g_source_set_callback (data->cancel_source, G_SOURCE_FUNC (wait_cancelled), task, NULL);
      g_source_attach (data->cancel_source, g_main_context_get_thread_default ());
    }
}

void
pgs_pageout_measure_async (PgsPageout          *self,
                           guint                interval_ms,
                           GCancellable        *cancellable,
                           GAsyncReadyCallback  callback,
                           gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  GTask *inner;
  MeasureData *data = g_new0 (MeasureData, 1);

  g_return_if_fail (PGS_IS_PAGEOUT (self));
  g_return_if_fail (!self->busy);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, pgs_pageout_measure_async);
  data->interval_ms = interval_ms;
  g_task_set_task_data (task, data, (GDestroyNotify) measure_data_free);
  self->busy = TRUE;

  inner = g_task_new (self, cancellable, pageout_done, g_steal_pointer (&task));
  g_task_set_task_data (inner, g_new0 (MeasureData, 1), g_free);
  g_task_run_in_thread (inner, pageout_thread);
  g_object_unref (inner);
}

GPtrArray *
pgs_pageout_measure_finish (PgsPageout    *self,
                            GAsyncResult  *result,
                            GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}
