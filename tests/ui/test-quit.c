/* test-quit.c: Quit while recording ends the application once the file is whole
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * app.quit (Ctrl+Q) closed the windows, which stops their recorders, and quit the
 * application at once: g_application_run() returned while the recorder's worker still
 * wrote, and main() ended the process under it, the file's last sample cut. Now a
 * recording holds the application and marks it busy until its file is closed, and quit
 * leaves the ending to it. The test runs the application as main() does, records, quits
 * from the main loop, and checks when g_application_run() returns: after the recorder
 * finished, with every sample it counted in a file that opens whole.
 */

#include "config.h"

#include <glib/gstdio.h>

#include "pgs-recorder.h"
#include "pgs-recording.h"
#include "pgs-ui-util.h"

typedef struct
{
  PgsApplication *app;
  PgsRecorder    *recorder;
  guint           finished;
} Run;

static void
on_finished (PgsRecorder *recorder,
             GFile       *file,
             guint        n_samples,
             GError      *error,
             Run         *run)
{
  g_assert_null (error);
  run->finished++;
}

/* Once the recorder has two samples, as a user would press Ctrl+Q. */
static gboolean
quit_when_recorded (gpointer data)
{
  Run *run = data;

  if (pgs_recorder_get_n_samples (run->recorder) < 2)
    return G_SOURCE_CONTINUE;
  g_action_group_activate_action (G_ACTION_GROUP (run->app), "quit", NULL);
  return G_SOURCE_REMOVE;
}

static void
test_quit_while_recording (void)
{
  g_autofree char *dir = g_dir_make_tmp ("pgs-ui-quit-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "quit.pgrec", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(PgsRecording) recording = NULL;
  g_autoptr(GError) error = NULL;
  Run run = { 0 };
  PgsWindow *window = pgs_ui_open_window (&run.app);
  guint n;

  run.recorder = g_object_ref (pgs_window_get_recorder (window));
  g_signal_connect (run.recorder, "finished", G_CALLBACK (on_finished), &run);
  pgs_window_record_to (window, file);
  g_assert_true (pgs_recorder_is_recording (run.recorder));
  g_timeout_add (100, quit_when_recorded, &run);

  /* As main() runs it; the window the test opened is the application's. */
  g_assert_cmpint (g_application_run (G_APPLICATION (run.app), 0, NULL), ==, 0);

  /* Returned after the recorder was done: the file closed, its samples all in it. */
  g_assert_cmpuint (run.finished, ==, 1);
  g_assert_false (pgs_recorder_is_recording (run.recorder));
  n = pgs_recorder_get_n_samples (run.recorder);
  g_assert_cmpuint (n, >=, 2);
  recording = pgs_recording_open (file, NULL, &error);
  g_assert_no_error (error);
  g_assert_null (pgs_recording_get_end_note (recording));
  g_assert_cmpuint (pgs_recording_get_n_samples (recording), ==, n);

  g_signal_handlers_disconnect_by_func (run.recorder, on_finished, &run);
  g_object_unref (run.recorder);
  g_object_unref (run.app);
  g_unlink (path);
  g_rmdir (dir);
}

int
main (int    argc,
      char **argv)
{
  pgs_ui_init (&argc, &argv);
  g_test_add_func ("/ui/quit/while-recording", test_quit_while_recording);
  return g_test_run ();
}
