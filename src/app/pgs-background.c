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

static void
no_work (gpointer data,
         gpointer user_data)
{
}

static gpointer
create_first_pool (gpointer data)
{
  pgs_background_lower_current_thread ();
  g_thread_pool_free (g_thread_pool_new (no_work, NULL, 1, FALSE, NULL), TRUE, FALSE);
  return NULL;
}

/* GLib gives every new thread of its shared pools (GTask's among them) the scheduler
 * settings of the thread that created the first shared pool, and sets them from the thread
 * that pushes the work. When the first pool came from the main thread (nice 0) and a
 * lowered worker (nice +10) pushed work, the new thread asked for nice 0 again: a raise,
 * which an unprivileged process may not make, so GLib raised the critical "Failed to set
 * scheduler settings: Operation not permitted" (fatal in the ui tests run as nobody, now
 * and then; reproduced with a 20-line program as nobody). Creating the first shared pool
 * from a lowered thread makes +10 the pools' setting: never a raise, and the pool threads
 * start where pgs_background_lower_*() would put them anyway. */
void
pgs_background_init (void)
{
  static gsize done = 0;

  if (g_once_init_enter (&done))
    {
      g_thread_join (g_thread_new ("pgs-background", create_first_pool, NULL));
      g_once_init_leave (&done, 1);
    }
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

      if (tid > 0 && tid != main_tid)
        lower_thread (tid);
    }
}
