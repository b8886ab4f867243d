/* pgs-test-cli.h: scanning a fixture and running the CLI on it, for unit tests
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <pagescope.h>

#include "pgs-fixture.h"
#include "pgs-test-json.h"

G_BEGIN_DECLS

/* A scan of @fx with @flags; asserts that it succeeded. */
PgsSnapshot *pgs_test_scan    (PgsFixture   *fx,
                               PgsScanFlags  flags);
/* Runs $PAGESCOPE_CLI with the NULL-terminated arguments and, when @fx is not NULL,
 * --procfs ROOT of @fx; its stdout in *@out and stderr in *@err where not NULL. Asserts
 * that it exited, and that what it printed is strict JSON (pgs_test_assert_json()) when
 * the arguments hold --json; returns its exit status. */
int          pgs_test_run_cli (PgsFixture   *fx,
                               char        **out,
                               char        **err,
                               ...) G_GNUC_NULL_TERMINATED;

G_END_DECLS
