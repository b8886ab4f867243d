/* pgs-render-legend.h: the PNG legend's lines for the kernel's counters (internal)
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <cairo.h>

#include "pgs-render.h"

G_BEGIN_DECLS

/* pgs_renderer_get_counter_lines() wrapped to the legend's width, measured with @measure's
 * font; widens *@legend_w (up to 420) for them, and to the widest wrapped line. */
GPtrArray *pgs_render_legend_counters (PgsRenderer *self,
                                       cairo_t     *measure,
                                       double      *legend_w);

G_END_DECLS
