/* pgs-wss.h: working-set estimation with /proc/PID/clear_refs
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A PgsWss measures one process: it clears the referenced state of the process's pages
 * (writes 1, 2 or 3 to /proc/PID/clear_refs), lets the process run for an interval, and
 * reads /proc/PID/smaps back: each mapping's "Referenced" is what the process touched
 * again, its working set, next to its "Rss".
 *
 * Clearing perturbs the process: until it touches its pages again, the kernel's reclaim
 * sees them as idle (not recently used) and may evict them sooner. Tell the user before
 * measuring. Where soft-dirty is used, the process's soft-dirty bits are reset too (and its
 * pages write-protected until next written), which disturbs any other soft-dirty user such
 * as a checkpointing tool; where idle page tracking is used, marking a shared page idle
 * clears its accessed bits in every process that maps it.
 *
 * Per page, the kernel says which pages were touched only through idle page tracking
 * (CONFIG_IDLE_PAGE_TRACKING: /sys/kernel/mm/page_idle/bitmap, root) and which were written
 * only through soft-dirty (CONFIG_MEM_SOFT_DIRTY: pagemap bit 55 after writing 4 to
 * clear_refs). Both are probed at run time and used where present; what was used, and why
 * the rest was not, is on every sample. /proc/kpageflags KPF_REFERENCED is PG_referenced
 * alone, not the accessed bit in the page tables, and is not used.
 *
 * Measure another process: one that clears and reads its own bits perturbs what it
 * measures (its own reads of smaps touch its pages); this process's own PID is refused.
 *
 * One measurement at a time per object. The steps can be driven one by one (prepare, clear,
 * wait, collect: tests read the kernel's own smaps between them), or in one call, sync or
 * async. The async wait is a main-loop timeout, not a blocked thread: it can be cancelled
 * at any time, and it ends early, with PGS_ERROR_PROCESS_GONE, when the process exits.
 */

#pragma once

#include <gio/gio.h>

#include "pgs-wss-sample.h"

#include "pgs-helper.h"

G_BEGIN_DECLS

#define PGS_TYPE_WSS (pgs_wss_get_type ())

G_DECLARE_FINAL_TYPE (PgsWss, pgs_wss, PGS, WSS, GObject)

PgsWss        *pgs_wss_new                     (int                   pid);
int            pgs_wss_get_pid                 (PgsWss               *self);
const char    *pgs_wss_get_procfs_root         (PgsWss               *self);
void           pgs_wss_set_procfs_root         (PgsWss               *self,
                                                const char           *root);
/* With the privileged helper (the app unlocked), clear_refs, smaps, pagemap and kpageflags of
 * the live /proc are opened by it, so another user's process can be measured. NULL: directly. */
void           pgs_wss_set_helper              (PgsWss               *self,
                                                PgsHelper            *helper);
/* Where page_idle/bitmap is looked for: "/sys" unless a test says otherwise. */
const char    *pgs_wss_get_sysfs_root          (PgsWss               *self);
void           pgs_wss_set_sysfs_root          (PgsWss               *self,
                                                const char           *root);
PgsWssScope    pgs_wss_get_scope               (PgsWss               *self);
void           pgs_wss_set_scope               (PgsWss               *self,
                                                PgsWssScope           scope);
/* Uses exactly these per-page sources instead of probing the kernel for them; opening
 * their files then fails the preparation instead of leaving the source out. For tests on
 * fixture trees, and for a caller that wants none (PGS_WSS_PAGES_NONE). */
void           pgs_wss_set_page_sources        (PgsWss               *self,
                                                PgsWssPages           sources);

/* Checks everything that could fail before anything is cleared: the process exists, is not
 * a kernel thread nor a zombie, its clear_refs can be written and its smaps read, and
 * which per-page sources can be used. Errors (PGS_ERROR): NO_SUCH_PROCESS, KERNEL_THREAD,
 * PROCESS_GONE, NO_PERMISSION, FAILED; each message one sentence naming the PID. Called by
 * the other steps when not done yet. */
gboolean       pgs_wss_prepare                 (PgsWss               *self,
                                                GError              **error);
/* The process's name from status (after prepare). */
const char    *pgs_wss_get_name                (PgsWss               *self);
/* The per-page sources in use (after prepare), and why a missing one is missing. */
PgsWssPages    pgs_wss_get_page_sources        (PgsWss               *self);
const char    *pgs_wss_get_page_source_reason  (PgsWss               *self,
                                                PgsWssPages           source);

/* Clears the referenced bits (and soft-dirty bits, and marks the resident frames idle,
 * where those sources are in use) and starts the interval. */
gboolean       pgs_wss_clear                   (PgsWss               *self,
                                                GError              **error);
/* Reads the state back: a sample of the interval since the last clear. */
PgsWssSample  *pgs_wss_collect                 (PgsWss               *self,
                                                GError              **error);

/* Prepare if needed, clear, wait @interval_ms, collect. */
PgsWssSample  *pgs_wss_measure                 (PgsWss               *self,
                                                guint                 interval_ms,
                                                GCancellable         *cancellable,
                                                GError              **error);
void           pgs_wss_measure_async           (PgsWss               *self,
                                                guint                 interval_ms,
                                                GCancellable         *cancellable,
                                                GAsyncReadyCallback   callback,
                                                gpointer              user_data);
PgsWssSample  *pgs_wss_measure_finish          (PgsWss               *self,
                                                GAsyncResult         *result,
                                                GError              **error);

/* Which per-page sources this kernel offers this process (the caller's privileges
 * included), without touching any process; a reason for each one missing. */
PgsWssPages    pgs_wss_probe_page_sources      (const char           *sysfs_root,
                                                char                **idle_reason,
                                                char                **soft_dirty_reason);

G_END_DECLS
