/* pgs-process-private.h: the packed data behind PgsProcess and PgsMapping
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "pgs-process.h"

G_BEGIN_DECLS

/* One mapping as read from maps, with its metrics. */
typedef struct
{
  guint64  start;
  guint64  end;
  guint64  offset;
  guint64  inode;
  guint    dev_major;
  guint    dev_minor;
  char     perms[5];
  char    *path;       /* GRefString; "" for an anonymous mapping */
  guint64  rss;
  guint64  pss_fp;     /* PSS << PGS_PSS_SHIFT, as the kernel accumulates it */
  guint64  uss;
  guint64  swap;
  guint    known;      /* PgsMetric */
  guint64  swap_pss;   /* bytes, as smaps says it (known: PGS_METRIC_SWAP_PSS) */
  guint64  probe_pfn;  /* scan only: a frame of the mapping, to tell a hugetlb one */
} PgsMappingData;

struct _PgsProcess
{
  GObject         parent_instance;

  int             pid;
  int             ppid;
  guint           uid;
  char           *user;
  char           *name;
  char           *cmdline;
  char           *display[3];    /* user, name, cmdline made safe to show; on first use */
  char           *cgroup;        /* v2 path from /proc/PID/cgroup; NULL if none */
  guint64         start_time;    /* /proc/PID/stat field 22, clock ticks after boot; 0 unknown */

  guint64         vss;
  guint64         rss;
  guint64         pss_fp;
  guint64         uss;
  guint64         swap;
  guint64         swap_pss;
  guint64         shared_clean;  /* known: PGS_METRIC_SPLIT, from smaps_rollup */
  guint64         shared_dirty;
  guint64         private_clean;
  guint64         private_dirty;
  guint64         thp_anon;      /* known: PGS_METRIC_THP, from smaps_rollup */
  guint64         thp_shmem;
  guint64         thp_file;
  guint           known;
  PgsSource       source;
  char           *unknown_reason;

  guint           page_size;
  gboolean        pfn_hidden;    /* pagemap gave no frame numbers */

  GArray         *mappings;      /* PgsMappingData, address order */
  GArray         *runs;          /* PgsPageRun, address order */
  guint64        *entries;       /* raw pagemap entries, one per page in runs */
  guint32        *counts;        /* map count per page, PGS_COUNT_UNKNOWN if not read */
  gsize           n_pages;
  GArray         *pending;       /* scan only: shared pages waiting for their map count */

  GListStore     *mapping_objects; /* created on first use */
};

PgsProcess *_pgs_process_new       (int          pid);
void        _pgs_process_set_unknown (PgsProcess *self,
                                      guint       metrics,
                                      const char *reason);

PgsMapping *_pgs_mapping_new (PgsProcess *process,
                              guint       index);

/* The mapping of @self that runs from @start to @end, looked for from *@next on: smaps lists
 * the same mappings as maps, in the same order, unless the process changed in between. NULL
 * where none matches (its figures stay unknown); else *@next is moved past it. */
PgsMappingData *_pgs_process_match_mapping (PgsProcess *self,
                                            guint      *next,
                                            guint64     start,
                                            guint64     end);

/* Whether the process of the /proc/PID directory @dirfd has exited (gone, a zombie, or its
 * address space already torn down), as opposed to its files being damaged. */
gboolean    _pgs_process_has_exited (int dirfd);

/* Whether the figures add up: RSS + swap within the mapped size, USS and PSS within RSS, and
 * each mapping's within its own size. A maps file cut short (or read across a change) gives
 * a VSS too small for the kernel's own RSS; such figures are refused, not reported. */
gboolean    _pgs_process_check_sane (PgsProcess  *self,
                                     GError     **error);

G_END_DECLS
