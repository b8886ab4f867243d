/* pgs-damon-sysfs.h: what DAMON's sysfs says, read only
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Reads /sys/kernel/mm/damon/admin (kdamonds, their state and PID, each context's
 * operations, addr_unit, intervals and region limits, targets and their initial regions)
 * and the DAMON modules' parameters under /sys/module. Never writes: a kdamond on the
 * machine belongs to whoever started it.
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  guint64 start;   /* in the context's address units (see addr_unit) */
  guint64 end;
} PgsDamonRange;

typedef struct
{
  gboolean  has_pid_target;
  int       pid_target;      /* vaddr/fvaddr: the process monitored */
  GArray   *regions;         /* PgsDamonRange, the initial regions the user set */
} PgsDamonTarget;

typedef struct
{
  char      *operations;     /* "paddr", "vaddr", "fvaddr"; NULL when unreadable */
  gboolean   has_addr_unit;  /* the kernel has contexts/N/addr_unit (6.18+) */
  guint64    addr_unit;      /* bytes per address unit: 1 where the kernel has none */
  gboolean   intervals_known;
  guint64    sample_us;
  guint64    aggr_us;
  guint64    update_us;
  gboolean   nr_regions_known;
  guint64    min_nr_regions;
  guint64    max_nr_regions;
  guint      n_schemes;
  GPtrArray *targets;        /* PgsDamonTarget */
} PgsDamonContext;

typedef struct
{
  guint      index;          /* kdamonds/N */
  gboolean   state_known;
  gboolean   on;             /* state "on" */
  int        pid;            /* -1 when off or unreadable */
  GPtrArray *contexts;       /* PgsDamonContext */
} PgsDamonKdamond;

typedef struct
{
  char      *name;           /* "damon_reclaim", "damon_lru_sort", "damon_stat" */
  gboolean   enabled;
  int        kdamond_pid;    /* -1 when none */
} PgsDamonModule;

typedef struct
{
  char      *admin_dir;      /* SYSFS/kernel/mm/damon/admin */
  gboolean   present;        /* the kernel has DAMON's sysfs interface */
  guint      nr_kdamonds;
  GPtrArray *kdamonds;       /* PgsDamonKdamond */
  GPtrArray *modules;        /* PgsDamonModule: only those the kernel has */
} PgsDamonSysfs;

/* Reads the tree under @sysfs_root (NULL: "/sys"). A kernel without DAMON's sysfs gives a
 * PgsDamonSysfs with present FALSE; an unreadable tree (no permission) an error. */
PgsDamonSysfs   *pgs_damon_sysfs_read        (const char      *sysfs_root,
                                              GError         **error);
/* What a user who may not read the tree knows of it (DAMON's files are root's, 0600):
 * present, no kdamond or module known. */
PgsDamonSysfs   *pgs_damon_sysfs_new_unreadable (const char   *sysfs_root);
void             pgs_damon_sysfs_free        (PgsDamonSysfs   *self);

/* The kdamonds that are on, in index order (borrowed). */
GPtrArray       *pgs_damon_sysfs_running     (PgsDamonSysfs   *self);

/* The longest aggregation interval, in µs, of the running kdamonds' contexts that say
 * theirs; 0 when none does. A read waits for two of them. */
guint64          pgs_damon_sysfs_slowest_aggr_us (PgsDamonSysfs *self);

/* The first context of the running kdamond whose PID is @pid, or NULL. */
const PgsDamonContext *pgs_damon_sysfs_context_for_pid (PgsDamonSysfs *self,
                                                        int            pid);

/* Whether DAMON's sysfs is free: there, nr_kdamonds 0 or every kdamond off, and no DAMON
 * module running one. FALSE with the reason, translated, in @reason. Starting one of
 * Pagescope's own asks more (pgs_damon_own_can_start(): no kdamond configured at all,
 * since adding one makes the kernel rebuild theirs with default values). */
gboolean         pgs_damon_sysfs_can_start   (PgsDamonSysfs   *self,
                                              char           **reason);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PgsDamonSysfs, pgs_damon_sysfs_free)

G_END_DECLS
