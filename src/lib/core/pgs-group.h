/* pgs-group.h: processes summed by user, cgroup, application or parent
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
  PGS_GROUP_BY_USER,
  PGS_GROUP_BY_CGROUP,
  PGS_GROUP_BY_APP,
  PGS_GROUP_BY_PARENT,
} PgsGroupBy;

gboolean pgs_group_by_from_string (const char  *str,
                                   PgsGroupBy  *by);

/* One group. The sums cover the members whose figure is known; a figure is known for the
 * group only when it is known for every member. */
typedef struct
{
  char       *name;        /* user name, cgroup path, application name, "PID (name)" */
  char       *app_id;      /* PGS_GROUP_BY_APP: the desktop id (NULL for services…) */
  char       *icon;        /* PGS_GROUP_BY_APP: g_icon_to_string () of the desktop file's icon */
  GPtrArray  *processes;   /* PgsProcess, in the order given */
  guint64     vss;
  guint64     rss;
  guint64     pss_fp;      /* PSS << PGS_PSS_SHIFT */
  guint64     uss;
  guint64     swap;
  guint       known;       /* PgsMetric: known for every member */
  guint       n_partial;   /* members with some figure unknown (left out of its sum) */
  /* Bytes of the frames mapped by members of the group only: what ending every member
   * would free. Needs the frames' map counts (root, a scan with PGS_SCAN_PAGES). */
  guint64     private_bytes;
  gboolean    private_known;
  const char *unknown_reason;  /* a member's reason for an unknown figure */
  const char *private_reason;  /* why private is unknown */
  gboolean    private_at_least; /* not known, but private_bytes is a lower bound: what the
                                 * members with frames hold alone (see compute_private) */
} PgsGroup;

void pgs_group_free (PgsGroup *group);

/* Groups @processes (PgsProcess of @snapshot) and returns the groups (PgsGroup), largest
 * PSS first. For the private figure scan with PGS_SCAN_PAGES as root. */
GPtrArray *pgs_group_processes (PgsSnapshot *snapshot,
                                GPtrArray   *processes,
                                PgsGroupBy   by);

/* The name of the group each of @processes falls in by @by (PID → name, owned by the
 * table), without the groups' figures: no page is walked. */
GHashTable *pgs_group_names    (PgsSnapshot *snapshot,
                                GPtrArray   *processes,
                                PgsGroupBy   by);

/* Re-sorts @groups by @metric, largest first, unknown values last (then by name). */
void       pgs_group_sort      (GPtrArray   *groups,
                                PgsMetric    metric);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PgsGroup, pgs_group_free)

G_END_DECLS
