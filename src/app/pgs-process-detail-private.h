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

  /* The last working-set series, of wss_pid: kept across refreshes while that PID is
   * selected, dropped when another process is. */
  int                  wss_pid;
  GPtrArray           *wss_samples;   /* PgsWssSample, oldest first; NULL before any */
  PgsPhysMap          *physmap;          /* the snapshot's, for the THP frames; or NULL */

  /* template children */
  GtkStack            *stack;
  GtkFlowBox          *metrics_box;
  GtkWidget           *scroller;
  GtkLabel            *name_label;
  GtkLabel            *info_label;
  GtkLabel            *cmdline_label;
  GtkLabel            *source_label;
  GtkLabel            *notes_label;
  GtkLabel            *metric_labels[PGS_PROCESS_DETAIL_N_METRICS];
  GtkColumnView       *column_view;
  GtkColumnViewColumn *start_column;
  GtkColumnViewColumn *referenced_column;
  GtkWidget           *wss_box;
  PgsWssChart         *wss_chart;
  GtkLabel            *wss_total_label;
  GtkLabel            *wss_basis_label;
  GtkLabel            *wss_caveat_label;
};

/* pgs-process-detail-mappings.c */
/* Binds the closures of the mappings table's template. */
void     pgs_process_detail_class_add_mapping_callbacks (GtkWidgetClass *widget_class);
/* The Referenced cell of @mapping after @sample, the last of a series (NULL: none), and
 * its tooltip. */
char    *pgs_process_detail_referenced_text (PgsWssSample  *sample,
                                             PgsMapping    *mapping,
                                             PgsUnits       units,
                                             const char   **tooltip);
/* Whether two mappings at one position show the same cells (pgs_row_store_assign()). */
gboolean pgs_process_detail_mapping_equal             (gpointer          a,
                                                       gpointer          b);

G_END_DECLS
