/* pgs-detail-body-private.h: the detail body's internals, shared by the pgs-detail-body*.c
 * files
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "pgs-detail-body.h"

G_BEGIN_DECLS

/* The figures beside the name: VSS, RSS, PSS, USS and Swap. */
#define PGS_DETAIL_BODY_N_METRICS 5

struct _PgsDetailBody
{
  GtkWidget            parent_instance;

  PgsProcess          *process;       /* the one shown, or NULL */
  PgsUnits             units;
  GPtrArray           *wss_samples;   /* PgsWssSample, oldest first; NULL for none */

  GListStore          *store;         /* PgsRow of PgsMapping, in address order */
  GtkSortListModel    *sort_model;
  GListModel          *mappings;      /* the sorted rows mapped to their PgsMapping */

  /* template children */
  GtkWidget           *content;       /* the one child: unparented at dispose */
  GtkFlowBox          *metrics_box;
  GtkLabel            *name_label;
  GtkLabel            *info_label;
  GtkLabel            *cmdline_label;
  GtkLabel            *source_label;
  GtkLabel            *notes_label;
  GtkLabel            *metric_labels[PGS_DETAIL_BODY_N_METRICS];
  GtkButton           *wss_button;
  GtkButton           *pages_button;
  GtkColumnView       *column_view;
  GtkColumnViewColumn *start_column;
  GtkColumnViewColumn *referenced_column;
  GtkWidget           *wss_box;
  PgsWssChart         *wss_chart;
  GtkLabel            *wss_total_label;
  GtkLabel            *wss_basis_label;
  GtkLabel            *wss_caveat_label;
};

/* pgs-detail-body-mappings.c */
/* Binds the closures of the mappings table's template. */
void     _pgs_detail_body_class_add_mapping_callbacks (GtkWidgetClass *widget_class);
/* The Referenced cell of @mapping after @sample, the last of a series (NULL: none), and
 * its tooltip. */
char    *_pgs_detail_body_referenced_text             (PgsWssSample  *sample,
                                                       PgsMapping    *mapping,
                                                       PgsUnits       units,
                                                       const char   **tooltip);
/* Whether two mappings at one position show the same cells (pgs_row_store_assign()). */
gboolean _pgs_detail_body_mapping_equal               (gpointer       a,
                                                       gpointer       b);

G_END_DECLS
