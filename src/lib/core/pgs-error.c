/* pgs-error.c
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "pgs-error.h"

G_DEFINE_QUARK (pgs-error-quark, pgs_error)
