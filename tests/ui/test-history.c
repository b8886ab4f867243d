/* test-history.c: the live app's last minutes of totals, the strip and Growth from launch
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Issue 18: without a file, the live app keeps the totals of every scan for a window of
 * time (pgs-history.c). The ui suite runs with the history off (PGS_HISTORY_SECONDS=0, as
 * the refresh timer is off): this test turns it on and scans when it says, so each scan is
 * one sample. What it checks, each figure worked out from what the list showed at each
 * scan (its snapshot) or from the kernel (smaps_rollup), not from the history:
 *
 *   - after K scans the history has K samples, at the scans' times, each with exactly the
 *     processes and figures the list showed at that scan; the strip draws K samples, its
 *     PSS line the selected process's PSS as the list had it;
 *   - Growth over the window: pgs-ui-child, a static process that shares no page, writes
 *     GROW_PAGES more pages between two scans. Its Growth is the list's last PSS minus its
 *     first, which is also the change smaps_rollup showed (both read the child while it
 *     sleeps, so they agree to the byte), and is GROW_PAGES pages give or take 2: what
 *     posix_memalign touches for its own bookkeeping, at most one page before the block and
 *     one of the heap's top (the tolerance);
 *   - a past instant: its totals in the list and the detail, no page-level picture, scans
 *     held, a banner;
 *     Back to Live (win.refresh) returns and the next scan is kept;
 *   - a range chosen stays on the same samples when a scan comes, and Growth spans it;
 *   - with a window of WINDOW_S seconds, a sample older than that before the newest goes:
 *     the samples kept are those of the scans' times that fall inside it, worked out here.
 */

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pgs-history.h"
#include "pgs-map-page.h"
#include "pgs-process-list.h"
#include "pgs-session.h"
#include "pgs-timeline.h"
#include "pgs-ui-util.h"

#define K           4
#define CHILD_PAGES 256
#define GROW_PAGES  2048
#define GROW_AT     2      /* the child grows before scan GROW_AT */
#define WINDOW_S    2
#define NO          PGS_SAMPLE_ABSENT

typedef struct
{
  GPid pid;
  int  in_fd;
  int  out_fd;
} Child;

static void
child_start (Child *child)
{
  g_autofree char *n = g_strdup_printf ("%d", CHILD_PAGES);
  g_autofree char *more = g_strdup_printf ("%d", GROW_PAGES);
  const char *argv[] = { g_getenv ("PGS_UI_CHILD"), n, more, NULL };
  g_autoptr(GError) error = NULL;
  char line[64] = { 0 };

  g_assert_nonnull (argv[0]);
  g_spawn_async_with_pipes (NULL, (char **) argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD, NULL, NULL,
                            &child->pid, &child->in_fd, &child->out_fd, NULL, &error);
  g_assert_no_error (error);
  /* Its buffer's address, once every page is written. */
  g_assert_cmpint (read (child->out_fd, line, sizeof line - 1), >, 0);
}

static void
child_grow (Child *child)
{
  char line[64] = { 0 };

  g_assert_cmpint (write (child->in_fd, "g", 1), ==, 1);
  g_assert_cmpint (read (child->out_fd, line, sizeof line - 1), >, 0);
  g_assert_true (g_str_has_prefix (line, "grown"));
}

static void
child_stop (Child *child)
{
  int status;

  close (child->in_fd);
  close (child->out_fd);
  waitpid (child->pid, &status, 0);
}

typedef struct
{
  PgsTimeline *timeline;
  guint        n;
} Strip;

/* The strip has read @n samples, the selected process's PSS with them. */
static gboolean
strip_read (gpointer data)
{
  Strip *strip = data;

  return !pgs_timeline_is_loading (strip->timeline) &&
         pgs_timeline_get_value (strip->timeline, strip->n - 1, PGS_TIMELINE_FREE) != NO &&
         pgs_timeline_get_value (strip->timeline, strip->n, PGS_TIMELINE_FREE) == NO &&
         pgs_timeline_get_pss (strip->timeline, 0) != NO;
}

static gboolean
growth_ready (gpointer data)
{
  PgsReplay *replay = pgs_session_get_replay (data);

  return replay != NULL && pgs_replay_get_growth (replay) != NULL;
}

/* The turn of the main loop in which the session last showed a new snapshot and a new
 * history: one turn, so one frame, or the strip and Growth would be drawn a frame before the
 * list and the maps, a frame of the whole window more every refresh interval (issue 22).
 * A source that is never ready counts the turns: every turn prepares it. */
typedef struct
{
  GSource  source;
  guint64  turn;
  guint64  snapshot_turn;
  guint64  recording_turn;
} Turns;

static gboolean
turns_prepare (GSource *source,
               int     *timeout)
{
  ((Turns *) source)->turn++;
  *timeout = -1;
  return FALSE;
}

static GSourceFuncs turns_funcs = { turns_prepare, NULL, NULL, NULL, NULL, NULL };

static void
on_snapshot_turn (Turns *turns)
{
  turns->snapshot_turn = turns->turn;
}

static void
on_recording_turn (Turns *turns)
{
  turns->recording_turn = turns->turn;
}

static void
scan (PgsWindow *window)
{
  pgs_session_refresh (pgs_window_get_session (window));
  pgs_ui_wait_idle_scan (window);
}

/* Sample @index of @recording holds exactly the processes and figures of @shown. */
static void
assert_sample_is (PgsRecording *recording,
                  guint         index,
                  PgsSnapshot  *shown)
{
  g_autoptr(PgsSample) sample = pgs_recording_get_sample (recording, index, NULL);
  guint n = pgs_snapshot_get_n_processes (shown);

  g_assert_nonnull (sample);
  g_assert_cmpint (sample->time, ==, pgs_snapshot_get_time (shown));
  g_assert_cmpuint (sample->processes->len, ==, n);
  for (guint i = 0; i < n; i++)
    {
      PgsProcess *p = pgs_snapshot_get_process (shown, i);
      const PgsSampleProcess *s = pgs_sample_lookup (sample, pgs_process_get_pid (p),
                                                     pgs_process_get_start_time (p));

      g_assert_nonnull (s);
      g_assert_cmpstr (s->name, ==, pgs_process_get_name (p));
      if (pgs_process_get_known (p) & PGS_METRIC_PSS)
        g_assert_cmpuint (s->figures[PGS_SAMPLE_PSS], ==, pgs_process_get_pss (p));
      if (pgs_process_get_known (p) & PGS_METRIC_RSS)
        g_assert_cmpuint (s->figures[PGS_SAMPLE_RSS], ==, pgs_process_get_rss (p));
    }
}

static guint64
pss_in (PgsSnapshot *snapshot,
        int          pid)
{
  PgsProcess *p = pgs_snapshot_lookup_pid (snapshot, pid);

  g_assert_nonnull (p);
  g_assert_true (pgs_process_get_known (p) & PGS_METRIC_PSS);
  return pgs_process_get_pss (p);
}

static void
test_history (void)
{
  static const PgsView maps[] = { PGS_VIEW_RESIDENCY, PGS_VIEW_SHARING, PGS_VIEW_FLAGS };
  PgsApplication *app = NULL;
  PgsWindow *window = pgs_ui_open_window (&app);
  PgsSession *session = pgs_window_get_session (window);
  PgsHistory *history = pgs_session_get_history (session);
  PgsTimeline *timeline = PGS_TIMELINE (pgs_ui_find_widget (GTK_WIDGET (window), PGS_TYPE_TIMELINE));
  g_autoptr(GPtrArray) shown = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GArray) times = g_array_new (FALSE, FALSE, sizeof (gint64));
  guint64 rollup[K];
  long page = sysconf (_SC_PAGESIZE);
  Child child = { 0 };
  PgsRecording *recording;
  const PgsGrowthEntry *entry;
  guint n_kept = 0;
  Strip strip;
  Turns *turns = (Turns *) g_source_new (&turns_funcs, sizeof (Turns));

  g_assert_nonnull (timeline);
  pgs_ui_wait_idle_scan (window);
  /* Off, as the ui suite runs: nothing kept, no strip. */
  g_assert_cmpuint (pgs_history_get_window (history), ==, 0);
  g_assert_null (pgs_session_get_recording (session));
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (timeline)));

  pgs_history_set_window (history, PGS_HISTORY_DEFAULT_SECONDS);
  child_start (&child);
  g_source_attach (&turns->source, NULL);
  g_signal_connect_swapped (session, "notify::snapshot", G_CALLBACK (on_snapshot_turn), turns);
  g_signal_connect_swapped (session, "notify::recording", G_CALLBACK (on_recording_turn), turns);
  for (guint k = 0; k < K; k++)
    {
      if (k == GROW_AT)
        child_grow (&child);
      turns->snapshot_turn = turns->recording_turn = 0;
      scan (window);
      /* From the second scan on the child is selected, so the snapshot is held for its
       * pages: the history still moves with the list, in the same turn. */
      g_assert_cmpuint (turns->snapshot_turn, >, 0);
      g_assert_cmpuint (turns->recording_turn, ==, turns->snapshot_turn);
      {
      gint64 time = pgs_snapshot_get_time (pgs_session_get_snapshot (session));

      g_ptr_array_add (shown, g_object_ref (pgs_session_get_snapshot (session)));
      g_array_append_val (times, time);
      rollup[k] = pgs_ui_rollup_pss (child.pid);
      if (k == 0)
        g_assert_true (pgs_process_list_select_pid (pgs_window_get_process_list (window), child.pid));
      }
    }

  g_signal_handlers_disconnect_by_data (session, turns);
  g_source_destroy (&turns->source);
  g_source_unref (&turns->source);

  /* K samples, each what the list showed at its scan. */
  recording = pgs_session_get_recording (session);
  g_assert_nonnull (recording);
  g_assert_cmpuint (pgs_recording_get_n_samples (recording), ==, K);
  for (guint k = 0; k < K; k++)
    assert_sample_is (recording, k, g_ptr_array_index (shown, k));
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (timeline)));
  strip = (Strip) { timeline, K };
  g_assert_true (pgs_ui_wait (strip_read, &strip, 30000));
  /* The zram band: there with a zram device (its figure moves with the swap, so only its
   * presence is checked here; test-timeline checks the sum), a gap without one. */
  {
    g_autoptr(GDir) dir = g_dir_open ("/sys/block", 0, NULL);
    const char *entry;
    gboolean zram = FALSE;

    while (dir != NULL && (entry = g_dir_read_name (dir)) != NULL)
      zram |= g_str_has_prefix (entry, "zram");
    for (guint k = 0; k < K; k++)
      g_assert_cmpint (pgs_timeline_get_value (timeline, k, PGS_TIMELINE_ZRAM) != NO, ==, zram);
  }
  for (guint k = 0; k < K; k++)
    {
      g_assert_cmpuint (pgs_timeline_get_pss (timeline, k), ==, pss_in (g_ptr_array_index (shown, k), child.pid));
      /* The list and the kernel agree on the child, which sleeps between the two reads. */
      g_assert_cmpuint (pgs_timeline_get_pss (timeline, k), ==, rollup[k]);
    }
  /* Its CSV: a header, then one line per sample ending in the child's PSS. */
  {
    g_autofree char *path = g_build_filename (g_get_tmp_dir (), "pgs-test-history.csv", NULL);
    g_autofree char *text = NULL;
    g_auto(GStrv) lines = NULL;
    g_autoptr(GError) error = NULL;

    g_assert_true (pgs_timeline_write_csv (timeline, path, &error));
    g_assert_no_error (error);
    g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
    g_unlink (path);
    lines = g_strsplit (text, "\n", -1);
    g_assert_cmpuint (g_strv_length (lines), ==, K + 2);   /* the last one empty */
    g_assert_true (g_str_has_suffix (lines[0], ",process,pss_bytes"));
    for (guint k = 0; k < K; k++)
      {
        g_autofree char *end = g_strdup_printf (",%" G_GUINT64_FORMAT,
                                                pss_in (g_ptr_array_index (shown, k), child.pid));

        g_assert_true (g_str_has_suffix (lines[k + 1], end));
      }
  }
  /* The newest sample is the running system: no "Totals of sample…" line, and the maps,
   * which draw the live scan, say nothing of a recording (they said it had no picture). */
  g_assert_null (pgs_process_list_get_instant_text (pgs_window_get_process_list (window)));
  for (guint i = 0; i < G_N_ELEMENTS (maps); i++)
    g_assert_null (pgs_map_page_get_instant_text (pgs_window_get_map_page (window, maps[i])));

  /* Growth over the window. */
  g_assert_true (pgs_ui_wait (growth_ready, session, 30000));
  entry = pgs_growth_lookup (pgs_replay_get_growth (pgs_session_get_replay (session)), child.pid,
                             pgs_process_get_start_time (pgs_snapshot_lookup_pid (g_ptr_array_index (shown, 0),
                                                                                  child.pid)));
  g_assert_nonnull (entry);
  g_assert_cmpint (entry->flags, ==, 0);
  /* Over the last minutes: the scans' times, first to last (the tooltip says so). */
  g_assert_cmpint (pgs_growth_get_duration (pgs_replay_get_growth (pgs_session_get_replay (session))), ==,
                   g_array_index (times, gint64, K - 1) - g_array_index (times, gint64, 0));
  g_assert_cmpint (entry->change, ==, (gint64) (pss_in (g_ptr_array_index (shown, K - 1), child.pid) -
                                                pss_in (g_ptr_array_index (shown, 0), child.pid)));
  g_assert_cmpint (entry->change, ==, (gint64) (rollup[K - 1] - rollup[0]));
  g_assert_cmpint (entry->change, >=, (gint64) GROW_PAGES * page);
  g_assert_cmpint (entry->change, <=, (gint64) (GROW_PAGES + 2) * page);
  g_test_message ("Growth of the child: %" G_GINT64_FORMAT " bytes for %d pages of %ld",
                  entry->change, GROW_PAGES, page);

  /* A past instant: the first sample's totals, no pages, scans held, a banner. */
  pgs_session_move_to_time (session, g_array_index (times, gint64, 0));
  g_assert_nonnull (pgs_history_get_past (history));
  g_assert_cmpint (pgs_snapshot_get_time (pgs_session_get_snapshot (session)), ==, g_array_index (times, gint64, 0));
  g_assert_cmpuint (pss_in (pgs_session_get_snapshot (session), child.pid), ==,
                    pss_in (g_ptr_array_index (shown, 0), child.pid));
  g_assert_null (pgs_session_get_picture (session));
  /* The detail shows the selected process as it was then, not scanned again now. */
  {
    g_autoptr(PgsProcess) selected = NULL;

    pgs_ui_wait_idle_scan (window);
    g_object_get (session, "selected-process", &selected, NULL);
    g_assert_nonnull (selected);
    g_assert_cmpint (pgs_process_get_pid (selected), ==, child.pid);
    g_assert_cmpuint (pgs_process_get_pss (selected), ==, pss_in (g_ptr_array_index (shown, 0), child.pid));
    g_assert_false (pgs_session_is_scanning (session));
  }
  g_assert_nonnull (pgs_process_list_get_instant_text (pgs_window_get_process_list (window)));
  for (guint i = 0; i < G_N_ELEMENTS (maps); i++)
    g_assert_cmpstr (pgs_map_page_get_instant_text (pgs_window_get_map_page (window, maps[i])), ==,
                     "This recording has no page-level picture");
  g_assert_nonnull (strstr (pgs_window_get_banner_text (window), "history"));
  /* Back to Live: the next scan is shown, and kept. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.refresh", NULL));
  pgs_ui_wait_idle_scan (window);
  {
    gint64 time = pgs_snapshot_get_time (pgs_session_get_snapshot (session));

    g_array_append_val (times, time);
  }
  g_assert_null (pgs_history_get_past (history));
  g_assert_cmpuint (pgs_recording_get_n_samples (pgs_session_get_recording (session)), ==, K + 1);
  g_assert_nonnull (pgs_session_get_picture (session));

  /* A range chosen (as Shift+drag does) stays on the same samples as a scan comes, by
   * time; Growth spans it: the child grew between samples 1 and 2. */
  pgs_replay_set_range (pgs_session_get_replay (session), 1, 2);
  scan (window);
  {
    gint64 time = pgs_snapshot_get_time (pgs_session_get_snapshot (session));
    guint from, to;

    g_array_append_val (times, time);
    g_assert_cmpuint (pgs_recording_get_n_samples (pgs_session_get_recording (session)), ==, K + 2);
    pgs_replay_get_range (pgs_session_get_replay (session), &from, &to);
    g_assert_cmpuint (from, ==, 1);
    g_assert_cmpuint (to, ==, 2);
    g_assert_true (pgs_ui_wait (growth_ready, session, 30000));
    entry = pgs_growth_lookup (pgs_replay_get_growth (pgs_session_get_replay (session)), child.pid,
                               pgs_process_get_start_time (pgs_snapshot_lookup_pid (g_ptr_array_index (shown, 0),
                                                                                    child.pid)));
    g_assert_nonnull (entry);
    g_assert_cmpint (entry->change, ==, (gint64) (pss_in (g_ptr_array_index (shown, 2), child.pid) -
                                                  pss_in (g_ptr_array_index (shown, 1), child.pid)));
    g_assert_cmpint (entry->change, ==, (gint64) (rollup[2] - rollup[1]));
  }

  /* A window of WINDOW_S s: scans a little over a second apart, until some fell out. */
  pgs_history_set_window (history, WINDOW_S);
  for (guint i = 0; i < 4; i++)
    {
      gint64 newest;

      pgs_ui_spin (1100);
      scan (window);
      newest = pgs_snapshot_get_time (pgs_session_get_snapshot (session));
      g_array_append_val (times, newest);
      n_kept = 0;
      for (guint t = 0; t < times->len; t++)
        n_kept += g_array_index (times, gint64, t) >= newest - WINDOW_S * G_USEC_PER_SEC;
      recording = pgs_session_get_recording (session);
      g_assert_cmpuint (pgs_recording_get_n_samples (recording), ==, n_kept);
      g_assert_cmpint (pgs_recording_get_start_time (recording), ==,
                       g_array_index (times, gint64, times->len - n_kept));
    }
  g_assert_cmpuint (n_kept, <, times->len);
  strip = (Strip) { timeline, n_kept };
  g_assert_true (pgs_ui_wait (strip_read, &strip, 30000));

  child_stop (&child);
  gtk_window_destroy (GTK_WINDOW (window));
  g_object_unref (app);
}

int
main (int   argc,
      char *argv[])
{
  pgs_ui_init (&argc, &argv);
  g_test_add_func ("/ui/history/live", test_history);
  return g_test_run ();
}
