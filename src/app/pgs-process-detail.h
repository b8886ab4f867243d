/* pgs-process-detail.h: the numbers and mappings of one process
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "pagescope.h"
#include "pgs-units.h"
#include "pgs-wss-chart.h"

G_BEGIN_DECLS

#define PGS_TYPE_PROCESS_DETAIL (pgs_process_detail_get_type ())

G_DECLARE_FINAL_TYPE (PgsProcessDetail, pgs_process_detail, PGS, PROCESS_DETAIL, GtkWidget)

GtkWidget  *pgs_process_detail_new          (void);
PgsProcess *pgs_process_detail_get_process  (PgsProcessDetail *self);
void        pgs_process_detail_set_process  (PgsProcessDetail *self,
                                             PgsProcess       *process);
/* The snapshot's physical map, for the process's huge-page frames; NULL for none. Set it
 * before the process of that snapshot. */
void        pgs_process_detail_set_physmap  (PgsProcessDetail *self,
                                             PgsPhysMap       *physmap);
void        pgs_process_detail_set_units    (PgsProcessDetail *self,
                                             PgsUnits          units);
/* The text of the label showing @metric, for tests. */
const char *pgs_process_detail_get_metric_text (PgsProcessDetail *self,
                                                PgsMetric         metric);
/* The mappings as shown, sorted. */
GListModel *pgs_process_detail_get_mappings (PgsProcessDetail *self);

/* A working-set series of @pid (PgsWssSample, oldest first; NULL or empty for none): fills
 * the Referenced column and the chart. Kept while @pid stays selected. */
void        pgs_process_detail_set_wss_samples     (PgsProcessDetail  *self,
                                                    int                pid,
                                                    GPtrArray         *samples);
GPtrArray  *pgs_process_detail_get_wss_samples     (PgsProcessDetail  *self);
PgsWssChart *pgs_process_detail_get_wss_chart      (PgsProcessDetail  *self);
/* What the shown figure rests on, as shown; NULL before any measurement. */
const char *pgs_process_detail_get_wss_basis_text  (PgsProcessDetail  *self);
/* The caveats beside the figure (NULL when there are none), and the figure's own line. */
const char *pgs_process_detail_get_wss_caveat_text (PgsProcessDetail *self);
const char *pgs_process_detail_get_wss_total_text  (PgsProcessDetail *self);
/* The Referenced cell of @mapping, and its tooltip, as shown. */
char       *pgs_process_detail_get_referenced_text (PgsProcessDetail  *self,
                                                    PgsMapping        *mapping,
                                                    const char       **tooltip);

/* Why the working set of the shown process cannot be measured (the button's tooltip while
 * win.measure-wss is disabled), or NULL when it can. */
void        pgs_process_detail_set_wss_blocked_reason (PgsProcessDetail *self,
                                                       const char       *reason);
const char *pgs_process_detail_get_wss_tooltip        (PgsProcessDetail *self);
GtkWidget  *pgs_process_detail_get_wss_button         (PgsProcessDetail *self);

G_END_DECLS
