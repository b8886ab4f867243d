/* test-wss.c: measuring a working set from the app
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The child is tests/kernel/pgs-wss-child --rounds: of its WSS_TOUCHED_MIB anonymous mapping
 * it writes the first WSS_HOT_MIB once per round the test asks for. The test selects it, runs
 * win.measure-wss, presses Measure through the dialog's action, asks for a round once the
 * clearing shows (measuring again until a round provably fell inside the interval, so a
 * loaded machine makes it slower, never wrong), and checks what the
 * window then shows against numbers worked out here: the Referenced cell of that mapping
 * (in bytes) is WSS_HOT_MIB and the kernel's own smaps "Referenced", read right after,
 * each within TOLERANCE; the chart has one point per measurement; on a kernel without idle page tracking
 * the residency map carries a note instead of marks. Then a refresh keeps the results, a
 * cancel ends a 30 s interval at once and leaves them as they were, and a kernel thread is
 * refused with a message in the dialog.
 *
 * Runs under xvfb-run; skips (77) without a display, without root (clear_refs of another
 * user's process), or where the child cannot be found.
 */

#include "config.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pgs-ui-util.h"
#include "pgs-wss-child.h"

#define MIB       (G_GUINT64_CONSTANT (1) << 20)
/* The library's stated tolerance (tests/kernel/test-wss.c): 16 pages of 4 KiB. */
#define TOLERANCE (G_GUINT64_CONSTANT (64) << 10)

static struct
{
  GPid            pid;
  guint64         touched;
  char           *file;
  int             in_fd;
  FILE           *out;
  guint           rounds;
  PgsApplication *app;
  PgsWindow      *window;
} c;

static void
start_child (void)
{
  const char *exe = g_getenv ("PGS_WSS_CHILD");
  g_autoptr(GError) error = NULL;
  g_autofree char *tmpdir = NULL;
  unsigned long touched, untouched, file;
  char line[256];
  int out;

  if (exe == NULL || !g_file_test (exe, G_FILE_TEST_IS_EXECUTABLE))
    {
      g_printerr ("PGS_WSS_CHILD not set: skipped\n");
      exit (77);
    }
  tmpdir = g_dir_make_tmp ("pgs-ui-wss-XXXXXX", &error);
  g_assert_no_error (error);
  c.file = g_build_filename (tmpdir, "file", NULL);
  /* --rounds: it touches only when asked (see touch_round), so what it touched during an
   * interval is known whatever the load. */
  g_spawn_async_with_pipes (NULL, (char *[]) { (char *) exe, (char *) "--rounds", c.file, NULL },
                            NULL, G_SPAWN_DO_NOT_REAP_CHILD, NULL, NULL, &c.pid, &c.in_fd, &out,
                            NULL, &error);
  g_assert_no_error (error);
  c.out = fdopen (out, "r");
  g_assert_nonnull (fgets (line, sizeof line, c.out));
  g_assert_cmpint (sscanf (line, "ready %lx %lx %lx", &touched, &untouched, &file), ==, 3);
  c.touched = touched;
}

static void
stop_child (void)
{
  g_autofree char *dir = g_path_get_dirname (c.file);

  kill (c.pid, SIGKILL);
  waitpid (c.pid, NULL, 0);
  close (c.in_fd);
  fclose (c.out);
  unlink (c.file);
  rmdir (dir);
  g_free (c.file);
}

/* The kernel's smaps "Referenced" of the mapping starting at @start, in bytes, read with
 * sscanf rather than the library's parser so that the oracle is independent of it. */
static guint64
kernel_referenced (int     pid,
                   guint64 start)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/smaps", pid);
  g_autofree char *contents = NULL;
  g_auto(GStrv) lines = NULL;
  gboolean inside = FALSE;

  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  lines = g_strsplit (contents, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    {
      guint64 from, to, kb;

      if (sscanf (lines[i], "%" G_GINT64_MODIFIER "x-%" G_GINT64_MODIFIER "x ", &from, &to) == 2)
        inside = from == start;
      else if (inside && sscanf (lines[i], "Referenced: %" G_GINT64_MODIFIER "u kB", &kb) == 1)
        return kb * 1024;
    }
  g_assert_not_reached ();
}

static PgsMapping *
find_mapping (guint64 start)
{
  GListModel *model = pgs_process_detail_get_mappings (pgs_window_get_process_detail (c.window));

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(PgsMapping) mapping = g_list_model_get_item (model, i);

      if (pgs_mapping_get_start (mapping) == start)
        return mapping;   /* the model keeps its own reference */
    }
  return NULL;
}

/* The number in a cell shown in bytes: "16,777,216" with the locale's grouping. */
static guint64
parse_bytes (const char *text)
{
  guint64 value = 0;

  g_assert_true (g_ascii_isdigit (*text));
  for (const char *p = text; *p; p++)
    if (g_ascii_isdigit (*p))
      value = value * 10 + (guint64) (*p - '0');
  return value;
}

static gboolean
selected_is (gpointer data)
{
  PgsProcess *process =
    pgs_process_detail_get_process (pgs_window_get_process_detail (c.window));

  return process != NULL && pgs_process_get_pid (process) == GPOINTER_TO_INT (data);
}

static gboolean
dialog_closed (gpointer data)
{
  return pgs_window_get_wss_dialog (c.window) == NULL;
}

static gboolean
dialog_error (gpointer data)
{
  return pgs_wss_dialog_get_error_text (data) != NULL;
}

/* Read here, not through the library, so the oracle does not share its code. */
static gboolean
damon_paddr_running (void)
{
  for (guint k = 0; k < 64; k++)
    {
      g_autofree char *state_path = g_strdup_printf ("/sys/kernel/mm/damon/admin/kdamonds/%u/state", k);
      g_autofree char *state = NULL;

      if (!g_file_get_contents (state_path, &state, NULL, NULL))
        break;
      if (!g_str_has_prefix (state, "on"))
        continue;
      for (guint i = 0; i < 64; i++)
        {
          g_autofree char *ops_path = g_strdup_printf ("/sys/kernel/mm/damon/admin/kdamonds/%u/contexts/%u/operations", k, i);
          g_autofree char *ops = NULL;

          if (!g_file_get_contents (ops_path, &ops, NULL, NULL))
            break;
          if (g_str_has_prefix (ops, "paddr"))
            return TRUE;
        }
    }
  return FALSE;
}

/* One whole round of the child's touching; returns the (monotonic) time it was done. */
static gint64
touch_round (void)
{
  g_autofree char *expected = g_strdup_printf ("done %u\n", ++c.rounds);
  char line[64];

  g_assert_cmpint (write (c.in_fd, "t\n", 2), ==, 2);
  g_assert_nonnull (fgets (line, sizeof line, c.out));
  g_assert_cmpstr (line, ==, expected);
  return g_get_monotonic_time ();
}

/* The clearing has happened: the touched mapping, idle since its last round, reads 0. */
static gboolean
touched_cleared (gpointer data)
{
  return dialog_closed (NULL) || kernel_referenced (c.pid, c.touched) == 0;
}

static PgsWssDialog *
open_dialog (guint interval)
{
  PgsWssDialog *dialog;

  g_settings_set_uint (pgs_application_get_settings (c.app), "wss-interval", interval);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (c.window), "win.measure-wss", NULL));
  dialog = pgs_window_get_wss_dialog (c.window);
  g_assert_nonnull (dialog);
  gtk_test_widget_wait_for_draw (GTK_WIDGET (dialog));
  return dialog;
}

static void
test_measure (void)
{
  PgsProcessDetail *detail = pgs_window_get_process_detail (c.window);
  PgsMapPage *residency = pgs_window_get_map_page (c.window, PGS_VIEW_RESIDENCY);
  PgsWssDialog *dialog;
  PgsMapping *mapping;
  g_autofree char *before = NULL;
  g_autofree char *shown = NULL;
  const char *tooltip = NULL;
  guint64 value, kernel;
  gint64 start;
  guint attempts;
  int width, min_width;

  pgs_window_select_pid (c.window, c.pid);
  g_assert_true (pgs_ui_wait (selected_is, GINT_TO_POINTER (c.pid), 10000));
  /* Its mappings come from a scan of it alone, after the list's totals. */
  pgs_ui_wait_idle_scan (c.window);
  gtk_test_widget_wait_for_draw (GTK_WIDGET (c.window));
  width = gtk_widget_get_width (GTK_WIDGET (c.window));
  gtk_widget_measure (GTK_WIDGET (c.window), GTK_ORIENTATION_HORIZONTAL, -1, &min_width, NULL,
                      NULL, NULL);
  g_test_message ("window needs %d px before measuring", min_width);

  mapping = find_mapping (c.touched);
  g_assert_nonnull (mapping);

  /* Before any measurement: "—" with a reason, never 0. */
  before = pgs_process_detail_get_referenced_text (detail, mapping, &tooltip);
  g_assert_cmpstr (before, ==, "—");
  g_assert_nonnull (tooltip);
  g_assert_null (pgs_process_detail_get_wss_basis_text (detail));

  /* The dialog's interval is a timer the test cannot end, so it asks the child for a round
   * once the clearing shows in smaps and checks that the read-back came after the round was
   * done; on a machine too busy for that within the interval it measures again. */
  for (attempts = 1; ; attempts++)
    {
      GPtrArray *samples;
      gint64 done = G_MAXINT64;

      g_assert_cmpuint (attempts, <=, 20);
      dialog = open_dialog (attempts == 1 ? 1 : 3);
      g_assert_cmpint (pgs_wss_dialog_get_pid (dialog), ==, c.pid);
      start = g_get_monotonic_time ();
      g_assert_true (gtk_widget_activate_action (GTK_WIDGET (dialog), "wss.measure", NULL));
      g_assert_true (pgs_wss_dialog_is_running (dialog));
      g_assert_true (pgs_ui_wait (touched_cleared, NULL, 60000));
      if (!dialog_closed (NULL))
        done = touch_round ();
      g_assert_true (pgs_ui_wait (dialog_closed, NULL, 60000));
      /* The interval was waited, on the main loop. */
      g_assert_cmpint (g_get_monotonic_time () - start, >=, G_USEC_PER_SEC);
      samples = pgs_process_detail_get_wss_samples (detail);
      g_assert_nonnull (samples);
      g_assert_cmpuint (samples->len, ==, attempts);
      /* The read-back came at the clearing plus the elapsed time, and the clearing came
       * after start: provably after the round when start + elapsed is. */
      if (start + pgs_wss_sample_get_elapsed (g_ptr_array_index (samples, samples->len - 1)) > done)
        break;
      g_test_message ("attempt %u: the round was not done inside the interval", attempts);
    }
  kernel = kernel_referenced (c.pid, c.touched);

  mapping = find_mapping (c.touched);
  g_assert_nonnull (mapping);
  shown = pgs_process_detail_get_referenced_text (detail, mapping, NULL);
  value = parse_bytes (shown);
  g_test_message ("Referenced shown %" G_GUINT64_FORMAT ", smaps %" G_GUINT64_FORMAT
                  ", expected %" G_GUINT64_FORMAT " ± %" G_GUINT64_FORMAT,
                  value, kernel, WSS_HOT_MIB * MIB, TOLERANCE);
  g_assert_cmpuint (value, >=, WSS_HOT_MIB * MIB - TOLERANCE);
  g_assert_cmpuint (value, <=, WSS_HOT_MIB * MIB + TOLERANCE);
  g_assert_cmpuint (value, >=, kernel > TOLERANCE ? kernel - TOLERANCE : 0);
  g_assert_cmpuint (value, <=, kernel + TOLERANCE);

  g_assert_cmpuint (pgs_wss_chart_get_n_points (pgs_process_detail_get_wss_chart (detail)), ==, attempts);
  /* Issue 21 item 4: the results made the window wider than the screen, clipping the list
   * on both sides. The window keeps its width, and needs no more than it has. */
  gtk_test_widget_wait_for_draw (GTK_WIDGET (c.window));
  gtk_widget_measure (GTK_WIDGET (c.window), GTK_ORIENTATION_HORIZONTAL, -1, &min_width, NULL,
                      NULL, NULL);
  g_test_message ("window %d px wide before, %d after, needs %d", width,
                  gtk_widget_get_width (GTK_WIDGET (c.window)), min_width);
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (c.window)), ==, width);
  g_assert_cmpint (min_width, <=, width);
  g_assert_nonnull (pgs_process_detail_get_wss_basis_text (detail));
  /* The child ran (a round): the figure stands alone. A DAMON monitor of physical memory,
   * where one runs, is named beside it. */
  g_assert_null (strstr (pgs_process_detail_get_wss_total_text (detail), "did not run"));
  if (damon_paddr_running ())
    {
      const char *caveats = pgs_process_detail_get_wss_caveat_text (detail);

      g_test_message ("caveats: %s", caveats);
      g_assert_nonnull (caveats);
      g_assert_nonnull (strstr (caveats, "DAMON monitor of physical memory"));
    }

  if (!g_file_test ("/sys/kernel/mm/page_idle/bitmap", G_FILE_TEST_EXISTS))
    {
      /* No per-page source: a note, and no marks that would read as "nothing used". */
      g_assert_nonnull (pgs_map_page_get_wss_note (residency));
      g_assert_null (pgs_map_view_get_wss_sample (pgs_map_page_get_map_view (residency)));
      g_assert_nonnull (strstr (pgs_process_detail_get_wss_basis_text (detail),
                                "page by page"));
    }
}

static void
test_refresh_keeps (void)
{
  PgsProcessDetail *detail = pgs_window_get_process_detail (c.window);
  GPtrArray *samples = pgs_process_detail_get_wss_samples (detail);

  g_assert_nonnull (samples);
  pgs_window_refresh (c.window);
  pgs_ui_wait_idle_scan (c.window);
  g_assert_true (selected_is (GINT_TO_POINTER (c.pid)));
  g_assert_true (pgs_process_detail_get_wss_samples (detail) == samples);
  g_assert_nonnull (pgs_map_page_get_wss_note (pgs_window_get_map_page (c.window,
                                                                          PGS_VIEW_RESIDENCY)));
}

static void
test_cancel (void)
{
  PgsProcessDetail *detail = pgs_window_get_process_detail (c.window);
  GPtrArray *samples = pgs_process_detail_get_wss_samples (detail);
  PgsWssDialog *dialog = open_dialog (30);
  gint64 start;

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (dialog), "wss.measure", NULL));
  pgs_ui_spin (300);
  g_assert_true (pgs_wss_dialog_is_running (dialog));
  start = g_get_monotonic_time ();
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (dialog), "wss.cancel", NULL));
  g_assert_true (pgs_ui_wait (dialog_closed, NULL, 20000));
  /* Well before the 30 s interval would have ended (with room for a loaded machine). */
  g_assert_cmpint (g_get_monotonic_time () - start, <, 20 * G_USEC_PER_SEC);
  /* Let a late callback run: it must not publish anything. */
  pgs_ui_spin (500);
  g_assert_true (pgs_process_detail_get_wss_samples (detail) == samples);
}

static void
test_kernel_thread (void)
{
  PgsWssDialog *dialog;

  /* kthreadd is PID 2 where there is one; the list shows it only if it lists kernel
   * threads at all. */
  pgs_window_select_pid (c.window, 2);
  if (!pgs_ui_wait (selected_is, GINT_TO_POINTER (2), 2000))
    {
      g_test_skip ("PID 2 is not in the list");
      return;
    }
  dialog = open_dialog (1);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (dialog), "wss.measure", NULL));
  g_assert_true (pgs_ui_wait (dialog_error, dialog, 10000));
  g_test_message ("Error shown: %s", pgs_wss_dialog_get_error_text (dialog));
  g_assert_false (pgs_wss_dialog_is_running (dialog));
  g_assert_nonnull (strstr (pgs_wss_dialog_get_error_text (dialog), "2"));
  /* Another process selected: the child's results are not shown for it. */
  g_assert_null (pgs_process_detail_get_wss_samples (pgs_window_get_process_detail (c.window)));
  gtk_window_close (GTK_WINDOW (dialog));
  g_assert_true (pgs_ui_wait (dialog_closed, NULL, 20000));
}

static void
on_measured_pageout (PgsWssDialog *dialog,
                     GPtrArray    *cycles,
                     gpointer      user_data)
{
  GPtrArray **out = user_data;

  *out = g_ptr_array_ref (cycles);
}

/* The page-out method: one cycle of the child, handed over through ::measured-pageout. */
static void
test_pageout (void)
{
  g_autoptr(GPtrArray) cycles = NULL;
  PgsWssDialog *dialog;
  PgsPageoutResult *r;

  pgs_window_select_pid (c.window, c.pid);
  g_assert_true (pgs_ui_wait (selected_is, GINT_TO_POINTER (c.pid), 5000));
  dialog = open_dialog (1);
  g_signal_connect (dialog, "measured-pageout", G_CALLBACK (on_measured_pageout), &cycles);
  pgs_wss_dialog_set_method (dialog, TRUE);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (dialog), "wss.measure", NULL));
  g_assert_true (pgs_ui_wait (dialog_closed, NULL, 120000));
  g_assert_nonnull (cycles);
  g_assert_cmpuint (cycles->len, ==, 1);
  r = g_ptr_array_index ((GPtrArray *) g_ptr_array_index (cycles, 0), 0);
  g_assert_cmpint (pgs_pageout_result_get_pid (r), ==, c.pid);
  /* The child's 64 MiB touched region is resident and private: measured, or (without swap)
   * not measured for that reason, never missing. */
  g_assert_cmpuint (pgs_pageout_result_get_touched (r) + pgs_pageout_result_get_stayed_out (r) +
                    pgs_pageout_result_get_not_measured (r), >=, 64u << 20);
}

static void
test_pageout_kernel_thread (void)
{
  PgsWssDialog *dialog;

  pgs_window_select_pid (c.window, 2);
  if (!pgs_ui_wait (selected_is, GINT_TO_POINTER (2), 2000))
    {
      g_test_skip ("PID 2 is not in the list");
      return;
    }
  dialog = open_dialog (1);
  pgs_wss_dialog_set_method (dialog, TRUE);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (dialog), "wss.measure", NULL));
  g_assert_true (pgs_ui_wait (dialog_error, dialog, 10000));
  g_assert_false (pgs_wss_dialog_is_running (dialog));
  g_assert_nonnull (strstr (pgs_wss_dialog_get_error_text (dialog), "kernel thread"));
  gtk_window_close (GTK_WINDOW (dialog));
  g_assert_true (pgs_ui_wait (dialog_closed, NULL, 20000));
}

int
main (int   argc,
      char *argv[])
{
  int status;

  if (geteuid () != 0)
    {
      g_printerr ("Not root: skipped\n");
      return 77;
    }
  start_child ();
  pgs_ui_init (&argc, &argv);
  c.window = pgs_ui_open_window (&c.app);
  g_settings_set_string (pgs_application_get_settings (c.app), "units", "bytes");
  pgs_ui_wait_idle_scan (c.window);

  g_test_add_func ("/pgs/ui/wss/measure", test_measure);
  g_test_add_func ("/pgs/ui/wss/refresh-keeps", test_refresh_keeps);
  g_test_add_func ("/pgs/ui/wss/cancel", test_cancel);
  g_test_add_func ("/pgs/ui/wss/kernel-thread", test_kernel_thread);
  g_test_add_func ("/pgs/ui/wss/pageout", test_pageout);
  g_test_add_func ("/pgs/ui/wss/pageout-kernel-thread", test_pageout_kernel_thread);
  status = g_test_run ();

  gtk_window_destroy (GTK_WINDOW (c.window));
  g_object_unref (c.app);
  stop_child ();
  return status;
}
