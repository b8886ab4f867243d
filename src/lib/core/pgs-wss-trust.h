/* pgs-wss-trust.h: what else happened during a working-set interval
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Accessed bits are shared state. A PgsWssTrust is taken when the bits are cleared and
 * finished when they are read back; it tells the sample whether the process ran at all, and
 * which other users of accessed bits, or which evictions, may have made the figure too low.
 */

#pragma once

#include "pgs-wss-sample.h"

G_BEGIN_DECLS

typedef struct _PgsWssTrust PgsWssTrust;

/* Reads the counters at the start of the interval (what cannot be read is left unknown). */
PgsWssTrust *pgs_wss_trust_begin (const char   *procfs_root,
                                  const char   *sysfs_root,
                                  int           pid);
/* Reads them again and records on @sample (not yet sealed) whether the process ran and
 * every caveat found. */
void         pgs_wss_trust_end   (PgsWssTrust  *self,
                                  PgsWssSample *sample);
void         pgs_wss_trust_free  (PgsWssTrust  *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PgsWssTrust, pgs_wss_trust_free)

G_END_DECLS
