/* pgs-process-columns.h: the columns of the process list, their cells and their order
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "pagescope.h"
#include "pgs-units.h"

G_BEGIN_DECLS

typedef enum
{
  PGS_PROCESS_COLUMN_PID,
  PGS_PROCESS_COLUMN_USER,
  PGS_PROCESS_COLUMN_NAME,
  PGS_PROCESS_COLUMN_VSS,
  PGS_PROCESS_COLUMN_RSS,
  PGS_PROCESS_COLUMN_PSS,
  PGS_PROCESS_COLUMN_USS,
  PGS_PROCESS_COLUMN_SWAP,
  PGS_PROCESS_N_COLUMNS
} PgsProcessColumn;

typedef struct _PgsProcessColumns PgsProcessColumns;

/* Appends every column to @view, each with its cells and its sorter (of PgsRow). */
PgsProcessColumns   *pgs_process_columns_new       (GtkColumnView     *view);
void                 pgs_process_columns_free      (PgsProcessColumns *self);
GtkColumnViewColumn *pgs_process_columns_get       (PgsProcessColumns *self,
                                                    PgsProcessColumn   column);
/* Shows the figures in @units: the cells on screen now, the others when they are bound. */
void                 pgs_process_columns_set_units (PgsProcessColumns *self,
                                                    PgsUnits           units);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PgsProcessColumns, pgs_process_columns_free)

G_END_DECLS
