/* pgs-timeline-private.h: the timeline's internals; pgs-timeline.c calls -export.c and
 * -strip.c, -export.c calls -strip.c, none calls back
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "pgs-timeline-draw.h"
#include "pgs-timeline.h"

G_BEGIN_DECLS

#define PGS_TIMELINE_STRIP_HEIGHT   120
#define PGS_TIMELINE_COMPACT_HEIGHT 32

struct _PgsTimeline
{
  GtkWidget        parent_instance;

  PgsSession      *session;
  GSignalGroup    *session_signals;

  PgsRecording    *recording;   /* the session's, while it shows one */
  PgsReplay       *replay;
  GSignalGroup    *replay_signals;
  PgsTimelineData *data;        /* for recording, or NULL until read */
  GCancellable    *building;
  gint64           build_started;  /* µs, monotonic: the build's time goes to the debug log */
  int              pid;         /* the process whose PSS is drawn; 0 for none */
  guint64          start_time;
  char            *process_name;

  GtkWidget       *menu;        /* the context menu (Export as PNG…), while it is open */
  guint            drop_menu_source;
  GtkNativeDialog *chooser;     /* kept while it emits */
  gboolean         csv;         /* what it exports: the figures, or the picture */

  gboolean         compact;     /* one line of PGS_TIMELINE_COMPACT_HEIGHT, for a short window */
  gboolean         dragging_range;
  guint            anchor;      /* the range being chosen: anchor..pointer */
  guint            pointer;
};

/* pgs-timeline-strip.c; the scene: what is drawn now, at @width × @height. */
void _pgs_timeline_class_init_strip  (GtkWidgetClass   *widget_class);
void _pgs_timeline_init_strip        (PgsTimeline      *self);
void _pgs_timeline_fill_scene        (PgsTimeline      *self,
                                      PgsTimelineScene *scene,
                                      int               width,
                                      int               height);

/* A press at @x (Shift held: @range), the pointer moved to @x, released at @x: the
 * GtkGestureDrag's handlers call these with its coordinates and modifiers, so a test that
 * cannot hold Shift on a virtual display calls them as the gesture would. */
void _pgs_timeline_press   (PgsTimeline *self,
                            double       x,
                            gboolean     range);
void _pgs_timeline_move    (PgsTimeline *self,
                            double       x);
void _pgs_timeline_release (PgsTimeline *self,
                            double       x);

/* pgs-timeline-export.c */
void _pgs_timeline_class_init_export (GtkWidgetClass   *widget_class);
void _pgs_timeline_init_export       (PgsTimeline      *self);

G_END_DECLS
