/* test-snapshot-file.c: snapshot files read back as they were saved, bad files refused
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The header layout is written out here independently of the library (pgs-snapshot-format.h
 * describes it): magic, version, sizes and SHA-256 at the offsets the format promises.
 */

#include "config.h"

#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>
#include <pagescope.h>

#include "pgs-fixture.h"
#include "pgs-test-cli.h"
#include "pgs-kpage.h"
#include "pgs-snapshot-assert.h"
#include "pgs-snapshot-format.h"

#define KPF(f) PGS_KPF_BIT (PGS_KPF_##f)
#define BASE   G_GUINT64_CONSTANT (0x10000000)

static guint64 PS;

/* /proc/PID/stat with @start_time in field 22. */
static void
write_stat (PgsFixture *fx,
            int         pid,
            const char *name,
            guint64     start_time)
{
  g_autofree char *rel = g_strdup_printf ("%d/stat", pid);
  g_autofree char *text = g_strdup_printf ("%d (%s) S 1 %d %d 0 -1 4194560 100 0 0 0 1 2 0 0 20 0 1 0 %"
                                           G_GUINT64_FORMAT " 1000 100\n", pid, name, pid, pid, start_time);

  pgs_fixture_write (fx, rel, text, -1);
}

/* A has 1000 private pages and 1000 shared with B, and one swapped page:
 *   A: RSS 2000 PS, PSS 1500 PS, USS 1000 PS, swap 1 PS; B: RSS 1000 PS, PSS 500 PS, USS 0 */
static void
build_full (PgsFixture *fx,
            gboolean    unprivileged)
{
  g_autofree guint64 *a = g_new0 (guint64, 2001);
  g_autofree guint64 *b = g_new0 (guint64, 1000);

  pgs_fixture_add_process (fx, 100, "alpha", 0, FALSE);
  pgs_fixture_add_process (fx, 200, "be ta)", 1000, FALSE);
  write_stat (fx, 100, "alpha", 4242);
  write_stat (fx, 200, "be ta)", 777777);
  pgs_fixture_add_mapping (fx, 100, BASE, BASE + 2001 * PS, "rw-p", "[heap]");
  pgs_fixture_add_mapping (fx, 200, BASE, BASE + 1000 * PS, "r--s", "/dev/shm/shared");
  pgs_fixture_add_mapping (fx, 200, BASE + 4000 * PS, BASE + 4010 * PS, "r-xp", "/usr/lib/\xff\xfe odd");
  for (guint i = 0; i < 1000; i++)
    {
      a[i] = FX_PRESENT_EXCL (1000 + i);
      pgs_fixture_set_frame (fx, 1000 + i, 1, KPF (ANON) | KPF (LRU));
      a[1000 + i] = FX_PRESENT (5000 + i) | FX_FILE;
      b[i] = FX_PRESENT (5000 + i) | FX_FILE;
      pgs_fixture_set_frame (fx, 5000 + i, 2, KPF (LRU) | KPF (UPTODATE));
    }
  a[2000] = FX_SWAPPED (1, 77);
  pgs_fixture_set_pages (fx, 100, BASE, a, 2001);
  pgs_fixture_set_pages (fx, 200, BASE, b, 1000);
  pgs_fixture_write (fx, "sys/kernel/hostname", "fixture-host\n", -1);
  pgs_fixture_write (fx, "sys/kernel/osrelease", "6.1.0-test\n", -1);
  pgs_fixture_write (fx, "sys/kernel/random/boot_id", "0b7c2b7e-1111-2222-3333-444455556666\n", -1);
  pgs_fixture_set_unprivileged (fx, unprivileged);
  pgs_fixture_commit (fx);
}

static void
build (PgsFixture *fx)
{
  build_full (fx, FALSE);
}

static PgsSnapshot *
scan (PgsFixture *fx)
{
  return pgs_test_scan (fx, PGS_SCAN_MAPPINGS | PGS_SCAN_PAGES | PGS_SCAN_PHYSMAP);
}

static char *
tmp_path (const char *name)
{
  g_autofree char *dir = g_dir_make_tmp ("pgs-snapfile-XXXXXX", NULL);

  g_assert_nonnull (dir);
  return g_build_filename (dir, name, NULL);
}

static void
remove_tmp (const char *path)
{
  g_autofree char *dir = g_path_get_dirname (path);

  g_unlink (path);
  g_rmdir (dir);
}

/* The saved bytes of the fixture's snapshot. */
static GBytes *
saved_fixture (PgsSnapshot **out_snapshot)
{
  g_autoptr(PgsFixture) fx = pgs_fixture_new ();
  g_autoptr(PgsSnapshot) snap = NULL;
  g_autofree char *path = tmp_path ("a.pgsnap");
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  char *data;
  gsize len;

  build (fx);
  snap = scan (fx);
  g_assert_true (pgs_snapshot_save (snap, file, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (path, &data, &len, NULL));
  remove_tmp (path);
  if (out_snapshot != NULL)
    *out_snapshot = g_steal_pointer (&snap);
  return g_bytes_new_take (data, len);
}

static PgsSnapshot *
load_bytes (const guint8 *data,
            gsize         len,
            GError      **error)
{
  g_autofree char *path = tmp_path ("b.pgsnap");
  g_autoptr(GFile) file = g_file_new_for_path (path);
  PgsSnapshot *snap;

  g_assert_true (g_file_set_contents (path, (const char *) data, len, NULL));
  snap = pgs_snapshot_load (file, NULL, error);
  remove_tmp (path);
  return snap;
}

static void
test_round_trip (void)
{
  g_autoptr(PgsSnapshot) snap = NULL;
  g_autoptr(PgsSnapshot) loaded = NULL;
  g_autoptr(GBytes) bytes = saved_fixture (&snap);
  g_autoptr(GError) error = NULL;
  PgsProcess *a, *b;
  PgsPhysMap *physmap;
  gsize len;
  const guint8 *data = g_bytes_get_data (bytes, &len);

  loaded = load_bytes (data, len, &error);
  g_assert_no_error (error);
  g_assert_nonnull (loaded);
  g_assert_nonnull (pgs_snapshot_get_file (loaded));
  g_assert_null (pgs_snapshot_get_file (snap));
  pgs_assert_snapshots_equal (snap, loaded);

  /* The figures worked out by hand, from the file alone. */
  g_assert_true (pgs_snapshot_is_privileged (loaded));
  g_assert_cmpstr (pgs_snapshot_get_hostname (loaded), ==, "fixture-host");
  g_assert_cmpstr (pgs_snapshot_get_kernel_release (loaded), ==, "6.1.0-test");
  g_assert_cmpstr (pgs_snapshot_get_boot_id (loaded), ==, "0b7c2b7e-1111-2222-3333-444455556666");
  g_assert_cmpstr (pgs_snapshot_get_version (loaded), ==, PACKAGE_VERSION);
  a = pgs_snapshot_lookup_pid (loaded, 100);
  b = pgs_snapshot_lookup_pid (loaded, 200);
  g_assert_cmpuint (pgs_process_get_start_time (a), ==, 4242);
  g_assert_cmpuint (pgs_process_get_start_time (b), ==, 777777);
  g_assert_cmpstr (pgs_process_get_name (b), ==, "be ta)");
  g_assert_cmpuint (pgs_process_get_rss (a), ==, 2000 * PS);
  g_assert_cmpuint (pgs_process_get_pss (a), ==, 1500 * PS);
  g_assert_cmpuint (pgs_process_get_uss (a), ==, 1000 * PS);
  g_assert_cmpuint (pgs_process_get_swap (a), ==, PS);
  g_assert_cmpuint (pgs_process_get_pss (b), ==, 500 * PS);
  g_assert_cmpuint (pgs_process_get_uss (b), ==, 0);
  g_assert_cmpuint (pgs_process_get_n_pages (a), ==, 2001);
  g_assert_cmpuint (pgs_process_get_n_mappings (b), ==, 2);
  physmap = pgs_snapshot_get_physmap (loaded);
  g_assert_nonnull (physmap);
  g_assert_cmpuint (pgs_physmap_get_n_frames (physmap), ==, 6000);
  g_assert_cmpuint (pgs_physmap_get_counts (physmap)[5999], ==, 2);
  g_assert_cmpuint (pgs_physmap_get_flags (physmap)[1000], ==, KPF (ANON) | KPF (LRU));
  g_assert_cmpuint (pgs_physmap_get_counts (physmap)[999], ==, 0);
}

static void
test_unprivileged (void)
{
  g_autoptr(PgsFixture) fx = pgs_fixture_new ();
  g_autoptr(PgsSnapshot) snap = NULL;
  g_autoptr(PgsSnapshot) loaded = NULL;
  g_autofree char *path = tmp_path ("u.pgsnap");
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;

  build_full (fx, TRUE);
  snap = pgs_test_scan (fx, PGS_SCAN_MAPPINGS | PGS_SCAN_PAGES);
  g_assert_false (pgs_snapshot_is_privileged (snap));
  g_assert_true (pgs_snapshot_save (snap, file, NULL, &error));
  loaded = pgs_snapshot_load (file, NULL, &error);
  g_assert_no_error (error);
  remove_tmp (path);
  g_assert_false (pgs_snapshot_is_privileged (loaded));
  g_assert_null (pgs_snapshot_get_physmap (loaded));
  pgs_assert_snapshots_equal (snap, loaded);
}

static GBytes *
render_png (PgsSnapshot *snap,
            PgsView      view,
            int          pid)
{
  g_autoptr(PgsRenderer) renderer = pgs_renderer_new (snap, view);
  g_autofree char *path = tmp_path ("r.png");
  g_autoptr(GError) error = NULL;
  char *data;
  gsize len;

  pgs_renderer_set_process (renderer, pid > 0 ? pgs_snapshot_lookup_pid (snap, pid) : NULL);
  g_assert_true (pgs_renderer_write_png (renderer, path, 256, 128, TRUE, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (path, &data, &len, NULL));
  remove_tmp (path);
  return g_bytes_new_take (data, len);
}

static void
test_same_png (void)
{
  g_autoptr(PgsSnapshot) snap = NULL;
  g_autoptr(PgsSnapshot) loaded = NULL;
  g_autoptr(GBytes) bytes = saved_fixture (&snap);
  g_autoptr(GError) error = NULL;
  gsize len;
  const guint8 *data = g_bytes_get_data (bytes, &len);
  const PgsView views[] = { PGS_VIEW_RESIDENCY, PGS_VIEW_SHARING, PGS_VIEW_FLAGS };

  loaded = load_bytes (data, len, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < G_N_ELEMENTS (views); i++)
    {
      g_autoptr(GBytes) live = render_png (snap, views[i], 100);
      g_autoptr(GBytes) file = render_png (loaded, views[i], 100);

      g_assert_cmpuint (g_bytes_get_size (live), >, 100);
      g_assert_true (g_bytes_equal (live, file));
    }
}

/* pagescope-cli render --snapshot draws what the renderer draws from the scan it saved. */
static void
test_cli_render (void)
{
  g_autoptr(PgsSnapshot) snap = NULL;
  g_autoptr(GBytes) bytes = saved_fixture (&snap);
  g_autofree char *dir = g_dir_make_tmp ("pgs-snapcli-XXXXXX", NULL);
  g_autofree char *file = g_build_filename (dir, "s.pgsnap", NULL);
  g_autofree char *cli_png = g_build_filename (dir, "cli.png", NULL);
  g_autofree char *lib_png = g_build_filename (dir, "lib.png", NULL);
  const char *cli = g_getenv ("PAGESCOPE_CLI");
  const char *views[] = { "sharing", "flags" };
  const PgsView view_ids[] = { PGS_VIEW_SHARING, PGS_VIEW_FLAGS };

  if (cli == NULL)
    {
      g_test_skip ("PAGESCOPE_CLI not set");
      return;
    }
  g_assert_true (g_file_set_contents (file, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), NULL));
  for (guint i = 0; i < G_N_ELEMENTS (views); i++)
    {
      g_autoptr(PgsRenderer) renderer = pgs_renderer_new (snap, view_ids[i]);
      g_autoptr(GError) error = NULL;
      g_autofree char *a = NULL, *b = NULL;
      gsize la, lb;
      int status;
      const char *argv[] = { cli, "render", "--view", views[i], "--snapshot", file, "-o", cli_png,
                             "--width", "300", "--height", "200", "--legend", NULL };

      g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL,
                                   NULL, NULL, &status, &error));
      g_assert_true (g_spawn_check_wait_status (status, NULL));
      g_assert_true (pgs_renderer_write_png (renderer, lib_png, 300, 200, TRUE, &error));
      g_assert_true (g_file_get_contents (cli_png, &a, &la, NULL));
      g_assert_true (g_file_get_contents (lib_png, &b, &lb, NULL));
      g_assert_cmpuint (la, >, 100);
      g_assert_cmpmem (a, la, b, lb);
    }
  g_unlink (file);
  g_unlink (cli_png);
  g_unlink (lib_png);
  g_rmdir (dir);
}

/* Rewrites the checksum at 32..63 over bytes 0..31 and the payload, as the format says. */
static void
fix_checksum (guint8 *data,
              gsize   len)
{
  g_autoptr(GChecksum) sum = g_checksum_new (G_CHECKSUM_SHA256);
  gsize digest_len = 32;

  g_checksum_update (sum, data, 32);
  g_checksum_update (sum, data + 64, len - 64);
  g_checksum_get_digest (sum, data + 32, &digest_len);
}

static void
assert_refused (const guint8 *data,
                gsize         len,
                const int    *codes,
                guint         n_codes,
                const char   *what)
{
  g_autoptr(GError) error = NULL;
  /* In memory: the same reader pgs_snapshot_load() runs on the file's contents. */
  g_autoptr(PgsSnapshot) snap = _pgs_snapshot_load_bytes (data, len, PGS_SNAPSHOT_MAX_FRAMES, &error);
  gboolean matched = FALSE;

  if (snap != NULL)
    g_error ("%s: loaded", what);
  g_assert_nonnull (error);
  g_assert_true (error->domain == PGS_ERROR);
  for (guint i = 0; i < n_codes; i++)
    matched |= error->code == codes[i];
  if (!matched)
    g_error ("%s: refused with code %d: %s", what, error->code, error->message);
}

static void
test_truncated (void)
{
  g_autoptr(GBytes) bytes = saved_fixture (NULL);
  gsize len;
  const guint8 *data = g_bytes_get_data (bytes, &len);
  const int truncated[] = { PGS_ERROR_SNAPSHOT_TRUNCATED };

  g_assert_cmpuint (len, >, 64);
  /* Every length short of the whole: inside the magic, at each header field, inside the
   * payload. A file of a few kilobytes makes every offset cheap. */
  for (gsize cut = 0; cut < len; cut++)
    {
      g_autofree char *what = g_strdup_printf ("cut at %" G_GSIZE_FORMAT, cut);

      assert_refused (data, cut, truncated, 1, what);
    }
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(PgsSnapshot) snap = load_bytes (data, len - 1, &error);

    g_assert_error (error, PGS_ERROR, PGS_ERROR_SNAPSHOT_TRUNCATED);
    g_assert_nonnull (strstr (error->message, "cut short"));
  }
}

static void
test_bit_flips (void)
{
  g_autoptr(GBytes) bytes = saved_fixture (NULL);
  gsize len;
  const guint8 *orig = g_bytes_get_data (bytes, &len);
  g_autofree guint8 *data = g_memdup2 (orig, len);
  const int magic[] = { PGS_ERROR_NOT_A_SNAPSHOT };
  /* A flipped version bit reads as newer, or as 0 which no writer writes. */
  const int version[] = { PGS_ERROR_SNAPSHOT_NEWER_VERSION, PGS_ERROR_SNAPSHOT_DAMAGED };
  /* A flipped size says the file is longer (cut short) or shorter (damaged). */
  const int size[] = { PGS_ERROR_SNAPSHOT_TRUNCATED, PGS_ERROR_SNAPSHOT_DAMAGED };
  const int damaged[] = { PGS_ERROR_SNAPSHOT_DAMAGED };

  for (gsize i = 0; i < len; i++)
    for (guint bit = 0; bit < 8; bit += 3)
      {
        g_autofree char *what = g_strdup_printf ("bit %u of byte %" G_GSIZE_FORMAT, bit, i);

        data[i] ^= 1u << bit;
        if (i < 8)
          assert_refused (data, len, magic, 1, what);
        else if (i < 12)
          assert_refused (data, len, version, 2, what);
        else if (i >= 16 && i < 24)
          assert_refused (data, len, size, 2, what);
        else
          assert_refused (data, len, damaged, 1, what);
        data[i] ^= 1u << bit;
      }
}

static void
test_newer_version (void)
{
  g_autoptr(GBytes) bytes = saved_fixture (NULL);
  gsize len = g_bytes_get_size (bytes);
  g_autofree guint8 *data = g_memdup2 (g_bytes_get_data (bytes, NULL), len);
  g_autoptr(GError) error = NULL;
  g_autoptr(PgsSnapshot) snap = NULL;

  /* Version 2, little endian, with a checksum that holds: a newer writer's file. */
  g_assert_cmpuint (data[8], ==, 1);
  data[8] = 2;
  fix_checksum (data, len);
  snap = load_bytes (data, len, &error);
  g_assert_null (snap);
  g_assert_error (error, PGS_ERROR, PGS_ERROR_SNAPSHOT_NEWER_VERSION);
  g_assert_nonnull (strstr (error->message, "newer Pagescope"));
}

static void
test_not_a_snapshot (void)
{
  static const char png[] = "\x89PNG\r\n\x1a\n\0\0\0\rIHDR";
  static const char text[] = "PID USER NAME\n1 root init\n";
  const int codes[] = { PGS_ERROR_NOT_A_SNAPSHOT };
  g_autoptr(GBytes) bytes = saved_fixture (NULL);
  gsize len = g_bytes_get_size (bytes);
  g_autofree guint8 *data = g_memdup2 (g_bytes_get_data (bytes, NULL), len);
  g_autoptr(GError) error = NULL;
  g_autoptr(PgsSnapshot) snap = NULL;

  assert_refused ((const guint8 *) png, sizeof png - 1, codes, 1, "png");
  assert_refused ((const guint8 *) text, sizeof text - 1, codes, 1, "text");
  /* A snapshot with CR LF turned into LF, as a text-mode copy does. */
  memmove (data + 6, data + 7, len - 7);
  snap = load_bytes (data, len - 1, &error);
  g_assert_error (error, PGS_ERROR, PGS_ERROR_NOT_A_SNAPSHOT);
  g_assert_nonnull (strstr (error->message, "not a Pagescope snapshot"));
}

/* A file whose header and checksum hold but whose payload is @plain: what a hostile writer
 * can make. */
static GBytes *
file_with_payload (const void *plain,
                   gsize       plain_len)
{
  g_autoptr(GZlibCompressor) z = g_zlib_compressor_new (G_ZLIB_COMPRESSOR_FORMAT_ZLIB, 1);
  g_autoptr(GByteArray) out = g_byte_array_new ();
  guint8 header[64] = "PGSNAP\r\n\1\0\0\0";
  gsize cap = plain_len * 2 + 1024, read = 0, written = 0;
  guint64 v;

  g_byte_array_set_size (out, 64 + cap);
  g_assert_cmpint (g_converter_convert (G_CONVERTER (z), plain, plain_len, out->data + 64, cap,
                                        G_CONVERTER_INPUT_AT_END, &read, &written, NULL),
                   ==, G_CONVERTER_FINISHED);
  g_byte_array_set_size (out, 64 + written);
  v = GUINT64_TO_LE ((guint64) written);
  memcpy (header + 16, &v, 8);
  v = GUINT64_TO_LE ((guint64) plain_len);
  memcpy (header + 24, &v, 8);
  memcpy (out->data, header, 64);
  fix_checksum (out->data, out->len);
  return g_byte_array_free_to_bytes (g_steal_pointer (&out));
}

static void
test_hostile_payload (void)
{
  g_autoptr(PgsSnapshot) snap = NULL;
  g_autoptr(GBytes) saved = saved_fixture (&snap);
  g_autoptr(GBytes) plain = _pgs_snapshot_encode (snap);
  const int bad[] = { PGS_ERROR_BAD_SNAPSHOT };
  gsize len = g_bytes_get_size (plain);
  g_autofree guint8 *p = g_memdup2 (g_bytes_get_data (plain, NULL), len);
  g_autoptr(GRand) rand = g_rand_new_with_seed (9);

  /* Sanity: the payload the library encodes loads through this independent header. */
  {
    g_autoptr(GBytes) file = file_with_payload (p, len);
    g_autoptr(GError) error = NULL;
    g_autoptr(PgsSnapshot) again = load_bytes (g_bytes_get_data (file, NULL), g_bytes_get_size (file), &error);

    g_assert_no_error (error);
    pgs_assert_snapshots_equal (snap, again);
  }

  /* Garbage, and the real payload with bytes changed under a checksum that holds: refused
   * or, where GVariant's defaults happen to make sense, loaded consistently; never a crash. */
  {
    g_autofree guint8 *garbage = g_malloc (4096);
    g_autoptr(GBytes) file = NULL;

    for (guint i = 0; i < 4096; i++)
      garbage[i] = g_rand_int (rand);
    file = file_with_payload (garbage, 4096);
    assert_refused (g_bytes_get_data (file, NULL), g_bytes_get_size (file), bad, 1, "garbage");
  }
  for (guint round = 0; round < 300; round++)
    {
      g_autofree guint8 *q = g_memdup2 (p, len);
      g_autoptr(GBytes) file = NULL;
      g_autoptr(GError) error = NULL;
      g_autoptr(PgsSnapshot) loaded = NULL;

      for (guint k = 0; k < 4; k++)
        q[g_rand_int_range (rand, 0, len)] ^= 1u << g_rand_int_range (rand, 0, 8);
      file = file_with_payload (q, len);
      loaded = load_bytes (g_bytes_get_data (file, NULL), g_bytes_get_size (file), &error);
      if (loaded == NULL)
        g_assert_error (error, PGS_ERROR, PGS_ERROR_BAD_SNAPSHOT);
      else
        for (guint i = 0; i < pgs_snapshot_get_n_processes (loaded); i++)
          g_assert_cmpuint (pgs_process_get_pss (pgs_snapshot_get_process (loaded, i)), <=,
                            pgs_process_get_rss (pgs_snapshot_get_process (loaded, i)));
    }

  /* A run that points past the mappings, a declared size larger than the data. */
  {
    g_autoptr(GBytes) file = file_with_payload (p, len);
    g_autofree guint8 *d = g_memdup2 (g_bytes_get_data (file, NULL), g_bytes_get_size (file));
    guint64 big = GUINT64_TO_LE ((guint64) len + 1);

    memcpy (d + 24, &big, 8);
    fix_checksum (d, g_bytes_get_size (file));
    assert_refused (d, g_bytes_get_size (file), bad, 1, "uncompressed size");
  }
}

/* A payload written by hand: no processes, a physical map of @n_frames in runs. */
static GBytes *
physmap_payload (guint64        n_frames,
                 const guint32 *lengths,
                 const guint64 *flags,
                 const guint32 *counts,
                 gsize          n_runs)
{
  GVariantBuilder meta;
  g_autoptr(GVariant) v = NULL;

  g_variant_builder_init (&meta, G_VARIANT_TYPE_VARDICT);
  g_variant_builder_add (&meta, "{sv}", "time", g_variant_new_int64 (1700000000000000));
  g_variant_builder_add (&meta, "{sv}", "page-size", g_variant_new_uint32 (4096));
  g_variant_builder_add (&meta, "{sv}", "privileged", g_variant_new_boolean (TRUE));
  v = g_variant_ref_sink (g_variant_new ("(@a{sv}@a" PGS_SNAPSHOT_PROCESS_TYPE "@a" PGS_SNAPSHOT_SKIPPED_TYPE
                                         "@" PGS_SNAPSHOT_PHYSMAP_TYPE ")",
    g_variant_builder_end (&meta),
    g_variant_new_array (G_VARIANT_TYPE (PGS_SNAPSHOT_PROCESS_TYPE), NULL, 0),
    g_variant_new_array (G_VARIANT_TYPE (PGS_SNAPSHOT_SKIPPED_TYPE), NULL, 0),
    g_variant_new_maybe (NULL, g_variant_new ("(t@au@at@aumaymay)", n_frames,
      g_variant_new_fixed_array (G_VARIANT_TYPE_UINT32, lengths, n_runs, 4),
      g_variant_new_fixed_array (G_VARIANT_TYPE_UINT64, flags, n_runs, 8),
      g_variant_new_fixed_array (G_VARIANT_TYPE_UINT32, counts, n_runs, 4), NULL, NULL))));
  if (G_BYTE_ORDER == G_BIG_ENDIAN)
    {
      GVariant *swapped = g_variant_byteswap (v);

      g_variant_unref (v);
      v = swapped;
    }
  return g_variant_get_data_as_bytes (v);
}

static void
test_physmap_runs (void)
{
  const guint32 lengths[] = { 1, 2 };
  const guint64 flags[] = { 0x10, 0x400 };
  const guint32 counts[] = { 5, 7 };
  const guint32 huge_lengths[] = { G_MAXUINT32, G_MAXUINT32 };
  const int bad[] = { PGS_ERROR_BAD_SNAPSHOT };

  /* Runs (1 × count 5, flags 0x10) and (2 × count 7, flags 0x400): three frames. */
  {
    g_autoptr(GBytes) plain = physmap_payload (3, lengths, flags, counts, 2);
    g_autoptr(GBytes) file = file_with_payload (g_bytes_get_data (plain, NULL), g_bytes_get_size (plain));
    g_autoptr(GError) error = NULL;
    g_autoptr(PgsSnapshot) snap = load_bytes (g_bytes_get_data (file, NULL), g_bytes_get_size (file), &error);
    PgsPhysMap *physmap;

    g_assert_no_error (error);
    physmap = pgs_snapshot_get_physmap (snap);
    g_assert_cmpuint (pgs_physmap_get_n_frames (physmap), ==, 3);
    g_assert_cmpuint (pgs_physmap_get_counts (physmap)[0], ==, 5);
    g_assert_cmpuint (pgs_physmap_get_counts (physmap)[1], ==, 7);
    g_assert_cmpuint (pgs_physmap_get_counts (physmap)[2], ==, 7);
    g_assert_cmpuint (pgs_physmap_get_flags (physmap)[0], ==, 0x10);
    g_assert_cmpuint (pgs_physmap_get_flags (physmap)[2], ==, 0x400);
    g_assert_cmpint (pgs_snapshot_get_time (snap), ==, 1700000000000000);
    g_assert_null (pgs_snapshot_get_hostname (snap));
  }
  /* Runs that do not cover the frames, and 8 Gi frames from a few bytes: refused before
   * anything is allocated for them. */
  {
    g_autoptr(GBytes) short_runs = physmap_payload (4, lengths, flags, counts, 2);
    g_autoptr(GBytes) long_runs = physmap_payload (2, lengths, flags, counts, 2);
    g_autoptr(GBytes) huge = physmap_payload ((guint64) G_MAXUINT32 * 2, huge_lengths, flags, counts, 2);
    GBytes *all[] = { short_runs, long_runs, huge };

    for (guint i = 0; i < G_N_ELEMENTS (all); i++)
      {
        g_autoptr(GBytes) file = file_with_payload (g_bytes_get_data (all[i], NULL), g_bytes_get_size (all[i]));

        assert_refused (g_bytes_get_data (file, NULL), g_bytes_get_size (file), bad, 1, "physmap runs");
      }
  }
}

/* Saving over a file renames a complete new one into place: a reader of the old file keeps
 * reading it whole, and no temporary file is left behind. */
static void
test_atomic_save (void)
{
  g_autoptr(PgsFixture) fx = pgs_fixture_new ();
  g_autoptr(PgsSnapshot) snap = NULL;
  g_autoptr(PgsSnapshot) small = NULL;
  g_autofree char *path = tmp_path ("atomic.pgsnap");
  g_autofree char *dir = g_path_get_dirname (path);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  g_autoptr(GDir) listing = NULL;
  g_autofree char *old_bytes = NULL;
  char buf[64];
  gsize old_len;
  int fd;
  const int one = 100;

  build (fx);
  snap = scan (fx);
  {
    g_autoptr(PgsScanner) scanner = pgs_scanner_new ();

    pgs_scanner_set_procfs_root (scanner, pgs_fixture_get_root (fx));
    pgs_scanner_set_pids (scanner, &one, 1);
    small = pgs_scanner_scan (scanner, NULL, &error);
    g_assert_no_error (error);
  }
  g_assert_true (pgs_snapshot_save (snap, file, NULL, &error));
  g_assert_true (g_file_get_contents (path, &old_bytes, &old_len, NULL));
  fd = open (path, O_RDONLY);
  g_assert_cmpint (fd, >=, 0);

  g_assert_true (pgs_snapshot_save (small, file, NULL, &error));
  g_assert_no_error (error);
  /* The old file, still open, is unchanged to its last byte. */
  g_assert_cmpint (lseek (fd, (off_t) old_len - sizeof buf, SEEK_SET), ==, (off_t) old_len - sizeof buf);
  g_assert_cmpint (read (fd, buf, sizeof buf), ==, sizeof buf);
  g_assert_cmpmem (buf, sizeof buf, old_bytes + old_len - sizeof buf, sizeof buf);
  g_assert_cmpint (read (fd, buf, sizeof buf), ==, 0);
  close (fd);
  {
    g_autoptr(PgsSnapshot) loaded = pgs_snapshot_load (file, NULL, &error);

    g_assert_no_error (error);
    g_assert_cmpuint (pgs_snapshot_get_n_processes (loaded), ==, 1);
  }

  listing = g_dir_open (dir, 0, NULL);
  g_assert_cmpstr (g_dir_read_name (listing), ==, "atomic.pgsnap");
  g_assert_null (g_dir_read_name (listing));
  remove_tmp (path);
}

typedef struct
{
  GMainLoop   *loop;
  GAsyncResult *result;
} AsyncData;

static void
got_result (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  AsyncData *d = user_data;

  d->result = g_object_ref (result);
  g_main_loop_quit (d->loop);
}

static void
test_async (void)
{
  g_autoptr(PgsFixture) fx = pgs_fixture_new ();
  g_autoptr(PgsSnapshot) snap = NULL;
  g_autoptr(PgsSnapshot) loaded = NULL;
  g_autofree char *path = tmp_path ("async.pgsnap");
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  AsyncData d = { g_main_loop_new (NULL, FALSE), NULL };

  build (fx);
  snap = scan (fx);
  pgs_snapshot_save_async (snap, file, NULL, got_result, &d);
  g_main_loop_run (d.loop);
  g_assert_true (pgs_snapshot_save_finish (snap, d.result, &error));
  g_assert_no_error (error);
  g_clear_object (&d.result);

  pgs_snapshot_load_async (file, NULL, got_result, &d);
  g_main_loop_run (d.loop);
  loaded = pgs_snapshot_load_finish (d.result, &error);
  g_assert_no_error (error);
  pgs_assert_snapshots_equal (snap, loaded);
  g_clear_object (&d.result);
  g_main_loop_unref (d.loop);
  remove_tmp (path);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  PS = (guint64) sysconf (_SC_PAGESIZE);

  g_test_add_func ("/pgs/snapshot-file/round-trip", test_round_trip);
  g_test_add_func ("/pgs/snapshot-file/unprivileged", test_unprivileged);
  g_test_add_func ("/pgs/snapshot-file/same-png", test_same_png);
  g_test_add_func ("/pgs/snapshot-file/cli-render", test_cli_render);
  g_test_add_func ("/pgs/snapshot-file/truncated", test_truncated);
  g_test_add_func ("/pgs/snapshot-file/bit-flips", test_bit_flips);
  g_test_add_func ("/pgs/snapshot-file/newer-version", test_newer_version);
  g_test_add_func ("/pgs/snapshot-file/not-a-snapshot", test_not_a_snapshot);
  g_test_add_func ("/pgs/snapshot-file/hostile-payload", test_hostile_payload);
  g_test_add_func ("/pgs/snapshot-file/physmap-runs", test_physmap_runs);
  g_test_add_func ("/pgs/snapshot-file/atomic-save", test_atomic_save);
  g_test_add_func ("/pgs/snapshot-file/async", test_async);
  return g_test_run ();
}
