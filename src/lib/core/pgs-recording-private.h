/* pgs-recording-private.h: a recording's internals; pgs-recording.c calls -index.c
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "pgs-recording-format.h"
#include "pgs-recording.h"

G_BEGIN_DECLS

typedef struct
{
  PgsFrameInfo info;
  gboolean     damaged;   /* its CRC failed when the index was rebuilt */
} Entry;

struct _PgsRecording
{
  GObject      parent_instance;
  GBytes      *bytes;
  const guint8 *data;
  gsize        len;
  GFile       *file;
  char        *path;         /* the local file it was opened from */
  char        *end_note;

  char        *hostname;
  char        *kernel;
  char        *boot_id;
  GTimeZone   *tz;
  gboolean     privileged;
  guint        interval_ms;
  guint        pages_every_ms;
  guint        page_size;
  gint64       boot_time;
  guint        clock_ticks;
  guint        version;    /* of the format: how pictures differ from the one before */

  GArray      *samples;    /* Entry */
  GArray      *pictures;   /* Entry */

  GMutex       lock;       /* the caches below: pictures load in threads */
  PgsSample   *state;      /* the last sample decoded, for reading on from it */
  guint        state_index;
  GBytes      *picture;    /* the last picture's GVariant decoded */
  guint        picture_index;

  PgsSnapshot *single;     /* a snapshot opened as a recording of one instant */
  PgsSample   *single_sample;
  GPtrArray   *held;       /* PgsSample: a recording kept in memory */
};

/* Reads @bytes' header and index into @self, new: FALSE where no sample can be read. */
gboolean _pgs_recording_read (PgsRecording  *self,
                              GBytes        *bytes,
                              GError       **error);

G_END_DECLS
