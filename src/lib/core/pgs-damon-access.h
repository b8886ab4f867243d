/* pgs-damon-access.h: DAMON's trace lines gathered into an access picture
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Time × physical address: per aggregation of a kdamond's target, its regions with their
 * nr_accesses and age, as the tracepoint gave them. A region's rate is the region's, not
 * each frame's: DAMON samples one address per region per sampling interval.
 */

#pragma once

#include <glib.h>

#include "pgs-damon-trace.h"

G_BEGIN_DECLS

typedef struct
{
  guint64 start;        /* bytes */
  guint64 end;
  guint32 nr_accesses;  /* sampling intervals with an access, in the last aggregation */
  guint32 age;          /* aggregation intervals the region kept its access rate */
} PgsDamonRegion;

typedef struct
{
  guint64  timestamp_ns;  /* of its first line */
  char     timestamp[32];
  int      pid;           /* the kdamond's */
  guint64  target_id;
  guint32  nr_regions;    /* as the lines said: regions->len once complete */
  GArray  *regions;       /* PgsDamonRegion, nr_regions of them, in address order */
} PgsDamonAggregation;

typedef struct _PgsDamonAccess PgsDamonAccess;

/* @ram_end: regions past it are errors (0: no check). */
PgsDamonAccess *pgs_damon_access_new            (guint64          ram_end);
void            pgs_damon_access_free           (PgsDamonAccess  *self);

/* Lines from the kdamond with PID @pid are scaled by @addr_unit (1 by default). */
void            pgs_damon_access_set_addr_unit  (PgsDamonAccess  *self,
                                                 int              pid,
                                                 guint64          addr_unit);
/* Bytes as trace_pipe gives them: lines may be cut anywhere between two calls. */
void            pgs_damon_access_feed           (PgsDamonAccess  *self,
                                                 const char      *buf,
                                                 gsize            len);
/* The end of input: a line or aggregation left unfinished is counted as incomplete. */
void            pgs_damon_access_finish         (PgsDamonAccess  *self);

/* PgsDamonAggregation, complete ones only, in the order they completed. */
GPtrArray      *pgs_damon_access_get_aggregations (PgsDamonAccess *self);

typedef struct
{
  guint64 lines;        /* every line */
  guint64 events;       /* damon_aggregated lines that parsed */
  guint64 errors;       /* lines that did not (unknown format, beyond RAM, cut short) */
  guint64 lost;         /* events the ring buffer dropped ("LOST N EVENTS") */
  guint64 incomplete;   /* aggregations seen only in part (the read began or ended in one,
                         * or lines were lost) */
} PgsDamonAccessCounts;

void            pgs_damon_access_get_counts     (PgsDamonAccess       *self,
                                                 PgsDamonAccessCounts *counts);
/* The first errors' messages (at most 16), translated. */
GPtrArray      *pgs_damon_access_get_messages   (PgsDamonAccess  *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PgsDamonAccess, pgs_damon_access_free)

G_END_DECLS
