/* pgs-timeline.h: a recording's memory over time, a strip to move through it with
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "pgs-session.h"
#include "pgs-timeline-data.h"

G_BEGIN_DECLS

#define PGS_TYPE_TIMELINE (pgs_timeline_get_type ())

G_DECLARE_FINAL_TYPE (PgsTimeline, pgs_timeline, PGS, TIMELINE, GtkWidget)

/* Properties: "session", "loading" (while the figures are read). Visible only
 * while the session has a recording: a file's, or live, the history's (pgs-history.h).
 * Actions: timeline.move-by (i), bound to Left and Right; timeline.export-png and
 * timeline.export-csv (a file chooser, then PgsTimeline::export-finished (GFile, GError
 * or NULL)); timeline.menu (right-click, Shift+F10, Menu). */
GtkWidget *pgs_timeline_new           (void);
void       pgs_timeline_set_compact   (PgsTimeline     *self,
                                       gboolean         compact);
gboolean   pgs_timeline_is_loading    (PgsTimeline     *self);
/* The figures drawn (also for tests): the value of @kind at @sample, the selected
 * process's PSS there; PGS_SAMPLE_ABSENT where the sample lacks it (a gap) or nothing is
 * read yet. */
guint64    pgs_timeline_get_value     (PgsTimeline     *self,
                                       guint            sample,
                                       PgsTimelineKind  kind);
guint64    pgs_timeline_get_pss       (PgsTimeline     *self,
                                       guint            sample);
/* The x (widget coordinates) where @sample is drawn, and the sample a click at @x picks:
 * the one hit test of the view. FALSE / G_MAXUINT with no recording or no room. */
gboolean   pgs_timeline_get_sample_x  (PgsTimeline     *self,
                                       guint            sample,
                                       double          *x);
guint      pgs_timeline_get_sample_at (PgsTimeline     *self,
                                       double           x);
/* The figures drawn as a CSV file (pgs_timeline_data_to_csv), with the selected process's
 * name; FALSE before they are read. timeline.export-csv asks where. */
gboolean   pgs_timeline_write_csv     (PgsTimeline     *self,
                                       const char      *path,
                                       GError         **error);
/* The strip as shown, at twice its size, dark on white, as a PNG file. */
gboolean   pgs_timeline_write_png     (PgsTimeline     *self,
                                       const char      *path,
                                       GError         **error);

G_END_DECLS
