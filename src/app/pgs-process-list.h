/* pgs-process-list.h: the ranked, searchable list of processes
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "pagescope.h"
#include "pgs-page.h"
#include "pgs-units.h"

G_BEGIN_DECLS

#define PGS_TYPE_PROCESS_LIST (pgs_process_list_get_type ())

/* A page of the session (pgs-page.h). */
G_DECLARE_FINAL_TYPE (PgsProcessList, pgs_process_list, PGS, PROCESS_LIST, PgsPage)

GtkWidget   *pgs_process_list_new                  (void);
PgsSnapshot *pgs_process_list_get_snapshot         (PgsProcessList *self);
void         pgs_process_list_set_snapshot         (PgsProcessList *self,
                                                    PgsSnapshot    *snapshot);
PgsProcess  *pgs_process_list_get_selected_process (PgsProcessList *self);
gboolean     pgs_process_list_select_pid           (PgsProcessList *self,
                                                    int             pid);
/* Scrolls the list so the selected row is in view (after a selection the user did not make
 * in the list: --pid, a frame's user, another view). */
void        pgs_process_list_scroll_to_selected (PgsProcessList *self);
void         pgs_process_list_set_units            (PgsProcessList *self,
                                                    PgsUnits        units);
void         pgs_process_list_focus_search         (PgsProcessList *self);
void         pgs_process_list_set_search_text      (PgsProcessList *self,
                                                    const char     *text);
/* With a recording shown: which sample the totals are of, and when; else NULL. */
const char  *pgs_process_list_get_instant_text     (PgsProcessList *self);
/* The rows as shown: filtered and sorted. */
GListModel  *pgs_process_list_get_model            (PgsProcessList *self);
GtkWidget   *pgs_process_list_get_column_view      (PgsProcessList *self);

/* The "proc" actions: show-processes ('mine', 'all'), tree, column-ID (vss, rss, pss, uss,
 * swap, clean, dirty, shared, private, cmdline, started); the window inserts them. */
GActionGroup *pgs_process_list_get_actions         (PgsProcessList *self);
/* Why win.measure-wss is disabled for the selected process (the context menu says so);
 * NULL when it is not. */
void         pgs_process_list_set_wss_reason       (PgsProcessList *self,
                                                    const char     *reason);
/* The context menu (a GtkPopover, see pgs-process-menu.h), brought up to date. */
GtkWidget   *pgs_process_list_get_context_menu     (PgsProcessList *self);
/* In the tree: whether the row of @pid is expanded. */
gboolean     pgs_process_list_is_expanded          (PgsProcessList *self,
                                                    int             pid);

G_END_DECLS
