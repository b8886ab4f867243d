/* pgs-process-columns.h: the columns of the process list, their cells and their order
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "pagescope.h"
#include "pgs-row.h"
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
  PGS_PROCESS_COLUMN_CLEAN,
  PGS_PROCESS_COLUMN_DIRTY,
  PGS_PROCESS_COLUMN_SHARED,
  PGS_PROCESS_COLUMN_PRIVATE,
  PGS_PROCESS_COLUMN_CMDLINE,
  PGS_PROCESS_COLUMN_STARTED,
  PGS_PROCESS_N_COLUMNS
} PgsProcessColumn;

/* PID, user and name are always shown; the user chooses among the others. */
#define PGS_PROCESS_COLUMN_FIRST_OPTIONAL PGS_PROCESS_COLUMN_VSS

typedef struct _PgsProcessColumns PgsProcessColumns;

/* Appends every column to @view, each with its cells and its sorter (of PgsRow). */
PgsProcessColumns   *pgs_process_columns_new       (GtkColumnView     *view);
void                 pgs_process_columns_free      (PgsProcessColumns *self);
GtkColumnViewColumn *pgs_process_columns_get       (PgsProcessColumns *self,
                                                    PgsProcessColumn   column);
/* Shows the figures in @units: the cells on screen now, the others when they are bound. */
void                 pgs_process_columns_set_units (PgsProcessColumns *self,
                                                    PgsUnits           units);

/* Whether the name cells show the tree's expanders (the items are then GtkTreeListRow). */
void                 pgs_process_columns_set_tree  (PgsProcessColumns *self,
                                                    gboolean           tree);
/* The boot time (seconds since the epoch) the "Started" column counts from; 0 unknown. */
void                 pgs_process_columns_set_boot_time (PgsProcessColumns *self,
                                                        gint64             boot_time);
/* Shows the optional columns whose ids (pgs_process_columns_get_id()) are in @ids. */
void                 pgs_process_columns_show      (PgsProcessColumns  *self,
                                                    const char * const *ids);
const char          *pgs_process_columns_get_id    (PgsProcessColumn   column);
const char          *pgs_process_columns_get_title (PgsProcessColumn   column);
/* The PgsRow of a list item, a PgsRow or a GtkTreeListRow of one. */
PgsRow              *pgs_process_columns_get_row   (gpointer           item);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PgsProcessColumns, pgs_process_columns_free)

G_END_DECLS
