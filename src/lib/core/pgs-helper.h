/* pgs-helper.h: the client of pagescope-helper, which opens root's files of /proc for us
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "pgs-damon-access.h"

G_BEGIN_DECLS

#define PGS_TYPE_HELPER (pgs_helper_get_type ())

G_DECLARE_FINAL_TYPE (PgsHelper, pgs_helper, PGS, HELPER, GObject)

/* Starts the helper: `pkexec LIBEXECDIR/pagescope-helper`, or the command in the environment
 * variable PGS_HELPER_COMMAND (the test seam; split with g_shell_parse_argv), and waits for
 * its greeting. Fails with G_IO_ERROR_CANCELLED when the user dismissed the password dialog
 * (pkexec exit 126) and PGS_ERROR_NO_PERMISSION when not authorised (127), or when the
 * helper will not serve this process: it serves only the process that made its socket and
 * is its parent, so the command must run the helper in its own process, as pkexec does
 * (`sudo` forks and will not do).
 * PGS_HELPER_FD=N (a second seam, before PGS_HELPER_COMMAND) uses the inherited socket N
 * instead, for a test that starts the helper as root and the app as a user; the helper
 * greets once, so start once per socket. */
void        pgs_helper_start_async  (GCancellable         *cancellable,
                                     GAsyncReadyCallback   callback,
                                     gpointer              user_data);
PgsHelper  *pgs_helper_start_finish (GAsyncResult         *result,
                                     GError              **error);
PgsHelper  *pgs_helper_start        (GCancellable         *cancellable,
                                     GError              **error);
/* Talks to a helper already running on the other end of FD (a SOCK_SEQPACKET socket; taken
 * over, even on error): for tests, where root starts the helper and a user uses it. */
PgsHelper  *pgs_helper_new_for_fd   (int                   fd,
                                     GError              **error);
/* FALSE once the helper has gone; "closed" is emitted (in the thread-default main context
 * of the caller that made it) when that is noticed. */
gboolean    pgs_helper_is_running   (PgsHelper            *self);
/* Asks the helper to open one file; returns a new fd (caller closes) or -1 with error.
 * pid > 0: NAME one of "maps", "smaps", "smaps_rollup", "pagemap", "clear_refs";
 * pid == 0: NAME "kpagecount" or "kpageflags". Safe to call from any thread.
 * "clear_refs" (opened for writing) of another user's process needs polkit's action
 * io.github.pagescope.Pagescope.change, as pgs_helper_pageout() does: it may block on a
 * password dialog, and fails with G_IO_ERROR_CANCELLED or PGS_ERROR_NO_PERMISSION. */
int         pgs_helper_open         (PgsHelper            *self,
                                     int                   pid,
                                     const char           *name,
                                     GError              **error);

/* Pages out the N_RANGES ranges [STARTS[i], ENDS[i]) of process PID (MADV_PAGEOUT through
 * process_madvise(), which the helper calls: the kernel checks CAP_SYS_NICE of its caller).
 * Ranges are page-aligned and ascending, none overlapping, each inside one mapping of the
 * process's maps (the helper checks, and refuses the request otherwise). *ADVISED_BYTES is
 * what the kernel advised: less than asked when it stopped short (a range unmapped
 * meanwhile); on error, what it advised before. Another user's process needs polkit's
 * action io.github.pagescope.Pagescope.change, which the helper asks for then (the user may
 * see a password dialog: call from a worker thread); a dismissed dialog fails with
 * G_IO_ERROR_CANCELLED, a refusal with PGS_ERROR_NO_PERMISSION. Sent in requests of at most
 * 256 MiB, CANCELLABLE checked between them. Safe to call from any thread. */
gboolean    pgs_helper_pageout      (PgsHelper            *self,
                                     int                   pid,
                                     const guint64        *starts,
                                     const guint64        *ends,
                                     guint                 n_ranges,
                                     guint64              *advised_bytes,
                                     GCancellable         *cancellable,
                                     GError              **error);

/* ACCESS (pgs-helper-access.c): DAMON's damon:damon_aggregated events for SECONDS (1 to
 * 600) through a tracefs instance the helper makes and removes (root needs no
 * authorisation; others need polkit's io.github.pagescope.Pagescope.access, which the
 * helper asks for first: call from a worker thread). trace_pipe's bytes are fed to
 * ACCESS as they come (pgs_damon_access_feed(); not finished), exactly what the library's
 * own root reader (pgs-damon-reader.c) reads. At most PGS_HELPER_ACCESS_MAX_BYTES in all.
 * *INSTANCE (free it) and *PRIVATE_MOUNT say which instance was used. The helper is busy
 * meanwhile: other requests wait. Cancelling fails with G_IO_ERROR_CANCELLED: mid-read
 * it asks the helper to STOP, which removes its instance and serves on; before the read
 * began (polkit still asking), or when the helper does not answer STOP, it hangs up, and
 * the helper removes its instance and exits (the helper is closed afterwards). */
#define PGS_HELPER_ACCESS_MAX_BYTES (256 * 1024 * 1024)

gboolean    pgs_helper_read_access  (PgsHelper            *self,
                                     guint                 seconds,
                                     PgsDamonAccess       *access,
                                     char                **instance,
                                     gboolean             *private_mount,
                                     GCancellable         *cancellable,
                                     GError              **error);
/* The same in a thread, trace_pipe's bytes gathered whole (lines as the root reader reads
 * them, for pgs_damon_access_feed()). */
void        pgs_helper_read_access_async  (PgsHelper            *self,
                                           guint                 seconds,
                                           GCancellable         *cancellable,
                                           GAsyncReadyCallback   callback,
                                           gpointer              user_data);
GBytes     *pgs_helper_read_access_finish (PgsHelper            *self,
                                           GAsyncResult         *result,
                                           char                **instance,
                                           gboolean             *private_mount,
                                           GError              **error);

/* Opens NAME of PID, relative to DIRFD (/proc/PID, or /proc itself for PID 0): through HELPER
 * when it is not NULL, so that root opens it and pagemap shows frame numbers, else directly
 * (read-only). The one place the scanner asks for a file the kernel may guard. */
int         pgs_helper_open_at      (PgsHelper            *helper,
                                     int                   dirfd,
                                     int                   pid,
                                     const char           *name,
                                     GError              **error);
/* The same, read whole (NUL-terminated, *LEN without the NUL). */
char       *pgs_helper_read_at      (PgsHelper            *helper,
                                     int                   dirfd,
                                     int                   pid,
                                     const char           *name,
                                     gsize                *len,
                                     GError              **error);
/* The same for a file the kernel writes whole at the first read (pgs_read_record_fd). */
char       *pgs_helper_read_record_at (PgsHelper          *helper,
                                       int                 dirfd,
                                       int                 pid,
                                       const char         *name,
                                       gsize              *len,
                                       GError            **error);

G_END_DECLS
