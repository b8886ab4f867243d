/* pagescope-core.h: the public headers of libpagescope-core (GLib, GObject and GIO only)
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Everything but drawing: what pagescope-cli links, so that a command that draws nothing
 * loads no cairo (and the 20 libraries it brings: X11, xcb, fontconfig, freetype, png...).
 */

#pragma once

#include "pgs-types.h"
#include "pgs-error.h"
#include "pgs-format.h"
#include "pgs-escape.h"
#include "pgs-file.h"
#include "pgs-local-file.h"
#include "pgs-helper.h"
#include "pgs-mapping.h"
#include "pgs-meminfo.h"
#include "pgs-physmap.h"
#include "pgs-process.h"
#include "pgs-scanner.h"
#include "pgs-snapshot.h"
#include "pgs-snapshot-file.h"
#include "pgs-compare.h"
#include "pgs-report.h"
#include "pgs-wss.h"
#include "pgs-wss-pageout.h"
#include "pgs-category.h"
#include "pgs-palette.h"
#include "pgs-group.h"
#include "pgs-ledger.h"
#include "pgs-librank.h"
#include "pgs-thp.h"
#include "pgs-cgroup.h"
#include "pgs-ksm.h"
#include "pgs-zram.h"
#include "pgs-damon-sysfs.h"
#include "pgs-damon-trace.h"
#include "pgs-damon-access.h"
#include "pgs-damon-reader.h"
#include "pgs-damon-collect.h"
#include "pgs-damon-own.h"
#include "pgs-sample.h"
#include "pgs-sampler.h"
#include "pgs-recording.h"
#include "pgs-recording-writer.h"
#include "pgs-series.h"
