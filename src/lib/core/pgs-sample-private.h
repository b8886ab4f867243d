/* pgs-sample-private.h: samples to and from snapshots, and times on a recording's clock
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "pgs-sample.h"
#include "pgs-types.h"

G_BEGIN_DECLS

/* The totals of @sample as a snapshot (processes without mappings or pages). */
PgsSnapshot *_pgs_sample_to_snapshot   (const PgsSample *sample,
                                        gboolean         privileged,
                                        guint            page_size,
                                        const char      *hostname,
                                        const char      *kernel_release,
                                        const char      *boot_id);
/* The totals of @snapshot as a sample (no counters but meminfo's). */
PgsSample   *_pgs_sample_from_snapshot (PgsSnapshot     *snapshot);

/* pgs_recording_parse_time() for a recording from @start to @end (µs) on the clock of @tz. */
gboolean     _pgs_time_parse           (const char      *text,
                                        gint64           start,
                                        gint64           end,
                                        GTimeZone       *tz,
                                        gint64          *time,
                                        GError         **error);
char        *_pgs_time_format          (gint64           time,
                                        gint64           start,
                                        GTimeZone       *tz);

G_END_DECLS
