/* pgs-damon-reader.h: damon:damon_aggregated events from a tracefs instance of our own
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A worker process finds tracefs (or mounts it in a mount namespace of its own when it is
 * not mounted), makes the instance instances/pagescope-PID-RANDOM, enables only
 * damon:damon_aggregated in it and copies its trace_pipe to a pipe the caller reads. No
 * monitor changes and the top-level tracing state stays as it was. The instance goes when
 * the reader stops, when the caller dies in any way (the worker has PR_SET_PDEATHSIG), and
 * when the worker itself is killed (a watchdog process it started, waiting on a pipe, then
 * removes it).
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _PgsDamonReader PgsDamonReader;

/* Starts the worker and waits (at most 10 s) until the instance is enabled. */
PgsDamonReader *pgs_damon_reader_start        (GError         **error);
/* Where trace_pipe's bytes arrive; end of file when the worker stops. */
int             pgs_damon_reader_get_fd       (PgsDamonReader  *self);
/* "pagescope-PID-RANDOM". */
const char     *pgs_damon_reader_get_instance (PgsDamonReader  *self);
/* TRUE when the worker mounted tracefs privately (it was not mounted). */
gboolean        pgs_damon_reader_get_private_mount (PgsDamonReader *self);
/* Stops the worker, which disables the event and removes the instance before it exits;
 * FALSE with the reason when it could not. */
gboolean        pgs_damon_reader_stop         (PgsDamonReader  *self,
                                               GError         **error);
/* Stops (ignoring errors) if not stopped, and frees. */
void            pgs_damon_reader_free         (PgsDamonReader  *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PgsDamonReader, pgs_damon_reader_free)

G_END_DECLS
