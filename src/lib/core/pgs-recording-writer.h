/* pgs-recording-writer.h: appending samples and pictures to a recording file
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "pgs-sample.h"
#include "pgs-types.h"

G_BEGIN_DECLS

typedef struct _PgsRecordingWriter PgsRecordingWriter;

/* What the header of a new recording says; strings may be NULL (then read from the
 * machine: host name, kernel, boot id, time zone). */
typedef struct
{
  guint    interval_ms;
  guint    pages_every_ms;   /* 0: no pictures */
  gboolean privileged;
  const char *time_zone;     /* an identifier ("Europe/Berlin"); NULL: this machine's */
  const char *procfs_root;   /* NULL: /proc */
} PgsRecordingSetup;

/* Creates @path (replacing it) and writes its header. */
PgsRecordingWriter *pgs_recording_writer_new         (const char              *path,
                                                      const PgsRecordingSetup *setup,
                                                      GError                 **error);
/* Appends @sample (its time is the sample's). Each sample is one write(2): a crash or a
 * kill leaves every sample before it whole. */
gboolean            pgs_recording_writer_add_sample  (PgsRecordingWriter      *self,
                                                      const PgsSample         *sample,
                                                      GError                 **error);
/* Appends the page-level picture @snapshot, taken at @time (microseconds since the epoch). */
gboolean            pgs_recording_writer_add_picture (PgsRecordingWriter      *self,
                                                      PgsSnapshot             *snapshot,
                                                      gint64                   time,
                                                      GError                 **error);
/* Writes the index and closes the file; without it a reader rebuilds the index. */
gboolean            pgs_recording_writer_close       (PgsRecordingWriter      *self,
                                                      GError                 **error);
/* Closes the file (without an index if pgs_recording_writer_close was not called). */
void                pgs_recording_writer_free        (PgsRecordingWriter      *self);

guint64             pgs_recording_writer_get_size       (PgsRecordingWriter *self);
guint               pgs_recording_writer_get_n_samples  (PgsRecordingWriter *self);
guint               pgs_recording_writer_get_n_pictures (PgsRecordingWriter *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PgsRecordingWriter, pgs_recording_writer_free)

G_END_DECLS
