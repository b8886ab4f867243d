/* pgs-test-snapshot.c
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <gio/gio.h>

#include "pgs-snapshot-format.h"
#include "pgs-test-snapshot.h"

static GVariant *
maybe_bytestring (const char *s)
{
  return g_variant_new_maybe (G_VARIANT_TYPE_BYTESTRING, s != NULL ? g_variant_new_bytestring (s) : NULL);
}

static GVariant *
process_variant (const PgsTestProcess *p)
{
  GVariantBuilder mappings, runs;

  g_variant_builder_init (&mappings, G_VARIANT_TYPE ("a" PGS_SNAPSHOT_MAPPING_TYPE));
  for (guint i = 0; i < p->n_mappings; i++)
    {
      const PgsTestMapping *m = &p->mappings[i];

      /* ^ay: a C string as a bytestring. */
      g_variant_builder_add (&mappings, "(ttttuu^ay^ayttttut)", m->start, m->end, m->offset, m->inode,
                             m->dev_major, m->dev_minor, m->perms != NULL ? m->perms : "rw-p",
                             m->path != NULL ? m->path : "", m->rss, m->pss_fp, m->uss, m->swap,
                             m->known, m->swap_pss);
    }
  g_variant_builder_init (&runs, G_VARIANT_TYPE ("a" PGS_SNAPSHOT_RUN_TYPE));
  for (guint i = 0; i < p->n_runs; i++)
    g_variant_builder_add (&runs, PGS_SNAPSHOT_RUN_TYPE, p->runs[i].start, p->runs[i].n_pages,
                           p->runs[i].first, p->runs[i].mapping, p->runs[i].flags);

  return g_variant_new ("(iiut@may@may@mayttttttuu@mayubb@a" PGS_SNAPSHOT_MAPPING_TYPE
                        "@a" PGS_SNAPSHOT_RUN_TYPE "@atb@au@may)",
                        p->pid, p->ppid, p->uid, p->start_time,
                        maybe_bytestring (p->user), maybe_bytestring (p->name), maybe_bytestring (p->cmdline),
                        p->vss, p->rss, p->pss_fp, p->uss, p->swap, p->swap_pss,
                        p->known, p->source, maybe_bytestring (p->unknown_reason),
                        p->page_size != 0 ? p->page_size : 4096, p->pfn_hidden, p->has_pages,
                        g_variant_builder_end (&mappings), g_variant_builder_end (&runs),
                        g_variant_new_fixed_array (G_VARIANT_TYPE_UINT64, p->deltas, p->n_deltas, 8),
                        p->has_counts,
                        g_variant_new_fixed_array (G_VARIANT_TYPE_UINT32, p->counts, p->n_counts, 4),
                        maybe_bytestring (p->cgroup));
}

GBytes *
pgs_test_snapshot_payload (const PgsTestProcess *procs,
                           guint                 n_procs,
                           guint64               physmap_n_frames,
                           const guint32        *run_lengths,
                           const guint64        *run_flags,
                           const guint32        *run_counts,
                           gsize                 n_runs)
{
  GVariantBuilder meta, processes;
  GVariant *physmap = NULL;
  g_autoptr(GVariant) v = NULL;

  g_variant_builder_init (&meta, G_VARIANT_TYPE_VARDICT);
  g_variant_builder_add (&meta, "{sv}", "time", g_variant_new_int64 (G_GINT64_CONSTANT (1700000000000000)));
  g_variant_builder_add (&meta, "{sv}", "page-size", g_variant_new_uint32 (4096));
  g_variant_builder_add (&meta, "{sv}", "privileged", g_variant_new_boolean (TRUE));
  g_variant_builder_add (&meta, "{sv}", "hostname", g_variant_new_bytestring ("hostile"));
  g_variant_builder_init (&processes, G_VARIANT_TYPE ("a" PGS_SNAPSHOT_PROCESS_TYPE));
  for (guint i = 0; i < n_procs; i++)
    g_variant_builder_add_value (&processes, process_variant (&procs[i]));
  if (physmap_n_frames != 0)
    physmap = g_variant_new ("(t@au@at@aumaymay)", physmap_n_frames,
                             g_variant_new_fixed_array (G_VARIANT_TYPE_UINT32, run_lengths, n_runs, 4),
                             g_variant_new_fixed_array (G_VARIANT_TYPE_UINT64, run_flags, n_runs, 8),
                             g_variant_new_fixed_array (G_VARIANT_TYPE_UINT32, run_counts, n_runs, 4),
                             NULL, NULL);

  v = g_variant_ref_sink (g_variant_new ("(@a{sv}@a" PGS_SNAPSHOT_PROCESS_TYPE "@a" PGS_SNAPSHOT_SKIPPED_TYPE
                                         "@" PGS_SNAPSHOT_PHYSMAP_TYPE ")",
                                         g_variant_builder_end (&meta),
                                         g_variant_builder_end (&processes),
                                         g_variant_new_array (G_VARIANT_TYPE (PGS_SNAPSHOT_SKIPPED_TYPE), NULL, 0),
                                         g_variant_new_maybe (G_VARIANT_TYPE ("(tauataumaymay)"), physmap)));
  if (G_BYTE_ORDER == G_BIG_ENDIAN)
    {
      GVariant *swapped = g_variant_byteswap (v);

      g_variant_unref (v);
      v = swapped;
    }
  return g_variant_get_data_as_bytes (v);
}

GBytes *
pgs_test_snapshot_file_raw (const guint8 *compressed,
                            gsize         len,
                            guint64       plain_size)
{
  g_autoptr(GChecksum) sum = g_checksum_new (G_CHECKSUM_SHA256);
  guint8 *data = g_malloc (64 + len);
  gsize digest_len = 32;
  guint64 v;
  guint32 version = GUINT32_TO_LE (1);

  memset (data, 0, 64);
  memcpy (data, "PGSNAP\r\n", 8);
  memcpy (data + 8, &version, 4);
  v = GUINT64_TO_LE ((guint64) len);
  memcpy (data + 16, &v, 8);
  v = GUINT64_TO_LE (plain_size);
  memcpy (data + 24, &v, 8);
  memcpy (data + 64, compressed, len);
  g_checksum_update (sum, data, 32);
  g_checksum_update (sum, data + 64, len);
  g_checksum_get_digest (sum, data + 32, &digest_len);
  return g_bytes_new_take (data, 64 + len);
}

/* Runs @z over @in (all of it) with @flags, appending to @out. */
static void
feed (GConverter      *z,
      const guint8    *in,
      gsize            len,
      GConverterFlags  flags,
      GByteArray      *out)
{
  gboolean done = FALSE;

  while (!done)
    {
      gsize read = 0, written = 0, at = out->len;
      GConverterResult r;

      g_byte_array_set_size (out, at + len + 65536);
      r = g_converter_convert (z, in, len, out->data + at, len + 65536, flags, &read, &written, NULL);
      g_assert (r != G_CONVERTER_ERROR);
      g_byte_array_set_size (out, at + written);
      in += read;
      len -= read;
      done = len == 0 && (r == G_CONVERTER_FLUSHED || r == G_CONVERTER_FINISHED);
    }
}

GBytes *
pgs_test_snapshot_file (GBytes *payload)
{
  g_autoptr(GZlibCompressor) z = g_zlib_compressor_new (G_ZLIB_COMPRESSOR_FORMAT_ZLIB, 1);
  g_autoptr(GByteArray) out = g_byte_array_new ();
  gsize len;
  const guint8 *plain = g_bytes_get_data (payload, &len);

  feed (G_CONVERTER (z), plain, len, G_CONVERTER_INPUT_AT_END, out);
  return pgs_test_snapshot_file_raw (out->data, out->len, len);
}

GBytes *
pgs_test_zlib_zeros (guint64 n_zeros)
{
  g_autoptr(GZlibCompressor) z = g_zlib_compressor_new (G_ZLIB_COMPRESSOR_FORMAT_ZLIB, 9);
  g_autoptr(GByteArray) first = g_byte_array_new ();
  g_autoptr(GByteArray) steady = g_byte_array_new ();
  g_autoptr(GByteArray) tail = g_byte_array_new ();
  g_autoptr(GByteArray) out = g_byte_array_new ();
  g_autofree guint8 *mib = g_malloc0 (1 << 20);
  guint64 n_mib = n_zeros >> 20;
  guint32 adler;

  g_assert (n_zeros % (1 << 20) == 0 && n_mib >= 2);
  /* After a sync flush, a MiB of zeros behind at least 32 KiB of zeros compresses the same
   * way every time: the window holds nothing else. */
  feed (G_CONVERTER (z), mib, 1 << 20, G_CONVERTER_FLUSH, first);
  feed (G_CONVERTER (z), mib, 1 << 20, G_CONVERTER_FLUSH, steady);
  feed (G_CONVERTER (z), NULL, 0, G_CONVERTER_INPUT_AT_END, tail);
  g_assert (tail->len > 4);

  g_byte_array_append (out, first->data, first->len);
  for (guint64 i = 1; i < n_mib; i++)
    g_byte_array_append (out, steady->data, steady->len);
  g_byte_array_append (out, tail->data, tail->len - 4);
  /* Adler-32 of zeros: A stays 1, B adds A once a byte. */
  adler = GUINT32_TO_BE ((guint32) ((n_zeros % 65521) << 16 | 1));
  g_byte_array_append (out, (const guint8 *) &adler, 4);
  return g_byte_array_free_to_bytes (g_steal_pointer (&out));
}
