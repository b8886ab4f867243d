/* pgs-window-open.c: the window's toasts; after a file is written, Open and Show in Folder
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every toast goes through _pgs_window_add_toast(), which keeps the newest one's text for
 * tests; PgsWindow::export-finished tells scripts and tests that a file was written or
 * read.
 * After an export or a snapshot save the toast offers Open (the file in its default
 * application) as its button and Show in Folder beside the text (libadwaita 1.2's toast
 * has one button; its custom title holds the second). Show in Folder asks the file manager
 * over D-Bus (org.freedesktop.FileManager1.ShowItems, which selects the file) and opens
 * the folder itself where no file manager answers. Both are window actions that take the
 * file's URI, so the buttons, tests and scripts all go through the same code.
 */

#include "config.h"

#include <glib/gi18n.h>

#include "pgs-window-private.h"

#define FILE_MANAGER_NAME      "org.freedesktop.FileManager1"
#define FILE_MANAGER_PATH      "/org/freedesktop/FileManager1"
#define FILE_MANAGER_INTERFACE "org.freedesktop.FileManager1"
#define FILE_MANAGER_TIMEOUT_MS 5000
#define TOAST_SECONDS           5

static guint export_finished_signal;

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
_pgs_window_add_toast (PgsWindow  *self,
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

void
_pgs_window_emit_export_finished (PgsWindow *self,
                                  GFile     *file,
                                  GError    *error)
{
  g_signal_emit (self, export_finished_signal, 0, file, error);
}

static void
report_failure (PgsWindow  *self,
                const char *format,
                const char *uri,
                GError     *error)
{
  g_autoptr(GFile) file = g_file_new_for_uri (uri);
  g_autofree char *name = g_file_get_parse_name (file);
  g_autofree char *text = g_strdup_printf (format, name, error->message);

  _pgs_window_add_toast (self, text);
}

typedef struct
{
  PgsWindow *self;
  char      *uri;
  gboolean   folder;  /* the fallback of Show in Folder: the message names the folder */
} LaunchData;

static void
launch_data_free (LaunchData *data)
{
  g_object_unref (data->self);
  g_free (data->uri);
  g_free (data);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LaunchData, launch_data_free)

static void
launch_done (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(LaunchData) data = user_data;
  g_autoptr(GError) error = NULL;

  if (g_app_info_launch_default_for_uri_finish (result, &error) ||
      gtk_widget_in_destruction (GTK_WIDGET (data->self)))
    return;
  report_failure (data->self, data->folder ? _("Could not open the folder %s: %s")
                                           : _("Could not open %s: %s"),
                  data->uri, error);
}

static void
launch_uri (PgsWindow  *self,
            const char *uri,
            gboolean    folder)
{
  g_autoptr(GAppLaunchContext) context = NULL;
  LaunchData *data = g_new0 (LaunchData, 1);

  context = G_APP_LAUNCH_CONTEXT (gdk_display_get_app_launch_context (
                                    gtk_widget_get_display (GTK_WIDGET (self))));
  data->self = g_object_ref (self);
  data->uri = g_strdup (uri);
  data->folder = folder;
  g_app_info_launch_default_for_uri_async (uri, context, NULL, launch_done, data);
}

static void
open_folder_of (PgsWindow  *self,
                const char *uri)
{
  g_autoptr(GFile) file = g_file_new_for_uri (uri);
  g_autoptr(GFile) parent = g_file_get_parent (file);
  g_autofree char *parent_uri = NULL;

  if (parent == NULL)
    return;
  parent_uri = g_file_get_uri (parent);
  launch_uri (self, parent_uri, TRUE);
}

static void
show_items_done (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(LaunchData) data = user_data;
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GError) error = NULL;

  reply = g_dbus_connection_call_finish (G_DBUS_CONNECTION (object), result, &error);
  if (reply != NULL || gtk_widget_in_destruction (GTK_WIDGET (data->self)))
    return;
  /* No file manager on the bus, or one without ShowItems: the folder, without the
   * selection. */
  g_debug ("ShowItems failed, opening the folder instead: %s", error->message);
  open_folder_of (data->self, data->uri);
}

static void
show_in_folder (PgsWindow  *self,
                const char *uri)
{
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));
  GDBusConnection *bus = app != NULL ? g_application_get_dbus_connection (G_APPLICATION (app))
                                     : NULL;
  const char *items[] = { uri, NULL };
  LaunchData *data;

  if (bus == NULL)
    {
      open_folder_of (self, uri);
      return;
    }
  data = g_new0 (LaunchData, 1);
  data->self = g_object_ref (self);
  data->uri = g_strdup (uri);
  /* The second argument is a startup notification id: none, the file manager takes focus
   * as it can. */
  g_dbus_connection_call (bus, FILE_MANAGER_NAME, FILE_MANAGER_PATH, FILE_MANAGER_INTERFACE,
                          "ShowItems", g_variant_new ("(^ass)", items, ""), NULL,
                          G_DBUS_CALL_FLAGS_NONE, FILE_MANAGER_TIMEOUT_MS, NULL,
                          show_items_done, data);
}

static void
open_uri_action (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *parameter)
{
  launch_uri (PGS_WINDOW (widget), g_variant_get_string (parameter, NULL), FALSE);
}

static void
show_uri_in_folder_action (GtkWidget  *widget,
                           const char *action_name,
                           GVariant   *parameter)
{
  show_in_folder (PGS_WINDOW (widget), g_variant_get_string (parameter, NULL));
}

static void
on_open_clicked (AdwToast  *toast,
                 PgsWindow *self)
{
  gtk_widget_activate_action (GTK_WIDGET (self), g_object_get_data (G_OBJECT (toast), "open-action"),
                              "s", g_object_get_data (G_OBJECT (toast), "uri"));
}

/* libadwaita 1.2 frees a toast dismissed while its show animation (300 ms, 500 when it
 * replaces another) still runs, and the animation then touches the freed toast: a crash.
 * Pressing a button dismisses, so the buttons arrive only once the toast has slid in. */
#define TOAST_ARM_MS 700

static gboolean
arm_toast (gpointer data)
{
  AdwToast *toast = data;
  GtkWidget *button;

  adw_toast_set_button_label (toast, _("_Open"));
  button = g_object_get_data (G_OBJECT (toast), "folder-button");
  gtk_widget_set_can_target (button, TRUE);
  gtk_widget_set_can_focus (button, TRUE);
  return G_SOURCE_REMOVE;
}

/* The custom title is mapped when the toast starts to slide in (it may have waited in the
 * queue behind another). */
static void
on_toast_title_mapped (GtkWidget *title,
                       AdwToast  *toast)
{
  g_signal_handlers_disconnect_by_func (title, on_toast_title_mapped, toast);
  g_timeout_add_full (G_PRIORITY_DEFAULT, TOAST_ARM_MS, arm_toast, g_object_ref (toast),
                      g_object_unref);
}

static void
show_file_toast (PgsWindow  *self,
                 const char *text,
                 GFile      *file,
                 const char *open_action)
{
  AdwToast *toast = _pgs_window_add_toast (self, text);
  g_autofree char *uri = g_file_get_uri (file);
  GtkWidget *box, *label, *button;

  /* The Open button (the toast's own) is labelled once armed (arm_toast). Not the toast's action-name and action-target: libadwaita 1.2 hands them to its button
   * one after the other, and GTK warns about the action without its target between. */
  g_object_set_data_full (G_OBJECT (toast), "uri", g_strdup (uri), g_free);
  g_object_set_data (G_OBJECT (toast), "open-action", (gpointer) open_action);
  g_signal_connect_object (toast, "button-clicked", G_CALLBACK (on_open_clicked), self, 0);

  /* The text and a second button where libadwaita 1.2 puts the title. */
  box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  label = gtk_label_new (text);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_set_hexpand (label, TRUE);
  gtk_widget_add_css_class (label, "heading");
  gtk_box_append (GTK_BOX (box), label);
  button = gtk_button_new_with_mnemonic (_("Show in _Folder"));
  gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (button), "win.show-uri-in-folder");
  gtk_actionable_set_action_target (GTK_ACTIONABLE (button), "s", uri);
  /* As the toast's own button does: the choice is made, the toast goes. */
  g_signal_connect_object (button, "clicked", G_CALLBACK (adw_toast_dismiss), toast,
                           G_CONNECT_SWAPPED);
  gtk_box_append (GTK_BOX (box), button);
  /* Not insensitive: the action decides that. Out of reach of pointer and focus instead. */
  gtk_widget_set_can_target (button, FALSE);
  gtk_widget_set_can_focus (button, FALSE);
  g_object_set_data (G_OBJECT (toast), "folder-button", button);
  g_signal_connect (box, "map", G_CALLBACK (on_toast_title_mapped), toast);
  adw_toast_set_custom_title (toast, box);
}

void
_pgs_window_show_file_toast (PgsWindow  *self,
                             const char *text,
                             GFile      *file)
{
  show_file_toast (self, text, file, "win.open-uri");
}

/* A recording is opened here, in this window, not in whatever the desktop opens it with. */
void
_pgs_window_show_recording_toast (PgsWindow  *self,
                                  const char *text,
                                  GFile      *file)
{
  show_file_toast (self, text, file, "win.open-snapshot-file");
}

void
_pgs_window_open_class_init (GtkWidgetClass *widget_class)
{
  /**
   * PgsWindow::export-finished:
   * @file: where it went
   * @error: (nullable) (type gpointer): why it failed
   */
  export_finished_signal = g_signal_new ("export-finished", G_TYPE_FROM_CLASS (widget_class),
                                         G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                         G_TYPE_NONE, 2, G_TYPE_FILE, G_TYPE_POINTER);
  gtk_widget_class_install_action (widget_class, "win.open-uri", "s", open_uri_action);
  gtk_widget_class_install_action (widget_class, "win.show-uri-in-folder", "s",
                                   show_uri_in_folder_action);
}
