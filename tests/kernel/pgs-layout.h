/* pgs-layout.h: the sizes of pgs-layout-child's mappings, in pages
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#define N_PRIV   1024
#define N_COW    1024
#define N_SHANON 512
#define N_FILE   256
#define N_SWAP   512
#define N_ZERO   256
#define THP_BYTES (4u << 20)
