/* pgs-kpage.c
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <string.h>

#include "pgs-kpage.h"
#include "pgs-procfs.h"

/* Neighbouring wanted chunks are read together, up to this many bytes a pread. */
#define MAX_READ_BYTES (64 * 1024)

static inline gboolean
chunk_wanted (const guint8 *wanted,
              guint64       chunk)
{
  return (wanted[chunk / 8] & (1u << (chunk % 8))) != 0;
}

gboolean
pgs_kpage_read (int            fd,
                const guint8  *wanted,
                guint64        n_chunks,
                guint          chunk_frames,
                guint64        n_frames,
                gpointer       dest,
                gboolean       as_u32,
                GError       **error)
{
  guint64 max_frames = MAX (chunk_frames, MAX_READ_BYTES / 8);
  g_autofree guint64 *buf = as_u32 ? g_new (guint64, max_frames) : NULL;
  guint64 chunk = 0;

  while (chunk < n_chunks && chunk * chunk_frames < n_frames)
    {
      guint64 first, count, end_chunk;
      guint64 *target;
      gssize n;

      if (!chunk_wanted (wanted, chunk))
        {
          chunk++;
          continue;
        }

      end_chunk = chunk + 1;
      while (end_chunk < n_chunks && chunk_wanted (wanted, end_chunk) &&
             (end_chunk + 1 - chunk) * chunk_frames <= max_frames)
        end_chunk++;

      first = chunk * chunk_frames;
      count = MIN ((end_chunk - chunk) * chunk_frames, n_frames - first);
      target = as_u32 ? buf : (guint64 *) dest + first;
      n = pgs_pread_full (fd, target, count * 8, first * 8);
      if (n < 0)
        {
          pgs_set_error_from_errno (error, errno, "kpage read at frame %" G_GUINT64_FORMAT, first);
          return FALSE;
        }

      if (as_u32)
        {
          guint32 *out = (guint32 *) dest + first;

          for (gssize i = 0; i < n / 8; i++)
            out[i] = (guint32) MIN (buf[i], G_MAXUINT32);
        }

      /* Short: past max_pfn; nothing further can be read. */
      if ((guint64) n < count * 8)
        break;
      chunk = end_chunk;
    }

  return TRUE;
}
