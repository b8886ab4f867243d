/* pgs-sampler.h: the live machine's figures, read cheaply once a second
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "pgs-sample.h"

G_BEGIN_DECLS

typedef struct _PgsSampler PgsSampler;

/* Reads @procfs_root (NULL: /proc) and the cgroup and zram files under @sysfs_root (NULL:
 * /sys). As a user, processes of other users get VSS and RSS only (from their stat). */
PgsSampler       *pgs_sampler_new               (const char  *procfs_root,
                                                 const char  *sysfs_root);
void              pgs_sampler_free              (PgsSampler  *self);

/* Takes a sample now. It belongs to @self and stays valid until the next call. */
const PgsSample  *pgs_sampler_sample            (PgsSampler  *self);

/* Every @n samples every process's smaps_rollup is read, whether or not it ran (default
 * 60; 1 reads them all every time). See pgs-sampler.c for why. */
void              pgs_sampler_set_refresh_every (PgsSampler  *self,
                                                 guint        n);
/* Whether smaps_rollup of every process could be read (root). */
gboolean          pgs_sampler_is_privileged     (PgsSampler  *self);
/* Over all samples so far: rollups read, and rollups not read because the process had not
 * run, faulted or changed its size. */
void              pgs_sampler_get_counts        (PgsSampler  *self,
                                                 guint64     *n_read,
                                                 guint64     *n_reused);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PgsSampler, pgs_sampler_free)

G_END_DECLS
