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
  GSettings           *settings;
  GSimpleActionGroup  *actions;      /* "proc": show-processes, tree, column-* */
  GtkWidget           *menu;

  GListStore          *store;        /* PgsRow of PgsProcess, in PID order like the snapshot */
  GtkFilterListModel  *filter_model;
  GListModel          *processes;    /* the sorted rows mapped to their PgsProcess */
  GtkSortListModel    *sort_model;
  GtkSingleSelection  *selection;
  GtkCustomFilter     *filter;
  PgsProcessTree      *tree;
  GtkSorter           *view_sorter;  /* the column view's, for the flat list */
  GtkSorter           *row_sorter;   /* the same over the tree's rows */
  PgsProcessColumns   *columns;

  /* template children */
  GtkSearchEntry      *search_entry;
  GtkMenuButton       *view_button;
  GtkScrolledWindow   *scroller;
  GtkColumnView       *column_view;
  GtkLabel            *count_label;
  GtkLabel            *totals_label;
};

/* pgs-process-list-actions.c: the "proc" actions (show-processes, tree, column-*) and their
 * settings, the list.* actions of the context menu, and the menu itself. */
void pgs_process_list_class_init_actions (GtkWidgetClass *widget_class);
void pgs_process_list_init_actions       (PgsProcessList *self);
/* The view menu; for a file (@file) it says the process filter applies to live data only. */
void pgs_process_list_update_view_menu   (PgsProcessList *self,
                                          gboolean        file);
/* Applies a change of "my processes" or of the tree (pgs-process-list.c). */
void pgs_process_list_refilter           (PgsProcessList *self);
void pgs_process_list_apply_tree         (PgsProcessList *self,
                                          gboolean        tree);
/* The position of the row shown at (@x, @y) of the list, GTK_INVALID_LIST_POSITION if none. */
guint pgs_process_list_row_at            (PgsProcessList *self,
                                          double          x,
                                          double          y);

G_END_DECLS
