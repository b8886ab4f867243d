/* pgs-snapshot-encode.c: a snapshot as one GVariant
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "pgs-physmap.h"
#include "pgs-process-private.h"
#include "pgs-snapshot-format.h"
#include "pgs-snapshot-private.h"

static GVariant *
bytestring (const char *s)
{
  return g_variant_new_bytestring (s != NULL ? s : "");
}

static GVariant *
maybe_bytestring (const char *s)
{
  return g_variant_new_maybe (G_VARIANT_TYPE_BYTESTRING,
                              s != NULL ? g_variant_new_bytestring (s) : NULL);
}

static GVariant *
encode_mappings (PgsProcess *p)
{
  GVariantBuilder b;

  g_variant_builder_init (&b, G_VARIANT_TYPE ("a" PGS_SNAPSHOT_MAPPING_TYPE));
  for (guint i = 0; p->mappings != NULL && i < p->mappings->len; i++)
    {
      const PgsMappingData *m = &g_array_index (p->mappings, PgsMappingData, i);

      g_variant_builder_add_value (&b, g_variant_new ("(ttttuu@ay@ayttttut)",
                                                      m->start, m->end, m->offset, m->inode,
                                                      m->dev_major, m->dev_minor,
                                                      bytestring (m->perms), bytestring (m->path),
                                                      m->rss, m->pss_fp, m->uss, m->swap,
                                                      m->known, m->swap_pss));
    }
  return g_variant_builder_end (&b);
}

static GVariant *
encode_runs (PgsProcess *p)
{
  GVariantBuilder b;

  g_variant_builder_init (&b, G_VARIANT_TYPE ("a" PGS_SNAPSHOT_RUN_TYPE));
  for (guint i = 0; p->runs != NULL && i < p->runs->len; i++)
    {
      const PgsPageRun *r = &g_array_index (p->runs, PgsPageRun, i);

      g_variant_builder_add (&b, PGS_SNAPSHOT_RUN_TYPE, r->start, r->n_pages, r->first,
                             r->mapping, r->flags);
    }
  return g_variant_builder_end (&b);
}

static GVariant *
encode_process (PgsProcess *p)
{
  gsize n = p->runs != NULL ? p->n_pages : 0;
  g_autofree guint64 *delta = g_new (guint64, MAX (n, 1));
  guint64 prev = 0;

  /* Differences wrap around on purpose: the reader adds them back the same way. */
  for (gsize i = 0; i < n; i++)
    {
      delta[i] = p->entries[i] - prev;
      prev = p->entries[i];
    }

  return g_variant_new ("(iiut@may@may@mayttttttuu@mayubb@a" PGS_SNAPSHOT_MAPPING_TYPE
                        "@a" PGS_SNAPSHOT_RUN_TYPE "@atb@au@may)",
                        p->pid, p->ppid, p->uid, p->start_time,
                        maybe_bytestring (p->user), maybe_bytestring (p->name),
                        maybe_bytestring (p->cmdline),
                        p->vss, p->rss, p->pss_fp, p->uss, p->swap, p->swap_pss,
                        p->known, (guint) p->source, maybe_bytestring (p->unknown_reason),
                        p->page_size, (gboolean) !!p->pfn_hidden, (gboolean) (p->runs != NULL),
                        encode_mappings (p), encode_runs (p),
                        g_variant_new_fixed_array (G_VARIANT_TYPE_UINT64, delta, n, 8),
                        (gboolean) (p->counts != NULL),
                        g_variant_new_fixed_array (G_VARIANT_TYPE_UINT32,
                                                   p->counts, p->counts != NULL ? n : 0, 4),
                        maybe_bytestring (p->cgroup));
}

static GVariant *
encode_physmap (PgsPhysMap *physmap)
{
  g_autoptr(GArray) lengths = NULL, flags = NULL, counts = NULL;
  guint64 n, n_runs;

  if (physmap == NULL)
    return g_variant_new_maybe (G_VARIANT_TYPE ("(tauataumaymay)"), NULL);

  /* The map's own runs, never an array per frame; a run longer than the file's 32-bit
   * lengths is written as several. */
  n = pgs_physmap_get_n_frames (physmap);
  n_runs = pgs_physmap_get_n_runs (physmap);
  lengths = g_array_sized_new (FALSE, FALSE, 4, n_runs);
  flags = g_array_sized_new (FALSE, FALSE, 8, n_runs);
  counts = g_array_sized_new (FALSE, FALSE, 4, n_runs);
  for (guint64 i = 0; i < n_runs; i++)
    {
      guint64 left, f;
      guint32 c;

      pgs_physmap_get_run (physmap, i, NULL, &left, &c, &f);
      while (left > 0)
        {
          guint32 len = (guint32) MIN (left, G_MAXUINT32);

          g_array_append_val (lengths, len);
          g_array_append_val (flags, f);
          g_array_append_val (counts, c);
          left -= len;
        }
    }

  return g_variant_new_maybe (NULL,
    g_variant_new ("(t@au@at@au@may@may)", n,
                   g_variant_new_fixed_array (G_VARIANT_TYPE_UINT32, lengths->data, lengths->len, 4),
                   g_variant_new_fixed_array (G_VARIANT_TYPE_UINT64, flags->data, flags->len, 8),
                   g_variant_new_fixed_array (G_VARIANT_TYPE_UINT32, counts->data, counts->len, 4),
                   maybe_bytestring (pgs_physmap_get_meminfo_text (physmap)),
                   maybe_bytestring (pgs_physmap_get_zoneinfo_text (physmap))));
}

static void
add_meta (GVariantBuilder *b,
          const char      *key,
          const char      *value)
{
  if (value != NULL)
    g_variant_builder_add (b, "{sv}", key, g_variant_new_bytestring (value));
}

GBytes *
_pgs_snapshot_encode (PgsSnapshot *snapshot)
{
  GPtrArray *processes = _pgs_snapshot_get_processes (snapshot);
  GVariantBuilder meta, procs, skipped;
  g_autoptr(GVariant) v = NULL;

  g_variant_builder_init (&meta, G_VARIANT_TYPE_VARDICT);
  add_meta (&meta, "hostname", pgs_snapshot_get_hostname (snapshot));
  add_meta (&meta, "kernel-release", pgs_snapshot_get_kernel_release (snapshot));
  add_meta (&meta, "boot-id", pgs_snapshot_get_boot_id (snapshot));
  add_meta (&meta, "version", pgs_snapshot_get_version (snapshot));
  add_meta (&meta, "meminfo", pgs_snapshot_get_meminfo_text (snapshot));
  /* Optional keys: files without them still open (the ledger's rows they give unknown). */
  add_meta (&meta, "zoneinfo", pgs_snapshot_get_zoneinfo_text (snapshot));
  add_meta (&meta, "vmstat", pgs_snapshot_get_vmstat_text (snapshot));
  g_variant_builder_add (&meta, "{sv}", "time", g_variant_new_int64 (pgs_snapshot_get_time (snapshot)));
  g_variant_builder_add (&meta, "{sv}", "page-size", g_variant_new_uint32 (pgs_snapshot_get_page_size (snapshot)));
  g_variant_builder_add (&meta, "{sv}", "privileged", g_variant_new_boolean (pgs_snapshot_is_privileged (snapshot)));

  g_variant_builder_init (&procs, G_VARIANT_TYPE ("a" PGS_SNAPSHOT_PROCESS_TYPE));
  for (guint i = 0; i < processes->len; i++)
    g_variant_builder_add_value (&procs, encode_process (g_ptr_array_index (processes, i)));

  g_variant_builder_init (&skipped, G_VARIANT_TYPE ("a" PGS_SNAPSHOT_SKIPPED_TYPE));
  for (guint i = 0; i < pgs_snapshot_get_n_skipped (snapshot); i++)
    {
      const PgsSkipped *s = pgs_snapshot_get_skipped (snapshot, i);

      g_variant_builder_add (&skipped, "(i@ayi@ay)", s->pid,
                             bytestring (g_quark_to_string (s->error->domain)), s->error->code,
                             bytestring (s->error->message));
    }

  v = g_variant_ref_sink (g_variant_new ("(@a{sv}@a" PGS_SNAPSHOT_PROCESS_TYPE "@a" PGS_SNAPSHOT_SKIPPED_TYPE
                                         "@" PGS_SNAPSHOT_PHYSMAP_TYPE ")",
                                         g_variant_builder_end (&meta),
                                         g_variant_builder_end (&procs),
                                         g_variant_builder_end (&skipped),
                                         encode_physmap (pgs_snapshot_get_physmap (snapshot))));
  if (G_BYTE_ORDER == G_BIG_ENDIAN)
    {
      GVariant *swapped = g_variant_byteswap (v);

      g_variant_unref (v);
      v = swapped;
    }
  return g_variant_get_data_as_bytes (v);
}
