/* pgs-physmap.h: the map count and flags of every page frame, as runs
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "pgs-category.h"
#include "pgs-meminfo.h"
#include "pgs-types.h"

G_BEGIN_DECLS

#define PGS_TYPE_PHYSMAP (pgs_physmap_get_type ())

GType          pgs_physmap_get_type     (void) G_GNUC_CONST;
PgsPhysMap    *pgs_physmap_ref          (PgsPhysMap    *self);
void           pgs_physmap_unref        (PgsPhysMap    *self);

/* Reads ROOT/kpagecount and ROOT/kpageflags whole (in step, 1 MiB of each at a time, into
 * runs of frames with the same count and flags: 16 bytes a run, no array of frames), then ROOT/meminfo and ROOT/zoneinfo
 * (the kernel's counters, read right after the frames; missing ones leave the counters
 * unavailable, not an error). */
PgsPhysMap    *pgs_physmap_read         (const char    *procfs_root,
                                         GCancellable  *cancellable,
                                         GError       **error);
PgsPhysMap    *pgs_physmap_read_fds     (int            count_fd,
                                         int            flags_fd,
                                         GCancellable  *cancellable,
                                         GError       **error);
/* As pgs_physmap_read_fds(), and reads meminfo and zoneinfo under @root_fd (a procfs
 * directory; -1: no counters). */
PgsPhysMap    *pgs_physmap_read_fds_at  (int            root_fd,
                                         int            count_fd,
                                         int            flags_fd,
                                         GCancellable  *cancellable,
                                         GError       **error);
/* As pgs_physmap_read_fds_at(); with @mapped_only, kpagecount is read only around frames
 * whose kpageflags say mapped (KPF_MMAP), the others' counts taken as 0: the kernel counts
 * only mapped pages, so a count without the flag is a page mapped between the two reads. */
PgsPhysMap    *pgs_physmap_read_fds_mapped (int          root_fd,
                                            int          count_fd,
                                            int          flags_fd,
                                            gboolean     mapped_only,
                                            GCancellable *cancellable,
                                            GError      **error);
/* Takes ownership of both arrays (g_free), each @n_frames long, makes runs of them and
 * frees them. No kernel counters. */
PgsPhysMap    *pgs_physmap_new_take     (guint32       *counts,
                                         guint64       *flags,
                                         guint64        n_frames);
/* The full constructor, for snapshot files: as pgs_physmap_new_take() plus the texts of
 * /proc/meminfo and /proc/zoneinfo as read with the frames (either may be NULL: unknown).
 * The texts are copied and kept as they are, so that a snapshot can store them; what the
 * map shows is derived from them here, the same way as for a live read. */
PgsPhysMap    *pgs_physmap_new_full     (guint32       *counts,
                                         guint64       *flags,
                                         guint64        n_frames,
                                         const char    *meminfo_text,
                                         const char    *zoneinfo_text);

/* From runs: @n_runs runs of @run_lengths[i] frames with map count @run_counts[i] and
 * flags @run_flags[i], frame 0 first (copied; neighbours that are the same are joined, empty
 * runs skipped). The texts as for pgs_physmap_new_full(). */
PgsPhysMap    *pgs_physmap_new_from_runs (const guint64 *run_lengths,
                                          const guint32 *run_counts,
                                          const guint64 *run_flags,
                                          guint64        n_runs,
                                          const char    *meminfo_text,
                                          const char    *zoneinfo_text);

guint64        pgs_physmap_get_n_frames (PgsPhysMap    *self);

/* The runs: maximal, in frame order, covering frames 0 to n_frames - 1 without a gap. */
guint64        pgs_physmap_get_n_runs   (PgsPhysMap    *self);
/* Run @i (< n_runs): first frame, length, map count, flags; any out may be NULL. */
void           pgs_physmap_get_run      (PgsPhysMap    *self,
                                         guint64        i,
                                         guint64       *start,
                                         guint64       *n_frames,
                                         guint32       *count,
                                         guint64       *flags);
/* Runs @first to @first + @n - 1 (fewer at the end): their lengths, map counts and flags
 * into the arrays (any may be NULL). Returns how many runs it gave. For walking every run
 * in batches rather than a call a run. */
guint64        pgs_physmap_get_runs     (PgsPhysMap    *self,
                                         guint64        first,
                                         guint64        n,
                                         guint64       *lengths,
                                         guint32       *counts,
                                         guint64       *flags);
/* The distinct (map count, flags) pairs the runs have (@counts[k], @flags[k]: pair k, owned
 * by the map): how many. With pgs_physmap_get_run_pairs(), what depends only on a run's
 * count and flags can be worked out once a pair rather than once a run. */
guint32        pgs_physmap_get_pairs    (PgsPhysMap     *self,
                                         const guint32 **counts,
                                         const guint64 **flags);
/* As pgs_physmap_get_runs(), each run's length and pair (an index for
 * pgs_physmap_get_pairs()). */
guint64        pgs_physmap_get_run_pairs (PgsPhysMap   *self,
                                          guint64       first,
                                          guint64       n,
                                          guint64      *lengths,
                                          guint32      *pairs);
/* The run holding frame @pfn, n_runs past the end. By bisection, from the last lookup when
 * @pfn is in or just after its run (sequential access costs no search). */
guint64        pgs_physmap_find_run     (PgsPhysMap    *self,
                                         guint64        pfn);
/* The map count and flags of frame @pfn; FALSE (and 0, 0) past the end. */
gboolean       pgs_physmap_get_frame    (PgsPhysMap    *self,
                                         guint64        pfn,
                                         guint32       *count,
                                         guint64       *flags);

/* Arrays of every frame's count and flags, expanded from the runs on first use and kept
 * (12 bytes a frame): for callers that need arrays. Prefer the runs. */
const guint32 *pgs_physmap_get_counts   (PgsPhysMap    *self);
const guint64 *pgs_physmap_get_flags    (PgsPhysMap    *self);

/* The raw texts given to (or read by) the constructor; NULL when not available. */
const char    *pgs_physmap_get_meminfo_text  (PgsPhysMap *self);
const char    *pgs_physmap_get_zoneinfo_text (PgsPhysMap *self);
/* The parsed counters; NULL when meminfo was missing or unreadable
 * (pgs_physmap_get_counters_error() says why). */
const PgsMeminfo *pgs_physmap_get_meminfo    (PgsPhysMap *self);
/* The zones (PgsZone), empty when zoneinfo was missing or unreadable. */
const PgsZone *pgs_physmap_get_zones         (PgsPhysMap *self,
                                              guint      *n_zones);
/* Why the counters are unavailable ("no meminfo in /tmp/fx"), or NULL when both parsed. */
const char    *pgs_physmap_get_counters_error (PgsPhysMap *self);

/* Frames whose category the counters decide (never initialised, holes without NOPAGE):
 * sorted, disjoint PgsFrameSpan. */
const PgsFrameSpan *pgs_physmap_get_spans    (PgsPhysMap *self,
                                              guint      *n_spans);

/* The category of every frame: pgs_category_classify() on the flags, then the spans. */
void           pgs_physmap_classify     (PgsPhysMap    *self,
                                         guint8        *out,
                                         guint64       *counts);
/* For another classification of the frames (@classes, one byte each, and @counts per
 * class, or NULL): gives every frame of a span the class @class_of[span category]. */
void           pgs_physmap_override_classes (PgsPhysMap    *self,
                                             guint8        *classes,
                                             guint64       *counts,
                                             const guint8  *class_of);
/* The same for PgsShareClass: never initialised → free, hole → hole. */
void           pgs_physmap_override_share_classes (PgsPhysMap *self,
                                                   guint8     *classes,
                                                   guint64    *counts);
/* The category of one frame, a tail page following its head, spans applied. */
PgsCategory    pgs_physmap_get_category (PgsPhysMap    *self,
                                         guint64        pfn);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PgsPhysMap, pgs_physmap_unref)

G_END_DECLS
