/* pgs-cgroup.h: a process's cgroup, and the application or service it stands for
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The cgroup v2 path of /proc/PID/cgroup's "0::" line ("/user.slice/…"), also on hybrid
 * hierarchies where v1 lines come first; NULL when there is none (a v1-only system). */
char *pgs_cgroup_parse (const char *buf,
                        gsize       len);

typedef enum
{
  PGS_UNIT_APP,       /* an application scope or service started by a desktop launcher */
  PGS_UNIT_SERVICE,   /* a systemd service (system or user) */
  PGS_UNIT_SESSION,   /* a login session scope */
  PGS_UNIT_OTHER,     /* any other cgroup (a slice, a container…) */
} PgsUnitKind;

/* What a cgroup path stands for, from its last component as systemd names it
 * (systemd.io/DESKTOP_ENVIRONMENTS): "app[-<launcher>]-<id>[@<n>].service" or
 * "app[-<launcher>]-<id>-<n>.scope" give the application id (with "\xNN" escapes decoded,
 * without ".desktop"); "foo.service" the service; "session-3.scope" the session. Returns the
 * kind and sets @name to the id, the unit name or the path. Never looks at process names. */
PgsUnitKind pgs_cgroup_classify (const char  *path,
                                 char       **name);

/* systemd's unit name unescaping: "\x2d" → "-". */
char *pgs_cgroup_unescape (const char *str,
                           gssize      len);

G_END_DECLS
