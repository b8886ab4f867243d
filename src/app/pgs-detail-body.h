/* pgs-detail-body.h: what the process detail shows of one process
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

#define PGS_TYPE_DETAIL_BODY (pgs_detail_body_get_type ())

/* The "detail" page of PgsProcessDetail: the process's name and figures, its working set,
 * the buttons for its pages and working set, and the table of its mappings. It is told
 * what to show and keeps nothing else: the detail creates it the first time a process is
 * shown, and hands it what it holds. Its "wss-sample" is the last sample shown (the
 * Referenced column sorts by it). The table's cells find the detail as their "page". */
G_DECLARE_FINAL_TYPE (PgsDetailBody, pgs_detail_body, PGS, DETAIL_BODY, GtkWidget)

GtkWidget  *pgs_detail_body_new              (void);
/* Shows @process (NULL: nothing, the table empty), in @units; @physmap (or NULL) is the
 * snapshot's physical map, which counts the process's huge-page frames. */
void        pgs_detail_body_show_process     (PgsDetailBody *self,
                                              PgsProcess    *process,
                                              PgsPhysMap    *physmap,
                                              PgsUnits       units);
void        pgs_detail_body_set_units        (PgsDetailBody *self,
                                              PgsUnits       units);
/* The last sample of a working-set series (the "wss-sample" shown), or NULL. */
PgsWssSample *pgs_wss_series_last            (GPtrArray     *series);
/* Keeps @samples (a working-set series, PgsWssSample; NULL or empty for none) in @series,
 * holding a reference; TRUE when it is another series than before. */
gboolean    pgs_wss_series_replace           (GPtrArray    **series,
                                              GPtrArray     *samples);
/* A working-set series (PgsWssSample, oldest first; NULL or empty for none). */
void        pgs_detail_body_set_wss_samples  (PgsDetailBody *self,
                                              GPtrArray     *samples);
/* The buttons' tooltips: why their action is disabled, or NULL for what they do. */
void        pgs_detail_body_set_wss_blocked_reason   (PgsDetailBody *self,
                                                      const char    *reason);
void        pgs_detail_body_set_pages_blocked_reason (PgsDetailBody *self,
                                                      const char    *reason);

/* As shown, for the detail's getters (pgs-process-detail.h). */
/* The Referenced cell of @mapping, and its tooltip (@tooltip may be NULL). */
char        *pgs_detail_body_get_referenced_text (PgsDetailBody  *self,
                                                  PgsMapping     *mapping,
                                                  const char    **tooltip);
const char  *pgs_detail_body_get_metric_text     (PgsDetailBody *self,
                                                  PgsMetric      metric);
GListModel  *pgs_detail_body_get_mappings        (PgsDetailBody *self);
PgsWssChart *pgs_detail_body_get_wss_chart       (PgsDetailBody *self);
const char  *pgs_detail_body_get_wss_basis_text  (PgsDetailBody *self);
const char  *pgs_detail_body_get_wss_caveat_text (PgsDetailBody *self);
const char  *pgs_detail_body_get_wss_total_text  (PgsDetailBody *self);
GtkWidget   *pgs_detail_body_get_wss_button      (PgsDetailBody *self);
GtkWidget   *pgs_detail_body_get_pages_button    (PgsDetailBody *self);

G_END_DECLS
