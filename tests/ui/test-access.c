/* test-access.c: the Access page's states on fake DAMON sysfs trees, and its heat on
 * hand-made trace lines
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The trees are written the way tests/unit/test-damon.c writes them: no DAMON, DAMON
 * with no kdamond (free, so Pagescope could start one), one kdamond running (as the 6.18
 * test machine has it: sampling every 0.5 s, aggregating every 5 s, so at most 10
 * accesses per aggregation, 2 per second). The heat is two aggregations of two regions,
 * worked out by hand below; the page is given them as a read would (no tracefs needed).
 * Run under xvfb-run; without a display it skips (exit 77).
 */

#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "pgs-access-page-private.h"
#include "pgs-fixture.h"
#include "pgs-session.h"
#include "pgs-ui-util.h"

#define ADMIN "kernel/mm/damon/admin/kdamonds/"
#define CTX ADMIN "0/contexts/0/"
#define LINE(ts, body) "       kdamond.0-107     [003] ..... " ts ": damon_aggregated: " body "\n"

static void
write_running_kdamond (PgsFixture *fx)
{
  pgs_fixture_write (fx, ADMIN "nr_kdamonds", "1\n", -1);
  pgs_fixture_write (fx, ADMIN "0/state", "on\n", -1);
  pgs_fixture_write (fx, ADMIN "0/pid", "107\n", -1);
  pgs_fixture_write (fx, ADMIN "0/contexts/nr_contexts", "1\n", -1);
  pgs_fixture_write (fx, CTX "operations", "paddr\n", -1);
  pgs_fixture_write (fx, CTX "monitoring_attrs/intervals/sample_us", "500000\n", -1);
  pgs_fixture_write (fx, CTX "monitoring_attrs/intervals/aggr_us", "5000000\n", -1);
  pgs_fixture_write (fx, CTX "monitoring_attrs/intervals/update_us", "60000000\n", -1);
  pgs_fixture_write (fx, CTX "monitoring_attrs/nr_regions/min", "10\n", -1);
  pgs_fixture_write (fx, CTX "monitoring_attrs/nr_regions/max", "1000\n", -1);
  pgs_fixture_write (fx, CTX "schemes/nr_schemes", "0\n", -1);
  pgs_fixture_write (fx, CTX "targets/nr_targets", "1\n", -1);
  pgs_fixture_write (fx, CTX "targets/0/pid_target", "0\n", -1);
  pgs_fixture_write (fx, CTX "targets/0/regions/nr_regions", "0\n", -1);
}

typedef struct
{
  GtkWidget     *window;
  PgsSession    *session;
  PgsAccessPage *page;
  PgsFixture    *fx;
} Fixture;

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  f->fx = pgs_fixture_new ();
  f->session = pgs_session_new ();
  f->page = g_object_new (PGS_TYPE_ACCESS_PAGE, "session", f->session,
                          "sysfs-root", pgs_fixture_get_root (f->fx), NULL);
  /* As a normal user, whoever runs the test. */
  _pgs_access_page_set_privileged (f->page, FALSE);
  f->window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (f->window), 1000, 700);
  gtk_window_set_child (GTK_WINDOW (f->window), GTK_WIDGET (f->page));
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  gtk_window_destroy (GTK_WINDOW (f->window));
  g_clear_object (&f->session);
  g_clear_pointer (&f->fx, pgs_fixture_free);
}

static gboolean
has_state (gpointer data)
{
  return pgs_access_page_get_state (data) != NULL;
}

static void
present (Fixture *f)
{
  gtk_window_present (GTK_WINDOW (f->window));
  g_assert_true (pgs_ui_wait (has_state, f->page, 10000));
}

static void
assert_contains (const char *text,
                 const char *part)
{
  if (text == NULL || strstr (text, part) == NULL)
    g_error ("“%s” not in “%s”", part, text ? text : "(null)");
}

static void
test_no_damon (Fixture       *f,
               gconstpointer  data)
{
  pgs_fixture_write (f->fx, "kernel/mm/placeholder", "", -1);
  present (f);
  g_assert_cmpstr (pgs_access_page_get_state (f->page), ==, "no-damon");
  g_assert_cmpstr (_pgs_access_page_get_title (f->page), ==, "No DAMON in This Kernel");
  assert_contains (_pgs_access_page_get_description (f->page), "CONFIG_DAMON_SYSFS");
}

static void
test_no_kdamond (Fixture       *f,
                 gconstpointer  data)
{
  /* nr_kdamonds 0 and no module: free, so Pagescope may start one. */
  pgs_fixture_write (f->fx, ADMIN "nr_kdamonds", "0\n", -1);
  present (f);
  g_assert_cmpstr (pgs_access_page_get_state (f->page), ==, "no-kdamond");
  assert_contains (_pgs_access_page_get_description (f->page), "damo start");
  assert_contains (_pgs_access_page_get_description (f->page),
                   "Pagescope may start a monitor of its own");

  /* A kdamond off but one of DAMON's modules enabled: not free, and the reason given. */
  pgs_fixture_write (f->fx, ADMIN "nr_kdamonds", "1\n", -1);
  pgs_fixture_write (f->fx, ADMIN "0/state", "off\n", -1);
  pgs_fixture_write (f->fx, ADMIN "0/pid", "-1\n", -1);
  pgs_fixture_write (f->fx, "module/damon_reclaim/parameters/enabled", "Y\n", -1);
  pgs_fixture_write (f->fx, "module/damon_reclaim/parameters/kdamond_pid", "321\n", -1);
  _pgs_access_page_update_state (f->page);
  g_assert_cmpstr (pgs_access_page_get_state (f->page), ==, "no-kdamond");
  assert_contains (_pgs_access_page_get_description (f->page),
                   "Pagescope may not start a monitor of its own:");
  assert_contains (_pgs_access_page_get_description (f->page), "damon_reclaim");
}

static void
test_unprivileged (Fixture       *f,
                   gconstpointer  data)
{
  write_running_kdamond (f->fx);
  present (f);
  g_assert_cmpstr (pgs_access_page_get_state (f->page), ==, "unprivileged");
  assert_contains (_pgs_access_page_get_description (f->page), "kdamond 0 (PID 107)");
  assert_contains (_pgs_access_page_get_description (f->page), "only root");

  /* Privileged: ready, reading two aggregations of 5 s = 10 s. */
  _pgs_access_page_set_privileged (f->page, TRUE);
  _pgs_access_page_update_state (f->page);
  g_assert_cmpstr (pgs_access_page_get_state (f->page), ==, "ready");
  assert_contains (_pgs_access_page_get_description (f->page), "takes 10 s");
  assert_contains (_pgs_access_page_get_description (f->page),
                   "sampling every 500 ms and aggregating every 5 s");
}

static gboolean
map_drawn (gpointer data)
{
  return gtk_widget_get_width (data) > 0 && gtk_widget_get_mapped (data);
}

static void
test_heat (Fixture       *f,
           gconstpointer  data)
{
  /* Aggregation 1 (10 s): 1–3 MiB accessed in 10 of 10 samples, age 2; 3–4 MiB in 0, age 9.
   * Aggregation 2 (15 s): 1–3 MiB in 5, age 0; 3–4 MiB in 4, age 3. */
  static const char trace[] =
    LINE ("10.000000", "target_id=0 nr_regions=2 1048576-3145728: 10 2")
    LINE ("10.000000", "target_id=0 nr_regions=2 3145728-4194304: 0 9")
    LINE ("15.000000", "target_id=0 nr_regions=2 1048576-3145728: 5 0")
    LINE ("15.000000", "target_id=0 nr_regions=2 3145728-4194304: 4 3");
  PgsDamonCollection *col = g_new0 (PgsDamonCollection, 1);
  PgsAccessMap *map;
  g_autofree char *legend = NULL;
  g_autofree char *top_left = NULL;
  g_autofree char *bottom_right = NULL;
  guint a = 99, r = 99;
  int w, h;

  write_running_kdamond (f->fx);
  _pgs_access_page_set_privileged (f->page, TRUE);
  present (f);
  col->before = pgs_damon_sysfs_read (pgs_fixture_get_root (f->fx), NULL);
  col->access = pgs_damon_access_new (0);
  col->messages = g_ptr_array_new_with_free_func (g_free);
  pgs_damon_access_set_addr_unit (col->access, 107, 1);
  pgs_damon_access_feed (col->access, trace, strlen (trace));
  pgs_damon_access_finish (col->access);
  g_assert_cmpuint (pgs_damon_access_get_aggregations (col->access)->len, ==, 2);
  _pgs_access_page_show_collection (f->page, col);
  g_assert_cmpstr (pgs_access_page_get_state (f->page), ==, "heat");
  /* The focus on Read Again, not on the legend with its text selected whole. */
  {
    GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (f->window));

    g_assert_true (GTK_IS_BUTTON (focus));
    g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (focus)), ==, "Read _Again");
  }

  legend = _pgs_access_page_get_legend (f->page);
  assert_contains (legend, "kdamond PID 107): 2 aggregations, 10.000000 s to 15.000000 s");
  /* One span, 1 MiB to 4 MiB: 3 MiB, nothing folded. */
  assert_contains (legend, "0x100000 (top) to 0x400000 (bottom), 3.0 MiB monitored; 0 gaps");
  assert_contains (legend, "paddr, 10 to 1000 regions, sampling every 500 ms, aggregating every 5 s");
  assert_contains (legend, "not each frame’s");
  /* 5 s / 0.5 s = 10 samples an aggregation; 10 / 5 s = 2 per second. */
  assert_contains (legend, "0 to 10 samples of an aggregation (0 to 2.00 per second)");

  map = _pgs_access_page_get_map (f->page);
  g_assert_true (pgs_ui_wait (map_drawn, map, 10000));
  w = gtk_widget_get_width (GTK_WIDGET (map));
  h = gtk_widget_get_height (GTK_WIDGET (map));

  /* Left half: the first aggregation; top two thirds (1–3 MiB of 1–4 MiB) its first region. */
  g_assert_true (pgs_access_map_hit (map, w * 0.25, h * 0.3, &a, &r));
  g_assert_cmpuint (a, ==, 0);
  g_assert_cmpuint (r, ==, 0);
  top_left = pgs_access_map_describe (map, w * 0.25, h * 0.3);
  assert_contains (top_left, "Physical 0x100000–0x300000 (2.0\u00a0MiB)");
  assert_contains (top_left, "Accessed in 10 of 10 samples (2.00 per second)");
  assert_contains (top_left, "Age: 2 aggregations (10 s)");
  assert_contains (top_left, "Aggregation at 10.000000 s, kdamond PID 107");

  /* Right half, bottom third: the second aggregation's 3–4 MiB, 4 of 10 = 0.8 per second,
   * age 3 × 5 s = 15 s. */
  g_assert_true (pgs_access_map_hit (map, w * 0.75, h * 0.9, &a, &r));
  g_assert_cmpuint (a, ==, 1);
  g_assert_cmpuint (r, ==, 1);
  bottom_right = pgs_access_map_describe (map, w * 0.75, h * 0.9);
  assert_contains (bottom_right, "Physical 0x300000–0x400000 (1.0\u00a0MiB)");
  assert_contains (bottom_right, "Accessed in 4 of 10 samples (0.80 per second)");
  assert_contains (bottom_right, "Age: 3 aggregations (15 s)");

  /* Outside the map: nothing. */
  g_assert_false (pgs_access_map_hit (map, w + 5, h * 0.5, NULL, NULL));
  g_assert_null (pgs_access_map_describe (map, -1, 0));
  pgs_ui_spin (200);
}

typedef struct
{
  guint64 start, end;
  char   *path;
} Map;

/* @pid's mappings from its maps file, the kernel's words, the test's own reading. */
static GArray *
read_maps (int pid)
{
  g_autofree char *name = g_strdup_printf ("/proc/%d/maps", pid);
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  GArray *maps = g_array_new (FALSE, FALSE, sizeof (Map));

  g_assert_true (g_file_get_contents (name, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL && lines[i][0] != '\0'; i++)
    {
      Map m = { 0 };
      int path_at = 0;

      g_assert_cmpint (sscanf (lines[i], "%" G_GINT64_MODIFIER "x-%" G_GINT64_MODIFIER "x %*s %*s %*s %*s %n",
                               &m.start, &m.end, &path_at), >=, 2);
      m.path = g_strdup (path_at > 0 ? g_strstrip (lines[i] + path_at) : "");
      g_array_append_val (maps, m);
    }
  return maps;
}

/* Page @address's frame from @pid's pagemap, 0 where not present. */
static guint64
frame_of (int     fd,
          guint64 address)
{
  guint64 entry = 0;

  g_assert_cmpint (pread (fd, &entry, 8, address / sysconf (_SC_PAGESIZE) * 8), ==, 8);
  return entry >> 63 ? entry & ((G_GUINT64_CONSTANT (1) << 55) - 1) : 0;
}

static gboolean
holdings_read (gpointer data)
{
  return pgs_region_holdings_get_holdings (data) != NULL;
}

/* A region clicked says what its frames hold: the frames of pgs-ui-child's buffer, from
 * its first to its last, hold as many of the child's pages of that mapping's file (its
 * anonymous memory) as the test counts in the child's own pagemap, mapping by mapping. */
static void
test_holdings (Fixture       *f,
               gconstpointer  data)
{
  long ps = sysconf (_SC_PAGESIZE);
  PgsUiChild child = { 0 };
  g_autoptr(GArray) maps = NULL;
  g_autofree char *pagemap = NULL;
  g_autofree char *line = NULL;
  g_autofree char *trace = NULL;
  const char *buffer_path = NULL;
  PgsDamonCollection *col;
  PgsRegionHoldings *holdings;
  GArray *got;
  guint64 first = G_MAXUINT64, last = 0, expected = 0, held = 0;
  guint64 start, end;
  PgsAccessMap *map;
  int fd;

  if (access ("/proc/kpageflags", R_OK) != 0)
    {
      g_test_skip ("the frames of a process need root");
      return;
    }
  pgs_ui_child_start (&child, 512);
  maps = read_maps (child.pid);
  pagemap = g_strdup_printf ("/proc/%d/pagemap", child.pid);
  fd = open (pagemap, O_RDONLY | O_CLOEXEC);
  g_assert_cmpint (fd, >=, 0);
  for (guint64 a = child.buffer; a < child.buffer + 512 * (guint64) ps; a += ps)
    {
      guint64 pfn = frame_of (fd, a);

      g_assert_cmpuint (pfn, !=, 0);
      first = MIN (first, pfn);
      last = MAX (last, pfn);
    }
  for (guint i = 0; i < maps->len; i++)
    if (child.buffer >= g_array_index (maps, Map, i).start && child.buffer < g_array_index (maps, Map, i).end)
      buffer_path = g_array_index (maps, Map, i).path;
  g_assert_nonnull (buffer_path);
  /* The child's pages of that file (or anonymous memory) at frames first..last. */
  for (guint i = 0; i < maps->len; i++)
    {
      const Map *m = &g_array_index (maps, Map, i);

      if (g_strcmp0 (m->path, buffer_path) != 0)
        continue;
      for (guint64 a = m->start; a < m->end; a += ps)
        {
          guint64 pfn = frame_of (fd, a);

          expected += pfn != 0 && pfn >= first && pfn <= last;
        }
    }
  close (fd);
  g_test_message ("buffer at frames %" G_GUINT64_FORMAT "..%" G_GUINT64_FORMAT ", “%s”: %" G_GUINT64_FORMAT
                  " pages of the child there", first, last, buffer_path, expected);
  g_assert_cmpuint (expected, >=, 512);

  /* One aggregation of one region: those frames. */
  start = first * ps;
  end = (last + 1) * ps;
  line = g_strdup_printf ("target_id=0 nr_regions=1 %" G_GUINT64_FORMAT "-%" G_GUINT64_FORMAT ": 3 1", start, end);
  trace = g_strdup_printf ("       kdamond.0-107     [003] ..... 10.000000: damon_aggregated: %s\n", line);
  write_running_kdamond (f->fx);
  _pgs_access_page_set_privileged (f->page, TRUE);
  present (f);
  col = g_new0 (PgsDamonCollection, 1);
  col->before = pgs_damon_sysfs_read (pgs_fixture_get_root (f->fx), NULL);
  col->access = pgs_damon_access_new (0);
  col->messages = g_ptr_array_new_with_free_func (g_free);
  pgs_damon_access_set_addr_unit (col->access, 107, 1);
  pgs_damon_access_feed (col->access, trace, strlen (trace));
  pgs_damon_access_finish (col->access);
  _pgs_access_page_show_collection (f->page, col);
  map = _pgs_access_page_get_map (f->page);
  g_assert_true (pgs_ui_wait (map_drawn, map, 10000));
  assert_contains (pgs_access_map_describe (map, gtk_widget_get_width (GTK_WIDGET (map)) / 2.0,
                                            gtk_widget_get_height (GTK_WIDGET (map)) / 2.0),
                   "Click to see what it holds");

  /* Clicked: every process's pages read, the sums by process and file. */
  g_assert_true (pgs_access_map_activate_at (map, gtk_widget_get_width (GTK_WIDGET (map)) / 2.0,
                                             gtk_widget_get_height (GTK_WIDGET (map)) / 2.0));
  holdings = _pgs_access_page_get_holdings (f->page);
  g_assert_true (pgs_ui_wait (holdings_read, holdings, 120000));
  got = pgs_region_holdings_get_holdings (holdings);
  for (guint i = 0; i < got->len; i++)
    {
      const PgsFrameHolding *h = &g_array_index (got, PgsFrameHolding, i);

      if (h->pid == child.pid && g_strcmp0 (h->path, buffer_path) == 0)
        held += h->pages;
    }
  g_test_message ("%s", pgs_region_holdings_get_text (holdings));
  g_assert_cmpuint (held, ==, expected);
  assert_contains (pgs_region_holdings_get_text (holdings), "By process: ");
  assert_contains (pgs_region_holdings_get_text (holdings), "By application: ");
  assert_contains (pgs_region_holdings_get_text (holdings), "By file: ");

  /* Again: the pages read for the first click serve the second, with the same sum. */
  g_assert_true (pgs_access_map_activate_at (map, gtk_widget_get_width (GTK_WIDGET (map)) / 2.0,
                                             gtk_widget_get_height (GTK_WIDGET (map)) / 2.0));
  g_assert_true (pgs_ui_wait (holdings_read, holdings, 30000));
  got = pgs_region_holdings_get_holdings (holdings);
  held = 0;
  for (guint i = 0; i < got->len; i++)
    if (g_array_index (got, PgsFrameHolding, i).pid == child.pid &&
        g_strcmp0 (g_array_index (got, PgsFrameHolding, i).path, buffer_path) == 0)
      held += g_array_index (got, PgsFrameHolding, i).pages;
  g_assert_cmpuint (held, ==, expected);
  pgs_ui_child_stop (&child);
  for (guint i = 0; i < maps->len; i++)
    g_free (g_array_index (maps, Map, i).path);
}

int
main (int    argc,
      char **argv)
{
  pgs_ui_init (&argc, &argv);

  g_test_add ("/pgs/ui/access/no-damon", Fixture, NULL, fixture_set_up, test_no_damon,
              fixture_tear_down);
  g_test_add ("/pgs/ui/access/no-kdamond", Fixture, NULL, fixture_set_up, test_no_kdamond,
              fixture_tear_down);
  g_test_add ("/pgs/ui/access/unprivileged", Fixture, NULL, fixture_set_up, test_unprivileged,
              fixture_tear_down);
  g_test_add ("/pgs/ui/access/heat", Fixture, NULL, fixture_set_up, test_heat,
              fixture_tear_down);
  g_test_add ("/pgs/ui/access/holdings", Fixture, NULL, fixture_set_up, test_holdings,
              fixture_tear_down);
  return g_test_run ();
}
