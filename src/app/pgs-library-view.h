/* pgs-library-view.h: every mapped file, summed over the processes that map it
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "pagescope.h"
#include "pgs-page.h"
#include "pgs-highlight.h"

G_BEGIN_DECLS

#define PGS_TYPE_LIBRARY_VIEW (pgs_library_view_get_type ())

/* A page of the session (pgs-page.h). */
G_DECLARE_FINAL_TYPE (PgsLibraryView, pgs_library_view, PGS, LIBRARY_VIEW, PgsPage)

PgsSnapshot      *pgs_library_view_get_snapshot (PgsLibraryView *self);
void              pgs_library_view_set_snapshot (PgsLibraryView *self,
                                                 PgsSnapshot    *snapshot);
/* Whether the files of the snapshot are still being listed (or wait for the view to show). */
gboolean          pgs_library_view_is_busy      (PgsLibraryView *self);
/* The files as listed, largest PSS first: @index must be below the count. */
guint             pgs_library_view_get_n_files  (PgsLibraryView *self);
const PgsLibFile *pgs_library_view_get_file     (PgsLibraryView *self,
                                                 guint           index);

/* The selected file (index as above, GTK_INVALID_LIST_POSITION for none). */
void              pgs_library_view_select_file  (PgsLibraryView *self,
                                                 guint           index);
void              pgs_library_view_unselect     (PgsLibraryView *self);
const char       *pgs_library_view_get_selected_path (PgsLibraryView *self);
/* The selected file's frames for the physical maps, or NULL. */
PgsHighlight     *pgs_library_view_get_highlight (PgsLibraryView *self);
/* The processes mapping the selected file, as listed beside the table. */
guint             pgs_library_view_get_n_users  (PgsLibraryView *self);
const PgsLibUser *pgs_library_view_get_user     (PgsLibraryView *self,
                                                 guint           index);

G_END_DECLS
