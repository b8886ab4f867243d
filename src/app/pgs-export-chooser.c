/* pgs-export-chooser.c: the file chooser an export asks with
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * For an export a widget starts itself (the timeline's PNG): the same chooser as the
 * window's exports, GtkFileChooserNative (GtkFileDialog is GTK 4.10).
 */

#include "config.h"

#include <glib/gi18n.h>

#include "pgs-export-chooser.h"

GtkNativeDialog *
pgs_export_chooser_new (GtkWidget  *widget,
                        const char *title,
                        const char *name,
                        const char *mime_type,
                        GSettings  *settings)
{
  GtkRoot *root;
  GtkFileChooserNative *chooser;
  g_autoptr(GtkFileFilter) filter = gtk_file_filter_new ();

  g_return_val_if_fail (GTK_IS_WIDGET (widget), NULL);

  root = gtk_widget_get_root (widget);
  chooser = gtk_file_chooser_native_new (title, GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                         GTK_FILE_CHOOSER_ACTION_SAVE, _("_Export"), _("_Cancel"));
  gtk_file_filter_add_mime_type (filter, mime_type);
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), filter);
  if (settings != NULL)
    {
      g_autofree char *folder = g_settings_get_string (settings, "export-folder");

      if (*folder != '\0')
        {
          g_autoptr(GFile) dir = g_file_new_for_uri (folder);

          gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (chooser), dir, NULL);
        }
    }
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), name);
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  return GTK_NATIVE_DIALOG (chooser);
}
