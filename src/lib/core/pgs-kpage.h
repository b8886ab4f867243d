/* pgs-kpage.h: /proc/kpagecount and /proc/kpageflags
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* include/uapi/linux/kernel-page-flags.h */
typedef enum
{
  PGS_KPF_LOCKED        = 0,
  PGS_KPF_ERROR         = 1,
  PGS_KPF_REFERENCED    = 2,
  PGS_KPF_UPTODATE      = 3,
  PGS_KPF_DIRTY         = 4,
  PGS_KPF_LRU           = 5,
  PGS_KPF_ACTIVE        = 6,
  PGS_KPF_SLAB          = 7,
  PGS_KPF_WRITEBACK     = 8,
  PGS_KPF_RECLAIM       = 9,
  PGS_KPF_BUDDY         = 10,
  PGS_KPF_MMAP          = 11,
  PGS_KPF_ANON          = 12,
  PGS_KPF_SWAPCACHE     = 13,
  PGS_KPF_SWAPBACKED    = 14,
  PGS_KPF_COMPOUND_HEAD = 15,
  PGS_KPF_COMPOUND_TAIL = 16,
  PGS_KPF_HUGE          = 17,
  PGS_KPF_UNEVICTABLE   = 18,
  PGS_KPF_HWPOISON      = 19,
  PGS_KPF_NOPAGE        = 20,
  PGS_KPF_KSM           = 21,
  PGS_KPF_THP           = 22,
  PGS_KPF_OFFLINE       = 23,
  PGS_KPF_ZERO_PAGE     = 24,
  PGS_KPF_IDLE          = 25,
  PGS_KPF_PGTABLE       = 26,
  /* kernel-hacking flags, exported as well */
  PGS_KPF_RESERVED      = 32,
  PGS_KPF_MLOCKED       = 33,
  PGS_KPF_MAPPEDTODISK  = 34,
  PGS_KPF_PRIVATE       = 35,
  PGS_KPF_PRIVATE_2     = 36,
  PGS_KPF_OWNER_PRIVATE = 37,
  PGS_KPF_ARCH          = 38,
  PGS_KPF_UNCACHED      = 39,
  PGS_KPF_SOFTDIRTY     = 40,
  PGS_KPF_ARCH_2        = 41,
} PgsKpf;

#define PGS_KPF_BIT(f) (G_GUINT64_CONSTANT (1) << (f))

/* Frames per read: 8192 u64 entries (64 KiB). DESIGN.md: 8-64 KiB chunks through one reused
 * buffer are fastest; the kernel generates the data, so larger reads buy nothing. */
#define PGS_KPAGE_CHUNK_FRAMES 8192

G_END_DECLS
