/* test-ledger.c: every byte of MemTotal, on a fixture whose every frame is known
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One zone of 8192 frames (32 MiB), laid out by hand in pgs-ledger-fixture.h, on a kernel
 * that initialises its memory lazily (as the 6.18 test machines): present 8192, managed
 * 3840, the top 4096 frames flagless and counted in MemTotal. Every figure the tests
 * expect is worked out in the comments from that layout, never from the code.
 */

#include "config.h"

#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>
#include <pagescope.h>

#include "pgs-fixture.h"
#include "pgs-ledger-fixture.h"
#include "pgs-kpage.h"
#include "pgs-test-cli.h"
#include "pgs-snapshot-private.h"


static void
assert_row (const PgsLedger *l,
            PgsLedgerRow     row,
            guint64          bytes,
            PgsLedgerSource  source)
{
  g_test_message ("row %s", pgs_ledger_row_get_id (row));
  g_assert_true (l->rows[row].known);
  g_assert_cmpuint (l->rows[row].bytes, ==, bytes);
  g_assert_cmpint (l->rows[row].source, ==, source);
}

static void
test_frames (void)
{
  g_autoptr(PgsPhysMap) pm = fx_physmap ();
  PgsLedgerFrames f;

  pgs_ledger_count_frames (pm, &f);
  g_assert_cmpuint (f.free, ==, 1600);
  g_assert_cmpuint (f.process_anon, ==, 128);
  g_assert_cmpuint (f.process_file, ==, 50);
  g_assert_cmpuint (f.process_shmem, ==, 60);
  g_assert_cmpuint (f.anon_unmapped, ==, 10);
  g_assert_cmpuint (f.cache_clean, ==, 200);
  g_assert_cmpuint (f.cache_dirty, ==, 40);
  g_assert_cmpuint (f.shmem_unmapped, ==, 60);
  g_assert_cmpuint (f.slab, ==, 100);
  g_assert_cmpuint (f.page_tables, ==, 20);
  g_assert_cmpuint (f.hugetlb, ==, 512);
  g_assert_cmpuint (f.kernel, ==, 1316);
  g_assert_cmpuint (f.uninit, ==, 4096);
  g_assert_cmpuint (f.holes, ==, 0);
}

static void
test_rows (void)
{
  g_autoptr(PgsPhysMap) pm = fx_physmap ();
  g_autoptr(GError) error = NULL;
  g_autoptr(PgsLedger) l = pgs_ledger_compute (pm, fx_meminfo, fx_zoneinfo, fx_vmstat, 4096, &error);
  guint64 sum = 0, got;

  g_assert_no_error (error);
  g_assert_true (l->from_frames);
  g_assert_cmpuint (l->mem_total, ==, 31744 * 1024);
  /* Outside MemTotal: present 8192 − 7936 = 256 frames, the RESERVED ones. */
  g_assert_true (l->outside_known);
  g_assert_cmpuint (l->outside_mem_total, ==, KB (256));

  assert_row (l, PGS_LEDGER_PROCESS_ANON, KB (128), PGS_LEDGER_SOURCE_FRAMES);
  assert_row (l, PGS_LEDGER_PROCESS_FILE, KB (50), PGS_LEDGER_SOURCE_FRAMES);
  assert_row (l, PGS_LEDGER_PROCESS_SHMEM, KB (60), PGS_LEDGER_SOURCE_FRAMES);
  assert_row (l, PGS_LEDGER_ANON_UNMAPPED, KB (10), PGS_LEDGER_SOURCE_FRAMES);
  assert_row (l, PGS_LEDGER_CACHE_CLEAN, KB (200), PGS_LEDGER_SOURCE_FRAMES);
  assert_row (l, PGS_LEDGER_CACHE_DIRTY, KB (40), PGS_LEDGER_SOURCE_FRAMES);
  assert_row (l, PGS_LEDGER_SHMEM_UNMAPPED, KB (60), PGS_LEDGER_SOURCE_FRAMES);
  /* Slab: 100 frames, of which SReclaimable says 240 kB (60 frames) reclaimable. */
  assert_row (l, PGS_LEDGER_SLAB_RECLAIMABLE, 240 * 1024, PGS_LEDGER_SOURCE_COUNTER);
  assert_row (l, PGS_LEDGER_SLAB_UNRECLAIMABLE, KB (40), PGS_LEDGER_SOURCE_FRAMES);
  assert_row (l, PGS_LEDGER_PAGE_TABLES, KB (20), PGS_LEDGER_SOURCE_FRAMES);
  assert_row (l, PGS_LEDGER_KERNEL_STACKS, 64 * 1024, PGS_LEDGER_SOURCE_COUNTER);
  /* VmallocUsed 256 kB holds the 64 kB of stacks. */
  assert_row (l, PGS_LEDGER_VMALLOC, 192 * 1024, PGS_LEDGER_SOURCE_COUNTER);
  assert_row (l, PGS_LEDGER_PERCPU, 32 * 1024, PGS_LEDGER_SOURCE_COUNTER);
  assert_row (l, PGS_LEDGER_ZRAM, KB (20), PGS_LEDGER_SOURCE_COUNTER);
  assert_row (l, PGS_LEDGER_FREE_PCP, KB (16), PGS_LEDGER_SOURCE_COUNTER);
  /* The kernel's 1316 frames less 256 outside, 16 stacks, 48 vmalloc, 8 per-CPU, 20
   * zsmalloc, 16 on per-CPU lists: 952. */
  assert_row (l, PGS_LEDGER_KERNEL_OTHER, KB (952), PGS_LEDGER_SOURCE_FRAMES);
  assert_row (l, PGS_LEDGER_HUGETLB, KB (512), PGS_LEDGER_SOURCE_FRAMES);
  assert_row (l, PGS_LEDGER_FREE, KB (1600), PGS_LEDGER_SOURCE_FRAMES);
  assert_row (l, PGS_LEDGER_UNINIT, KB (4096), PGS_LEDGER_SOURCE_FRAMES);

  /* Every byte: the rows are the 7936 frames of MemTotal, nothing unexplained. */
  for (guint r = 0; r < PGS_LEDGER_N_ROWS; r++)
    sum += l->rows[r].bytes;
  g_assert_cmpuint (sum, ==, KB (7936));
  g_assert_true (l->unexplained_known);
  g_assert_cmpint (l->unexplained, ==, 0);
  g_assert_cmpint (l->unknown, ==, 0);

  /* The counters the rows answer to. */
  g_assert_cmpstr (l->rows[PGS_LEDGER_PROCESS_SHMEM].counter, ==, "Shmem");
  g_assert_cmpuint (l->rows[PGS_LEDGER_PROCESS_SHMEM].counter_value, ==, 520 * 1024);
  g_assert_cmpstr (l->rows[PGS_LEDGER_SHMEM_UNMAPPED].counter, ==, "Shmem");
  g_assert_null (l->rows[PGS_LEDGER_KERNEL_OTHER].counter);
  /* Free and not yet initialised together are MemFree: 5696 frames = 22784 kB. */
  g_assert_true (pgs_ledger_counter_agrees (l, PGS_LEDGER_FREE, 0, &got));
  g_assert_cmpuint (got, ==, 22784 * 1024);
  /* Page cache: Cached 1600 + Buffers 40 − Shmem 520 = 1120 kB = 280 frames; the frames
   * hold 50 + 200 + 40 = 290. */
  g_assert_cmpuint (l->rows[PGS_LEDGER_CACHE_CLEAN].counter_value, ==, 1120 * 1024);
  g_assert_false (pgs_ledger_counter_agrees (l, PGS_LEDGER_CACHE_CLEAN, 0, &got));
  g_assert_cmpuint (got, ==, KB (290));
  g_assert_true (pgs_ledger_counter_agrees (l, PGS_LEDGER_CACHE_CLEAN, KB (10), NULL));
}

/* Where the counters disagree with the frames, the rows follow the frames. */
static void
test_frames_win (void)
{
  g_autoptr(PgsPhysMap) pm = fx_physmap ();
  g_autoptr(PgsLedger) l = pgs_ledger_compute (pm, fx_meminfo, fx_zoneinfo, fx_vmstat, 4096, NULL);
  guint64 got;

  /* Shmem says 130 frames; the frames hold 60 mapped and 60 not, the mlocked ones (which
   * the page-flag map shows as unevictable) included. */
  g_assert_cmpuint (l->rows[PGS_LEDGER_PROCESS_SHMEM].bytes + l->rows[PGS_LEDGER_SHMEM_UNMAPPED].bytes,
                    ==, KB (120));
  g_assert_false (pgs_ledger_counter_agrees (l, PGS_LEDGER_PROCESS_SHMEM, 0, &got));
  g_assert_cmpuint (got, ==, KB (120));
  /* 10 frames off: within 40 KiB. */
  g_assert_true (pgs_ledger_counter_agrees (l, PGS_LEDGER_PROCESS_SHMEM, KB (10), NULL));
  /* AnonPages 130 frames, the frames 128. */
  g_assert_cmpuint (l->rows[PGS_LEDGER_PROCESS_ANON].bytes, ==, KB (128));
  /* SUnreclaim 30 frames, the frames 100 − 60. */
  g_assert_cmpuint (l->rows[PGS_LEDGER_SLAB_UNRECLAIMABLE].bytes, ==, KB (40));
  g_assert_cmpint (l->rows[PGS_LEDGER_SLAB_UNRECLAIMABLE].source, ==, PGS_LEDGER_SOURCE_FRAMES);
  g_assert_cmpuint (l->rows[PGS_LEDGER_SLAB_UNRECLAIMABLE].counter_value, ==, KB (30));
  g_assert_false (pgs_ledger_counter_agrees (l, PGS_LEDGER_SLAB_UNRECLAIMABLE, 0, NULL));
  /* And the rows still make MemTotal. */
  g_assert_cmpint (l->unexplained, ==, 0);
}

/* Counters that claim more than the kernel's frames hold: the rest is 0, never below,
 * and the excess is the unexplained rest, negative. */
static void
test_counters_overshoot (void)
{
  g_autoptr(PgsPhysMap) pm = fx_physmap ();
  g_autofree char *meminfo = g_strdup (fx_meminfo);
  g_autoptr(PgsLedger) l = NULL;

  /* VmallocUsed 8000 kB: 2000 frames, 1984 of them beyond the stacks. */
  memcpy (strstr (meminfo, "VmallocUsed:         256"), "VmallocUsed:        8000", 24);
  l = pgs_ledger_compute (pm, meminfo, fx_zoneinfo, fx_vmstat, 4096, NULL);
  g_assert_cmpuint (l->rows[PGS_LEDGER_VMALLOC].bytes, ==, KB (1984));
  g_assert_cmpuint (l->rows[PGS_LEDGER_KERNEL_OTHER].bytes, ==, 0);
  /* 1316 kernel frames: 256 outside, 16 stacks, then vmalloc takes the 1044 left and
   * is 940 over; per-CPU, zsmalloc and the lists (44) are over too: −984 frames. */
  g_assert_true (l->unexplained_known);
  g_assert_cmpint (l->unexplained, ==, -(gint64) KB (984));
}

/* SUnreclaim above the frames' slab: kmalloc()s above 8 KiB are compound pages without
 * the SLAB flag, so the difference comes out of the kernel's frames. */
static void
test_large_kmalloc (void)
{
  g_autoptr(PgsPhysMap) pm = fx_physmap ();
  g_autofree char *meminfo = g_strdup (fx_meminfo);
  g_autoptr(PgsLedger) l = NULL;

  /* SUnreclaim 200 kB: 50 frames, 10 more than the frames' 100 − 60. */
  memcpy (strstr (meminfo, "SUnreclaim:          120"), "SUnreclaim:          200", 24);
  l = pgs_ledger_compute (pm, meminfo, fx_zoneinfo, fx_vmstat, 4096, NULL);
  assert_row (l, PGS_LEDGER_SLAB_UNRECLAIMABLE, KB (50), PGS_LEDGER_SOURCE_COUNTER);
  /* The rest: 952 − 10. */
  assert_row (l, PGS_LEDGER_KERNEL_OTHER, KB (942), PGS_LEDGER_SOURCE_FRAMES);
  g_assert_cmpint (l->unexplained, ==, 0);
}

/* A section initialised above the never-initialised memory (lazy init running during the
 * scan) hides it from the spans, which look for a zone's flagless top: MemTotal − Σ
 * managed still says 4096 frames are not initialised, and they come out of the kernel's
 * flagless frames rather than swell "the rest". */
static void
test_spans_missed (void)
{
  guint32 *counts = g_new0 (guint32, N_FX);
  guint64 *flags = g_new0 (guint64, N_FX);
  g_autoptr(PgsPhysMap) pm = NULL;
  g_autoptr(PgsLedger) l = NULL;

  fill_frames (counts, flags);
  flags[8191] = KPF (BUDDY);
  pm = pgs_physmap_new_full (counts, flags, N_FX, fx_meminfo, fx_zoneinfo);
  l = pgs_ledger_compute (pm, fx_meminfo, fx_zoneinfo, fx_vmstat, 4096, NULL);
  assert_row (l, PGS_LEDGER_UNINIT, KB (4096), PGS_LEDGER_SOURCE_COUNTER);
  assert_row (l, PGS_LEDGER_FREE, KB (1601), PGS_LEDGER_SOURCE_FRAMES);
  /* The kernel's frames: 1316 + 4095 flagless; less 256 outside, 4096 not initialised,
   * 16 + 48 + 8 + 20 + 16 named: 951. */
  assert_row (l, PGS_LEDGER_KERNEL_OTHER, KB (951), PGS_LEDGER_SOURCE_FRAMES);
  g_assert_cmpint (l->unexplained, ==, 0);
}

/* Without the frames: what the counters give, the rest unknown, never 0. */
static void
test_counters_only (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(PgsLedger) l = pgs_ledger_compute (NULL, fx_meminfo, fx_zoneinfo, fx_vmstat, 4096, &error);
  static const PgsLedgerRow unknown[] = {
    PGS_LEDGER_PROCESS_FILE, PGS_LEDGER_PROCESS_SHMEM, PGS_LEDGER_ANON_UNMAPPED,
    PGS_LEDGER_CACHE_CLEAN, PGS_LEDGER_CACHE_DIRTY, PGS_LEDGER_SHMEM_UNMAPPED,
    PGS_LEDGER_KERNEL_OTHER,
  };

  g_assert_no_error (error);
  g_assert_false (l->from_frames);
  for (guint i = 0; i < G_N_ELEMENTS (unknown); i++)
    {
      g_assert_false (l->rows[unknown[i]].known);
      g_assert_cmpuint (l->rows[unknown[i]].bytes, ==, 0);
    }
  assert_row (l, PGS_LEDGER_PROCESS_ANON, 520 * 1024, PGS_LEDGER_SOURCE_COUNTER);
  assert_row (l, PGS_LEDGER_SLAB_RECLAIMABLE, 240 * 1024, PGS_LEDGER_SOURCE_COUNTER);
  assert_row (l, PGS_LEDGER_SLAB_UNRECLAIMABLE, 120 * 1024, PGS_LEDGER_SOURCE_COUNTER);
  assert_row (l, PGS_LEDGER_PAGE_TABLES, 80 * 1024, PGS_LEDGER_SOURCE_COUNTER);
  assert_row (l, PGS_LEDGER_HUGETLB, 2048 * 1024, PGS_LEDGER_SOURCE_COUNTER);
  /* MemTotal 31744 − managed 3840 × 4 = 16384 kB not initialised, counted in MemFree:
   * free 22784 − 16384 = 6400 kB. */
  assert_row (l, PGS_LEDGER_UNINIT, 16384 * 1024, PGS_LEDGER_SOURCE_COUNTER);
  assert_row (l, PGS_LEDGER_FREE, 6400 * 1024, PGS_LEDGER_SOURCE_COUNTER);
  g_assert_false (l->unexplained_known);
  /* Known: 520 + 240 + 120 + 80 + 64 + 192 + 32 + 80 + 64 + 2048 + 6400 + 16384 = 26224
   * kB; MemTotal 31744: 5520 kB unknown or unexplained. */
  g_assert_cmpint (l->unknown, ==, 5520 * 1024);
  g_assert_true (l->outside_known);
  g_assert_cmpuint (l->outside_mem_total, ==, KB (256));
}

/* A snapshot from before the ledger: no zoneinfo, no vmstat. */
static void
test_missing_counters (void)
{
  g_autoptr(PgsLedger) l = pgs_ledger_compute (NULL, fx_meminfo, NULL, NULL, 4096, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(PgsLedger) none = NULL;

  g_assert_nonnull (l);
  g_assert_false (l->rows[PGS_LEDGER_ZRAM].known);
  g_assert_false (l->rows[PGS_LEDGER_FREE_PCP].known);
  g_assert_false (l->rows[PGS_LEDGER_FREE].known);
  g_assert_false (l->rows[PGS_LEDGER_UNINIT].known);
  g_assert_false (l->outside_known);
  g_assert_true (l->rows[PGS_LEDGER_KERNEL_STACKS].known);

  none = pgs_ledger_compute (NULL, "garbage\n", NULL, NULL, 4096, &error);
  g_assert_null (none);
  g_assert_nonnull (error);
}

/* Counters from a hostile snapshot file: sums that would wrap are unknown or saturate,
 * never a wrong small number (and nothing the sanitizers object to). */
static void
test_hostile_counters (void)
{
  const char meminfo[] =
    "MemTotal: 18014398509481983 kB\nMemFree: 18014398509481983 kB\n"
    "AnonPages: 18014398509481983 kB\nCached: 18014398509481983 kB\n"
    "Buffers: 18014398509481983 kB\nShmem: 1 kB\nSReclaimable: 18014398509481983 kB\n"
    "KernelStack: 18014398509481983 kB\n";
  const char zoneinfo[] =
    "Node 0, zone   Normal\n        spanned  9223372036854775807\n"
    "        present  9223372036854775807\n        managed  9223372036854775807\n"
    "Node 0, zone   Movable\n        spanned  9223372036854775807\n"
    "        present  9223372036854775807\n        managed  9223372036854775807\n";
  const char vmstat[] = "nr_zspages 18446744073709551615\n";
  g_autoptr(PgsLedger) l = pgs_ledger_compute (NULL, meminfo, zoneinfo, vmstat, 4096, NULL);

  /* (SReclaimable + SUnreclaim that wrap are refused by the meminfo parser itself.) */
  g_assert_nonnull (l);
  /* Σ present wraps: no zones, so nothing that needs them. */
  g_assert_false (l->outside_known);
  g_assert_false (l->rows[PGS_LEDGER_UNINIT].known);
  g_assert_false (l->rows[PGS_LEDGER_ZRAM].known);
  /* Cached + Buffers wraps: no page cache counter. */
  g_assert_false (l->rows[PGS_LEDGER_CACHE_CLEAN].counter_known);
  /* The known rows overshoot MemTotal: a negative rest, saturated. */
  g_assert_cmpint (l->unknown, <, 0);
}

/* The ledger's inputs go into a snapshot file and come back; a file without them (as
 * those written before) opens, and the rows they give are unknown. */
static void
test_snapshot_file (void)
{
  g_autoptr(PgsPhysMap) pm = fx_physmap ();
  g_autoptr(GPtrArray) processes = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GArray) skipped = g_array_new (FALSE, FALSE, sizeof (PgsSkipped));
  g_autoptr(PgsSnapshot) snap = _pgs_snapshot_new (processes, skipped, TRUE, 4096, pm);
  g_autofree char *dir = g_dir_make_tmp ("pgs-ledger-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "l.pgsnap", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;

  _pgs_snapshot_set_info (snap, "host", "6.18", NULL, "0", fx_meminfo, 0);
  _pgs_snapshot_set_counters (snap, fx_zoneinfo, fx_vmstat);
  g_assert_true (pgs_snapshot_save (snap, file, NULL, &error));
  g_assert_no_error (error);
  {
    g_autoptr(PgsSnapshot) back = pgs_snapshot_load (file, NULL, &error);
    g_autoptr(PgsLedger) l = NULL;

    g_assert_no_error (error);
    g_assert_cmpstr (pgs_snapshot_get_vmstat_text (back), ==, fx_vmstat);
    g_assert_cmpstr (pgs_snapshot_get_zoneinfo_text (back), ==, fx_zoneinfo);
    l = pgs_ledger_new_for_snapshot (back, &error);
    g_assert_no_error (error);
    assert_row (l, PGS_LEDGER_ZRAM, KB (20), PGS_LEDGER_SOURCE_COUNTER);
    assert_row (l, PGS_LEDGER_KERNEL_OTHER, KB (952), PGS_LEDGER_SOURCE_FRAMES);
    g_assert_cmpint (l->unexplained, ==, 0);
  }

  /* As an older file: no zoneinfo or vmstat key at all. The map keeps its zoneinfo. */
  _pgs_snapshot_set_counters (snap, NULL, NULL);
  g_assert_true (pgs_snapshot_save (snap, file, NULL, &error));
  {
    g_autoptr(PgsSnapshot) back = pgs_snapshot_load (file, NULL, &error);
    g_autoptr(PgsLedger) l = NULL;

    g_assert_no_error (error);
    g_assert_null (pgs_snapshot_get_vmstat_text (back));
    l = pgs_ledger_new_for_snapshot (back, &error);
    g_assert_no_error (error);
    g_assert_false (l->rows[PGS_LEDGER_ZRAM].known);
    g_assert_false (l->rows[PGS_LEDGER_KERNEL_OTHER].known);
    g_assert_false (l->unexplained_known);
    assert_row (l, PGS_LEDGER_CACHE_CLEAN, KB (200), PGS_LEDGER_SOURCE_FRAMES);
  }
  g_unlink (path);
  g_rmdir (dir);
}

static void
assert_valid_json (const char *text)
{
  g_autofree char *python = g_find_program_in_path ("python3");
  g_autoptr(GError) error = NULL;
  int status = 0;
  const char *script =
    "import json,sys\n"
    "d=json.loads(sys.argv[1])\n"
    "rows=sum(r['bytes'] for r in d['rows'])\n"
    "assert rows+d['unexplained']==d['mem_total'], (rows, d['unexplained'], d['mem_total'])\n";

  if (python == NULL)
    return;
  {
    const char *argv[] = { python, "-c", script, text, NULL };

    g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL, NULL, &status, &error);
  }
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
}

static void
test_cli (void)
{
  g_autoptr(PgsFixture) fx = pgs_fixture_new ();
  g_autofree guint32 *counts = g_new0 (guint32, N_FX);
  g_autofree guint64 *flags = g_new0 (guint64, N_FX);
  g_autofree char *out = NULL, *err = NULL;

  if (sysconf (_SC_PAGESIZE) != 4096)
    {
      g_test_skip ("the fixture is laid out in 4 KiB frames");
      return;
    }
  fill_frames (counts, flags);
  for (guint i = 0; i < N_FX; i++)
    pgs_fixture_set_frame (fx, i, counts[i], flags[i]);
  pgs_fixture_write (fx, "meminfo", fx_meminfo, -1);
  pgs_fixture_write (fx, "zoneinfo", fx_zoneinfo, -1);
  pgs_fixture_write (fx, "vmstat", fx_vmstat, -1);
  pgs_fixture_commit (fx);

  g_assert_cmpint (pgs_test_run_cli (fx, &out, &err, "ledger", "--json", NULL), ==, 0);
  assert_valid_json (out);
  g_assert_nonnull (strstr (out, "\"mem_total\":32505856,"));
  g_assert_nonnull (strstr (out, "{\"name\":\"kernel-other\",\"label\":\"Kernel: the rest\","
                                 "\"bytes\":3899392,\"source\":\"frames\",\"counter\":null,"
                                 "\"counter_value\":null}"));
  g_assert_nonnull (strstr (out, "{\"name\":\"processes-shmem\",\"label\":\"Processes: shared memory\","
                                 "\"bytes\":245760,\"source\":\"frames\",\"counter\":\"Shmem\","
                                 "\"counter_value\":532480}"));
  g_assert_nonnull (strstr (out, "\"unexplained\":0,"));
  g_assert_nonnull (strstr (out, "\"outside_mem_total\":1048576,"));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  g_assert_cmpint (pgs_test_run_cli (fx, &out, &err, "ledger", "--csv", NULL), ==, 0);
  g_assert_nonnull (strstr (out, "name,label,bytes,source,counter,counter_value\n"));
  g_assert_nonnull (strstr (out, "\ncache-clean,\"Page cache, no process maps: clean\",819200,frames,"
                                 "Cached + Buffers − Shmem,1146880\n"));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  g_assert_cmpint (pgs_test_run_cli (fx, &out, &err, "ledger", NULL), ==, 0);
  g_assert_nonnull (strstr (out, "Kernel: the rest"));
  g_assert_nonnull (strstr (out, "3.7 MiB"));
  g_assert_nonnull (strstr (out, "Beside MemTotal, not in it: 1.0 MiB"));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  /* Bad arguments, an unreadable snapshot. */
  g_assert_cmpint (pgs_test_run_cli (fx, &out, &err, "ledger", "extra", NULL), ==, 2);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (pgs_test_run_cli (fx, &out, &err, "ledger", "--json", "--csv", NULL), ==, 2);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (pgs_test_run_cli (NULL, &out, &err, "ledger", "--snapshot", "/nonexistent.pgsnap", NULL), ==, 3);
  g_assert_nonnull (strstr (err, "/nonexistent.pgsnap"));
}

/* Without kpage files (a normal user): the counters' rows, the others null. */
static void
test_cli_counters_only (void)
{
  g_autoptr(PgsFixture) fx = pgs_fixture_new ();
  g_autofree char *out = NULL, *err = NULL;

  pgs_fixture_write (fx, "meminfo", fx_meminfo, -1);
  pgs_fixture_write (fx, "zoneinfo", fx_zoneinfo, -1);
  pgs_fixture_write (fx, "vmstat", fx_vmstat, -1);
  pgs_fixture_set_unprivileged (fx, TRUE);
  pgs_fixture_commit (fx);

  g_assert_cmpint (pgs_test_run_cli (fx, &out, &err, "ledger", "--json", NULL), ==, 0);
  g_assert_nonnull (strstr (out, "\"from_frames\":false"));
  g_assert_nonnull (strstr (out, "{\"name\":\"cache-clean\",\"label\":\"Page cache, no process maps: clean\","
                                 "\"bytes\":null,\"source\":null,"));
  g_assert_nonnull (strstr (out, "\"unexplained\":null,\"unknown_and_unexplained\":5652480,"));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (pgs_test_run_cli (fx, &out, &err, "ledger", NULL), ==, 0);
  g_assert_nonnull (strstr (out, "Unknown and unexplained"));
  g_assert_nonnull (strstr (out, "need root"));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/pgs/ledger/frames", test_frames);
  g_test_add_func ("/pgs/ledger/rows", test_rows);
  g_test_add_func ("/pgs/ledger/frames-win", test_frames_win);
  g_test_add_func ("/pgs/ledger/counters-overshoot", test_counters_overshoot);
  g_test_add_func ("/pgs/ledger/large-kmalloc", test_large_kmalloc);
  g_test_add_func ("/pgs/ledger/spans-missed", test_spans_missed);
  g_test_add_func ("/pgs/ledger/counters-only", test_counters_only);
  g_test_add_func ("/pgs/ledger/missing-counters", test_missing_counters);
  g_test_add_func ("/pgs/ledger/hostile-counters", test_hostile_counters);
  g_test_add_func ("/pgs/ledger/snapshot-file", test_snapshot_file);
  g_test_add_func ("/pgs/ledger/cli", test_cli);
  g_test_add_func ("/pgs/ledger/cli-counters-only", test_cli_counters_only);
  return g_test_run ();
}
