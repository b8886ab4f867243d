/* pgs-library-view.h: every mapped file, summed over the processes that map it
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "pagescope.h"

G_BEGIN_DECLS

#define PGS_TYPE_LIBRARY_VIEW (pgs_library_view_get_type ())

G_DECLARE_FINAL_TYPE (PgsLibraryView, pgs_library_view, PGS, LIBRARY_VIEW, GtkWidget)

PgsSnapshot      *pgs_library_view_get_snapshot (PgsLibraryView *self);
void              pgs_library_view_set_snapshot (PgsLibraryView *self,
                                                 PgsSnapshot    *snapshot);
/* The files as shown, largest PSS first: @index must be below the count. */
guint             pgs_library_view_get_n_files  (PgsLibraryView *self);
const PgsLibFile *pgs_library_view_get_file     (PgsLibraryView *self,
                                                 guint           index);

G_END_DECLS
