/* pgs-wss-sample.h: one working-set sample of one process
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What a PgsWss measurement returns: for each mapping in scope, its resident bytes and the
 * bytes the kernel counted as referenced (smaps "Referenced") since the referenced bits were
 * cleared; and, only where the kernel exposes it, per-page state (accessed, from idle page
 * tracking; written, from soft-dirty). Immutable once built, so it can be handed to another
 * thread or kept as one point of a time series.
 *
 * Per-page figures are either known or absent: check pgs_wss_sample_get_page_sources()
 * before reading accessed/written, and show the reason from
 * pgs_wss_sample_get_page_source_reason() where a source is missing. An unavailable
 * per-page view is never an empty one.
 */

#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

/* What /proc/PID/clear_refs is asked to clear; each value is what is written to it. The
 * kernel selects by VMA: ANON is every mapping without a file behind it (heap, stack,
 * anonymous mmap), FILE every mapping with one (including shared anonymous memory, which
 * the kernel backs with a shmem file). */
typedef enum
{
  PGS_WSS_SCOPE_ALL  = 1,
  PGS_WSS_SCOPE_ANON = 2,
  PGS_WSS_SCOPE_FILE = 3,
} PgsWssScope;

/* Where per-page data can come from. */
typedef enum /*< flags >*/
{
  PGS_WSS_PAGES_NONE       = 0,
  PGS_WSS_PAGES_IDLE       = 1 << 0,  /* idle page tracking: accessed or not, per page */
  PGS_WSS_PAGES_SOFT_DIRTY = 1 << 1,  /* soft-dirty bits: written or not, per page */
} PgsWssPages;

/* What is known of one virtual page. UNKNOWN (0) for a page that was not resident, or
 * where no per-page source was available, or where the source could not tell (a page off
 * the LRU lists reads as "not idle" whether touched or not, so it is not counted). */
typedef enum /*< flags >*/
{
  PGS_WSS_PAGE_UNKNOWN      = 0,
  PGS_WSS_PAGE_ACCESS_KNOWN = 1 << 0,
  PGS_WSS_PAGE_ACCESSED     = 1 << 1,
  PGS_WSS_PAGE_WRITE_KNOWN  = 1 << 2,
  PGS_WSS_PAGE_WRITTEN      = 1 << 3,
} PgsWssPageState;

#define PGS_TYPE_WSS_SCOPE        (pgs_wss_scope_get_type ())
#define PGS_TYPE_WSS_PAGES        (pgs_wss_pages_get_type ())
#define PGS_TYPE_WSS_SAMPLE       (pgs_wss_sample_get_type ())

GType pgs_wss_scope_get_type  (void) G_GNUC_CONST;
GType pgs_wss_pages_get_type  (void) G_GNUC_CONST;
GType pgs_wss_sample_get_type (void) G_GNUC_CONST;

/* "all", "anon", "file": the names the CLI and the JSON use. */
const char *pgs_wss_scope_to_string (PgsWssScope scope);

/* One mapping in scope. Sizes in bytes. */
typedef struct
{
  guint64     start;
  guint64     end;
  guint64     offset;
  guint64     inode;
  char        perms[5];
  gboolean    anonymous;       /* no file behind it: what clear_refs 2 selects */
  const char *path;            /* "" for an anonymous mapping; see pgs_mapping_label_for_path */
  guint64     rss;             /* smaps Rss */
  guint64     referenced;      /* smaps Referenced: the working set of this mapping */
  /* Only with PGS_WSS_PAGES_IDLE in the sample's page sources, else 0 and meaningless: */
  guint64     accessed;        /* resident pages accessed during the interval */
  guint64     access_known;    /* resident pages whose access state idle tracking could tell */
  /* Only with PGS_WSS_PAGES_SOFT_DIRTY: */
  guint64     written;         /* resident pages written during the interval */
  guint64     write_known;     /* resident pages whose soft-dirty bit was read */
} PgsWssMapping;

/* Why a sample's working set may be wrong: something else cleared accessed bits or evicted
 * pages during the interval. See pgs-wss-trust.c for how each is found out. */
typedef enum
{
  PGS_WSS_CAVEAT_DAMON_PADDR,    /* a DAMON monitor on physical addresses is running */
  PGS_WSS_CAVEAT_DAMON_VADDR,    /* a DAMON monitor watches this process's address space */
  PGS_WSS_CAVEAT_IDLE_TRACKING,  /* another process has page_idle/bitmap open */
  PGS_WSS_CAVEAT_RECLAIM,        /* the kernel reclaimed pages during the interval */
  PGS_WSS_CAVEAT_PRESSURE,       /* tasks stalled on memory during the interval (PSI) */
} PgsWssCaveatKind;

typedef struct
{
  PgsWssCaveatKind  kind;
  const char       *id;        /* "damon-paddr", "damon-vaddr", "idle-tracking", "reclaim",
                                * "memory-pressure": the JSON names */
  const char       *message;   /* one sentence for people, translated */
} PgsWssCaveat;

/* Whether the process ran during the interval, from its CPU time (/proc/PID/stat utime +
 * stime, all threads) and its context switches (voluntary and involuntary, summed over
 * /proc/PID/task/ * /status). A working set of 0 means nothing without it. */
typedef enum
{
  PGS_WSS_RAN_UNKNOWN,   /* the counters could not be read */
  PGS_WSS_RAN_NO,        /* neither CPU time nor a context switch: it never ran */
  PGS_WSS_RAN_YES,
} PgsWssRan;

typedef struct _PgsWssSample PgsWssSample;

PgsWssSample        *pgs_wss_sample_ref                    (PgsWssSample  *self);
void                 pgs_wss_sample_unref                  (PgsWssSample  *self);

int                  pgs_wss_sample_get_pid                (PgsWssSample  *self);
PgsWssScope          pgs_wss_sample_get_scope              (PgsWssSample  *self);
guint                pgs_wss_sample_get_page_size          (PgsWssSample  *self);
/* Microseconds from the end of the clearing to the read-back: the interval really waited. */
gint64               pgs_wss_sample_get_elapsed            (PgsWssSample  *self);
/* Wall-clock time of the read-back (g_get_real_time), for a time axis. */
gint64               pgs_wss_sample_get_time               (PgsWssSample  *self);

/* Sums over the mappings in scope. */
guint64              pgs_wss_sample_get_rss                (PgsWssSample  *self);
guint64              pgs_wss_sample_get_referenced         (PgsWssSample  *self);
/* FALSE (and *bytes untouched) where the per-page source was not available. */
gboolean             pgs_wss_sample_get_accessed           (PgsWssSample  *self,
                                                            guint64       *bytes,
                                                            guint64       *known);
gboolean             pgs_wss_sample_get_written            (PgsWssSample  *self,
                                                            guint64       *bytes,
                                                            guint64       *known);

PgsWssPages          pgs_wss_sample_get_page_sources       (PgsWssSample  *self);
/* Why @source (one flag) is missing, as a sentence for people; NULL when it was used. */
const char          *pgs_wss_sample_get_page_source_reason (PgsWssSample  *self,
                                                            PgsWssPages    source);

/* The caveats found for the interval; none means none was detected, not a guarantee (see
 * pgs-wss-trust.c for what cannot be seen). */
guint                pgs_wss_sample_get_n_caveats          (PgsWssSample  *self);
const PgsWssCaveat  *pgs_wss_sample_get_caveat             (PgsWssSample  *self,
                                                            guint          index);
/* Whether the process ran during the interval; with YES or NO, *cpu_time (microseconds, at
 * clock-tick resolution) and *switches say how much. */
PgsWssRan            pgs_wss_sample_get_ran                (PgsWssSample  *self,
                                                            gint64        *cpu_time,
                                                            guint64       *switches);
/* "did not run during the interval" and the like, for beside a figure: translated. */
const char          *pgs_wss_ran_describe                  (PgsWssRan      ran);

guint                pgs_wss_sample_get_n_mappings         (PgsWssSample  *self);
const PgsWssMapping *pgs_wss_sample_get_mapping            (PgsWssSample  *self,
                                                            guint          index);
/* The mapping holding @address, or NULL. */
const PgsWssMapping *pgs_wss_sample_lookup_mapping         (PgsWssSample  *self,
                                                            guint64        address);

/* Per-page state of the page holding @address. */
PgsWssPageState      pgs_wss_sample_lookup_page            (PgsWssSample  *self,
                                                            guint64        address);
/* Calls @func for each run of pages with the same known state, in address order. Pages
 * between runs are UNKNOWN. */
typedef void (*PgsWssPageRunFunc) (guint64          start,
                                   guint64          n_pages,
                                   PgsWssPageState  state,
                                   gpointer         user_data);
void                 pgs_wss_sample_foreach_page_run       (PgsWssSample      *self,
                                                            PgsWssPageRunFunc  func,
                                                            gpointer           user_data);

/* A time series (PgsWssSample, all of one process and scope) as JSON; sizes in bytes,
 * per-page figures null where unavailable. @error_message, if not NULL, says why the series
 * stopped short. The field names are documented at the top of pgs-wss-sample.c. */
void                 pgs_wss_samples_to_json               (GString       *out,
                                                            const char    *name,
                                                            double         interval,
                                                            GPtrArray     *samples,
                                                            guint          n_requested,
                                                            const char    *error_message);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PgsWssSample, pgs_wss_sample_unref)

G_END_DECLS
