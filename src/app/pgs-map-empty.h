/* pgs-map-empty.h: why a map page has no map to show, in words
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "pagescope.h"
#include "pgs-replay.h"

G_BEGIN_DECLS

/* What a map page says in place of its map. */
typedef struct
{
  const char *icon;         /* an icon name */
  const char *title;        /* translated */
  char       *description;  /* translated, owned */
} PgsMapEmpty;

/* Fills @empty and returns TRUE when a map page of @view has nothing to draw: no snapshot
 * yet (or, with @replay, a recording shown, no picture of its instant), no process chosen
 * or no page data for it (residency; @unreadable: why a scan of it alone brought no pages,
 * NULL if none did), no physical map (the other views). FALSE when there is a map. */
gboolean pgs_map_empty_explain (PgsView      view,
                                PgsSnapshot *snapshot,
                                PgsReplay   *replay,
                                PgsProcess  *process,
                                const char  *unreadable,
                                PgsMapEmpty *empty);
void     pgs_map_empty_clear   (PgsMapEmpty *empty);
/* Page flags without a physical map, under the counters shown instead: why it is missing
 * and what that leaves unknown. */
const char *pgs_map_empty_counters_note (PgsSnapshot *snapshot);

G_END_DECLS
