/* pgs-helper-protocol.h: what pagescope-helper and its client say to each other
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Header-only and plain C, because both sides include it: the helper (src/helper), which
 * links no library, and its client in the library (src/lib/core/pgs-helper.c).
 *
 * One AF_UNIX SOCK_SEQPACKET datagram each way, on the helper's stdin:
 *   greeting  PGS_HELPER_GREETING, or "ERR <errno> <text>\n" and exit 2 when the peer is
 *             not the process that started the helper
 *   request   "OPEN <pid> <name>\n"    a name of pgs_helper_files with pid_file 1
 *             "KPAGE <name>\n"         a name of pgs_helper_files with pid_file 0
 *             "PAGEOUT <pid> <start>-<end>[ <start>-<end>]...\n"
 *                                      at most PGS_HELPER_MAX_RANGES ranges, lower-case hex
 *                                      without leading zeros, page-aligned, ascending, not
 *                                      overlapping, each inside one line of the target's maps
 *             "ACCESS <seconds>\n"     1 to PGS_HELPER_MAX_ACCESS_SECONDS, decimal without a
 *                                      leading zero: read damon:damon_aggregated that long
 *             "MONITOR\n"              start a kdamond of the helper's own where DAMON's
 *                                      sysfs is free (src/helper/pgs-kdamond-writer.h): at
 *                                      most one at a time
 *             "UNMONITOR\n"            remove it now, every file written restored
 *   reply     "OK\n" with one descriptor (OPEN, KPAGE)
 *             "OK <requested> <advised>\n" (PAGEOUT; decimal bytes; advised < requested when
 *             the kernel stopped short, as when the process unmapped a range meanwhile)
 *             ACCESS: "OK <instance> <private-mount 0|1>\n" once the helper's own tracefs
 *             instance is enabled, then any number of "+<trace_pipe bytes>" (at most
 *             PGS_HELPER_ACCESS_CHUNK bytes after the '+'), then "END\n" once the instance is
 *             removed, or "ERR ..." as the last reply when anything failed. The client
 *             may send "STOP\n" meanwhile: the read ends early, as when its time is up (the
 *             bytes read so far, then "END"); any other datagram also ends it, answered
 *             with "ERR 22 ..." in place of "END"
 *             MONITOR: "OK <kdamond-index> <pid>\n" once it runs (pid -1 on a fake tree);
 *             "ERR 16 <reason>\n" (EBUSY) where DAMON's sysfs is not free, as "a kdamond runs
 *             (PID N)" or "damon_reclaim is enabled", and when one of ours runs already;
 *             "ERR 2 ..." (ENOENT) without DAMON's sysfs. UNMONITOR: "OK\n" once removed,
 *             "ERR 16 ..." when kdamond 0 is no longer ours (left as it is), "ERR 22 ..."
 *             when none of ours runs
 *             "ERR <errno> <text>\n"   EINVAL or EMSGSIZE: the request itself was refused;
 *             EACCES: not authorised; ECANCELED: the user dismissed the authentication;
 *             any other: what the kernel said
 * A PID is 1 to 7 decimal digits without a leading zero, at most PGS_HELPER_MAX_PID.
 * Requests that change a process (a name with changes 1, PAGEOUT) are served for the
 * caller's own processes, and for others' only under PGS_HELPER_ACTION_CHANGE, which the
 * helper asks polkit for at that request. ACCESS is served to root, and to others only under
 * PGS_HELPER_ACTION_ACCESS, asked for at each request; MONITOR likewise under
 * PGS_HELPER_ACTION_MONITOR. The monitor is removed when the helper exits in any way (its
 * watchdog process waits for that). The helper exits with status 0 when the client
 * hangs up or shuts down its sending side.
 */

#pragma once

#define PGS_HELPER_GREETING      "PAGESCOPE-HELPER 1\n"
/* The action pkexec checks to start the helper (reading), and the one the helper checks
 * itself before it changes another user's process. */
#define PGS_HELPER_ACTION_READ   "io.github.pagescope.Pagescope.helper"
#define PGS_HELPER_ACTION_CHANGE "io.github.pagescope.Pagescope.change"
/* The one it checks before it reads DAMON's access heat (a tracefs instance of its own). */
#define PGS_HELPER_ACTION_ACCESS "io.github.pagescope.Pagescope.access"
/* The one it checks before it starts a kdamond of its own (MONITOR). */
#define PGS_HELPER_ACTION_MONITOR "io.github.pagescope.Pagescope.monitor"
/* Bytes, newline included: "PAGEOUT 4194304" and 64 ranges of 16 + 1 + 16 digits and a
 * space fit. */
#define PGS_HELPER_MAX_REQUEST   2400
#define PGS_HELPER_MAX_REPLY     256
/* PID_MAX_LIMIT on 64-bit kernels (include/linux/threads.h). */
#define PGS_HELPER_MAX_PID       4194304
#define PGS_HELPER_MAX_RANGES    64
/* ACCESS: at most ten minutes (two aggregations of a monitor aggregating every five); the
 * trace bytes of one datagram. */
#define PGS_HELPER_MAX_ACCESS_SECONDS 600
#define PGS_HELPER_ACCESS_CHUNK  16384

/* The only files the helper opens: a request names one of these, never a path. */
static const struct
{
  const char *name;
  int         pid_file;  /* under /proc/PID, else under /proc */
  int         changes;   /* opened for writing: changes the process's memory state */
} pgs_helper_files[] __attribute__ ((unused)) = {
  { "maps",         1, 0 },
  { "smaps",        1, 0 },
  { "smaps_rollup", 1, 0 },
  { "pagemap",      1, 0 },
  { "clear_refs",   1, 1 },
  { "kpagecount",   0, 0 },
  { "kpageflags",   0, 0 },
};

#define PGS_HELPER_N_FILES (sizeof pgs_helper_files / sizeof pgs_helper_files[0])
