/* pgs-background.c
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A scan keeps a core busy reading /proc, the renderer and the release thread take
 * another: on a two-core machine the main thread and the X server then wait for a core,
 * and frames that take 15 ms of CPU took 50 ms of wall time. Background work runs at a
 * lower priority (nice +10, which any thread may ask for itself), so the window gets a
 * core first and the workers take what is left, which on an idle machine is everything.
 */

#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "pgs-background.h"

#define BACKGROUND_NICE 10

static void
lower_thread (pid_t tid)
{
  errno = 0;
  if (getpriority (PRIO_PROCESS, tid) < BACKGROUND_NICE && errno == 0)
    setpriority (PRIO_PROCESS, tid, BACKGROUND_NICE);
}

void
pgs_background_lower_current_thread (void)
{
  lower_thread ((pid_t) syscall (SYS_gettid));
}

void
pgs_background_lower_workers (void)
{
  g_autoptr(GDir) dir = g_dir_open ("/proc/self/task", 0, NULL);
  pid_t main_tid = getpid ();
  const char *name;

  if (dir == NULL)
    return;
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      pid_t tid = (pid_t) atoi (name);

      g_autofree char *comm_path = NULL;
      g_autofree char *comm = NULL;

      if (tid <= 0 || tid == main_tid)
        continue;
      /* Not GLib's thread-pool spawner: it starts every pool thread and gives it the
       * scheduler settings the pool captured from the main thread (nice 0). From a spawner
       * at nice +10 that is a raise, which an unprivileged process may not make: GLib then
       * fails with "Failed to set scheduler settings: Operation not permitted" (a
       * critical, fatal in the ui tests; seen as nobody in ui-unlocked and
       * ui-app-unprivileged). Its threads are lowered here once they exist. */
      comm_path = g_strdup_printf ("/proc/self/task/%s/comm", name);
      if (g_file_get_contents (comm_path, &comm, NULL, NULL) &&
          g_str_has_prefix (comm, "pool-spawner"))
        continue;
      lower_thread (tid);
    }
}
