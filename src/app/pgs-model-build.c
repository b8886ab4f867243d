/* pgs-model-build.c
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every table's model comes this one way: a GTask in a worker thread makes the items from
 * the immutable snapshot, and the view only splices them in. Progress crosses to the main
 * thread under a mutex, through one idle callback at a time however often the worker
 * reports it.
 */

#include "config.h"

#include "pgs-model-build.h"

struct _PgsModelBuild
{
  GTask                *task;     /* not a reference: the worker holds the task */
  PgsModelBuildFunc     func;
  gpointer              data;
  GDestroyNotify        data_free;
  PgsModelProgressFunc  progress;
  GMutex                mutex;
  double                fraction;  /* under @mutex */
  GSource              *idle;      /* under @mutex: the progress idle pending, or NULL */
};

static void
model_build_free (PgsModelBuild *build)
{
  if (build->idle != NULL)
    g_source_destroy (build->idle);
  g_clear_pointer (&build->idle, g_source_unref);
  if (build->data_free != NULL)
    build->data_free (build->data);
  g_mutex_clear (&build->mutex);
  g_free (build);
}

static void
build_in_thread (GTask        *task,
                 gpointer      source_object,
                 gpointer      task_data,
                 GCancellable *cancellable)
{
  PgsModelBuild *build = task_data;
  GListModel *model = build->func (build, build->data);

  if (model == NULL || g_task_return_error_if_cancelled (task))
    {
      g_clear_object (&model);
      if (!g_task_had_error (task))
        g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED, "Cancelled");
      return;
    }
  g_task_return_pointer (task, model, g_object_unref);
}

void
pgs_model_build_async (gpointer              source_object,
                       PgsModelBuildFunc     func,
                       gpointer              data,
                       GDestroyNotify        data_free,
                       PgsModelProgressFunc  progress,
                       GCancellable         *cancellable,
                       GAsyncReadyCallback   callback,
                       gpointer              user_data)
{
  g_autoptr(GTask) task = NULL;
  PgsModelBuild *build;

  g_return_if_fail (G_IS_OBJECT (source_object));
  g_return_if_fail (func != NULL);

  build = g_new0 (PgsModelBuild, 1);
  build->func = func;
  build->data = data;
  build->data_free = data_free;
  build->progress = progress;
  g_mutex_init (&build->mutex);
  task = g_task_new (source_object, cancellable, callback, user_data);
  build->task = task;
  g_task_set_source_tag (task, pgs_model_build_async);
  g_task_set_task_data (task, build, (GDestroyNotify) model_build_free);
  g_task_run_in_thread (task, build_in_thread);
}

GListModel *
pgs_model_build_finish (GAsyncResult  *result,
                        GError       **error)
{
  g_return_val_if_fail (G_IS_TASK (result), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == pgs_model_build_async, NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

gpointer
pgs_model_build_get_data (GAsyncResult *result)
{
  PgsModelBuild *build = g_task_get_task_data (G_TASK (result));

  return build->data;
}

static gboolean
report_progress (gpointer user_data)
{
  PgsModelBuild *build = user_data;
  double fraction;

  g_mutex_lock (&build->mutex);
  fraction = build->fraction;
  g_clear_pointer (&build->idle, g_source_unref);
  g_mutex_unlock (&build->mutex);
  if (!g_cancellable_is_cancelled (g_task_get_cancellable (build->task)))
    build->progress (g_task_get_source_object (build->task), fraction);
  return G_SOURCE_REMOVE;
}

gboolean
pgs_model_build_progress (PgsModelBuild *build,
                          guint          done,
                          guint          total)
{
  g_assert (build != NULL);

  if (g_cancellable_is_cancelled (g_task_get_cancellable (build->task)))
    return FALSE;
  if (build->progress == NULL || total == 0)
    return TRUE;
  g_mutex_lock (&build->mutex);
  build->fraction = (double) done / total;
  /* One idle pending at a time: a worker that reports every item costs the main loop one
   * callback per iteration, never a queue of them. */
  if (build->idle == NULL)
    {
      build->idle = g_idle_source_new ();
      g_source_set_callback (build->idle, report_progress, build, NULL);
      g_source_set_static_name (build->idle, "[pagescope] model progress");
      g_source_attach (build->idle, g_task_get_context (build->task));
    }
  g_mutex_unlock (&build->mutex);
  return TRUE;
}

/* Rows per main-loop iteration: about 5 ms of making a 7-column table's row widgets. */
#define FILL_CHUNK 8

typedef struct
{
  GListModel *items;
  guint       position;  /* the next item of @items to add */
} Fill;

static void
fill_free (Fill *fill)
{
  g_object_unref (fill->items);
  g_free (fill);
}

static gboolean
fill_some (gpointer user_data)
{
  GTask *task = user_data;
  Fill *fill = g_task_get_task_data (task);
  GListStore *store = g_task_get_source_object (task);
  guint n = g_list_model_get_n_items (fill->items);
  guint end = MIN (n, fill->position + FILL_CHUNK);
  g_autoptr(GPtrArray) chunk = NULL;
  /* The first chunk takes the old items' place; the others go after it. */
  guint removed = fill->position == 0 ? g_list_model_get_n_items (G_LIST_MODEL (store)) : 0;

  if (g_task_return_error_if_cancelled (task))
    return G_SOURCE_REMOVE;
  chunk = g_ptr_array_new_full (end - fill->position, g_object_unref);
  for (guint i = fill->position; i < end; i++)
    g_ptr_array_add (chunk, g_list_model_get_item (fill->items, i));
  g_list_store_splice (store, fill->position, removed, chunk->pdata, chunk->len);
  fill->position = end;
  if (end < n)
    return G_SOURCE_CONTINUE;
  g_task_return_boolean (task, TRUE);
  return G_SOURCE_REMOVE;
}

void
pgs_model_fill_async (GListStore          *store,
                      GListModel          *items,
                      GCancellable        *cancellable,
                      GAsyncReadyCallback  callback,
                      gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GSource) source = NULL;
  Fill *fill;

  g_return_if_fail (G_IS_LIST_STORE (store));
  g_return_if_fail (G_IS_LIST_MODEL (items));

  fill = g_new0 (Fill, 1);
  fill->items = g_object_ref (items);
  task = g_task_new (store, cancellable, callback, user_data);
  g_task_set_source_tag (task, pgs_model_fill_async);
  g_task_set_task_data (task, fill, (GDestroyNotify) fill_free);
  /* The first chunk now: the table never shows the old items after this call. The rest
   * after the frame a chunk's rows are drawn in. */
  if (!fill_some (task))
    return;
  g_task_set_priority (task, G_PRIORITY_DEFAULT_IDLE);
  source = g_idle_source_new ();
  g_task_attach_source (task, source, fill_some);
}

gboolean
pgs_model_fill_finish (GAsyncResult  *result,
                       GError       **error)
{
  g_return_val_if_fail (G_IS_TASK (result), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == pgs_model_fill_async, FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}
