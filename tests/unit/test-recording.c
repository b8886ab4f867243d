/* test-recording.c: recording files built from hand-made samples
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The figures are the test's own: two samples a second apart in which process 10 grows by
 * 4096 bytes of RSS and 2048 of PSS, process 20 ends and another process 20 (start 500)
 * begins, MemFree falls by 1 MiB and a counter appears.
 */

#include "config.h"

#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>
#include <pagescope.h>

#include "pgs-delta.h"
#include "pgs-fixture.h"
#include "pgs-kpage.h"
#include "pgs-recording-format.h"
#include "pgs-snapshot-format.h"
#include "pgs-test-cli.h"

#define T0 G_GINT64_CONSTANT (1764928800000000)  /* 2025-12-05 10:00:00 UTC */

static void
add_process (PgsSample  *s,
             int         pid,
             guint64     start,
             const char *name,
             guint64     rss,
             guint64     pss)
{
  PgsSampleProcess p = { 0 };

  p.pid = pid;
  p.start_time = start;
  p.uid = 1000;
  p.name = g_ref_string_new (name);
  p.known = PGS_METRIC_VSS | PGS_METRIC_RSS | PGS_METRIC_PSS | PGS_METRIC_USS | PGS_METRIC_SWAP;
  p.figures[PGS_SAMPLE_VSS] = 1 << 20;
  p.figures[PGS_SAMPLE_RSS] = rss;
  p.figures[PGS_SAMPLE_PSS] = pss;
  p.figures[PGS_SAMPLE_USS] = pss / 2;
  g_array_append_val (s->processes, p);
}

static void
set_value (PgsSample  *s,
           const char *name,
           guint64     v)
{
  guint i;

  for (i = 0; i < s->names->len; i++)
    if (g_str_equal (g_ptr_array_index (s->names, i), name))
      break;
  if (i == s->names->len)
    g_ptr_array_add (s->names, g_strdup (name));
  if (s->values->len <= i)
    g_array_set_size (s->values, i + 1);
  g_array_index (s->values, guint64, i) = v;
}

/* Writes @n samples: even ones as sample A, odd ones as sample B. */
static char *
write_recording (guint    n,
                 gboolean close)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(PgsRecordingWriter) w = NULL;
  PgsRecordingSetup setup = { 1000, 0, TRUE, "UTC", NULL };
  g_autofree char *dir = g_dir_make_tmp ("pgs-rec-XXXXXX", &error);
  char *path = g_build_filename (dir, "r.pgrec", NULL);

  g_assert_no_error (error);
  w = pgs_recording_writer_new (path, &setup, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(PgsSample) s = pgs_sample_new ();

      s->time = T0 + (gint64) i * G_USEC_PER_SEC;
      set_value (s, "meminfo/MemFree", i % 2 ? (99u << 20) : (100u << 20));
      if (i % 2)
        set_value (s, "psi/some", 1234);
      add_process (s, 10, 100, "grower", i % 2 ? 8192 : 4096, i % 2 ? 4096 : 2048);
      add_process (s, 20, i % 2 ? 500 : 200, i % 2 ? "second" : "first", 12288, 12288);
      g_assert_true (pgs_recording_writer_add_sample (w, s, &error));
      g_assert_no_error (error);
    }
  if (close)
    g_assert_true (pgs_recording_writer_close (w, &error));
  g_assert_no_error (error);
  return path;
}

static PgsRecording *
open_path (const char  *path,
           GError     **error)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);

  return pgs_recording_open (file, NULL, error);
}

static void
test_round_trip (void)
{
  g_autofree char *path = write_recording (3, TRUE);
  g_autoptr(GError) error = NULL;
  g_autoptr(PgsRecording) rec = open_path (path, &error);
  g_autoptr(PgsSample) s1 = NULL;
  const PgsSampleProcess *p;

  g_assert_no_error (error);
  g_assert_null (pgs_recording_get_end_note (rec));
  g_assert_cmpuint (pgs_recording_get_n_samples (rec), ==, 3);
  g_assert_cmpint (pgs_recording_get_sample_time (rec, 2), ==, T0 + 2 * G_USEC_PER_SEC);
  s1 = pgs_recording_get_sample (rec, 1, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (s1->processes->len, ==, 2);
  p = pgs_sample_lookup (s1, 10, 100);
  g_assert_nonnull (p);
  g_assert_cmpuint (p->figures[PGS_SAMPLE_RSS], ==, 8192);
  g_assert_cmpuint (p->figures[PGS_SAMPLE_PSS], ==, 4096);
  g_assert_cmpuint (p->figures[PGS_SAMPLE_USS], ==, 2048);
  g_assert_null (pgs_sample_lookup (s1, 20, 200));
  p = pgs_sample_lookup (s1, 20, 500);
  g_assert_nonnull (p);
  g_assert_cmpstr (p->name, ==, "second");
  g_assert_cmpuint (pgs_sample_get_value (s1, "meminfo/MemFree"), ==, 99u << 20);
  g_assert_cmpuint (pgs_sample_get_value (s1, "psi/some"), ==, 1234);

  /* Back to sample 0: the counter that came later is absent there. */
  {
    g_autoptr(PgsSample) s0 = pgs_recording_get_sample (rec, 0, &error);

    g_assert_no_error (error);
    g_assert_cmpuint (pgs_sample_get_value (s0, "meminfo/MemFree"), ==, 100u << 20);
    g_assert_cmpuint (pgs_sample_get_value (s0, "psi/some"), ==, PGS_SAMPLE_ABSENT);
    g_assert_cmpstr (pgs_sample_lookup (s0, 20, 0)->name, ==, "first");
  }
  /* Nearest sample: 1.4 s is sample 1, 1.6 s sample 2, a tie (1.5 s) the earlier. */
  g_assert_cmpuint (pgs_recording_find_sample (rec, T0 + 1400000), ==, 1);
  g_assert_cmpuint (pgs_recording_find_sample (rec, T0 + 1600000), ==, 2);
  g_assert_cmpuint (pgs_recording_find_sample (rec, T0 + 1500000), ==, 1);
}

static void
test_reused_pid (void)
{
  g_autofree char *path = write_recording (2, TRUE);
  g_autoptr(GError) error = NULL;
  g_autoptr(PgsRecording) rec = open_path (path, &error);
  g_autoptr(PgsSeries) series = pgs_series_new (rec, PGS_SERIES_PROCESS, 20, &error);
  gint64 change;
  gboolean came, went;

  g_assert_no_error (error);
  g_assert_cmpuint (pgs_series_get_n_rows (series), ==, 2);
  g_assert_cmpstr (pgs_series_get_row (series, 0)->key, ==, "20@200");
  g_assert_cmpstr (pgs_series_get_row (series, 1)->key, ==, "20@500");
  /* The first went (12288 → 0), the second came (0 → 12288). */
  g_assert_true (pgs_series_get_growth (series, "20@200", PGS_SAMPLE_PSS, &change, &came, &went));
  g_assert_cmpint (change, ==, -12288);
  g_assert_true (went);
  g_assert_true (pgs_series_get_growth (series, "20@500", PGS_SAMPLE_PSS, &change, &came, &went));
  g_assert_cmpint (change, ==, 12288);
  g_assert_true (came);
}

static void
test_truncated (void)
{
  g_autofree char *path = write_recording (4, FALSE);
  g_autofree char *data = NULL;
  gsize len, last_start;
  PgsFrameInfo info;
  g_autoptr(GError) error = NULL;

  g_assert_true (g_file_get_contents (path, &data, &len, NULL));
  /* Find the last frame's start by walking the frames. */
  last_start = PGS_RECORDING_PREAMBLE_SIZE;
  for (gsize at = PGS_RECORDING_PREAMBLE_SIZE; at < len; at += PGS_RECORDING_FRAME_HEADER + info.length)
    {
      _pgs_frame_parse ((const guint8 *) data + at, &info);
      last_start = at;
    }
  for (gsize cut = last_start; cut <= len; cut++)
    {
      g_autoptr(GBytes) bytes = g_bytes_new (data, cut);
      g_autoptr(PgsRecording) rec = pgs_recording_new_from_bytes (bytes, &error);

      g_assert_no_error (error);
      g_assert_cmpuint (pgs_recording_get_n_samples (rec), ==, cut == len ? 4 : 3);
      g_assert_nonnull (pgs_recording_get_end_note (rec));
      {
        g_autoptr(PgsSample) s = pgs_recording_get_sample (rec, pgs_recording_get_n_samples (rec) - 1, &error);

        g_assert_no_error (error);
        g_assert_cmpuint (pgs_sample_lookup (s, 10, 100)->figures[PGS_SAMPLE_RSS], ==, cut == len ? 8192 : 4096);
      }
    }
}

static void
test_damaged (void)
{
  g_autofree char *path = write_recording (3, TRUE);
  g_autofree char *data = NULL;
  gsize len, at = PGS_RECORDING_PREAMBLE_SIZE;
  PgsFrameInfo info;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(PgsRecording) rec = NULL;
  g_autoptr(PgsSample) s0 = NULL;
  g_autoptr(PgsSample) s1 = NULL;

  g_assert_true (g_file_get_contents (path, &data, &len, NULL));
  /* Header, sample 0, then sample 1: flip a byte of its payload. */
  for (int i = 0; i < 2; i++)
    {
      _pgs_frame_parse ((const guint8 *) data + at, &info);
      at += PGS_RECORDING_FRAME_HEADER + info.length;
    }
  data[at + PGS_RECORDING_FRAME_HEADER] ^= 0x40;
  bytes = g_bytes_new (data, len);
  rec = pgs_recording_new_from_bytes (bytes, &error);
  g_assert_no_error (error);
  s0 = pgs_recording_get_sample (rec, 0, &error);
  g_assert_no_error (error);
  s1 = pgs_recording_get_sample (rec, 1, &error);
  g_assert_null (s1);
  g_assert_error (error, PGS_ERROR, PGS_ERROR_SNAPSHOT_DAMAGED);
  g_assert_nonnull (strstr (error->message, "sample 1 is damaged"));
}

static void
test_newer_version (void)
{
  g_autofree char *path = write_recording (1, TRUE);
  g_autofree char *data = NULL;
  gsize len;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(PgsRecording) rec = NULL;

  g_assert_true (g_file_get_contents (path, &data, &len, NULL));
  data[8] = PGS_RECORDING_FORMAT_VERSION + 1;
  bytes = g_bytes_new (data, len);
  rec = pgs_recording_new_from_bytes (bytes, &error);
  g_assert_null (rec);
  g_assert_error (error, PGS_ERROR, PGS_ERROR_SNAPSHOT_NEWER_VERSION);
}

/* A difference worked out by hand: "abcdefgh" × 8 (64 bytes) then "XY" against the 64
 * bytes alone is one copy of 64 bytes from 0 (varints 129 1, 0) and a literal of 2 ("XY":
 * 4, 'X', 'Y'). */
static void
test_delta (void)
{
  guint8 old[64], new_data[66], out[66];
  g_autoptr(GByteArray) delta = g_byte_array_new ();
  const guint8 expected[] = { 0x81, 0x01, 0x00, 0x04, 'X', 'Y' };
  g_autoptr(GError) error = NULL;

  for (guint i = 0; i < 64; i++)
    old[i] = new_data[i] = "abcdefgh"[i % 8];
  new_data[64] = 'X';
  new_data[65] = 'Y';
  pgs_delta_encode (old, sizeof old, new_data, sizeof new_data, delta);
  g_assert_cmpmem (delta->data, delta->len, expected, sizeof expected);
  g_assert_true (pgs_delta_apply (old, sizeof old, delta->data, delta->len, out, sizeof out, &error));
  g_assert_cmpmem (out, sizeof out, new_data, sizeof new_data);
  /* One byte short of what it says: refused. */
  g_assert_false (pgs_delta_apply (old, sizeof old, delta->data, delta->len - 1, out, sizeof out, &error));
  g_assert_error (error, PGS_ERROR, PGS_ERROR_BAD_SNAPSHOT);
}

#define KPF(f) PGS_KPF_BIT (PGS_KPF_##f)
#define BASE   G_GUINT64_CONSTANT (0x10000000)

/* What a snapshot file of @snap gives back (the scan knows a few figures more than a
 * snapshot stores): the picture the reader must give back, byte for byte. */
static GBytes *
as_stored (PgsSnapshot *snap)
{
  g_autoptr(GBytes) v = _pgs_snapshot_encode (snap);
  g_autoptr(GError) error = NULL;
  g_autoptr(PgsSnapshot) back = _pgs_snapshot_decode (v, PGS_SNAPSHOT_MAX_FRAMES, &error);

  g_assert_no_error (error);
  return _pgs_snapshot_encode (back);
}

/* Step @step of a fixture that changes as a machine does between pictures: frames' flags
 * flip (page cache aging), map counts move, a process grows, one ends, one starts. */
static void
build_step (PgsFixture *fx,
            guint       step)
{
  guint64 ps = (guint64) sysconf (_SC_PAGESIZE);
  guint grown = 8000 + (step % 3) * 7;
  g_autofree guint64 *a = g_new0 (guint64, grown);
  g_autofree guint64 *b = g_new0 (guint64, 4000);

  pgs_fixture_add_process (fx, 100, "alpha", 0, FALSE);
  pgs_fixture_add_mapping (fx, 100, BASE, BASE + grown * ps, "rw-p", "[heap]");
  for (guint i = 0; i < grown; i++)
    {
      /* Private frames in a shuffled order, as anonymous memory's are. */
      guint64 pfn = 20000 + (i * 7919u) % 9000;

      a[i] = i < 4000 ? FX_PRESENT (10000 + i) | FX_FILE : FX_PRESENT_EXCL (pfn);
      if (i >= 4000)
        pgs_fixture_set_frame (fx, pfn, 1, KPF (ANON) | KPF (LRU) | ((i + step) % 17 == 0 ? KPF (ACTIVE) : 0));
    }
  pgs_fixture_set_pages (fx, 100, BASE, a, grown);
  if (step % 4 != 3)
    {
      pgs_fixture_add_process (fx, 200, "beta", 1000, FALSE);
      pgs_fixture_add_mapping (fx, 200, BASE, BASE + 4000 * ps, "r--s", "/dev/shm/shared");
      for (guint i = 0; i < 4000; i++)
        b[i] = FX_PRESENT (10000 + i) | FX_FILE;
      pgs_fixture_set_pages (fx, 200, BASE, b, 4000);
    }
  if (step >= 2)
    {
      g_autofree guint64 *c = g_new0 (guint64, 10);

      pgs_fixture_add_process (fx, 300 + step % 2, "gamma", 0, FALSE);
      pgs_fixture_add_mapping (fx, 300 + step % 2, BASE, BASE + 10 * ps, "rw-p", "");
      for (guint i = 0; i < 10; i++)
        c[i] = FX_PRESENT_EXCL (30000 + i);
      pgs_fixture_set_pages (fx, 300 + step % 2, BASE, c, 10);
    }
  for (guint i = 0; i < 4000; i++)
    pgs_fixture_set_frame (fx, 10000 + i, step % 4 != 3 ? 2 : 1,
                           KPF (LRU) | KPF (UPTODATE) | ((i * 7 + step) % 23 == 0 ? KPF (REFERENCED) : 0));
  for (guint i = 0; i < 10; i++)
    pgs_fixture_set_frame (fx, 30000 + i, step >= 2 ? 1 : 0, step >= 2 ? KPF (ANON) : 0);
  pgs_fixture_commit (fx);
}

/* Pictures written as differences come back as the scans they were, across key pictures;
 * and a picture like the one before costs a small part of a key picture. */
static void
test_pictures (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(PgsRecordingWriter) w = NULL;
  g_autoptr(PgsRecording) rec = NULL;
  PgsRecordingSetup setup = { 1000, 60000, TRUE, "UTC", NULL };
  g_autofree char *dir = g_dir_make_tmp ("pgs-rec-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "p.pgrec", NULL);
  g_autoptr(GPtrArray) stored = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  guint n = PGS_RECORDING_KEY_PICTURES + 4;
  guint64 key_size = 0, same_size = 0;

  w = pgs_recording_writer_new (path, &setup, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(PgsFixture) fx = pgs_fixture_new ();
      g_autoptr(PgsSnapshot) snap = NULL;
      g_autoptr(PgsSample) s = pgs_sample_new ();
      guint64 before;

      /* Pictures 5 and 6 are of the same step: the second differs from the first in
       * nothing but its time. */
      build_step (fx, i == 6 ? 5 : i);
      snap = pgs_test_scan (fx, PGS_SCAN_MAPPINGS | PGS_SCAN_PAGES | PGS_SCAN_PHYSMAP);
      s->time = T0 + (gint64) i * 60 * G_USEC_PER_SEC;
      g_assert_true (pgs_recording_writer_add_sample (w, s, &error));
      before = pgs_recording_writer_get_size (w);
      g_assert_true (pgs_recording_writer_add_picture (w, snap, s->time, &error));
      g_assert_no_error (error);
      if (i == 0)
        key_size = pgs_recording_writer_get_size (w) - before;
      if (i == 6)
        same_size = pgs_recording_writer_get_size (w) - before;
      g_ptr_array_add (stored, as_stored (snap));
    }
  g_assert_true (pgs_recording_writer_close (w, &error));
  g_test_message ("key picture %" G_GUINT64_FORMAT " bytes, the same again %" G_GUINT64_FORMAT, key_size, same_size);
  g_assert_cmpuint (same_size, <, key_size / 4);

  rec = open_path (path, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (pgs_recording_get_n_pictures (rec), ==, n);
  /* In order (each from the one before), then backwards (each from its key picture). */
  for (guint k = 0; k < 2 * n; k++)
    {
      guint i = k < n ? k : 2 * n - 1 - k;
      g_autoptr(PgsSnapshot) back = pgs_recording_get_picture (rec, i, &error);
      g_autoptr(GBytes) v = NULL;

      g_assert_no_error (error);
      v = _pgs_snapshot_encode (back);
      g_assert_true (g_bytes_equal (v, g_ptr_array_index (stored, i)));
    }
  g_unlink (path);
  g_rmdir (dir);
}

/* The difference of a picture from another, cut or flipped anywhere: a message or another
 * picture, never a crash (the fuzz target does more of this). */
static void
test_picture_diff_damaged (void)
{
  g_autoptr(PgsFixture) fa = pgs_fixture_new ();
  g_autoptr(PgsFixture) fb = pgs_fixture_new ();
  g_autoptr(PgsSnapshot) a = NULL;
  g_autoptr(PgsSnapshot) b = NULL;
  g_autoptr(GBytes) va = NULL;
  g_autoptr(GBytes) vb = NULL;
  g_autoptr(GByteArray) diff = g_byte_array_new ();

  build_step (fa, 1);
  build_step (fb, 2);
  a = pgs_test_scan (fa, PGS_SCAN_MAPPINGS | PGS_SCAN_PAGES | PGS_SCAN_PHYSMAP);
  b = pgs_test_scan (fb, PGS_SCAN_MAPPINGS | PGS_SCAN_PAGES | PGS_SCAN_PHYSMAP);
  va = _pgs_snapshot_encode (a);
  vb = _pgs_snapshot_encode (b);
  _pgs_picture_diff_encode (va, vb, diff);
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(GBytes) back = _pgs_picture_diff_apply (va, diff->data, diff->len, g_bytes_get_size (vb), &error);

    g_assert_no_error (error);
    g_assert_true (g_bytes_equal (back, vb));
  }
  for (gsize cut = 0; cut < diff->len; cut++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GBytes) back = _pgs_picture_diff_apply (va, diff->data, cut, g_bytes_get_size (vb), &error);

      g_assert_null (back);
      g_assert_error (error, PGS_ERROR, PGS_ERROR_BAD_SNAPSHOT);
    }
  for (gsize at = 0; at < diff->len; at++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GBytes) back = NULL;

      diff->data[at] ^= 0x41;
      back = _pgs_picture_diff_apply (va, diff->data, diff->len, g_bytes_get_size (vb), &error);
      g_assert_true ((back == NULL) == (error != NULL));
      diff->data[at] ^= 0x41;
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/pgs/recording/round-trip", test_round_trip);
  g_test_add_func ("/pgs/recording/reused-pid", test_reused_pid);
  g_test_add_func ("/pgs/recording/truncated-every-byte", test_truncated);
  g_test_add_func ("/pgs/recording/damaged-checksum", test_damaged);
  g_test_add_func ("/pgs/recording/newer-version", test_newer_version);
  g_test_add_func ("/pgs/recording/delta", test_delta);
  g_test_add_func ("/pgs/recording/pictures", test_pictures);
  g_test_add_func ("/pgs/recording/picture-diff-damaged", test_picture_diff_damaged);
  return g_test_run ();
}
