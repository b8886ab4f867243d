/* pgs-process-detail.h: the numbers and mappings of one process
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "pagescope.h"
#include "pgs-page.h"
#include "pgs-units.h"
#include "pgs-wss-chart.h"

G_BEGIN_DECLS

#define PGS_TYPE_PROCESS_DETAIL (pgs_process_detail_get_type ())

/* A page of the session (pgs-page.h): its "process" is the session's selected process; the
 * snapshot's physical map, the units and the working-set samples follow the session. */
G_DECLARE_FINAL_TYPE (PgsProcessDetail, pgs_process_detail, PGS, PROCESS_DETAIL, PgsPage)

GtkWidget  *pgs_process_detail_new          (void);
/* Builds the body (what a shown process fills) now rather than when first needed: for a
 * process chosen before the window is on screen (`--pid`), whose figures come in the frame
 * after the first one. */
void        pgs_process_detail_prepare      (PgsProcessDetail *self);
PgsProcess *pgs_process_detail_get_process  (PgsProcessDetail *self);
void        pgs_process_detail_set_process  (PgsProcessDetail *self,
                                             PgsProcess       *process);
/* The text of the label showing @metric, for tests. */
const char *pgs_process_detail_get_metric_text (PgsProcessDetail *self,
                                                PgsMetric         metric);
/* The mappings as shown, sorted. */
GListModel *pgs_process_detail_get_mappings (PgsProcessDetail *self);

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
/* Why Show Pages (win.show-pages) is disabled for the shown process, or NULL. */
void        pgs_process_detail_set_pages_blocked_reason (PgsProcessDetail *self,
                                                         const char       *reason);
GtkWidget  *pgs_process_detail_get_pages_button       (PgsProcessDetail *self);

G_END_DECLS
