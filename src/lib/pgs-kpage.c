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

gint64
pgs_kpage_read (int            fd,
                const guint8  *wanted,
                guint64        n_frames,
                gpointer       dest,
                gboolean       as_u32,
                guint         *n_calls,
                GError       **error)
{
  guint64 n_chunks = (n_frames + PGS_KPAGE_CHUNK_FRAMES - 1) / PGS_KPAGE_CHUNK_FRAMES;
  g_autofree guint64 *buf = NULL;
  guint64 seen = 0;

  if (as_u32)
    buf = g_new (guint64, PGS_KPAGE_CHUNK_FRAMES);

  for (guint64 chunk = 0; chunk < n_chunks; chunk++)
    {
      guint64 first = chunk * PGS_KPAGE_CHUNK_FRAMES;
      guint64 count = MIN (PGS_KPAGE_CHUNK_FRAMES, n_frames - first);
      guint64 *target;
      gssize n;

      if (wanted != NULL && !(wanted[chunk / 8] & (1u << (chunk % 8))))
        continue;

      target = as_u32 ? buf : (guint64 *) dest + first;
      n = pgs_pread_full (fd, target, count * 8, first * 8);
      if (n_calls != NULL)
        (*n_calls)++;
      if (n < 0)
        {
          pgs_set_error_from_errno (error, errno, "kpage read at frame %" G_GUINT64_FORMAT, first);
          return -1;
        }

      if (as_u32)
        {
          guint32 *out = (guint32 *) dest + first;

          for (gssize i = 0; i < n / 8; i++)
            out[i] = (guint32) MIN (buf[i], G_MAXUINT32);
        }

      seen = first + n / 8;
      if ((guint64) n < count * 8)
        break;
    }

  return seen;
}
