/* pagescope.h: the public headers of libpagescope
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * libpagescope-core (pagescope-core.h) and the renderer (cairo: maps, legends, PNG).
 */

#pragma once

#include "pagescope-core.h"
#include "pgs-render.h"
#include "pgs-file-png.h"
#include "pgs-render-access.h"
