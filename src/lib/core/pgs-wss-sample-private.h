/* pgs-wss-sample-private.h: how PgsWss builds a PgsWssSample
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "pgs-wss-sample.h"

G_BEGIN_DECLS

PgsWssSample *pgs_wss_sample_new          (int                  pid,
                                           PgsWssScope          scope,
                                           guint                page_size,
                                           PgsWssPages          sources,
                                           const char          *idle_reason,
                                           const char          *soft_dirty_reason);
/* Copies @mapping (and its path). Mappings come in address order. */
void          pgs_wss_sample_add_mapping  (PgsWssSample        *self,
                                           const PgsWssMapping *mapping);
/* Records one page of known state; consecutive pages of equal state become one run. Pages
 * come in address order. */
void          pgs_wss_sample_add_page     (PgsWssSample        *self,
                                           guint64              address,
                                           PgsWssPageState      state);
/* What pgs-wss-trust.c found out about the interval. */
void          pgs_wss_sample_add_caveat   (PgsWssSample        *self,
                                           PgsWssCaveatKind     kind,
                                           const char          *id,
                                           const char          *message);
void          pgs_wss_sample_set_ran      (PgsWssSample        *self,
                                           PgsWssRan            ran,
                                           gint64               cpu_time,
                                           guint64              switches);
/* Sums the totals and stamps the times; the sample is immutable afterwards. */
void          pgs_wss_sample_seal         (PgsWssSample        *self,
                                           gint64               elapsed,
                                           gint64               time);

G_END_DECLS
