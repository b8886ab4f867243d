/* pgs-access-page-private.h: what the ui tests reach inside the Access page
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "pagescope.h"
#include "pgs-access-map.h"
#include "pgs-access-page.h"
#include "pgs-region-holdings.h"

G_BEGIN_DECLS

/* Whether reading the tracepoint is allowed (default: running as root). */
void          _pgs_access_page_set_privileged    (PgsAccessPage      *self,
                                                  gboolean            privileged);
/* Reads DAMON's sysfs again (from the page's sysfs-root) and shows the state it implies. */
void          _pgs_access_page_update_state      (PgsAccessPage      *self);
/* Shows @collection (taken) as if a read had just given it. */
void          _pgs_access_page_show_collection   (PgsAccessPage      *self,
                                                  PgsDamonCollection *collection);
/* The status page's title and description, the legend's lines joined by newlines. */
const char   *_pgs_access_page_get_title         (PgsAccessPage      *self);
const char   *_pgs_access_page_get_description   (PgsAccessPage      *self);
char         *_pgs_access_page_get_legend        (PgsAccessPage      *self);
PgsAccessMap *_pgs_access_page_get_map           (PgsAccessPage      *self);
/* What a clicked region holds (pgs-region-holdings.c). */
PgsRegionHoldings *_pgs_access_page_get_holdings (PgsAccessPage     *self);
GtkWidget    *_pgs_access_page_get_read_button   (PgsAccessPage      *self);
GtkWidget    *_pgs_access_page_get_unlock_button (PgsAccessPage      *self);
/* "Start a Memory Access Monitor": a kdamond of Pagescope's own, where none runs. */
GtkWidget    *_pgs_access_page_get_start_button  (PgsAccessPage      *self);
/* Whether the page holds a kdamond of Pagescope's own (started, not yet removed). */
gboolean      _pgs_access_page_has_own_monitor   (PgsAccessPage      *self);

G_END_DECLS
