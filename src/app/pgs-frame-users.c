/* pgs-frame-users.c: who maps a frame, found when asked
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Answering needs the pages of every process, which a refresh of the process list no
 * longer reads (pgs-refresh.c): a click on a frame scans them then, in a worker thread,
 * with progress and a cancellable, and the reverse index is built over that scan in
 * another. The caller (pgs-frame-users-view.c) keeps the scan to name the processes and
 * drops it with the snapshot it was made for. The same for what a range of frames holds
 * (the Access view's regions, pgs-region-holdings.c).
 */

#include "config.h"

#include "pgs-background.h"
#include "pgs-frame-users.h"
#include "pgs-page.h"

typedef struct
{
  PgsSnapshot           *snapshot;   /* searched: the one given, or the scan */
  guint64                pfn;
  guint64                end_pfn;    /* a sum over [pfn, end_pfn) when above pfn */
  PgsFrameUsersProgress  progress;
  gpointer               progress_data;
  PgsScanner            *scanner;
  gulong                 progress_id;
} Find;

static void
find_free (Find *find)
{
  if (find->progress_id != 0)
    g_signal_handler_disconnect (find->scanner, find->progress_id);
  g_clear_object (&find->scanner);
  g_clear_object (&find->snapshot);
  g_free (find);
}

/* A file's snapshot, or a scan of pages, has them for every process it could read. */
static gboolean
has_pages (PgsSnapshot *snapshot)
{
  if (pgs_snapshot_get_file (snapshot) != NULL)
    return TRUE;
  for (guint i = 0; i < pgs_snapshot_get_n_processes (snapshot); i++)
    if (pgs_process_has_pages (pgs_snapshot_get_process (snapshot, i)))
      return TRUE;
  return FALSE;
}

/* The reverse index is built on first use over every page of the snapshot: a worker
 * thread pays for it, not the main loop. */
static void
index_thread (GTask        *task,
              gpointer      source_object,
              gpointer      task_data,
              GCancellable *cancellable)
{
  Find *find = task_data;

  pgs_background_lower_current_thread ();
  g_task_return_pointer (task, find->end_pfn > find->pfn
                               ? pgs_snapshot_sum_frame_range (find->snapshot, find->pfn, find->end_pfn)
                               : pgs_snapshot_find_frame_users (find->snapshot, find->pfn),
                         (GDestroyNotify) g_array_unref);
}

static void
on_progress (PgsScanner *scanner,
             double      fraction,
             GTask      *task)
{
  Find *find = g_task_get_task_data (task);

  if (!g_cancellable_is_cancelled (g_task_get_cancellable (task)) && find->progress != NULL)
    find->progress (fraction, find->progress_data);
}

static void
scan_done (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Find *find = g_task_get_task_data (task);
  GError *error = NULL;

  g_clear_signal_handler (&find->progress_id, find->scanner);
  find->snapshot = pgs_scanner_scan_finish (PGS_SCANNER (object), result, &error);
  if (find->snapshot == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  g_task_run_in_thread (task, index_thread);
}

static void
start (GtkWidget             *widget,
       PgsSnapshot           *snapshot,
       guint64                pfn,
       guint64                end_pfn,
       GCancellable          *cancellable,
       PgsFrameUsersProgress  progress,
       gpointer               progress_data,
       GAsyncReadyCallback    callback,
       gpointer               user_data)
{
  g_autoptr(GTask) task = NULL;
  GtkWidget *page;
  PgsHelper *helper;
  Find *find;

  task = g_task_new (widget, cancellable, callback, user_data);
  g_task_set_source_tag (task, start);
  g_task_set_return_on_cancel (task, TRUE);
  find = g_new0 (Find, 1);
  find->pfn = pfn;
  find->end_pfn = end_pfn;
  find->progress = progress;
  find->progress_data = progress_data;
  g_task_set_task_data (task, find, (GDestroyNotify) find_free);

  if (snapshot != NULL && has_pages (snapshot))
    {
      find->snapshot = g_object_ref (snapshot);
      g_task_run_in_thread (task, index_thread);
      return;
    }

  find->scanner = pgs_scanner_new ();
  pgs_scanner_set_flags (find->scanner, PGS_SCAN_PAGES);
  page = gtk_widget_get_ancestor (widget, PGS_TYPE_PAGE);
  helper = page != NULL ? pgs_session_get_helper (pgs_page_get_session (PGS_PAGE (page))) : NULL;
  if (helper != NULL && pgs_helper_is_running (helper))
    pgs_scanner_set_helper (find->scanner, helper);
  find->progress_id = g_signal_connect (find->scanner, "progress", G_CALLBACK (on_progress), task);
  pgs_scanner_scan_async (find->scanner, cancellable, scan_done, g_object_ref (task));
}

void
pgs_frame_users_find_async (GtkWidget             *widget,
                            PgsSnapshot           *snapshot,
                            guint64                pfn,
                            GCancellable          *cancellable,
                            PgsFrameUsersProgress  progress,
                            gpointer               progress_data,
                            GAsyncReadyCallback    callback,
                            gpointer               user_data)
{
  g_return_if_fail (GTK_IS_WIDGET (widget));
  g_return_if_fail (PGS_IS_SNAPSHOT (snapshot));
  start (widget, snapshot, pfn, 0, cancellable, progress, progress_data, callback, user_data);
}

void
pgs_frame_users_sum_async (GtkWidget             *widget,
                           PgsSnapshot           *snapshot,
                           guint64                first_pfn,
                           guint64                end_pfn,
                           GCancellable          *cancellable,
                           PgsFrameUsersProgress  progress,
                           gpointer               progress_data,
                           GAsyncReadyCallback    callback,
                           gpointer               user_data)
{
  g_return_if_fail (GTK_IS_WIDGET (widget));
  g_return_if_fail (snapshot == NULL || PGS_IS_SNAPSHOT (snapshot));
  g_return_if_fail (end_pfn > first_pfn);
  start (widget, snapshot, first_pfn, end_pfn, cancellable, progress, progress_data, callback, user_data);
}

GArray *
pgs_frame_users_find_finish (GAsyncResult  *result,
                             PgsSnapshot  **scanned,
                             GError       **error)
{
  GArray *users;

  g_return_val_if_fail (G_IS_TASK (result), NULL);

  users = g_task_propagate_pointer (G_TASK (result), error);
  if (users != NULL && scanned != NULL)
    {
      Find *find = g_task_get_task_data (G_TASK (result));

      *scanned = g_object_ref (find->snapshot);
    }
  return users;
}
