/* pgs-map-page-private.h: the map page's internals, shared by the pgs-map-page*.c files
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "pgs-frame-users-view.h"
#include "pgs-ledger-view.h"
#include "pgs-map-page.h"

G_BEGIN_DECLS

struct _PgsMapPage
{
  PgsPage       parent_instance;

  PgsView       view;
  PgsSnapshot  *snapshot;
  PgsReplay    *replay;       /* the session's, while a recording is shown */
  PgsProcess   *process;
  PgsHighlight *highlight;     /* physical views: a file's frames, shown instead of the
                                * process's */
  PgsUnits      units;
  PgsHit        hit;           /* the page whose details are shown, if have_hit */
  gboolean      have_hit;
  int           hit_pid;       /* residency: whose page it is */

  PgsMapView   *map_view;
  GtkLabel     *status_label;  /* under the map: what the hovered or focused cell is */

  /* template children */
  GtkStack     *stack;
  GtkImage     *empty_icon;
  GtkLabel     *empty_title;
  GtkLabel     *empty_description;
  GtkLabel     *title_label;
  GtkLabel     *scale_label;
  GtkLabel     *instant_label;
  GtkBox       *map_box;
  GtkRevealer  *info_revealer;
  GtkLabel     *info_label;
  PgsFrameUsersView *frame_users_view;  /* who maps the frame of the page shown */
  GtkLabel     *wss_note;
  PgsLedgerView *ledger_view;  /* page flags: every byte of MemTotal */
  PgsLedgerView *counters_ledger;  /* page flags without a map: the counters' rows */
  GtkLabel      *counters_note;

  int           wss_pid;       /* whose sample the map view was given, 0 for none */

  /* Residency: the process shown exited; its last scan stays on screen, the map view keeps
   * the snapshot it came from, until another process is chosen. */
  gboolean      exited;
  char         *unreadable;  /* why the scan of the process alone brought no pages, or NULL */
  GtkLabel     *exited_label;
  guint         deselect_idle; /* a NULL process waiting to see whether a scan explains it */
};

/* pgs-map-page-state.c: the stack's child (the map, or why not) and the labels around it. */
void _pgs_map_page_update_state   (PgsMapPage *self);
void _pgs_map_page_update_title   (PgsMapPage *self);
void _pgs_map_page_update_instant (PgsMapPage *self);
void _pgs_map_page_update_exited  (PgsMapPage *self);

G_END_DECLS
