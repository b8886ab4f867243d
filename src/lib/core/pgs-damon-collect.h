/* pgs-damon-collect.h: read a running kdamond's aggregations for a while
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "pgs-damon-access.h"
#include "pgs-damon-sysfs.h"
#include "pgs-helper.h"

G_BEGIN_DECLS

typedef struct
{
  PgsDamonSysfs  *before;        /* DAMON's sysfs when the read began */
  PgsDamonAccess *access;        /* what came */
  char           *instance;      /* the tracefs instance used (removed by now) */
  gboolean        private_mount; /* tracefs was mounted in a namespace of our own */
  double          seconds;       /* how long it read */
  gboolean        interrupted;   /* cut short by *@stop */
  guint64         ram_end;       /* the end of System RAM in /proc/iomem, 0 if unknown */
  GPtrArray      *messages;      /* a kdamond that stopped or changed mid-read, a failed
                                  * clean-up: translated */
} PgsDamonCollection;

/* Reads for @seconds (0: two aggregation intervals of the slowest running kdamond, at
 * least 5 s) or until *@stop becomes non-zero (a signal handler's flag). DAMON's sysfs
 * from @sysfs_root (NULL: /sys), /proc/iomem from @procfs_root (NULL: /proc). Fails when
 * no kdamond runs (the reason says whether one could be started) or tracefs cannot be had. */
PgsDamonCollection *pgs_damon_collect        (const char                  *sysfs_root,
                                              const char                  *procfs_root,
                                              double                       seconds,
                                              volatile const int          *stop,
                                              GError                     **error);
/* The same read through pagescope-helper (ACCESS, pgs_helper_read_access()), for a user
 * who is not root: @seconds rounded up to whole seconds, at most 600. Cancelling fails with
 * G_IO_ERROR_CANCELLED (the helper removes its instance; see pgs_helper_read_access()); the
 * collection is never "interrupted". DAMON's sysfs and /proc/iomem are read as the caller:
 * where DAMON's sysfs is root's (its files are 0600), the read goes ahead with no kdamond
 * known (its @before empty; @seconds 0 reads 10 s) and the monitor's intervals unknown. */
PgsDamonCollection *pgs_damon_collect_through_helper (PgsHelper                *helper,
                                                      const char               *sysfs_root,
                                                      const char               *procfs_root,
                                                      double                    seconds,
                                                      GCancellable             *cancellable,
                                                      GError                  **error);
void                pgs_damon_collection_free (PgsDamonCollection        *self);

/* The end of the highest "System RAM" range of /proc/iomem (@procfs_root NULL: /proc), or
 * 0 when it cannot be known (no root: the kernel shows zeros). */
guint64             pgs_damon_ram_end        (const char                  *procfs_root);

/* The running kdamond's context that produced @aggregation, or NULL. */
const PgsDamonContext *pgs_damon_collection_context (PgsDamonCollection         *self,
                                                     const PgsDamonAggregation  *aggregation);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PgsDamonCollection, pgs_damon_collection_free)

G_END_DECLS
