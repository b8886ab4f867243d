/* wss-fixture.h: process 100, "worker", the working-set tests' fixture
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Process 100, "worker" (sizes in kB, from WORKER_SMAPS in wss-fixture.c):
 *
 *   mapping                    inode   Rss   Referenced
 *   /usr/bin/worker   r-xp      1234     4       4
 *   [heap]            rw-p         0   800     300
 *   libc.so.6         r-xp      5678  1200    1000
 *   /dev/zero (del.)  rw-s      9012  2048     512      shared anonymous: has a file
 *   (anonymous)       rw-p         0     0       0
 *   [stack]           rw-p         0    16       8
 *
 *   all:  Rss 4+800+1200+2048+0+16 = 4068, Referenced 4+300+1000+512+0+8 = 1824
 *   anon: Rss 800+0+16 = 816,              Referenced 300+0+8 = 308
 *   file: Rss 4+1200+2048 = 3252,          Referenced 4+1000+512 = 1516
 */

#pragma once

#include <pagescope.h>

#include "pgs-fixture.h"

#define KB G_GUINT64_CONSTANT (1024)

extern const char WORKER_SMAPS[];

/* A fixture with process 100 (smaps as above, an empty clear_refs). */
PgsFixture *build_worker        (void);
/* The contents of @relpath under the fixture's root. */
char       *read_fixture        (PgsFixture  *fx,
                                 const char  *relpath,
                                 gsize       *len);
void        assert_fixture_file (PgsFixture  *fx,
                                 const char  *relpath,
                                 const char  *expected);
/* A PgsWss of @pid reading the fixture's tree. */
PgsWss     *wss_for             (PgsFixture  *fx,
                                 int          pid,
                                 PgsWssScope  scope);
