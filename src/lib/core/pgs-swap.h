/* pgs-swap.h: swap that pagemap cannot show, and SwapPss
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "pgs-process-private.h"

G_BEGIN_DECLS

typedef enum
{
  PGS_SWAP_UNKNOWN,   /* no meminfo to tell */
  PGS_SWAP_NONE,      /* no swap slot in use anywhere */
  PGS_SWAP_USED,
} PgsSwapState;

/* From ROOT/meminfo: SwapTotal - SwapFree. */
PgsSwapState _pgs_swap_state (int root_fd);

/* After the page walk of a privileged scan: Swap of the mappings that may be shmem and
 * SwapPss of every mapping, from the kernel's smaps where pagemap cannot tell them. */
void         _pgs_swap_fill  (PgsProcess   *proc,
                              int           dirfd,
                              PgsSwapState  state);

G_END_DECLS
