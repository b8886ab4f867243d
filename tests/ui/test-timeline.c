/* test-timeline.c: the recording's timeline strip, its figures and what a press does
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Issue 18. The recording is built here from hand-made samples, so every figure below is
 * the test's own (MiB):
 *
 *   sample  AnonPages  Mapped  Shmem  Cached  Slab  KernelStack  PageTables  MemFree
 *   0       1024       512     256    2048    300   20           40          3072
 *   1       2048       512     256    2048    300   20           -           2048
 *   2       3072       600     300    800     300   20           40          -
 *
 * so the bands are (cache = Cached - Mapped - Shmem, at least 0; kernel = the sum of
 * those there):
 *
 *   sample  anon  mapped  shmem  cache  kernel  free
 *   0       1024  512     256    1280   360     3072
 *   1       2048  512     256    1280   320     2048
 *   2       3072  600     300    0      360     (none: a gap)
 *
 * and PID 10's PSS is 100, 150, 200 MiB. A press at the x of sample 2 (through the strip's
 * own drag gesture) moves the window there; a Shift+drag from sample 0 to 1 sets the
 * range; Shift+click the whole recording again; Left moves one sample back. With no
 * recording shown the strip is hidden.
 */

#include "config.h"

#include <math.h>

#include <glib/gstdio.h>

#include "pgs-recording-writer.h"
#include "pgs-replay.h"
#include "pgs-sample.h"
#include "pgs-timeline-private.h"
#include "pgs-ui-util.h"

#define T0  G_GINT64_CONSTANT (1764928800000000)  /* 2025-12-05 10:00:00 UTC */
#define MiB (G_GUINT64_CONSTANT (1) << 20)
#define NO  PGS_SAMPLE_ABSENT

static const guint64 counters[3][8] = {
  { 1024, 512, 256, 2048, 300, 20, 40, 3072 },
  { 2048, 512, 256, 2048, 300, 20, NO, 2048 },
  { 3072, 600, 300, 800, 300, 20, 40, NO },
};
static const char *const counter_names[8] = {
  "meminfo/AnonPages", "meminfo/Mapped", "meminfo/Shmem", "meminfo/Cached",
  "meminfo/Slab", "meminfo/KernelStack", "meminfo/PageTables", "meminfo/MemFree",
};
/* zram0's and zram1's mem_used_total: both, one, none; the band is their sum. */
static const guint64 zram[3][2] = {
  { 100, 50 },
  { 70, NO },
  { NO, NO },
};
static const guint64 expected[3][PGS_TIMELINE_N_KINDS] = {
  { 1024, 512, 256, 1280, 360, 150, 3072 },
  { 2048, 512, 256, 1280, 320, 70, 2048 },
  { 3072, 600, 300, 0, 360, NO, NO },
};
static const guint64 grower_pss[] = { 100 * MiB, 150 * MiB, 200 * MiB };

static char *
write_recording (const char *dir)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(PgsRecordingWriter) w = NULL;
  PgsRecordingSetup setup = { 1000, 0, TRUE, "UTC", NULL };
  char *path = g_build_filename (dir, "strip.pgrec", NULL);

  w = pgs_recording_writer_new (path, &setup, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < 3; i++)
    {
      g_autoptr(PgsSample) s = pgs_sample_new ();

      s->time = T0 + (gint64) i * G_USEC_PER_SEC;
      g_ptr_array_add (s->names, g_strdup ("meminfo/MemTotal"));
      g_array_append_val (s->values, (guint64) { 8192 * MiB });
      for (guint c = 0; c < G_N_ELEMENTS (counter_names); c++)
        if (counters[i][c] != NO)
          {
            guint64 v = counters[i][c] * MiB;

            g_ptr_array_add (s->names, g_strdup (counter_names[c]));
            g_array_append_val (s->values, v);
          }
      for (guint z = 0; z < 2; z++)
        if (zram[i][z] != NO)
          {
            guint64 v = zram[i][z] * MiB;

            /* The sampler's names (pgs-sampler-counters.c), and a field the band leaves out. */
            g_ptr_array_add (s->names, g_strdup_printf ("zram/zram%u/mem_used_total", z));
            g_array_append_val (s->values, v);
            g_ptr_array_add (s->names, g_strdup_printf ("zram/zram%u/orig_data_size", z));
            v *= 3;
            g_array_append_val (s->values, v);
          }
      pgs_ui_sample_add_process (s, 10, 100, "grower", grower_pss[i]);
      pgs_ui_sample_add_process (s, 20, 100, "other", 12 * MiB);
      g_assert_true (pgs_recording_writer_add_sample (w, s, &error));
      g_assert_no_error (error);
    }
  g_assert_true (pgs_recording_writer_close (w, &error));
  g_assert_no_error (error);
  return path;
}

/* Samples at 0, 1, 2 and 60 s of a recording taken every second: the machine went
 * unrecorded between the third and the fourth (suspended). */
static const int gap_seconds[] = { 0, 1, 2, 60 };

static char *
write_gap_recording (const char *dir)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(PgsRecordingWriter) w = NULL;
  PgsRecordingSetup setup = { 1000, 0, TRUE, "UTC", NULL };
  char *path = g_build_filename (dir, "gap.pgrec", NULL);

  w = pgs_recording_writer_new (path, &setup, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < G_N_ELEMENTS (gap_seconds); i++)
    {
      g_autoptr(PgsSample) s = pgs_sample_new ();
      guint64 v = 1024 * MiB;

      s->time = T0 + (gint64) gap_seconds[i] * G_USEC_PER_SEC;
      g_ptr_array_add (s->names, g_strdup ("meminfo/MemTotal"));
      g_array_append_val (s->values, (guint64) { 8192 * MiB });
      g_ptr_array_add (s->names, g_strdup ("meminfo/AnonPages"));
      g_array_append_val (s->values, v);
      pgs_ui_sample_add_process (s, 10, 100, "grower", grower_pss[0]);
      g_assert_true (pgs_recording_writer_add_sample (w, s, &error));
      g_assert_no_error (error);
    }
  g_assert_true (pgs_recording_writer_close (w, &error));
  g_assert_no_error (error);
  return path;
}

static gboolean
gap_read (gpointer data)
{
  PgsTimeline *timeline = data;

  return !pgs_timeline_is_loading (timeline) &&
         pgs_timeline_get_value (timeline, G_N_ELEMENTS (gap_seconds) - 1, PGS_TIMELINE_ANON) != NO;
}

static gboolean
strip_whole (gpointer data)
{
  return gtk_widget_get_height (data) == 120;
}

/* Whether column @x of the strip's PNG (twice its size) has applications' blue. */
static gboolean
column_is_blue (cairo_surface_t *surface,
                double           x)
{
  const guint8 *data = cairo_image_surface_get_data (surface);
  int stride = cairo_image_surface_get_stride (surface);
  int col = (int) round (2 * x);

  for (int y = 0; y < cairo_image_surface_get_height (surface); y++)
    {
      guint32 p = *(const guint32 *) (data + y * stride + col * 4);

      if (ABS ((int) ((p >> 16) & 0xff) - 25) <= 3 && ABS ((int) ((p >> 8) & 0xff) - 128) <= 3 &&
          ABS ((int) (p & 0xff) - 186) <= 3)
        return TRUE;
    }
  return FALSE;
}

/* A gap in time is drawn as one: nothing between the samples either side of it, where a
 * band once ran straight across a minute nobody recorded. */
static void
assert_gap (PgsWindow   *window,
            PgsTimeline *timeline,
            const char  *dir)
{
  g_autofree char *path = write_gap_recording (dir);
  g_autofree char *png = g_build_filename (dir, "gap.png", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  cairo_surface_t *surface;
  double x[G_N_ELEMENTS (gap_seconds)];

  int width, height;

  /* The PNG is the whole strip: its samples where the window shows it whole (700 px tall
   * and more; ui-800x600-timeline's window folds it). */
  gtk_window_get_default_size (GTK_WINDOW (window), &width, &height);
  gtk_window_set_default_size (GTK_WINDOW (window), width, MAX (height, 720));
  pgs_window_open_file (window, file, NULL);
  g_assert_true (pgs_ui_wait (gap_read, timeline, 30000));
  g_assert_true (pgs_ui_wait (strip_whole, timeline, 10000));
  gtk_test_widget_wait_for_draw (GTK_WIDGET (window));
  for (guint i = 0; i < G_N_ELEMENTS (gap_seconds); i++)
    g_assert_true (pgs_timeline_get_sample_x (timeline, i, &x[i]));
  g_assert_true (pgs_timeline_write_png (timeline, png, &error));
  g_assert_no_error (error);
  surface = cairo_image_surface_create_from_png (png);
  g_assert_cmpint (cairo_surface_status (surface), ==, CAIRO_STATUS_SUCCESS);
  /* Between recorded samples a band; past half a step (0.5 s) into the gap, none. */
  g_assert_true (column_is_blue (surface, (x[0] + x[1]) / 2));
  g_assert_true (column_is_blue (surface, x[2]));
  g_assert_false (column_is_blue (surface, (x[2] + x[3]) / 2));
  g_assert_false (column_is_blue (surface, x[2] + (x[3] - x[2]) / 4));
  /* The last sample is the plot's right end; its band half a step (8 px) to its left. */
  g_assert_true (column_is_blue (surface, x[3] - 2));
  cairo_surface_destroy (surface);
  g_unlink (png);
  g_unlink (path);
  gtk_window_set_default_size (GTK_WINDOW (window), width, height);
}

static gboolean
figures_read (gpointer data)
{
  PgsTimeline *timeline = data;

  return !pgs_timeline_is_loading (timeline) &&
         pgs_timeline_get_value (timeline, 0, PGS_TIMELINE_ANON) != NO;
}

static gboolean
pss_read (gpointer data)
{
  PgsTimeline *timeline = data;

  return !pgs_timeline_is_loading (timeline) && pgs_timeline_get_pss (timeline, 0) != NO;
}

typedef struct
{
  PgsSession *session;
  guint       sample;
} At;

static gboolean
at_sample (gpointer data)
{
  At *at = data;
  PgsReplay *replay = pgs_session_get_replay (at->session);

  return replay != NULL && pgs_replay_get_sample (replay) == at->sample;
}

static void
wait_at (PgsSession *session,
         guint       sample)
{
  At at = { session, sample };

  g_assert_true (pgs_ui_wait (at_sample, &at, 10000));
}

static gboolean
live_again (gpointer data)
{
  return pgs_session_get_recording (data) == NULL;
}

static GtkGesture *
find_drag (GtkWidget *widget)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (widget);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GObject) controller = g_list_model_get_item (controllers, i);

      if (GTK_IS_GESTURE_DRAG (controller))
        return GTK_GESTURE (controller);
    }
  return NULL;
}

static void
on_window_exported (PgsWindow *window,
                    GFile     *file,
                    gpointer   error,
                    GFile    **exported)
{
  g_assert_null (error);
  g_set_object (exported, file);
}

/* The strip as a PNG: twice its size, and Okabe-Ito blue (0, 114, 178) at 90 % over
 * white, (25, 128, 186), where applications' memory is drawn. */
static void
assert_png (PgsTimeline *timeline,
            PgsWindow   *window,
            const char  *dir)
{
  g_autofree char *png = g_build_filename (dir, "strip.png", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (png);
  g_autoptr(GFile) exported = NULL;
  g_autoptr(GError) error = NULL;
  cairo_surface_t *surface;
  gboolean blue = FALSE;
  const guint8 *data;
  int stride;

  g_assert_true (pgs_timeline_write_png (timeline, png, &error));
  g_assert_no_error (error);
  surface = cairo_image_surface_create_from_png (png);
  g_assert_cmpint (cairo_surface_status (surface), ==, CAIRO_STATUS_SUCCESS);
  g_assert_cmpint (cairo_image_surface_get_width (surface), ==,
                   2 * gtk_widget_get_width (GTK_WIDGET (timeline)));
  /* The whole strip, its legend and axes, 120 px: also when a short window shows it as one
   * line of 32. */
  g_assert_cmpint (cairo_image_surface_get_height (surface), ==, 2 * 120);
  data = cairo_image_surface_get_data (surface);
  stride = cairo_image_surface_get_stride (surface);
  for (int y = 0; y < cairo_image_surface_get_height (surface) && !blue; y++)
    for (int x = 0; x < cairo_image_surface_get_width (surface) && !blue; x++)
      {
        guint32 p = *(const guint32 *) (data + y * stride + x * 4);

        blue = ABS ((int) ((p >> 16) & 0xff) - 25) <= 3 && ABS ((int) ((p >> 8) & 0xff) - 128) <= 3 &&
               ABS ((int) (p & 0xff) - 186) <= 3;
      }
  cairo_surface_destroy (surface);
  g_assert_true (blue);

  /* The export action's end: the window hears of it (its toast, the folder kept). */
  g_signal_connect (window, "export-finished", G_CALLBACK (on_window_exported), &exported);
  g_signal_emit_by_name (timeline, "export-finished", file, NULL);
  g_assert_true (exported != NULL && g_file_equal (exported, file));
  g_signal_handlers_disconnect_by_func (window, on_window_exported, &exported);
  g_unlink (png);
}

static void
test_strip (void)
{
  g_autofree char *dir = g_dir_make_tmp ("pgs-ui-timeline-XXXXXX", NULL);
  g_autofree char *path = write_recording (dir);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  PgsApplication *app = NULL;
  PgsWindow *window = pgs_ui_open_window (&app);
  PgsSession *session = pgs_window_get_session (window);
  PgsTimeline *timeline;
  GtkGesture *drag;
  guint from, to;
  double x0, x1, x2;

  pgs_ui_wait_idle_scan (window);
  timeline = PGS_TIMELINE (pgs_ui_find_widget (GTK_WIDGET (window), PGS_TYPE_TIMELINE));
  g_assert_nonnull (timeline);
  /* The live system: no strip. */
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (timeline)));

  pgs_window_open_file (window, file, NULL);
  wait_at (session, 0);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (timeline)));
  g_assert_true (pgs_ui_wait (figures_read, timeline, 30000));
  for (guint i = 0; i < 3; i++)
    for (guint k = 0; k < PGS_TIMELINE_N_KINDS; k++)
      g_assert_cmpuint (pgs_timeline_get_value (timeline, i, k), ==,
                        expected[i][k] == NO ? NO : expected[i][k] * MiB);
  /* No process chosen: no line. */
  g_assert_cmpuint (pgs_timeline_get_pss (timeline, 0), ==, NO);

  pgs_window_select_pid (window, 10);
  g_assert_true (pgs_ui_wait (pss_read, timeline, 30000));
  for (guint i = 0; i < 3; i++)
    g_assert_cmpuint (pgs_timeline_get_pss (timeline, i), ==, grower_pss[i]);

  gtk_test_widget_wait_for_draw (GTK_WIDGET (window));
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (timeline)));
  g_assert_true (pgs_timeline_get_sample_x (timeline, 0, &x0));
  g_assert_true (pgs_timeline_get_sample_x (timeline, 1, &x1));
  g_assert_true (pgs_timeline_get_sample_x (timeline, 2, &x2));
  /* Evenly spaced samples, left to right, inside the strip. */
  g_assert_cmpfloat (x0, >, 0);
  g_assert_cmpfloat (x2, <, gtk_widget_get_width (GTK_WIDGET (timeline)));
  g_assert_cmpfloat (fabs ((x1 - x0) - (x2 - x1)), <, 1.0);
  g_assert_cmpuint (pgs_timeline_get_sample_at (timeline, x2 - 1), ==, 2);
  g_assert_cmpuint (pgs_timeline_get_sample_at (timeline, (x0 + x1) / 2 - 1), ==, 0);

  /* A press at sample 2, through the strip's own gesture. */
  drag = find_drag (GTK_WIDGET (timeline));
  g_assert_nonnull (drag);
  g_signal_emit_by_name (drag, "drag-begin", x2, 20.0);
  g_signal_emit_by_name (drag, "drag-end", 0.0, 0.0);
  wait_at (session, 2);
  g_assert_true (gtk_widget_has_focus (GTK_WIDGET (timeline)));

  /* A plain drag follows the pointer: to sample 1, then 0. */
  _pgs_timeline_press (timeline, x1, FALSE);
  wait_at (session, 1);
  _pgs_timeline_move (timeline, x0);
  _pgs_timeline_release (timeline, x0);
  wait_at (session, 0);

  /* Shift+drag from 0 to 1 sets the range, and leaves the instant alone. */
  pgs_replay_get_range (pgs_session_get_replay (session), &from, &to);
  g_assert_cmpuint (from, ==, 0);
  g_assert_cmpuint (to, ==, 2);
  _pgs_timeline_press (timeline, x0, TRUE);
  _pgs_timeline_move (timeline, (x0 + x1) / 2 + 2);
  _pgs_timeline_release (timeline, x1);
  pgs_replay_get_range (pgs_session_get_replay (session), &from, &to);
  g_assert_cmpuint (from, ==, 0);
  g_assert_cmpuint (to, ==, 1);
  g_assert_cmpuint (pgs_replay_get_sample (pgs_session_get_replay (session)), ==, 0);
  gtk_test_widget_wait_for_draw (GTK_WIDGET (window));
  /* Backwards too, from 2 to 1. */
  _pgs_timeline_press (timeline, x2, TRUE);
  _pgs_timeline_release (timeline, x1);
  pgs_replay_get_range (pgs_session_get_replay (session), &from, &to);
  g_assert_cmpuint (from, ==, 1);
  g_assert_cmpuint (to, ==, 2);
  /* Shift+click: the whole recording. */
  _pgs_timeline_press (timeline, x1, TRUE);
  _pgs_timeline_release (timeline, x1);
  pgs_replay_get_range (pgs_session_get_replay (session), &from, &to);
  g_assert_cmpuint (from, ==, 0);
  g_assert_cmpuint (to, ==, 2);

  /* Right and Left, and the window's Alt+Right still there. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (timeline), "timeline.move-by", "i", 1));
  wait_at (session, 1);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (timeline), "timeline.move-by", "i", -1));
  wait_at (session, 0);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.move-by", "i", 2));
  wait_at (session, 2);

  assert_png (timeline, window, dir);
  assert_gap (window, timeline, dir);

  /* Back to the running system: the strip goes. */
  pgs_session_refresh (session);
  g_assert_true (pgs_ui_wait (live_again, session, 30000));
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (timeline)));

  gtk_window_destroy (GTK_WINDOW (window));
  g_object_unref (app);
  g_unlink (path);
  g_rmdir (dir);
}

int
main (int    argc,
      char **argv)
{
  pgs_ui_init (&argc, &argv);
  g_test_add_func ("/ui/timeline/strip", test_strip);
  return g_test_run ();
}
