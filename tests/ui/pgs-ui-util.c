/* pgs-ui-util.c
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pgs-ui-util.h"
#include "pgs-background.h"
#include "pgs-cell.h"
#include "pgs-process-list.h"

/* Warnings GTK prints about the environment it runs in, not about the app: each with why. */
static const char *const environment_warnings[] = {
  /* The no-bus test (ui-files, issue 21 item 2) runs the app without a session bus on
   * purpose; GTK says so when it starts. */
  "Unable to acquire session bus",
  NULL,
};

/* A warning of GTK's own widgets a test allows for a while (pgs_ui_allow_warning). */
static const char *allowed_warning;

void
pgs_ui_allow_warning (const char *part)
{
  allowed_warning = part;
}

/* Issue 21: the ui suite fails on any Gtk-CRITICAL (G_DEBUG=fatal-criticals) and also on
 * any warning of GTK, libadwaita or GObject the app prints, but for the list above. */
static GLogWriterOutput
fatal_warnings (GLogLevelFlags   level,
                const GLogField *fields,
                gsize            n_fields,
                gpointer         data)
{
  const char *domain = NULL, *message = NULL;

  for (gsize i = 0; i < n_fields; i++)
    {
      if (g_str_equal (fields[i].key, "GLIB_DOMAIN"))
        domain = fields[i].value;
      else if (g_str_equal (fields[i].key, "MESSAGE"))
        message = fields[i].value;
    }
  if ((level & G_LOG_LEVEL_WARNING) && domain != NULL && message != NULL &&
      (g_str_equal (domain, "Gtk") || g_str_equal (domain, "Adwaita") ||
       g_str_equal (domain, "GLib-GObject")))
    {
      gboolean known = FALSE;

      for (guint i = 0; environment_warnings[i] != NULL; i++)
        known |= strstr (message, environment_warnings[i]) != NULL;
      known |= allowed_warning != NULL && strstr (message, allowed_warning) != NULL;
      if (!known)
        {
          g_log_writer_standard_streams (level, fields, n_fields, data);
          g_error ("a %s warning, fatal in the ui suite: %s", domain, message);
        }
    }
  return g_log_writer_default (level, fields, n_fields, data);
}

void
pgs_ui_init (int    *argc,
             char ***argv)
{
  /* What main() does first: GLib's pools take their settings from the first one made. */
  pgs_background_init ();
  g_test_init (argc, argv, NULL);
  g_log_set_writer_func (fatal_warnings, NULL, NULL);

  /* No display is a reason to skip, never to crash: gtk_init() would abort. */
  if (!gtk_init_check ())
    {
      g_printerr ("No display (run under xvfb-run): skipped\n");
      exit (77);
    }
}

PgsWindow *
pgs_ui_open_window (PgsApplication **app)
{
  g_autoptr(GError) error = NULL;
  PgsWindow *window;

  *app = pgs_application_new ();
  /* A fresh D-Bus session per test run (dbus-run-session), so registering is ours. */
  g_application_set_flags (G_APPLICATION (*app), G_APPLICATION_NON_UNIQUE);
  if (!g_application_register (G_APPLICATION (*app), NULL, &error))
    g_error ("Could not register the application: %s", error->message);

  /* Scans only when a test asks: an automatic refresh in the middle of a test would make
   * it race the timer. */
  g_settings_set_uint (pgs_application_get_settings (*app), "refresh-interval", 0);
  /* Every process, also run as nobody (whose default is "my processes"): the tests look
   * for other users' processes in the list. test-process-list checks the default. */
  g_settings_set_string (pgs_application_get_settings (*app), "show-processes", "all");

  window = pgs_window_new (*app);
  /* PGS_UI_WINDOW_SIZE=800x600: the tests again in a small window (tests/ui/meson.build). */
  if (g_getenv ("PGS_UI_WINDOW_SIZE") != NULL)
    {
      int width = 0, height = 0;

      if (sscanf (g_getenv ("PGS_UI_WINDOW_SIZE"), "%dx%d", &width, &height) != 2 ||
          width <= 0 || height <= 0)
        g_error ("PGS_UI_WINDOW_SIZE is WIDTHxHEIGHT, not “%s”", g_getenv ("PGS_UI_WINDOW_SIZE"));
      gtk_window_set_default_size (GTK_WINDOW (window), width, height);
    }
  gtk_window_present (GTK_WINDOW (window));
  gtk_test_widget_wait_for_draw (GTK_WIDGET (window));
  return window;
}

static gboolean
timed_out (gpointer data)
{
  gboolean *flag = data;

  *flag = TRUE;
  return G_SOURCE_REMOVE;
}

gboolean
pgs_ui_wait (PgsUiCond cond,
             gpointer  data,
             guint     timeout_ms)
{
  gboolean expired = FALSE;
  guint source = g_timeout_add (timeout_ms, timed_out, &expired);

  while (!cond (data) && !expired)
    g_main_context_iteration (NULL, TRUE);
  if (!expired)
    g_source_remove (source);
  return cond (data);
}

static gboolean
scan_done (gpointer data)
{
  return !pgs_window_is_busy (data) && pgs_window_get_snapshot (data) != NULL;
}

void
pgs_ui_wait_idle_scan (PgsWindow *window)
{
  g_assert_true (pgs_ui_wait (scan_done, window, 120000));
  gtk_test_widget_wait_for_draw (GTK_WIDGET (window));
}

static gboolean
map_ready (gpointer data)
{
  return pgs_map_view_is_ready (data);
}

/* Ready, and still ready after the frame that shows it: that frame's layout can give the
 * map another size (its legend filled in), and a render begun then would be counted as the
 * next change's by a test. */
void
pgs_ui_wait_map_ready (PgsMapView *view)
{
  for (guint i = 0; i < 10; i++)
    {
      gtk_test_widget_wait_for_draw (GTK_WIDGET (view));
      g_assert_true (pgs_ui_wait (map_ready, view, 60000));
      gtk_test_widget_wait_for_draw (GTK_WIDGET (view));
      if (pgs_map_view_is_ready (view))
        return;
    }
  g_assert_not_reached ();
}

static gboolean
never (gpointer data)
{
  return FALSE;
}

gpointer
pgs_ui_get_object (gpointer    object,
                   const char *property)
{
  gpointer value = NULL;

  g_object_get (object, property, &value, NULL);
  return value;
}

typedef struct
{
  gpointer session;
  int      pid;
} SelectedWait;

static gboolean
selected_with_pages (gpointer data)
{
  SelectedWait *wait = data;
  g_autoptr(PgsProcess) process = pgs_ui_get_object (wait->session, "selected-process");

  return process != NULL && pgs_process_get_pid (process) == wait->pid &&
         pgs_process_has_pages (process);
}

void
pgs_ui_wait_selected_pages (gpointer session,
                            int      pid)
{
  SelectedWait wait = { session, pid };

  g_assert_true (pgs_ui_wait (selected_with_pages, &wait, 30000));
}

const char *
pgs_ui_widget_text (GtkWidget *widget)
{
  if (GTK_IS_LABEL (widget))
    return gtk_label_get_text (GTK_LABEL (widget));
  if (PGS_IS_CELL (widget))
    return pgs_cell_get_text (PGS_CELL (widget));
  return NULL;
}

GtkWidget *
pgs_ui_find_label (GtkWidget  *widget,
                   const char *text)
{
  if (gtk_widget_get_mapped (widget) && g_strcmp0 (pgs_ui_widget_text (widget), text) == 0)
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = pgs_ui_find_label (child, text);

      if (found != NULL)
        return found;
    }
  return NULL;
}

guint
pgs_ui_count_labels (GtkWidget  *widget,
                     const char *text)
{
  guint n = gtk_widget_get_mapped (widget) && g_strcmp0 (pgs_ui_widget_text (widget), text) == 0;

  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    n += pgs_ui_count_labels (child, text);
  return n;
}

void
pgs_ui_spin (guint ms)
{
  pgs_ui_wait (never, NULL, ms);
}

void
pgs_ui_child_start (PgsUiChild *child,
                    int         pages)
{
  g_autofree char *n = g_strdup_printf ("%d", pages);
  const char *argv[] = { g_getenv ("PGS_UI_CHILD"), n, NULL };
  g_autoptr(GError) error = NULL;
  char line[64] = { 0 };
  int out_fd;

  g_assert_nonnull (argv[0]);
  g_spawn_async_with_pipes (NULL, (char **) argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD, NULL, NULL,
                            &child->pid, &child->release_fd, &out_fd, NULL, &error);
  g_assert_no_error (error);
  /* It prints its buffer's address once every page is written. */
  g_assert_cmpint (read (out_fd, line, sizeof line - 1), >, 0);
  close (out_fd);
  child->buffer = g_ascii_strtoull (line, NULL, 16);
  g_assert_cmpuint (child->buffer, !=, 0);
}

void
pgs_ui_child_stop (PgsUiChild *child)
{
  int status;

  if (child->pid <= 0)
    return;
  close (child->release_fd);
  waitpid (child->pid, &status, 0);
  child->pid = 0;
}

void
pgs_ui_run_open (PgsUiRun    *run,
                 int          pages,
                 int         *argc,
                 char      ***argv)
{
  pgs_ui_child_start (&run->proc, pages);
  pgs_ui_init (argc, argv);
  run->tmpdir = g_dir_make_tmp ("pagescope-ui-XXXXXX", NULL);
  g_assert_nonnull (run->tmpdir);
  run->window = pgs_ui_open_window (&run->app);
}

void
pgs_ui_run_close (PgsUiRun *run)
{
  g_autoptr(GDir) dir = NULL;
  const char *name;

  gtk_window_destroy (GTK_WINDOW (run->window));
  g_clear_object (&run->app);
  pgs_ui_child_stop (&run->proc);

  dir = g_dir_open (run->tmpdir, 0, NULL);
  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (run->tmpdir, name, NULL);

      g_unlink (path);
    }
  g_rmdir (run->tmpdir);
  g_clear_pointer (&run->tmpdir, g_free);
}

/* @field ("Rss:", "Pss:") of @pid's smaps_rollup, in bytes. */
static guint64
rollup_field (int         pid,
              const char *field)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/smaps_rollup", pid);
  g_autofree char *contents = NULL;
  g_auto(GStrv) lines = NULL;

  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  lines = g_strsplit (contents, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    if (g_str_has_prefix (lines[i], field))
      return g_ascii_strtoull (lines[i] + strlen (field), NULL, 10) * 1024;
  g_assert_not_reached ();
}

guint64
pgs_ui_rollup_rss (int pid)
{
  return rollup_field (pid, "Rss:");
}

guint64
pgs_ui_rollup_pss (int pid)
{
  return rollup_field (pid, "Pss:");
}

GtkWidget *
pgs_ui_find_widget (GtkWidget *widget,
                    GType      type)
{
  /* A window builds a page when it is first shown or asked for: asked for every one here,
   * as a test may look for a page's widgets before showing it. */
  if (PGS_IS_WINDOW (widget))
    {
      static const char *const views[] = {
        "groups", "libraries", "residency", "sharing", "flags", "access",
      };

      for (guint i = 0; i < G_N_ELEMENTS (views); i++)
        pgs_window_get_page (PGS_WINDOW (widget), views[i]);
    }
  if (G_TYPE_CHECK_INSTANCE_TYPE (widget, type))
    return widget;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL;
       c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = pgs_ui_find_widget (c, type);

      if (found != NULL)
        return found;
    }
  return NULL;
}

PgsProcess *
pgs_ui_find_in_list (PgsWindow *window,
                     int        pid)
{
  GListModel *model = pgs_process_list_get_model (pgs_window_get_process_list (window));

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(PgsProcess) process = g_list_model_get_item (model, i);

      if (pgs_process_get_pid (process) == pid)
        return process;
    }
  return NULL;
}

void
pgs_ui_sample_add_process (PgsSample  *sample,
                           int         pid,
                           guint64     start_time,
                           const char *name,
                           guint64     pss)
{
  const guint64 mib = G_GUINT64_CONSTANT (1) << 20;
  PgsSampleProcess p = { 0 };

  p.pid = pid;
  p.start_time = start_time;
  p.uid = 1000;
  p.name = g_ref_string_new (name);
  p.known = PGS_METRIC_VSS | PGS_METRIC_RSS | PGS_METRIC_PSS | PGS_METRIC_USS | PGS_METRIC_SWAP;
  p.figures[PGS_SAMPLE_VSS] = 1024 * mib;
  p.figures[PGS_SAMPLE_RSS] = pss + 4 * mib;
  p.figures[PGS_SAMPLE_PSS] = pss;
  p.figures[PGS_SAMPLE_USS] = pss - 2 * mib;
  g_array_append_val (sample->processes, p);
}

gboolean
pgs_ui_flag_set (gpointer flag)
{
  return *(gboolean *) flag;
}

void
pgs_ui_count (gpointer counter)
{
  (*(guint *) counter)++;
}

void
pgs_ui_export_done (PgsWindow *window,
                    GFile     *file,
                    GError    *error,
                    gpointer   flag)
{
  g_assert_no_error (error);
  *(gboolean *) flag = TRUE;
}

/* The height of a row of @widget's list: its first row in view. */
static int
row_height (GtkWidget *widget)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      int height;

      if (g_strcmp0 (gtk_widget_get_css_name (child), "row") == 0 && gtk_widget_get_mapped (child)
          && gtk_widget_get_height (child) > 0)
        return gtk_widget_get_height (child);
      if ((height = row_height (child)) > 0)
        return height;
    }
  return 0;
}

/* Rows of the process list in view: the scrolled window's height over a row's. A row's
 * own height, not the list's over its count: a machine with fewer processes than the view
 * holds (a CI container has 14) has a list shorter than the view. */
double
pgs_ui_rows_in_view (PgsWindow *w)
{
  PgsProcessList *list = pgs_window_get_process_list (w);
  GtkWidget *view = pgs_process_list_get_column_view (list);
  GtkWidget *scroller = gtk_widget_get_parent (view);
  GtkAdjustment *vadjustment = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scroller));
  int height = row_height (view);

  g_assert_cmpint (height, >, 0);
  return gtk_adjustment_get_page_size (vadjustment) / height;
}

GtkWindow *
pgs_ui_find_toplevel (GType    type,
                      gboolean shown)
{
  GListModel *toplevels = gtk_window_get_toplevels ();  /* GTK's own */

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GtkWindow) window = g_list_model_get_item (toplevels, i);

      /* The list holds a reference until the window is destroyed. */
      if (G_TYPE_CHECK_INSTANCE_TYPE (window, type) &&
          (!shown || gtk_widget_get_visible (GTK_WIDGET (window))))
        return window;
    }
  return NULL;
}

GHashTable *
pgs_ui_list_pids (PgsProcessList *list)
{
  GListModel *model = pgs_process_list_get_model (list);
  GHashTable *pids = g_hash_table_new (NULL, NULL);

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(PgsProcess) process = g_list_model_get_item (model, i);

      g_hash_table_add (pids, GINT_TO_POINTER (pgs_process_get_pid (process)));
    }
  return pids;
}

guint
pgs_ui_pids_missing (GHashTable *a,
                     GHashTable *b)
{
  GHashTableIter iter;
  gpointer pid;
  guint n = 0;

  g_hash_table_iter_init (&iter, a);
  while (g_hash_table_iter_next (&iter, &pid, NULL))
    n += !g_hash_table_contains (b, pid);
  return n;
}
