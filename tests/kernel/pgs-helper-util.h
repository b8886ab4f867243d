/* pgs-helper-util.h: starting pagescope-helper the ways the helper tests need
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What pkexec does, without pkexec: the test (root) makes a socket pair and starts the
 * helper with one end as its stdin, optionally with PKEXEC_UID (the user pkexec would
 * report), the socket made as that user (its SO_PEERCRED), and a stand-in for pkcheck
 * (PGS_HELPER_TEST_PKCHECK, honoured by the build tree's pagescope-helper-test only).
 */

#pragma once

#include <glib.h>
#include <sys/types.h>

G_BEGIN_DECLS

typedef struct
{
  const char *helper;       /* the program: PGS_HELPER or PGS_HELPER_TEST */
  uid_t       socket_uid;   /* the effective uid the socket pair is made with */
  const char *pkexec_uid;   /* PKEXEC_UID, or NULL */
  const char *pkcheck;      /* PGS_HELPER_TEST_PKCHECK, or NULL */
} PgsTestHelper;

/* Starts the helper as our child; returns our end of its socket (greeting unread). */
int      pgs_test_helper_start     (const PgsTestHelper *how,
                                    pid_t               *pid);
/* Reads the greeting (or refusal) the helper sent first; returns it (static buffer). */
char    *pgs_test_helper_greeting  (int                  sock);
/* Sends one raw datagram, returns the reply (static buffer, NUL-terminated) and the
 * descriptor that came with it in *FD_OUT (-1 for none). */
char    *pgs_test_helper_request   (int                  sock,
                                    const void          *request,
                                    gsize                len,
                                    int                 *fd_out);
/* Waits up to 5 s for PID to exit; returns its wait status or -1. */
int      pgs_test_wait_exit        (pid_t                pid);
/* A process started from a fork of this test, running as UID: it writes "ready\n" to the
 * pipe it got and then sleeps until killed. Tracked for the cleanup at exit. */
pid_t    pgs_test_start_idle       (uid_t                uid);
/* Field 22 of /proc/PID/stat: the start time polkit names a process by. */
guint64  pgs_test_start_time       (pid_t                pid);
/* A stand-in for pkcheck in DIR named NAME that appends its arguments, one call a line, to
 * DIR/NAME.log and exits with CODE (or sleeps a minute when CODE is -1, after writing its
 * PID to DIR/NAME.pid). Returns its path. */
char    *pgs_test_fake_pkcheck     (const char          *dir,
                                    const char          *name,
                                    int                  code);

G_END_DECLS
