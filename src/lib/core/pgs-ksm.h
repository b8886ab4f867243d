/* pgs-ksm.h: memory merging (KSM) and transparent huge pages, machine-wide and per process
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* /sys/kernel/mm/ksm (Documentation/admin-guide/mm/ksm.rst). Counts in pages; a field the
 * kernel lacks (general_profit before 6.1, ksm_zero_pages before 6.5) is -1. */
typedef struct
{
  gint64 run;               /* 0 stopped, 1 running, 2 unmerging */
  gint64 pages_shared;      /* KSM pages in use (each backs many mappings) */
  gint64 pages_sharing;     /* mappings of them beyond the first: pages saved */
  gint64 pages_unshared;
  gint64 pages_volatile;
  gint64 full_scans;
  gint64 ksm_zero_pages;
  gint64 general_profit;    /* bytes: saved minus the rmap_items' own cost */
} PgsKsmSystem;

/* FALSE (with @error) where the kernel has no KSM (no ksm directory). */
gboolean pgs_ksm_read_system (const char    *sysfs_root,
                              PgsKsmSystem  *ksm,
                              GError       **error);

/* /proc/PID/ksm_stat (6.1+); -1 for a line that is not there. */
typedef struct
{
  gint64 rmap_items;
  gint64 merging_pages;     /* 6.6+ */
  gint64 zero_pages;
  gint64 process_profit;    /* bytes, 6.1+ */
} PgsKsmProcess;

gboolean pgs_ksm_parse_process (const char    *buf,
                                gsize          len,
                                PgsKsmProcess *ksm);

/* A "Key:   N kB" field of smaps_rollup or meminfo, in bytes; FALSE if absent. */
gboolean pgs_kb_field (const char *buf,
                       gsize       len,
                       const char *key,
                       guint64    *bytes);

G_END_DECLS
