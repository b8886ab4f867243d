/* bench-picture.c: where a recording's picture spends its bytes and its CPU (issue 18)
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Scans the running machine as `pagescope-cli record` does for a picture, waits
 * PGS_BENCH_GAP seconds (default 60), scans again, and prints: the CPU of each phase of the
 * second picture (scan, encode, compress; getrusage of this process), the size of each
 * section of the snapshot encoding on its own (raw and deflated at level 6), and the size of
 * the second picture as the recording writer stores it after the first. With two snapshot
 * files as arguments (pagescope-cli snapshot), those instead of scans: the same pair again.
 */

#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include <glib/gstdio.h>

#include <gio/gio.h>
#include <pagescope.h>

#include "pgs-delta.h"
#include "pgs-process-private.h"
#include "pgs-recording-format.h"
#include "pgs-snapshot-format.h"
#include "pgs-snapshot-private.h"

static double
cpu_now (void)
{
  struct rusage ru;

  getrusage (RUSAGE_SELF, &ru);
  return ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

static double
sys_now (void)
{
  struct rusage ru;

  getrusage (RUSAGE_SELF, &ru);
  return ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

static gsize
deflated (const void *data,
          gsize       len,
          int         level)
{
  g_autoptr(GZlibCompressor) z = g_zlib_compressor_new (G_ZLIB_COMPRESSOR_FORMAT_ZLIB, level);
  gsize room = len + len / 10 + 1024, total = 0;
  g_autofree guint8 *out = g_malloc (room);
  const guint8 *in = data;

  for (;;)
    {
      gsize read = 0, written = 0;
      GConverterResult r = g_converter_convert (G_CONVERTER (z), in, len, out + total, room - total,
                                                G_CONVERTER_INPUT_AT_END, &read, &written, NULL);

      in += read;
      len -= read;
      total += written;
      if (r != G_CONVERTER_CONVERTED)
        break;
    }
  return total;
}

/* @v with no physical map. */
static GBytes *
without_physmap (GBytes *v)
{
  g_autoptr(GVariant) p = g_variant_new_from_bytes (G_VARIANT_TYPE (PGS_SNAPSHOT_TYPE), v, TRUE);
  g_autoptr(GVariant) meta = g_variant_get_child_value (p, 0);
  g_autoptr(GVariant) procs = g_variant_get_child_value (p, 1);
  g_autoptr(GVariant) skipped = g_variant_get_child_value (p, 2);
  g_autoptr(GVariant) out = g_variant_ref_sink (g_variant_new ("(@a{sv}@a" PGS_SNAPSHOT_PROCESS_TYPE "@a"
                                                               PGS_SNAPSHOT_SKIPPED_TYPE "@" PGS_SNAPSHOT_PHYSMAP_TYPE ")",
                                                               meta, procs, skipped,
                                                               g_variant_new_maybe (G_VARIANT_TYPE ("(tauataumaymay)"), NULL)));

  return g_variant_get_data_as_bytes (out);
}

/* The difference of @b from @a (and of @a from the empty picture: a key picture) in the
 * recording format's versions 2 and 3, deflated, with the CPU of each. */
static void
versions (GBytes     *a,
          GBytes     *b,
          const char *what)
{
  g_autoptr(GBytes) empty = _pgs_picture_empty ();

  for (guint ver = 2; ver <= 3; ver++)
    {
      g_autoptr(GByteArray) key = g_byte_array_new ();
      g_autoptr(GByteArray) diff = g_byte_array_new ();
      g_autoptr(GBytes) back = NULL;
      double t0, t1, t2;

      _pgs_picture_diff_encode_version (empty, a, ver, key);
      t0 = cpu_now ();
      _pgs_picture_diff_encode_version (a, b, ver, diff);
      t1 = cpu_now ();
      back = _pgs_picture_diff_apply_version (a, diff->data, diff->len, g_bytes_get_size (b), ver, NULL);
      t2 = cpu_now ();
      g_assert_true (back != NULL && g_bytes_equal (back, b));
      printf ("format version %u, %s: key picture %zu bytes, difference %zu bytes deflated(6) (%u raw), "
              "encoded in %.3f s, read in %.3f s\n", ver, what, deflated (key->data, key->len, 6),
              deflated (diff->data, diff->len, 6), diff->len, t1 - t0, t2 - t1);
    }
}

static guint64
process_key (GVariant *q)
{
  gint32 pid;
  guint64 start;

  g_variant_get_child (q, 0, "i", &pid);
  g_variant_get_child (q, 3, "t", &start);
  return start << 23 ^ (guint32) pid;
}

/* @v with only the processes (PID, start time) that @other, an array of processes, holds. */
static GBytes *
only_common (GBytes   *v,
             GVariant *other)
{
  g_autoptr(GVariant) p = g_variant_new_from_bytes (G_VARIANT_TYPE (PGS_SNAPSHOT_TYPE), v, TRUE);
  g_autoptr(GVariant) meta = g_variant_get_child_value (p, 0);
  g_autoptr(GVariant) procs = g_variant_get_child_value (p, 1);
  g_autoptr(GVariant) skipped = g_variant_get_child_value (p, 2);
  g_autoptr(GVariant) physmap = g_variant_get_child_value (p, 3);
  g_autoptr(GHashTable) keys = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  g_autoptr(GVariant) out = NULL;
  GVariantBuilder b;

  for (gsize i = 0; i < g_variant_n_children (other); i++)
    {
      g_autoptr(GVariant) q = g_variant_get_child_value (other, i);
      guint64 *key = g_new (guint64, 1);

      *key = process_key (q);
      g_hash_table_add (keys, key);
    }
  g_variant_builder_init (&b, G_VARIANT_TYPE ("a" PGS_SNAPSHOT_PROCESS_TYPE));
  for (gsize i = 0; i < g_variant_n_children (procs); i++)
    {
      g_autoptr(GVariant) q = g_variant_get_child_value (procs, i);
      guint64 key = process_key (q);

      if (g_hash_table_contains (keys, &key))
        g_variant_builder_add_value (&b, q);
    }
  out = g_variant_ref_sink (g_variant_new ("(@a{sv}@a" PGS_SNAPSHOT_PROCESS_TYPE "@a" PGS_SNAPSHOT_SKIPPED_TYPE
                                           "@" PGS_SNAPSHOT_PHYSMAP_TYPE ")",
                                           meta, g_variant_builder_end (&b), skipped, physmap));
  return g_variant_get_data_as_bytes (out);
}

typedef struct
{
  const char *name;
  GByteArray *bytes;
} Section;

static void
report (Section *s,
        guint    n)
{
  for (guint i = 0; i < n; i++)
    printf ("  %-28s %10u raw %10zu deflated(6) %10zu deflated(1)\n", s[i].name, s[i].bytes->len,
            deflated (s[i].bytes->data, s[i].bytes->len, 6), deflated (s[i].bytes->data, s[i].bytes->len, 1));
}

static void
sections (PgsSnapshot *snap)
{
  GPtrArray *procs = _pgs_snapshot_get_processes (snap);
  PgsPhysMap *pm = pgs_snapshot_get_physmap (snap);
  Section s[] = {
    { "process fields", g_byte_array_new () },
    { "mappings", g_byte_array_new () },
    { "page runs", g_byte_array_new () },
    { "pagemap entries (deltas)", g_byte_array_new () },
    { "map counts", g_byte_array_new () },
    { "physmap lengths", g_byte_array_new () },
    { "physmap flags", g_byte_array_new () },
    { "physmap counts", g_byte_array_new () },
  };
  guint64 pages = 0, maps = 0, runs = 0;

  for (guint i = 0; i < procs->len; i++)
    {
      PgsProcess *p = g_ptr_array_index (procs, i);
      guint64 prev = 0;

      g_byte_array_append (s[0].bytes, (guint8 *) &p->pid, 4);
      g_byte_array_append (s[0].bytes, (guint8 *) &p->vss, 8 * 6);
      for (guint m = 0; p->mappings != NULL && m < p->mappings->len; m++)
        {
          PgsMappingData *md = &g_array_index (p->mappings, PgsMappingData, m);

          g_byte_array_append (s[1].bytes, (guint8 *) md, 4 * 8 + 8);
          g_byte_array_append (s[1].bytes, (guint8 *) md->path, strlen (md->path) + 1);
          g_byte_array_append (s[1].bytes, (guint8 *) &md->rss, 8 * 4);
          maps++;
        }
      if (p->runs == NULL)
        continue;
      g_byte_array_append (s[2].bytes, (guint8 *) p->runs->data, p->runs->len * sizeof (PgsPageRun));
      runs += p->runs->len;
      for (gsize k = 0; k < p->n_pages; k++)
        {
          guint64 d = p->entries[k] - prev;

          prev = p->entries[k];
          g_byte_array_append (s[3].bytes, (guint8 *) &d, 8);
        }
      if (p->counts != NULL)
        g_byte_array_append (s[4].bytes, (guint8 *) p->counts, 4 * p->n_pages);
      pages += p->n_pages;
    }
  if (pm != NULL)
    for (guint64 r = 0; r < pgs_physmap_get_n_runs (pm); r++)
      {
        guint64 len, f;
        guint32 c, l;

        pgs_physmap_get_run (pm, r, NULL, &len, &c, &f);
        l = (guint32) len;
        g_byte_array_append (s[5].bytes, (guint8 *) &l, 4);
        g_byte_array_append (s[6].bytes, (guint8 *) &f, 8);
        g_byte_array_append (s[7].bytes, (guint8 *) &c, 4);
      }
  printf ("%u processes, %" G_GUINT64_FORMAT " mappings, %" G_GUINT64_FORMAT " page runs, %" G_GUINT64_FORMAT
          " pages, %" G_GUINT64_FORMAT " physmap runs of %" G_GUINT64_FORMAT " frames\n",
          procs->len, maps, runs, pages, pm != NULL ? pgs_physmap_get_n_runs (pm) : 0,
          pm != NULL ? pgs_physmap_get_n_frames (pm) : 0);
  report (s, G_N_ELEMENTS (s));
  for (guint i = 0; i < G_N_ELEMENTS (s); i++)
    g_byte_array_unref (s[i].bytes);
}

static PgsSnapshot *
picture (PgsScanner *scanner)
{
  g_autoptr(GError) error = NULL;
  PgsSnapshot *snap;

  pgs_scanner_set_flags (scanner, PGS_SCAN_MAPPINGS | PGS_SCAN_PAGES | PGS_SCAN_PHYSMAP);
  snap = pgs_scanner_scan (scanner, NULL, &error);
  if (snap == NULL)
    g_error ("scan: %s", error->message);
  return snap;
}

int
main (int   argc,
      char *argv[])
{
  const char *gap_env = g_getenv ("PGS_BENCH_GAP");
  guint gap = gap_env != NULL ? (guint) atoi (gap_env) : 60;
  g_autoptr(PgsScanner) scanner = pgs_scanner_new ();
  g_autoptr(PgsSnapshot) a = NULL;
  g_autoptr(PgsSnapshot) b = NULL;
  g_autoptr(GBytes) va = NULL;
  g_autoptr(GBytes) vb = NULL;
  g_autoptr(PgsRecordingWriter) w = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("pgs-bench-picture-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "p.pgrec", NULL);
  PgsRecordingSetup setup = { 1000, 60000, TRUE, "UTC", NULL };
  double t0, t1;
  guint64 before;

  if (argc == 3)
    {
      /* Two snapshot files instead (pagescope-cli snapshot): the same pair again and again. */
      g_autoptr(GFile) fa = g_file_new_for_commandline_arg (argv[1]);
      g_autoptr(GFile) fb = g_file_new_for_commandline_arg (argv[2]);

      a = pgs_snapshot_load (fa, NULL, &error);
      g_assert_no_error (error);
      b = pgs_snapshot_load (fb, NULL, &error);
      g_assert_no_error (error);
      gap = 0;
      goto loaded;
    }
  a = picture (scanner);
  g_usleep ((gulong) gap * G_USEC_PER_SEC);
  t0 = cpu_now ();
  pgs_scanner_set_flags (scanner, PGS_SCAN_MAPPINGS);
  g_clear_object (&b);
  b = pgs_scanner_scan (scanner, NULL, NULL);
  t1 = cpu_now ();
  printf ("CPU: scan, mappings only %.3f s\n", t1 - t0);
  pgs_scanner_set_flags (scanner, PGS_SCAN_MAPPINGS | PGS_SCAN_PAGES);
  g_clear_object (&b);
  t0 = cpu_now ();
  b = pgs_scanner_scan (scanner, NULL, NULL);
  t1 = cpu_now ();
  printf ("CPU: scan, mappings + pages %.3f s\n", t1 - t0);
  g_clear_object (&b);
  t0 = cpu_now ();
  {
    double s0 = sys_now ();

    b = picture (scanner);
    t1 = cpu_now ();
    printf ("CPU: scan, mappings + pages + physmap %.3f s (%.3f s in the kernel)\n", t1 - t0, sys_now () - s0);
  }
loaded:
  t0 = cpu_now ();
  va = _pgs_snapshot_encode (a);
  vb = _pgs_snapshot_encode (b);
  t1 = cpu_now ();
  printf ("CPU: encode %.3f s a picture; GVariant %zu bytes, deflated(6) %zu, deflated(1) %zu\n", (t1 - t0) / 2,
          g_bytes_get_size (vb), deflated (g_bytes_get_data (vb, NULL), g_bytes_get_size (vb), 6),
          deflated (g_bytes_get_data (vb, NULL), g_bytes_get_size (vb), 1));
  sections (b);

  {
    g_autoptr(GByteArray) diff = g_byte_array_new ();
    static const int levels[] = { 1, 3, 6, 9 };

    {
      g_autoptr(GBytes) empty = _pgs_picture_empty ();
      g_autoptr(GByteArray) from_empty = g_byte_array_new ();

      t0 = cpu_now ();
      _pgs_picture_diff_encode (empty, vb, from_empty);
      t1 = cpu_now ();
      printf ("difference from an empty picture: %u bytes raw in %.3f s, deflated(6) %zu, (1) %zu\n", from_empty->len,
              t1 - t0, deflated (from_empty->data, from_empty->len, 6), deflated (from_empty->data, from_empty->len, 1));
    }
    {
      g_autoptr(GByteArray) block = g_byte_array_new ();

      t0 = cpu_now ();
      pgs_delta_encode (g_bytes_get_data (va, NULL), g_bytes_get_size (va), g_bytes_get_data (vb, NULL),
                        g_bytes_get_size (vb), block);
      t1 = cpu_now ();
      printf ("block difference (format version 1): %u bytes raw in %.3f s, deflated(6) %zu\n", block->len, t1 - t0,
              deflated (block->data, block->len, 6));
    }
    t0 = cpu_now ();
    _pgs_picture_diff_encode (va, vb, diff);
    t1 = cpu_now ();
    printf ("structural difference: %u bytes raw in %.3f s\n", diff->len, t1 - t0);
    for (guint i = 0; i < G_N_ELEMENTS (levels); i++)
      {
        gsize d, k;
        double t2;

        t0 = cpu_now ();
        d = deflated (diff->data, diff->len, levels[i]);
        t1 = cpu_now ();
        k = deflated (g_bytes_get_data (vb, NULL), g_bytes_get_size (vb), levels[i]);
        t2 = cpu_now ();
        printf ("  level %d: difference %zu bytes in %.3f s, GVariant (version 1's key) %zu bytes in %.3f s\n", levels[i], d, t1 - t0, k, t2 - t1);
      }
  }
  {
    /* The difference with the physical maps left out: what the processes cost. */
    g_autoptr(GBytes) na = without_physmap (va);
    g_autoptr(GBytes) nb = without_physmap (vb);
    g_autoptr(GByteArray) diff = g_byte_array_new ();
    g_autoptr(GVariant) pa = g_variant_new_from_bytes (G_VARIANT_TYPE (PGS_SNAPSHOT_TYPE), va, TRUE);
    g_autoptr(GVariant) pb = g_variant_new_from_bytes (G_VARIANT_TYPE (PGS_SNAPSHOT_TYPE), vb, TRUE);
    g_autoptr(GVariant) la = g_variant_get_child_value (pa, 1);
    g_autoptr(GVariant) lb = g_variant_get_child_value (pb, 1);
    g_autoptr(GHashTable) old = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, (GDestroyNotify) g_variant_unref);
    guint same = 0, changed = 0, fresh = 0;
    gsize fresh_bytes = 0, changed_bytes = 0;

    _pgs_picture_diff_encode (na, nb, diff);
    printf ("  of which processes and metadata: %zu bytes deflated(6)\n", deflated (diff->data, diff->len, 6));
    for (gsize i = 0; i < g_variant_n_children (la); i++)
      {
        GVariant *p = g_variant_get_child_value (la, i);
        gint32 pid;
        guint64 start, *key = g_new (guint64, 1);

        g_variant_get_child (p, 0, "i", &pid);
        g_variant_get_child (p, 3, "t", &start);
        *key = start << 23 ^ (guint32) pid;
        g_hash_table_insert (old, key, p);
      }
    for (gsize i = 0; i < g_variant_n_children (lb); i++)
      {
        g_autoptr(GVariant) p = g_variant_get_child_value (lb, i);
        gint32 pid;
        guint64 start, key;
        GVariant *q;

        g_variant_get_child (p, 0, "i", &pid);
        g_variant_get_child (p, 3, "t", &start);
        key = start << 23 ^ (guint32) pid;
        q = g_hash_table_lookup (old, &key);
        if (q == NULL)
          fresh++, fresh_bytes += g_variant_get_size (p);
        else if (g_variant_equal (p, q))
          same++;
        else
          changed++, changed_bytes += g_variant_get_size (p);
      }
    printf ("  processes: %u the same, %u changed (%zu bytes), %u new (%zu bytes)\n", same, changed, changed_bytes,
            fresh, fresh_bytes);
    versions (va, vb, "whole");
    {
      /* The machine at rest, as near as a busy one gives it: only the processes of both. */
      g_autoptr(GBytes) ka = only_common (va, lb);
      g_autoptr(GBytes) kb = only_common (vb, la);

      versions (ka, kb, "processes of both only");
    }
  }
  w = pgs_recording_writer_new (path, &setup, &error);
  g_assert_no_error (error);
  {
    g_autoptr(PgsSample) sample = pgs_sample_new ();

    sample->time = pgs_snapshot_get_time (a);
    g_assert_true (pgs_recording_writer_add_sample (w, sample, &error));
  }
  t0 = cpu_now ();
  before = pgs_recording_writer_get_size (w);
  g_assert_true (pgs_recording_writer_add_picture (w, a, pgs_snapshot_get_time (a), &error));
  t1 = cpu_now ();
  printf ("writer: key picture %" G_GUINT64_FORMAT " bytes, %.3f s CPU\n",
          pgs_recording_writer_get_size (w) - before, t1 - t0);
  before = pgs_recording_writer_get_size (w);
  t0 = cpu_now ();
  g_assert_true (pgs_recording_writer_add_picture (w, b, pgs_snapshot_get_time (b), &error));
  t1 = cpu_now ();
  printf ("writer: next picture (%u s later) %" G_GUINT64_FORMAT " bytes, %.3f s CPU\n", gap,
          pgs_recording_writer_get_size (w) - before, t1 - t0);
  g_assert_true (pgs_recording_writer_close (w, &error));

  /* What the reader gives back is what was scanned. */
  {
    g_autoptr(GFile) file = g_file_new_for_path (path);
    g_autoptr(PgsRecording) rec = pgs_recording_open (file, NULL, &error);
    g_autoptr(PgsSnapshot) back = NULL;
    g_autoptr(GBytes) vback = NULL;
    g_autoptr(PgsSnapshot) again_outer = _pgs_snapshot_decode (vb, PGS_SNAPSHOT_MAX_FRAMES, NULL);
    g_autoptr(GBytes) vagain_outer = _pgs_snapshot_encode (again_outer);

    g_assert_no_error (error);
    t0 = cpu_now ();
    back = pgs_recording_get_picture (rec, 1, &error);
    t1 = cpu_now ();
    g_assert_no_error (error);
    vback = _pgs_snapshot_encode (back);
    {
      g_autoptr(PgsSnapshot) again = _pgs_snapshot_decode (vb, PGS_SNAPSHOT_MAX_FRAMES, NULL);
      g_autoptr(GBytes) vagain = _pgs_snapshot_encode (again);
      const guint8 *x = g_bytes_get_data (vagain, NULL), *y = g_bytes_get_data (vb, NULL);
      gsize at = 0;

      while (at < MIN (g_bytes_get_size (vagain), g_bytes_get_size (vb)) && x[at] == y[at])
        at++;
      printf ("decode + encode of the scanned picture: %zu against %zu bytes, first difference at %zu\n",
              g_bytes_get_size (vagain), g_bytes_get_size (vb), at);
    }
    printf ("reader: picture 1 in %.3f s CPU, %s\n", t1 - t0,
            g_bytes_equal (vback, vagain_outer) ? "same as scanned" : "DIFFERENT FROM SCANNED");
  }
  g_unlink (path);
  g_rmdir (dir);
  return 0;
}
