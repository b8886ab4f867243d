/* pgs-procfs.h: opening and reading files under a procfs root
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The root defaults to /proc but can be any directory laid out like it, so the unit tests
 * run the same code on fixture trees. Everything here is plain fds and byte buffers.
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define PGS_PROCFS_DEFAULT_ROOT "/proc"

void      pgs_set_error_from_errno (GError     **error,
                                    int          errsv,
                                    const char  *format,
                                    ...) G_GNUC_PRINTF (3, 4);
int       pgs_open_at              (int          dirfd,
                                    const char  *name,
                                    int          flags,
                                    GError     **error);
int       pgs_open_pid_dir         (const char  *root,
                                    int          pid,
                                    GError     **error);
char     *pgs_read_file_at         (int          dirfd,
                                    const char  *name,
                                    gsize       *len,
                                    GError     **error);
char     *pgs_read_fd              (int          fd,
                                    const char  *name,
                                    gsize       *len,
                                    GError     **error);
char     *pgs_read_record_at       (int          dirfd,
                                    const char  *name,
                                    gsize       *len,
                                    GError     **error);
char     *pgs_read_record_fd       (int          fd,
                                    const char  *name,
                                    gsize       *len,
                                    GError     **error);
gssize    pgs_pread_full           (int          fd,
                                    void        *buf,
                                    gsize        len,
                                    guint64      offset);
gboolean  pgs_is_pid_name          (const char  *name,
                                    int         *pid);
int       pgs_close                (int          fd);

typedef int PgsFd;
G_DEFINE_AUTO_CLEANUP_FREE_FUNC (PgsFd, pgs_close, -1)

G_END_DECLS
