/* pgs-region-holdings.h: what a range of physical memory holds, by process, application
 * and file
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "pagescope.h"

G_BEGIN_DECLS

#define PGS_TYPE_REGION_HOLDINGS (pgs_region_holdings_get_type ())

G_DECLARE_FINAL_TYPE (PgsRegionHoldings, pgs_region_holdings, PGS, REGION_HOLDINGS, GtkWidget)

/* Reads what physical addresses [@start, @end) hold, from @snapshot's pages or (when it has
 * none, or is NULL) a scan of every process's pages, and says it. */
void        pgs_region_holdings_show         (PgsRegionHoldings *self,
                                              PgsSnapshot       *snapshot,
                                              guint64            start,
                                              guint64            end);
/* Hides it and drops the pages read (new heat is shown). */
void        pgs_region_holdings_clear        (PgsRegionHoldings *self);
/* For tests: the sums shown (PgsFrameHolding, paths owned by the scan), NULL while read. */
GArray     *pgs_region_holdings_get_holdings (PgsRegionHoldings *self);
const char *pgs_region_holdings_get_text     (PgsRegionHoldings *self);

G_END_DECLS
