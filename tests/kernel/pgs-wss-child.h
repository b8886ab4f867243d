/* pgs-wss-child.h: the layout of pgs-wss-child's regions, in MiB
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#define WSS_TOUCHED_MIB   64   /* anonymous */
#define WSS_HOT_MIB       16   /* of it, written to in a loop */
#define WSS_UNTOUCHED_MIB 32   /* anonymous, filled once */
#define WSS_FILE_MIB      8    /* a shared file mapping */
#define WSS_FILE_HOT_MIB  2    /* of it, read in a loop */
