/* pgs-background.h: worker threads yield to the main loop
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Lowers the scheduling priority (nice +10) of the calling thread. For worker threads. */
void pgs_background_lower_current_thread (void);
/* Lowers every thread of the process but the main one: for threads the app does not start
 * itself, such as the scanner's. */
void pgs_background_lower_workers        (void);
/* Call before anything starts a thread pool (once is enough): makes GLib's shared pool
 * threads start at the background priority, see pgs-background.c. */
void pgs_background_init                 (void);

G_END_DECLS
