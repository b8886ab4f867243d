/* pgs-release.c
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The last reference to a snapshot frees every process's packed pages, the physical map
 * (12 bytes a frame: 75 MB for 24 GiB) and the frame index: tens of milliseconds of free()
 * and munmap() that, on the main loop, showed up as the longest stall of a refresh. Every
 * holder in the app (window, list rows, detail, map pages and views) lets go through here,
 * so whichever is last, the freeing happens in this one worker thread.
 */

#include "config.h"

#include <stdlib.h>   /* defines __GLIBC__ with glibc */
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "pgs-background.h"
#include "pgs-release.h"

static GThreadPool *pool;

static void
release_func (gpointer data,
              gpointer user_data)
{
  pgs_background_lower_current_thread ();
  g_object_unref (data);
#ifdef __GLIBC__
  /* A scan is allocated in a worker thread's malloc arena and freed here; glibc keeps
   * what was freed inside an arena for the next allocation there, and a refresh shifts
   * the next scan to another arena: 40 MB held and unused after 20 refreshes. Once the
   * queue is drained, that goes back to the kernel (a few milliseconds, in this thread). */
  if (g_thread_pool_unprocessed (pool) == 0)
    malloc_trim (0);
#endif
}

void
pgs_release_init (void)
{
#ifdef __GLIBC__
  /* glibc serves a large block from its own mapping only below a threshold that rises to
   * the size of every such block freed (up to 32 MB): after one refresh, a scan's page
   * arrays come from the arenas instead, and leave holes there once freed. Fixed
   * thresholds keep them in mappings of their own, returned whole on free:
   * bench-app-memory, anonymous memory after 20 refreshes 69 -> 49 MB, and flat over 100
   * more instead of +7 MB. */
  mallopt (M_MMAP_THRESHOLD, 256 * 1024);
  mallopt (M_TRIM_THRESHOLD, 1024 * 1024);
  /* And two arenas, not eight per core: which worker thread a scan's allocations landed
   * in decided whether a new arena was made mid-run, and ui-memory (anonymous memory over
   * 100 refreshes, 8 MB allowed) jumped by 12-19 MB in 1 run of 4 with the list showing
   * ten rows; 0 of 6 with two arenas, and the same 84 MB. */
  mallopt (M_ARENA_MAX, 2);
#endif
}

void
pgs_release (gpointer object)
{
  if (object == NULL)
    return;
  g_return_if_fail (G_IS_OBJECT (object));

  if (g_once_init_enter (&pool))
    g_once_init_leave (&pool, g_thread_pool_new (release_func, NULL, 1, FALSE, NULL));
  g_thread_pool_push (pool, object, NULL);
}

gboolean
pgs_set_object_release (gpointer object_ptr,
                        gpointer new_object)
{
  GObject **ptr = object_ptr;
  GObject *old = *ptr;

  if (old == new_object)
    return FALSE;
  *ptr = new_object != NULL ? g_object_ref (new_object) : NULL;
  pgs_release (old);
  return TRUE;
}

void
pgs_clear_release (gpointer object_ptr)
{
  GObject **ptr = object_ptr;
  GObject *old = *ptr;

  *ptr = NULL;
  pgs_release (old);
}
