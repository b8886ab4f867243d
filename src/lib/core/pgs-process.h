/* pgs-process.h
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "pgs-types.h"

G_BEGIN_DECLS

#define PGS_TYPE_PROCESS (pgs_process_get_type ())

G_DECLARE_FINAL_TYPE (PgsProcess, pgs_process, PGS, PROCESS, GObject)

int          pgs_process_get_pid            (PgsProcess *self);
int          pgs_process_get_ppid           (PgsProcess *self);
guint        pgs_process_get_uid            (PgsProcess *self);
const char  *pgs_process_get_user           (PgsProcess *self);
const char  *pgs_process_get_name           (PgsProcess *self);
const char  *pgs_process_get_cmdline        (PgsProcess *self);
/* User, name and command line as text to show in a GUI: the raw bytes above may be invalid
 * UTF-8 or hold control characters (a process names itself); these have each such byte or
 * character as "?" (pgs_escape_for_terminal()). Owned by the process. A user or name the
 * process has none of (a snapshot from elsewhere) is "unknown", never empty. */
const char  *pgs_process_get_display_user   (PgsProcess *self);
const char  *pgs_process_get_display_name   (PgsProcess *self);
const char  *pgs_process_get_display_cmdline (PgsProcess *self);
/* The cgroup v2 path ("/user.slice/…"), NULL where there is none or it was unreadable. */
const char  *pgs_process_get_cgroup         (PgsProcess *self);
/* Clock ticks after boot (/proc/PID/stat field 22); 0 where unknown. */
guint64      pgs_process_get_start_time     (PgsProcess *self);
/* When the process started, in seconds since the epoch: @boot_time (pgs_read_boot_time(),
 * of the boot the process ran in) plus its start time. FALSE where that is unknown. */
gboolean     pgs_process_get_started        (PgsProcess *self,
                                             gint64      boot_time,
                                             gint64     *started);
/* When the system booted, in seconds since the epoch, from @procfs_root/stat ("/proc"); 0
 * with @error set where it cannot be read. */
gint64       pgs_read_boot_time             (const char *procfs_root,
                                             GError    **error);
guint64      pgs_process_get_vss            (PgsProcess *self);
guint64      pgs_process_get_rss            (PgsProcess *self);
guint64      pgs_process_get_pss            (PgsProcess *self);
guint64      pgs_process_get_pss_fixed      (PgsProcess *self);
guint64      pgs_process_get_uss            (PgsProcess *self);
guint64      pgs_process_get_swap           (PgsProcess *self);
guint64      pgs_process_get_metric         (PgsProcess *self,
                                             PgsMetric   metric);
gboolean     pgs_process_is_known           (PgsProcess *self,
                                             PgsMetric   metric);
guint        pgs_process_get_known          (PgsProcess *self);
const char  *pgs_process_get_unknown_reason (PgsProcess *self);
PgsSource    pgs_process_get_source         (PgsProcess *self);
GListModel  *pgs_process_get_mappings       (PgsProcess *self);
guint        pgs_process_get_n_mappings     (PgsProcess *self);
gboolean     pgs_process_has_pages          (PgsProcess *self);
gsize        pgs_process_get_n_pages        (PgsProcess *self);

/* A run of consecutive present or swapped virtual pages inside one mapping. Pages that are
 * neither are not stored: address spaces are mostly holes. */
typedef struct
{
  guint64 start;       /* virtual address of the first page */
  guint32 n_pages;
  guint32 first;       /* index of the first page in the process's page arrays */
  guint32 mapping;     /* index into the mappings */
  guint32 flags;       /* PgsRunFlags */
} PgsPageRun;

typedef enum
{
  PGS_RUN_ZERO = 1 << 0,  /* PAGEMAP_SCAN said the zero page */
} PgsRunFlags;

#define PGS_COUNT_UNKNOWN G_MAXUINT32

/* The packed pages of a process, read-only, for renderers that walk millions of them:
 * runs in address order; per page (run->first + i) its raw pagemap entry and the map
 * count of its frame. */
typedef struct
{
  guint             page_size;
  const PgsPageRun *runs;
  guint             n_runs;
  const guint64    *entries;
  const guint32    *counts;     /* NULL where map counts were not read */
  gsize             n_pages;
} PgsPages;

/* Mapping @index in address order, without making its PgsMapping (so from any thread):
 * where it lies, whether it maps a file, and its path ("" for anonymous memory). */
void         pgs_process_get_mapping_extent (PgsProcess  *self,
                                             guint        index,
                                             guint64     *start,
                                             guint64     *end,
                                             gboolean    *file,
                                             const char **path);
/* Fills @pages with a view valid as long as @self lives; FALSE (and no runs) where the
 * process was scanned without its pages. */
gboolean     pgs_process_get_pages          (PgsProcess *self,
                                             PgsPages   *pages);

/* A virtual page of the process, for residency maps, tooltips and tests. */
typedef struct
{
  guint64  address;
  guint64  entry;        /* raw pagemap entry; 0 for a page that is not present or swapped */
  guint32  count;        /* map count of its frame, PGS_COUNT_UNKNOWN where not read */
  guint    mapping;      /* index of its mapping */
  gboolean in_mapping;   /* FALSE for an address outside every mapping */
} PgsPageInfo;

gboolean     pgs_process_lookup_page        (PgsProcess  *self,
                                             guint64      address,
                                             PgsPageInfo *info);

/* Visits every stored (present or swapped) page in address order. */
typedef void (*PgsPageFunc) (const PgsPageInfo *info,
                             gpointer           user_data);
void         pgs_process_foreach_page       (PgsProcess  *self,
                                             PgsPageFunc  func,
                                             gpointer     user_data);

G_END_DECLS
