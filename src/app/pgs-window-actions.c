/* pgs-window-actions.c: the window's actions
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * win.export* (the visible map as PNG, the process list as CSV, through a file chooser or
 * to a given file), win.refresh and win.cancel-refresh, win.find, win.zoom-*, win.view and
 * win.measure-wss, installed by _pgs_window_actions_class_init(). pgs-window.c says which are
 * enabled.
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "pgs-file-name.h"
#include "pgs-window-private.h"
#include "pgs-wss-dialog.h"

PgsMapPage *
_pgs_window_current_map_page (PgsWindow *self)
{
  GtkWidget *child = gtk_stack_get_visible_child (self->stack);

  /* A page other than Processes is in an AdwBin until built (pgs-window.c). */
  if (ADW_IS_BIN (child))
    child = adw_bin_get_child (ADW_BIN (child));
  return PGS_IS_MAP_PAGE (child) ? PGS_MAP_PAGE (child) : NULL;
}

static gboolean
write_csv (PgsWindow   *self,
           GFile       *file,
           GError     **error)
{
  GListModel *model = pgs_process_list_get_model (self->process_list);
  g_autoptr(GPtrArray) processes = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GString) out = g_string_new (NULL);
  guint n = g_list_model_get_n_items (model);

  /* The list as shown: its filter and its order. The library writes the CSV, the same
   * columns the command line's memrank --csv prints. */
  for (guint i = 0; i < n; i++)
    g_ptr_array_add (processes, g_list_model_get_item (model, i));
  pgs_report_processes_csv (out, processes);
  return g_file_replace_contents (file, out->str, out->len, NULL, FALSE,
                                  G_FILE_CREATE_REPLACE_DESTINATION, NULL, NULL, error);
}

void
_pgs_window_finish_export (PgsWindow *self,
                           GFile     *file,
                           GError    *error)
{
  g_autofree char *name = g_file_get_parse_name (file);
  g_autofree char *text = NULL;

  if (error == NULL)
    {
      _pgs_window_remember_folder (self, "export-folder", file);
      text = g_strdup_printf (_("Exported to %s"), name);
      _pgs_window_show_file_toast (self, text, file);
    }
  else
    {
      text = g_strdup_printf (_("Could not export to %s: %s"), name, error->message);
      _pgs_window_add_toast (self, text);
    }
  _pgs_window_emit_export_finished (self, file, error);
}

static void
export_csv_to (PgsWindow *self,
               GFile     *file)
{
  g_autoptr(GError) error = NULL;

  write_csv (self, file, &error);
  _pgs_window_finish_export (self, file, error);
}

static void
export_map_done (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(GFile) file = user_data;
  g_autoptr(GError) error = NULL;
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (object));

  pgs_map_page_export_png_finish (PGS_MAP_PAGE (object), result, &error);
  if (PGS_IS_WINDOW (root))
    _pgs_window_finish_export (PGS_WINDOW (root), file, error);
}

static void
export_map_to (PgsWindow *self,
               GFile     *file)
{
  PgsMapPage *page = _pgs_window_current_map_page (self);
  g_autoptr(GError) error = NULL;
  g_autofree char *path = g_file_get_path (file);

  if (page == NULL || !pgs_map_page_has_map (page))
    g_set_error_literal (&error, PGS_ERROR, PGS_ERROR_FAILED, _("This view has no map to export"));
  else if (path == NULL)
    g_set_error_literal (&error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                         _("Maps can only be exported to local files"));
  else
    {
      /* Encoding a large PNG takes seconds: a worker does it, the toast says when. */
      pgs_map_page_export_png_async (page, path, export_map_done, g_object_ref (file));
      return;
    }
  _pgs_window_finish_export (self, file, error);
}

typedef void (*ExportFunc) (PgsWindow *self,
                            GFile     *file);

#if GTK_CHECK_VERSION (4, 10, 0)
G_GNUC_BEGIN_IGNORE_DEPRECATIONS

static void
on_save_finished (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(PgsWindow) self = user_data;
  g_autoptr(GFile) file = gtk_file_dialog_save_finish (GTK_FILE_DIALOG (object), result, NULL);
  ExportFunc func = g_object_get_data (object, "export-func");

  if (file != NULL)
    func (self, file);
}

static void
choose_file (PgsWindow   *self,
             const char  *title,
             const char  *name,
             const char  *mime_type,
             ExportFunc   func)
{
  g_autoptr(GtkFileDialog) dialog = gtk_file_dialog_new ();
  g_autoptr(GtkFileFilter) filter = gtk_file_filter_new ();
  g_autoptr(GListStore) filters = g_list_store_new (GTK_TYPE_FILE_FILTER);

  gtk_file_filter_add_mime_type (filter, mime_type);
  gtk_file_filter_set_name (filter, mime_type);
  g_list_store_append (filters, filter);
  gtk_file_dialog_set_title (dialog, title);
  gtk_file_dialog_set_initial_name (dialog, name);
  {
    g_autofree char *folder = g_settings_get_string (pgs_session_get_settings (self->session),
                                                     "export-folder");

    if (*folder != '\0')
      {
        g_autoptr(GFile) dir = g_file_new_for_uri (folder);

        gtk_file_dialog_set_initial_folder (dialog, dir);
      }
  }
  gtk_file_dialog_set_filters (dialog, G_LIST_MODEL (filters));
  g_object_set_data (G_OBJECT (dialog), "export-func", func);
  gtk_file_dialog_save (dialog, GTK_WINDOW (self), NULL, on_save_finished, g_object_ref (self));
}

G_GNUC_END_IGNORE_DEPRECATIONS
#else

static void
on_chooser_response (GtkNativeDialog *chooser,
                     int              response,
                     PgsWindow       *self)
{
  ExportFunc func = g_object_get_data (G_OBJECT (chooser), "export-func");

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));

      if (file != NULL)
        func (self, file);
    }
  /* Kept (hidden) until the next export or the window goes: it is still emitting. */
}

static void
choose_file (PgsWindow   *self,
             const char  *title,
             const char  *name,
             const char  *mime_type,
             ExportFunc   func)
{
  GtkFileChooserNative *chooser;
  g_autoptr(GtkFileFilter) filter = gtk_file_filter_new ();

  if (self->chooser != NULL)
    gtk_native_dialog_destroy (self->chooser);
  g_clear_object (&self->chooser);

  chooser = gtk_file_chooser_native_new (title, GTK_WINDOW (self), GTK_FILE_CHOOSER_ACTION_SAVE,
                                         _("_Export"), _("_Cancel"));
  gtk_file_filter_add_mime_type (filter, mime_type);
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), filter);
  _pgs_window_restore_folder (self, "export-folder", GTK_FILE_CHOOSER (chooser));
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), name);
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  g_object_set_data (G_OBJECT (chooser), "export-func", func);
  g_signal_connect (chooser, "response", G_CALLBACK (on_chooser_response), self);
  self->chooser = GTK_NATIVE_DIALOG (chooser);
  gtk_native_dialog_show (self->chooser);
}

#endif

static void
export_map_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  PgsWindow *self = PGS_WINDOW (widget);
  PgsProcess *process = pgs_process_list_get_selected_process (self->process_list);
  const char *view = pgs_session_get_view (self->session);
  PgsHighlight *highlight = pgs_session_get_highlight (self->session);
  g_autofree char *name = NULL;

  /* Named for what the picture shows: Pages, the selected process; a physical map, its view
   * and what it highlights, which is the file chosen in Libraries when there is one
   * ("sharing-libc.so.6-…"), else the selected process ("flags-firefox-1234-…"). */
  if (g_strcmp0 (view, "sharing") != 0 && g_strcmp0 (view, "flags") != 0)
    name = _pgs_window_suggest_file_name (process, "physical-memory", "png");
  else
    {
      g_autoptr(GDateTime) now = g_date_time_new_now_local ();
      g_autofree char *subject =
        highlight != NULL ? g_strdup_printf ("%s-%s", view, pgs_highlight_get_name (highlight))
        : process != NULL ? g_strdup_printf ("%s-%s", view, pgs_process_get_name (process))
                          : g_strdup (view);

      name = pgs_file_name_suggest (subject, highlight == NULL && process != NULL
                                               ? pgs_process_get_pid (process) : 0,
                                    now, "png");
    }

  choose_file (self, _("Export Map as PNG"), name, "image/png", export_map_to);
}

static void
export_csv_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  g_autofree char *name = _pgs_window_suggest_file_name (NULL, "processes", "csv");

  choose_file (PGS_WINDOW (widget), _("Export Process List as CSV"), name, "text/csv",
               export_csv_to);
}

static void
export_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  /* Ctrl+E exports what is in front of the user: the map, or on the list view the list. */
  if (_pgs_window_current_map_page (PGS_WINDOW (widget)) != NULL)
    export_map_action (widget, action_name, parameter);
  else
    export_csv_action (widget, action_name, parameter);
}

static void
export_to_file_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  PgsWindow *self = PGS_WINDOW (widget);
  g_autoptr(GFile) file = g_file_new_for_commandline_arg (g_variant_get_string (parameter, NULL));

  if (g_str_equal (action_name, "win.export-map-to-file"))
    export_map_to (self, file);
  else
    export_csv_to (self, file);
}

/* Other actions */

static void
refresh_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  pgs_session_refresh (PGS_WINDOW (widget)->session);
}

static void
cancel_refresh_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  pgs_session_cancel_scan (PGS_WINDOW (widget)->session);
}

static void
find_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  PgsWindow *self = PGS_WINDOW (widget);

  pgs_session_set_view (self->session, "processes");
  pgs_process_list_focus_search (self->process_list);
}

static void
zoom_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  PgsMapPage *page = _pgs_window_current_map_page (PGS_WINDOW (widget));

  /* win.zoom-in → map.zoom-in on the map in view */
  if (page != NULL)
    {
      g_autofree char *name = g_strconcat ("map.", action_name + strlen ("win."), NULL);

      gtk_widget_activate_action (GTK_WIDGET (pgs_map_page_get_map_view (page)), name, NULL);
    }
}

/* Working set */

static void
on_wss_measured (PgsWindow    *self,
                 GPtrArray    *samples,
                 PgsWssDialog *dialog)
{
  int pid = pgs_wss_dialog_get_pid (dialog);
  PgsProcess *selected = pgs_process_list_get_selected_process (self->process_list);
  g_autofree char *text = NULL;

  /* The user may have selected another process while it ran: the results still belong
   * to the PID measured, and are shown only while it is selected. */
  if (selected == NULL || pgs_process_get_pid (selected) != pid)
    {
      text = g_strdup_printf (_("The working set of PID %d was measured, but that process is "
                                "no longer selected"), pid);
      _pgs_window_add_toast (self, text);
      return;
    }
  pgs_session_set_wss_samples (self->session, pid, samples);
}

/* The page-out method's last cycle in words, in a dialog that stays until read: what came
 * back (touched), what stayed out, what could not be measured, and the page-out's cost. */
static void
on_wss_measured_pageout (PgsWindow *self,
                         GPtrArray *cycles)
{
  PgsUnits units = pgs_session_get_units (self->session);
  GPtrArray *last = cycles->len > 0 ? g_ptr_array_index (cycles, cycles->len - 1) : NULL;
  g_autoptr(GString) body = g_string_new (NULL);
  GtkWidget *dialog;

  for (guint i = 0; last != NULL && i < last->len; i++)
    {
      PgsPageoutResult *r = g_ptr_array_index (last, i);
      g_autofree char *touched = pgs_units_format (units, pgs_pageout_result_get_touched (r));
      g_autofree char *stayed = pgs_units_format (units, pgs_pageout_result_get_stayed_out (r));
      g_autofree char *unmeasured = pgs_units_format (units, pgs_pageout_result_get_not_measured (r));

      g_string_append_printf (body,
                              _("%s (%d): in %.1f s it touched %s again; %s stayed out; %s "
                                "could not be measured (shared, locked or without swap). "
                                "Paging out took %.1f s.%s\n"),
                              pgs_pageout_result_get_name (r), pgs_pageout_result_get_pid (r),
                              pgs_pageout_result_get_elapsed (r) / 1e6, touched, stayed,
                              unmeasured, pgs_pageout_result_get_pageout_time (r) / 1e6,
                              pgs_pageout_result_get_upper_bound (r) > 0
                                ? _(" File pages come back with their neighbours: their "
                                    "figure is an upper bound.") : "");
    }
  if (body->len == 0)
    g_string_append (body, _("No process could be measured."));
  dialog = adw_message_dialog_new (GTK_WINDOW (self), _("Working Set by Paging Out"), body->str);
  adw_message_dialog_add_response (ADW_MESSAGE_DIALOG (dialog), "close", _("_Close"));
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
on_wss_dialog_destroyed (PgsWindow *self)
{
  self->wss_dialog = NULL;
}

static void
measure_wss_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  PgsWindow *self = PGS_WINDOW (widget);
  PgsProcess *process = pgs_process_list_get_selected_process (self->process_list);

  if (process == NULL)
    return;
  if (self->wss_dialog != NULL)
    {
      gtk_window_present (GTK_WINDOW (self->wss_dialog));
      return;
    }
  self->wss_dialog = pgs_wss_dialog_new (GTK_WINDOW (self),
                                         pgs_session_get_settings (self->session),
                                         pgs_process_get_pid (process),
                                         pgs_process_get_display_name (process));
  pgs_wss_dialog_set_helper (self->wss_dialog, pgs_session_get_helper (self->session));
  g_signal_connect_object (self->wss_dialog, "measured", G_CALLBACK (on_wss_measured), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->wss_dialog, "measured-pageout",
                           G_CALLBACK (on_wss_measured_pageout), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->wss_dialog, "destroy", G_CALLBACK (on_wss_dialog_destroyed),
                           self, G_CONNECT_SWAPPED);
  gtk_window_present (GTK_WINDOW (self->wss_dialog));
}

/* The keyboard shortcuts, built when first asked for. GtkApplication would build them
 * (from the resource gtk/help-overlay.ui) for every window it is given, before the
 * window's first frame: 18 ms of a start of 0.4 s CPU, for a window most starts never show. */
static void
show_shortcuts_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  PgsWindow *self = PGS_WINDOW (widget);
  g_autoptr(GtkBuilder) builder = NULL;

  if (self->shortcuts == NULL)
    {
      builder = gtk_builder_new_from_resource ("/io/github/pagescope/Pagescope/help-overlay.ui");
      self->shortcuts = GTK_WINDOW (gtk_builder_get_object (builder, "help_overlay"));
      gtk_window_set_transient_for (self->shortcuts, GTK_WINDOW (self));
      gtk_window_set_destroy_with_parent (self->shortcuts, TRUE);
      g_object_add_weak_pointer (G_OBJECT (self->shortcuts), (gpointer *) &self->shortcuts);
    }
  gtk_window_present (self->shortcuts);
}

/* With a recording shown: @parameter samples later (earlier when negative). */
static void
move_by_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  PgsReplay *replay = pgs_session_get_replay (PGS_WINDOW (widget)->session);

  if (replay != NULL)
    pgs_replay_move_by (replay, g_variant_get_int32 (parameter));
}

void
_pgs_window_actions_class_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.refresh", NULL, refresh_action);
  gtk_widget_class_install_action (widget_class, "win.cancel-refresh", NULL, cancel_refresh_action);
  gtk_widget_class_install_action (widget_class, "win.export", NULL, export_action);
  gtk_widget_class_install_action (widget_class, "win.export-map", NULL, export_map_action);
  gtk_widget_class_install_action (widget_class, "win.export-csv", NULL, export_csv_action);
  /* Without a file chooser: for scripts and tests. */
  gtk_widget_class_install_action (widget_class, "win.export-map-to-file", "s",
                                   export_to_file_action);
  gtk_widget_class_install_action (widget_class, "win.export-csv-to-file", "s",
                                   export_to_file_action);
  gtk_widget_class_install_action (widget_class, "win.find", NULL, find_action);
  gtk_widget_class_install_action (widget_class, "win.zoom-in", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "win.zoom-out", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "win.zoom-reset", NULL, zoom_action);
  gtk_widget_class_install_property_action (widget_class, "win.view", "view");
  gtk_widget_class_install_action (widget_class, "win.measure-wss", NULL, measure_wss_action);
  gtk_widget_class_install_action (widget_class, "win.move-by", "i", move_by_action);
  gtk_widget_class_install_action (widget_class, "win.show-help-overlay", NULL,
                                   show_shortcuts_action);
}
