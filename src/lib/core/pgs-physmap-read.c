/* pgs-physmap-read.c: reading /proc/kpagecount and /proc/kpageflags into runs
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Both files in step, 1 MiB of each at a time, on a thread a chunk ahead of the making of
 * runs: never an array of frames.
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "pgs-kpage.h"
#include "pgs-physmap.h"
#include "pgs-physmap-builder.h"
#include "pgs-procfs.h"

/* Frames read from each file at a time: 1 MiB of each through two reused buffers. */
#define READ_FRAMES (PGS_KPAGE_CHUNK_FRAMES * 16)

/* The frames of @fd from frame @n on, counted to the end (for the message when the two
 * files differ in length). */
static gboolean
count_rest (int           fd,
            guint64      *buf,
            guint64      *n,
            GError      **error)
{
  for (;;)
    {
      gssize got = pgs_pread_full (fd, buf, READ_FRAMES * 8, *n * 8);

      if (got < 0)
        {
          pgs_set_error_from_errno (error, errno, "kpage read at frame %" G_GUINT64_FORMAT, *n);
          return FALSE;
        }
      *n += got / 8;
      if (got < READ_FRAMES * 8)
        return TRUE;
    }
}

/* The reads run on a thread of their own, a chunk ahead, so that the kernel's copying
 * and the making of runs overlap: two slots, each a chunk of both files. */
typedef struct
{
  int       count_fd;
  int       flags_fd;
  gboolean  mapped_only;
  guint64  *cbuf[2];
  guint64  *fbuf[2];
  gssize    got_c[2];
  gssize    got_f[2];
  int       errsv[2];
  gboolean  full[2];
  gboolean  stop;
  GMutex    lock;
  GCond     cond;
} Reader;

/* Frames whose counts are read together when any of them is mapped: on a machine at rest
 * mapped frames lie in clusters (327,615 of 6.5 million frames in 1,845 blocks of 512, in
 * 195 stretches), so a sixth of kpagecount is read, in a few hundred reads. */
#define MAPPED_BLOCK 512

/* The counts of chunk @n where its flags (read already, @got_f bytes) say a frame of a
 * block is mapped; 0 elsewhere. Returns the bytes of counts the file covered as a whole
 * read would have, or -1. */
static gssize
read_mapped_counts (Reader  *r,
                    int      slot,
                    guint64  n,
                    gssize   got_f)
{
  const guint64 *f = r->fbuf[slot];
  guint64 *c = r->cbuf[slot];
  gsize frames = got_f / 8, at = 0;

  while (at < frames)
    {
      gsize start, end;
      gssize got;

      /* The next stretch of blocks with a mapped frame, at most a read long. */
      while (at < frames)
        {
          gsize stop = MIN (at + MAPPED_BLOCK, frames), k;

          for (k = at; k < stop && !(f[k] & PGS_KPF_BIT (PGS_KPF_MMAP)); k++)
            ;
          if (k < stop)
            break;
          memset (c + at, 0, (stop - at) * 8);
          at = stop;
        }
      if (at == frames)
        break;
      start = at;
      end = start;
      while (end < frames && end - start < READ_FRAMES)
        {
          gsize stop = MIN (end + MAPPED_BLOCK, frames), k;

          for (k = end; k < stop && !(f[k] & PGS_KPF_BIT (PGS_KPF_MMAP)); k++)
            ;
          if (k == stop)
            break;
          end = stop;
        }
      got = pgs_pread_full (r->count_fd, c + start, (end - start) * 8, (n + start) * 8);
      if (got < 0)
        return -1;
      if ((gsize) got < (end - start) * 8)
        return (gssize) (start * 8 + got);
      at = end;
    }
  return got_f;
}

/* Reads chunk @n of both files into @slot. Returns whether there may be more. */
static gboolean
reader_fill (Reader  *r,
             int      slot,
             guint64  n)
{
  gssize got_c, got_f = 0;

  if (r->mapped_only)
    {
      got_f = pgs_pread_full (r->flags_fd, r->fbuf[slot], READ_FRAMES * 8, n * 8);
      got_c = got_f >= 0 ? read_mapped_counts (r, slot, n, got_f) : 0;
      r->errsv[slot] = got_c < 0 || got_f < 0 ? errno : 0;
      r->got_c[slot] = got_c;
      r->got_f[slot] = got_f;
      return got_c == READ_FRAMES * 8 && got_f == READ_FRAMES * 8;
    }
  got_c = pgs_pread_full (r->count_fd, r->cbuf[slot], READ_FRAMES * 8, n * 8);
  if (got_c >= 0)
    got_f = pgs_pread_full (r->flags_fd, r->fbuf[slot], READ_FRAMES * 8, n * 8);
  r->errsv[slot] = got_c < 0 || got_f < 0 ? errno : 0;
  r->got_c[slot] = got_c;
  r->got_f[slot] = got_f;
  return got_c == READ_FRAMES * 8 && got_f == READ_FRAMES * 8;
}

static gpointer
reader_thread (gpointer data)
{
  Reader *r = data;
  guint64 n = 0;

  for (int slot = 0;; slot ^= 1)
    {
      gboolean more;

      g_mutex_lock (&r->lock);
      while (r->full[slot] && !r->stop)
        g_cond_wait (&r->cond, &r->lock);
      if (r->stop)
        {
          g_mutex_unlock (&r->lock);
          return NULL;
        }
      g_mutex_unlock (&r->lock);

      more = reader_fill (r, slot, n);
      n += READ_FRAMES;

      g_mutex_lock (&r->lock);
      r->full[slot] = TRUE;
      g_cond_broadcast (&r->cond);
      g_mutex_unlock (&r->lock);
      if (!more)
        return NULL;
    }
}

/* Reads both files in step, a chunk of each, into runs: no array of frames. The size is
 * not known in advance (procfs says 0). */
static gboolean
read_runs (int            count_fd,
           int            flags_fd,
           gboolean       mapped_only,
           RunBuilder    *b,
           GCancellable  *cancellable,
           GError       **error)
{
  Reader r = { count_fd, flags_fd, mapped_only };
  GThread *thread;
  gboolean ok = FALSE;
  guint64 n = 0;

  for (int k = 0; k < 2; k++)
    {
      r.cbuf[k] = g_new (guint64, READ_FRAMES);
      r.fbuf[k] = g_new (guint64, READ_FRAMES);
    }
  g_mutex_init (&r.lock);
  g_cond_init (&r.cond);
  /* Without a thread (or one core to share), each chunk is read when it is wanted. */
  thread = g_get_num_processors () > 1 ? g_thread_try_new ("pgs-kpage", reader_thread, &r, NULL)
                                       : NULL;

  for (int slot = 0;; slot ^= 1)
    {
      gssize got_c, got_f;
      const guint64 *cbuf = r.cbuf[slot], *fbuf = r.fbuf[slot];
      guint64 frames, i;

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        break;

      if (thread != NULL)
        {
          g_mutex_lock (&r.lock);
          while (!r.full[slot])
            g_cond_wait (&r.cond, &r.lock);
          g_mutex_unlock (&r.lock);
        }
      else
        reader_fill (&r, slot, n);
      got_c = r.got_c[slot];
      got_f = r.got_f[slot];

      if (got_c < 0 || got_f < 0)
        {
          pgs_set_error_from_errno (error, r.errsv[slot], "kpage read at frame %" G_GUINT64_FORMAT, n);
          break;
        }

      /* Both files cover every frame up to max_pfn; a difference means one was cut short. */
      if (got_c / 8 != got_f / 8)
        {
          guint64 n_counts = n + got_c / 8, n_flags = n + got_f / 8;

          if ((got_c / 8 > got_f / 8 && got_c == READ_FRAMES * 8 &&
               !count_rest (count_fd, r.cbuf[slot], &n_counts, error)) ||
              (got_f / 8 > got_c / 8 && got_f == READ_FRAMES * 8 &&
               !count_rest (flags_fd, r.fbuf[slot], &n_flags, error)))
            break;
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       "kpagecount has %" G_GUINT64_FORMAT " frames but kpageflags %" G_GUINT64_FORMAT,
                       n_counts, n_flags);
          break;
        }

      frames = got_c / 8;
      i = 0;
      while (i < frames)
        {
          guint64 c = cbuf[i], f = fbuf[i], j = i + 1;

          while (j < frames && cbuf[j] == c && fbuf[j] == f)
            j++;
          pgs_run_builder_add (b, (guint32) MIN (c, G_MAXUINT32), f, j - i);
          i = j;
        }
      n += frames;
      if (got_c < READ_FRAMES * 8)
        {
          ok = TRUE;
          break;
        }

      g_mutex_lock (&r.lock);
      r.full[slot] = FALSE;
      g_cond_broadcast (&r.cond);
      g_mutex_unlock (&r.lock);
    }

  if (thread != NULL)
    {
      g_mutex_lock (&r.lock);
      r.stop = TRUE;
      g_cond_broadcast (&r.cond);
      g_mutex_unlock (&r.lock);
      g_thread_join (thread);
    }
  g_mutex_clear (&r.lock);
  g_cond_clear (&r.cond);
  for (int k = 0; k < 2; k++)
    {
      g_free (r.cbuf[k]);
      g_free (r.fbuf[k]);
    }
  return ok;
}

PgsPhysMap *
pgs_physmap_read_fds (int            count_fd,
                      int            flags_fd,
                      GCancellable  *cancellable,
                      GError       **error)
{
  return pgs_physmap_read_fds_at (-1, count_fd, flags_fd, cancellable, error);
}

PgsPhysMap *
pgs_physmap_read_fds_at (int            root_fd,
                         int            count_fd,
                         int            flags_fd,
                         GCancellable  *cancellable,
                         GError       **error)
{
  return pgs_physmap_read_fds_mapped (root_fd, count_fd, flags_fd, FALSE, cancellable, error);
}

PgsPhysMap *
pgs_physmap_read_fds_mapped (int            root_fd,
                             int            count_fd,
                             int            flags_fd,
                             gboolean       mapped_only,
                             GCancellable  *cancellable,
                             GError       **error)
{
  g_autofree char *meminfo = NULL;
  g_autofree char *zoneinfo = NULL;
  RunBuilder b;
  PgsPhysMap *self;

  pgs_run_builder_init (&b);
  if (!read_runs (count_fd, flags_fd, mapped_only, &b, cancellable, error))
    {
      pgs_run_builder_clear (&b);
      return NULL;
    }

  /* Right after the frames, so that the counters describe the same moment as closely as
   * they can; missing files (a fixture tree) only leave them unavailable. */
  if (root_fd >= 0)
    {
      meminfo = pgs_read_file_at (root_fd, "meminfo", NULL, NULL);
      zoneinfo = pgs_read_file_at (root_fd, "zoneinfo", NULL, NULL);
    }

  self = pgs_physmap_new_from_builder (&b, meminfo, zoneinfo);
  return self;
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

  return pgs_physmap_read_fds_at (root_fd, count_fd, flags_fd, cancellable, error);
}
