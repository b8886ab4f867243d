/* pgs-wss-clear.c: pgs_wss_clear, the start of the interval: clear_refs written, frames
 * marked idle
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * (The kernel facts are in pgs-wss.c.)
 */

#include "config.h"

#include <errno.h>
#include <unistd.h>

#include "pgs-error.h"
#include "pgs-procfs.h"
#include "pgs-wss-private.h"
#include "pgs-wss-trust.h"

static gboolean
write_clear_refs (PgsWss  *self,
                  char     code,
                  GError **error)
{
  gssize n;

  do
    n = write (self->clear_fd, &code, 1);
  while (n < 0 && errno == EINTR);

  if (n == 1)
    return TRUE;
  if (n < 0 && (errno == ESRCH || errno == ENOENT))
    pgs_wss_set_gone_error (self, error, "before it could be cleared");
  else
    {
      g_autofree char *who = pgs_wss_describe (self);

      pgs_set_error_from_errno (error, n < 0 ? errno : EIO, "%s: writing %c to clear_refs",
                                who, code);
    }
  return FALSE;
}

gboolean
pgs_wss_clear (PgsWss  *self,
               GError **error)
{
  g_return_val_if_fail (PGS_IS_WSS (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!pgs_wss_prepare (self, error))
    return FALSE;

  self->cleared = FALSE;
  self->cleared_scope = self->scope;
  /* The counters that tell whether the process ran, before the clearing: a process that
   * touches its pages right after it (a test's child does, on cue) must not have run "before
   * the interval" only because these files were read a few milliseconds late. */
  pgs_wss_trust_free (self->trust);
  self->trust = pgs_wss_trust_begin (self->procfs_root, self->sysfs_root, self->pid);
  if ((self->sources & PGS_WSS_PAGES_SOFT_DIRTY) && !write_clear_refs (self, '4', error))
    return FALSE;
  if (!write_clear_refs (self, '0' + (char) self->scope, error))
    return FALSE;
  if ((self->sources & PGS_WSS_PAGES_IDLE) && !pgs_wss_mark_idle (self, error))
    return FALSE;

  self->cleared = TRUE;
  self->cleared_at = g_get_monotonic_time ();
  return TRUE;
}
