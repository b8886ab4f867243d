/* pgs-cli-render.h: the views of pagescope-render that are not drawn from a snapshot
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "pgs-cli.h"
#include "pgs-palette.h"

G_BEGIN_DECLS

typedef struct
{
  const char     *sysfs_root;
  const char     *procfs_root;
  double          seconds;      /* 0: two aggregation intervals */
  int             width;
  int             height;
  PgsRenderStyle  style;
  gboolean        legend;
  const char     *output_path;
  PgsOutput       output;
  gboolean        start_monitor; /* start a kdamond of Pagescope's own where none runs */
} PgsCliRenderAccessArgs;

/* --view access (pgs-cli-render-access.c). */
int pgs_cli_render_access (const PgsCliRenderAccessArgs *args);

G_END_DECLS
