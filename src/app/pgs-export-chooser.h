/* pgs-export-chooser.h: the file chooser an export asks with
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* A modal save chooser over @widget's window for @mime_type files, named @name, in the
 * folder of the last export (@settings' "export-folder", when given). Not shown yet: the
 * caller connects "response" and shows it, and keeps it while it emits. */
GtkNativeDialog *pgs_export_chooser_new (GtkWidget  *widget,
                                         const char *title,
                                         const char *name,
                                         const char *mime_type,
                                         GSettings  *settings);

G_END_DECLS
