/* pgs-cli-wss.h: the two methods of `pagescope-cli wss`
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "pgs-cli.h"

G_BEGIN_DECLS

typedef struct
{
  GArray       *pids;          /* int */
  const double *intervals;     /* seconds, cycled through */
  guint         n_intervals;
  guint         count;         /* rounds of every interval */
  PgsOutput     output;
  const char   *procfs_root;
  const char   *sysfs_root;
} PgsCliWssArgs;

/* --method pageout (pgs-cli-wss-pageout.c). */
int       pgs_cli_wss_pageout   (const PgsCliWssArgs *args);

/* The processes of a cgroup (--cgroup: a directory of a mounted cgroup hierarchy, or a
 * cgroup v2 path as memrank --group-by cgroup shows it, with its descendants) or of an
 * application (--app: the desktop id of its systemd scope or service). */
gboolean  pgs_cli_wss_group_pids (const char  *cgroup,
                                  const char  *app,
                                  const char  *procfs_root,
                                  GArray      *pids,
                                  GError     **error);

G_END_DECLS
