/* pgs-window-private.h: what the window's parts in other files share
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * pgs-window.c scans and wires the views; pgs-window-unlock.c is the lock state (the
 * banner, the header's lock button, the helper); pgs-window-files.c opens, saves and
 * compares snapshot files; pgs-window-actions.c holds the export, refresh, find, zoom and
 * working-set actions; pgs-window-open.c opens a file just written or shows it in its
 * folder.
 */

#pragma once

#include "pgs-compare.h"
#include "pgs-compare-list.h"
#include "pgs-helper.h"
#include "pgs-library-view.h"
#include "pgs-refresh.h"
#include "pgs-snapshot-file.h"
#include "pgs-window.h"

G_BEGIN_DECLS

struct _PgsWindow
{
  AdwApplicationWindow  parent_instance;

  GSettings            *settings;
  PgsScanner           *scanner;
  PgsSnapshot          *snapshot;
  GCancellable         *scan_cancellable;
  guint                 refresh_source;
  guint                 progress_source;
  int                   pending_pid;
  gboolean              lowered_workers;
  char                 *banner_text;
  GtkNativeDialog      *chooser;
  PgsWssDialog         *wss_dialog;   /* while one is open */
  PgsHelper            *helper;       /* while unlocked */
  GCancellable         *unlock_cancellable;
  gboolean              rescan;       /* scan again as soon as the running scan ends */
  GCancellable         *file_cancellable;
  guint                 file_pulse_source;
  GtkNativeDialog      *file_chooser; /* open, save or compare: kept while it emits */
  PgsRefresh           *refresh;      /* what a refresh scans (pgs-refresh.c) */
  AdwToast             *toast;        /* the newest toast, until it is dismissed */
  char                 *toast_text;   /* its text, unescaped */

  /* template children */
  GtkStack             *stack;
  GtkRevealer          *banner_revealer;
  GtkLabel             *banner_label;
  GtkButton            *banner_button;
  GtkButton            *lock_button;
  GtkStack             *processes_stack;
  PgsCompareList       *compare_list;
  GtkRevealer          *progress_revealer;
  GtkProgressBar       *progress_bar;
  AdwToastOverlay      *toast_overlay;
  PgsProcessList       *process_list;
  PgsProcessDetail     *process_detail;
  PgsMapPage           *residency_page;
  PgsMapPage           *sharing_page;
  PgsMapPage           *flags_page;
  PgsLibraryView       *library_view;
  int                   highlight_pid;  /* the process selected when a file was */
};

/* pgs-window.c */
/* Shows @text (plain text, not markup) in a toast, after any already shown. */
void        pgs_window_show_toast           (PgsWindow   *self,
                                             const char  *text);
/* The same, and returns the toast so the caller can add a button; @text is plain. */
AdwToast   *pgs_window_add_toast            (PgsWindow   *self,
                                             const char  *text);
void        pgs_window_show_banner          (PgsWindow   *self,
                                             const char  *text);
void        pgs_window_update_actions       (PgsWindow   *self);
void        pgs_window_schedule_refresh     (PgsWindow   *self);
/* Shows @snapshot, live or from a file, in every view. */
void        pgs_window_show_snapshot        (PgsWindow   *self,
                                             PgsSnapshot *snapshot);

/* The map page on show, or NULL on the process list. */
PgsMapPage *pgs_window_current_map_page     (PgsWindow   *self);
void        pgs_window_emit_export_finished (PgsWindow   *self,
                                             GFile       *file,
                                             GError      *error);

/* pgs-window-actions.c */
void        pgs_window_actions_class_init   (GtkWidgetClass *widget_class);

/* pgs-window-unlock.c */
void        pgs_window_unlock_class_init    (GtkWidgetClass *widget_class);
/* The banner, the lock button and the title follow the snapshot shown and the helper. */
void        pgs_window_update_lock          (PgsWindow   *self);
void        pgs_window_unlock_dispose       (PgsWindow   *self);
/* Why win.measure-wss cannot work on @process, or NULL. */
const char *pgs_window_wss_blocked_reason   (PgsWindow   *self,
                                             PgsProcess  *process);

/* pgs-window-open.c */
void        pgs_window_open_class_init      (GtkWidgetClass *widget_class);
/* A toast saying @text about @file just written, with Open and Show in Folder. */
void        pgs_window_show_file_toast      (PgsWindow   *self,
                                             const char  *text,
                                             GFile       *file);

/* pgs-window-files.c */
void        pgs_window_files_class_init     (GtkWidgetClass *widget_class);
void        pgs_window_files_dispose        (PgsWindow   *self);
void        pgs_window_update_title         (PgsWindow   *self);
/* The file dialogs start in the folder stored in @key ("snapshot-folder",
 * "export-folder"), the folder of the file last written or read through them. */
void        pgs_window_remember_folder      (PgsWindow   *self,
                                             const char  *key,
                                             GFile       *file);
void        pgs_window_restore_folder       (PgsWindow   *self,
                                             const char  *key,
                                             GtkFileChooser *chooser);
/* "firefox-12345-2026-12-03-1502.png" for @process, "@fallback-2026-…" without one. */
char       *pgs_window_suggest_file_name    (PgsWindow   *self,
                                             PgsProcess  *process,
                                             const char  *fallback,
                                             const char  *extension);

G_END_DECLS
