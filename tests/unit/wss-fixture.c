/* wss-fixture.c: process 100, "worker", the working-set tests' fixture
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "wss-fixture.h"

const char WORKER_SMAPS[] =
  "00400000-00401000 r-xp 00000000 08:01 1234                               /usr/bin/worker\n"
  "Size:                  4 kB\n"
  "KernelPageSize:        4 kB\n"
  "MMUPageSize:           4 kB\n"
  "Rss:                   4 kB\n"
  "Pss:                   4 kB\n"
  "Pss_Dirty:             0 kB\n"
  "Shared_Clean:          0 kB\n"
  "Shared_Dirty:          0 kB\n"
  "Private_Clean:         4 kB\n"
  "Private_Dirty:         0 kB\n"
  "Referenced:            4 kB\n"
  "Anonymous:             0 kB\n"
  "KSM:                   0 kB\n"
  "LazyFree:              0 kB\n"
  "Swap:                  0 kB\n"
  "SwapPss:               0 kB\n"
  "Locked:                0 kB\n"
  "THPeligible:           0\n"
  "VmFlags: rd ex mr mw me sd\n"
  "01000000-01100000 rw-p 00000000 00:00 0                                  [heap]\n"
  "Size:               1024 kB\n"
  "Rss:                 800 kB\n"
  "Pss:                 800 kB\n"
  "Referenced:          300 kB\n"
  "Anonymous:           800 kB\n"
  "VmFlags: rd wr mr mw me ac sd\n"
  "7f0000000000-7f0000200000 r-xp 00000000 08:01 5678                       /usr/lib/libc.so.6\n"
  "Size:               2048 kB\n"
  "Rss:                1200 kB\n"
  "Pss:                 300 kB\n"
  "Referenced:         1000 kB\n"
  "Anonymous:             0 kB\n"
  "VmFlags: rd ex mr mw me sd\n"
  "7f0000400000-7f0000800000 rw-s 00000000 00:01 9012                       /dev/zero (deleted)\n"
  "Size:               4096 kB\n"
  "Rss:                2048 kB\n"
  "Pss:                2048 kB\n"
  "Referenced:          512 kB\n"
  "Anonymous:             0 kB\n"
  "VmFlags: rd wr sh mr mw me ms sd\n"
  "7f0001000000-7f0001400000 rw-p 00000000 00:00 0 \n"
  "Size:               4096 kB\n"
  "Rss:                   0 kB\n"
  "Pss:                   0 kB\n"
  "Referenced:            0 kB\n"
  "Anonymous:             0 kB\n"
  "VmFlags: rd wr mr mw me ac sd\n"
  "7ffc00000000-7ffc00021000 rw-p 00000000 00:00 0                          [stack]\n"
  "Size:                132 kB\n"
  "Rss:                  16 kB\n"
  "Pss:                  16 kB\n"
  "Referenced:            8 kB\n"
  "Anonymous:            16 kB\n"
  "VmFlags: rd wr mr mw me gd ac\n";

PgsFixture *
build_worker (void)
{
  PgsFixture *fx = pgs_fixture_new ();

  pgs_fixture_add_process (fx, 100, "worker", 0, FALSE);
  pgs_fixture_write (fx, "100/smaps", WORKER_SMAPS, -1);
  pgs_fixture_write (fx, "100/clear_refs", "", 0);
  return fx;
}

char *
read_fixture (PgsFixture *fx,
              const char *relpath,
              gsize      *len)
{
  g_autofree char *path = g_build_filename (pgs_fixture_get_root (fx), relpath, NULL);
  g_autoptr(GError) error = NULL;
  char *text = NULL;

  g_file_get_contents (path, &text, len, &error);
  g_assert_no_error (error);
  return text;
}

void
assert_fixture_file (PgsFixture *fx,
                     const char *relpath,
                     const char *expected)
{
  g_autofree char *text = read_fixture (fx, relpath, NULL);

  g_assert_cmpstr (text, ==, expected);
}

PgsWss *
wss_for (PgsFixture  *fx,
         int          pid,
         PgsWssScope  scope)
{
  PgsWss *wss = pgs_wss_new (pid);

  pgs_wss_set_procfs_root (wss, pgs_fixture_get_root (fx));
  pgs_wss_set_scope (wss, scope);
  return wss;
}
