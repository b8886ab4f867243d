/* pgs-access-page.h: the machine's memory access heat from a running DAMON monitor
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "pgs-page.h"

G_BEGIN_DECLS

#define PGS_TYPE_ACCESS_PAGE (pgs_access_page_get_type ())

G_DECLARE_FINAL_TYPE (PgsAccessPage, pgs_access_page, PGS, ACCESS_PAGE, PgsPage)

/* What the page shows: "no-damon", "no-kdamond", "unprivileged", "ready", "reading",
 * "heat" or "failed". */
const char *pgs_access_page_get_state (PgsAccessPage *self);

G_END_DECLS
