/* pgs-window.c
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The window owns the scanner and the current snapshot. A scan runs in a worker thread
 * (pgs_scanner_scan_async); the main loop only swaps the finished snapshot into the views,
 * which rebind a screenful of rows and start their map renders in threads of their own.
 * The automatic refresh is scheduled from the end of one scan to the start of the next,
 * so slow scans never pile up.
 *
 * The actions (export, refresh, find, zoom, measure the working set) are in
 * pgs-window-actions.c.
 */

#include "config.h"

#include <string.h>
#include <unistd.h>

#include <glib/gi18n.h>

#include "pgs-background.h"
#include "pgs-refresh.h"
#include "pgs-release.h"
#include "pgs-window-private.h"
#include "pgs-wss-dialog.h"

#define PROGRESS_DELAY_MS 300
#define TOAST_SECONDS       5

enum {
  PROP_0,
  PROP_VIEW,
  PROP_SNAPSHOT,
  PROP_BUSY,
  N_PROPS
};

enum {
  EXPORT_FINISHED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (PgsWindow, pgs_window, ADW_TYPE_APPLICATION_WINDOW)

PgsMapPage *
pgs_window_current_map_page (PgsWindow *self)
{
  GtkWidget *child = gtk_stack_get_visible_child (self->stack);

  return PGS_IS_MAP_PAGE (child) ? PGS_MAP_PAGE (child) : NULL;
}

void
pgs_window_emit_export_finished (PgsWindow *self,
                                 GFile     *file,
                                 GError    *error)
{
  g_signal_emit (self, signals[EXPORT_FINISHED], 0, file, error);
}

void
pgs_window_update_actions (PgsWindow *self)
{
  PgsMapPage *page = pgs_window_current_map_page (self);
  gboolean busy = self->scan_cancellable != NULL;
  /* Whether the page has a map yet changes as renders finish; exporting too early says so
   * in a toast rather than greying the item out for a moment. */
  gboolean have_map = page != NULL;
  PgsProcess *selected;
  const char *wss_reason;

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.refresh", !busy);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.cancel-refresh", busy);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.export-map", have_map);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.export-csv", self->snapshot != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.export",
                                 page != NULL ? have_map : self->snapshot != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.zoom-in", page != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.zoom-out", page != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.zoom-reset", page != NULL);
  selected = pgs_process_list_get_selected_process (self->process_list);
  wss_reason = selected != NULL ? pgs_window_wss_blocked_reason (self, selected) : NULL;
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.measure-wss",
                                 selected != NULL && wss_reason == NULL);
  pgs_process_detail_set_wss_blocked_reason (self->process_detail, wss_reason);
  pgs_process_list_set_wss_reason (self->process_list, wss_reason);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.save-snapshot", self->snapshot != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.compare", self->snapshot != NULL);
}

/* Messages */

void
pgs_window_show_banner (PgsWindow  *self,
                        const char *text)
{
  g_free (self->banner_text);
  self->banner_text = g_strdup (text);
  if (text != NULL)
    gtk_label_set_text (self->banner_label, text);
  gtk_revealer_set_reveal_child (self->banner_revealer, text != NULL);
}

static void
on_toast_dismissed (AdwToast  *toast,
                    PgsWindow *self)
{
  if (toast == self->toast)
    {
      g_clear_object (&self->toast);
      g_clear_pointer (&self->toast_text, g_free);
    }
}

AdwToast *
pgs_window_add_toast (PgsWindow  *self,
                      const char *text)
{
  /* A toast's title is Pango markup, and the text holds file names and error messages. */
  g_autofree char *markup = g_markup_escape_text (text, -1);
  AdwToast *toast = adw_toast_new (markup);

  g_free (self->toast_text);
  self->toast_text = g_strdup (text);
  g_set_object (&self->toast, toast);
  adw_toast_set_timeout (toast, TOAST_SECONDS);
  /* Queued behind the one on show (libadwaita's way), not in its place: dismissing a toast
   * still sliding in is what libadwaita 1.2 handles worst. */
  g_signal_connect_object (toast, "dismissed", G_CALLBACK (on_toast_dismissed), self, 0);
  adw_toast_overlay_add_toast (self->toast_overlay, toast);
  return toast;
}

void
pgs_window_show_toast (PgsWindow  *self,
                       const char *text)
{
  pgs_window_add_toast (self, text);
}

const char *
pgs_window_get_toast_text (PgsWindow *self)
{
  g_return_val_if_fail (PGS_IS_WINDOW (self), NULL);
  return self->toast_text;
}

AdwToast *
pgs_window_get_toast (PgsWindow *self)
{
  g_return_val_if_fail (PGS_IS_WINDOW (self), NULL);
  return self->toast;
}

/* Scanning */

void
pgs_window_show_snapshot (PgsWindow   *self,
                          PgsSnapshot *snapshot)
{
  if (!pgs_set_object_release (&self->snapshot, snapshot))
    return;

  pgs_process_list_set_snapshot (self->process_list, snapshot);
  if (self->pending_pid > 0 && pgs_process_list_select_pid (self->process_list, self->pending_pid))
    self->pending_pid = 0;

  pgs_process_detail_set_physmap (self->process_detail, pgs_snapshot_get_physmap (snapshot));
  pgs_map_page_set_snapshot (self->residency_page, snapshot);
  pgs_map_page_set_snapshot (self->sharing_page, snapshot);
  pgs_map_page_set_snapshot (self->flags_page, snapshot);
  /* The list carried the selection over by PID; the views follow it to the new object,
   * its pages scanned anew where a view shows them. */
  pgs_refresh_list_shown (self->refresh);

  pgs_window_update_lock (self);
  pgs_window_update_actions (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SNAPSHOT]);
}

static gboolean
reveal_progress (gpointer data)
{
  PgsWindow *self = data;

  self->progress_source = 0;
  gtk_revealer_set_reveal_child (self->progress_revealer, TRUE);
  return G_SOURCE_REMOVE;
}

static void
on_scan_progress (PgsWindow *self,
                  double     fraction)
{
  /* The scanner's worker is running by now: it yields to the window (pgs-background.c). */
  if (!self->lowered_workers)
    {
      pgs_background_lower_workers ();
      self->lowered_workers = TRUE;
    }
  gtk_progress_bar_set_fraction (self->progress_bar, fraction);
}

static void
scan_done (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(PgsWindow) self = user_data;
  g_autoptr(PgsSnapshot) snapshot = NULL;
  g_autoptr(GError) error = NULL;
  gboolean superseded;

  snapshot = pgs_scanner_scan_finish (PGS_SCANNER (object), result, &error);
  /* Cancelled for a snapshot file: even a scan that finished first must not replace it. */
  superseded = g_cancellable_is_cancelled (self->scan_cancellable) && self->snapshot != NULL &&
               pgs_snapshot_get_file (self->snapshot) != NULL;

  g_clear_object (&self->scan_cancellable);
  g_clear_handle_id (&self->progress_source, g_source_remove);
  gtk_revealer_set_reveal_child (self->progress_revealer, FALSE);

  if (gtk_widget_in_destruction (GTK_WIDGET (self)))
    return;

  if (superseded)
    ;
  else if (snapshot != NULL)
    {
      gint64 t0 = g_get_monotonic_time ();
      pgs_window_show_snapshot (self, snapshot);
      pgs_refresh_log_first_figures ();
      g_debug ("Swapped the new snapshot in: %.1f ms", (g_get_monotonic_time () - t0) / 1000.0);
    }
  else if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    pgs_window_show_toast (self, _("Scan cancelled: showing the previous one"));
  else
    {
      g_autofree char *text = g_strdup_printf (_("The scan failed: %s"), error->message);

      pgs_window_show_banner (self, text);
    }

  pgs_window_update_actions (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
  if (self->rescan)
    pgs_window_refresh (self);
  else
    pgs_window_schedule_refresh (self);
}

void
pgs_window_refresh (PgsWindow *self)
{
  PgsScanFlags flags;

  g_return_if_fail (PGS_IS_WINDOW (self));

  if (self->scan_cancellable != NULL)
    {
      /* Asked for while one runs (an unlock, a return to the live view): the next. */
      self->rescan = TRUE;
      return;
    }
  g_clear_handle_id (&self->refresh_source, g_source_remove);
  self->rescan = FALSE;
  /* A file being opened is not wanted any more: the live view is. */
  if (self->file_cancellable != NULL)
    g_cancellable_cancel (self->file_cancellable);

  /* What the visible page needs, no more (pgs-refresh.c). */
  flags = pgs_refresh_list_flags (self->refresh);
  pgs_refresh_list_started (self->refresh, flags);
  pgs_scanner_set_flags (self->scanner, flags);

  self->scan_cancellable = g_cancellable_new ();
  self->lowered_workers = FALSE;
  gtk_progress_bar_set_fraction (self->progress_bar, 0);
  /* Quick scans finish before the bar would show: no flicker every refresh interval. */
  self->progress_source = g_timeout_add (PROGRESS_DELAY_MS, reveal_progress, self);
  pgs_scanner_scan_async (self->scanner, self->scan_cancellable, scan_done, g_object_ref (self));

  pgs_window_update_actions (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
}

static gboolean
refresh_timeout (gpointer data)
{
  PgsWindow *self = data;

  self->refresh_source = 0;
  pgs_window_refresh (self);
  return G_SOURCE_REMOVE;
}

void
pgs_window_schedule_refresh (PgsWindow *self)
{
  guint interval = g_settings_get_uint (self->settings, "refresh-interval");

  g_clear_handle_id (&self->refresh_source, g_source_remove);
  /* A snapshot from a file stays until the user asks for the live view again. */
  if (self->snapshot != NULL && pgs_snapshot_get_file (self->snapshot) != NULL)
    return;
  if (interval > 0 && self->scan_cancellable == NULL)
    self->refresh_source = g_timeout_add_seconds (interval, refresh_timeout, self);
}

/* Settings */

static void
on_units_changed (PgsWindow *self)
{
  g_autofree char *nick = g_settings_get_string (self->settings, "units");
  PgsUnits units = pgs_units_from_string (nick);

  pgs_process_list_set_units (self->process_list, units);
  pgs_process_detail_set_units (self->process_detail, units);
  pgs_map_page_set_units (self->residency_page, units);
  pgs_map_page_set_units (self->sharing_page, units);
  pgs_map_page_set_units (self->flags_page, units);
}

static void
on_layout_changed (PgsWindow *self)
{
  g_autofree char *nick = g_settings_get_string (self->settings, "layout");
  PgsLayout layout = g_strcmp0 (nick, "hilbert") == 0 ? PGS_LAYOUT_HILBERT : PGS_LAYOUT_LINEAR;

  pgs_map_page_set_layout (self->residency_page, layout);
  pgs_map_page_set_layout (self->sharing_page, layout);
  pgs_map_page_set_layout (self->flags_page, layout);
  /* Hide free memory: only the physical maps have free frames to fold. */
  pgs_map_view_set_hide_free (pgs_map_page_get_map_view (self->sharing_page),
                              g_settings_get_boolean (self->settings, "hide-free"));
  pgs_map_view_set_hide_free (pgs_map_page_get_map_view (self->flags_page),
                              g_settings_get_boolean (self->settings, "hide-free"));
}

static void
on_highlight_changed (PgsWindow *self)
{
  g_autofree char *nick = g_settings_get_string (self->settings, "highlight");
  PgsHighlightMode mode = g_strcmp0 (nick, "overlay") == 0 ? PGS_HIGHLIGHT_OVERLAY
                                                          : PGS_HIGHLIGHT_OUTLINE;

  pgs_map_view_set_highlight_mode (pgs_map_page_get_map_view (self->sharing_page), mode);
  pgs_map_view_set_highlight_mode (pgs_map_page_get_map_view (self->flags_page), mode);
}

/* Selection */

static void
on_selected_process_changed (PgsWindow *self)
{
  PgsProcess *process = pgs_process_list_get_selected_process (self->process_list);

  if (self->refresh != NULL)   /* NULL while the window is disposed */
    pgs_refresh_selection_changed (self->refresh);
  /* Another process chosen: the maps highlight its frames, not the file's. */
  if (process != NULL && pgs_process_get_pid (process) != self->highlight_pid &&
      self->library_view != NULL && pgs_library_view_get_selected_path (self->library_view) != NULL)
    pgs_library_view_unselect (self->library_view);
}

/* A file chosen in the Libraries view: its frames are the maps' highlight until another
 * process is chosen. */
static void
on_library_highlight_changed (PgsWindow *self)
{
  PgsHighlight *highlight = pgs_library_view_get_highlight (self->library_view);
  PgsProcess *process = pgs_process_list_get_selected_process (self->process_list);

  self->highlight_pid = process ? pgs_process_get_pid (process) : 0;
  pgs_map_page_set_highlight (self->sharing_page, highlight);
  pgs_map_page_set_highlight (self->flags_page, highlight);
}

static void
on_process_activated (PgsWindow  *self,
                      PgsProcess *process)
{
  pgs_window_set_view (self, "residency");
}

static void
on_frame_user_activated (PgsWindow *self,
                         int        pid)
{
  if (!pgs_process_list_select_pid (self->process_list, pid))
    {
      /* The list may be filtered: clear the search so the process can be shown. */
      pgs_process_list_set_search_text (self->process_list, NULL);
      pgs_process_list_select_pid (self->process_list, pid);
    }
  pgs_window_set_view (self, "residency");
}

static void
on_banner_closed (PgsWindow *self)
{
  gtk_revealer_set_reveal_child (self->banner_revealer, FALSE);
}

static void
on_visible_child_changed (PgsWindow *self)
{
  /* Switched to a page that needs more than the last scan read: scan now. */
  if (self->refresh != NULL)
    pgs_refresh_view_changed (self->refresh);
  pgs_window_update_actions (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_VIEW]);
}

/* GObject */

static gboolean
pgs_window_close_request (GtkWindow *window)
{
  PgsWindow *self = PGS_WINDOW (window);
  int width, height;

  gtk_window_get_default_size (window, &width, &height);
  g_settings_delay (self->settings);
  g_settings_set_boolean (self->settings, "window-maximized", gtk_window_is_maximized (window));
  if (!gtk_window_is_maximized (window))
    {
      g_settings_set_int (self->settings, "window-width", width);
      g_settings_set_int (self->settings, "window-height", height);
    }
  g_settings_apply (self->settings);

  if (self->scan_cancellable != NULL)
    g_cancellable_cancel (self->scan_cancellable);
  pgs_refresh_cancel (self->refresh);

  return GTK_WINDOW_CLASS (pgs_window_parent_class)->close_request (window);
}

/* After construction: GtkWindow:application is not a construct property, so the settings
 * (which the application owns) are only reachable once it is set. */
static void
pgs_window_setup (PgsWindow      *self,
                  PgsApplication *app)
{
  self->settings = g_object_ref (pgs_application_get_settings (app));

  gtk_window_set_default_size (GTK_WINDOW (self),
                               g_settings_get_int (self->settings, "window-width"),
                               g_settings_get_int (self->settings, "window-height"));
  if (g_settings_get_boolean (self->settings, "window-maximized"))
    gtk_window_maximize (GTK_WINDOW (self));

  g_settings_bind (self->settings, "last-view", self->stack, "visible-child-name",
                   G_SETTINGS_BIND_DEFAULT);
  g_signal_connect_object (self->settings, "changed::units", G_CALLBACK (on_units_changed),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->settings, "changed::layout", G_CALLBACK (on_layout_changed),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->settings, "changed::hide-free", G_CALLBACK (on_layout_changed),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->settings, "changed::refresh-interval",
                           G_CALLBACK (pgs_window_schedule_refresh), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->settings, "changed::highlight",
                           G_CALLBACK (on_highlight_changed), self, G_CONNECT_SWAPPED);
  on_units_changed (self);
  on_layout_changed (self);
  on_highlight_changed (self);

  pgs_window_update_actions (self);
  pgs_window_refresh (self);
}

static void
pgs_window_dispose (GObject *object)
{
  PgsWindow *self = (PgsWindow *) object;

  if (self->scan_cancellable != NULL)
    g_cancellable_cancel (self->scan_cancellable);
  g_clear_object (&self->scan_cancellable);
  g_clear_pointer (&self->refresh, pgs_refresh_free);
  g_clear_handle_id (&self->refresh_source, g_source_remove);
  g_clear_handle_id (&self->progress_source, g_source_remove);
  g_clear_object (&self->toast);
  if (self->chooser != NULL)
    gtk_native_dialog_destroy (self->chooser);
  g_clear_object (&self->chooser);
  pgs_window_unlock_dispose (self);
  pgs_window_files_dispose (self);

  gtk_widget_dispose_template (GTK_WIDGET (self), PGS_TYPE_WINDOW);
  pgs_clear_release (&self->snapshot);
  g_clear_object (&self->scanner);
  g_clear_object (&self->settings);

  G_OBJECT_CLASS (pgs_window_parent_class)->dispose (object);
}

static void
pgs_window_finalize (GObject *object)
{
  PgsWindow *self = (PgsWindow *) object;

  g_free (self->banner_text);
  g_free (self->toast_text);

  G_OBJECT_CLASS (pgs_window_parent_class)->finalize (object);
}

static void
pgs_window_get_property (GObject    *object,
                         guint       prop_id,
                         GValue     *value,
                         GParamSpec *pspec)
{
  PgsWindow *self = PGS_WINDOW (object);

  switch (prop_id)
    {
    case PROP_VIEW:
      g_value_set_string (value, pgs_window_get_view (self));
      break;
    case PROP_SNAPSHOT:
      g_value_set_object (value, self->snapshot);
      break;
    case PROP_BUSY:
      g_value_set_boolean (value, pgs_window_is_busy (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pgs_window_set_property (GObject      *object,
                         guint         prop_id,
                         const GValue *value,
                         GParamSpec   *pspec)
{
  PgsWindow *self = PGS_WINDOW (object);

  switch (prop_id)
    {
    case PROP_VIEW:
      pgs_window_set_view (self, g_value_get_string (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pgs_window_class_init (PgsWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->dispose = pgs_window_dispose;
  object_class->finalize = pgs_window_finalize;
  object_class->get_property = pgs_window_get_property;
  object_class->set_property = pgs_window_set_property;

  window_class->close_request = pgs_window_close_request;

  /* One of "processes", "residency", "sharing", "flags": the name of the visible page. */
  properties[PROP_VIEW] =
    g_param_spec_string ("view", NULL, NULL, "processes",
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SNAPSHOT] =
    g_param_spec_object ("snapshot", NULL, NULL, PGS_TYPE_SNAPSHOT,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_BUSY] =
    g_param_spec_boolean ("busy", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * PgsWindow::export-finished:
   * @file: where it went
   * @error: (nullable) (type gpointer): why it failed
   */
  signals[EXPORT_FINISHED] = g_signal_new ("export-finished", G_TYPE_FROM_CLASS (klass),
                                           G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                           G_TYPE_NONE, 2, G_TYPE_FILE, G_TYPE_POINTER);

  pgs_window_actions_class_init (widget_class);

  g_type_ensure (PGS_TYPE_PROCESS_LIST);
  g_type_ensure (PGS_TYPE_PROCESS_DETAIL);
  g_type_ensure (PGS_TYPE_MAP_PAGE);
  g_type_ensure (PGS_TYPE_COMPARE_LIST);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/pagescope/Pagescope/pgs-window.ui");
  gtk_widget_class_bind_template_child (widget_class, PgsWindow, stack);
  gtk_widget_class_bind_template_child (widget_class, PgsWindow, banner_revealer);
  gtk_widget_class_bind_template_child (widget_class, PgsWindow, banner_label);
  gtk_widget_class_bind_template_child (widget_class, PgsWindow, banner_button);
  gtk_widget_class_bind_template_child (widget_class, PgsWindow, lock_button);
  gtk_widget_class_bind_template_child (widget_class, PgsWindow, processes_stack);
  gtk_widget_class_bind_template_child (widget_class, PgsWindow, compare_list);
  gtk_widget_class_bind_template_child (widget_class, PgsWindow, progress_revealer);
  gtk_widget_class_bind_template_child (widget_class, PgsWindow, progress_bar);
  gtk_widget_class_bind_template_child (widget_class, PgsWindow, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, PgsWindow, process_list);
  gtk_widget_class_bind_template_child (widget_class, PgsWindow, process_detail);
  gtk_widget_class_bind_template_child (widget_class, PgsWindow, residency_page);
  gtk_widget_class_bind_template_child (widget_class, PgsWindow, sharing_page);
  gtk_widget_class_bind_template_child (widget_class, PgsWindow, flags_page);
  gtk_widget_class_bind_template_child (widget_class, PgsWindow, library_view);
  gtk_widget_class_bind_template_callback (widget_class, on_selected_process_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_process_activated);
  gtk_widget_class_bind_template_callback (widget_class, on_library_highlight_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_frame_user_activated);
  gtk_widget_class_bind_template_callback (widget_class, on_visible_child_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_banner_closed);
  pgs_window_unlock_class_init (widget_class);
  pgs_window_files_class_init (widget_class);
  pgs_window_open_class_init (widget_class);
}

static void
pgs_window_init (PgsWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  pgs_refresh_log_first_frame (GTK_WIDGET (self));
  pgs_release_init ();
  self->refresh = pgs_refresh_new (self);
  /* My/all processes, the tree and the columns: for the window's shortcuts too. */
  gtk_widget_insert_action_group (GTK_WIDGET (self), "proc",
                                  pgs_process_list_get_actions (self->process_list));

  self->scanner = pgs_scanner_new ();
  g_signal_connect_object (self->scanner, "progress", G_CALLBACK (on_scan_progress), self,
                           G_CONNECT_SWAPPED);
}

PgsWindow *
pgs_window_new (PgsApplication *application)
{
  PgsWindow *self;

  g_return_val_if_fail (PGS_IS_APPLICATION (application), NULL);

  self = g_object_new (PGS_TYPE_WINDOW, "application", application, NULL);
  pgs_window_setup (self, application);
  return self;
}

PgsSnapshot *
pgs_window_get_snapshot (PgsWindow *self)
{
  g_return_val_if_fail (PGS_IS_WINDOW (self), NULL);
  return self->snapshot;
}

gboolean
pgs_window_is_busy (PgsWindow *self)
{
  g_return_val_if_fail (PGS_IS_WINDOW (self), FALSE);
  return self->scan_cancellable != NULL ||
         (self->refresh != NULL && pgs_refresh_is_busy (self->refresh));
}

const char *
pgs_window_get_view (PgsWindow *self)
{
  const char *name;

  g_return_val_if_fail (PGS_IS_WINDOW (self), NULL);

  /* Asked for by the property action while the template is still being built. */
  if (self->stack == NULL)
    return "processes";
  name = gtk_stack_get_visible_child_name (self->stack);
  return name != NULL ? name : "processes";
}

void
pgs_window_set_view (PgsWindow  *self,
                     const char *view)
{
  g_return_if_fail (PGS_IS_WINDOW (self));
  g_return_if_fail (view != NULL);

  if (gtk_stack_get_child_by_name (self->stack, view) == NULL)
    {
      g_warning ("No view called “%s”", view);
      return;
    }
  gtk_stack_set_visible_child_name (self->stack, view);
}

void
pgs_window_select_pid (PgsWindow *self,
                       int        pid)
{
  g_return_if_fail (PGS_IS_WINDOW (self));

  if (!pgs_process_list_select_pid (self->process_list, pid))
    self->pending_pid = pid;
}

PgsProcessList *
pgs_window_get_process_list (PgsWindow *self)
{
  g_return_val_if_fail (PGS_IS_WINDOW (self), NULL);
  return self->process_list;
}

PgsWssDialog *
pgs_window_get_wss_dialog (PgsWindow *self)
{
  g_return_val_if_fail (PGS_IS_WINDOW (self), NULL);
  return self->wss_dialog;
}

PgsProcessDetail *
pgs_window_get_process_detail (PgsWindow *self)
{
  g_return_val_if_fail (PGS_IS_WINDOW (self), NULL);
  return self->process_detail;
}

PgsMapPage *
pgs_window_get_map_page (PgsWindow *self,
                         PgsView    view)
{
  g_return_val_if_fail (PGS_IS_WINDOW (self), NULL);

  switch (view)
    {
    case PGS_VIEW_RESIDENCY:
      return self->residency_page;
    case PGS_VIEW_SHARING:
      return self->sharing_page;
    case PGS_VIEW_FLAGS:
      return self->flags_page;
    default:
      return NULL;
    }
}

const char *
pgs_window_get_banner_text (PgsWindow *self)
{
  g_return_val_if_fail (PGS_IS_WINDOW (self), NULL);
  return self->banner_text;
}
