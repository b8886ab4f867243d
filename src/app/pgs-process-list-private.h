/* pgs-process-list-private.h: what the process list's files share
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "pgs-process-columns.h"
#include "pgs-process-list.h"
#include "pgs-process-tree.h"

G_BEGIN_DECLS

struct _PgsProcessList
{
  PgsPage              parent_instance;

  PgsSnapshot         *snapshot;
  PgsUnits             units;
  char                *search;       /* casefolded */
  gboolean             swapping;
  gboolean             mine;         /* only the processes of the user running the app */
  gint64               boot_time;    /* this boot's, for live snapshots; 0 unknown */
  char                *wss_reason;   /* why win.measure-wss is off, from the window */
  GSignalGroup        *replay_signals; /* the session's replay, while a recording is shown */
  PgsGrowth           *growth;       /* its Growth figures, for the Growth cells and sorter */
  GSettings           *settings;
  GSimpleActionGroup  *actions;      /* "proc": show-processes, tree, column-* */
  GtkWidget           *menu;         /* the context menu, once first shown */
  gboolean             view_menu_file; /* the view menu is for a snapshot file */

  GListStore          *store;        /* PgsRow of PgsProcess, in PID order like the snapshot */
  GtkFilterListModel  *filter_model;
  GListModel          *processes;    /* the sorted rows mapped to their PgsProcess */
  GtkSortListModel    *sort_model;
  GtkSingleSelection  *selection;
  GtkCustomFilter     *filter;
  PgsProcessTree      *tree;
  GtkSorter           *view_sorter;  /* the column view's, for the flat list */
  GtkSorter           *row_sorter;   /* the same over the tree's rows */

  /* template children */
  GtkSearchEntry      *search_entry;
  GtkMenuButton       *view_button;
  GtkScrolledWindow   *scroller;
  GtkColumnView       *column_view;
  GtkColumnViewColumn *pss_column;
  GtkSorter           *growth_sorter;
  GtkLabel            *count_label;
  GtkLabel            *totals_label;
  GtkLabel            *instant_label;
};

/* pgs-process-list-actions.c: the "proc" actions (show-processes, tree, column-*) and their
 * settings, the list.* actions of the context menu but show-pages, and the menu itself.
 * The list calls these; they never call the list back: it follows the actions' state
 * ("action-state-changed" of self->actions). */
void _pgs_process_list_class_init_actions (GtkWidgetClass *widget_class);
void _pgs_process_list_init_actions       (PgsProcessList *self);

/* The selected row's process, or NULL (both files read it). */
static inline PgsProcess *
_pgs_process_list_selected (PgsProcessList *self)
{
  gpointer item = gtk_single_selection_get_selected_item (self->selection);

  return item != NULL ? pgs_row_get_item (pgs_process_columns_get_row (item)) : NULL;
}
/* The view menu; for a file (@file) it says the process filter applies to live data only. */
void _pgs_process_list_update_view_menu   (PgsProcessList *self,
                                           gboolean        file);

/* pgs-process-list-totals.c: how many processes are shown, and their totals. */
void _pgs_process_list_update_count       (PgsProcessList *self);
void _pgs_process_list_update_totals      (PgsProcessList *self);

G_END_DECLS
