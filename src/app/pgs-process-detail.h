/* pgs-process-detail.h: the numbers and mappings of one process
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "pagescope.h"
#include "pgs-units.h"

G_BEGIN_DECLS

#define PGS_TYPE_PROCESS_DETAIL (pgs_process_detail_get_type ())

G_DECLARE_FINAL_TYPE (PgsProcessDetail, pgs_process_detail, PGS, PROCESS_DETAIL, GtkWidget)

GtkWidget  *pgs_process_detail_new          (void);
PgsProcess *pgs_process_detail_get_process  (PgsProcessDetail *self);
void        pgs_process_detail_set_process  (PgsProcessDetail *self,
                                             PgsProcess       *process);
void        pgs_process_detail_set_units    (PgsProcessDetail *self,
                                             PgsUnits          units);
/* The text of the label showing @metric, for tests. */
const char *pgs_process_detail_get_metric_text (PgsProcessDetail *self,
                                                PgsMetric         metric);
/* The mappings as shown, sorted. */
GListModel *pgs_process_detail_get_mappings (PgsProcessDetail *self);

G_END_DECLS
