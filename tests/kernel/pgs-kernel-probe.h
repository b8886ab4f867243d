/* pgs-kernel-probe.h: what the running kernel does, found out once, for the kernel tests
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Kernels differ in ways a test must not assume: some map no shared zero page (reads of
 * fresh anonymous memory allocate real pages), some initialise struct pages lazily, some run
 * DAMON monitors that clear accessed bits and page out cold memory, some lack THP, swap,
 * idle page tracking, soft-dirty or PAGEMAP_SCAN. Each is probed here by doing the thing in
 * this process and looking at what the kernel reports (pagemap, kpageflags, sysfs), and each
 * expectation in the tests is derived from the result. Needs root (kpageflags).
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  /* A read of fresh private anonymous memory maps the shared zero page (present in
   * pagemap, KPF_ZERO_PAGE, in no Rss); FALSE: it allocates a private page. */
  gboolean  zero_page;
  /* pagemap bit 56 is set on a page written by one process and clear on one shared with a
   * forked child (CONFIG_NO_PAGE_MAPCOUNT kernels may guess). */
  gboolean  exclusive_bit_reliable;
  gboolean  pagemap_scan;
  gboolean  idle_tracking;          /* /sys/kernel/mm/page_idle/bitmap can be opened */
  gboolean  soft_dirty;             /* a freshly written page has pagemap bit 55 */
  char     *thp_mode;               /* the bracketed word of transparent_hugepage/enabled, or NULL */
  gboolean  thp_madvise_works;      /* a MADV_HUGEPAGE, 2 MiB aligned region got a THP */
  gboolean  swap_active;            /* /proc/swaps lists an area */
  gboolean  zram_available;         /* a zram device can be made for swap */
  guint     damon_running;          /* kdamonds in state "on" */
  gboolean  damon_paddr;            /* one of them monitors physical addresses */
  gboolean  lazy_init;              /* struct pages initialised lazily (deferred_init=lazy) */
} PgsKernelProbe;

/* Probes once (later calls return the same), printing each finding as a TAP comment
 * ("# probe: ..."). */
const PgsKernelProbe *pgs_kernel_probe (void);

G_END_DECLS
