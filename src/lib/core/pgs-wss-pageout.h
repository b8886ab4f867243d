/* pgs-wss-pageout.h: a page-exact working set, by paging a process out and watching what
 * returns
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A PgsPageout measures one process, or a group of them (a cgroup, an application): it pages
 * their private memory out (process_madvise (MADV_PAGEOUT), Linux 5.10+: anonymous pages to
 * swap, clean file pages dropped from the mapping), records each page's pagemap entry right
 * after, waits an interval, and reads pagemap again. A page the process touched is present
 * again, or sits in swap under another swap entry (touched, then paged out again by another
 * reclaimer such as a DAMON pageout scheme); a page it did not touch is where the page-out
 * left it. Unlike clear_refs this needs neither idle page tracking nor soft-dirty: pagemap's
 * present bit is exact per page.
 *
 * What it costs the process: every page it touches afterwards is a fault that brings it back
 * (from zram: a decompression), so it runs slower until its working set is back; compressing
 * the rest costs CPU at the page-out. Nothing is lost: the data only moves to swap.
 *
 * What cannot be measured, and is reported with its size as not measured, never as idle:
 *  - pages mapped by other processes too (MADV_PAGEOUT leaves them; pagemap's exclusive bit
 *    is clear), among them the zero page;
 *  - anonymous memory without swap (said on the result: only file pages are measured then);
 *  - pages the kernel would not page out (locked, pinned, dirty shared file pages, swap full)
 *    and mappings it refuses (mlock, hugetlb, PFN maps, [vvar] and the like).
 * File pages come back with their neighbours (fault-around, readahead), and large folios
 * where the kernel swaps them in whole: those figures are upper bounds and say so.
 *
 * The page-out itself goes through a PgsPageoutFunc: by default process_madvise() on a pidfd
 * held since the preparation (the kernel checks the caller's ptrace-read access and
 * CAP_SYS_NICE: root); the privileged helper offers the same call for the app.
 */

#pragma once

#include <gio/gio.h>

#include "pgs-helper.h"

G_BEGIN_DECLS

/* Pages out [starts[i], ends[i]) of @pid's memory, i < @n_ranges, each range page-aligned and
 * inside one mapping; sets *@advised_bytes to how much the kernel accepted. The signature of
 * pgs_helper_pageout() with the helper as @user_data. */
typedef gboolean (*PgsPageoutFunc) (gpointer       user_data,
                                    int            pid,
                                    const guint64 *starts,
                                    const guint64 *ends,
                                    guint          n_ranges,
                                    guint64       *advised_bytes,
                                    GCancellable  *cancellable,
                                    GError       **error);

/* The state of one virtual page after a measurement. */
typedef enum
{
  PGS_PAGEOUT_PAGE_UNKNOWN,      /* not measured: not resident before, or no such page */
  PGS_PAGEOUT_PAGE_TOUCHED,      /* present again, or back in swap under another entry */
  PGS_PAGEOUT_PAGE_STAYED_OUT,   /* where the page-out left it */
  PGS_PAGEOUT_PAGE_SHARED,       /* not measured: mapped by others too, left in place */
  PGS_PAGEOUT_PAGE_NOT_PAGED,    /* not measured: the kernel would not page it out */
  PGS_PAGEOUT_PAGE_NO_SWAP,      /* not measured: anonymous, and there is no swap */
} PgsPageoutPage;

/* Why a mapping's figure is an upper bound (flags). */
typedef enum /*< flags >*/
{
  PGS_PAGEOUT_EXACT         = 0,
  PGS_PAGEOUT_FAULT_AROUND  = 1 << 0,  /* file pages: fault-around and readahead */
  PGS_PAGEOUT_LARGE_FOLIOS  = 1 << 1,  /* large folios may be swapped in whole */
} PgsPageoutBound;

typedef struct
{
  guint64     start;
  guint64     end;
  guint64     inode;
  char        perms[5];
  gboolean    anonymous;       /* no file behind it */
  const char *path;            /* "" for anonymous memory */
  guint64     touched;         /* bytes */
  guint64     stayed_out;
  guint64     not_measured;    /* shared + not_paged + no_swap */
  guint64     shared;          /* of not_measured: mapped by others too */
  guint64     not_paged;       /* of not_measured: the kernel would not page it out */
  guint64     no_swap;         /* of not_measured: anonymous without swap */
  guint       bound;           /* PgsPageoutBound: touched may include untouched pages */
  const char *refused;         /* why the whole mapping was left alone, or NULL */
} PgsPageoutMapping;

typedef struct _PgsPageoutResult PgsPageoutResult;

PgsPageoutResult        *pgs_pageout_result_ref           (PgsPageoutResult *self);
void                     pgs_pageout_result_unref         (PgsPageoutResult *self);
int                      pgs_pageout_result_get_pid       (PgsPageoutResult *self);
const char              *pgs_pageout_result_get_name      (PgsPageoutResult *self);
guint                    pgs_pageout_result_get_page_size (PgsPageoutResult *self);
/* The interval asked for, and the one really waited (end of this process's page-out to its
 * read-back), in microseconds. */
gint64                   pgs_pageout_result_get_interval  (PgsPageoutResult *self);
gint64                   pgs_pageout_result_get_elapsed   (PgsPageoutResult *self);
/* How long paging this process out took (µs), and how many bytes it moved (present before,
 * not after). */
gint64                   pgs_pageout_result_get_pageout_time  (PgsPageoutResult *self);
guint64                  pgs_pageout_result_get_paged_out     (PgsPageoutResult *self);
/* Sums over the mappings. */
guint64                  pgs_pageout_result_get_touched       (PgsPageoutResult *self);
guint64                  pgs_pageout_result_get_stayed_out    (PgsPageoutResult *self);
guint64                  pgs_pageout_result_get_not_measured  (PgsPageoutResult *self);
guint64                  pgs_pageout_result_get_shared        (PgsPageoutResult *self);
/* Of touched, the bytes in mappings whose figure is an upper bound. */
guint64                  pgs_pageout_result_get_upper_bound   (PgsPageoutResult *self);
/* Whether anonymous pages could be measured (swap was active). */
gboolean                 pgs_pageout_result_get_swap          (PgsPageoutResult *self);
/* Whether a swap area was turned off during the interval: swapoff brings every page it
 * held back into memory, so pages counted as touched may not have been. */
gboolean                 pgs_pageout_result_get_swapoff       (PgsPageoutResult *self);
guint                    pgs_pageout_result_get_n_mappings    (PgsPageoutResult *self);
const PgsPageoutMapping *pgs_pageout_result_get_mapping       (PgsPageoutResult *self,
                                                               guint             index);
/* Per page: the state of the page holding @address. */
PgsPageoutPage           pgs_pageout_result_lookup_page       (PgsPageoutResult *self,
                                                               guint64           address);
/* Calls @func for each run of pages of one state, in address order; pages between runs are
 * UNKNOWN. */
typedef void (*PgsPageoutRunFunc) (guint64        start,
                                   guint64        n_pages,
                                   PgsPageoutPage state,
                                   gpointer       user_data);
void                     pgs_pageout_result_foreach_run       (PgsPageoutResult  *self,
                                                               PgsPageoutRunFunc  func,
                                                               gpointer           user_data);
/* "touched", "stayed_out", "shared", "not_paged", "no_swap", "unknown". */
const char              *pgs_pageout_page_to_string           (PgsPageoutPage    state);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PgsPageoutResult, pgs_pageout_result_unref)

#define PGS_TYPE_PAGEOUT (pgs_pageout_get_type ())

G_DECLARE_FINAL_TYPE (PgsPageout, pgs_pageout, PGS, PAGEOUT, GObject)

/* @pids: the processes measured together (one, or a group); copied. */
PgsPageout    *pgs_pageout_new               (const int       *pids,
                                              guint            n_pids);
void           pgs_pageout_set_procfs_root   (PgsPageout      *self,
                                              const char      *root);
/* Where transparent_hugepage is probed: "/sys" unless a test says otherwise. */
void           pgs_pageout_set_sysfs_root    (PgsPageout      *self,
                                              const char      *root);
/* The page-out step: NULL for the default, process_madvise() on the pidfd held since the
 * preparation. @notify frees @user_data with the object. */
void           pgs_pageout_set_func          (PgsPageout      *self,
                                              PgsPageoutFunc   func,
                                              gpointer         user_data,
                                              GDestroyNotify   notify);
/* With the privileged helper (the app unlocked), smaps and pagemap of the live /proc are
 * opened by it, so another user's process can be read. The page-out itself still goes
 * through the PgsPageoutFunc: set pgs_helper_pageout there too. */
void           pgs_pageout_set_helper        (PgsPageout      *self,
                                              PgsHelper       *helper);
/* Whether there is swap, for tests on fixture trees (else /proc/swaps is read). */
void           pgs_pageout_set_swap          (PgsPageout      *self,
                                              gboolean         swap);

/* Checks each process (exists, has an address space, is not this one), reads its mappings
 * and works out what a page-out involves. Errors (PGS_ERROR): NO_SUCH_PROCESS,
 * KERNEL_THREAD, PROCESS_GONE, NO_PERMISSION, UNSUPPORTED, FAILED. */
gboolean       pgs_pageout_prepare           (PgsPageout      *self,
                                              GError         **error);
/* After prepare: the resident bytes a page-out moves (private, in mappings it can page
 * out), and those it leaves (shared, refused, anonymous without swap). */
guint64        pgs_pageout_get_bytes         (PgsPageout      *self);
guint64        pgs_pageout_get_left_bytes    (PgsPageout      *self);
gboolean       pgs_pageout_get_swap          (PgsPageout      *self);
/* Free swap in bytes (from /proc/swaps), or G_MAXUINT64 where unknown. */
guint64        pgs_pageout_get_swap_free     (PgsPageout      *self);
guint          pgs_pageout_get_n_processes   (PgsPageout      *self);
int            pgs_pageout_get_pid           (PgsPageout      *self,
                                              guint            index);
const char    *pgs_pageout_get_name          (PgsPageout      *self,
                                              guint            index);
/* Processes that exited during the measurement ("PID 42 (name)"), dropped from it. */
const char * const *pgs_pageout_get_gone     (PgsPageout      *self);

/* Pages every process out, then records each page's state: the interval starts for each
 * process when its page-out ends. Any thread; progress through get_progress. A process that
 * exits meanwhile is dropped (get_gone); only when all have, PGS_ERROR_PROCESS_GONE. */
gboolean       pgs_pageout_page_out          (PgsPageout      *self,
                                              GCancellable    *cancellable,
                                              GError         **error);
/* Bytes paged out so far of pgs_pageout_get_bytes(), and whether the page-out is still
 * going: safe from any thread. */
gboolean       pgs_pageout_get_progress      (PgsPageout      *self,
                                              guint64         *done,
                                              guint64         *total);
/* How long the last page-out took, all processes (µs). */
gint64         pgs_pageout_get_pageout_time  (PgsPageout      *self);
/* Reads each process's pages back: one result per process still there (PgsPageoutResult),
 * in the order given. @interval_us is the interval asked for, for the record. */
GPtrArray     *pgs_pageout_collect           (PgsPageout      *self,
                                              gint64           interval_us,
                                              GError         **error);

/* Prepare if needed, page out (in a thread), wait @interval_ms (a main-loop timeout),
 * collect. Returns the results of pgs_pageout_collect. */
void           pgs_pageout_measure_async     (PgsPageout          *self,
                                              guint                interval_ms,
                                              GCancellable        *cancellable,
                                              GAsyncReadyCallback  callback,
                                              gpointer             user_data);
GPtrArray     *pgs_pageout_measure_finish    (PgsPageout          *self,
                                              GAsyncResult        *result,
                                              GError             **error);

/* process_madvise (@pidfd, MADV_PAGEOUT) over the ranges, at most IOV_MAX at a time; a range
 * the kernel refuses (EINVAL: a mapping that changed, ENOMEM: unmapped meanwhile) is skipped
 * and the rest advised. PGS_ERROR_PROCESS_GONE when the process has exited,
 * NO_PERMISSION without CAP_SYS_NICE or ptrace access, UNSUPPORTED before Linux 5.10. */
gboolean       pgs_process_madvise_pageout   (int              pidfd,
                                              const guint64   *starts,
                                              const guint64   *ends,
                                              guint            n_ranges,
                                              guint64         *advised_bytes,
                                              GCancellable    *cancellable,
                                              GError         **error);

/* The JSON of a series of cycles (each a GPtrArray of PgsPageoutResult, one per process
 * still there): see the top of pgs-wss-pageout-json.c for the fields. */
void           pgs_pageout_to_json           (GString          *out,
                                              PgsPageout       *self,
                                              GPtrArray        *cycles,
                                              guint             n_requested,
                                              const char       *error_message);

G_END_DECLS
