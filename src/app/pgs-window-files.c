/* pgs-window-files.c: open, save and compare snapshot files
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A snapshot file holds one scan (pgs-snapshot-file.c); opened, it is shown in every view
 * in place of the live system, automatic refresh stops, and a refresh (or the banner's
 * Back to Live) scans the running system again. The title says which file is shown and
 * when and where it was captured, to the second. Compare With… reads a second file and
 * compares it with the snapshot shown, the older capture as the old side. Reading and writing run in the library's worker
 * threads; the header bar's progress bar shows while they run.
 */

#include "config.h"

#include "pgs-escape.h"

#include <string.h>

#include <glib/gi18n.h>

#include "pgs-file-name.h"
#include "pgs-window-private.h"

#define SNAPSHOT_PATTERN "*" PGS_SNAPSHOT_FILE_EXTENSION

typedef enum
{
  CHOOSE_OPEN,
  CHOOSE_SAVE,
  CHOOSE_COMPARE,
} ChooseAction;

/* The file's name as text to show: a file name need not be UTF-8. */
static char *
display_basename (GFile *file)
{
  g_autofree char *parse_name = g_file_get_parse_name (file);

  return g_path_get_basename (parse_name);
}

static char *
format_capture (PgsSnapshot *snapshot)
{
  g_autoptr(GDateTime) time = g_date_time_new_from_unix_local (pgs_snapshot_get_time (snapshot)
                                                               / G_USEC_PER_SEC);
  g_autofree char *when = time != NULL ? g_date_time_format (time, "%Y-%m-%d %H:%M:%S") : NULL;
  /* From a file anyone may have written: shown only as valid text. */
  g_autofree char *host = pgs_snapshot_get_hostname (snapshot) != NULL
                          ? pgs_escape_for_terminal (pgs_snapshot_get_hostname (snapshot), -1)
                          : NULL;

  if (when == NULL)
    when = g_strdup (_("an unknown time"));
  if (host == NULL || *host == '\0')
    /* Translators: when a snapshot was taken, "captured 2026-12-04 03:12:45" */
    return g_strdup_printf (_("captured %s"), when);
  /* Translators: "captured 2026-12-04 03:12:45 on myhost" */
  return g_strdup_printf (_("captured %s on %s"), when, host);
}

static char *
describe_snapshot (PgsSnapshot *snapshot)
{
  GFile *file = pgs_snapshot_get_file (snapshot);
  g_autofree char *capture = format_capture (snapshot);
  g_autofree char *name = NULL;

  if (file == NULL)
    /* Translators: the new side of a comparison when it is the running system */
    return g_strdup_printf (_("the live system (%s)"), capture);
  name = display_basename (file);
  /* Translators: "name.pgsnap (captured 2026-12-04 03:12 on host)" */
  return g_strdup_printf (_("%s (%s)"), name, capture);
}

void
_pgs_window_update_title (PgsWindow *self)
{
  GFile *file = pgs_session_get_file (self->session);
  g_autofree char *name = NULL;
  g_autofree char *capture = NULL;
  g_autofree char *title = NULL;

  if (file == NULL)
    {
      gtk_window_set_title (GTK_WINDOW (self), _("Pagescope"));
      return;
    }
  name = display_basename (file);
  capture = format_capture (pgs_session_get_snapshot (self->session));
  /* Translators: the window title, "name.pgsnap — captured 2026-12-04 03:12 on host" */
  title = g_strdup_printf (_("%s — %s"), name, capture);
  gtk_window_set_title (GTK_WINDOW (self), title);
}

void
_pgs_window_remember_folder (PgsWindow  *self,
                            const char *key,
                            GFile      *file)
{
  g_autoptr(GFile) parent = g_file_get_parent (file);
  g_autofree char *uri = parent != NULL ? g_file_get_uri (parent) : NULL;

  if (uri != NULL)
    g_settings_set_string (pgs_session_get_settings (self->session), key, uri);
}

G_GNUC_BEGIN_IGNORE_DEPRECATIONS

void
_pgs_window_restore_folder (PgsWindow      *self,
                            const char     *key,
                            GtkFileChooser *chooser)
{
  g_autofree char *folder = g_settings_get_string (pgs_session_get_settings (self->session), key);
  g_autoptr(GFile) dir = NULL;

  if (*folder == '\0')
    return;
  dir = g_file_new_for_uri (folder);
  /* A folder since deleted or unmounted: the chooser's own default, without a warning. */
  if (g_file_query_file_type (dir, G_FILE_QUERY_INFO_NONE, NULL) == G_FILE_TYPE_DIRECTORY)
    gtk_file_chooser_set_current_folder (chooser, dir, NULL);
}

G_GNUC_END_IGNORE_DEPRECATIONS

char *
_pgs_window_suggest_file_name (PgsProcess *process,
                               const char *fallback,
                               const char *extension)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();

  /* The raw name: pgs_file_name_suggest() makes any name safe and valid. */
  if (process != NULL)
    return pgs_file_name_suggest (pgs_process_get_name (process), pgs_process_get_pid (process),
                                  now, extension);
  return pgs_file_name_suggest (fallback, 0, now, extension);
}

static gboolean
pulse (gpointer data)
{
  PgsWindow *self = data;

  gtk_progress_bar_pulse (self->progress_bar);
  return G_SOURCE_CONTINUE;
}

static void
begin_file_work (PgsWindow *self)
{
  if (self->file_cancellable != NULL)
    g_cancellable_cancel (self->file_cancellable);
  g_clear_object (&self->file_cancellable);
  self->file_cancellable = g_cancellable_new ();
  /* The library reports no fraction for files: the bar pulses while the worker runs. */
  gtk_progress_bar_set_pulse_step (self->progress_bar, 0.1);
  gtk_progress_bar_pulse (self->progress_bar);
  g_clear_handle_id (&self->file_pulse_source, g_source_remove);
  self->file_pulse_source = g_timeout_add (100, pulse, self);
  gtk_revealer_set_reveal_child (self->progress_revealer, TRUE);
}

static gboolean
end_file_work (PgsWindow    *self,
               GCancellable *cancellable)
{
  /* Superseded (another file, a refresh) or the window went: nothing to show. */
  if (gtk_widget_in_destruction (GTK_WIDGET (self)) || cancellable != self->file_cancellable)
    return FALSE;
  g_clear_object (&self->file_cancellable);
  g_clear_handle_id (&self->file_pulse_source, g_source_remove);
  if (!pgs_session_is_scanning (self->session))
    gtk_revealer_set_reveal_child (self->progress_revealer, FALSE);
  return TRUE;
}

static void
report_file_error (PgsWindow  *self,
                   const char *format,
                   GFile      *file,
                   GError     *error)
{
  g_autofree char *name = g_file_get_parse_name (file);
  g_autofree char *text = g_strdup_printf (format, name, error->message);

  _pgs_window_add_toast (self, text);
  _pgs_window_emit_export_finished (self, file, error);
}

/* Open */

typedef struct
{
  PgsWindow    *self;
  GFile        *file;
  GCancellable *cancellable;
  gboolean      compare;
  GFile        *then_compare;  /* opened, then compared with this file as the old side */
} LoadData;

static void
load_data_free (LoadData *data)
{
  g_object_unref (data->self);
  g_object_unref (data->file);
  g_object_unref (data->cancellable);
  g_clear_object (&data->then_compare);
  g_free (data);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LoadData, load_data_free)

/* @picked (the file chosen in Compare With…) beside the snapshot shown: the older capture
 * is the old side, whichever was opened first (on a tie, the one picked). */
/* Built when first shown, as the window's pages are (pgs-window.c). */
static PgsCompareList *
ensure_compare_list (PgsWindow *self)
{
  if (self->compare_list == NULL)
    {
      AdwBin *bin = ADW_BIN (gtk_stack_get_child_by_name (self->processes_stack, "compare"));

      self->compare_list = g_object_new (PGS_TYPE_COMPARE_LIST, "session", self->session, NULL);
      adw_bin_set_child (bin, GTK_WIDGET (self->compare_list));
    }
  return self->compare_list;
}

static void
show_comparison (PgsWindow   *self,
                 PgsSnapshot *picked)
{
  PgsSnapshot *shown = pgs_session_get_snapshot (self->session);
  gboolean picked_newer = pgs_snapshot_get_time (picked) > pgs_snapshot_get_time (shown);
  PgsSnapshot *old_snapshot = picked_newer ? shown : picked;
  PgsSnapshot *new_snapshot = picked_newer ? picked : shown;
  g_autofree char *old_text = describe_snapshot (old_snapshot);
  g_autofree char *new_text = describe_snapshot (new_snapshot);
  /* Translators: "Old: name.pgsnap (captured …). New: the live system (captured …)." */
  g_autofree char *text = g_strdup_printf (_("Old: %s. New: %s."), old_text, new_text);

  /* In place of the process list: the comparison is of the processes. */
  pgs_compare_list_set_snapshots (ensure_compare_list (self), old_snapshot,
                                  new_snapshot, text);
  g_set_object (&self->compared_snapshot, shown);
  gtk_stack_set_visible_child_name (self->processes_stack, "compare");
  pgs_session_set_view (self->session, "processes");
}

static void load_file (PgsWindow *self,
                       GFile     *file,
                       gboolean   compare,
                       GFile     *then_compare);

static void
load_done (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(LoadData) data = user_data;
  PgsWindow *self = data->self;
  g_autoptr(PgsSnapshot) snapshot = NULL;
  g_autoptr(GError) error = NULL;

  snapshot = pgs_snapshot_load_finish (result, &error);
  if (!end_file_work (self, data->cancellable) ||
      g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  if (snapshot == NULL)
    {
      /* The library's message says what is wrong: truncated, damaged, a newer version. */
      report_file_error (self, data->compare ? _("Could not compare with %s: %s")
                                             : _("Could not open %s: %s"),
                         data->file, error);
      return;
    }
  _pgs_window_remember_folder (self, "snapshot-folder", data->file);
  if (data->compare)
    show_comparison (self, snapshot);
  else
    {
      pgs_session_show_file (self->session, snapshot);
      if (data->then_compare != NULL)
        load_file (self, data->then_compare, TRUE, NULL);
    }
  _pgs_window_emit_export_finished (self, data->file, NULL);
}

/* Recordings (pagescope-cli record): told by their name, as the desktop tells them. */
static gboolean
is_recording (GFile *file)
{
  g_autofree char *name = g_file_get_basename (file);

  return name != NULL && g_str_has_suffix (name, PGS_RECORDING_FILE_EXTENSION);
}

static void
open_recording_thread (GTask        *task,
                       gpointer      source,
                       gpointer      task_data,
                       GCancellable *cancellable)
{
  GError *error = NULL;
  PgsRecording *recording = pgs_recording_open (task_data, cancellable, &error);

  if (recording == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, recording, g_object_unref);
}

static void
recording_done (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(LoadData) data = user_data;
  PgsWindow *self = data->self;
  g_autoptr(PgsRecording) recording = NULL;
  g_autoptr(GError) error = NULL;

  recording = g_task_propagate_pointer (G_TASK (result), &error);
  if (!end_file_work (self, data->cancellable) ||
      g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  if (recording == NULL)
    {
      report_file_error (self, _("Could not open %s: %s"), data->file, error);
      return;
    }
  _pgs_window_remember_folder (self, "snapshot-folder", data->file);
  pgs_session_show_recording (self->session, recording);
  /* Cut short, or with damaged samples: what opened, and where it ends. */
  if (pgs_recording_get_end_note (recording) != NULL)
    _pgs_window_add_toast (self, pgs_recording_get_end_note (recording));
  _pgs_window_emit_export_finished (self, data->file, NULL);
}

static void
load_file (PgsWindow *self,
           GFile     *file,
           gboolean   compare,
           GFile     *then_compare)
{
  LoadData *data = g_new0 (LoadData, 1);

  if (compare && pgs_session_get_snapshot (self->session) == NULL)
    {
      _pgs_window_add_toast (self, _("Wait for the first scan before comparing"));
      g_free (data);
      return;
    }
  begin_file_work (self);
  data->self = g_object_ref (self);
  data->file = g_object_ref (file);
  data->cancellable = g_object_ref (self->file_cancellable);
  data->compare = compare;
  data->then_compare = then_compare != NULL ? g_object_ref (then_compare) : NULL;
  if (!compare && is_recording (file))
    {
      /* The header and the index only (pgs-recording.h): samples are read as shown. */
      g_autoptr(GTask) task = g_task_new (NULL, data->cancellable, recording_done, data);

      g_task_set_source_tag (task, load_file);
      g_task_set_task_data (task, g_object_ref (file), g_object_unref);
      g_task_run_in_thread (task, open_recording_thread);
      return;
    }
  pgs_snapshot_load_async (file, data->cancellable, load_done, data);
}

void
pgs_window_open_file (PgsWindow *self,
                      GFile     *file,
                      GFile     *compare_with)
{
  g_return_if_fail (PGS_IS_WINDOW (self));
  g_return_if_fail (G_IS_FILE (file));
  g_return_if_fail (compare_with == NULL || G_IS_FILE (compare_with));
  load_file (self, file, FALSE, compare_with);
}

void
pgs_window_compare_file (PgsWindow *self,
                         GFile     *file)
{
  g_return_if_fail (PGS_IS_WINDOW (self));
  g_return_if_fail (G_IS_FILE (file));
  load_file (self, file, TRUE, NULL);
}

/* Save */

/* Why @file could not be written, in words about the file the user chose: the library
 * writes a hidden temporary file beside it first, whose name GIO's messages carry. */
static char *
save_reason (GFile  *file,
             GError *error)
{
  g_autoptr(GFile) parent = g_file_get_parent (file);
  g_autofree char *folder = parent != NULL ? g_file_get_parse_name (parent) : g_strdup ("/");
  const char *colon;

  if (error->domain == G_IO_ERROR)
    switch (error->code)
      {
      case G_IO_ERROR_NOT_FOUND:
        /* Translators: why a file could not be saved */
        return g_strdup_printf (_("the folder %s does not exist"), folder);
      case G_IO_ERROR_NOT_DIRECTORY:
        return g_strdup_printf (_("%s is not a folder"), folder);
      case G_IO_ERROR_PERMISSION_DENIED:
        return g_strdup_printf (_("you may not write in the folder %s"), folder);
      case G_IO_ERROR_READ_ONLY:
        return g_strdup_printf (_("the folder %s is on a read-only file system"), folder);
      case G_IO_ERROR_NO_SPACE:
        return g_strdup_printf (_("no space left on the disk of %s"), folder);
      case G_IO_ERROR_IS_DIRECTORY:
        return g_strdup (_("a folder has that name"));
      case G_IO_ERROR_FILENAME_TOO_LONG:
        return g_strdup (_("the file name is too long"));
      default:
        break;
      }
  /* "Error opening file “/dir/.name.1234abcd.tmp”: reason": the reason alone. */
  colon = strrchr (error->message, ':');
  if (strstr (error->message, ".tmp") != NULL && colon != NULL && colon[1] == ' ')
    return g_strdup (colon + 2);
  return g_strdup (error->message);
}

static void
report_save_error (PgsWindow *self,
                   GFile     *file,
                   GError    *error)
{
  g_autofree char *reason = save_reason (file, error);
  g_autoptr(GError) plain = g_error_new_literal (error->domain, error->code, reason);

  report_file_error (self, _("Could not save to %s: %s"), file, plain);
}

static void
save_done (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(LoadData) data = user_data;
  PgsWindow *self = data->self;
  g_autoptr(GError) error = NULL;
  g_autofree char *name = NULL;
  g_autofree char *text = NULL;

  pgs_snapshot_save_finish (PGS_SNAPSHOT (object), result, &error);
  if (!end_file_work (self, data->cancellable))
    return;
  if (error != NULL)
    {
      report_save_error (self, data->file, error);
      return;
    }
  _pgs_window_remember_folder (self, "snapshot-folder", data->file);
  name = g_file_get_parse_name (data->file);
  text = g_strdup_printf (_("Saved the snapshot to %s"), name);
  _pgs_window_show_file_toast (self, text, data->file);
  _pgs_window_emit_export_finished (self, data->file, NULL);
}

static void
save_scanned (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  LoadData *data = user_data;
  g_autoptr(PgsSnapshot) snapshot = NULL;
  g_autoptr(GError) error = NULL;

  snapshot = pgs_session_complete_finish (result, &error);
  if (snapshot == NULL)
    {
      if (end_file_work (data->self, data->cancellable))
        report_save_error (data->self, data->file, error);
      load_data_free (data);
      return;
    }
  pgs_snapshot_save_async (snapshot, data->file, data->cancellable, save_done, data);
}

static void
save_file (PgsWindow *self,
           GFile     *file)
{
  LoadData *data;

  if (pgs_session_get_snapshot (self->session) == NULL)
    return;
  begin_file_work (self);
  data = g_new0 (LoadData, 1);
  data->self = g_object_ref (self);
  data->file = g_object_ref (file);
  data->cancellable = g_object_ref (self->file_cancellable);
  /* The list of a live refresh holds the kernel's totals only (pgs-refresh.c): a file
   * gets every process's mappings and pages, and the physical map. */
  pgs_session_complete_async (self->session, data->cancellable, save_scanned, data);
}

/* The file chooser (GtkFileChooserNative: GTK 4.8 has no GtkFileDialog) */

G_GNUC_BEGIN_IGNORE_DEPRECATIONS

static void
on_chooser_response (GtkNativeDialog *chooser,
                     int              response,
                     PgsWindow       *self)
{
  ChooseAction action = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (chooser), "action"));
  g_autoptr(GFile) file = NULL;

  if (response != GTK_RESPONSE_ACCEPT)
    return;
  file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
  if (file == NULL)
    return;
  if (action == CHOOSE_SAVE)
    save_file (self, file);
  else
    load_file (self, file, action == CHOOSE_COMPARE, NULL);
}

static void
choose_snapshot (PgsWindow    *self,
                 ChooseAction  action)
{
  static const char *const titles[] = {
    N_("Open Snapshot or Recording"), N_("Save Snapshot"), N_("Compare With Snapshot"),
  };
  static const char *const accept[] = { N_("_Open"), N_("_Save"), N_("_Compare") };
  g_autoptr(GtkFileFilter) filter = gtk_file_filter_new ();
  g_autoptr(GtkFileFilter) all = gtk_file_filter_new ();
  GtkFileChooserNative *chooser;

  if (self->file_chooser != NULL)
    gtk_native_dialog_destroy (self->file_chooser);
  g_clear_object (&self->file_chooser);

  chooser = gtk_file_chooser_native_new (_(titles[action]), GTK_WINDOW (self),
                                         action == CHOOSE_SAVE ? GTK_FILE_CHOOSER_ACTION_SAVE
                                                               : GTK_FILE_CHOOSER_ACTION_OPEN,
                                         _(accept[action]), _("_Cancel"));
  gtk_file_filter_set_name (filter, _("Pagescope snapshots"));
  gtk_file_filter_add_mime_type (filter, PGS_SNAPSHOT_MIME_TYPE);
  gtk_file_filter_add_pattern (filter, SNAPSHOT_PATTERN);
  if (action == CHOOSE_OPEN)
    {
      gtk_file_filter_set_name (filter, _("Pagescope snapshots and recordings"));
      gtk_file_filter_add_mime_type (filter, PGS_RECORDING_MIME_TYPE);
      gtk_file_filter_add_pattern (filter, "*" PGS_RECORDING_FILE_EXTENSION);
    }
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), filter);
  gtk_file_filter_set_name (all, _("All files"));
  gtk_file_filter_add_pattern (all, "*");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), all);
  _pgs_window_restore_folder (self, "snapshot-folder", GTK_FILE_CHOOSER (chooser));
  if (action == CHOOSE_SAVE)
    {
      /* A snapshot is of the whole machine: named after it. */
      g_autofree char *name = _pgs_window_suggest_file_name (NULL, g_get_host_name (),
                                                             PGS_SNAPSHOT_FILE_EXTENSION + 1);

      gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), name);
    }
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  g_object_set_data (G_OBJECT (chooser), "action", GINT_TO_POINTER (action));
  g_signal_connect (chooser, "response", G_CALLBACK (on_chooser_response), self);
  self->file_chooser = GTK_NATIVE_DIALOG (chooser);
  gtk_native_dialog_show (self->file_chooser);
}

G_GNUC_END_IGNORE_DEPRECATIONS

/* Actions */

static void
open_snapshot_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  choose_snapshot (PGS_WINDOW (widget), CHOOSE_OPEN);
}

static void
save_snapshot_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  choose_snapshot (PGS_WINDOW (widget), CHOOSE_SAVE);
}

static void
compare_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  choose_snapshot (PGS_WINDOW (widget), CHOOSE_COMPARE);
}

void
_pgs_window_close_comparison (PgsWindow *self)
{
  gtk_stack_set_visible_child_name (self->processes_stack, "list");
  if (self->compare_list != NULL)
    pgs_compare_list_set_snapshots (self->compare_list, NULL, NULL, NULL);
  g_clear_object (&self->compared_snapshot);
}

void
_pgs_window_files_snapshot_changed (PgsWindow *self)
{
  /* A comparison of a file shown: gone with the file (Back to Live, another file). One of
   * the live system stays while refreshes replace the live view: it says when each side
   * was captured. */
  if (self->compared_snapshot != NULL && pgs_snapshot_get_file (self->compared_snapshot) != NULL &&
      self->compared_snapshot != pgs_session_get_snapshot (self->session))
    _pgs_window_close_comparison (self);
}

static void
close_compare_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  _pgs_window_close_comparison (PGS_WINDOW (widget));
}

/* Without a file chooser: for the command line, scripts and tests. */
static void
file_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  PgsWindow *self = PGS_WINDOW (widget);
  g_autoptr(GFile) file = g_file_new_for_commandline_arg (g_variant_get_string (parameter, NULL));

  if (g_str_equal (action_name, "win.save-snapshot-to-file"))
    save_file (self, file);
  else
    load_file (self, file, g_str_equal (action_name, "win.compare-with-file"), NULL);
}

void
_pgs_window_files_cancel (PgsWindow *self)
{
  if (self->file_cancellable != NULL)
    g_cancellable_cancel (self->file_cancellable);
}

void
_pgs_window_files_dispose (PgsWindow *self)
{
  g_clear_handle_id (&self->file_pulse_source, g_source_remove);
  _pgs_window_files_cancel (self);
  g_clear_object (&self->file_cancellable);
  g_clear_object (&self->compared_snapshot);
  if (self->file_chooser != NULL)
    gtk_native_dialog_destroy (self->file_chooser);
  g_clear_object (&self->file_chooser);
}

void
_pgs_window_files_class_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.open-snapshot", NULL, open_snapshot_action);
  gtk_widget_class_install_action (widget_class, "win.save-snapshot", NULL, save_snapshot_action);
  gtk_widget_class_install_action (widget_class, "win.compare", NULL, compare_action);
  gtk_widget_class_install_action (widget_class, "win.close-compare", NULL,
                                   close_compare_action);
  gtk_widget_class_install_action (widget_class, "win.open-snapshot-file", "s", file_action);
  gtk_widget_class_install_action (widget_class, "win.save-snapshot-to-file", "s", file_action);
  gtk_widget_class_install_action (widget_class, "win.compare-with-file", "s", file_action);
}

gboolean
pgs_window_is_comparing (PgsWindow *self)
{
  g_return_val_if_fail (PGS_IS_WINDOW (self), FALSE);
  return g_strcmp0 (gtk_stack_get_visible_child_name (self->processes_stack), "compare") == 0;
}

PgsCompareList *
pgs_window_get_compare_list (PgsWindow *self)
{
  g_return_val_if_fail (PGS_IS_WINDOW (self), NULL);
  return ensure_compare_list (self);
}
