/* pgs-library-item.h: a row of the Libraries table, one mapped file
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "pagescope.h"

G_BEGIN_DECLS

#define PGS_TYPE_LIBRARY_ITEM (pgs_library_item_get_type ())

G_DECLARE_FINAL_TYPE (PgsLibraryItem, pgs_library_item, PGS, LIBRARY_ITEM, GObject)

/* Takes @file over. */
PgsLibraryItem   *pgs_library_item_new      (PgsLibFile     *file);
const PgsLibFile *pgs_library_item_get_file (PgsLibraryItem *self);

/* In a worker thread: the files mapped by the processes of @snapshot, largest PSS first
 * (pgs_librank()); @n_unmapped set to the processes whose mappings are not readable. */
GListModel       *pgs_library_items_build   (PgsSnapshot    *snapshot,
                                             guint          *n_unmapped);

G_END_DECLS
