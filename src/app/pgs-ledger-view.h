/* pgs-ledger-view.h: every byte of MemTotal as a stacked bar and a table
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "pagescope.h"
#include "pgs-units.h"

G_BEGIN_DECLS

#define PGS_TYPE_LEDGER_VIEW (pgs_ledger_view_get_type ())

G_DECLARE_FINAL_TYPE (PgsLedgerView, pgs_ledger_view, PGS, LEDGER_VIEW, GtkWidget)

GtkWidget       *pgs_ledger_view_new          (void);
/* The scan or snapshot file whose ledger is shown (pgs_ledger_new_for_snapshot()); NULL
 * shows nothing. */
void             pgs_ledger_view_set_snapshot (PgsLedgerView *self,
                                               PgsSnapshot   *snapshot);
/* The snapshot last given, while someone else still holds it (the view does not), or NULL. */
PgsSnapshot     *pgs_ledger_view_get_snapshot (PgsLedgerView *self);
void             pgs_ledger_view_set_units    (PgsLedgerView *self,
                                               PgsUnits       units);
/* The ledger shown, or NULL (no snapshot, or its counters could not be read). */
const PgsLedger *pgs_ledger_view_get_ledger   (PgsLedgerView *self);
/* The size the table shows for @row (PGS_LEDGER_N_ROWS: the unexplained rest,
 * PGS_LEDGER_N_ROWS + 1: MemTotal), as shown. */
const char      *pgs_ledger_view_get_size_text (PgsLedgerView *self,
                                                guint          row);
/* The bar's segments: how many, and the bytes of each (in the table's order; the
 * unexplained or unknown rest last when above 0). */
guint            pgs_ledger_view_get_n_segments (PgsLedgerView *self);
guint64          pgs_ledger_view_get_segment_bytes (PgsLedgerView *self,
                                                    guint          segment);

G_END_DECLS
