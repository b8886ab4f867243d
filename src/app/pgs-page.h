/* pgs-page.h: a page of the window, following the session
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "pgs-session.h"

G_BEGIN_DECLS

#define PGS_TYPE_PAGE (pgs_page_get_type ())

G_DECLARE_DERIVABLE_TYPE (PgsPage, pgs_page, PGS, PAGE, GtkWidget)

struct _PgsPageClass
{
  GtkWidgetClass parent_class;
};

PgsSession *pgs_page_get_session (PgsPage      *self);
void        pgs_page_set_session (PgsPage      *self,
                                  PgsSession   *session);
/* Binds @source_property of the session (whichever is set, now or later) to
 * @target_property of @target. */
void        pgs_page_bind        (PgsPage      *self,
                                  const char   *source_property,
                                  gpointer      target,
                                  const char   *target_property,
                                  GBindingFlags flags);
/* Calls @handler (page, pspec, session) when @property of the session changes, and once
 * when a session is set. */

G_END_DECLS
