/* pgs-session-private.h: the session's internals; pgs-session.c calls pgs-session-show.c,
 * which never calls back but notifies the properties the class installed
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "pgs-live-scan.h"
#include "pgs-refresh.h"
#include "pgs-session.h"

G_BEGIN_DECLS

struct _PgsSession
{
  GObject           parent_instance;

  GSettings        *settings;
  PgsLiveScan      *live;
  PgsRefresh       *refresh;         /* what a scan reads, the selected process's scan */
  PgsHelper        *helper;
  PgsSnapshot      *snapshot;
  PgsReplay        *replay;          /* while a recording is shown */
  PgsHistory       *history;         /* live: the last minutes' totals (pgs-history.c) */
  PgsProcess       *chosen;
  PgsProcess       *selected;
  PgsHighlight     *highlight;
  GPtrArray        *wss_samples;
  int               wss_pid;
  char             *view;
  PgsUnits          units;
  PgsLayout         layout;
  PgsHighlightMode  highlight_mode;
  gboolean          hide_free;
  guint             refresh_interval;
  double            progress;
  gboolean          busy;
  gboolean          shut_down;       /* the window is closing: no scan any more */
  gboolean          hold_live;       /* pgs_session_hold_live() */
  PgsSnapshot      *held_live;       /* the live snapshot waiting for it */
};

enum {
  PROP_0,
  PROP_SNAPSHOT,
  PROP_FILE,
  PROP_INSTANT,
  PROP_LIVE,
  PROP_CHOSEN_PROCESS,
  PROP_SELECTED_PROCESS,
  PROP_UNREADABLE,
  PROP_VIEW,
  PROP_NEEDS,
  PROP_UNITS,
  PROP_LAYOUT,
  PROP_HIGHLIGHT_MODE,
  PROP_HIDE_FREE,
  PROP_REFRESH_INTERVAL,
  PROP_HIGHLIGHT,
  PROP_WSS_SAMPLE,
  PROP_BUSY,
  PROP_PROGRESS,
  PROP_HELPER,
  PROP_RECORDING,
  PROP_REPLAY,
  PROP_PICTURE,
  N_PROPS
};

enum {
  SCAN_STARTED,
  SCAN_FAILED,
  N_SIGNALS
};

extern GParamSpec *_pgs_session_properties[N_PROPS];
extern guint       _pgs_session_signals[N_SIGNALS];

static inline void
_pgs_session_notify (PgsSession *self,
                     guint       prop_id)
{
  g_object_notify_by_pspec (G_OBJECT (self), _pgs_session_properties[prop_id]);
}

/* pgs-session-show.c: makes the live scan, the refresh and the history, and follows them. */
void         _pgs_session_init_scans (PgsSession *self);
PgsScanFlags _pgs_session_needs      (PgsSession *self);
void         _pgs_session_set_chosen (PgsSession *self,
                                      PgsProcess *process);

G_END_DECLS
