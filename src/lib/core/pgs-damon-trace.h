/* pgs-damon-trace.h: lines of the damon:damon_aggregated tracepoint
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * trace_pipe prints one line per region per aggregation:
 *   kdamond.0-107 [003] ..... 5123.456789: damon_aggregated: target_id=0 nr_regions=1432 4294967296-4311744512: 3 12
 * (TP_printk "target_id=%lu nr_regions=%u %lu-%lu: %u %u": the region's start and end in
 * the context's address units, nr_accesses in the last aggregation interval, age in
 * aggregation intervals).
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  guint64 timestamp_ns;   /* the trace clock's, as printed */
  char    timestamp[32];  /* as printed: "5123.456789" */
  int     pid;            /* of the kdamond that emitted it; -1 when the line has none */
  guint64 target_id;
  guint32 nr_regions;     /* regions of this target in this aggregation */
  guint64 start;          /* bytes: the line's start × addr_unit */
  guint64 end;
  guint32 nr_accesses;
  guint32 age;
} PgsDamonEvent;

typedef enum
{
  PGS_DAMON_LINE_EVENT,   /* a damon_aggregated line, in @event */
  PGS_DAMON_LINE_OTHER,   /* empty, a comment, another event: nothing to take */
  PGS_DAMON_LINE_LOST,    /* "CPU:N [LOST M EVENTS]": M in @lost */
  PGS_DAMON_LINE_ERROR,   /* not parseable, or a region that cannot be: @error says why */
} PgsDamonLine;

/* Parses one line (@len bytes, no newline needed; need not be NUL-terminated). Addresses
 * are multiplied by @addr_unit (1 where the kernel has no addr_unit); with @ram_end not 0,
 * a region ending past it is an error ("beyond RAM"). */
PgsDamonLine pgs_damon_trace_parse_line (const char     *line,
                                         gsize           len,
                                         guint64         addr_unit,
                                         guint64         ram_end,
                                         PgsDamonEvent  *event,
                                         guint64        *lost,
                                         GError        **error);

G_END_DECLS
