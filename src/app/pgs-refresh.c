/* pgs-refresh.c: what a refresh of the window scans, by what is visible
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A refresh pays for what is on screen. The process list needs every process's totals, and
 * the kernel keeps them exactly in smaps_rollup (PGS_SCAN_KERNEL_TOTALS, what `pagescope-cli
 * memrank` reads): no maps, no page walk, no frame counts. Only the selected process has
 * its mappings and pages read, by a second scan of that PID alone, for the detail pane and
 * the map pages. The physical map (every frame's count and flags) is read only while
 * Sharing or Page Flags is shown; Libraries needs every process's mappings and Groups every
 * process's pages (a group's private figure), each only while it is shown. Switching to a
 * page that needs more than the last scan read scans again at once.
 *
 * Who maps a frame needs every process's pages too: that scan runs when asked, in
 * pgs-frame-users.c, not every refresh.
 */

#include "config.h"

#include <unistd.h>

#include <glib/gi18n.h>

#include "pgs-refresh.h"
#include "pgs-window-private.h"

struct _PgsRefresh
{
  PgsWindow    *window;              /* owns us */
  PgsScanFlags  started_flags;       /* of the scan of every process under way */
  PgsScanFlags  list_flags;          /* of the live snapshot shown */
  guint         generation;          /* counts the snapshots shown */

  GCancellable *detail_cancellable;  /* the selected process's scan, while it runs */
  int           detail_pid;          /* whom it scans or scanned */
  guint         detail_generation;   /* the list snapshot it followed */
  PgsSnapshot  *detail;              /* its result: that process with mappings and pages */
  PgsProcess   *given;               /* handed to the detail pane and the map pages */
};

PgsRefresh *
pgs_refresh_new (PgsWindow *window)
{
  PgsRefresh *self = g_new0 (PgsRefresh, 1);

  self->window = window;
  return self;
}

void
pgs_refresh_cancel (PgsRefresh *self)
{
  if (self->detail_cancellable != NULL)
    g_cancellable_cancel (self->detail_cancellable);
  g_clear_object (&self->detail_cancellable);
}

void
pgs_refresh_free (PgsRefresh *self)
{
  if (self == NULL)
    return;
  pgs_refresh_cancel (self);
  g_clear_object (&self->detail);
  g_clear_object (&self->given);
  g_free (self);
}

gboolean
pgs_refresh_is_busy (PgsRefresh *self)
{
  return self->detail_cancellable != NULL;
}

static gboolean
physmap_readable (PgsWindow *window)
{
  /* kpagecount and kpageflags are root's alone; asking for them otherwise only fails. */
  return geteuid () == 0 || (window->helper != NULL && pgs_helper_is_running (window->helper));
}

static const char *
visible_view (PgsRefresh *self)
{
  return pgs_window_get_view (self->window);
}

static gboolean
shows_physical (const char *view)
{
  return g_str_equal (view, "sharing") || g_str_equal (view, "flags");
}

/* Whether the page shows the selected process (its mappings, pages or frames). */
static gboolean
shows_process (const char *view)
{
  return !g_str_equal (view, "groups") && !g_str_equal (view, "libraries");
}

PgsScanFlags
pgs_refresh_list_flags (PgsRefresh *self)
{
  const char *view = visible_view (self);
  PgsScanFlags flags;

  if (g_str_equal (view, "groups"))
    flags = PGS_SCAN_MAPPINGS | PGS_SCAN_PAGES;   /* the private figure, the cgroups */
  else if (g_str_equal (view, "libraries"))
    flags = PGS_SCAN_MAPPINGS;
  else
    flags = PGS_SCAN_KERNEL_TOTALS;
  if (shows_physical (view) && physmap_readable (self->window))
    flags |= PGS_SCAN_PHYSMAP;
  /* A file chosen in Libraries: the maps highlight its frames, which are every process's
   * pages of it (pgs_librank_file_frames()). */
  if (shows_physical (view) && self->window->library_view != NULL &&
      pgs_library_view_get_selected_path (self->window->library_view) != NULL)
    flags |= PGS_SCAN_MAPPINGS | PGS_SCAN_PAGES;
  return flags;
}

/* Whether a scan with @have read all a scan with @want would. */
static gboolean
covers (PgsScanFlags have,
        PgsScanFlags want)
{
  /* Pages and mappings are read to make the totals; the rollup's totals are the same. */
  if (have & (PGS_SCAN_MAPPINGS | PGS_SCAN_PAGES))
    have |= PGS_SCAN_KERNEL_TOTALS;
  if (have & PGS_SCAN_PAGES)
    have |= PGS_SCAN_MAPPINGS;
  return (want & ~have) == 0;
}

void
pgs_refresh_list_started (PgsRefresh   *self,
                          PgsScanFlags  flags)
{
  self->started_flags = flags;
}

static gboolean
shows_file (PgsRefresh *self)
{
  return self->window->snapshot != NULL && pgs_snapshot_get_file (self->window->snapshot) != NULL;
}

static void
give (PgsRefresh *self,
      PgsProcess *process)
{
  PgsWindow *window = self->window;

  g_set_object (&self->given, process);
  pgs_map_page_set_unreadable (window->residency_page, NULL);
  pgs_process_detail_set_process (window->process_detail, process);
  pgs_map_page_set_process (window->residency_page, process);
  pgs_map_page_set_process (window->sharing_page, process);
  pgs_map_page_set_process (window->flags_page, process);
  pgs_window_update_actions (window);
}

static void start_detail (PgsRefresh *self,
                          int         pid);

/* Why the scan of @pid alone has no such process: its skipped entry's reason. */
static const char *
detail_failure (PgsRefresh *self,
                int         pid)
{
  if (self->detail != NULL)
    for (guint i = 0; i < pgs_snapshot_get_n_skipped (self->detail); i++)
      {
        const PgsSkipped *skipped = pgs_snapshot_get_skipped (self->detail, i);

        if (skipped->pid == pid && skipped->error != NULL)
          return skipped->error->message;
      }
  return _("The process has exited, or its memory could not be read.");
}

static void
detail_done (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(PgsWindow) window = user_data;
  g_autoptr(PgsSnapshot) snapshot = NULL;
  g_autoptr(GError) error = NULL;
  PgsRefresh *self = window->refresh;
  GCancellable *cancellable = g_task_get_cancellable (G_TASK (result));

  snapshot = pgs_scanner_scan_finish (PGS_SCANNER (object), result, &error);
  /* Superseded (another process, another refresh) or the window is closing. */
  if (self == NULL || cancellable != self->detail_cancellable ||
      g_cancellable_is_cancelled (cancellable))
    return;
  g_clear_object (&self->detail_cancellable);

  if (snapshot == NULL)
    g_debug ("The selected process could not be scanned: %s", error->message);
  g_set_object (&self->detail, snapshot);
  pgs_refresh_selection_changed (self);
  g_object_notify (G_OBJECT (window), "busy");
}

static void
start_detail (PgsRefresh *self,
              int         pid)
{
  PgsWindow *window = self->window;
  g_autoptr(PgsScanner) scanner = pgs_scanner_new ();
  gboolean was_busy = pgs_refresh_is_busy (self);

  pgs_refresh_cancel (self);
  g_clear_object (&self->detail);
  self->detail_pid = pid;
  self->detail_generation = self->generation;

  pgs_scanner_set_flags (scanner, PGS_SCAN_MAPPINGS | PGS_SCAN_PAGES);
  pgs_scanner_set_pids (scanner, &pid, 1);
  if (window->helper != NULL && pgs_helper_is_running (window->helper))
    pgs_scanner_set_helper (scanner, window->helper);
  self->detail_cancellable = g_cancellable_new ();
  pgs_scanner_scan_async (scanner, self->detail_cancellable, detail_done, g_object_ref (window));
  if (!was_busy)
    g_object_notify (G_OBJECT (window), "busy");
}

void
pgs_refresh_selection_changed (PgsRefresh *self)
{
  PgsWindow *window = self->window;
  PgsProcess *selected = pgs_process_list_get_selected_process (window->process_list);
  PgsProcess *scanned;
  int pid;

  if (selected == NULL)
    {
      pgs_refresh_cancel (self);
      g_clear_object (&self->detail);
      give (self, NULL);
      return;
    }

  /* The list's own process is all there is: a file's, or a scan that read every page. */
  if (shows_file (self) || (self->list_flags & PGS_SCAN_PAGES) ||
      !shows_process (visible_view (self)))
    {
      pgs_refresh_cancel (self);
      give (self, selected);
      return;
    }

  pid = pgs_process_get_pid (selected);
  if (self->detail_pid == pid && self->detail_generation == self->generation)
    {
      if (self->detail_cancellable != NULL)
        return;   /* on its way */
      scanned = self->detail != NULL ? pgs_snapshot_lookup_pid (self->detail, pid) : NULL;
      /* Gone between the two scans, or unreadable: the list's figures at least, and the
       * Pages view says why it has none (not "Reading…" for ever). */
      give (self, scanned != NULL ? scanned : selected);
      if (scanned == NULL)
        pgs_map_page_set_unreadable (window->residency_page, detail_failure (self, pid));
      return;
    }

  /* Until its pages come (milliseconds for most processes): the last scan of the same
   * process stays, so a refresh does not blank the maps; another process shows its totals. */
  if (self->given == NULL || pgs_process_get_pid (self->given) != pid)
    give (self, selected);
  start_detail (self, pid);
}

void
pgs_refresh_list_shown (PgsRefresh *self)
{
  self->generation++;
  if (!shows_file (self))
    {
      self->list_flags = self->started_flags;
      /* The page shown changed while the scan ran (the first scan starts before --view
       * or the remembered view is applied): it needs more than was read, at once. */
      if (!covers (self->list_flags, pgs_refresh_list_flags (self)))
        self->window->rescan = TRUE;
    }
  pgs_refresh_selection_changed (self);
}

void
pgs_refresh_view_changed (PgsRefresh *self)
{
  PgsWindow *window = self->window;

  if (window->snapshot != NULL && !shows_file (self) &&
      !covers (self->list_flags, pgs_refresh_list_flags (self)))
    pgs_window_refresh (window);
  pgs_refresh_selection_changed (self);
}

/* Everything, for a file */

static void
complete_scanned (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  GError *error = NULL;
  PgsSnapshot *snapshot = pgs_scanner_scan_finish (PGS_SCANNER (object), result, &error);

  if (snapshot == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, snapshot, g_object_unref);
}

void
pgs_refresh_complete_async (PgsRefresh          *self,
                            GCancellable        *cancellable,
                            GAsyncReadyCallback  callback,
                            gpointer             user_data)
{
  PgsWindow *window = self->window;
  PgsScanFlags flags = PGS_SCAN_MAPPINGS | PGS_SCAN_PAGES;
  g_autoptr(PgsScanner) scanner = NULL;
  g_autoptr(GTask) task = g_task_new (NULL, cancellable, callback, user_data);

  g_task_set_source_tag (task, pgs_refresh_complete_async);
  if (physmap_readable (window))
    flags |= PGS_SCAN_PHYSMAP;
  if (window->snapshot != NULL && (shows_file (self) || covers (self->list_flags, flags)))
    {
      g_task_return_pointer (task, g_object_ref (window->snapshot), g_object_unref);
      return;
    }

  scanner = pgs_scanner_new ();
  pgs_scanner_set_flags (scanner, flags);
  if (window->helper != NULL && pgs_helper_is_running (window->helper))
    pgs_scanner_set_helper (scanner, window->helper);
  pgs_scanner_scan_async (scanner, cancellable, complete_scanned, g_steal_pointer (&task));
}

PgsSnapshot *
pgs_refresh_complete_finish (GAsyncResult  *result,
                             GError       **error)
{
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == pgs_refresh_complete_async, NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

/* Start-up figures */

static void
on_first_paint (GdkFrameClock *clock,
                gpointer       user_data)
{
  g_debug ("First frame painted at %" G_GINT64_FORMAT " µs (monotonic)", g_get_monotonic_time ());
  g_signal_handlers_disconnect_by_func (clock, on_first_paint, user_data);
}

static void
on_realize (GtkWidget *window)
{
  g_signal_connect (gtk_widget_get_frame_clock (window), "after-paint",
                    G_CALLBACK (on_first_paint), NULL);
  g_signal_handlers_disconnect_by_func (window, on_realize, NULL);
}

void
pgs_refresh_log_first_frame (GtkWidget *window)
{
  g_signal_connect (window, "realize", G_CALLBACK (on_realize), NULL);
}

void
pgs_refresh_log_first_figures (void)
{
  static gboolean logged;

  if (!logged)
    g_debug ("First figures shown at %" G_GINT64_FORMAT " µs (monotonic)", g_get_monotonic_time ());
  logged = TRUE;
}
