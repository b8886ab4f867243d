/* scanner-fixture.h: the scanner tests' shared steps and their two-process example
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <pagescope.h>

#include "pgs-fixture.h"
#include "pgs-kpage.h"

#define KPF(f) PGS_KPF_BIT (PGS_KPF_##f)
#define BASE   G_GUINT64_CONSTANT (0x10000000)

/* The page size; each test program's main() sets it. */
extern guint64 PS;

/* Scans @fx with @flags (and only @pids, when given), asserting that the scan succeeds. */
PgsSnapshot      *scan           (PgsFixture   *fx,
                                  PgsScanFlags  flags,
                                  const int    *pids,
                                  guint         n_pids);
guint64          *entries_new    (gsize         n);
/* The proposal's example: A has 1000 private pages and 1000 pages shared with B.
 *   A: RSS 2000 PS, PSS 1000 + 1000/2 = 1500 PS, USS 1000 PS
 *   B: RSS 1000 PS, PSS 500 PS, USS 0 */
void              build_proposal (PgsFixture   *fx);
/* The skipped entry of @pid, NULL when it was not skipped. */
const PgsSkipped *find_skipped   (PgsSnapshot  *snap,
                                  int           pid);
