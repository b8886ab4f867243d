/* pgs-helper-private.h: what pgs-helper-access.c shares of PgsHelper
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "pgs-helper.h"

G_BEGIN_DECLS

/* Takes the helper's lock for one exchange and returns its socket, or -1 with error (the
 * lock not held) when the helper has gone. WHAT names the request in the error. */
int   _pgs_helper_lock            (PgsHelper   *self,
                                   const char  *what,
                                   GError     **error);
void  _pgs_helper_unlock          (PgsHelper   *self);
/* Hangs up on the helper (lock held): it exits, removing what it made for us. */
void  _pgs_helper_hang_up         (PgsHelper   *self);
/* The error of REPLY (NUL-terminated, not "OK..."): "ERR <errno> <text>" mapped to the
 * library's errors, anything else malformed. */
void  _pgs_helper_set_reply_error (char        *reply,
                                   const char  *what,
                                   GError     **error);

G_END_DECLS
