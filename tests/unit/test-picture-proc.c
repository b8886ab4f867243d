/* test-picture-proc.c: a picture's processes as predicted pages (recording format 3), by hand
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Two tiny pictures built by hand (not by the scanner), whose difference's page streams are
 * worked out below byte by byte from pgs-picture-proc.c's rules.
 */

#include "config.h"

#include <string.h>

#include <pagescope.h>

#include "pgs-pagemap.h"
#include "pgs-picture-diff.h"
#include "pgs-recording-format.h"
#include "pgs-snapshot-format.h"

#define FILE_PAGE (PGS_PM_PRESENT | PGS_PM_FILE)
#define ANON_EXCL (PGS_PM_PRESENT | PGS_PM_EXCLUSIVE)

typedef struct
{
  guint64 start, end, offset, inode;
} Map;

typedef struct
{
  guint64 start;
  guint32 n_pages, first, mapping;
} Run;

/* A process as the snapshot format holds it: entries given absolute here, stored as
 * differences from the one before, as the encoder stores them. */
static GVariant *
process (gint32         pid,
         guint64        start_time,
         const Map     *maps,
         guint          n_maps,
         const Run     *runs,
         guint          n_runs,
         const guint64 *entries,
         const guint32 *counts,
         guint          n)
{
  GVariantBuilder mb, rb;
  guint64 delta[8], prev = 0;

  g_assert_cmpuint (n, <=, G_N_ELEMENTS (delta));
  g_variant_builder_init (&mb, G_VARIANT_TYPE ("a" PGS_SNAPSHOT_MAPPING_TYPE));
  for (guint i = 0; i < n_maps; i++)
    g_variant_builder_add (&mb, "(ttttuu^ay^ayttttut)", maps[i].start, maps[i].end, maps[i].offset,
                           maps[i].inode, 8u, maps[i].inode != 0 ? 1u : 0u, "r--p",
                           maps[i].inode != 0 ? "/usr/lib/libx.so" : "", (guint64) 0, (guint64) 0,
                           (guint64) 0, (guint64) 0, (guint64) 0, 0u);
  g_variant_builder_init (&rb, G_VARIANT_TYPE ("a" PGS_SNAPSHOT_RUN_TYPE));
  for (guint i = 0; i < n_runs; i++)
    g_variant_builder_add (&rb, PGS_SNAPSHOT_RUN_TYPE, runs[i].start, runs[i].n_pages, runs[i].first,
                           runs[i].mapping, 0u);
  for (guint i = 0; i < n; i++)
    {
      delta[i] = entries[i] - prev;
      prev = entries[i];
    }
  return g_variant_ref_sink (g_variant_new ("(iiut@may@may@mayttttttuu@mayubb@a" PGS_SNAPSHOT_MAPPING_TYPE
                                            "@a" PGS_SNAPSHOT_RUN_TYPE "@atb@au@may)",
                                            pid, 1, 0u, start_time,
                                            g_variant_new_maybe (G_VARIANT_TYPE_BYTESTRING, NULL),
                                            g_variant_new_maybe (NULL, g_variant_new_bytestring ("x")),
                                            g_variant_new_maybe (G_VARIANT_TYPE_BYTESTRING, NULL),
                                            (guint64) 0, (guint64) 0, (guint64) 0, (guint64) 0, (guint64) 0,
                                            (guint64) 0, 0u, 0u,
                                            g_variant_new_maybe (G_VARIANT_TYPE_BYTESTRING, NULL),
                                            4096u, FALSE, TRUE,
                                            g_variant_builder_end (&mb), g_variant_builder_end (&rb),
                                            g_variant_new_fixed_array (G_VARIANT_TYPE_UINT64, delta, n, 8),
                                            TRUE, g_variant_new_fixed_array (G_VARIANT_TYPE_UINT32, counts, n, 4),
                                            g_variant_new_maybe (G_VARIANT_TYPE_BYTESTRING, NULL)));
}

/* Serialised, as a picture's are: each process's entries then lie inside its bytes. */
static GVariant *
processes (GVariant **p,
           guint      n)
{
  g_autoptr(GVariant) tree = g_variant_ref_sink (g_variant_new_array (G_VARIANT_TYPE (PGS_SNAPSHOT_PROCESS_TYPE), p, n));
  g_autoptr(GBytes) bytes = g_variant_get_data_as_bytes (tree);

  return g_variant_ref_sink (g_variant_new_from_bytes (G_VARIANT_TYPE ("a" PGS_SNAPSHOT_PROCESS_TYPE), bytes, TRUE));
}

/* The physical map of the second picture: frames 0-49 count 0, 50-51 count 2, 52-899
 * count 0, 900 count 1. */
static GVariant *
physmap (void)
{
  static const guint32 lengths[] = { 50, 2, 848, 1 };
  static const guint64 flags[] = { 0, 0, 0, 0 };
  static const guint32 counts[] = { 0, 2, 0, 1 };

  return g_variant_ref_sink (g_variant_new ("(t@au@at@au@may@may)", (guint64) 901,
                                            g_variant_new_fixed_array (G_VARIANT_TYPE_UINT32, lengths, 4, 4),
                                            g_variant_new_fixed_array (G_VARIANT_TYPE_UINT64, flags, 4, 8),
                                            g_variant_new_fixed_array (G_VARIANT_TYPE_UINT32, counts, 4, 4),
                                            g_variant_new_maybe (G_VARIANT_TYPE_BYTESTRING, NULL),
                                            g_variant_new_maybe (G_VARIANT_TYPE_BYTESTRING, NULL)));
}

/* The four streams of an encoding. */
static void
streams (GByteArray   *out,
         guint64       n_expected,
         PgsVarReader  st[4])
{
  PgsVarReader r = { out->data, out->data + out->len, FALSE };

  g_assert_cmpuint (_pgs_get_varint (&r), ==, n_expected);
  for (guint k = 0; k < 4; k++)
    {
      guint64 len = _pgs_get_varint (&r);

      g_assert_false (r.bad);
      g_assert_cmpuint (len, <=, (guint64) (r.end - r.pos));
      st[k] = (PgsVarReader) { r.pos, r.pos + len, FALSE };
      r.pos += len;
    }
  g_assert_true (r.pos == r.end);
}

static void
assert_stream (const PgsVarReader *st,
               const guint8       *bytes,
               gsize               len)
{
  g_assert_cmpmem (st->pos, st->end - st->pos, bytes, len);
}

static void
round_trip (GVariant   *old,
            GVariant   *cur,
            GVariant   *inner,
            GByteArray *out)
{
  g_autoptr(GError) error = NULL;
  PgsVarReader r = { out->data, out->data + out->len, FALSE };
  guint64 budget = g_variant_get_size (cur);
  g_autoptr(GVariant) back = _pgs_picture_procs_apply (&r, old, inner, NULL, &budget, &error);

  g_assert_no_error (error);
  g_assert_nonnull (back);
  g_assert_true (r.pos == r.end);
  g_assert_cmpmem (g_variant_get_data (back), g_variant_get_size (back), g_variant_get_data (cur),
                   g_variant_get_size (cur));
  /* Cut anywhere, it is refused, never read past its end. */
  for (gsize cut = 0; cut < out->len; cut++)
    {
      g_autoptr(GError) e = NULL;
      PgsVarReader c = { out->data, out->data + cut, FALSE };
      guint64 b = g_variant_get_size (cur);
      g_autoptr(GVariant) none = _pgs_picture_procs_apply (&c, old, inner, NULL, &b, &e);

      g_assert_null (none);
      g_assert_nonnull (e);
    }
}

/* P (PID 10) maps two pages of a library, frames 50 and 51, in both pictures. Q (PID 11)
 * is new in the second: the same two library pages at other addresses, then an anonymous
 * page at frame 900.
 *
 *   P: the same bytes as before: procs 04 00 (identical, index gap 0), no pages.
 *   Q: new (procs 00 …); its pages:
 *     page 0, library offset 0: the last entry seen for (8:1, inode 7, offset 0) is P's
 *       PRESENT|FILE|50: flags 00, low 00;
 *     page 1, offset 4096: P's PRESENT|FILE|51: 00, 00;
 *     page 2, anonymous: the entry before plus one, PRESENT|FILE|52; the entry is
 *       PRESENT|EXCLUSIVE|900: flags (FILE ^ EXCLUSIVE) >> 55 = 2^6 + 2^1 = 66 = 0x42,
 *       low 900 − 52 = 848, zigzag 1696 = 0x6a0: varint a0 0d.
 *     counts 2, 3, 1 against the predictions 2 (frame 50 in the map), 2 (frame 51) and 1
 *       (exclusive): 0, +1 (zigzag 02), 0. */
static void
test_new_process (void)
{
  static const Map p_maps[] = { { 0x1000, 0x3000, 0, 7 } };
  static const Run p_runs[] = { { 0x1000, 2, 0, 0 } };
  static const guint64 p_entries[] = { FILE_PAGE | 50, FILE_PAGE | 51 };
  static const guint32 p_counts[] = { 2, 2 };
  static const Map q_maps[] = { { 0x7000, 0x9000, 0, 7 }, { 0x20000, 0x21000, 0, 0 } };
  static const Run q_runs[] = { { 0x7000, 2, 0, 0 }, { 0x20000, 1, 2, 1 } };
  static const guint64 q_entries[] = { FILE_PAGE | 50, FILE_PAGE | 51, ANON_EXCL | 900 };
  static const guint32 q_counts[] = { 2, 3, 1 };
  static const guint8 flags[] = { 0x00, 0x00, 0x42 };
  static const guint8 lows[] = { 0x00, 0x00, 0xa0, 0x0d };
  static const guint8 counts[] = { 0x00, 0x02, 0x00 };
  g_autoptr(GVariant) p = process (10, 100, p_maps, 1, p_runs, 1, p_entries, p_counts, 2);
  g_autoptr(GVariant) q = process (11, 200, q_maps, 2, q_runs, 2, q_entries, q_counts, 3);
  GVariant *before_list[] = { p }, *after_list[] = { p, q };
  g_autoptr(GVariant) before = processes (before_list, 1);
  g_autoptr(GVariant) after = processes (after_list, 2);
  g_autoptr(GVariant) inner = physmap ();
  g_autoptr(GByteArray) out = g_byte_array_new ();
  PgsVarReader st[4];

  _pgs_picture_procs_encode (before, after, inner, NULL, out);
  streams (out, 2, st);
  g_assert_cmpuint (st[0].pos[0], ==, 4);
  g_assert_cmpuint (st[0].pos[1], ==, 0);
  g_assert_cmpuint (st[0].pos[2], ==, 0);
  assert_stream (&st[1], flags, sizeof flags);
  assert_stream (&st[2], lows, sizeof lows);
  assert_stream (&st[3], counts, sizeof counts);
  round_trip (before, after, inner, out);
}

/* P gains a third page of its library, at 0x3000, frame 52; the rest of P (runs, framing)
 * keeps its size, so it is XOR'd (op 2, index gap 0). Pages 0 and 1 are the entries at
 * the same addresses before: 00 00 each; page 2 has none before and its file page was seen
 * nowhere, so it is the entry before plus one, PRESENT|FILE|52, exactly: 00 00. Counts 2, 2,
 * 0 against 2, 2 and frame 52's 0: 00 00 00. */
static void
test_grown_process (void)
{
  static const Map maps[] = { { 0x1000, 0x4000, 0, 7 } };
  static const Run runs_a[] = { { 0x1000, 2, 0, 0 } };
  static const Run runs_b[] = { { 0x1000, 3, 0, 0 } };
  static const guint64 entries[] = { FILE_PAGE | 50, FILE_PAGE | 51, FILE_PAGE | 52 };
  static const guint32 counts_a[] = { 2, 2 };
  static const guint32 counts_b[] = { 2, 2, 0 };
  static const guint8 zeros[] = { 0, 0, 0 };
  g_autoptr(GVariant) a = process (10, 100, maps, 1, runs_a, 1, entries, counts_a, 2);
  g_autoptr(GVariant) b = process (10, 100, maps, 1, runs_b, 1, entries, counts_b, 3);
  g_autoptr(GVariant) before = processes (&a, 1);
  g_autoptr(GVariant) after = processes (&b, 1);
  g_autoptr(GVariant) inner = physmap ();
  g_autoptr(GByteArray) out = g_byte_array_new ();
  PgsVarReader st[4];

  _pgs_picture_procs_encode (before, after, inner, NULL, out);
  streams (out, 1, st);
  g_assert_cmpuint (st[0].pos[0], ==, 2);
  g_assert_cmpuint (st[0].pos[1], ==, 0);
  assert_stream (&st[1], zeros, 3);
  assert_stream (&st[2], zeros, 3);
  assert_stream (&st[3], zeros, 3);
  round_trip (before, after, inner, out);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/pgs/picture-proc/new-process", test_new_process);
  g_test_add_func ("/pgs/picture-proc/grown-process", test_grown_process);
  return g_test_run ();
}
