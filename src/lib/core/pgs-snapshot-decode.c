/* pgs-snapshot-decode.c: a snapshot back from its GVariant, trusting nothing in it
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The file may come from anywhere, and its checksum proves only that it was not damaged by
 * accident. Every count, index and length is checked against what it will size or address
 * before it is used, so that the views, which trust a snapshot, can trust this one too.
 */

#include "config.h"

#include <string.h>

#include "pgs-error.h"
#include "pgs-format.h"
#include "pgs-physmap.h"
#include "pgs-process-private.h"
#include "pgs-snapshot-format.h"
#include "pgs-snapshot-private.h"

#define KNOWN_MASK (PGS_METRIC_ALL | PGS_METRIC_SWAP_PSS)

static gboolean
bad (GError    **error,
     const char *format,
     ...) G_GNUC_PRINTF (2, 3);

static gboolean
bad (GError    **error,
     const char *format,
     ...)
{
  g_autofree char *message = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error (error, PGS_ERROR, PGS_ERROR_BAD_SNAPSHOT, "inconsistent contents: %s", message);
  return FALSE;
}

static gboolean
no_memory (GError **error,
           guint64  bytes)
{
  g_autofree char *size = pgs_format_size (bytes);

  g_set_error (error, PGS_ERROR, PGS_ERROR_FAILED,
               "not enough memory to read the snapshot: %s (%" G_GUINT64_FORMAT " bytes of memory) "
               "could not be allocated", size, bytes);
  return FALSE;
}

/* A bytestring child, or NULL for an absent maybe. GVariant hands back "" for a bytestring
 * without its terminating nul, so the result is always a C string. */
static char *
dup_maybe_string (GVariant *tuple,
                  gsize     index)
{
  g_autoptr(GVariant) maybe = g_variant_get_child_value (tuple, index);
  g_autoptr(GVariant) inner = g_variant_get_maybe (maybe);

  return inner != NULL ? g_strdup (g_variant_get_bytestring (inner)) : NULL;
}

static guint64
child_u64 (GVariant *tuple,
           gsize     index)
{
  g_autoptr(GVariant) v = g_variant_get_child_value (tuple, index);

  return g_variant_get_uint64 (v);
}

static guint32
child_u32 (GVariant *tuple,
           gsize     index)
{
  g_autoptr(GVariant) v = g_variant_get_child_value (tuple, index);

  return g_variant_get_uint32 (v);
}

static gboolean
decode_mappings (PgsProcess *p,
                 GVariant   *array,
                 guint64    *mapped,
                 GError    **error)
{
  gsize n = g_variant_n_children (array);

  p->mappings = g_array_sized_new (FALSE, TRUE, sizeof (PgsMappingData), n);
  for (gsize i = 0; i < n; i++)
    {
      g_autoptr(GVariant) v = g_variant_get_child_value (array, i);
      g_autoptr(GVariant) perms = g_variant_get_child_value (v, 6);
      g_autoptr(GVariant) path = g_variant_get_child_value (v, 7);
      PgsMappingData m = { 0 };
      const char *perms_str = g_variant_get_bytestring (perms);

      g_variant_get (v, "(ttttuu@ay@ayttttut)", &m.start, &m.end, &m.offset, &m.inode,
                     &m.dev_major, &m.dev_minor, NULL, NULL,
                     &m.rss, &m.pss_fp, &m.uss, &m.swap, &m.known, &m.swap_pss);
      if (m.start >= m.end || m.start % p->page_size != 0 || m.end % p->page_size != 0)
        return bad (error, "process %d: mapping %" G_GSIZE_FORMAT " is empty or not page aligned", p->pid, i);
      if (i > 0 && m.start < g_array_index (p->mappings, PgsMappingData, i - 1).end)
        return bad (error, "process %d: mappings overlap or are out of order", p->pid);
      /* Sizes against the address space, figures against the size: whatever a view sums
       * or subtracts from them then stays in range. */
      if (m.end - m.start > PGS_SNAPSHOT_MAX_MAPPED || !g_uint64_checked_add (mapped, *mapped, m.end - m.start) ||
          *mapped > PGS_SNAPSHOT_MAX_MAPPED)
        return bad (error, "process %d: mapping %" G_GSIZE_FORMAT " of %" G_GUINT64_FORMAT " bytes, "
                    "or all of them, larger than an address space", p->pid, i, m.end - m.start);
      if (m.rss > m.end - m.start || m.uss > m.end - m.start || m.swap > m.end - m.start ||
          m.swap_pss > m.end - m.start || m.pss_fp >> PGS_PSS_SHIFT > m.end - m.start)
        return bad (error, "process %d: mapping %" G_GSIZE_FORMAT " has figures larger than its size",
                    p->pid, i);
      if ((m.known & ~KNOWN_MASK) != 0)
        return bad (error, "process %d: unknown metric bits", p->pid);
      if (strlen (perms_str) >= sizeof m.perms)
        return bad (error, "process %d: permissions too long", p->pid);
      memcpy (m.perms, perms_str, strlen (perms_str) + 1);
      m.path = g_ref_string_new_intern (g_variant_get_bytestring (path));
      g_array_append_val (p->mappings, m);
    }
  return TRUE;
}

static gboolean
decode_pages (PgsProcess *p,
              GVariant   *tuple,
              GError    **error)
{
  g_autoptr(GVariant) has_pages = g_variant_get_child_value (tuple, 18);
  g_autoptr(GVariant) runs = g_variant_get_child_value (tuple, 20);
  g_autoptr(GVariant) entries = g_variant_get_child_value (tuple, 21);
  g_autoptr(GVariant) has_counts = g_variant_get_child_value (tuple, 22);
  g_autoptr(GVariant) counts = g_variant_get_child_value (tuple, 23);
  gsize n_runs = g_variant_n_children (runs);
  gsize n_entries, n_counts;
  const guint64 *deltas = g_variant_get_fixed_array (entries, &n_entries, 8);
  const guint32 *count_data = g_variant_get_fixed_array (counts, &n_counts, 4);
  guint64 total = 0, prev_end = 0, prev = 0;

  if (!g_variant_get_boolean (has_pages))
    {
      if (n_runs != 0 || n_entries != 0 || n_counts != 0 || g_variant_get_boolean (has_counts))
        return bad (error, "process %d: pages without a page scan", p->pid);
      return TRUE;
    }

  p->runs = g_array_sized_new (FALSE, FALSE, sizeof (PgsPageRun), n_runs);
  for (gsize i = 0; i < n_runs; i++)
    {
      g_autoptr(GVariant) v = g_variant_get_child_value (runs, i);
      PgsPageRun r;
      const PgsMappingData *m;

      g_variant_get (v, PGS_SNAPSHOT_RUN_TYPE, &r.start, &r.n_pages, &r.first, &r.mapping, &r.flags);
      if (r.n_pages == 0 || r.first != total || r.mapping >= p->mappings->len)
        return bad (error, "process %d: page run %" G_GSIZE_FORMAT " does not follow on", p->pid, i);
      m = &g_array_index (p->mappings, PgsMappingData, r.mapping);
      if (r.start % p->page_size != 0 || r.start < m->start || r.start >= m->end || r.start < prev_end ||
          r.n_pages > (m->end - r.start) / p->page_size)
        return bad (error, "process %d: page run %" G_GSIZE_FORMAT " lies outside its mapping", p->pid, i);
      if ((r.flags & ~PGS_RUN_ZERO) != 0)
        return bad (error, "process %d: unknown page run flags", p->pid);
      total += r.n_pages;
      if (total > G_MAXUINT32)
        return bad (error, "process %d: too many pages", p->pid);
      prev_end = r.start + (guint64) r.n_pages * p->page_size;
      g_array_append_val (p->runs, r);
    }
  if (n_entries != total)
    return bad (error, "process %d: %" G_GSIZE_FORMAT " page entries for %" G_GUINT64_FORMAT " pages",
                p->pid, n_entries, total);
  if (g_variant_get_boolean (has_counts) ? n_counts != total : n_counts != 0)
    return bad (error, "process %d: %" G_GSIZE_FORMAT " map counts for %" G_GUINT64_FORMAT " pages",
                p->pid, n_counts, total);

  p->n_pages = total;
  p->entries = g_try_new (guint64, MAX (total, 1));
  if (p->entries == NULL)
    return no_memory (error, total * sizeof (guint64));
  for (gsize i = 0; i < total; i++)
    p->entries[i] = prev = prev + deltas[i];
  if (g_variant_get_boolean (has_counts))
    {
      p->counts = g_try_malloc (MAX (total, 1) * sizeof (guint32));
      if (p->counts == NULL)
        return no_memory (error, total * sizeof (guint32));
      if (total > 0)
        memcpy (p->counts, count_data, total * sizeof (guint32));
    }
  return TRUE;
}

static PgsProcess *
decode_process (GVariant *v,
                guint     page_size,
                GError  **error)
{
  g_autoptr(PgsProcess) p = NULL;
  g_autoptr(GVariant) pid = g_variant_get_child_value (v, 0);
  g_autoptr(GVariant) ppid = g_variant_get_child_value (v, 1);
  g_autoptr(GVariant) hidden = g_variant_get_child_value (v, 17);
  g_autoptr(GVariant) mappings = g_variant_get_child_value (v, 19);
  guint64 mapped = 0;
  guint32 source;

  p = _pgs_process_new (g_variant_get_int32 (pid));
  p->ppid = g_variant_get_int32 (ppid);
  p->uid = child_u32 (v, 2);
  p->start_time = child_u64 (v, 3);
  p->user = dup_maybe_string (v, 4);
  p->name = dup_maybe_string (v, 5);
  p->cmdline = dup_maybe_string (v, 6);
  p->cgroup = dup_maybe_string (v, 24);
  p->vss = child_u64 (v, 7);
  p->rss = child_u64 (v, 8);
  p->pss_fp = child_u64 (v, 9);
  p->uss = child_u64 (v, 10);
  p->swap = child_u64 (v, 11);
  p->swap_pss = child_u64 (v, 12);
  /* The file keeps no clean/dirty split: unknown, never 0. */
  p->known = child_u32 (v, 13) & ~(guint) (PGS_METRIC_SPLIT | PGS_METRIC_THP);
  source = child_u32 (v, 14);
  p->unknown_reason = dup_maybe_string (v, 15);
  p->page_size = child_u32 (v, 16);
  p->pfn_hidden = g_variant_get_boolean (hidden);

  if (p->pid <= 0 || p->pid > PGS_SNAPSHOT_MAX_PID || p->ppid < 0 || p->ppid > PGS_SNAPSHOT_MAX_PID)
    return bad (error, "a process with PID %d (parent %d)", p->pid, p->ppid), NULL;
  /* Whether known or not, no figure can exceed what a process can map. (PSS is stored
   * shifted, so it cannot.) */
  if (p->vss > PGS_SNAPSHOT_MAX_MAPPED || p->rss > PGS_SNAPSHOT_MAX_MAPPED || p->uss > PGS_SNAPSHOT_MAX_MAPPED ||
      p->swap > PGS_SNAPSHOT_MAX_MAPPED || p->swap_pss > PGS_SNAPSHOT_MAX_MAPPED)
    return bad (error, "process %d: a VSS, RSS, USS or swap of up to %" G_GUINT64_FORMAT " bytes, "
                "larger than an address space", p->pid,
                MAX (MAX (p->vss, p->rss), MAX (MAX (p->uss, p->swap), p->swap_pss))), NULL;
  if (p->page_size != page_size)
    return bad (error, "process %d: page size %u, the snapshot's is %u", p->pid, p->page_size, page_size), NULL;
  if ((p->known & ~KNOWN_MASK) != 0 || source > PGS_SOURCE_STATUS)
    return bad (error, "process %d: unknown metric or source", p->pid), NULL;
  p->source = source;
  if (p->pss_fp >> PGS_PSS_SHIFT > p->rss && (p->known & PGS_METRIC_PSS) && (p->known & PGS_METRIC_RSS))
    return bad (error, "process %d: PSS above RSS", p->pid), NULL;
  if (!decode_mappings (p, mappings, &mapped, error) || !decode_pages (p, v, error))
    return NULL;
  {
    g_autoptr(GError) insane = NULL;

    if (!_pgs_process_check_sane (p, &insane))
      return bad (error, "process %d: %s", p->pid, insane->message), NULL;
  }
  return g_steal_pointer (&p);
}

static PgsPhysMap *
decode_physmap (GVariant *inner,
                guint64   max_frames,
                GError  **error)
{
  g_autoptr(GVariant) lengths_v = g_variant_get_child_value (inner, 1);
  g_autoptr(GVariant) flags_v = g_variant_get_child_value (inner, 2);
  g_autoptr(GVariant) counts_v = g_variant_get_child_value (inner, 3);
  g_autofree char *meminfo = dup_maybe_string (inner, 4);
  g_autofree char *zoneinfo = dup_maybe_string (inner, 5);
  guint64 n_frames = child_u64 (inner, 0);
  gsize n_lengths, n_flags, n_counts;
  const guint32 *lengths = g_variant_get_fixed_array (lengths_v, &n_lengths, 4);
  const guint64 *flags = g_variant_get_fixed_array (flags_v, &n_flags, 8);
  const guint32 *counts = g_variant_get_fixed_array (counts_v, &n_counts, 4);
  g_autofree guint64 *wide = NULL;
  guint64 sum = 0;

  if (n_frames == 0 || n_frames > max_frames)
    return bad (error, "a physical map of %" G_GUINT64_FORMAT " frames", n_frames), NULL;
  if (n_lengths != n_flags || n_lengths != n_counts)
    return bad (error, "physical map columns of different lengths"), NULL;
  /* Sum first: the runs must cover the frames exactly before anything is allocated. */
  for (gsize i = 0; i < n_lengths; i++)
    {
      if (lengths[i] == 0)
        return bad (error, "an empty run in the physical map"), NULL;
      sum += lengths[i];
      if (sum > n_frames)
        break;
    }
  if (sum != n_frames)
    return bad (error, "physical map runs cover %" G_GUINT64_FORMAT " frames, not %" G_GUINT64_FORMAT,
                sum, n_frames), NULL;

  /* Runs in memory as in the file: a few bytes a run, whatever the frame count. */
  wide = g_try_new (guint64, MAX (n_lengths, 1));
  if (wide == NULL)
    return no_memory (error, n_lengths * sizeof (guint64)), NULL;
  for (gsize i = 0; i < n_lengths; i++)
    wide[i] = lengths[i];
  return pgs_physmap_new_from_runs (wide, counts, flags, n_lengths, meminfo, zoneinfo);
}

/* What the decoded snapshot will take, from its element counts, asked of the allocator
 * before any of it is made: under an address-space limit a file too large for it is
 * refused here rather than aborting half way through. Generous per element: a process's
 * object and strings, a mapping with its path, a run, a page's entry and count, a skipped
 * process's error, a run of the physical map; plus the payload again for the strings. */
static gboolean
check_memory (GVariant  *root,
              GVariant  *procs,
              GVariant  *skipped_v,
              GVariant  *physmap_inner,
              GError   **error)
{
  gsize n = g_variant_n_children (procs);
  guint64 need = g_variant_get_size (root);
  gboolean ok = TRUE;
  gpointer probe;

  for (gsize i = 0; i < n && ok; i++)
    {
      g_autoptr(GVariant) v = g_variant_get_child_value (procs, i);
      g_autoptr(GVariant) mappings = g_variant_get_child_value (v, 19);
      g_autoptr(GVariant) runs = g_variant_get_child_value (v, 20);
      g_autoptr(GVariant) entries = g_variant_get_child_value (v, 21);
      g_autoptr(GVariant) counts = g_variant_get_child_value (v, 23);

      ok = g_uint64_checked_add (&need, need, 1024) &&
           g_uint64_checked_add (&need, need, (guint64) g_variant_n_children (mappings) * (sizeof (PgsMappingData) + 64)) &&
           g_uint64_checked_add (&need, need, (guint64) g_variant_n_children (runs) * sizeof (PgsPageRun)) &&
           g_uint64_checked_add (&need, need, g_variant_get_size (entries)) &&
           g_uint64_checked_add (&need, need, g_variant_get_size (counts));
    }
  if (ok)
    ok = g_uint64_checked_add (&need, need, (guint64) g_variant_n_children (skipped_v) * 256);
  if (ok && physmap_inner != NULL)
    {
      g_autoptr(GVariant) lengths = g_variant_get_child_value (physmap_inner, 1);

      ok = g_uint64_checked_add (&need, need, (guint64) g_variant_n_children (lengths) * 64);
    }
  if (!ok || need > G_MAXSIZE || (probe = g_try_malloc ((gsize) need)) == NULL)
    return no_memory (error, ok ? need : G_MAXUINT64);
  g_free (probe);
  return TRUE;
}

/* Adds @v to *@total, FALSE where the sum passes PGS_SNAPSHOT_MAX_TOTAL. */
static inline gboolean
add_total (guint64 *total,
           guint64  v)
{
  return g_uint64_checked_add (total, *total, v) && *total <= PGS_SNAPSHOT_MAX_TOTAL;
}

/* Every figure summed over the snapshot, as memrank's totals, librank's files, groups and
 * compare's differences sum them: each sum must fit (in a signed difference, for compare),
 * or the file is refused rather than shown with totals that wrapped. */
static gboolean
check_totals (GPtrArray  *processes,
              GError    **error)
{
  guint64 t[6] = { 0 }, mt[6] = { 0 };
  gboolean ok = TRUE;

  for (guint i = 0; i < processes->len && ok; i++)
    {
      PgsProcess *p = g_ptr_array_index (processes, i);

      ok = add_total (&t[0], p->vss) && add_total (&t[1], p->rss) && add_total (&t[2], p->pss_fp) &&
           add_total (&t[3], p->uss) && add_total (&t[4], p->swap) && add_total (&t[5], p->swap_pss);
      for (guint k = 0; ok && k < p->mappings->len; k++)
        {
          const PgsMappingData *m = &g_array_index (p->mappings, PgsMappingData, k);

          ok = add_total (&mt[0], m->end - m->start) && add_total (&mt[1], m->rss) &&
               add_total (&mt[2], m->pss_fp) && add_total (&mt[3], m->uss) &&
               add_total (&mt[4], m->swap) && add_total (&mt[5], m->swap_pss);
        }
    }
  if (!ok)
    return bad (error, "figures that add up to more than %" G_GUINT64_FORMAT " bytes over the processes",
                PGS_SNAPSHOT_MAX_TOTAL);
  return TRUE;
}

static char *
meta_string (GVariant   *meta,
             const char *key)
{
  g_autoptr(GVariant) v = g_variant_lookup_value (meta, key, G_VARIANT_TYPE_BYTESTRING);

  return v != NULL ? g_strdup (g_variant_get_bytestring (v)) : NULL;
}

static void
clear_skipped (gpointer data)
{
  g_clear_error (&((PgsSkipped *) data)->error);
}

PgsSnapshot *
_pgs_snapshot_decode (GBytes   *payload,
                      guint64   max_frames,
                      GError  **error)
{
  g_autoptr(GVariant) root = NULL;
  g_autoptr(GVariant) meta = NULL, procs = NULL, skipped_v = NULL, physmap_v = NULL, physmap_inner = NULL;
  g_autoptr(GVariant) time_v = NULL, page_size_v = NULL, privileged_v = NULL;
  g_autoptr(GPtrArray) processes = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GArray) skipped = g_array_new (FALSE, FALSE, sizeof (PgsSkipped));
  g_autoptr(PgsPhysMap) physmap = NULL;
  g_autofree char *hostname = NULL, *kernel = NULL, *boot_id = NULL, *version = NULL, *meminfo = NULL;
  PgsSnapshot *snapshot;
  guint page_size;
  gsize n;

  g_array_set_clear_func (skipped, clear_skipped);

  root = g_variant_ref_sink (g_variant_new_from_bytes (G_VARIANT_TYPE (PGS_SNAPSHOT_TYPE), payload, FALSE));
  if (G_BYTE_ORDER == G_BIG_ENDIAN)
    {
      GVariant *swapped = g_variant_byteswap (root);

      g_variant_unref (root);
      root = swapped;
    }
  meta = g_variant_get_child_value (root, 0);
  procs = g_variant_get_child_value (root, 1);
  skipped_v = g_variant_get_child_value (root, 2);
  physmap_v = g_variant_get_child_value (root, 3);

  time_v = g_variant_lookup_value (meta, "time", G_VARIANT_TYPE_INT64);
  page_size_v = g_variant_lookup_value (meta, "page-size", G_VARIANT_TYPE_UINT32);
  privileged_v = g_variant_lookup_value (meta, "privileged", G_VARIANT_TYPE_BOOLEAN);
  if (time_v == NULL || page_size_v == NULL || privileged_v == NULL)
    return bad (error, "no capture time, page size or privilege"), NULL;
  page_size = g_variant_get_uint32 (page_size_v);
  if (page_size < 1024 || page_size > (1u << 24) || (page_size & (page_size - 1)) != 0)
    return bad (error, "a page size of %u bytes", page_size), NULL;

  physmap_inner = g_variant_get_maybe (physmap_v);
  if (!check_memory (root, procs, skipped_v, physmap_inner, error))
    return NULL;

  n = g_variant_n_children (procs);
  for (gsize i = 0; i < n; i++)
    {
      g_autoptr(GVariant) v = g_variant_get_child_value (procs, i);
      PgsProcess *p = decode_process (v, page_size, error);

      if (p == NULL)
        return NULL;
      if (processes->len > 0 && ((PgsProcess *) g_ptr_array_index (processes, processes->len - 1))->pid >= p->pid)
        {
          g_object_unref (p);
          return bad (error, "processes out of PID order"), NULL;
        }
      g_ptr_array_add (processes, p);
    }
  if (!check_totals (processes, error))
    return NULL;

  n = g_variant_n_children (skipped_v);
  for (gsize i = 0; i < n; i++)
    {
      g_autoptr(GVariant) v = g_variant_get_child_value (skipped_v, i);
      g_autoptr(GVariant) domain = g_variant_get_child_value (v, 1);
      g_autoptr(GVariant) message = g_variant_get_child_value (v, 3);
      const char *domain_str = g_variant_get_bytestring (domain);
      PgsSkipped s;
      int code;

      g_variant_get (v, "(i@ayi@ay)", &s.pid, NULL, &code, NULL);
      /* Never make a quark from the file's bytes: only domains this build knows. */
      if (g_strcmp0 (domain_str, g_quark_to_string (PGS_ERROR)) == 0 && code >= 0 &&
          code <= PGS_ERROR_NOT_A_SNAPSHOT)
        s.error = g_error_new_literal (PGS_ERROR, code, g_variant_get_bytestring (message));
      else
        s.error = g_error_new_literal (PGS_ERROR, PGS_ERROR_FAILED, g_variant_get_bytestring (message));
      g_array_append_val (skipped, s);
    }

  if (physmap_inner != NULL && (physmap = decode_physmap (physmap_inner, max_frames, error)) == NULL)
    return NULL;

  snapshot = _pgs_snapshot_new (processes, skipped, g_variant_get_boolean (privileged_v), page_size, physmap);
  hostname = meta_string (meta, "hostname");
  kernel = meta_string (meta, "kernel-release");
  boot_id = meta_string (meta, "boot-id");
  version = meta_string (meta, "version");
  meminfo = meta_string (meta, "meminfo");
  _pgs_snapshot_set_info (snapshot, hostname, kernel, boot_id, version, meminfo,
                          g_variant_get_int64 (time_v));
  {
    /* The ledger's counters: optional keys, absent from older files. */
    g_autofree char *zoneinfo = meta_string (meta, "zoneinfo");
    g_autofree char *vmstat = meta_string (meta, "vmstat");

    _pgs_snapshot_set_counters (snapshot, zoneinfo, vmstat);
  }
  return snapshot;
}
