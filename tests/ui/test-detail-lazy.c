/* test-detail-lazy.c: the process detail builds what it shows of a process only once one is
 * shown
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Issue 22: the first frame shows no process (none is selected at start), so the detail
 * shows its "No Process Selected" page; its body (the figures, the working-set box, the
 * table of mappings with its eleven columns) is not built before that frame, nor after it
 * while no process is shown. Selecting the child (pgs-ui-child) builds it once, showing the
 * child's name as its /proc/PID/comm says and its PSS; selecting another process and the
 * child again shows them in that same body and the same table.
 * Run under xvfb-run; without a display it skips (exit 77).
 */

#include "config.h"

#include <unistd.h>

#include "pgs-detail-body.h"
#include "pgs-ui-util.h"

#define CHILD_PAGES 64

static PgsUiRun child;

/* How many widgets of @type are under @widget (itself included). Walked here rather than
 * with pgs_ui_find_widget() on the window, which builds the window's other pages. */
static guint
count_widgets (GtkWidget *widget,
               GType      type)
{
  guint n = G_TYPE_CHECK_INSTANCE_TYPE (widget, type) ? 1 : 0;

  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL;
       c = gtk_widget_get_next_sibling (c))
    n += count_widgets (c, type);
  return n;
}

typedef struct
{
  PgsProcessDetail *detail;
  int               pid;
} ShownWait;

/* Whether the detail shows @pid's process, in a body on screen. */
static gboolean
shown (gpointer data)
{
  ShownWait *wait = data;
  PgsProcess *process = pgs_process_detail_get_process (wait->detail);
  GtkWidget *body = pgs_ui_find_widget (GTK_WIDGET (wait->detail), PGS_TYPE_DETAIL_BODY);

  return process != NULL && pgs_process_get_pid (process) == wait->pid &&
         body != NULL && gtk_widget_get_mapped (body);
}

/* The process's name as the kernel has it (/proc/PID/comm, without its newline). */
static char *
comm_of (int pid)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/comm", pid);
  g_autofree char *text = NULL;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  return g_strdup (g_strstrip (text));
}

/* Selects @pid, waits for the detail to show it, and checks the body shows its name and
 * PSS; returns the body. */
static GtkWidget *
select_and_check (int pid)
{
  PgsProcessDetail *detail = pgs_window_get_process_detail (child.window);
  ShownWait wait = { detail, pid };
  g_autofree char *comm = comm_of (pid);
  g_autofree char *pss = NULL;
  GtkWidget *body;
  PgsProcess *process;

  pgs_window_select_pid (child.window, pid);
  g_assert_true (pgs_ui_wait (shown, &wait, 30000));
  gtk_test_widget_wait_for_draw (GTK_WIDGET (child.window));

  g_assert_cmpuint (count_widgets (GTK_WIDGET (child.window), PGS_TYPE_DETAIL_BODY), ==, 1);
  body = pgs_ui_find_widget (GTK_WIDGET (detail), PGS_TYPE_DETAIL_BODY);
  g_assert_true (gtk_widget_get_mapped (body));
  /* Its name, as the kernel gives it, in a label of the body on screen. */
  g_assert_nonnull (pgs_ui_find_label (body, comm));
  /* And its PSS, as the list's process has it. */
  process = pgs_process_detail_get_process (detail);
  g_assert_cmpint (pgs_process_get_pid (process), ==, pid);
  g_assert_true (pgs_process_is_known (process, PGS_METRIC_PSS));
  pss = pgs_units_format (PGS_UNITS_IEC, pgs_process_get_pss (process));
  g_assert_cmpstr (pgs_process_detail_get_metric_text (detail, PGS_METRIC_PSS), ==, pss);
  g_assert_nonnull (pgs_ui_find_label (body, pss));
  return body;
}

/* What the detail says while nothing is selected is all in view with the pane at its least
 * height, 100 px, about what it has in the default window with the timeline shown: a
 * placeholder with a 64 px icon had its title cut in half there (seen in a screenshot). */
static void
test_empty_state_fits (void)
{
  GtkWidget *detail = GTK_WIDGET (pgs_window_get_process_detail (child.window));
  GtkWidget *paned = gtk_widget_get_ancestor (detail, GTK_TYPE_PANED);
  const char *const texts[] = { "No Process Selected", NULL };
  GtkWidget *labels[2];
  int height, position;

  /* The divider as far down as it goes: the paned keeps the detail at its least height. */
  g_assert_nonnull (paned);
  position = gtk_paned_get_position (GTK_PANED (paned));
  gtk_paned_set_position (GTK_PANED (paned), gtk_widget_get_height (paned));
  gtk_test_widget_wait_for_draw (GTK_WIDGET (child.window));
  height = gtk_widget_get_height (detail);
  g_test_message ("the detail is %d px high", height);
  g_assert_cmpint (height, <=, 110);

  g_assert_null (pgs_process_detail_get_process (PGS_PROCESS_DETAIL (detail)));
  labels[0] = pgs_ui_find_label (detail, texts[0]);
  g_assert_nonnull (labels[0]);
  /* The line under the title, its sibling. */
  labels[1] = gtk_widget_get_next_sibling (labels[0]);
  g_assert_true (GTK_IS_LABEL (labels[1]));
  g_assert_cmpint (height, >, 0);
  for (guint i = 0; i < G_N_ELEMENTS (labels); i++)
    {
      graphene_rect_t bounds;

      g_assert_true (gtk_widget_compute_bounds (labels[i], detail, &bounds));
      g_test_message ("%s: %.0f to %.0f of %d px", gtk_label_get_text (GTK_LABEL (labels[i])),
                      bounds.origin.y, bounds.origin.y + bounds.size.height, height);
      g_assert_cmpfloat (bounds.origin.y, >=, 0);
      g_assert_cmpfloat (bounds.origin.y + bounds.size.height, <=, height);
    }
  gtk_paned_set_position (GTK_PANED (paned), position);
  gtk_test_widget_wait_for_draw (GTK_WIDGET (child.window));
}

static void
test_lazy (void)
{
  PgsProcessDetail *detail = pgs_window_get_process_detail (child.window);
  GtkWidget *window = GTK_WIDGET (child.window);
  GtkWidget *body, *again;
  GtkWidget *table;
  PgsSnapshot *before;

  /* The first frame is drawn, the scan done: the detail is on screen, with no process and
   * none of the body's widgets, neither the body nor a table under the detail (the process
   * list's own table is elsewhere in the window). */
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (detail)));
  g_assert_null (pgs_process_detail_get_process (detail));
  g_assert_cmpuint (count_widgets (window, PGS_TYPE_DETAIL_BODY), ==, 0);
  g_assert_cmpuint (count_widgets (GTK_WIDGET (detail), GTK_TYPE_COLUMN_VIEW), ==, 0);
  g_assert_cmpuint (count_widgets (GTK_WIDGET (detail), GTK_TYPE_FLOW_BOX), ==, 0);
  g_assert_nonnull (pgs_ui_find_label (GTK_WIDGET (detail), "No Process Selected"));
  /* Nor after a refresh, while still nothing is selected. */
  before = pgs_window_get_snapshot (child.window);
  pgs_window_refresh (child.window);
  pgs_ui_wait_idle_scan (child.window);
  g_assert_true (pgs_window_get_snapshot (child.window) != before);
  g_assert_null (pgs_process_detail_get_process (detail));
  g_assert_cmpuint (count_widgets (window, PGS_TYPE_DETAIL_BODY), ==, 0);

  /* The child: one body, with its table. */
  body = select_and_check (child.proc.pid);
  table = pgs_ui_find_widget (body, GTK_TYPE_COLUMN_VIEW);
  g_assert_nonnull (table);
  g_assert_cmpuint (count_widgets (GTK_WIDGET (detail), GTK_TYPE_COLUMN_VIEW), ==, 1);
  g_assert_null (pgs_ui_find_label (GTK_WIDGET (detail), "No Process Selected"));

  /* Another process (this test's own), then the child again: the same body and table. */
  again = select_and_check (getpid ());
  g_assert_true (again == body);
  again = select_and_check (child.proc.pid);
  g_assert_true (again == body);
  g_assert_true (pgs_ui_find_widget (body, GTK_TYPE_COLUMN_VIEW) == table);
}

int
main (int   argc,
      char *argv[])
{
  int status;

  pgs_ui_run_open (&child, CHILD_PAGES, &argc, &argv);
  pgs_ui_wait_idle_scan (child.window);

  g_test_add_func ("/pgs/ui/detail-lazy/empty-state-fits", test_empty_state_fits);
  g_test_add_func ("/pgs/ui/detail-lazy/built-when-shown", test_lazy);
  status = g_test_run ();

  pgs_ui_run_close (&child);
  return status;
}
