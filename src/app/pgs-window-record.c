/* pgs-window-record.c: Record, the header bar's button and win.record
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Issue 18: recording memory over time without a terminal. win.record (Ctrl+Shift+R; Ctrl+R
 * is Refresh) asks for a file and starts a PgsRecorder on it, which writes what
 * pagescope-cli record writes (every second the totals, every minute a page-level picture)
 * in its own thread; pressed again it stops. While it records, the button is a stop button
 * that counts the time (and in its tooltip the samples). Once the file is closed a toast says how many
 * samples it holds, with Open to show it in this window. Closing the window stops it too:
 * the application waits for the file to be closed before it quits.
 */

#include "config.h"

#include <glib/gi18n.h>

#include "pgs-tooltip.h"
#include "pgs-window-private.h"

static char *
format_elapsed (guint seconds)
{
  if (seconds >= 3600)
    return g_strdup_printf ("%u:%02u:%02u", seconds / 3600, seconds / 60 % 60, seconds % 60);
  return g_strdup_printf ("%u:%02u", seconds / 60, seconds % 60);
}

static void
update_button (PgsWindow *self)
{
  GtkButton *button = self->record_button;
  g_autofree char *label = NULL;
  g_autofree char *name = NULL;
  g_autofree char *tooltip = NULL;
  guint n;
  GtkWidget *content;

  if (!pgs_recorder_is_recording (self->recorder))
    {
      gtk_button_set_icon_name (button, "media-record-symbolic");
      pgs_set_tooltip_text (GTK_WIDGET (button), _("Record memory over time…"));
      gtk_widget_remove_css_class (GTK_WIDGET (button), "destructive-action");
      return;
    }
  n = pgs_recorder_get_n_samples (self->recorder);
  /* The time alone on the button: the header bar is as wide as its wider side twice over,
   * and the window no wider than that needs. The samples in the tooltip. */
  label = format_elapsed (pgs_recorder_get_elapsed (self->recorder));
  name = g_file_get_parse_name (pgs_recorder_get_file (self->recorder));
  /* Translators: the Record button's tooltip while it records */
  tooltip = g_strdup_printf (ngettext ("Stop recording to %s (%u sample so far)",
                                       "Stop recording to %s (%u samples so far)", n), name, n);
  content = gtk_button_get_child (button);
  if (!ADW_IS_BUTTON_CONTENT (content))
    {
      content = adw_button_content_new ();
      adw_button_content_set_icon_name (ADW_BUTTON_CONTENT (content), "media-playback-stop-symbolic");
      gtk_button_set_child (button, content);
      gtk_widget_add_css_class (GTK_WIDGET (button), "destructive-action");
    }
  adw_button_content_set_label (ADW_BUTTON_CONTENT (content), label);
  pgs_set_tooltip_text (GTK_WIDGET (button), tooltip);
}

static void
on_finished (PgsWindow   *self,
             GFile       *file,
             guint        n_samples,
             GError      *error,
             PgsRecorder *recorder)
{
  g_autofree char *name = g_file_get_parse_name (file);
  g_autofree char *text = NULL;

  update_button (self);
  if (error != NULL)
    {
      /* Translators: "Recording to FILE stopped after 12 samples: No space left on device" */
      text = g_strdup_printf (ngettext ("Recording to %s stopped after %u sample: %s",
                                        "Recording to %s stopped after %u samples: %s", n_samples),
                              name, n_samples, error->message);
      _pgs_window_add_toast (self, text);
      return;
    }
  text = g_strdup_printf (ngettext ("Recorded %u sample to %s", "Recorded %u samples to %s", n_samples),
                          n_samples, name);
  _pgs_window_remember_folder (self, "snapshot-folder", file);
  _pgs_window_show_recording_toast (self, text, file);
}

/* The application stays until the file is closed, whether or not the window does, and
 * Ctrl+Q waits for it. */
static void
release_application (PgsRecorder    *recorder,
                     GFile          *file,
                     guint           n_samples,
                     GError         *error,
                     GApplication   *app)
{
  g_signal_handlers_disconnect_by_func (recorder, release_application, app);
  g_application_unmark_busy (app);
  g_application_release (app);
  g_object_unref (app);
}

void
pgs_window_record_to (PgsWindow *self,
                      GFile     *file)
{
  g_autoptr(GError) error = NULL;
  GtkApplication *app;

  g_return_if_fail (PGS_IS_WINDOW (self));
  g_return_if_fail (G_IS_FILE (file));

  if (pgs_recorder_is_recording (self->recorder))
    return;
  /* The defaults of pagescope-cli record: totals every second, pages every minute. */
  if (!pgs_recorder_start (self->recorder, file, 1000, 60 * 1000, &error))
    {
      g_autofree char *name = g_file_get_parse_name (file);
      g_autofree char *text = g_strdup_printf (_("Could not record to %s: %s"), name, error->message);

      _pgs_window_add_toast (self, text);
      return;
    }
  app = gtk_window_get_application (GTK_WINDOW (self));
  if (app != NULL)
    {
      /* Busy, too: app.quit waits for the file (pgs-application.c), and the desktop may
       * show that the application is working. */
      g_application_hold (G_APPLICATION (app));
      g_application_mark_busy (G_APPLICATION (app));
      g_signal_connect (self->recorder, "finished", G_CALLBACK (release_application),
                        g_object_ref (app));
    }
}

PgsRecorder *
pgs_window_get_recorder (PgsWindow *self)
{
  g_return_val_if_fail (PGS_IS_WINDOW (self), NULL);
  return self->recorder;
}

G_GNUC_BEGIN_IGNORE_DEPRECATIONS

static void
on_chooser_response (GtkNativeDialog *chooser,
                     int              response,
                     PgsWindow       *self)
{
  g_autoptr(GFile) file = NULL;

  if (response != GTK_RESPONSE_ACCEPT)
    return;
  file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
  if (file != NULL)
    pgs_window_record_to (self, file);
}

/* As Save does (pgs-window-files.c): GtkFileChooserNative, GTK 4.8 has no GtkFileDialog. */
static void
choose_file (PgsWindow *self)
{
  g_autoptr(GtkFileFilter) filter = gtk_file_filter_new ();
  g_autofree char *name = NULL;
  GtkFileChooserNative *chooser;

  if (self->file_chooser != NULL)
    gtk_native_dialog_destroy (self->file_chooser);
  g_clear_object (&self->file_chooser);

  chooser = gtk_file_chooser_native_new (_("Record Memory Over Time"), GTK_WINDOW (self),
                                         GTK_FILE_CHOOSER_ACTION_SAVE, _("_Record"), _("_Cancel"));
  gtk_file_filter_set_name (filter, _("Pagescope recordings"));
  gtk_file_filter_add_mime_type (filter, PGS_RECORDING_MIME_TYPE);
  gtk_file_filter_add_pattern (filter, "*" PGS_RECORDING_FILE_EXTENSION);
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), filter);
  _pgs_window_restore_folder (self, "snapshot-folder", GTK_FILE_CHOOSER (chooser));
  /* Of the whole machine, as a snapshot: named after it. */
  name = _pgs_window_suggest_file_name (NULL, g_get_host_name (), PGS_RECORDING_FILE_EXTENSION + 1);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), name);
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  g_signal_connect (chooser, "response", G_CALLBACK (on_chooser_response), self);
  self->file_chooser = GTK_NATIVE_DIALOG (chooser);
  gtk_native_dialog_show (self->file_chooser);
}

G_GNUC_END_IGNORE_DEPRECATIONS

static void
record_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  PgsWindow *self = PGS_WINDOW (widget);

  if (pgs_recorder_is_recording (self->recorder))
    pgs_recorder_stop (self->recorder);
  else
    choose_file (self);
}

void
_pgs_window_record_init (PgsWindow *self)
{
  self->recorder = pgs_recorder_new ();
  g_signal_connect_object (self->recorder, "notify", G_CALLBACK (update_button), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->recorder, "finished", G_CALLBACK (on_finished), self,
                           G_CONNECT_SWAPPED);
  update_button (self);
}

void
_pgs_window_record_dispose (PgsWindow *self)
{
  if (self->recorder == NULL)
    return;
  g_signal_handlers_disconnect_by_data (self->recorder, self);
  pgs_recorder_stop (self->recorder);
  g_clear_object (&self->recorder);
}

void
_pgs_window_record_class_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.record", NULL, record_action);
}
