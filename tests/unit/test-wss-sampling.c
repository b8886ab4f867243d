/* test-wss-sampling.c: working-set estimation page by page, and measured in the
 * background, on fixture trees
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The fixture's clear_refs is a plain file, so what PgsWss wrote to it is read back: "1",
 * "2", "3", and "4" before those when soft-dirty is in use. smaps is hand-written; the
 * "kernel" between clearing and collecting is the test editing the files.
 *
 * Process 100, "worker": see wss-fixture.h. The smaps accounting, the refusals and the
 * reports are in test-wss.c.
 */

#include "config.h"

#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include <pagescope.h>

#include "pgs-fixture.h"
#include "pgs-kpage.h"
#include "pgs-pagemap.h"
#include "wss-fixture.h"

static guint64 PS;

/* Process 200 for the per-page sources: two mappings, page by page.
 *
 *   anon 0x10000000, 8 pages            file 0x20000000, 4 pages
 *   p0  pfn 1000  LRU                   q0  pfn 5000  LRU
 *   p1  pfn 1001  LRU                   q1  pfn 5001  off the LRU
 *   p2  not present                     q2  pfn 5002  LRU
 *   p3  pfn 1003  LRU                   q3  not present
 *   p4-p7  one 4-page folio, pfn 1540 (head) to 1543, LRU
 */
#define ANON G_GUINT64_CONSTANT (0x10000000)
#define FILEMAP G_GUINT64_CONSTANT (0x20000000)

static const char PAGES_SMAPS[] =
  "10000000-10008000 rw-p 00000000 00:00 0\n"
  "Rss:                  28 kB\n"
  "Referenced:           28 kB\n"
  "20000000-20004000 r--p 00000000 08:01 77                                 /data/file\n"
  "Rss:                  12 kB\n"
  "Referenced:            4 kB\n";

static PgsFixture *
build_pages (void)
{
  PgsFixture *fx = pgs_fixture_new ();
  const guint64 lru = PGS_KPF_BIT (PGS_KPF_LRU);
  guint64 anon[8] = {
    FX_PRESENT_EXCL (1000), FX_PRESENT_EXCL (1001), 0, FX_PRESENT_EXCL (1003),
    FX_PRESENT_EXCL (1540), FX_PRESENT_EXCL (1541), FX_PRESENT_EXCL (1542), FX_PRESENT_EXCL (1543),
  };
  guint64 file[4] = {
    FX_PRESENT (5000) | FX_FILE, FX_PRESENT (5001) | FX_FILE, FX_PRESENT (5002) | FX_FILE, 0,
  };

  pgs_fixture_add_process (fx, 200, "pages", 0, FALSE);
  pgs_fixture_add_mapping (fx, 200, ANON, ANON + 8 * PS, "rw-p", NULL);
  pgs_fixture_add_mapping (fx, 200, FILEMAP, FILEMAP + 4 * PS, "r--p", "/data/file");
  pgs_fixture_set_pages (fx, 200, ANON, anon, 8);
  pgs_fixture_set_pages (fx, 200, FILEMAP, file, 4);
  pgs_fixture_write (fx, "200/smaps", PAGES_SMAPS, -1);
  pgs_fixture_write (fx, "200/clear_refs", "", 0);
  for (guint64 pfn = 1000; pfn <= 1003; pfn++)
    pgs_fixture_set_frame (fx, pfn, 1, lru | PGS_KPF_BIT (PGS_KPF_ANON));
  pgs_fixture_set_frame (fx, 1540, 1, lru | PGS_KPF_BIT (PGS_KPF_ANON) | PGS_KPF_BIT (PGS_KPF_COMPOUND_HEAD));
  for (guint64 pfn = 1541; pfn <= 1543; pfn++)
    pgs_fixture_set_frame (fx, pfn, 1, lru | PGS_KPF_BIT (PGS_KPF_ANON) | PGS_KPF_BIT (PGS_KPF_COMPOUND_TAIL));
  pgs_fixture_set_frame (fx, 5000, 1, lru);
  pgs_fixture_set_frame (fx, 5001, 1, 0);
  pgs_fixture_set_frame (fx, 5002, 1, lru);
  pgs_fixture_commit (fx);
  /* The sysfs root inside the fixture; the bitmap starts empty, as no page was marked. */
  pgs_fixture_write (fx, "sys/kernel/mm/page_idle/bitmap", "", 0);
  return fx;
}

static guint64
bitmap_word (const guint64 *words,
             gsize          n_words,
             guint64        index)
{
  return index < n_words ? words[index] : 0;
}

static void
set_bitmap_bit (PgsFixture *fx,
                guint64     pfn,
                gboolean    idle)
{
  g_autofree char *path = g_build_filename (pgs_fixture_get_root (fx), "sys/kernel/mm/page_idle/bitmap", NULL);
  int fd = open (path, O_RDWR | O_CLOEXEC);
  guint64 word = 0;

  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (pread (fd, &word, 8, pfn / 64 * 8), ==, 8);
  if (idle)
    word |= G_GUINT64_CONSTANT (1) << (pfn % 64);
  else
    word &= ~(G_GUINT64_CONSTANT (1) << (pfn % 64));
  g_assert_cmpint (pwrite (fd, &word, 8, pfn / 64 * 8), ==, 8);
  close (fd);
}

static void
count_runs (guint64          start,
            guint64          n_pages,
            PgsWssPageState  state,
            gpointer         user_data)
{
  guint64 *pages = user_data;

  pages[0]++;
  pages[1] += n_pages;
}

static void
test_pages_idle (void)
{
  g_autoptr(PgsFixture) fx = build_pages ();
  g_autoptr(PgsWss) wss = wss_for (fx, 200, PGS_WSS_SCOPE_ALL);
  g_autoptr(PgsWssSample) sample = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *sys = g_build_filename (pgs_fixture_get_root (fx), "sys", NULL);
  g_autofree guint64 *words = NULL;
  const PgsWssMapping *anon, *file;
  guint64 bytes = 0, known = 0;
  guint64 runs[2] = { 0, 0 };
  gsize len;

  pgs_wss_set_sysfs_root (wss, sys);
  pgs_wss_set_page_sources (wss, PGS_WSS_PAGES_IDLE);
  g_assert_true (pgs_wss_clear (wss, &error));
  g_assert_no_error (error);
  g_assert_cmpint (pgs_wss_get_page_sources (wss), ==, PGS_WSS_PAGES_IDLE);
  assert_fixture_file (fx, "200/clear_refs", "1");

  /* Marked idle: exactly the resident frames, written in 64-byte blocks (512 frames). */
  words = (guint64 *) read_fixture (fx, "sys/kernel/mm/page_idle/bitmap", &len);
  g_assert_cmpuint (len % 64, ==, 0);
  for (guint64 w = 0; w < len / 8; w++)
    {
      guint64 expected = 0;

      if (w == 1000 / 64)   /* 1000, 1001, 1003: bits 40, 41, 43 of word 15 */
        expected = (G_GUINT64_CONSTANT (1) << 40) | (G_GUINT64_CONSTANT (1) << 41) |
                   (G_GUINT64_CONSTANT (1) << 43);
      else if (w == 1540 / 64)   /* 1540-1543: bits 4-7 of word 24 */
        expected = 0xf0;
      else if (w == 5000 / 64)   /* 5000-5002: bits 8-10 of word 78 */
        expected = 0x700;
      g_test_message ("word %" G_GUINT64_FORMAT, w);
      g_assert_cmphex (words[w], ==, expected);
    }
  g_assert_cmphex (bitmap_word (words, len / 8, 78), ==, 0x700);

  /* The interval, as the kernel would leave it: p1 accessed; the folio accessed, which the
   * kernel shows on its head only (the tails' bits stay as they were); q0 accessed; q1 off
   * the LRU, accessed or not; p2 faulted in at a new frame; p3 moved to a new frame. */
  set_bitmap_bit (fx, 1001, FALSE);
  set_bitmap_bit (fx, 1540, FALSE);
  set_bitmap_bit (fx, 5000, FALSE);
  set_bitmap_bit (fx, 5001, FALSE);
  pgs_fixture_set_pages (fx, 200, ANON + 2 * PS, (guint64[]) { FX_PRESENT_EXCL (1200), FX_PRESENT_EXCL (1100) }, 2);

  sample = pgs_wss_collect (wss, &error);
  g_assert_no_error (error);
  g_assert_cmpint (pgs_wss_sample_get_page_sources (sample), ==, PGS_WSS_PAGES_IDLE);
  g_assert_null (pgs_wss_sample_get_page_source_reason (sample, PGS_WSS_PAGES_IDLE));
  g_assert_cmpstr (pgs_wss_sample_get_page_source_reason (sample, PGS_WSS_PAGES_SOFT_DIRTY), ==, "not asked for");

  anon = pgs_wss_sample_get_mapping (sample, 0);
  file = pgs_wss_sample_get_mapping (sample, 1);
  /* anon: p1, p2, p3 and the 4 folio pages accessed; p0 idle; all 8 known. */
  g_assert_cmpuint (anon->accessed, ==, 7 * PS);
  g_assert_cmpuint (anon->access_known, ==, 8 * PS);
  /* file: q0 accessed, q2 idle, q1 unknown, q3 not resident. */
  g_assert_cmpuint (file->accessed, ==, 1 * PS);
  g_assert_cmpuint (file->access_known, ==, 2 * PS);
  g_assert_true (pgs_wss_sample_get_accessed (sample, &bytes, &known));
  g_assert_cmpuint (bytes, ==, 8 * PS);
  g_assert_cmpuint (known, ==, 10 * PS);
  g_assert_false (pgs_wss_sample_get_written (sample, NULL, NULL));
  /* smaps figures are untouched by the per-page ones. */
  g_assert_cmpuint (anon->referenced, ==, 28 * KB);
  g_assert_cmpuint (file->referenced, ==, 4 * KB);

  g_assert_cmpint (pgs_wss_sample_lookup_page (sample, ANON), ==, PGS_WSS_PAGE_ACCESS_KNOWN);
  g_assert_cmpint (pgs_wss_sample_lookup_page (sample, ANON + PS + 17), ==,
                   PGS_WSS_PAGE_ACCESS_KNOWN | PGS_WSS_PAGE_ACCESSED);
  g_assert_cmpint (pgs_wss_sample_lookup_page (sample, ANON + 7 * PS), ==,
                   PGS_WSS_PAGE_ACCESS_KNOWN | PGS_WSS_PAGE_ACCESSED);
  g_assert_cmpint (pgs_wss_sample_lookup_page (sample, ANON + 8 * PS), ==, PGS_WSS_PAGE_UNKNOWN);
  g_assert_cmpint (pgs_wss_sample_lookup_page (sample, FILEMAP), ==,
                   PGS_WSS_PAGE_ACCESS_KNOWN | PGS_WSS_PAGE_ACCESSED);
  g_assert_cmpint (pgs_wss_sample_lookup_page (sample, FILEMAP + PS), ==, PGS_WSS_PAGE_UNKNOWN);
  g_assert_cmpint (pgs_wss_sample_lookup_page (sample, FILEMAP + 2 * PS), ==, PGS_WSS_PAGE_ACCESS_KNOWN);
  g_assert_cmpint (pgs_wss_sample_lookup_page (sample, FILEMAP + 3 * PS), ==, PGS_WSS_PAGE_UNKNOWN);

  /* Runs: [p0] [p1-p7] [q0] [q2]: 4 runs of 10 pages. */
  pgs_wss_sample_foreach_page_run (sample, count_runs, runs);
  g_assert_cmpuint (runs[0], ==, 4);
  g_assert_cmpuint (runs[1], ==, 10);
}

static void
test_pages_soft_dirty (void)
{
  g_autoptr(PgsFixture) fx = build_pages ();
  g_autoptr(PgsWss) wss = wss_for (fx, 200, PGS_WSS_SCOPE_ANON);
  g_autoptr(PgsWssSample) sample = NULL;
  g_autoptr(GError) error = NULL;
  const PgsWssMapping *anon;
  guint64 bytes = 0, known = 0;

  pgs_wss_set_page_sources (wss, PGS_WSS_PAGES_SOFT_DIRTY);
  g_assert_true (pgs_wss_clear (wss, &error));
  g_assert_no_error (error);
  /* 4 clears the soft-dirty bits; 2 the referenced bits of the anonymous mappings. */
  assert_fixture_file (fx, "200/clear_refs", "42");

  /* p1 and the folio's first two pages written. */
  pgs_fixture_set_pages (fx, 200, ANON + PS, (guint64[]) { FX_PRESENT_EXCL (1001) | PGS_PM_SOFT_DIRTY }, 1);
  pgs_fixture_set_pages (fx, 200, ANON + 4 * PS,
                         (guint64[]) { FX_PRESENT_EXCL (1540) | PGS_PM_SOFT_DIRTY,
                                       FX_PRESENT_EXCL (1541) | PGS_PM_SOFT_DIRTY }, 2);

  sample = pgs_wss_collect (wss, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (pgs_wss_sample_get_n_mappings (sample), ==, 1);
  anon = pgs_wss_sample_get_mapping (sample, 0);
  g_assert_cmpuint (anon->written, ==, 3 * PS);
  g_assert_cmpuint (anon->write_known, ==, 7 * PS);
  g_assert_true (pgs_wss_sample_get_written (sample, &bytes, &known));
  g_assert_cmpuint (bytes, ==, 3 * PS);
  g_assert_cmpuint (known, ==, 7 * PS);
  g_assert_false (pgs_wss_sample_get_accessed (sample, NULL, NULL));
  g_assert_cmpint (pgs_wss_sample_lookup_page (sample, ANON), ==, PGS_WSS_PAGE_WRITE_KNOWN);
  g_assert_cmpint (pgs_wss_sample_lookup_page (sample, ANON + PS), ==,
                   PGS_WSS_PAGE_WRITE_KNOWN | PGS_WSS_PAGE_WRITTEN);
  g_assert_cmpint (pgs_wss_sample_lookup_page (sample, ANON + 2 * PS), ==, PGS_WSS_PAGE_UNKNOWN);
  g_assert_cmpint (pgs_wss_sample_lookup_page (sample, ANON + 5 * PS), ==,
                   PGS_WSS_PAGE_WRITE_KNOWN | PGS_WSS_PAGE_WRITTEN);
  g_assert_cmpint (pgs_wss_sample_lookup_page (sample, ANON + 6 * PS), ==, PGS_WSS_PAGE_WRITE_KNOWN);
  /* The file mapping is out of scope: nothing known there. */
  g_assert_cmpint (pgs_wss_sample_lookup_page (sample, FILEMAP), ==, PGS_WSS_PAGE_UNKNOWN);
}

/* A source the caller insisted on that cannot be opened fails before any clearing. */
static void
test_pages_forced_missing (void)
{
  g_autoptr(PgsFixture) fx = build_pages ();
  g_autoptr(PgsWss) wss = wss_for (fx, 200, PGS_WSS_SCOPE_ALL);
  g_autoptr(GError) error = NULL;
  g_autofree char *nowhere = g_build_filename (pgs_fixture_get_root (fx), "no-sys", NULL);

  pgs_wss_set_sysfs_root (wss, nowhere);
  pgs_wss_set_page_sources (wss, PGS_WSS_PAGES_IDLE);
  g_assert_false (pgs_wss_clear (wss, &error));
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, "idle page tracking"));
  assert_fixture_file (fx, "200/clear_refs", "");
}

typedef struct
{
  GMainLoop    *loop;
  PgsWssSample *sample;
  GError       *error;
  guint         ticks;
} AsyncResult;

static void
on_measured (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  AsyncResult *r = user_data;

  r->sample = pgs_wss_measure_finish (PGS_WSS (source), result, &r->error);
  g_main_loop_quit (r->loop);
}

static gboolean
on_tick (gpointer user_data)
{
  AsyncResult *r = user_data;

  r->ticks++;
  return G_SOURCE_CONTINUE;
}

static gboolean
on_cancel (gpointer user_data)
{
  g_cancellable_cancel (user_data);
  return G_SOURCE_REMOVE;
}

static void
test_async_measure (void)
{
  g_autoptr(PgsFixture) fx = build_worker ();
  g_autoptr(PgsWss) wss = wss_for (fx, 100, PGS_WSS_SCOPE_ALL);
  g_autoptr(GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  AsyncResult r = { loop, NULL, NULL, 0 };
  gint64 start = g_get_monotonic_time ();
  guint tick = g_timeout_add (10, on_tick, &r);

  pgs_wss_measure_async (wss, 200, NULL, on_measured, &r);
  g_main_loop_run (loop);
  g_source_remove (tick);

  g_assert_no_error (r.error);
  g_assert_nonnull (r.sample);
  /* The wait did not hold the main loop: a 10 ms ticker ran through it. */
  g_test_message ("%u ticks", r.ticks);
  g_assert_cmpuint (r.ticks, >=, 5);
  g_assert_cmpint (pgs_wss_sample_get_elapsed (r.sample), >=, 200 * 1000);
  g_assert_cmpint (g_get_monotonic_time () - start, >=, 200 * 1000);
  g_assert_cmpuint (pgs_wss_sample_get_referenced (r.sample), ==, 1824 * KB);
  assert_fixture_file (fx, "100/clear_refs", "1");
  pgs_wss_sample_unref (r.sample);
}

static void
test_async_cancel (void)
{
  g_autoptr(PgsFixture) fx = build_worker ();
  g_autoptr(PgsWss) wss = wss_for (fx, 100, PGS_WSS_SCOPE_ALL);
  g_autoptr(GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  AsyncResult r = { loop, NULL, NULL, 0 };
  gint64 start = g_get_monotonic_time ();

  g_timeout_add (50, on_cancel, cancellable);
  pgs_wss_measure_async (wss, 60 * 1000, cancellable, on_measured, &r);
  g_main_loop_run (loop);

  g_assert_error (r.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_null (r.sample);
  g_assert_cmpint (g_get_monotonic_time () - start, <, 5 * G_USEC_PER_SEC);
  g_clear_error (&r.error);

  /* The object is free for the next measurement. */
  pgs_wss_measure_async (wss, 10, NULL, on_measured, &r);
  g_main_loop_run (loop);
  g_assert_no_error (r.error);
  g_assert_nonnull (r.sample);
  assert_fixture_file (fx, "100/clear_refs", "11");
  pgs_wss_sample_unref (r.sample);
}

static gpointer
cancel_soon (gpointer data)
{
  g_usleep (50 * 1000);
  g_cancellable_cancel (data);
  return NULL;
}

static void
test_sync_cancel (void)
{
  g_autoptr(PgsFixture) fx = build_worker ();
  g_autoptr(PgsWss) wss = wss_for (fx, 100, PGS_WSS_SCOPE_ALL);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  gint64 start = g_get_monotonic_time ();
  GThread *thread = g_thread_new ("cancel", cancel_soon, cancellable);
  PgsWssSample *sample;

  sample = pgs_wss_measure (wss, 60 * 1000, cancellable, &error);
  g_thread_join (thread);
  g_assert_null (sample);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpint (g_get_monotonic_time () - start, <, 5 * G_USEC_PER_SEC);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  PS = (guint64) sysconf (_SC_PAGESIZE);

  g_test_add_func ("/pgs/wss/pages/idle", test_pages_idle);
  g_test_add_func ("/pgs/wss/pages/soft-dirty", test_pages_soft_dirty);
  g_test_add_func ("/pgs/wss/pages/forced-missing", test_pages_forced_missing);
  g_test_add_func ("/pgs/wss/async/measure", test_async_measure);
  g_test_add_func ("/pgs/wss/async/cancel", test_async_cancel);
  g_test_add_func ("/pgs/wss/sync/cancel", test_sync_cancel);

  return g_test_run ();
}
