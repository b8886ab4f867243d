/* pgs-window-private.h: what the window's parts in other files share
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The files call downwards only: pgs-window.c (the template, wiring the session to the
 * window) calls the others; pgs-window-actions.c (export, refresh, find, zoom, working set)
 * calls pgs-window-files.c (open, save and compare snapshot files, the title),
 * pgs-window-unlock.c (the lock state, the banner) and pgs-window-open.c (toasts, and the
 * toast after a file is written); pgs-window-record.c (Record) calls pgs-window-files.c and
 * pgs-window-open.c; pgs-window-files.c and pgs-window-unlock.c call only
 * pgs-window-open.c, which calls none of them. State shared with the pages lives in the
 * session (pgs-session.c), not here.
 */

#pragma once

#include "pgs-compare.h"
#include "pgs-compare-list.h"
#include "pgs-helper.h"
#include "pgs-library-view.h"
#include "pgs-recorder.h"
#include "pgs-session.h"
#include "pgs-snapshot-file.h"
#include "pgs-timeline.h"
#include "pgs-window.h"

G_BEGIN_DECLS

struct _PgsWindow
{
  AdwApplicationWindow  parent_instance;

  PgsSession           *session;
  guint                 progress_source;
  int                   pending_pid;
  char                 *banner_text;
  GtkNativeDialog      *chooser;
  PgsWssDialog         *wss_dialog;   /* while one is open */
  GtkWindow            *shortcuts;    /* the keyboard shortcuts, while shown */
  GCancellable         *unlock_cancellable;
  GCancellable         *file_cancellable;
  guint                 file_pulse_source;
  GtkNativeDialog      *file_chooser; /* open, save or compare: kept while it emits */
  AdwToast             *toast;        /* the newest toast, until it is dismissed */
  char                 *toast_text;   /* its text, unescaped */
  int                   highlight_pid;  /* the process selected when a file was */
  PgsSnapshot          *compared_snapshot;  /* the session's while a comparison shows it */
  gboolean              banner_link_connected;
  PgsRecorder          *recorder;     /* Record (pgs-window-record.c) */
  int                   list_height;   /* the divider as the user left it (pgs-window.c) */
  int                   detail_height;
  int                   paned_height;  /* the paned's height, and where the window put */
  int                   placed;        /* the divider at it */

  /* template children */
  GtkStack             *stack;
  AdwSqueezer          *title_squeezer;
  GtkWidget            *window_title;
  GtkActionBar         *switcher_bar;
  GtkWidget            *banner;
  GtkPaned             *detail_paned;
  PgsTimeline          *timeline;
  GtkLabel             *banner_label;
  GtkButton            *banner_button;
  GtkButton            *lock_button;
  GtkButton            *record_button;
  GtkMenuButton        *menu_button;
  GMenuModel           *primary_menu;
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
};

/* pgs-window-open.c */
void        _pgs_window_open_class_init      (GtkWidgetClass *widget_class);
/* Shows @text (plain text, not markup) in a toast, after any already shown, and returns it
 * so the caller can add a button. */
AdwToast   *_pgs_window_add_toast            (PgsWindow   *self,
                                              const char  *text);
/* A toast saying @text about @file just written, with Open and Show in Folder. */
void        _pgs_window_show_file_toast      (PgsWindow   *self,
                                              const char  *text,
                                              GFile       *file);
/* The same for a recording just written: Open shows it in this window. */
void        _pgs_window_show_recording_toast (PgsWindow   *self,
                                              const char  *text,
                                              GFile       *file);
/* PgsWindow::export-finished, for scripts and tests. */
void        _pgs_window_emit_export_finished (PgsWindow   *self,
                                              GFile       *file,
                                              GError      *error);

/* pgs-window-unlock.c */
void        _pgs_window_unlock_class_init    (GtkWidgetClass *widget_class);
void        _pgs_window_show_banner          (PgsWindow   *self,
                                              const char  *text);
/* The banner's "Learn more": the details of what a user may read. */
gboolean    _pgs_window_on_banner_link       (PgsWindow   *self,
                                              const char  *uri);
/* The banner and the lock button follow the snapshot shown and the helper. */
void        _pgs_window_update_lock          (PgsWindow   *self);
void        _pgs_window_unlock_dispose       (PgsWindow   *self);
/* Why win.measure-wss cannot work on @process, or NULL. */
const char *_pgs_window_wss_blocked_reason   (PgsWindow   *self,
                                              PgsProcess  *process);

/* pgs-window-files.c */
void        _pgs_window_files_class_init     (GtkWidgetClass *widget_class);
void        _pgs_window_files_dispose        (PgsWindow   *self);
/* A scan of the live system started: a file being read or written is not wanted. */
void        _pgs_window_files_cancel         (PgsWindow   *self);
void        _pgs_window_update_title         (PgsWindow   *self);
/* The session shows another snapshot: a comparison with the file shown before closes. */
void        _pgs_window_files_snapshot_changed (PgsWindow *self);
void        _pgs_window_close_comparison     (PgsWindow   *self);
/* The file dialogs start in the folder stored in @key ("snapshot-folder",
 * "export-folder"), the folder of the file last written or read through them. */
void        _pgs_window_remember_folder      (PgsWindow   *self,
                                              const char  *key,
                                              GFile       *file);
void        _pgs_window_restore_folder       (PgsWindow   *self,
                                              const char  *key,
                                              GtkFileChooser *chooser);
/* "firefox-12345-2026-12-03-1502.png" for @process, "@fallback-2026-…" without one. */
char       *_pgs_window_suggest_file_name    (PgsProcess  *process,
                                              const char  *fallback,
                                              const char  *extension);

/* pgs-window-record.c: win.record, the Record button, the recorder */
void        _pgs_window_record_class_init    (GtkWidgetClass *widget_class);
void        _pgs_window_record_init          (PgsWindow   *self);
/* Stops recording (the file is closed in the background): the window is going. */
void        _pgs_window_record_dispose       (PgsWindow   *self);

/* pgs-window-actions.c */
void        _pgs_window_actions_class_init   (GtkWidgetClass *widget_class);
/* The map page on show, or NULL on another page. */
PgsMapPage *_pgs_window_current_map_page     (PgsWindow   *self);
/* The toast after an export (and the folder remembered, PgsWindow::export-finished). */
void        _pgs_window_finish_export        (PgsWindow   *self,
                                              GFile       *file,
                                              GError      *error);

G_END_DECLS
