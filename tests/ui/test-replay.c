/* test-replay.c: a recording opened in the app, the window moved to three of its instants
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Issue 18: every view follows the instant the session shows. The recording is built here
 * from hand-made samples, so every figure below is the test's own:
 *
 *   sample  time       PID 10 "grower" PSS   PID 20
 *   0       T0         100 MiB               "first" (start 200), PSS 12 MiB
 *   1       T0 + 1 s   150 MiB               "first" (start 200), PSS 12 MiB
 *   2       T0 + 2 s   200 MiB               "second" (start 500, the PID reused), 12 MiB
 *
 * and two page-level pictures, scanned from fixture trees built here:
 *
 *   picture  time         PID 10's heap (1,024 pages)        physical memory
 *   0        T0           256 pages present, private anon    256 anonymous frames
 *   1        T0 + 1.8 s   512 pages present, private anon    512 anonymous frames
 *
 * The window opens the file as a user would (File > Open goes through the same call), is
 * moved to T0 + 2 s, to T0 + 1.4 s (nearest: sample 1), and by the keys' action a sample
 * at a time and past the end,
 * and at each the process list holds that instant's processes with that instant's PSS,
 * shows it in its cells, and says which sample and when; Pages and Page Flags show the
 * nearest picture's counts (sample 0: picture 0; samples 1 and 2: picture 1) and say when
 * it was taken.
 */

#include "config.h"

#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "pgs-fixture.h"
#include "pgs-kpage.h"
#include "pgs-recording-writer.h"
#include "pgs-replay.h"
#include "pgs-sample.h"
#include "pgs-ui-util.h"

#define T0  G_GINT64_CONSTANT (1764928800000000)  /* 2025-12-05 10:00:00 UTC */
#define MiB (G_GUINT64_CONSTANT (1) << 20)

static const guint64 grower_pss[] = { 100 * MiB, 150 * MiB, 200 * MiB };

#define HEAP        G_GUINT64_CONSTANT (0x10000000)
#define HEAP_PAGES  1024
#define KPF_ANON_LRU (PGS_KPF_BIT (PGS_KPF_ANON) | PGS_KPF_BIT (PGS_KPF_LRU))

static const gint64 picture_time[] = { T0, T0 + 1800 * 1000 };
static const guint  picture_anon[] = { 256, 512 };
static const guint  nearest_picture[] = { 0, 1, 1 };   /* per sample */

/* A page-level picture: PID 10 with @n_anon private anonymous pages of its heap, on frames
 * 1000 on, and nothing else in physical memory but their frames. */
static PgsSnapshot *
scan_picture (guint n_anon)
{
  g_autoptr(PgsFixture) fx = pgs_fixture_new ();
  g_autoptr(PgsScanner) scanner = pgs_scanner_new ();
  g_autoptr(GError) error = NULL;
  g_autofree guint64 *pages = g_new0 (guint64, HEAP_PAGES);
  guint64 ps = (guint64) sysconf (_SC_PAGESIZE);
  PgsSnapshot *snapshot;

  pgs_fixture_add_process (fx, 10, "grower", 1000, FALSE);
  pgs_fixture_add_mapping (fx, 10, HEAP, HEAP + HEAP_PAGES * ps, "rw-p", "[heap]");
  for (guint i = 0; i < n_anon; i++)
    {
      pages[i] = FX_PRESENT_EXCL (1000 + i);
      pgs_fixture_set_frame (fx, 1000 + i, 1, KPF_ANON_LRU);
    }
  pgs_fixture_set_pages (fx, 10, HEAP, pages, HEAP_PAGES);
  pgs_fixture_commit (fx);
  pgs_scanner_set_procfs_root (scanner, pgs_fixture_get_root (fx));
  pgs_scanner_set_flags (scanner, PGS_SCAN_MAPPINGS | PGS_SCAN_PAGES | PGS_SCAN_PHYSMAP);
  snapshot = pgs_scanner_scan (scanner, NULL, &error);
  g_assert_no_error (error);
  return snapshot;
}

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
      for (guint k = 0; k < G_N_ELEMENTS (picture_time); k++)
        if (picture_time[k] >= s->time && picture_time[k] < s->time + G_USEC_PER_SEC)
          {
            g_autoptr(PgsSnapshot) picture = scan_picture (picture_anon[k]);

            g_assert_true (pgs_recording_writer_add_picture (w, picture, picture_time[k], &error));
            g_assert_no_error (error);
          }
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

/* A mapped label or cell under @widget whose text holds each of @parts. */
static gboolean
shows_parts (GtkWidget          *widget,
             const char *const  *parts)
{
  if (pgs_ui_widget_text (widget) != NULL && gtk_widget_get_mapped (widget))
    {
      const char *text = pgs_ui_widget_text (widget);
      gboolean all = TRUE;

      for (guint i = 0; parts[i] != NULL; i++)
        all = all && strstr (text, parts[i]) != NULL;
      if (all)
        return TRUE;
    }
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (shows_parts (child, parts))
      return TRUE;
  return FALSE;
}

/* The legend item @id of @page's map, in pages (frames), or G_MAXUINT64 where the map has
 * none yet. */
static guint64
legend_count (PgsMapPage *page,
              const char *id)
{
  PgsRenderer *renderer = pgs_map_view_get_renderer (pgs_map_page_get_map_view (page));

  if (renderer == NULL || !pgs_map_page_has_map (page))
    return G_MAXUINT64;
  for (guint i = 0; i < pgs_renderer_get_n_legend_items (renderer); i++)
    if (g_str_equal (pgs_renderer_get_legend_id (renderer, i), id))
      {
        guint64 n;

        pgs_renderer_get_legend_item (renderer, i, NULL, NULL, &n);
        return n;
      }
  return G_MAXUINT64;
}

typedef struct
{
  PgsMapPage *page;
  const char *id;
  guint64     n;
  const char *when;
} Shows;

/* The page draws the picture: its legend counts @n of @id and it says when it was taken. */
static gboolean
page_shows (gpointer data)
{
  Shows *shows = data;
  const char *instant = pgs_map_page_get_instant_text (shows->page);

  return legend_count (shows->page, shows->id) == shows->n && instant != NULL &&
         strstr (instant, shows->when) != NULL;
}

static void
assert_pictures_at (PgsWindow *window,
                    guint      sample)
{
  guint k = nearest_picture[sample];
  g_autofree char *taken = g_strdup_printf ("picture %u of 2", k + 1);
  /* 10:00:00 and 10:00:01 (1.8 s, shown to the second) in the recording's UTC. */
  g_autofree char *when = g_strdup_printf ("10:00:0%d", (int) ((picture_time[k] - T0) / G_USEC_PER_SEC));
  Shows pages = { pgs_window_get_map_page (window, PGS_VIEW_RESIDENCY), "private-anon",
                  picture_anon[k], when };
  Shows flags = { pgs_window_get_map_page (window, PGS_VIEW_FLAGS), "anon", picture_anon[k], when };

  pgs_window_select_pid (window, 10);
  pgs_window_set_view (window, "residency");
  g_assert_true (pgs_ui_wait (page_shows, &pages, 30000));
  g_assert_nonnull (strstr (pgs_map_page_get_instant_text (pages.page), taken));
  pgs_window_set_view (window, "flags");
  g_assert_true (pgs_ui_wait (page_shows, &flags, 30000));
  g_assert_nonnull (strstr (pgs_map_page_get_instant_text (flags.page), taken));
  pgs_window_set_view (window, "processes");
}

static void
assert_at (PgsWindow *window,
           guint      sample)
{
  At at = { window, sample };
  GtkWidget *table = pgs_process_list_get_column_view (pgs_window_get_process_list (window));
  g_autofree char *pss = pgs_units_format (PGS_UNITS_IEC, grower_pss[sample]);
  g_autofree char *which = g_strdup_printf ("sample %u of 3", sample + 1);
  /* The recording's time zone is UTC: T0 is 10:00:00 there. */
  g_autofree char *when = g_strdup_printf ("10:00:%02u", sample);
  PgsProcess *second;

  g_assert_true (pgs_ui_wait (shows_sample, &at, 30000));
  gtk_test_widget_wait_for_draw (GTK_WIDGET (window));
  /* The list says which instant it shows. */
  g_assert_true (shows_parts (GTK_WIDGET (pgs_window_get_process_list (window)),
                              (const char *const[]) { which, when, NULL }));
  /* The two processes of that instant, no more: PID 20 is "first" until the PID is
   * reused by "second". */
  g_assert_cmpuint (g_list_model_get_n_items (pgs_process_list_get_model (pgs_window_get_process_list (window))),
                    ==, 2);
  second = pgs_ui_find_in_list (window, 20);
  g_assert_nonnull (second);
  g_assert_cmpstr (pgs_process_get_name (second), ==, sample < 2 ? "first" : "second");
  g_assert_cmpuint (pgs_process_get_pss (second), ==, 12 * MiB);
  /* What the user sees: the instant's PSS in the grower's row. */
  g_assert_nonnull (pgs_ui_find_label (table, pss));
  for (guint other = 0; other < G_N_ELEMENTS (grower_pss); other++)
    if (other != sample)
      {
        g_autofree char *not_now = pgs_units_format (PGS_UNITS_IEC, grower_pss[other]);

        g_assert_null (pgs_ui_find_label (table, not_now));
      }
  assert_pictures_at (window, sample);
}

static void
test_move (void)
{
  g_autofree char *dir = g_dir_make_tmp ("pgs-ui-replay-XXXXXX", NULL);
  g_autofree char *path = write_recording (dir);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  PgsApplication *app = NULL;
  PgsWindow *window = pgs_ui_open_window (&app);
  PgsSession *session = pgs_window_get_session (window);

  pgs_ui_wait_idle_scan (window);
  /* Every process of the file, whoever opens it (issue 21, 3). */
  g_action_group_change_action_state (pgs_process_list_get_actions (pgs_window_get_process_list (window)),
                                      "show-processes", g_variant_new_string ("all"));
  pgs_window_open_file (window, file, NULL);
  assert_at (window, 0);
  g_assert_nonnull (pgs_session_get_recording (session));
  /* A recording, called one, with the keys that move it. */
  g_assert_true (g_str_has_prefix (pgs_window_get_banner_text (window),
                                   "Showing the recording grow.pgrec, not the running system"));
  g_assert_nonnull (strstr (pgs_window_get_banner_text (window), "Alt+Left"));

  pgs_session_move_to_time (session, T0 + 2 * G_USEC_PER_SEC);
  assert_at (window, 2);
  /* Between samples: the nearest. */
  pgs_session_move_to_time (session, T0 + 1400 * 1000);
  assert_at (window, 1);
  /* As Alt+Left, Alt+Right and Shift+Alt+Right do. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.move-by", "i", -1));
  assert_at (window, 0);
  /* Not past either end. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.move-by", "i", -1));
  assert_at (window, 0);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.move-by", "i", 1));
  assert_at (window, 1);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.move-by", "i", 60));
  assert_at (window, 2);

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
  g_test_add_func ("/ui/replay/move", test_move);
  return g_test_run ();
}
