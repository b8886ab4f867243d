/* pgs-ledger-fixture.h: a physical map whose every frame is known, for the ledger's tests
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One zone of 8192 frames (32 MiB) on a kernel that initialises its memory lazily (as the
 * 6.18 test machines): present 8192, managed 3840, the top 4096 frames flagless and
 * counted in MemTotal. Included by test-ledger.c (unit) and test-ledger-view.c (ui).
 */

#pragma once

#include <pagescope.h>

#include "pgs-kpage.h"

#define KPF(f) PGS_KPF_BIT (PGS_KPF_##f)
#define N_FX 8192
#define KB(frames) ((guint64) (frames) * 4096)

/* The frames, by hand:
 *      0–255   256  RESERVED (boot memory: outside MemTotal)
 *    256–1279 1024  BUDDY                                  free
 *   1280–1379  100  ANON LRU, count 1                      processes, anonymous
 *   1380–1399   20  ANON LRU UNEVICTABLE MLOCKED, count 1   processes, anonymous
 *   1400–1409   10  ANON SWAPBACKED SWAPCACHE, count 0     anonymous, no process maps
 *   1410–1459   50  LRU UPTODATE MMAP, count 2             processes, files
 *   1460–1659  200  LRU UPTODATE, count 0                  page cache, clean
 *   1660–1689   30  LRU UPTODATE DIRTY, count 0            page cache, dirty
 *   1690–1699   10  LRU UPTODATE WRITEBACK, count 0        page cache, dirty
 *   1700–1739   40  SWAPBACKED LRU DIRTY, count 1          processes, shared memory
 *   1740–1759   20  SWAPBACKED UNEVICTABLE MLOCKED, count 1 processes, shared memory
 *   1760–1819   60  SWAPBACKED LRU DIRTY, count 0          shared memory, no process maps
 *   1820–1827    8  a THP: head ANON THP, tails THP alone, count 1   processes, anonymous
 *   1828–1927  100  SLAB
 *   1928–1947   20  PGTABLE
 *   1948–2459  512  a 2 MiB hugetlb page (HUGE head and tails)
 *   2460–3483 1024  no flags, count 0                      the kernel's
 *   3484–3499   16  a kernel compound page: head, 15 tails the kernel's
 *   3500–3519   20  PRIVATE UPTODATE (zsmalloc)            the kernel's
 *   3520–4095  576  BUDDY                                  free
 *   4096–8191 4096  no flags, count 0: the never-initialised top, counted in MemTotal
 *
 * Totals: free 1600, processes anonymous 128, files 50, shared memory 60; anonymous no
 * process maps 10, clean 200, dirty 40, shared memory no process maps 60; slab 100, page
 * tables 20, hugetlb 512; the kernel's 256 + 1024 + 16 + 20 = 1316; not initialised 4096.
 * 8192 in all. */
static inline void
fill_frames (guint32 *counts,
             guint64 *flags)
{
#define SET(a, b, c, f) for (guint i = (a); i <= (b); i++) counts[i] = (c), flags[i] = (f)
  SET (0, 255, 0, KPF (RESERVED));
  SET (256, 1279, 0, KPF (BUDDY));
  SET (1280, 1379, 1, KPF (ANON) | KPF (LRU));
  SET (1380, 1399, 1, KPF (ANON) | KPF (LRU) | KPF (UNEVICTABLE) | KPF (MLOCKED));
  SET (1400, 1409, 0, KPF (ANON) | KPF (SWAPBACKED) | KPF (SWAPCACHE));
  SET (1410, 1459, 2, KPF (LRU) | KPF (UPTODATE) | KPF (MMAP));
  SET (1460, 1659, 0, KPF (LRU) | KPF (UPTODATE));
  SET (1660, 1689, 0, KPF (LRU) | KPF (UPTODATE) | KPF (DIRTY));
  SET (1690, 1699, 0, KPF (LRU) | KPF (UPTODATE) | KPF (WRITEBACK));
  SET (1700, 1739, 1, KPF (SWAPBACKED) | KPF (LRU) | KPF (DIRTY));
  SET (1740, 1759, 1, KPF (SWAPBACKED) | KPF (UNEVICTABLE) | KPF (MLOCKED));
  SET (1760, 1819, 0, KPF (SWAPBACKED) | KPF (LRU) | KPF (DIRTY));
  SET (1820, 1820, 1, KPF (ANON) | KPF (THP) | KPF (LRU) | KPF (COMPOUND_HEAD));
  SET (1821, 1827, 1, KPF (THP) | KPF (COMPOUND_TAIL));
  SET (1828, 1927, 0, KPF (SLAB));
  SET (1928, 1947, 0, KPF (PGTABLE));
  SET (1948, 1948, 0, KPF (HUGE) | KPF (COMPOUND_HEAD));
  SET (1949, 2459, 0, KPF (HUGE) | KPF (COMPOUND_TAIL));
  SET (2460, 3483, 0, 0);
  SET (3484, 3484, 0, KPF (COMPOUND_HEAD));
  SET (3485, 3499, 0, KPF (COMPOUND_TAIL));
  SET (3500, 3519, 0, KPF (PRIVATE) | KPF (UPTODATE));
  SET (3520, 4095, 0, KPF (BUDDY));
  SET (4096, 8191, 0, 0);
#undef SET
}

/* MemTotal = managed 3840 + not initialised 4096 = 7936 frames = 31744 kB; MemFree =
 * (1600 + 4096) × 4 = 22784 kB. The counters that disagree with the frames: Shmem 520 kB
 * (130 frames; the frames hold 120), SUnreclaim 120 kB (30; the frames' slab is 100, of
 * which SReclaimable 60), AnonPages 520 kB (130; the frames 128). */
static const char fx_meminfo[] =
  "MemTotal:          31744 kB\n"
  "MemFree:           22784 kB\n"
  "Buffers:              40 kB\n"
  "Cached:             1600 kB\n"
  "SwapCached:           40 kB\n"
  "AnonPages:           520 kB\n"
  "Shmem:               520 kB\n"
  "SReclaimable:        240 kB\n"
  "SUnreclaim:          120 kB\n"
  "KernelStack:          64 kB\n"
  "PageTables:           80 kB\n"
  "VmallocUsed:         256 kB\n"
  "Percpu:               32 kB\n"
  "HugePages_Total:       1\n"
  "Hugepagesize:       2048 kB\n"
  "Hugetlb:            2048 kB\n";

/* Per-CPU lists: 12 + 4 = 16 frames. */
static const char fx_zoneinfo[] =
  "Node 0, zone   Normal\n"
  "  pages free     1600\n"
  "        spanned  8192\n"
  "        present  8192\n"
  "        managed  3840\n"
  "      nr_free_pages 1600\n"
  "  pagesets\n"
  "    cpu: 0\n"
  "              count:    12\n"
  "              high:     100\n"
  "    cpu: 1\n"
  "              count:    4\n"
  "              high:     100\n"
  "  start_pfn:           0\n";

/* zsmalloc: the 20 PRIVATE frames. */
static const char fx_vmstat[] =
  "nr_free_pages 1600\n"
  "nr_zspages 20\n"
  "nr_kernel_stack 64\n";

static inline PgsPhysMap *
fx_physmap (void)
{
  guint32 *counts = g_new0 (guint32, N_FX);
  guint64 *flags = g_new0 (guint64, N_FX);

  fill_frames (counts, flags);
  return pgs_physmap_new_full (counts, flags, N_FX, fx_meminfo, fx_zoneinfo);
}

