/* pgs-wss-pageout-private.h: PgsPageout's state, shared by the files of its steps
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The calls between the parts go one way:
 *   pgs-wss-pageout-run.c     → pgs-wss-pageout.c (prepare, the helpers below),
 *                               pgs-wss-pageout-result.c (_pgs_pageout_result_*)
 *   pgs-wss-pageout-async.c   → pgs_pageout_page_out, pgs_pageout_collect
 *   pgs-wss-pageout-json.c    → the public accessors of the result
 */

#pragma once

#include "pgs-helper.h"
#include "pgs-wss-pageout.h"

G_BEGIN_DECLS

typedef struct
{
  guint64  start;
  guint64  end;
  guint64  inode;
  char     perms[5];
  gboolean anonymous;     /* no file behind it: needs swap to page out */
  char    *path;
  guint    bound;         /* PgsPageoutBound */
  const char *refused;    /* the kernel will not page this mapping out: why */
} PoVma;

/* Pages present or swapped before the page-out, in runs; entries[first …] holds each
 * page's pagemap entry right after the page-out: the baseline. */
typedef struct
{
  guint64 start;
  guint64 n_pages;
  guint64 first;
} PoRun;

typedef struct
{
  int      pid;
  char    *name;
  int      dir_fd;
  int      pidfd;
  int      pagemap_fd;
  GArray  *vmas;          /* PoVma, address order */
  GArray  *runs;          /* PoRun, address order */
  GArray  *entries;       /* guint64 */
  guint64  bytes;         /* resident private bytes a page-out moves (smaps) */
  guint64  left_bytes;    /* resident bytes it leaves */
  gint64   pageout_end;   /* monotonic µs */
  gint64   pageout_time;  /* µs */
  guint64  paged_out;     /* bytes the kernel accepted */
  gboolean gone;
} PoProc;

struct _PgsPageout
{
  GObject         parent_instance;

  char           *procfs_root;
  char           *sysfs_root;
  PgsHelper      *helper;
  PgsPageoutFunc  func;
  gpointer        func_data;
  GDestroyNotify  func_notify;
  int             swap_forced;    /* -1: probe */

  gboolean        prepared;
  gboolean        busy;
  guint           page_size;
  gboolean        swap;
  guint64         swap_free;
  guint           thp_anon;       /* PgsPageoutBound for anonymous mappings, by VmFlags: */
  gboolean        thp_always;     /* some size on for every mapping */
  gboolean        thp_madvise;    /* some size on for MADV_HUGEPAGE mappings */
  GArray         *procs;          /* PoProc */
  GPtrArray      *gone;           /* char *, NULL-terminated */
  gint64          pageout_time;
  char           *swap_areas;     /* at the end of the last page-out */

  guint64         progress_done;  /* atomic */
  guint64         progress_total;
  gint            paging;         /* atomic */
};

/* pgs-wss-pageout.c */
char     *_pgs_pageout_describe  (PoProc       *proc);
gboolean  _pgs_pageout_is_live   (PgsPageout   *self);
void      _pgs_pageout_mark_gone (PgsPageout   *self,
                                  PoProc       *proc);
gboolean  _pgs_pageout_read_vmas (PgsPageout  *self,
                                  PoProc      *proc,
                                  GError     **error);
char     *_pgs_pageout_swap_areas (PgsPageout *self);
gboolean  _pgs_pageout_swap_area_removed (const char *before,
                                          const char *after);
/* Whether @proc has exited: its pidfd is readable, or (fixtures) its directory is gone. */
gboolean  _pgs_pageout_has_exited (PoProc      *proc);

/* pgs-wss-pageout-result.c: a result under construction. */
typedef struct
{
  guint64        start;
  guint64        n_pages;
  PgsPageoutPage state;
} PoPageRun;

PgsPageoutResult *_pgs_pageout_result_new      (int               pid,
                                                const char       *name,
                                                guint             page_size,
                                                gboolean          swap);
/* Adds a mapping (strings copied); its sums start at 0. Returns its index. */
guint             _pgs_pageout_result_add_mapping (PgsPageoutResult *self,
                                                   const PoVma      *vma);
/* @n_pages pages from @start in mapping @index are in @state: counted, and run-coalesced. */
void              _pgs_pageout_result_add_pages (PgsPageoutResult *self,
                                                 guint             index,
                                                 guint64           start,
                                                 guint64           n_pages,
                                                 PgsPageoutPage    state);
void              _pgs_pageout_result_set_swapoff (PgsPageoutResult *self,
                                                   gboolean          swapoff);
void              _pgs_pageout_result_set_times (PgsPageoutResult *self,
                                                 gint64            interval,
                                                 gint64            elapsed,
                                                 gint64            pageout_time,
                                                 guint64           paged_out);

G_END_DECLS
