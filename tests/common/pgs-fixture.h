/* pgs-fixture.h: fake procfs trees for tests
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Builds a directory laid out like /proc (PID/status, PID/maps, PID/pagemap, kpagecount,
 * kpageflags…) so the library runs its real code on numbers a test worked out by hand.
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _PgsFixture PgsFixture;

/* Entry builders for pagemap, as the kernel encodes them. */
#define FX_PRESENT(pfn)        ((G_GUINT64_CONSTANT (1) << 63) | (guint64) (pfn))
#define FX_PRESENT_EXCL(pfn)   (FX_PRESENT (pfn) | (G_GUINT64_CONSTANT (1) << 56))
#define FX_FILE                (G_GUINT64_CONSTANT (1) << 61)
#define FX_SWAPPED(type, off)  ((G_GUINT64_CONSTANT (1) << 62) | ((guint64) (off) << 5) | (type))

PgsFixture *pgs_fixture_new            (void);
void        pgs_fixture_free           (PgsFixture  *fx);
const char *pgs_fixture_get_root       (PgsFixture  *fx);

/* Writes ROOT/@relpath, making directories as needed. */
void        pgs_fixture_write          (PgsFixture  *fx,
                                        const char  *relpath,
                                        const char  *contents,
                                        gssize       len);
/* DAMON's sysfs with no kdamond (nr_kdamonds 0: free to start one), kdamonds/0's files
 * already there as the kernel makes them when nr_kdamonds is written, each with a value
 * that differs from what Pagescope writes, so that every write shows. */
void        pgs_fixture_add_free_damon (PgsFixture  *fx);
/* PID/status (with Vm* lines unless @kernel_thread) and PID/cmdline. */
void        pgs_fixture_add_process    (PgsFixture  *fx,
                                        int          pid,
                                        const char  *name,
                                        guint        uid,
                                        gboolean     kernel_thread);
/* Rewrites PID/status with @ppid as its parent (pgs_fixture_add_process writes 1). */
void        pgs_fixture_set_parent     (PgsFixture  *fx,
                                        int          pid,
                                        int          ppid);
/* Appends a maps line for [start, end) and makes the pagemap cover it (holes read 0). */
void        pgs_fixture_add_mapping    (PgsFixture  *fx,
                                        int          pid,
                                        guint64      start,
                                        guint64      end,
                                        const char  *perms,
                                        const char  *path);
/* Writes @n pagemap entries from virtual address @address on. */
void        pgs_fixture_set_pages      (PgsFixture  *fx,
                                        int          pid,
                                        guint64      address,
                                        const guint64 *entries,
                                        gsize        n);
/* The map count and flags of a frame; kpagecount/kpageflags are written by _commit. */
void        pgs_fixture_set_frame      (PgsFixture  *fx,
                                        guint64      pfn,
                                        guint64      count,
                                        guint64      flags);
void        pgs_fixture_commit         (PgsFixture  *fx);
/* Leaves out kpagecount/kpageflags, as a normal user sees /proc. */
void        pgs_fixture_set_unprivileged (PgsFixture *fx,
                                          gboolean    unprivileged);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PgsFixture, pgs_fixture_free)

G_END_DECLS
