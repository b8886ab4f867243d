/* pgs-ui-util.h: running the real app window in a test
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "pgs-sample.h"
#include "pgs-window.h"

G_BEGIN_DECLS

/* g_test_init, then exits 77 (skipped) when there is no display to open. */
void       pgs_ui_init           (int         *argc,
                                  char      ***argv);
/* Until called again with NULL, a GTK warning that holds @part is not fatal: for a known
 * fault of GTK's own widgets, while a test has them open, and never for the app's. */
void       pgs_ui_allow_warning  (const char  *part);
/* Registers the application (startup runs), creates and presents its window. */
PgsWindow *pgs_ui_open_window    (PgsApplication **app);
/* Iterates the main loop until @cond (or @timeout_ms); returns whether it came true. */
typedef gboolean (*PgsUiCond) (gpointer data);
gboolean   pgs_ui_wait           (PgsUiCond    cond,
                                  gpointer     data,
                                  guint        timeout_ms);
/* Waits for the current scan (if any) to finish, then for one more frame. */
void       pgs_ui_wait_idle_scan (PgsWindow   *window);
/* Waits until the map view shows what was last asked of it. */
void       pgs_ui_wait_map_ready (PgsMapView  *view);
void       pgs_ui_spin           (guint        ms);
/* The object @property of @object holds (a new reference), or NULL. */
gpointer   pgs_ui_get_object     (gpointer     object,
                                  const char  *property);
/* Waits (30 s at most) until @session's selected-process is @pid's, with its pages read. */
void       pgs_ui_wait_selected_pages (gpointer session,
                                       int      pid);
/* The text of a label or a table cell (PgsCell), or NULL for any other widget. */
const char *pgs_ui_widget_text   (GtkWidget   *widget);
/* The first mapped label or cell under @widget (itself included) whose text is @text, or
 * NULL. */
GtkWidget *pgs_ui_find_label     (GtkWidget   *widget,
                                  const char  *text);
/* How many mapped labels or cells under @widget (itself included) say @text. */
guint      pgs_ui_count_labels   (GtkWidget   *widget,
                                  const char  *text);

/* The process of the list's model with @pid, or NULL (the model holds the reference). */
PgsProcess *pgs_ui_find_in_list  (PgsWindow   *window,
                                  int          pid);
/* A process of a hand-built recording's sample, uid 1000, with @pss and from it VSS 1 GiB,
 * RSS @pss + 4 MiB and USS @pss - 2 MiB, all known. */
void       pgs_ui_sample_add_process (PgsSample  *sample,
                                      int         pid,
                                      guint64     start_time,
                                      const char *name,
                                      guint64     pss);

/* pgs-ui-child ($PGS_UI_CHILD): a process with pages of its own that sleeps until told. */
typedef struct
{
  GPid    pid;         /* 0 when not running */
  int     release_fd;  /* closing it lets the child exit */
  guint64 buffer;      /* its pages, page aligned */
} PgsUiChild;

/* Starts the child with @pages pages and returns once it has written every one. */
void       pgs_ui_child_start    (PgsUiChild  *child,
                                  int          pages);
/* Lets the child exit and reaps it; nothing when it is not running. */
void       pgs_ui_child_stop     (PgsUiChild  *child);

/* What most ui tests run against: the child, and the app's window showing every process. */
typedef struct
{
  PgsUiChild      proc;
  PgsApplication *app;
  PgsWindow      *window;
  char           *tmpdir;  /* a new folder for the files a test writes */
} PgsUiRun;

/* Starts the child with @pages pages, then GTK (pgs_ui_init()), makes @run's tmpdir and
 * opens the window (pgs_ui_open_window()). */
void       pgs_ui_run_open       (PgsUiRun    *run,
                                  int          pages,
                                  int         *argc,
                                  char      ***argv);
/* Closes the window and the app, stops the child, and removes the tmpdir with the files in
 * it: also after a failed test, whose g_test_run() still returns. */
void       pgs_ui_run_close      (PgsUiRun    *run);
/* The kernel's Rss for @pid, in bytes, from smaps_rollup. */
guint64    pgs_ui_rollup_rss     (int          pid);
/* The kernel's Pss for @pid, in bytes, from smaps_rollup. */
guint64    pgs_ui_rollup_pss     (int          pid);
/* The first widget of @type under @widget (itself included), mapped or not, or NULL. */
GtkWidget *pgs_ui_find_widget    (GtkWidget   *widget,
                                  GType        type);

/* The first toplevel window of @type (only a visible one when @shown), or NULL. */
GtkWindow  *pgs_ui_find_toplevel (GType        type,
                                  gboolean     shown);
/* The PIDs @list shows, as a set of GINT_TO_POINTER (pid). */
GHashTable *pgs_ui_list_pids     (PgsProcessList *list);
/* How many of @a's PIDs @b has not. */
guint       pgs_ui_pids_missing  (GHashTable  *a,
                                  GHashTable  *b);
/* Rows of @window's process list in view: its scroller's height over a row's. */
double     pgs_ui_rows_in_view   (PgsWindow   *window);

/* For pgs_ui_wait: whether the gboolean at @flag is set. */
gboolean   pgs_ui_flag_set       (gpointer     flag);
/* A swapped signal handler: adds one to the guint at @counter. */
void       pgs_ui_count          (gpointer     counter);
/* A window's export-finished handler: asserts no error and sets the gboolean at @flag. */
void       pgs_ui_export_done    (PgsWindow   *window,
                                  GFile       *file,
                                  GError      *error,
                                  gpointer     flag);

G_END_DECLS
