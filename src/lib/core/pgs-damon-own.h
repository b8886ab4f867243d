/* pgs-damon-own.h: a kdamond of Pagescope's own, for a session
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Where no kdamond runs and DAMON's sysfs is free, Pagescope may start a monitor of its
 * own (physical addresses, DAMON's default intervals: see src/helper/pgs-kdamond-writer.h)
 * and read its events as anyone else's. It is removed, every file written restored, when
 * it is stopped, and when the process that started it exits or is killed: as root, a
 * watchdog process holding a socket from us removes it; through the helper, the helper's
 * watchdog does when the helper's connection drops.
 */

#pragma once

#include <gio/gio.h>

#include "pgs-helper.h"

G_BEGIN_DECLS

typedef struct _PgsDamonOwn PgsDamonOwn;

/* Whether a monitor of Pagescope's own may start under @sysfs_root (NULL: /sys): FALSE with
 * the reason in @reason, in the writer's words (plain English, as the helper gives them:
 * "a kdamond runs (PID N)"). Reads as the caller (DAMON's files are root's). */
gboolean     pgs_damon_own_can_start           (const char   *sysfs_root,
                                                char        **reason);
/* Starts one as the caller (root) under @sysfs_root (NULL: /sys), over the biggest System
 * RAM range of @procfs_root's iomem (NULL: /proc). Where DAMON's sysfs is not free:
 * G_IO_ERROR_BUSY with the reason ("a kdamond runs (PID N)"). */
PgsDamonOwn *pgs_damon_own_start               (const char   *sysfs_root,
                                                const char   *procfs_root,
                                                GError      **error);
/* The same through the helper (MONITOR, under polkit's io.github.pagescope.Pagescope.monitor
 * for a caller who is not root: call from a worker thread). */
PgsDamonOwn *pgs_damon_own_start_through_helper (PgsHelper   *helper,
                                                 GError     **error);
/* Either of the two in a thread (@helper NULL: as the caller, root), for a UI. The
 * monitor is not removed when @cancellable is cancelled meanwhile: the caller frees what
 * the finish gives. */
void         pgs_damon_own_start_async         (const char          *sysfs_root,
                                                const char          *procfs_root,
                                                PgsHelper           *helper,
                                                GCancellable        *cancellable,
                                                GAsyncReadyCallback  callback,
                                                gpointer             user_data);
PgsDamonOwn *pgs_damon_own_start_finish        (GAsyncResult        *result,
                                                GError             **error);
/* kdamonds/N, and its PID (-1 where the tree is a fake one). */
guint        pgs_damon_own_get_index           (PgsDamonOwn  *self);
int          pgs_damon_own_get_pid             (PgsDamonOwn  *self);
/* Removes the monitor and waits until DAMON's sysfs is as it was; FALSE with the reason
 * when it could not (such as when kdamond 0 is no longer ours: left as it is). Once. */
gboolean     pgs_damon_own_stop                (PgsDamonOwn  *self,
                                                GError      **error);
/* Stops (errors ignored) if not stopped, and frees. */
void         pgs_damon_own_free                (PgsDamonOwn  *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PgsDamonOwn, pgs_damon_own_free)

G_END_DECLS
