/* pgs-wss-private.h: PgsWss's state, shared by the files that each hold one step of it
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The calls between the parts go one way (each list names what its file may call):
 *   pgs-wss-measure.c  → pgs_wss_clear, pgs_wss_collect (pgs-wss.h)
 *   pgs-wss-clear.c    → pgs_wss_prepare, pgs-wss-idle.c
 *   pgs-wss-collect.c  → pgs-wss-idle.c, pgs-wss-walk.c, pgs_wss_check_fields
 *   pgs-wss-idle.c     → pgs-wss-walk.c
 *   pgs-wss-prepare.c  → pgs_wss_probe_page_sources
 *   all of them        → the helpers of pgs-wss.c, which calls none of them
 */

#pragma once

#include "pgs-parse.h"
#include "pgs-wss.h"
#include "pgs-wss-trust.h"

G_BEGIN_DECLS

#define DEFAULT_SYSFS_ROOT "/sys"
#define PAGE_IDLE_BITMAP   "kernel/mm/page_idle/bitmap"

typedef struct
{
  guint64 address;
  guint64 pfn;
} MarkedPage;

struct _PgsWss
{
  GObject       parent_instance;

  int           pid;
  char         *procfs_root;
  char         *sysfs_root;
  PgsHelper    *helper;
  PgsWssScope   scope;
  gboolean      sources_forced;
  PgsWssPages   forced_sources;

  gboolean      prepared;
  gboolean      busy;
  guint         page_size;
  int           dir_fd;
  int           clear_fd;
  int           pidfd;
  int           pagemap_fd;
  int           kpageflags_fd;
  int           idle_fd;
  char         *name;
  PgsWssPages   sources;
  char         *idle_reason;
  char         *soft_dirty_reason;

  gboolean      cleared;
  PgsWssScope   cleared_scope;
  gint64        cleared_at;
  GArray       *marked;          /* MarkedPage, address order */
  guint64      *pm_buf;
  GArray       *regions;
  PgsWssTrust  *trust;           /* the counters at the clearing, for the caveats */
};

/* pgs-wss.c */
PgsHelper *pgs_wss_usable_helper  (PgsWss     *self);
/* "PID 42 (name)" once the name is known. */
char      *pgs_wss_describe       (PgsWss     *self);
void       pgs_wss_set_gone_error (PgsWss     *self,
                                   GError    **error,
                                   const char *when);

/* pgs-wss-prepare.c: whether an smaps record has the fields a sample needs. */
gboolean   pgs_wss_check_fields   (int                   pid,
                                   const PgsMapsEntry   *entry,
                                   const PgsSmapsFields *fields,
                                   GError              **error);

/* pgs-wss-walk.c: the present pages of [start, end), one at a time, read by the caller in
 * a loop (pgs_wss_walk_next), so that the walk never calls back into its callers' files. */
typedef struct
{
  PgsWss  *self;
  guint    next_region;   /* index into self->regions */
  guint64  addr;          /* the next batch to read */
  guint64  end;           /* the end of the region being read */
  gboolean short_read;    /* the last batch came back short: the region is done */
  guint64  batch_addr;    /* the address of self->pm_buf[0] */
  guint64  n_got;         /* entries in self->pm_buf */
  guint64  i;             /* the next entry of self->pm_buf to look at */
} PgsWssWalk;

/* Whether clear_refs with @scope clears a mapping of @inode. */
gboolean   pgs_wss_in_scope       (PgsWssScope     scope,
                                   guint64         inode);
void       pgs_wss_walk_init      (PgsWssWalk     *walk,
                                   PgsWss         *self,
                                   guint64         start,
                                   guint64         end);
gboolean   pgs_wss_walk_next      (PgsWssWalk     *walk,
                                   guint64        *address,
                                   guint64        *entry,
                                   GError        **error);

/* pgs-wss-idle.c */
typedef struct
{
  GHashTable *blocks;   /* from pgs_wss_idle_blocks_new: flags and idle bits read back */
  guint       cursor;   /* into self->marked */
} PgsWssIdleReadback;

GHashTable *pgs_wss_idle_blocks_new (void);
gboolean    pgs_wss_mark_idle       (PgsWss              *self,
                                     GError             **error);
/* Adds to *@state what the idle bitmap tells of the page at @address, now at frame @pfn.
 * Pages come in address order. */
gboolean    pgs_wss_idle_state      (PgsWss              *self,
                                     PgsWssIdleReadback  *readback,
                                     guint64              address,
                                     guint64              pfn,
                                     PgsWssPageState     *state,
                                     GError             **error);

G_END_DECLS
