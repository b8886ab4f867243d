/* pgs-library-user.h: a row of the Libraries pane, a process's share of the chosen file
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "pagescope.h"

G_BEGIN_DECLS

#define PGS_TYPE_LIBRARY_USER (pgs_library_user_get_type ())

G_DECLARE_FINAL_TYPE (PgsLibraryUser, pgs_library_user, PGS, LIBRARY_USER, GObject)

const PgsLibUser *pgs_library_user_get_share (PgsLibraryUser *self);

/* The processes of @snapshot that map @path, each with its share of it, largest PSS first. */
GListModel       *pgs_library_users_build    (PgsSnapshot    *snapshot,
                                              const char     *path);

G_END_DECLS
