/* pgs-mapping.h
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>

#include "pgs-types.h"

G_BEGIN_DECLS

#define PGS_TYPE_MAPPING (pgs_mapping_get_type ())

G_DECLARE_FINAL_TYPE (PgsMapping, pgs_mapping, PGS, MAPPING, GObject)

guint        pgs_mapping_get_index    (PgsMapping *self);
guint64      pgs_mapping_get_start    (PgsMapping *self);
guint64      pgs_mapping_get_end      (PgsMapping *self);
guint64      pgs_mapping_get_offset   (PgsMapping *self);
const char  *pgs_mapping_get_perms    (PgsMapping *self);
const char  *pgs_mapping_get_path     (PgsMapping *self);
const char  *pgs_mapping_get_label    (PgsMapping *self);
/* The label as text to show in a GUI: invalid UTF-8 and control characters as "?". */
const char  *pgs_mapping_get_display_label (PgsMapping *self);
guint64      pgs_mapping_get_vss      (PgsMapping *self);
guint64      pgs_mapping_get_rss      (PgsMapping *self);
guint64      pgs_mapping_get_pss      (PgsMapping *self);
guint64      pgs_mapping_get_uss      (PgsMapping *self);
guint64      pgs_mapping_get_swap     (PgsMapping *self);
guint64      pgs_mapping_get_metric   (PgsMapping *self,
                                       PgsMetric   metric);
gboolean     pgs_mapping_is_known     (PgsMapping *self,
                                       PgsMetric   metric);
gboolean     pgs_mapping_is_anonymous (PgsMapping *self);

/* "[anon]" for a mapping without a path, else its path. */
const char  *pgs_mapping_label_for_path (const char *path);

G_END_DECLS
