/* pgs-librank.h: every mapped file, summed over the processes that map it
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "pgs-snapshot.h"
#include "pgs-types.h"

G_BEGIN_DECLS

/* One file: the sums of every mapping of @path in the processes that map it (as smaps would
 * give them, one entry per mapping). A figure is known only where it is known for every
 * one of those mappings. */
typedef struct
{
  char    *path;         /* as maps shows it, " (deleted)" included */
  GArray  *pids;         /* int, the processes mapping it, in the order given */
  guint    n_mappings;
  guint64  vss;
  guint64  rss;
  guint64  pss_fp;       /* PSS << PGS_PSS_SHIFT */
  guint64  uss;
  guint64  swap;
  guint    known;        /* PgsMetric */
} PgsLibFile;

void       pgs_lib_file_free (PgsLibFile *file);

/* Whether a maps path names a file (libraries, fonts, data files, executables, memfd and
 * shared memory objects), not "[heap]", "[stack]", "[anon:…]" or an anonymous mapping. */
gboolean   pgs_librank_is_file (const char *path);

/* The files mapped by @processes (PgsProcess, scanned with PGS_SCAN_MAPPINGS), largest PSS
 * first. @n_unmapped, if not NULL, is set to the number of processes whose mappings could
 * not be read (another user's, without root): they are in no file's figures. */
GPtrArray *pgs_librank (GPtrArray *processes,
                        guint     *n_unmapped);

/* One process's share of a file: the sums of its own mappings of the path. */
typedef struct
{
  int      pid;
  guint    n_mappings;
  guint64  vss;
  guint64  rss;
  guint64  pss_fp;       /* PSS << PGS_PSS_SHIFT */
  guint64  uss;
  guint64  swap;
  guint    known;        /* PgsMetric */
} PgsLibUser;

/* The processes among @processes that map @path, each with the sums of its mappings of it,
 * in the order of @processes. A GArray of PgsLibUser, empty when none maps it. */
GArray    *pgs_librank_file_users (GPtrArray   *processes,
                                   const char  *path);

/* The frames holding the pages of a file: every present page of every mapping of the path
 * in every process of a snapshot. */
typedef struct
{
  guint64 *pfns;            /* sorted, distinct, none 0 */
  gsize    n_pfns;
  guint    n_processes;     /* processes mapping the path */
  guint    n_without_pages; /* of those, the ones whose pages the snapshot does not hold */
  guint    n_pfn_hidden;    /* of those, the ones whose pagemap gave no frame numbers
                             * (read without root) */
} PgsFileFrames;

void           pgs_file_frames_free    (PgsFileFrames *frames);

/* The frames of @path in @snapshot. Only the processes whose pages were scanned
 * (PGS_SCAN_PAGES, or pages scanned on demand later) contribute: the counts say how many
 * could not, so a caller can say why a set is empty or partial. */
PgsFileFrames *pgs_librank_file_frames (PgsSnapshot *snapshot,
                                        const char  *path);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PgsLibFile, pgs_lib_file_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (PgsFileFrames, pgs_file_frames_free)

G_END_DECLS
