/* test-growth.c: the Growth column of a recording's process list
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Issue 18: with a recording shown, the process list has a Growth column: each process's
 * change of PSS over a range of samples (the whole recording until one is chosen). The
 * recording is test-replay.c's, built here from hand-made samples:
 *
 *   sample  time       PID 10 "grower" PSS   PID 20
 *   0       T0         100 MiB               "first" (start 200), PSS 12 MiB
 *   1       T0 + 1 s   150 MiB               "first" (start 200), PSS 12 MiB
 *   2       T0 + 2 s   200 MiB               "second" (start 500, the PID reused), 12 MiB
 *
 * Over the whole recording, worked out from the table: PID 10 grew 200 − 100 = +100 MiB;
 * "first" (PID 20, start 200) ran at sample 0 but not at sample 2, so it is "gone",
 * 0 − 12 = −12 MiB; "second" (PID 20, start 500) is "new", 12 − 0 = +12 MiB. Over samples
 * 1 to 2: PID 10 grew 200 − 150 = +50 MiB, the other two as before. Sorted by Growth,
 * largest first, PID 10 leads; smallest first, PID 20 ("first", −12 MiB) does.
 *
 * /ui/growth/figures checks PgsGrowth alone on a longer recording (see test_figures): RSS
 * where PSS is unknown, a process that came and went, a shrinking one, the sparkline's
 * points and a range that leaves a process out.
 */

#include "config.h"

#include <math.h>

#include <glib/gstdio.h>

#include "pgs-growth.h"
#include "pgs-recording-writer.h"
#include "pgs-replay.h"
#include "pgs-sample.h"
#include "pgs-ui-util.h"

#define T0  G_GINT64_CONSTANT (1764928800000000)  /* 2025-12-05 10:00:00 UTC */
#define MiB (G_GUINT64_CONSTANT (1) << 20)

static const guint64 grower_pss[] = { 100 * MiB, 150 * MiB, 200 * MiB };

static char *
write_recording (const char *dir)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(PgsRecordingWriter) w = NULL;
  PgsRecordingSetup setup = { 1000, 0, TRUE, "UTC", NULL };
  char *path = g_build_filename (dir, "grow.pgrec", NULL);

  w = pgs_recording_writer_new (path, &setup, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < G_N_ELEMENTS (grower_pss); i++)
    {
      g_autoptr(PgsSample) s = pgs_sample_new ();

      s->time = T0 + (gint64) i * G_USEC_PER_SEC;
      pgs_ui_sample_add_process (s, 10, 100, "grower", grower_pss[i]);
      if (i < 2)
        pgs_ui_sample_add_process (s, 20, 200, "first", 12 * MiB);
      else
        pgs_ui_sample_add_process (s, 20, 500, "second", 12 * MiB);
      g_assert_true (pgs_recording_writer_add_sample (w, s, &error));
      g_assert_no_error (error);
    }
  g_assert_true (pgs_recording_writer_close (w, &error));
  g_assert_no_error (error);
  return path;
}

typedef struct
{
  PgsWindow *window;
  guint      sample;
} At;

/* The replay is at the sample, its figures loaded and in the list. */
static gboolean
shows_sample (gpointer data)
{
  At *at = data;
  PgsReplay *replay = pgs_session_get_replay (pgs_window_get_session (at->window));
  PgsProcess *grower;

  if (replay == NULL || pgs_replay_is_loading (replay) || pgs_replay_get_sample (replay) != at->sample)
    return FALSE;
  grower = pgs_ui_find_in_list (at->window, 10);
  return grower != NULL && pgs_process_get_pss (grower) == grower_pss[at->sample];
}


static void
assert_at (PgsWindow *window,
           guint      sample)
{
  At at = { window, sample };

  g_assert_true (pgs_ui_wait (shows_sample, &at, 30000));
  gtk_test_widget_wait_for_draw (GTK_WIDGET (window));
}

static GtkColumnViewColumn *
growth_column (PgsWindow *window)
{
  GtkColumnView *view = GTK_COLUMN_VIEW (pgs_process_list_get_column_view (pgs_window_get_process_list (window)));
  GListModel *columns = gtk_column_view_get_columns (view);

  for (guint i = 0; i < g_list_model_get_n_items (columns); i++)
    {
      g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (columns, i);

      if (g_strcmp0 (gtk_column_view_column_get_title (column), "Growth") == 0)
        return column;   /* the view keeps it */
    }
  g_assert_not_reached ();
}

typedef struct
{
  PgsWindow  *window;
  guint       from;
  guint       to;
} Range;

/* The Growth over the range is worked out, and the list's cells have it. */
static gboolean
has_growth (gpointer data)
{
  Range *range = data;
  PgsReplay *replay = pgs_session_get_replay (pgs_window_get_session (range->window));
  PgsGrowth *growth = replay != NULL ? pgs_replay_get_growth (replay) : NULL;
  g_autoptr(PgsGrowth) shown = NULL;

  if (growth == NULL || pgs_growth_get_from (growth) != range->from || pgs_growth_get_to (growth) != range->to)
    return FALSE;
  g_object_get (pgs_window_get_process_list (range->window), "growth", &shown, NULL);
  return shown == growth;
}

/* The Growth cell of @pid's row says @text (the sign, the size in the session's units, and
 * "new" or "gone"). */
static void
assert_growth_cell (PgsWindow  *window,
                    const char *text)
{
  GtkWidget *table = pgs_process_list_get_column_view (pgs_window_get_process_list (window));

  gtk_test_widget_wait_for_draw (GTK_WIDGET (window));
  if (pgs_ui_find_label (table, text) == NULL)
    g_error ("no Growth cell says “%s”", text);
}

static void
assert_entry (PgsGrowth *growth,
              int        pid,
              guint64    start_time,
              gint64     change,
              guint      flags)
{
  const PgsGrowthEntry *entry = pgs_growth_lookup (growth, pid, start_time);

  g_assert_nonnull (entry);
  g_assert_cmpint (entry->change, ==, change);
  g_assert_cmpuint (entry->flags, ==, flags);
}

static int
first_pid (PgsWindow *window)
{
  GListModel *model = pgs_process_list_get_model (pgs_window_get_process_list (window));
  g_autoptr(PgsProcess) first = g_list_model_get_item (model, 0);

  return pgs_process_get_pid (first);
}

static void
test_growth (void)
{
  g_autofree char *dir = g_dir_make_tmp ("pgs-ui-replay-XXXXXX", NULL);
  g_autofree char *path = write_recording (dir);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  PgsApplication *app = NULL;
  PgsWindow *window = pgs_ui_open_window (&app);
  PgsSession *session = pgs_window_get_session (window);
  g_autofree char *hundred = pgs_units_format (PGS_UNITS_IEC, 100 * MiB);
  g_autofree char *fifty = pgs_units_format (PGS_UNITS_IEC, 50 * MiB);
  g_autofree char *twelve = pgs_units_format (PGS_UNITS_IEC, 12 * MiB);
  g_autofree char *plus_100 = g_strconcat ("+", hundred, NULL);
  g_autofree char *plus_50 = g_strconcat ("+", fifty, NULL);
  g_autofree char *gone = g_strdup_printf ("\u2212%s, gone", twelve);
  g_autofree char *new = g_strdup_printf ("+%s, new", twelve);
  Range whole = { window, 0, 2 }, later = { window, 1, 2 };
  PgsReplay *replay;
  PgsGrowth *growth;

  pgs_ui_wait_idle_scan (window);
  /* Live: no Growth to show. */
  g_assert_false (gtk_column_view_column_get_visible (growth_column (window)));
  g_action_group_change_action_state (pgs_process_list_get_actions (pgs_window_get_process_list (window)),
                                      "show-processes", g_variant_new_string ("all"));
  pgs_window_open_file (window, file, NULL);
  assert_at (window, 0);
  g_assert_true (gtk_column_view_column_get_visible (growth_column (window)));
  replay = pgs_session_get_replay (session);

  /* The whole recording. */
  g_assert_true (pgs_ui_wait (has_growth, &whole, 30000));
  growth = pgs_replay_get_growth (replay);
  assert_entry (growth, 10, 100, 100 * MiB, 0);
  assert_entry (growth, 20, 200, -(gint64) (12 * MiB), PGS_GROWTH_GONE);
  assert_entry (growth, 20, 500, 12 * MiB, PGS_GROWTH_NEW);
  /* The sparkline's points are PID 10's PSS at each sample. */
  {
    g_autoptr(GBytes) points = pgs_growth_get_points (growth, pgs_growth_lookup (growth, 10, 100));
    gsize size;
    const float *p = g_bytes_get_data (points, &size);

    g_assert_cmpuint (size, ==, 3 * sizeof (float));
    for (guint i = 0; i < 3; i++)
      g_assert_cmpfloat (p[i], ==, (float) grower_pss[i]);
  }
  assert_growth_cell (window, plus_100);
  /* At sample 0 PID 20 is "first", which is gone by the end… */
  assert_growth_cell (window, gone);
  /* …and at sample 2 it is "second", new since the start. */
  pgs_session_move_to_time (session, T0 + 2 * G_USEC_PER_SEC);
  assert_at (window, 2);
  assert_growth_cell (window, plus_100);
  assert_growth_cell (window, new);
  g_assert_null (pgs_ui_find_label (pgs_process_list_get_column_view (pgs_window_get_process_list (window)), gone));

  /* Sorted by Growth: the biggest growth first, the smallest last. */
  pgs_session_move_to_time (session, T0);
  assert_at (window, 0);
  gtk_column_view_sort_by_column (GTK_COLUMN_VIEW (pgs_process_list_get_column_view (pgs_window_get_process_list (window))),
                                  growth_column (window), GTK_SORT_DESCENDING);
  g_assert_cmpint (first_pid (window), ==, 10);
  gtk_column_view_sort_by_column (GTK_COLUMN_VIEW (pgs_process_list_get_column_view (pgs_window_get_process_list (window))),
                                  growth_column (window), GTK_SORT_ASCENDING);
  g_assert_cmpint (first_pid (window), ==, 20);

  /* Samples 1 to 2: PID 10 grew by 50 MiB there; "first" still ends inside. */
  pgs_replay_set_range (replay, 1, 2);
  g_assert_true (pgs_ui_wait (has_growth, &later, 30000));
  growth = pgs_replay_get_growth (replay);
  assert_entry (growth, 10, 100, 50 * MiB, 0);
  assert_entry (growth, 20, 200, -(gint64) (12 * MiB), PGS_GROWTH_GONE);
  assert_entry (growth, 20, 500, 12 * MiB, PGS_GROWTH_NEW);
  assert_growth_cell (window, plus_50);
  g_assert_null (pgs_ui_find_label (pgs_process_list_get_column_view (pgs_window_get_process_list (window)), plus_100));
  /* The sort follows the new figures. */
  g_assert_cmpint (first_pid (window), ==, 20);
  gtk_column_view_sort_by_column (GTK_COLUMN_VIEW (pgs_process_list_get_column_view (pgs_window_get_process_list (window))),
                                  growth_column (window), GTK_SORT_DESCENDING);
  g_assert_cmpint (first_pid (window), ==, 10);

  /* One sample (2 to 2), as the live history has at launch: nothing to compare, so each
   * shown row's Growth cell says "—" (unknown), not "0 B": one "—" more a row than over
   * samples 1 to 2, where every Growth cell has a figure. */
  {
    Range one = { window, 2, 2 };
    GtkWidget *table = pgs_process_list_get_column_view (pgs_window_get_process_list (window));
    guint rows = g_list_model_get_n_items (pgs_process_list_get_model (pgs_window_get_process_list (window)));
    guint unknown_over_two;

    gtk_test_widget_wait_for_draw (GTK_WIDGET (window));
    unknown_over_two = pgs_ui_count_labels (table, PGS_UNKNOWN_TEXT);
    pgs_replay_set_range (replay, 2, 2);
    g_assert_true (pgs_ui_wait (has_growth, &one, 30000));
    gtk_test_widget_wait_for_draw (GTK_WIDGET (window));
    g_assert_cmpuint (pgs_ui_count_labels (table, PGS_UNKNOWN_TEXT), ==, unknown_over_two + rows);
    g_assert_null (pgs_ui_find_label (table, plus_50));
    pgs_replay_set_range (replay, 1, 2);
    g_assert_true (pgs_ui_wait (has_growth, &later, 30000));
    assert_growth_cell (window, plus_50);
  }

  /* In bytes, as the other size cells, when the units say so: 50 × 2^20 = 52,428,800. */
  {
    g_autofree char *bytes = pgs_units_format (PGS_UNITS_BYTES, 52428800);
    g_autofree char *plus_bytes = g_strconcat ("+", bytes, NULL);

    g_settings_set_string (pgs_application_get_settings (app), "units", "bytes");
    assert_growth_cell (window, plus_bytes);
    g_settings_set_string (pgs_application_get_settings (app), "units", "iec");
    assert_growth_cell (window, plus_50);
  }

  gtk_window_destroy (GTK_WINDOW (window));
  g_object_unref (app);
  g_unlink (path);
  g_rmdir (dir);
}

/* PgsGrowth alone, over a longer recording of 200 samples (i = 0…199) made here:
 *   PID 30 grows by 1 MiB a sample, from 0: +199 MiB over the whole, +49 MiB over 150…199;
 *   PID 40 is another user's (VSS and RSS only, as a user records them): RSS 50 MiB + i pages,
 *     so its Growth is of RSS, +199 pages;
 *   PID 50 runs at samples 100…109 only: new and gone, ±0, and not there at all in 150…199;
 *   PID 60 shrinks by 1 MiB a sample from 201 MiB: −199 MiB.
 * The sparklines get PGS_GROWTH_MAX_POINTS points: the first and last samples' figures at
 * the ends, NaN where the process did not run. */
#define N_LONG 200

static char *
write_long_recording (const char *dir)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(PgsRecordingWriter) w = NULL;
  PgsRecordingSetup setup = { 1000, 0, FALSE, "UTC", NULL };
  char *path = g_build_filename (dir, "long.pgrec", NULL);

  w = pgs_recording_writer_new (path, &setup, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < N_LONG; i++)
    {
      g_autoptr(PgsSample) s = pgs_sample_new ();
      PgsSampleProcess other = { 0 };

      s->time = T0 + (gint64) i * G_USEC_PER_SEC;
      pgs_ui_sample_add_process (s, 30, 300, "leaky", (guint64) i * MiB + 2 * MiB);
      /* 2 MiB over the leak: pgs_ui_sample_add_process makes USS 2 MiB under PSS. */
      other.pid = 40;
      other.start_time = 400;
      other.uid = 1001;
      other.name = g_ref_string_new ("other");
      other.known = PGS_METRIC_VSS | PGS_METRIC_RSS;
      other.figures[PGS_SAMPLE_VSS] = 1024 * MiB;
      other.figures[PGS_SAMPLE_RSS] = 50 * MiB + (guint64) i * 4096;
      g_array_append_val (s->processes, other);
      if (i >= 100 && i < 110)
        pgs_ui_sample_add_process (s, 50, 500, "blip", 8 * MiB);
      pgs_ui_sample_add_process (s, 60, 600, "shrinking", (guint64) (N_LONG + 1 - i) * MiB);
      g_assert_true (pgs_recording_writer_add_sample (w, s, &error));
    }
  g_assert_true (pgs_recording_writer_close (w, &error));
  return path;
}

static void
test_figures (void)
{
  g_autofree char *dir = g_dir_make_tmp ("pgs-ui-growth-XXXXXX", NULL);
  g_autofree char *path = write_long_recording (dir);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  g_autoptr(PgsRecording) recording = pgs_recording_open (file, NULL, &error);
  g_autoptr(PgsGrowth) whole = NULL;
  g_autoptr(PgsGrowth) late = NULL;
  g_autoptr(GBytes) leaky_points = NULL;
  g_autoptr(GBytes) blip_points = NULL;
  g_autofree char *text = NULL;
  g_autofree char *size = NULL;
  g_autofree char *expected = NULL;
  const float *p;
  gsize n_bytes;
  guint n_drawn = 0;

  g_assert_no_error (error);
  whole = pgs_growth_new (recording, 0, N_LONG - 1, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (pgs_growth_get_n_entries (whole), ==, 4);
  g_assert_cmpuint (pgs_growth_get_n_points (whole), ==, PGS_GROWTH_MAX_POINTS);
  assert_entry (whole, 30, 300, 199 * MiB, 0);
  assert_entry (whole, 40, 400, 199 * 4096, PGS_GROWTH_RSS);
  assert_entry (whole, 50, 500, 0, PGS_GROWTH_NEW | PGS_GROWTH_GONE);
  assert_entry (whole, 60, 600, -(gint64) (199 * MiB), 0);
  /* Another start time is another process. */
  g_assert_null (pgs_growth_lookup (whole, 30, 301));

  size = pgs_units_format (PGS_UNITS_IEC, 199 * MiB);
  text = pgs_growth_format (pgs_growth_lookup (whole, 60, 600), PGS_UNITS_IEC);
  expected = g_strconcat ("\u2212", size, NULL);
  g_assert_cmpstr (text, ==, expected);
  g_clear_pointer (&text, g_free);
  text = pgs_growth_format (pgs_growth_lookup (whole, 50, 500), PGS_UNITS_BYTES);
  g_assert_cmpstr (text, ==, "0, came and went");

  leaky_points = pgs_growth_get_points (whole, pgs_growth_lookup (whole, 30, 300));
  p = g_bytes_get_data (leaky_points, &n_bytes);
  g_assert_cmpuint (n_bytes, ==, PGS_GROWTH_MAX_POINTS * sizeof (float));
  g_assert_cmpfloat (p[0], ==, (float) (2 * MiB));
  g_assert_cmpfloat (p[PGS_GROWTH_MAX_POINTS - 1], ==, (float) (201 * MiB));
  for (guint i = 1; i < PGS_GROWTH_MAX_POINTS; i++)
    g_assert_cmpfloat (p[i], >, p[i - 1]);
  blip_points = pgs_growth_get_points (whole, pgs_growth_lookup (whole, 50, 500));
  p = g_bytes_get_data (blip_points, &n_bytes);
  g_assert_true (isnan (p[0]));
  g_assert_true (isnan (p[PGS_GROWTH_MAX_POINTS - 1]));
  for (guint i = 0; i < PGS_GROWTH_MAX_POINTS; i++)
    if (!isnan (p[i]))
      {
        g_assert_cmpfloat (p[i], ==, (float) (8 * MiB));
        n_drawn++;
      }
  /* Sample i of 0…199 falls on point ⌈95 i / 199⌉ of 0…95: samples 100…109 on points
   * ⌈47.7⌉ = 48 to ⌈52.04⌉ = 53, 6 of them. */
  g_assert_cmpuint (n_drawn, ==, 6);

  late = pgs_growth_new (recording, 150, N_LONG - 1, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (pgs_growth_get_n_points (late), ==, 50);
  assert_entry (late, 30, 300, 49 * MiB, 0);
  g_assert_null (pgs_growth_lookup (late, 50, 500));

  g_unlink (path);
  g_rmdir (dir);
}

int
main (int    argc,
      char **argv)
{
  pgs_ui_init (&argc, &argv);
  g_test_add_func ("/ui/growth/figures", test_figures);
  g_test_add_func ("/ui/growth/column", test_growth);
  return g_test_run ();
}
