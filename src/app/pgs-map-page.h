/* pgs-map-page.h: one map with its toolbar, empty state and page details
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "pgs-frame-users-view.h"
#include "pgs-highlight.h"
#include "pgs-ledger-view.h"
#include "pgs-map-view.h"
#include "pgs-page.h"

G_BEGIN_DECLS

#define PGS_TYPE_MAP_PAGE (pgs_map_page_get_type ())

/* A page of the session (pgs-page.h): it shows the session's snapshot, selected process
 * (its "process", bound to the map view's), highlight, units, layout and working-set
 * sample. */
G_DECLARE_FINAL_TYPE (PgsMapPage, pgs_map_page, PGS, MAP_PAGE, PgsPage)

PgsMapView *pgs_map_page_get_map_view   (PgsMapPage  *self);
PgsView     pgs_map_page_get_view       (PgsMapPage  *self);
/* The title of what the page says in place of a map ("Reading Its Pages…"), or NULL
 * while it shows one. */
const char *pgs_map_page_get_empty_title (PgsMapPage *self);
/* With a recording shown: which page-level picture the map shows, and when; else NULL. */
const char *pgs_map_page_get_instant_text (PgsMapPage *self);
/* TRUE when the page shows a map (not an empty state). */
gboolean    pgs_map_page_has_map        (PgsMapPage  *self);
/* Page flags without a physical map (no root): the ledger of the counters it shows in
 * place of the map, or NULL while it shows anything else. */
PgsLedgerView *pgs_map_page_get_counters_ledger (PgsMapPage *self);
/* The size in pixels of the map part of an export. */
void        pgs_map_page_get_export_size (PgsMapPage *self,
                                          int        *width,
                                          int        *height);
/* pgs_map_view_write_png_async() at pgs_map_page_get_export_size(). */
void        pgs_map_page_export_png_async  (PgsMapPage          *self,
                                            const char          *path,
                                            GAsyncReadyCallback  callback,
                                            gpointer             user_data);
gboolean    pgs_map_page_export_png_finish (PgsMapPage          *self,
                                            GAsyncResult        *result,
                                            GError             **error);
/* Shows the details of the page at @hit and looks up who else maps its frame. */
void        pgs_map_page_show_hit       (PgsMapPage   *self,
                                         const PgsHit *hit);
/* The note shown over the map, or NULL when none is. */
const char *pgs_map_page_get_wss_note   (PgsMapPage   *self);
const char *pgs_map_page_get_exited_note (PgsMapPage  *self);
/* The PIDs listed as mapping the selected frame (after a lookup finished). */
GArray     *pgs_map_page_get_frame_users (PgsMapPage *self);
/* The heading and table of the processes mapping the frame shown. */
PgsFrameUsersView *pgs_map_page_get_frame_users_view (PgsMapPage *self);

G_END_DECLS
