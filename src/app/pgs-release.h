/* pgs-release.h: letting go of snapshots off the main thread
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

/* Sets malloc's policy for the large, short-lived blocks of scans (glibc): call once,
 * before the first scan. */
void     pgs_release_init       (void);
/* Drops a reference to @object (NULL is fine) in a worker thread. For the objects whose last
 * reference frees a whole scan: snapshots, processes and renderers. */
void     pgs_release            (gpointer   object);
/* g_set_object(), with the old object released by pgs_release(). */
gboolean pgs_set_object_release (gpointer   object_ptr,
                                 gpointer   new_object);
/* g_clear_object(), likewise. */
void     pgs_clear_release      (gpointer   object_ptr);

G_END_DECLS
