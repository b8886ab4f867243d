/* test-record.c: Record in the app, a recording of this very process read back
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Issue 18: win.record writes what pagescope-cli record writes. The window records the live
 * machine to a temporary file for about 2.5 s (every second a sample: at least 2), win.record
 * stops it, and the file, read with the library, holds those samples, the newest of which
 * has this test process, and a quiet child (pgs-ui-child) with exactly the PSS the kernel
 * gives for it in its smaps_rollup. A file that cannot be created gives a toast with the reason.
 */

#include "config.h"

#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "pgs-recording.h"
#include "pgs-sample.h"
#include "pgs-ui-util.h"

#define CHILD_PAGES 256   /* 1 MiB of its own */

/* One window for both tests: an application registers once a process. */
static PgsWindow *window;

static GtkWidget *
find_record_button (GtkWidget *widget)
{
  if (GTK_IS_BUTTON (widget) &&
      g_strcmp0 (gtk_actionable_get_action_name (GTK_ACTIONABLE (widget)), "win.record") == 0)
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_record_button (child);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* A label or cell under @widget whose text holds @part. */
static gboolean
shows_part (GtkWidget  *widget,
            const char *part)
{
  if (pgs_ui_widget_text (widget) != NULL && strstr (pgs_ui_widget_text (widget), part) != NULL)
    return TRUE;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (shows_part (child, part))
      return TRUE;
  return FALSE;
}

static gboolean
has_two_samples (gpointer data)
{
  return pgs_recorder_get_n_samples (data) >= 2;
}

static gboolean
stopped (gpointer data)
{
  return !pgs_recorder_is_recording (data);
}

static gboolean
shows_recording (gpointer data)
{
  return pgs_session_get_recording (pgs_window_get_session (data)) != NULL;
}

static void
on_finished (PgsRecorder *recorder,
             GFile       *file,
             guint        n_samples,
             GError      *error,
             gpointer     user_data)
{
  guint *finished = user_data;

  g_assert_no_error (error);
  *finished = n_samples;
}

static void
test_record (void)
{
  g_autofree char *dir = g_dir_make_tmp ("pgs-ui-record-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "machine.pgrec", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(PgsRecording) recording = NULL;
  g_autoptr(PgsSample) last = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *expected_toast = NULL;
  PgsRecorder *recorder = pgs_window_get_recorder (window);
  GtkWidget *button = find_record_button (GTK_WIDGET (window));
  const PgsSampleProcess *self_in_file;
  const PgsSampleProcess *child_in_file;
  PgsUiChild child = { 0 };
  guint64 child_pss;
  guint finished = 0, n;

  g_assert_nonnull (button);
  g_assert_cmpstr (gtk_widget_get_tooltip_text (button), ==, "Record memory over time…");
  g_assert_false (pgs_recorder_is_recording (recorder));
  g_signal_connect (recorder, "finished", G_CALLBACK (on_finished), &finished);

  pgs_ui_child_start (&child, CHILD_PAGES);
  pgs_window_record_to (window, file);
  g_assert_true (pgs_recorder_is_recording (recorder));
  /* About 2.5 s, and at least two samples: the first page-level picture, taken right after
   * the first sample, may hold up the second on a loaded machine. */
  pgs_ui_spin (2500);
  g_assert_true (pgs_ui_wait (has_two_samples, recorder, 60000));
  gtk_test_widget_wait_for_draw (GTK_WIDGET (window));
  /* The button is a stop button that counts the time ("0:02"), and the samples. */
  g_assert_true (shows_part (button, "0:0"));
  {
    /* Wider than the record icon, the button does not make the window need more than its
     * default width. */
    int min_width;

    gtk_widget_measure (GTK_WIDGET (window), GTK_ORIENTATION_HORIZONTAL, -1, &min_width, NULL, NULL, NULL);
    g_test_message ("window %d px wide, needs %d while recording", gtk_widget_get_width (GTK_WIDGET (window)),
                    min_width);
    g_assert_cmpint (min_width, <=, gtk_widget_get_width (GTK_WIDGET (window)));
  }
  g_assert_true (g_str_has_prefix (gtk_widget_get_tooltip_text (button), "Stop recording to "));
  g_assert_nonnull (strstr (gtk_widget_get_tooltip_text (button), " samples so far)"));

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.record", NULL));
  g_assert_true (pgs_ui_wait (stopped, recorder, 60000));
  n = pgs_recorder_get_n_samples (recorder);
  g_assert_cmpuint (finished, ==, n);
  g_assert_cmpuint (n, >=, 2);
  expected_toast = g_strdup_printf ("Recorded %u samples to %s", n, path);
  g_assert_cmpstr (pgs_window_get_toast_text (window), ==, expected_toast);
  g_assert_cmpstr (gtk_widget_get_tooltip_text (button), ==, "Record memory over time…");

  /* The file, as any reader of it sees it. */
  recording = pgs_recording_open (file, NULL, &error);
  g_assert_no_error (error);
  g_assert_null (pgs_recording_get_end_note (recording));
  g_assert_cmpuint (pgs_recording_get_n_samples (recording), ==, n);
  g_assert_cmpuint (pgs_recording_get_interval_ms (recording), ==, 1000);
  g_assert_cmpuint (pgs_recording_get_pages_every_ms (recording), ==, 60000);
  last = pgs_recording_get_sample (recording, n - 1, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (last->processes->len, >, 1);
  self_in_file = pgs_sample_lookup (last, getpid (), 0);
  g_assert_nonnull (self_in_file);
  g_assert_true (self_in_file->known & PGS_METRIC_PSS);
  /* This process is there with its figures, but they move: the recorder runs in it (a
   * picture's scan allocates 13 MiB in the worker, freed whenever malloc trims), so no
   * figure read here matches a sample's but by chance. The child sleeps, a static binary
   * sharing no page with anyone: its PSS is the same whenever read, and the file must
   * have exactly the kernel's. */
  g_assert_cmpuint (self_in_file->figures[PGS_SAMPLE_PSS], >, 0);
  child_in_file = pgs_sample_lookup (last, child.pid, 0);
  g_assert_nonnull (child_in_file);
  g_assert_true (child_in_file->known & PGS_METRIC_PSS);
  child_pss = pgs_ui_rollup_pss (child.pid);
  g_assert_cmpuint (child_pss, >=, CHILD_PAGES * (guint64) sysconf (_SC_PAGESIZE));
  g_assert_cmpuint (child_in_file->figures[PGS_SAMPLE_PSS], ==, child_pss);
  g_assert_cmpuint (self_in_file->figures[PGS_SAMPLE_RSS], >=, self_in_file->figures[PGS_SAMPLE_PSS]);

  /* The toast's Open shows it in this window. */
  {
    AdwToast *toast = pgs_window_get_toast (window);
    g_autofree char *uri = g_file_get_uri (file);

    g_assert_nonnull (toast);
    g_assert_cmpstr (g_object_get_data (G_OBJECT (toast), "open-action"), ==, "win.open-snapshot-file");
    g_assert_cmpstr (g_object_get_data (G_OBJECT (toast), "uri"), ==, uri);
    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.open-snapshot-file", "s", uri));
    g_assert_true (pgs_ui_wait (shows_recording, window, 30000));
    g_assert_cmpuint (pgs_recording_get_n_samples (pgs_session_get_recording (pgs_window_get_session (window))),
                      ==, n);
  }

  g_signal_handlers_disconnect_by_func (recorder, on_finished, &finished);
  pgs_ui_child_stop (&child);
  g_unlink (path);
  g_rmdir (dir);
}

/* A folder that does not exist: nothing records, a toast says why. */
static void
test_record_error (void)
{
  g_autofree char *dir = g_dir_make_tmp ("pgs-ui-record-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "missing", "machine.pgrec", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autofree char *prefix = g_strdup_printf ("Could not record to %s: ", path);

  pgs_window_record_to (window, file);
  g_assert_false (pgs_recorder_is_recording (pgs_window_get_recorder (window)));
  g_assert_nonnull (pgs_window_get_toast_text (window));
  g_assert_true (g_str_has_prefix (pgs_window_get_toast_text (window), prefix));
  g_assert_cmpuint (strlen (pgs_window_get_toast_text (window)), >, strlen (prefix));
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
  g_rmdir (dir);
}

/* Closing the window stops the recording, and the file is closed whole. Last: it closes
 * the tests' window. */
static void
test_record_window_closes (void)
{
  g_autofree char *dir = g_dir_make_tmp ("pgs-ui-record-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "closed.pgrec", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(PgsRecorder) recorder = g_object_ref (pgs_window_get_recorder (window));
  g_autoptr(PgsRecording) recording = NULL;
  g_autoptr(GError) error = NULL;
  guint finished = 0;

  g_signal_connect (recorder, "finished", G_CALLBACK (on_finished), &finished);
  pgs_window_record_to (window, file);
  g_assert_true (pgs_ui_wait (has_two_samples, recorder, 60000));
  gtk_window_destroy (GTK_WINDOW (g_steal_pointer (&window)));
  g_assert_true (pgs_ui_wait (stopped, recorder, 60000));
  g_assert_cmpuint (finished, >=, 2);
  recording = pgs_recording_open (file, NULL, &error);
  g_assert_no_error (error);
  /* Closed with its index: nothing cut short. */
  g_assert_null (pgs_recording_get_end_note (recording));
  g_assert_cmpuint (pgs_recording_get_n_samples (recording), ==, finished);
  g_unlink (path);
  g_rmdir (dir);
}

int
main (int    argc,
      char **argv)
{
  PgsApplication *app = NULL;
  int status;

  pgs_ui_init (&argc, &argv);
  window = pgs_ui_open_window (&app);
  pgs_ui_wait_idle_scan (window);
  g_test_add_func ("/ui/record/error", test_record_error);
  g_test_add_func ("/ui/record/live", test_record);
  g_test_add_func ("/ui/record/window-closes", test_record_window_closes);
  status = g_test_run ();
  if (window != NULL)
    gtk_window_destroy (GTK_WINDOW (window));
  g_object_unref (app);
  return status;
}
