/* test-app.c: the app window against a child process of known layout
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The child (pgs-ui-child, exec'd and static, so it shares no page with this process)
 * allocates CHILD_PAGES pages, writes every one and sleeps. What the app shows for it is checked against what the kernel says (smaps_rollup,
 * pagemap, kpagecount, read here), against a scan of the library made here, and against
 * the layout itself. Run under xvfb-run; without a display it skips (exit 77).
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cairo.h>

#include "pgs-pagemap.h"
#include "pgs-ui-util.h"

#define CHILD_PAGES 300

static PgsUiRun child;

/* The size of @pid's [vdso] mapping, from its maps. */
static guint64
vdso_size (int pid)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/maps", pid);
  g_autofree char *contents = NULL;
  g_auto(GStrv) lines = NULL;

  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  lines = g_strsplit (contents, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    if (g_str_has_suffix (lines[i], "[vdso]"))
      {
        guint64 start = g_ascii_strtoull (lines[i], NULL, 16);
        guint64 end = g_ascii_strtoull (strchr (lines[i], '-') + 1, NULL, 16);

        return end - start;
      }
  return 0;
}

static guint64
read_u64 (const char *path,
          guint64     index)
{
  int fd = open (path, O_RDONLY);
  guint64 value = 0;

  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (pread (fd, &value, sizeof value, index * sizeof value), ==, sizeof value);
  close (fd);
  return value;
}

static PgsProcess *
find_in_model (GListModel *model,
               int         pid,
               guint      *position)
{
  guint n = g_list_model_get_n_items (model);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(PgsProcess) process = g_list_model_get_item (model, i);

      if (pgs_process_get_pid (process) == pid)
        {
          if (position != NULL)
            *position = i;
          return process;   /* the model keeps its own reference */
        }
    }
  return NULL;
}

/* MemTotal as /proc/meminfo says it, in bytes. */
static guint64
meminfo_total (void)
{
  g_autofree char *text = NULL;
  const char *line;

  g_assert_true (g_file_get_contents ("/proc/meminfo", &text, NULL, NULL));
  line = strstr (text, "MemTotal:");
  g_assert_nonnull (line);
  return g_ascii_strtoull (line + strlen ("MemTotal:"), NULL, 10) * 1024;
}

/* Page Flags without root shows the ledger's counter rows in place of the map: MemTotal
 * as the kernel says, the rows only frames answer unknown ("—", never 0), and the rest
 * MemTotal less the known rows. */
static void
check_counters_ledger (PgsMapPage *flags)
{
  PgsLedgerView *view = pgs_map_page_get_counters_ledger (flags);
  const PgsLedger *ledger;
  guint64 known = 0;

  g_assert_nonnull (view);
  g_assert_true (gtk_widget_is_drawable (GTK_WIDGET (view)));
  ledger = pgs_ledger_view_get_ledger (view);
  g_assert_nonnull (ledger);
  g_assert_false (ledger->from_frames);
  g_assert_cmpuint (ledger->mem_total, ==, meminfo_total ());
  g_assert_false (ledger->rows[PGS_LEDGER_CACHE_CLEAN].known);
  g_assert_cmpstr (pgs_ledger_view_get_size_text (view, PGS_LEDGER_CACHE_CLEAN), ==, "—");
  g_assert_true (ledger->rows[PGS_LEDGER_SLAB_RECLAIMABLE].known);
  g_assert_true (ledger->rows[PGS_LEDGER_SLAB_RECLAIMABLE].source == PGS_LEDGER_SOURCE_COUNTER);
  g_assert_false (ledger->unexplained_known);
  for (guint r = 0; r < PGS_LEDGER_N_ROWS; r++)
    if (ledger->rows[r].known)
      known += ledger->rows[r].bytes;
  g_assert_cmpint (ledger->unknown, ==, (gint64) ledger->mem_total - (gint64) known);
  g_assert_cmpuint (pgs_ledger_view_get_n_segments (view), >, 1);
}

static void
test_starts (void)
{
  PgsSnapshot *snapshot;

  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (child.window)));
  pgs_ui_wait_idle_scan (child.window);
  snapshot = pgs_window_get_snapshot (child.window);
  g_assert_nonnull (snapshot);
  g_assert_cmpuint (pgs_snapshot_get_n_processes (snapshot), >, 1);
  /* As root the whole picture is there: no banner saying what is missing. */
  if (geteuid () == 0)
    {
      g_assert_true (pgs_snapshot_is_privileged (snapshot));
      g_assert_null (pgs_window_get_banner_text (child.window));
      /* The list is refreshed from the kernel's totals, without a page walk and without
       * the physical map, which is read once a page shows it. */
      g_assert_cmpstr (pgs_window_get_view (child.window), ==, "processes");
      g_assert_null (pgs_snapshot_get_physmap (snapshot));
      for (guint i = 0; i < pgs_snapshot_get_n_processes (snapshot); i++)
        {
          PgsProcess *p = pgs_snapshot_get_process (snapshot, i);

          g_assert_false (pgs_process_has_pages (p));
          g_assert_cmpuint (pgs_process_get_n_mappings (p), ==, 0);
        }
      pgs_window_set_view (child.window, "sharing");
      g_assert_true (pgs_window_is_busy (child.window));
      pgs_ui_wait_idle_scan (child.window);
      g_assert_nonnull (pgs_snapshot_get_physmap (pgs_window_get_snapshot (child.window)));
      pgs_window_set_view (child.window, "processes");
    }
  else
    {
      PgsMapPage *flags = pgs_window_get_map_page (child.window, PGS_VIEW_FLAGS);

      /* Without root: a banner says what is missing, and the physical maps explain
       * themselves instead of showing an empty picture. */
      g_assert_false (pgs_snapshot_is_privileged (snapshot));
      g_assert_nonnull (pgs_window_get_banner_text (child.window));
      g_assert_null (pgs_snapshot_get_physmap (snapshot));
      pgs_window_set_view (child.window, "flags");
      gtk_test_widget_wait_for_draw (GTK_WIDGET (child.window));
      g_assert_false (pgs_map_page_has_map (flags));
      check_counters_ledger (flags);
      pgs_window_set_view (child.window, "processes");
    }
}

static void
test_list_has_child (void)
{
  PgsProcessList *list = pgs_window_get_process_list (child.window);
  GListModel *model = pgs_process_list_get_model (list);
  g_autoptr(PgsScanner) scanner = pgs_scanner_new ();
  g_autoptr(PgsSnapshot) direct = NULL;
  g_autoptr(GError) error = NULL;
  PgsProcess *shown, *expected;
  guint64 page = sysconf (_SC_PAGESIZE);
  guint64 vdso;
  int pid = child.proc.pid;

  shown = find_in_model (model, child.proc.pid, NULL);
  g_assert_nonnull (shown);

  /* The library's own numbers for the child, from a scan made here. */
  pgs_scanner_set_flags (scanner, PGS_SCAN_MAPPINGS | PGS_SCAN_PAGES);
  pgs_scanner_set_pids (scanner, &pid, 1);
  direct = pgs_scanner_scan (scanner, NULL, &error);
  g_assert_no_error (error);
  expected = pgs_snapshot_lookup_pid (direct, child.proc.pid);
  g_assert_nonnull (expected);

  g_assert_cmpuint (pgs_process_get_known (shown), ==, PGS_METRIC_ALL);
  g_assert_cmpuint (pgs_process_get_vss (shown), ==, pgs_process_get_vss (expected));
  g_assert_cmpuint (pgs_process_get_rss (shown), ==, pgs_process_get_rss (expected));
  g_assert_cmpuint (pgs_process_get_swap (shown), ==, pgs_process_get_swap (expected));
  /* The child shares no page with anything (static, exec'd) but the vDSO, which every
   * process maps: its share of that moves as processes come and go (1958039 against
   * 1958045 bytes in one run), by less than the vDSO's own size. USS cannot move. */
  vdso = vdso_size (child.proc.pid);
  g_assert_cmpuint (pgs_process_get_pss (shown), <=, pgs_process_get_pss (expected) + vdso);
  g_assert_cmpuint (pgs_process_get_pss (shown) + vdso, >=, pgs_process_get_pss (expected));
  g_assert_cmpuint (pgs_process_get_uss (shown), ==, pgs_process_get_uss (expected));

  /* The kernel agrees on RSS exactly: the child is asleep, its page tables do not change. */
  g_assert_cmpuint (pgs_process_get_rss (shown), ==, pgs_ui_rollup_rss (child.proc.pid));
  /* And the layout: every page the child wrote is resident and its own. */
  g_assert_cmpuint (pgs_process_get_rss (shown), >=, CHILD_PAGES * page);
  g_assert_cmpuint (pgs_process_get_uss (shown), >=, CHILD_PAGES * page);
}

static void
test_select_child (void)
{
  PgsProcessDetail *detail = pgs_window_get_process_detail (child.window);
  PgsMapPage *page = pgs_window_get_map_page (child.window, PGS_VIEW_RESIDENCY);
  PgsMapView *view = pgs_map_page_get_map_view (page);
  PgsProcess *process;
  PgsRenderer *renderer;
  g_autofree char *pss = NULL;

  pgs_window_select_pid (child.window, child.proc.pid);
  /* Its mappings and pages are scanned apart from the list. */
  pgs_ui_wait_idle_scan (child.window);
  process = pgs_process_detail_get_process (detail);
  g_assert_nonnull (process);
  g_assert_cmpint (pgs_process_get_pid (process), ==, child.proc.pid);

  /* The detail shows its numbers and every mapping. */
  pss = pgs_units_format (PGS_UNITS_IEC, pgs_process_get_pss (process));
  g_assert_cmpstr (pgs_process_detail_get_metric_text (detail, PGS_METRIC_PSS), ==, pss);
  g_assert_cmpuint (g_list_model_get_n_items (pgs_process_detail_get_mappings (detail)), ==,
                    pgs_process_get_n_mappings (process));
  g_assert_cmpuint (pgs_process_get_n_mappings (process), >, 0);

  /* Its map: the residency page draws this process. */
  pgs_window_set_view (child.window, "residency");
  g_assert_cmpstr (pgs_window_get_view (child.window), ==, "residency");
  pgs_ui_wait_map_ready (view);
  g_assert_true (pgs_map_page_has_map (page));
  renderer = pgs_map_view_get_renderer (view);
  g_assert_true (pgs_renderer_get_process (renderer) == process);
}

/* Finds a pixel of the residency map that shows a page of the child's buffer: the map's
 * geometry is the renderer's business, the test only needs one such cell. */
static gboolean
find_buffer_cell (PgsMapView *view,
                  double     *x_out,
                  double     *y_out,
                  PgsHit     *hit)
{
  graphene_rect_t area;
  guint64 end = child.proc.buffer + CHILD_PAGES * sysconf (_SC_PAGESIZE);

  pgs_map_view_get_map_area (view, &area);
  for (double y = 0.5; y < area.size.height; y += 1)
    for (double x = 0.5; x < area.size.width; x += 1)
      if (pgs_map_view_hit_test (view, x, y, hit) && hit->valid &&
          hit->address >= child.proc.buffer && hit->address < end)
        {
          *x_out = x;
          *y_out = y;
          return TRUE;
        }
  return FALSE;
}

static gboolean
frame_users_known (gpointer data)
{
  return pgs_map_page_get_frame_users (data) != NULL;
}

static void
test_hit_test (void)
{
  PgsMapPage *page = pgs_window_get_map_page (child.window, PGS_VIEW_RESIDENCY);
  PgsMapView *view = pgs_map_page_get_map_view (page);
  g_autofree char *pagemap = g_strdup_printf ("/proc/%d/pagemap", child.proc.pid);
  guint64 page_size = sysconf (_SC_PAGESIZE);
  guint64 entry, pfn;
  PgsHit hit, again;
  double x = -1, y = -1;
  GArray *users;

  pgs_ui_wait_map_ready (view);
  g_assert_true (find_buffer_cell (view, &x, &y, &hit));
  g_assert_false (hit.is_frame);

  /* The page under that cell, as the kernel has it. */
  /* The same function answers again the same way (it serves hover, tooltip and click). */
  g_assert_true (pgs_map_view_hit_test (view, x, y, &again));
  g_assert_cmphex (again.address, ==, hit.address);

  entry = read_u64 (pagemap, hit.address / page_size);
  g_assert_true (pgs_pm_is_present (entry));
  g_assert_true (pgs_pm_is_present (hit.entry));
  g_assert_cmphex (pgs_pm_pfn (hit.entry), ==, pgs_pm_pfn (entry));
  if (geteuid () == 0)
    {
      /* The child wrote it after fork: its own frame, mapped once. */
      pfn = pgs_pm_pfn (entry);
      g_assert_cmpuint (pfn, !=, 0);
      g_assert_cmpuint (hit.pfn, ==, pfn);
      g_assert_cmpuint (hit.count, ==, 1);
      g_assert_cmpuint (read_u64 ("/proc/kpagecount", pfn), ==, 1);

      /* The same hit test serves the click: who maps that frame? Only the child. */
      pgs_map_page_show_hit (page, &hit);
      g_assert_true (pgs_ui_wait (frame_users_known, page, 30000));
      users = pgs_map_page_get_frame_users (page);
      g_assert_cmpuint (users->len, ==, 1);
      g_assert_cmpint (g_array_index (users, int, 0), ==, child.proc.pid);
    }

}

static void
export_to (const char *action,
           const char *path)
{
  gboolean done = FALSE;
  gulong id;

  id = g_signal_connect (child.window, "export-finished", G_CALLBACK (pgs_ui_export_done), &done);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (child.window), action, "s", path));
  g_assert_true (pgs_ui_wait (pgs_ui_flag_set, &done, 60000));
  g_signal_handler_disconnect (child.window, id);
}

static void
test_export_png (void)
{
  PgsMapPage *page = pgs_window_get_map_page (child.window, PGS_VIEW_RESIDENCY);
  PgsMapView *view = pgs_map_page_get_map_view (page);
  g_autofree char *path = g_build_filename (child.tmpdir, "residency.png", NULL);
  cairo_surface_t *png;
  graphene_rect_t area;
  int width, height, scale = gtk_widget_get_scale_factor (GTK_WIDGET (view));
  guint64 ppp;
  double factor;

  pgs_window_set_view (child.window, "residency");
  pgs_ui_wait_map_ready (view);
  export_to ("win.export-map-to-file", path);

  /* Full resolution: the map as on screen, in device pixels, grown until one pixel holds
   * one page (at most 4096 pixels a side); the legend comes on top of that. */
  pgs_map_view_get_map_area (view, &area);
  width = (int) area.size.width * scale;
  height = (int) area.size.height * scale;
  ppp = pgs_renderer_get_pages_per_pixel (pgs_map_view_get_renderer (view), width, height);
  factor = ppp > 1 ? ceil (sqrt ((double) ppp)) : 1.0;
  factor = MAX (1.0, MIN (factor, 4096.0 / MAX (width, height)));
  width = (int) (width * factor);
  height = (int) (height * factor);

  png = cairo_image_surface_create_from_png (path);
  g_assert_cmpint (cairo_surface_status (png), ==, CAIRO_STATUS_SUCCESS);
  g_assert_cmpint (cairo_image_surface_get_width (png), >=, width);
  g_assert_cmpint (cairo_image_surface_get_height (png), >=, height);
  /* With its legend, beside or below the map. */
  g_assert_true (cairo_image_surface_get_width (png) > width ||
                 cairo_image_surface_get_height (png) > height);
  cairo_surface_destroy (png);
}

/* RFC 4180: records end at CRLF outside quotes; a quoted field may hold commas, quotes
 * ("") and line breaks (command lines can). Returns the records, each a NULL-terminated
 * array of fields. */
static GPtrArray *
parse_csv (const char *text)
{
  GPtrArray *records = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);
  GPtrArray *fields = g_ptr_array_new ();
  GString *field = g_string_new (NULL);
  gboolean quoted = FALSE;

  for (const char *p = text; *p; p++)
    {
      if (quoted)
        {
          if (*p == '"' && p[1] == '"')
            g_string_append_c (field, *p++);
          else if (*p == '"')
            quoted = FALSE;
          else
            g_string_append_c (field, *p);
        }
      else if (*p == '"')
        quoted = TRUE;
      else if (*p == ',')
        {
          g_ptr_array_add (fields, g_string_free (field, FALSE));
          field = g_string_new (NULL);
        }
      else if (*p == '\r' && p[1] == '\n')
        {
          p++;
          g_ptr_array_add (fields, g_string_free (field, FALSE));
          g_ptr_array_add (fields, NULL);
          g_ptr_array_add (records, g_ptr_array_free (fields, FALSE));
          fields = g_ptr_array_new ();
          field = g_string_new (NULL);
        }
      else
        g_string_append_c (field, *p);
    }
  g_assert_false (quoted);
  g_assert_cmpuint (field->len, ==, 0);   /* the last record ends with CRLF too */
  g_string_free (field, TRUE);
  g_ptr_array_free (fields, TRUE);
  return records;
}

/* Saved from the process list, whose refresh reads the kernel's totals only, the file
 * still holds the child's mappings and pages (as its own scan finds them: CHILD_PAGES
 * written pages, every mapping of its maps) and, as root, the physical map. */
static void
test_save_snapshot (void)
{
  g_autofree char *path = g_build_filename (child.tmpdir, "saved.pgsnap", NULL);
  g_autofree char *maps_path = g_strdup_printf ("/proc/%d/maps", child.proc.pid);
  g_autofree char *maps = NULL;
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(PgsSnapshot) saved = NULL;
  g_autoptr(GError) error = NULL;
  PgsProcess *p;
  guint n_maps = 0;

  pgs_window_set_view (child.window, "processes");
  pgs_ui_wait_idle_scan (child.window);
  g_assert_false (pgs_process_has_pages (pgs_snapshot_lookup_pid (pgs_window_get_snapshot (child.window),
                                                                  child.proc.pid)));
  export_to ("win.save-snapshot-to-file", path);

  saved = pgs_snapshot_load (file, NULL, &error);
  g_assert_no_error (error);
  p = pgs_snapshot_lookup_pid (saved, child.proc.pid);
  g_assert_nonnull (p);
  g_assert_true (pgs_process_has_pages (p));
  g_assert_cmpuint (pgs_process_get_n_pages (p), >=, CHILD_PAGES);
  /* Every line of its maps but the kernel's [vsyscall] page, which is in no process's
   * page tables (and not in smaps_rollup). */
  g_assert_true (g_file_get_contents (maps_path, &maps, NULL, NULL));
  for (const char *c = maps; *c; c++)
    n_maps += *c == '\n';
  if (strstr (maps, "[vsyscall]") != NULL)
    n_maps--;
  g_assert_cmpuint (pgs_process_get_n_mappings (p), ==, n_maps);
  if (geteuid () == 0)
    g_assert_nonnull (pgs_snapshot_get_physmap (saved));
}

static void
test_export_csv (void)
{
  GListModel *model = pgs_process_list_get_model (pgs_window_get_process_list (child.window));
  g_autofree char *path = g_build_filename (child.tmpdir, "processes.csv", NULL);
  g_autofree char *contents = NULL;
  g_autoptr(GPtrArray) records = NULL;
  char **header;
  static const char *const sizes[] = { "vss", "rss", "pss", "uss", "swap" };
  static const PgsMetric metrics[] = {
    PGS_METRIC_VSS, PGS_METRIC_RSS, PGS_METRIC_PSS, PGS_METRIC_USS, PGS_METRIC_SWAP
  };
  int columns[G_N_ELEMENTS (sizes)], pid_column = -1;
  guint n_rows = 0;
  gboolean saw_child = FALSE;

  export_to ("win.export-csv-to-file", path);
  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  records = parse_csv (contents);
  g_assert_cmpuint (records->len, >=, 1);
  header = g_ptr_array_index (records, 0);
  for (guint k = 0; k < G_N_ELEMENTS (sizes); k++)
    {
      columns[k] = -1;
      for (int c = 0; header[c]; c++)
        if (g_str_equal (header[c], sizes[k]))
          columns[k] = c;
      g_assert_cmpint (columns[k], >=, 0);
    }
  for (int c = 0; header[c]; c++)
    if (g_str_equal (header[c], "pid"))
      pid_column = c;
  g_assert_cmpint (pid_column, >=, 0);

  /* Record by record, the list as shown: same order, same PIDs, same numbers in bytes, and
   * empty (not 0) where a number is unknown. */
  for (guint i = 1; i < records->len; i++, n_rows++)
    {
      char **fields = g_ptr_array_index (records, i);
      g_autoptr(PgsProcess) process = g_list_model_get_item (model, n_rows);

      g_assert_nonnull (process);
      g_assert_cmpuint (g_strv_length (fields), ==, g_strv_length (header));
      g_assert_cmpint (atoi (fields[pid_column]), ==, pgs_process_get_pid (process));
      for (guint k = 0; k < G_N_ELEMENTS (sizes); k++)
        {
          if (!pgs_process_is_known (process, metrics[k]))
            g_assert_cmpstr (fields[columns[k]], ==, "");
          else
            g_assert_cmpuint (g_ascii_strtoull (fields[columns[k]], NULL, 10), ==,
                              pgs_process_get_metric (process, metrics[k]));
        }
      saw_child |= pgs_process_get_pid (process) == child.proc.pid;
    }
  g_assert_cmpuint (n_rows, ==, g_list_model_get_n_items (model));
  g_assert_true (saw_child);
}

static void
die_with_parent (gpointer data)
{
  prctl (PR_SET_PDEATHSIG, SIGKILL);
}

/* @n idle processes, so that the list is long enough to scroll whatever else the machine
 * runs (a fresh one runs few); killed with this test process even where it aborts. */
static GArray *
start_sleepers (guint n)
{
  GArray *pids = g_array_new (FALSE, FALSE, sizeof (GPid));
  char *argv[] = { (char *) "sleep", (char *) "600", NULL };

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GError) error = NULL;
      GPid pid;

      g_assert_true (g_spawn_async (NULL, argv, NULL,
                                    G_SPAWN_SEARCH_PATH | G_SPAWN_DO_NOT_REAP_CHILD |
                                    G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL,
                                    die_with_parent, NULL, &pid, &error));
      g_assert_no_error (error);
      g_array_append_val (pids, pid);
    }
  return pids;
}

static void
stop_sleepers (GArray *pids)
{
  for (guint i = 0; i < pids->len; i++)
    {
      GPid pid = g_array_index (pids, GPid, i);

      kill (pid, SIGKILL);
      waitpid (pid, NULL, 0);
    }
  g_array_unref (pids);
}

/* The PIDs of the first N rows of the list, in the order shown. */
static GHashTable *
pids_first (PgsProcessList *list,
            guint           n)
{
  GListModel *model = pgs_process_list_get_model (list);
  GHashTable *pids = g_hash_table_new (NULL, NULL);

  for (guint i = 0; i < MIN (n, g_list_model_get_n_items (model)); i++)
    {
      g_autoptr(PgsProcess) process = g_list_model_get_item (model, i);

      g_hash_table_add (pids, GINT_TO_POINTER (pgs_process_get_pid (process)));
    }
  return pids;
}

static void
test_refresh_keeps_selection (void)
{
  GArray *sleepers = start_sleepers (200);
  PgsProcessList *list = pgs_window_get_process_list (child.window);
  PgsSnapshot *before = pgs_window_get_snapshot (child.window);
  GtkWidget *scroller;
  GtkAdjustment *vadjustment;
  g_autoptr(PgsProcess) detail_before = NULL;   /* kept, so its address is not reused */
  PgsProcess *selected, *detail;
  double scroll, row_height, tolerance;
  guint n_before, n_after, changed;
  g_autoptr(GHashTable) pids_before = NULL;
  g_autoptr(GHashTable) pids_after = NULL;
  g_autoptr(GHashTable) above_before = NULL;
  g_autoptr(GHashTable) above_after = NULL;
  guint crossed;

  pgs_window_set_view (child.window, "processes");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (child.window), "win.refresh", NULL));
  pgs_ui_wait_idle_scan (child.window);
  pgs_window_select_pid (child.window, child.proc.pid);
  pgs_ui_wait_idle_scan (child.window);
  detail_before = g_object_ref (pgs_process_detail_get_process (pgs_window_get_process_detail (child.window)));

  /* Scrolled half way down (there are more processes than rows shown). */
  scroller = gtk_widget_get_parent (pgs_process_list_get_column_view (list));
  g_assert_true (GTK_IS_SCROLLED_WINDOW (scroller));
  vadjustment = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scroller));
  gtk_adjustment_set_value (vadjustment, (gtk_adjustment_get_upper (vadjustment) -
                                          gtk_adjustment_get_page_size (vadjustment)) / 2);
  gtk_test_widget_wait_for_draw (GTK_WIDGET (child.window));
  scroll = gtk_adjustment_get_value (vadjustment);
  g_assert_cmpfloat (scroll, >, 0);
  n_before = g_list_model_get_n_items (pgs_process_list_get_model (list));
  row_height = gtk_adjustment_get_upper (vadjustment) / n_before;
  pids_before = pgs_ui_list_pids (list);
  above_before = pids_first (list, (guint) (scroll / row_height));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (child.window), "win.refresh", NULL));
  g_assert_true (pgs_window_is_busy (child.window));
  pgs_ui_wait_idle_scan (child.window);

  g_assert_true (pgs_window_get_snapshot (child.window) != before);
  selected = pgs_process_list_get_selected_process (list);
  g_assert_nonnull (selected);
  g_assert_cmpint (pgs_process_get_pid (selected), ==, child.proc.pid);
  /* The detail follows to the process's new scan, of its mappings and pages: the list's
   * totals have none. */
  detail = pgs_process_detail_get_process (pgs_window_get_process_detail (child.window));
  g_assert_nonnull (detail);
  g_assert_true (detail != detail_before);
  g_assert_cmpint (pgs_process_get_pid (detail), ==, child.proc.pid);
  g_assert_cmpuint (pgs_process_get_n_mappings (detail), >, 0);
  g_assert_true (pgs_process_has_pages (detail));
  /* And the list stays where it was scrolled to, give or take the rows that processes
   * starting, exiting or changing places in the PSS order meanwhile account for (the
   * machine goes on): not back to the top, as a rebuilt list would be. */
  gtk_test_widget_wait_for_draw (GTK_WIDGET (child.window));
  n_after = g_list_model_get_n_items (pgs_process_list_get_model (list));
  pids_after = pgs_ui_list_pids (list);
  /* Every process that started or exited may have moved the rows: a build beside the test
   * starts and ends compilers larger than the rows in view, the count staying the same. */
  changed = pgs_ui_pids_missing (pids_before, pids_after) + pgs_ui_pids_missing (pids_after, pids_before);
  /* And every process whose PSS took it across the rows above the view, either way: a
   * busy machine (a build, another suite) moves a few at each refresh. */
  above_after = pids_first (list, (guint) (scroll / row_height));
  crossed = pgs_ui_pids_missing (above_before, above_after) +
            pgs_ui_pids_missing (above_after, above_before);
  g_test_message ("%u processes before, %u after, %u started or exited, %u crossed the rows "
                  "above; scrolled to %.0f, now %.0f (rows of %.1f px)", n_before, n_after,
                  changed, crossed, scroll, gtk_adjustment_get_value (vadjustment), row_height);
  tolerance = (MAX (MAX ((guint) ABS ((int) n_after - (int) n_before), changed), crossed) + 3) *
              row_height;
  g_assert_cmpfloat (scroll, >, tolerance);
  g_assert_cmpfloat (fabs (gtk_adjustment_get_value (vadjustment) - scroll), <=, tolerance);
  stop_sleepers (sleepers);
}

static void
test_search (void)
{
  PgsProcessList *list = pgs_window_get_process_list (child.window);
  GListModel *model = pgs_process_list_get_model (list);
  g_autofree char *pid = g_strdup_printf ("%d", child.proc.pid);

  pgs_process_list_set_search_text (list, pid);
  g_assert_nonnull (find_in_model (model, child.proc.pid, NULL));
  g_assert_cmpuint (g_list_model_get_n_items (model), <,
                    pgs_snapshot_get_n_processes (pgs_window_get_snapshot (child.window)));
  pgs_process_list_set_search_text (list, "no process is called this");
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 0);
  pgs_process_list_set_search_text (list, NULL);
  g_assert_cmpuint (g_list_model_get_n_items (model), ==,
                    pgs_snapshot_get_n_processes (pgs_window_get_snapshot (child.window)));
}

static void
test_sorted_by_pss (void)
{
  GListModel *model = pgs_process_list_get_model (pgs_window_get_process_list (child.window));
  guint n = g_list_model_get_n_items (model);
  guint64 previous = G_MAXUINT64;

  /* Largest PSS first; an unknown PSS (shown as "—") sorts by what is known, the RSS that
   * bounds it, not last. */
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(PgsProcess) process = g_list_model_get_item (model, i);
      guint64 pss = pgs_process_get_rss (process);

      if (pgs_process_is_known (process, PGS_METRIC_PSS))
        pss = pgs_process_get_pss (process);

      g_assert_cmpuint (pss, <=, previous);
      previous = pss;
    }
}

static GSettings *
app_settings (void)
{
  return pgs_application_get_settings (child.app);
}

static void
test_settings (void)
{
  GSettings *settings = app_settings ();
  PgsProcessDetail *detail = pgs_window_get_process_detail (child.window);
  PgsMapView *view = pgs_map_page_get_map_view (pgs_window_get_map_page (child.window,
                                                                         PGS_VIEW_RESIDENCY));
  PgsProcessList *list = pgs_window_get_process_list (child.window);
  PgsProcess *process, *listed;
  g_autofree char *last_view = NULL;
  g_autofree char *bytes = NULL;
  g_autofree char *iec = NULL;
  g_autofree char *pid = g_strdup_printf ("%d", child.proc.pid);

  pgs_window_select_pid (child.window, child.proc.pid);
  /* Its mappings and pages are scanned apart from the list. */
  pgs_ui_wait_idle_scan (child.window);
  process = pgs_process_detail_get_process (detail);
  g_assert_nonnull (process);

  /* The view shown is remembered. */
  pgs_window_set_view (child.window, "sharing");
  last_view = g_settings_get_string (settings, "last-view");
  g_assert_cmpstr (last_view, ==, "sharing");
  /* And a stored view is shown. */
  g_settings_set_string (settings, "last-view", "residency");
  g_assert_cmpstr (pgs_window_get_view (child.window), ==, "residency");

  /* Units: exact bytes, with the locale's grouping (none in the C locale of the tests),
   * in the detail and in the list's cells on screen. */
  pgs_window_set_view (child.window, "processes");
  pgs_process_list_set_search_text (list, pid);
  /* Sharing read the physical map: a scan, and the child's own again after it. */
  pgs_ui_wait_idle_scan (child.window);
  process = pgs_process_detail_get_process (detail);
  g_assert_nonnull (process);
  /* The list's figures are the kernel's totals, the detail's its own scan's, a moment
   * apart: each shows its own process's. */
  listed = find_in_model (pgs_process_list_get_model (list), child.proc.pid, NULL);
  g_assert_nonnull (listed);
  iec = pgs_units_format (PGS_UNITS_IEC, pgs_process_get_pss (listed));
  g_assert_nonnull (pgs_ui_find_label (pgs_process_list_get_column_view (list), iec));
  g_settings_set_string (settings, "units", "bytes");
  gtk_test_widget_wait_for_draw (GTK_WIDGET (child.window));
  bytes = g_strdup_printf ("%'" G_GUINT64_FORMAT, pgs_process_get_pss (process));
  g_assert_cmpstr (pgs_process_detail_get_metric_text (detail, PGS_METRIC_PSS), ==, bytes);
  g_free (bytes);
  bytes = g_strdup_printf ("%'" G_GUINT64_FORMAT, pgs_process_get_pss (listed));
  g_assert_nonnull (pgs_ui_find_label (pgs_process_list_get_column_view (list), bytes));
  g_assert_null (pgs_ui_find_label (pgs_process_list_get_column_view (list), iec));
  g_settings_set_string (settings, "units", "iec");
  pgs_process_list_set_search_text (list, NULL);
  pgs_window_set_view (child.window, "residency");

  /* Layout: the map is drawn again along the Hilbert curve. */
  g_settings_set_string (settings, "layout", "hilbert");
  pgs_ui_wait_map_ready (view);
  g_assert_cmpint (pgs_renderer_get_layout (pgs_map_view_get_renderer (view)), ==,
                   PGS_LAYOUT_HILBERT);
  g_settings_set_string (settings, "layout", "linear");
  pgs_ui_wait_map_ready (view);
  g_assert_cmpint (pgs_renderer_get_layout (pgs_map_view_get_renderer (view)), ==,
                   PGS_LAYOUT_LINEAR);
  pgs_window_set_view (child.window, "processes");
}

static void
test_zoom (void)
{
  PgsMapPage *page = pgs_window_get_map_page (child.window, PGS_VIEW_RESIDENCY);
  PgsMapView *view = pgs_map_page_get_map_view (page);
  double zoom, cx, cy;

  pgs_window_select_pid (child.window, child.proc.pid);
  pgs_window_set_view (child.window, "residency");
  pgs_ui_wait_map_ready (view);
  g_assert_cmpfloat (pgs_map_view_get_zoom (view), ==, 1.0);

  /* Ctrl+plus twice: 1.25 a step (Ctrl+scroll), two steps a key press. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (child.window), "win.zoom-in", NULL));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (child.window), "win.zoom-in", NULL));
  g_assert_cmpfloat_with_epsilon (pgs_map_view_get_zoom (view), 1.25 * 1.25 * 1.25 * 1.25, 1e-9);
  pgs_ui_wait_map_ready (view);
  pgs_renderer_get_viewport (pgs_map_view_get_renderer (view), &zoom, &cx, &cy);
  g_assert_cmpfloat_with_epsilon (zoom, 1.25 * 1.25 * 1.25 * 1.25, 1e-9);

  /* The toolbar's buttons do the same (page.zoom-out → map.zoom-out). */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "page.zoom-out", NULL));
  g_assert_cmpfloat_with_epsilon (pgs_map_view_get_zoom (view), 1.25 * 1.25, 1e-9);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "page.zoom-in", NULL));

  /* Ctrl+minus once, then Ctrl+0: the whole map again. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (child.window), "win.zoom-out", NULL));
  g_assert_cmpfloat_with_epsilon (pgs_map_view_get_zoom (view), 1.25 * 1.25, 1e-9);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (child.window), "win.zoom-reset", NULL));
  pgs_ui_wait_map_ready (view);
  pgs_renderer_get_viewport (pgs_map_view_get_renderer (view), &zoom, &cx, &cy);
  g_assert_cmpfloat (zoom, ==, 1.0);

  /* The keys are the ones the shortcuts window lists. */
  {
    g_auto(GStrv) accels = gtk_application_get_accels_for_action (GTK_APPLICATION (child.app),
                                                                  "win.zoom-in");

    g_assert_true (g_strv_contains ((const char * const *) accels, "<Control>plus"));
  }
  pgs_window_set_view (child.window, "processes");
}

static gboolean
snapshot_changed (gpointer data)
{
  return pgs_window_get_snapshot (child.window) != data && !pgs_window_is_busy (child.window);
}

static void
test_cancel_and_auto_refresh (void)
{
  GSettings *settings = app_settings ();
  PgsSnapshot *before;

  pgs_ui_wait_idle_scan (child.window);
  before = pgs_window_get_snapshot (child.window);

  /* Cancelled: the window keeps what it had, and is ready for the next scan. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (child.window), "win.refresh", NULL));
  g_assert_true (pgs_window_is_busy (child.window));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (child.window), "win.cancel-refresh",
                                             NULL));
  pgs_ui_wait_idle_scan (child.window);
  g_assert_true (pgs_window_get_snapshot (child.window) == before);

  /* A one-second interval: a new snapshot arrives without asking. */
  g_settings_set_uint (settings, "refresh-interval", 1);
  g_assert_true (pgs_ui_wait (snapshot_changed, before, 30000));
  g_settings_set_uint (settings, "refresh-interval", 0);
}

int
main (int   argc,
      char *argv[])
{
  int status;

  pgs_ui_run_open (&child, CHILD_PAGES, &argc, &argv);

  g_test_add_func ("/pgs/ui/app/starts", test_starts);
  g_test_add_func ("/pgs/ui/app/sorted-by-pss", test_sorted_by_pss);
  g_test_add_func ("/pgs/ui/app/list-has-child", test_list_has_child);
  g_test_add_func ("/pgs/ui/app/search", test_search);
  g_test_add_func ("/pgs/ui/app/select-child", test_select_child);
  g_test_add_func ("/pgs/ui/app/hit-test", test_hit_test);
  g_test_add_func ("/pgs/ui/app/export-png", test_export_png);
  g_test_add_func ("/pgs/ui/app/export-csv", test_export_csv);
  g_test_add_func ("/pgs/ui/app/save-snapshot", test_save_snapshot);
  g_test_add_func ("/pgs/ui/app/refresh-keeps-selection", test_refresh_keeps_selection);
  g_test_add_func ("/pgs/ui/app/zoom", test_zoom);
  g_test_add_func ("/pgs/ui/app/settings", test_settings);
  g_test_add_func ("/pgs/ui/app/cancel-and-auto-refresh", test_cancel_and_auto_refresh);
  status = g_test_run ();

  pgs_ui_run_close (&child);
  return status;
}
