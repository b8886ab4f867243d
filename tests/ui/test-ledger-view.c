/* test-ledger-view.c: the Page Flags page shows every byte of MemTotal
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A Page Flags page is given a snapshot of the ledger's fixture (tests/common/
 * pgs-ledger-fixture.h, worked out by hand: MemTotal 7936 frames). The sizes its table
 * shows, read back from the labels in bytes, sum with the unexplained rest to the MemTotal
 * it shows; the bar's segments add up to MemTotal too. Run under xvfb-run; without a
 * display it skips (exit 77).
 */

#include "config.h"

#include <string.h>

#include "pgs-ledger-fixture.h"
#include "pgs-map-page-private.h"
#include "pgs-session.h"
#include "pgs-snapshot-private.h"
#include "pgs-ui-util.h"

/* "32,505,856" (the bytes setting, with the locale's grouping) to a number; a leading
 * "−" makes it negative. */
static gint64
parse_bytes (const char *text)
{
  gint64 v = 0;
  gboolean negative = g_str_has_prefix (text, "−");

  for (const char *p = text; *p; p++)
    if (g_ascii_isdigit (*p))
      v = v * 10 + (*p - '0');
  return negative ? -v : v;
}

static PgsSnapshot *
fixture_snapshot (void)
{
  g_autoptr(PgsPhysMap) pm = fx_physmap ();
  g_autoptr(GPtrArray) processes = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GArray) skipped = g_array_new (FALSE, FALSE, sizeof (PgsSkipped));
  PgsSnapshot *snap = _pgs_snapshot_new (processes, skipped, TRUE, 4096, pm);

  _pgs_snapshot_set_info (snap, "fixture", "6.18", NULL, "0", fx_meminfo, 0);
  _pgs_snapshot_set_counters (snap, fx_zoneinfo, fx_vmstat);
  return snap;
}

static gboolean
ledger_shown (gpointer data)
{
  PgsMapPage *page = data;

  return gtk_widget_get_visible (GTK_WIDGET (page->ledger_view)) &&
         pgs_ledger_view_get_ledger (page->ledger_view) != NULL;
}

static void
test_page_flags (void)
{
  g_autoptr(PgsSnapshot) snap = fixture_snapshot ();
  GtkWidget *window = gtk_window_new ();
  g_autoptr(PgsSession) session = pgs_session_new ();
  PgsMapPage *page = g_object_new (PGS_TYPE_MAP_PAGE, "view", PGS_VIEW_FLAGS,
                                   "session", session, NULL);
  PgsLedgerView *view;
  gint64 sum = 0, total;
  guint64 segments = 0;

  gtk_window_set_default_size (GTK_WINDOW (window), 1400, 900);
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (page));
  g_object_set (session, "units", PGS_UNITS_BYTES, NULL);
  pgs_session_show_file (session, snap);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (pgs_ui_wait (ledger_shown, page, 20000));
  view = page->ledger_view;
  pgs_ui_spin (100);

  /* MemTotal 7936 frames = 32,505,856 bytes, as shown. */
  total = parse_bytes (pgs_ledger_view_get_size_text (view, PGS_LEDGER_N_ROWS + 1));
  g_assert_cmpint (total, ==, (gint64) KB (7936));
  for (guint r = 0; r < PGS_LEDGER_N_ROWS; r++)
    {
      const char *text = pgs_ledger_view_get_size_text (view, r);

      g_test_message ("%s: %s", pgs_ledger_row_get_id (r), text);
      g_assert_cmpstr (text, !=, PGS_UNKNOWN_TEXT);
      sum += parse_bytes (text);
    }
  /* Rows worked out by hand: free 1600 frames, the rest 952. */
  g_assert_cmpint (parse_bytes (pgs_ledger_view_get_size_text (view, PGS_LEDGER_FREE)), ==, (gint64) KB (1600));
  g_assert_cmpint (parse_bytes (pgs_ledger_view_get_size_text (view, PGS_LEDGER_KERNEL_OTHER)), ==, (gint64) KB (952));
  sum += parse_bytes (pgs_ledger_view_get_size_text (view, PGS_LEDGER_N_ROWS));
  g_assert_cmpint (sum, ==, total);

  /* The bar: every row above 0 a segment, together MemTotal (nothing unexplained here). */
  g_assert_cmpuint (pgs_ledger_view_get_n_segments (view), ==, PGS_LEDGER_N_ROWS);
  for (guint s = 0; s < pgs_ledger_view_get_n_segments (view); s++)
    segments += pgs_ledger_view_get_segment_bytes (view, s);
  g_assert_cmpuint (segments, ==, KB (7936));

  /* The units follow the setting. */
  g_object_set (session, "units", PGS_UNITS_IEC, NULL);
  g_assert_cmpstr (pgs_ledger_view_get_size_text (view, PGS_LEDGER_N_ROWS + 1), ==, "31.0 MiB");

  /* Another view hides it. */
  pgs_session_shutdown (session);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* Without the frames (a snapshot taken without root): the counters' rows, the others
 * "—", never 0; the unknown rest still closes the sum. */
static void
test_counters_only (void)
{
  g_autoptr(GPtrArray) processes = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GArray) skipped = g_array_new (FALSE, FALSE, sizeof (PgsSkipped));
  g_autoptr(PgsSnapshot) snap = _pgs_snapshot_new (processes, skipped, FALSE, 4096, NULL);
  GtkWidget *window = gtk_window_new ();
  PgsLedgerView *view = PGS_LEDGER_VIEW (pgs_ledger_view_new ());
  gint64 sum = 0;

  _pgs_snapshot_set_info (snap, "fixture", "6.18", NULL, "0", fx_meminfo, 0);
  _pgs_snapshot_set_counters (snap, fx_zoneinfo, fx_vmstat);
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (view));
  pgs_ledger_view_set_units (view, PGS_UNITS_BYTES);
  pgs_ledger_view_set_snapshot (view, snap);
  gtk_window_present (GTK_WINDOW (window));
  pgs_ui_spin (100);

  g_assert_cmpstr (pgs_ledger_view_get_size_text (view, PGS_LEDGER_CACHE_CLEAN), ==, PGS_UNKNOWN_TEXT);
  g_assert_cmpstr (pgs_ledger_view_get_size_text (view, PGS_LEDGER_KERNEL_OTHER), ==, PGS_UNKNOWN_TEXT);
  for (guint r = 0; r <= PGS_LEDGER_N_ROWS; r++)
    if (g_strcmp0 (pgs_ledger_view_get_size_text (view, r), PGS_UNKNOWN_TEXT) != 0)
      sum += parse_bytes (pgs_ledger_view_get_size_text (view, r));
  /* The known rows and the unknown rest (5520 kB, see test-ledger.c) are MemTotal. */
  g_assert_cmpint (parse_bytes (pgs_ledger_view_get_size_text (view, PGS_LEDGER_N_ROWS)), ==, 5520 * 1024);
  g_assert_cmpint (sum, ==, 31744 * 1024);
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int    argc,
      char **argv)
{
  pgs_ui_init (&argc, &argv);

  g_test_add_func ("/pgs/ui/ledger/page-flags", test_page_flags);
  g_test_add_func ("/pgs/ui/ledger/counters-only", test_counters_only);
  return g_test_run ();
}
