/* pgs-physmap.c
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Two packed arrays indexed by frame number: never an object per frame. Counts are kept
 * as u32 (a map count over 4 billion saturates), flags as the kernel's u64.
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>

#include "pgs-kpage.h"
#include "pgs-physmap.h"
#include "pgs-procfs.h"

struct _PgsPhysMap
{
  gatomicrefcount  ref_count;
  guint64          n_frames;
  guint32         *counts;
  guint64         *flags;
};

G_DEFINE_BOXED_TYPE (PgsPhysMap, pgs_physmap, pgs_physmap_ref, pgs_physmap_unref)

PgsPhysMap *
pgs_physmap_new_take (guint32 *counts,
                      guint64 *flags,
                      guint64  n_frames)
{
  PgsPhysMap *self = g_new0 (PgsPhysMap, 1);

  g_atomic_ref_count_init (&self->ref_count);
  self->counts = counts;
  self->flags = flags;
  self->n_frames = n_frames;
  return self;
}

PgsPhysMap *
pgs_physmap_ref (PgsPhysMap *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
pgs_physmap_unref (PgsPhysMap *self)
{
  g_return_if_fail (self != NULL);
  if (g_atomic_ref_count_dec (&self->ref_count))
    {
      g_free (self->counts);
      g_free (self->flags);
      g_free (self);
    }
}

guint64
pgs_physmap_get_n_frames (PgsPhysMap *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->n_frames;
}

const guint32 *
pgs_physmap_get_counts (PgsPhysMap *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->counts;
}

const guint64 *
pgs_physmap_get_flags (PgsPhysMap *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->flags;
}

/* Reads one kpage file whole through one reused chunk buffer; the size is not known in
 * advance (procfs says 0), so the arrays grow geometrically. */
static gboolean
read_whole (int            fd,
            gboolean       as_u32,
            gpointer      *out,
            guint64       *n_out,
            GCancellable  *cancellable,
            GError       **error)
{
  g_autofree guint64 *buf = g_new (guint64, PGS_KPAGE_CHUNK_FRAMES);
  g_autofree gpointer data = NULL;
  gsize elem = as_u32 ? 4 : 8;
  guint64 cap = 0, n = 0;

  for (;;)
    {
      gssize got;

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return FALSE;

      got = pgs_pread_full (fd, buf, PGS_KPAGE_CHUNK_FRAMES * 8, n * 8);
      if (got < 0)
        {
          pgs_set_error_from_errno (error, errno, "kpage read at frame %" G_GUINT64_FORMAT, n);
          return FALSE;
        }
      if (n + got / 8 > cap)
        {
          cap = MAX (cap * 2, 1u << 18);
          data = g_realloc (data, cap * elem);
        }
      /* Whole entries only: a file whose size is not a multiple of 8 (a damaged fixture)
       * left up to 7 bytes to copy into an array with no room for them. */
      if (as_u32)
        for (gssize i = 0; i < got / 8; i++)
          ((guint32 *) data)[n + i] = (guint32) MIN (buf[i], G_MAXUINT32);
      else if (got >= 8)
        memcpy ((guint64 *) data + n, buf, (gsize) (got / 8) * 8);
      n += got / 8;
      if (got < PGS_KPAGE_CHUNK_FRAMES * 8)
        break;
    }

  *out = g_steal_pointer (&data);
  *n_out = n;
  return TRUE;
}

PgsPhysMap *
pgs_physmap_read_fds (int            count_fd,
                      int            flags_fd,
                      GCancellable  *cancellable,
                      GError       **error)
{
  g_autofree guint32 *counts = NULL;
  g_autofree guint64 *flags = NULL;
  guint64 n_counts = 0, n_flags = 0;

  if (!read_whole (count_fd, TRUE, (gpointer *) &counts, &n_counts, cancellable, error) ||
      !read_whole (flags_fd, FALSE, (gpointer *) &flags, &n_flags, cancellable, error))
    return NULL;

  /* Both files cover every frame up to max_pfn; a difference means one was cut short. */
  if (n_counts != n_flags)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "kpagecount has %" G_GUINT64_FORMAT " frames but kpageflags %" G_GUINT64_FORMAT,
                   n_counts, n_flags);
      return NULL;
    }

  return pgs_physmap_new_take (g_steal_pointer (&counts), g_steal_pointer (&flags), n_counts);
}

PgsPhysMap *
pgs_physmap_read (const char    *procfs_root,
                  GCancellable  *cancellable,
                  GError       **error)
{
  g_auto(PgsFd) root_fd = -1;
  g_auto(PgsFd) count_fd = -1;
  g_auto(PgsFd) flags_fd = -1;

  root_fd = pgs_open_at (AT_FDCWD, procfs_root ? procfs_root : PGS_PROCFS_DEFAULT_ROOT,
                         O_RDONLY | O_DIRECTORY, error);
  if (root_fd < 0)
    return NULL;
  count_fd = pgs_open_at (root_fd, "kpagecount", O_RDONLY, error);
  if (count_fd < 0)
    return NULL;
  flags_fd = pgs_open_at (root_fd, "kpageflags", O_RDONLY, error);
  if (flags_fd < 0)
    return NULL;

  return pgs_physmap_read_fds (count_fd, flags_fd, cancellable, error);
}
