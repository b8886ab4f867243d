/* pgs-compare.h: two snapshots side by side
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "pgs-types.h"

G_BEGIN_DECLS

typedef enum
{
  PGS_COMPARE_BOTH,  /* the same process (PID and start time) in both */
  PGS_COMPARE_GONE,  /* only in the old snapshot */
  PGS_COMPARE_NEW,   /* only in the new snapshot */
} PgsCompareStatus;

typedef struct
{
  int               pid;
  PgsCompareStatus  status;
  PgsProcess       *old_process;  /* NULL where absent */
  PgsProcess       *new_process;  /* NULL where absent */
} PgsCompareEntry;

/* The processes of both snapshots, matched by PID and start time (a PID reused by another
 * process is one gone and one new), as an array of PgsCompareEntry holding references
 * (freed with the array), sorted by the size of the PSS change, largest first; entries whose
 * PSS is unknown on a side they exist on follow, by PID. */
GArray      *pgs_compare_snapshots (PgsSnapshot *old_snapshot,
                                    PgsSnapshot *new_snapshot);

/* The PSS change of @entry in bytes (a gone process: minus its PSS); FALSE when unknown. */
gboolean     pgs_compare_entry_get_diff (const PgsCompareEntry *entry,
                                         PgsMetric              metric,
                                         gint64                *diff);

G_END_DECLS
