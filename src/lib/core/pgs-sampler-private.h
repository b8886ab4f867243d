/* pgs-sampler-private.h: the machine's counters a sampler reads
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _PgsCounters PgsCounters;

/* @names: the sample's counter names, which the reader appends to. */
PgsCounters *_pgs_counters_new     (const char  *procfs_root,
                                    const char  *sysfs_root,
                                    GPtrArray   *names);
void         _pgs_counters_free    (PgsCounters *self);
/* Fills @values (grown to the names' length, PGS_SAMPLE_ABSENT where unread). With @full,
 * looks for new cgroups and zram devices and reads every memory.stat; otherwise a
 * cgroup's memory.stat only when its usage changed. */
void         _pgs_counters_read    (PgsCounters *self,
                                    GArray      *values,
                                    gboolean     full);

G_END_DECLS
