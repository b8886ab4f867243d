/* pgs-ui-memory.h: the app's memory over refreshes, for test-memory and bench-app-memory
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "pgs-ui-util.h"

G_BEGIN_DECLS

typedef struct
{
  guint64 anonymous;  /* bytes, Anonymous of /proc/self/smaps_rollup */
  guint64 pss;        /* bytes */
  double  cpu_s;      /* user + system time of the whole process so far */
  double  wall_s;     /* monotonic clock */
  guint64 malloc_used; /* bytes allocated (mallinfo2) */
  guint64 malloc_held; /* bytes malloc holds from the kernel, free or not */
} PgsUiMemory;

void pgs_ui_memory_read      (PgsUiMemory *memory);
/* Shows every page of the window in turn (each scan and render finished), then the
 * process list again. */
void pgs_ui_memory_visit_all (PgsWindow   *window);
/* @times refreshes through win.refresh, each waited for and drawn. */
void pgs_ui_memory_refresh   (PgsWindow   *window,
                              guint        times);

G_END_DECLS
