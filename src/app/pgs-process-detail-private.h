/* pgs-process-detail-private.h: the process detail's internals, shared by the
 * pgs-process-detail*.c files
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "pgs-process-detail.h"

G_BEGIN_DECLS

typedef enum
{
  MCOL_START,
  MCOL_PERMS,
  MCOL_OFFSET,
  MCOL_LABEL,
  MCOL_VSS,
  MCOL_RSS,
  MCOL_REFERENCED,
  MCOL_PSS,
  MCOL_USS,
  MCOL_SWAP,
  N_MCOLS
} MappingColumn;

typedef struct
{
  PgsProcessDetail *self;
  MappingColumn     column;
} ColumnData;

/* The figures above the table: VSS, RSS, PSS, USS and Swap. */
#define PGS_PROCESS_DETAIL_N_METRICS 5

struct _PgsProcessDetail
{
  PgsPage              parent_instance;

  GtkButton           *wss_button;
  GtkButton           *pages_button;

  PgsProcess          *process;
  PgsUnits             units;
  gboolean             stale;      /* the process changed and the view has not caught up */
  guint                update_source;

  GListStore          *store;      /* PgsRow of PgsMapping, in address order */
  GtkSortListModel    *sort_model;
  GListModel          *mappings;   /* the sorted rows mapped to their PgsMapping */
  GtkColumnViewColumn *column_objects[N_MCOLS];
  ColumnData           column_data[N_MCOLS];

  /* The last working-set series, of wss_pid: kept across refreshes while that PID is
   * selected, dropped when another process is. */
  int                  wss_pid;
  GPtrArray           *wss_samples;   /* PgsWssSample, oldest first; NULL before any */
  GPtrArray           *referenced_items; /* the bound GtkListItems of the Referenced column */
  GPtrArray           *bound_items;      /* every bound GtkListItem, for a change of units */
  PgsPhysMap          *physmap;          /* the snapshot's, for the THP frames; or NULL */

  /* template children */
  GtkStack            *stack;
  GtkLabel            *name_label;
  GtkLabel            *info_label;
  GtkLabel            *cmdline_label;
  GtkLabel            *source_label;
  GtkLabel            *notes_label;
  GtkLabel            *metric_labels[PGS_PROCESS_DETAIL_N_METRICS];
  GtkColumnView       *column_view;
  GtkWidget           *wss_box;
  PgsWssChart         *wss_chart;
  GtkLabel            *wss_total_label;
  GtkLabel            *wss_basis_label;
  GtkLabel            *wss_caveat_label;
};

/* pgs-process-detail-mappings.c */
/* Appends the mapping columns to the column view, each with its cells and its sorter. */
void     pgs_process_detail_add_columns               (PgsProcessDetail *self);
/* New samples: the Referenced cells and their sort order follow. */
void     pgs_process_detail_refresh_referenced_column (PgsProcessDetail *self);
/* New units: the bound size cells are written again. */
void     pgs_process_detail_update_size_cells         (PgsProcessDetail *self);
/* Whether two mappings at one position show the same cells (pgs_row_store_assign()). */
gboolean pgs_process_detail_mapping_equal             (gpointer          a,
                                                       gpointer          b);

G_END_DECLS
