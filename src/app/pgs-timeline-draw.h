/* pgs-timeline-draw.h: the timeline strip's picture, for the screen and for a PNG
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "pgs-recording.h"
#include "pgs-timeline-data.h"

G_BEGIN_DECLS

/* What the strip shows: the widget fills one in to draw or to hit-test, the export one to
 * write a file. Nothing here is kept. */
typedef struct
{
  PgsRecording          *recording;
  const PgsTimelineData *data;          /* NULL while it is read */
  const char            *process_name;  /* of the PSS line */
  guint                  sample;        /* the cursor; G_MAXUINT for none */
  guint                  range_from;    /* shaded unless the whole recording */
  guint                  range_to;
  PangoContext          *context;       /* the widget's: its font */
  GdkRGBA                fg;
  int                    width;
  int                    height;
  gboolean               compact;       /* one line: the plot between its two times */
} PgsTimelineScene;

typedef struct
{
  double left, right, top, bottom;
} PgsTimelinePlot;

/* The plot inside the labels; FALSE where there is no room or no recording. */
gboolean pgs_timeline_scene_get_plot     (const PgsTimelineScene *scene,
                                          PgsTimelinePlot        *plot);
/* Where @sample is drawn, and the sample nearest @x: the one hit test. */
gboolean pgs_timeline_scene_get_sample_x (const PgsTimelineScene *scene,
                                          guint                   sample,
                                          double                 *x);
guint    pgs_timeline_scene_get_sample_at (const PgsTimelineScene *scene,
                                           double                  x);
/* What the strip shows at @sample, a line per band (the hover's tooltip); NULL for none. */
char    *pgs_timeline_scene_describe     (const PgsTimelineScene *scene,
                                          guint                   sample);
/* The tooltip at @x (the cursor's sample for @x < 0): its figures, then how to use the
 * strip; NULL where there is no plot. */
char    *pgs_timeline_scene_get_tooltip  (const PgsTimelineScene *scene,
                                          double                  x);
/* @scene at twice its size, dark on white (its fg is set so), as a PNG file. */
gboolean pgs_timeline_scene_write_png    (PgsTimelineScene       *scene,
                                          const char             *path,
                                          GError                **error);
void     pgs_timeline_scene_draw         (const PgsTimelineScene *scene,
                                          cairo_t                *cr);

G_END_DECLS
