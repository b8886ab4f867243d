/* pgs-timeline-private.h: what the timeline's gesture does, for tests
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "pgs-timeline.h"

G_BEGIN_DECLS

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

G_END_DECLS
