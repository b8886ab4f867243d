/* pgs-access-text.h: what the Access page says of a monitor and of the heat it shows
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Plain functions of DAMON's sysfs as read, apart from the page's widgets.
 */

#pragma once

#include "pagescope.h"
#include "pgs-session.h"

G_BEGIN_DECLS

/* The kdamond's first context in words: the monitor's resolution. */
char   *pgs_access_text_describe_monitor (const PgsDamonKdamond *k);
/* How long to read: two aggregations of the slowest running kdamond, 5 s to 120 s. */
double  pgs_access_text_read_seconds     (PgsDamonSysfs         *sysfs);

/* The context of the first aggregation of @collection, or NULL. */
const PgsDamonContext *pgs_access_text_shown_context (PgsDamonCollection *collection);
/* The legend under the heat: the monitor, the addresses shown, in @session's units. */
char   *pgs_access_text_legend           (PgsDamonCollection    *collection,
                                          PgsSession            *session);

G_END_DECLS
