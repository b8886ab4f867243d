/* pgs-frame-index.h: which processes map a page frame, and where
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _PgsFrameIndex PgsFrameIndex;

/* A page of a process at a frame. */
typedef struct
{
  guint   process;   /* position in the processes array */
  guint32 page;      /* index in that process's page arrays */
} PgsFramePage;

/* Indexes the present pages of @processes (PgsProcess, as a snapshot holds them: in PID
 * order, their page data immutable) by frame number. The index refers to the processes by
 * position and to their pages by index: it is only good with the same array. */
PgsFrameIndex *pgs_frame_index_new         (GPtrArray     *processes);
/* For tests: parts of at most @part_pages pages (2^32 in pgs_frame_index_new), each an
 * index of its own, so that the page references in each fit in 32 bits. */
PgsFrameIndex *pgs_frame_index_new_in_parts (GPtrArray    *processes,
                                             guint64       part_pages);
void           pgs_frame_index_free        (PgsFrameIndex *self);

/* Appends a PgsFramePage to @pages for every page at frame @pfn, in process then page
 * (that is address) order. */
void           pgs_frame_index_lookup      (PgsFrameIndex *self,
                                            guint64        pfn,
                                            GArray        *pages);

/* What the index holds: runs of pages, and the bytes they take. */
/* A run of one process's pages at consecutive frames: the process (its position), its
 * first page and how many. */
typedef struct
{
  guint   process;
  guint32 first_page;
  guint32 n_pages;
} PgsFrameRun;

/* Appends to @runs (PgsFrameRun) every run of pages at frames [@first, @end), clipped to
 * them; runs of one process come in no particular order. */
void           pgs_frame_index_collect_range (PgsFrameIndex *self,
                                              guint64        first,
                                              guint64        end,
                                              GArray        *runs);

gsize          pgs_frame_index_get_n_runs  (PgsFrameIndex *self);
gsize          pgs_frame_index_get_size    (PgsFrameIndex *self);

G_END_DECLS
