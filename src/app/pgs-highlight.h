/* pgs-highlight.h: the frames the physical maps highlight when they are a file's
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "pagescope.h"

G_BEGIN_DECLS

/* What the physical maps highlight instead of the selected process's frames: the frames of
 * a file (every present page of every mapping of its path, in one snapshot), with the text
 * that says so. Immutable and reference counted: the map pages and the Libraries view share
 * one. */
typedef struct _PgsHighlight PgsHighlight;

#define PGS_TYPE_HIGHLIGHT (pgs_highlight_get_type ())

GType          pgs_highlight_get_type      (void) G_GNUC_CONST;

/* Built from @snapshot's page data; call again after a new scan (or pages scanned later). */
PgsHighlight  *pgs_highlight_new_for_file  (PgsSnapshot  *snapshot,
                                            const char   *path);
PgsHighlight  *pgs_highlight_ref           (PgsHighlight *self);
void           pgs_highlight_unref         (PgsHighlight *self);

const char    *pgs_highlight_get_path      (PgsHighlight *self);
/* The file's name made safe to show ("libc.so.6"). */
const char    *pgs_highlight_get_name      (PgsHighlight *self);
/* The frames (guint64, sorted, distinct), for pgs_renderer_set_highlight_frames(); never
 * NULL, possibly empty. */
GBytes        *pgs_highlight_get_frames    (PgsHighlight *self);
gsize          pgs_highlight_get_n_frames  (PgsHighlight *self);
/* For the map title: "frames of libc.so.6 highlighted", or why there are none. */
const char    *pgs_highlight_get_caption   (PgsHighlight *self);
/* Whether some processes mapping the file had no pages in the snapshot (a scan without
 * PGS_SCAN_PAGES): a scan with pages would find more frames. */
gboolean       pgs_highlight_needs_pages   (PgsHighlight *self);
/* Why the set is empty or misses some processes' pages (translated), or NULL. */
const char    *pgs_highlight_get_problem   (PgsHighlight *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PgsHighlight, pgs_highlight_unref)

G_END_DECLS
