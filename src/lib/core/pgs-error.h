/* pgs-error.h
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define PGS_ERROR (pgs_error_quark ())

typedef enum
{
  PGS_ERROR_FAILED,
  PGS_ERROR_NO_PERMISSION,   /* EACCES/EPERM: needs root or the same user */
  PGS_ERROR_PROCESS_GONE,    /* ENOENT/ESRCH, or a read cut short by an exit */
  PGS_ERROR_MALFORMED,       /* a line or record that does not parse */
  PGS_ERROR_TRUNCATED,       /* a file shorter than its other files say it must be */
  PGS_ERROR_NO_SUCH_PROCESS, /* a PID asked for by the user that does not exist */
  PGS_ERROR_KERNEL_THREAD,   /* a PID with no user address space */
  PGS_ERROR_UNSUPPORTED,     /* the kernel lacks an interface */
  PGS_ERROR_BAD_SNAPSHOT,    /* a snapshot file whose checksum holds but whose contents do not add up */
  PGS_ERROR_SNAPSHOT_TRUNCATED,     /* a snapshot file cut short */
  PGS_ERROR_SNAPSHOT_DAMAGED,       /* a snapshot file whose checksum does not match */
  PGS_ERROR_SNAPSHOT_NEWER_VERSION, /* written by a newer Pagescope in a format this one cannot read */
  PGS_ERROR_NOT_A_SNAPSHOT,         /* not a Pagescope snapshot file at all */
} PgsError;

GQuark pgs_error_quark (void);

G_END_DECLS
