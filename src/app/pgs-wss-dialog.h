/* pgs-wss-dialog.h: asks before measuring a working set, then measures it
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "pagescope.h"

G_BEGIN_DECLS

#define PGS_TYPE_WSS_DIALOG (pgs_wss_dialog_get_type ())

G_DECLARE_FINAL_TYPE (PgsWssDialog, pgs_wss_dialog, PGS, WSS_DIALOG, GtkWindow)

/* @settings holds "wss-interval", which the interval spin button follows both ways. */
PgsWssDialog *pgs_wss_dialog_new            (GtkWindow    *parent,
                                             GSettings    *settings,
                                             int           pid,
                                             const char   *name);
int           pgs_wss_dialog_get_pid        (PgsWssDialog *self);
/* The privileged helper while the window is unlocked: measures other users' processes. */
void          pgs_wss_dialog_set_helper     (PgsWssDialog *self,
                                             PgsHelper    *helper);
void          pgs_wss_dialog_set_count      (PgsWssDialog *self,
                                             guint         count);
/* The method: FALSE for the referenced bits (the default), TRUE for paging out and watching
 * what returns (results through ::measured-pageout). */
void          pgs_wss_dialog_set_method     (PgsWssDialog *self,
                                             gboolean      pageout);
/* TRUE from Measure until the last sample is in, an error is shown or it is cancelled. */
gboolean      pgs_wss_dialog_is_running     (PgsWssDialog *self);
/* What went wrong, as shown in the dialog; NULL when nothing did. */
const char   *pgs_wss_dialog_get_error_text (PgsWssDialog *self);

G_END_DECLS
