/* pgs-replay.h: an instant of a recording, as the session shows it
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "pagescope.h"
#include "pgs-growth.h"
#include "pgs-recording.h"

G_BEGIN_DECLS

#define PGS_TYPE_REPLAY (pgs_replay_get_type ())

G_DECLARE_FINAL_TYPE (PgsReplay, pgs_replay, PGS, REPLAY, GObject)

/* Properties: "snapshot" (the totals of the sample shown: every process, no pages),
 * "picture" (the page-level picture nearest that sample, NULL while it is read or where
 * the recording has none), "sample" and "picture-index" (G_MAXUINT for none), "loading"
 * (while a picture is read), "error" (why the last sample or picture could not be
 * read, or NULL), "range-from" and "range-to" (samples, pgs_replay_set_range), "growth"
 * (every process's change over that range, computed in a worker thread whenever the range
 * changes; NULL meanwhile). */
PgsReplay    *pgs_replay_new               (PgsRecording *recording);
PgsRecording *pgs_replay_get_recording     (PgsReplay    *self);
/* Moves to the sample nearest @time (µs since the epoch): its totals at once (a few small
 * decodings), the nearest picture in a worker thread when it is another one. */
void          pgs_replay_move_to_time      (PgsReplay    *self,
                                            gint64        time);
void          pgs_replay_move_to_sample    (PgsReplay    *self,
                                            guint         sample);
/* @samples later (earlier when negative), within the recording. */
void          pgs_replay_move_by           (PgsReplay    *self,
                                            int           samples);
PgsProcess   *pgs_replay_find_in_picture   (PgsReplay    *self,
                                            PgsProcess   *chosen);
guint         pgs_replay_get_sample        (PgsReplay    *self);
guint         pgs_replay_get_picture_index (PgsReplay    *self);
PgsSnapshot  *pgs_replay_get_snapshot      (PgsReplay    *self);
PgsSnapshot  *pgs_replay_get_picture       (PgsReplay    *self);
gboolean      pgs_replay_is_loading        (PgsReplay    *self);
const char   *pgs_replay_get_error         (PgsReplay    *self);
/* "sample 4 of 10, 2026-12-05 10:04:07 CET (+67 s)" for the totals; "page-level picture
 * 2 of 3, 2026-12-05 10:04:00 CET (+60 s), the nearest to that sample" for @pages. */
char         *pgs_replay_describe          (PgsReplay    *self,
                                            gboolean      pages);
/* The samples from @from to @to (either order; clamped to the recording): what a Growth
 * figure and a range comparison span. The whole recording until one is chosen. */
void          pgs_replay_set_range         (PgsReplay    *self,
                                            guint         from,
                                            guint         to);
void          pgs_replay_get_range         (PgsReplay    *self,
                                            guint        *from,
                                            guint        *to);
PgsGrowth    *pgs_replay_get_growth        (PgsReplay    *self);
/* Stops reading: the session is going. */
void          pgs_replay_cancel            (PgsReplay    *self);

G_END_DECLS
