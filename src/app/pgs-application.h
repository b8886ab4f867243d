/* pgs-application.h
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define PGS_TYPE_APPLICATION (pgs_application_get_type ())

G_DECLARE_FINAL_TYPE (PgsApplication, pgs_application, PGS, APPLICATION, AdwApplication)

PgsApplication *pgs_application_new          (void);
GSettings      *pgs_application_get_settings (PgsApplication *self);

G_END_DECLS
