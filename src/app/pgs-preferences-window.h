/* pgs-preferences-window.h
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define PGS_TYPE_PREFERENCES_WINDOW (pgs_preferences_window_get_type ())

G_DECLARE_FINAL_TYPE (PgsPreferencesWindow, pgs_preferences_window, PGS, PREFERENCES_WINDOW,
                      AdwPreferencesWindow)

/* Rows bound to @settings (the app's schema): a change is stored at once. */
GtkWidget  *pgs_preferences_window_new             (GtkWindow            *parent,
                                                    GSettings            *settings);
/* The rows, for tests: the interval's spin button and the combo row of a string key
 * ("units", "layout", "highlight", "color-scheme"). */
GtkSpinButton *pgs_preferences_window_get_interval (PgsPreferencesWindow *self);
AdwComboRow   *pgs_preferences_window_get_combo    (PgsPreferencesWindow *self,
                                                    const char           *key);

G_END_DECLS
