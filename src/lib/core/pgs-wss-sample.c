/* pgs-wss-sample.c
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The JSON of a series (pagescope-cli wss --json), one object:
 *
 *   pid, name             the process
 *   scope                 "all", "anon" or "file": the mappings measured
 *   clear_refs            the value written to /proc/PID/clear_refs before each interval (1-3)
 *   interval              the interval asked for, in seconds; null where each interval
 *                         ended on request (pagescope-cli wss --until-stdin)
 *   page_size             bytes
 *   basis                 what "referenced" rests on: always "smaps_referenced", the kernel's
 *                         per-mapping count of pages whose accessed (young) bit or
 *                         PG_referenced was set again after the clearing
 *   per_page              {"idle_tracking": {"available": bool, "reason": string|null},
 *                          "soft_dirty":    {"available": bool, "reason": string|null}}
 *   samples_requested     how many samples were asked for
 *   complete              false when the series stopped short; "error" then says why
 *   error                 string or null
 *   samples               list of:
 *     index               1, 2, …
 *     time                wall-clock microseconds (Unix epoch) of the read-back
 *     elapsed             seconds from the clearing to the read-back
 *     rss, referenced     bytes, summed over the mappings in scope
 *     accessed, accessed_known, written, written_known
 *                         bytes from the per-page sources; null where unavailable
 *     ran                 {"ran": bool, "cpu_seconds": n, "context_switches": n}: whether
 *                         the process ran during the interval; null where unknown
 *     caveats             list of {"kind": string, "message": string}: why the figure may be
 *                         too low (kinds "damon-paddr", "damon-vaddr", "idle-tracking",
 *                         "reclaim", "memory-pressure"); empty when none was detected
 *     mappings            list of: start, end ("0x…" strings), perms, offset, path
 *                         ("[anon]" for none), anonymous (bool), rss, referenced, accessed,
 *                         accessed_known, written, written_known (null where unavailable)
 */

#include "config.h"

#include <string.h>

#include "pgs-mapping.h"
#include "pgs-report.h"
#include "pgs-wss-sample-private.h"

G_DEFINE_ENUM_TYPE (PgsWssScope, pgs_wss_scope,
  G_DEFINE_ENUM_VALUE (PGS_WSS_SCOPE_ALL, "all"),
  G_DEFINE_ENUM_VALUE (PGS_WSS_SCOPE_ANON, "anon"),
  G_DEFINE_ENUM_VALUE (PGS_WSS_SCOPE_FILE, "file"))

G_DEFINE_FLAGS_TYPE (PgsWssPages, pgs_wss_pages,
  G_DEFINE_ENUM_VALUE (PGS_WSS_PAGES_NONE, "none"),
  G_DEFINE_ENUM_VALUE (PGS_WSS_PAGES_IDLE, "idle"),
  G_DEFINE_ENUM_VALUE (PGS_WSS_PAGES_SOFT_DIRTY, "soft-dirty"))

typedef struct
{
  guint64 start;
  guint64 n_pages;
  guint   state;
} PageRun;

struct _PgsWssSample
{
  gatomicrefcount  ref_count;
  gboolean         sealed;
  int              pid;
  PgsWssScope      scope;
  guint            page_size;
  PgsWssPages      sources;
  char            *idle_reason;
  char            *soft_dirty_reason;
  gint64           elapsed;
  gint64           time;

  guint64          rss;
  guint64          referenced;
  guint64          accessed;
  guint64          access_known;
  guint64          written;
  guint64          write_known;

  GArray          *mappings;   /* PgsWssMapping, address order */
  GStringChunk    *paths;
  GArray          *runs;       /* PageRun, address order */

  GArray          *caveats;    /* PgsWssCaveat, message owned */
  PgsWssRan        ran;
  gint64           cpu_time;
  guint64          switches;
};

G_DEFINE_BOXED_TYPE (PgsWssSample, pgs_wss_sample, pgs_wss_sample_ref, pgs_wss_sample_unref)

const char *
pgs_wss_scope_to_string (PgsWssScope scope)
{
  switch (scope)
    {
    case PGS_WSS_SCOPE_ANON:
      return "anon";
    case PGS_WSS_SCOPE_FILE:
      return "file";
    case PGS_WSS_SCOPE_ALL:
    default:
      return "all";
    }
}

PgsWssSample *
pgs_wss_sample_new (int          pid,
                    PgsWssScope  scope,
                    guint        page_size,
                    PgsWssPages  sources,
                    const char  *idle_reason,
                    const char  *soft_dirty_reason)
{
  PgsWssSample *self = g_new0 (PgsWssSample, 1);

  g_atomic_ref_count_init (&self->ref_count);
  self->pid = pid;
  self->scope = scope;
  self->page_size = page_size;
  self->sources = sources;
  /* A missing source always has a reason, so the caller never shows a bare blank. */
  if (!(sources & PGS_WSS_PAGES_IDLE))
    self->idle_reason = g_strdup (idle_reason ? idle_reason : "not available");
  if (!(sources & PGS_WSS_PAGES_SOFT_DIRTY))
    self->soft_dirty_reason = g_strdup (soft_dirty_reason ? soft_dirty_reason : "not available");
  self->mappings = g_array_new (FALSE, FALSE, sizeof (PgsWssMapping));
  self->paths = g_string_chunk_new (4096);
  self->runs = g_array_new (FALSE, FALSE, sizeof (PageRun));
  self->caveats = g_array_new (FALSE, FALSE, sizeof (PgsWssCaveat));
  return self;
}

PgsWssSample *
pgs_wss_sample_ref (PgsWssSample *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
pgs_wss_sample_unref (PgsWssSample *self)
{
  g_return_if_fail (self != NULL);

  if (!g_atomic_ref_count_dec (&self->ref_count))
    return;
  g_free (self->idle_reason);
  g_free (self->soft_dirty_reason);
  g_array_unref (self->mappings);
  g_string_chunk_free (self->paths);
  g_array_unref (self->runs);
  for (guint i = 0; i < self->caveats->len; i++)
    g_free ((char *) g_array_index (self->caveats, PgsWssCaveat, i).message);
  g_array_unref (self->caveats);
  g_free (self);
}

void
pgs_wss_sample_add_caveat (PgsWssSample     *self,
                           PgsWssCaveatKind  kind,
                           const char       *id,
                           const char       *message)
{
  PgsWssCaveat caveat = { kind, id, g_strdup (message) };

  g_assert (!self->sealed);
  g_array_append_val (self->caveats, caveat);
}

void
pgs_wss_sample_set_ran (PgsWssSample *self,
                        PgsWssRan     ran,
                        gint64        cpu_time,
                        guint64       switches)
{
  g_assert (!self->sealed);
  self->ran = ran;
  self->cpu_time = cpu_time;
  self->switches = switches;
}

guint
pgs_wss_sample_get_n_caveats (PgsWssSample *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->caveats->len;
}

const PgsWssCaveat *
pgs_wss_sample_get_caveat (PgsWssSample *self,
                           guint         index)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (index < self->caveats->len, NULL);

  return &g_array_index (self->caveats, PgsWssCaveat, index);
}

PgsWssRan
pgs_wss_sample_get_ran (PgsWssSample *self,
                        gint64       *cpu_time,
                        guint64      *switches)
{
  g_return_val_if_fail (self != NULL, PGS_WSS_RAN_UNKNOWN);

  if (self->ran != PGS_WSS_RAN_UNKNOWN)
    {
      if (cpu_time != NULL)
        *cpu_time = self->cpu_time;
      if (switches != NULL)
        *switches = self->switches;
    }
  return self->ran;
}

void
pgs_wss_sample_add_mapping (PgsWssSample        *self,
                            const PgsWssMapping *mapping)
{
  PgsWssMapping copy = *mapping;

  g_assert (!self->sealed);
  g_assert (self->mappings->len == 0 ||
            g_array_index (self->mappings, PgsWssMapping, self->mappings->len - 1).end <= copy.start);

  copy.path = g_string_chunk_insert_const (self->paths, mapping->path ? mapping->path : "");
  g_array_append_val (self->mappings, copy);
}

void
pgs_wss_sample_add_page (PgsWssSample    *self,
                         guint64          address,
                         PgsWssPageState  state)
{
  PageRun *last = NULL;

  g_assert (!self->sealed);
  if (state == PGS_WSS_PAGE_UNKNOWN)
    return;

  if (self->runs->len > 0)
    {
      last = &g_array_index (self->runs, PageRun, self->runs->len - 1);
      g_assert (last->start + last->n_pages * self->page_size <= address);
    }
  if (last != NULL && last->state == (guint) state &&
      last->start + last->n_pages * self->page_size == address)
    last->n_pages++;
  else
    {
      PageRun run = { address, 1, state };

      g_array_append_val (self->runs, run);
    }
}

void
pgs_wss_sample_seal (PgsWssSample *self,
                     gint64        elapsed,
                     gint64        time)
{
  g_assert (!self->sealed);

  self->elapsed = elapsed;
  self->time = time;
  for (guint i = 0; i < self->mappings->len; i++)
    {
      const PgsWssMapping *m = &g_array_index (self->mappings, PgsWssMapping, i);

      self->rss += m->rss;
      self->referenced += m->referenced;
      self->accessed += m->accessed;
      self->access_known += m->access_known;
      self->written += m->written;
      self->write_known += m->write_known;
    }
  self->sealed = TRUE;
}

int
pgs_wss_sample_get_pid (PgsWssSample *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->pid;
}

PgsWssScope
pgs_wss_sample_get_scope (PgsWssSample *self)
{
  g_return_val_if_fail (self != NULL, PGS_WSS_SCOPE_ALL);
  return self->scope;
}

guint
pgs_wss_sample_get_page_size (PgsWssSample *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->page_size;
}

gint64
pgs_wss_sample_get_elapsed (PgsWssSample *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->elapsed;
}

gint64
pgs_wss_sample_get_time (PgsWssSample *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->time;
}

guint64
pgs_wss_sample_get_rss (PgsWssSample *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->rss;
}

guint64
pgs_wss_sample_get_referenced (PgsWssSample *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->referenced;
}

gboolean
pgs_wss_sample_get_accessed (PgsWssSample *self,
                             guint64      *bytes,
                             guint64      *known)
{
  g_return_val_if_fail (self != NULL, FALSE);

  if (!(self->sources & PGS_WSS_PAGES_IDLE))
    return FALSE;
  if (bytes != NULL)
    *bytes = self->accessed;
  if (known != NULL)
    *known = self->access_known;
  return TRUE;
}

gboolean
pgs_wss_sample_get_written (PgsWssSample *self,
                            guint64      *bytes,
                            guint64      *known)
{
  g_return_val_if_fail (self != NULL, FALSE);

  if (!(self->sources & PGS_WSS_PAGES_SOFT_DIRTY))
    return FALSE;
  if (bytes != NULL)
    *bytes = self->written;
  if (known != NULL)
    *known = self->write_known;
  return TRUE;
}

PgsWssPages
pgs_wss_sample_get_page_sources (PgsWssSample *self)
{
  g_return_val_if_fail (self != NULL, PGS_WSS_PAGES_NONE);
  return self->sources;
}

const char *
pgs_wss_sample_get_page_source_reason (PgsWssSample *self,
                                       PgsWssPages   source)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (source == PGS_WSS_PAGES_IDLE || source == PGS_WSS_PAGES_SOFT_DIRTY, NULL);

  return source == PGS_WSS_PAGES_IDLE ? self->idle_reason : self->soft_dirty_reason;
}

guint
pgs_wss_sample_get_n_mappings (PgsWssSample *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->mappings->len;
}

const PgsWssMapping *
pgs_wss_sample_get_mapping (PgsWssSample *self,
                            guint         index)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (index < self->mappings->len, NULL);

  return &g_array_index (self->mappings, PgsWssMapping, index);
}

const PgsWssMapping *
pgs_wss_sample_lookup_mapping (PgsWssSample *self,
                               guint64       address)
{
  guint lo = 0, hi;

  g_return_val_if_fail (self != NULL, NULL);

  hi = self->mappings->len;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      const PgsWssMapping *m = &g_array_index (self->mappings, PgsWssMapping, mid);

      if (address < m->start)
        hi = mid;
      else if (address >= m->end)
        lo = mid + 1;
      else
        return m;
    }
  return NULL;
}

PgsWssPageState
pgs_wss_sample_lookup_page (PgsWssSample *self,
                            guint64       address)
{
  guint lo = 0, hi;

  g_return_val_if_fail (self != NULL, PGS_WSS_PAGE_UNKNOWN);

  hi = self->runs->len;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      const PageRun *run = &g_array_index (self->runs, PageRun, mid);

      if (address < run->start)
        hi = mid;
      else if (address >= run->start + run->n_pages * self->page_size)
        lo = mid + 1;
      else
        return run->state;
    }
  return PGS_WSS_PAGE_UNKNOWN;
}

void
pgs_wss_sample_foreach_page_run (PgsWssSample      *self,
                                 PgsWssPageRunFunc  func,
                                 gpointer           user_data)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (func != NULL);

  for (guint i = 0; i < self->runs->len; i++)
    {
      const PageRun *run = &g_array_index (self->runs, PageRun, i);

      func (run->start, run->n_pages, run->state, user_data);
    }
}

static void
append_per_page_json (GString       *out,
                      guint64        accessed,
                      guint64        access_known,
                      guint64        written,
                      guint64        write_known,
                      PgsWssPages    sources)
{
  gboolean idle = (sources & PGS_WSS_PAGES_IDLE) != 0;
  gboolean dirty = (sources & PGS_WSS_PAGES_SOFT_DIRTY) != 0;

  g_string_append (out, ",\"accessed\":");
  pgs_json_append_size (out, idle, accessed);
  g_string_append (out, ",\"accessed_known\":");
  pgs_json_append_size (out, idle, access_known);
  g_string_append (out, ",\"written\":");
  pgs_json_append_size (out, dirty, written);
  g_string_append (out, ",\"written_known\":");
  pgs_json_append_size (out, dirty, write_known);
}

static void
append_source_json (GString      *out,
                    PgsWssSample *sample,
                    PgsWssPages   source)
{
  const char *reason = pgs_wss_sample_get_page_source_reason (sample, source);

  g_string_append_printf (out, "{\"available\":%s,\"reason\":", reason == NULL ? "true" : "false");
  pgs_json_append_string (out, reason);
  g_string_append_c (out, '}');
}

void
pgs_wss_samples_to_json (GString    *out,
                         const char *name,
                         double      interval,
                         GPtrArray  *samples,
                         guint       n_requested,
                         const char *error_message)
{
  PgsWssSample *first;
  char number[G_ASCII_DTOSTR_BUF_SIZE];

  g_return_if_fail (out != NULL);
  g_return_if_fail (samples != NULL && samples->len > 0);

  first = g_ptr_array_index (samples, 0);
  g_string_append_printf (out, "{\"pid\":%d,\"name\":", first->pid);
  pgs_json_append_bytes (out, name);
  g_string_append_printf (out, ",\"scope\":\"%s\",\"clear_refs\":%d,\"interval\":%s,"
                          "\"page_size\":%u,\"basis\":\"smaps_referenced\",\"per_page\":{"
                          "\"idle_tracking\":",
                          pgs_wss_scope_to_string (first->scope), (int) first->scope,
                          interval > 0 ? g_ascii_formatd (number, sizeof number, "%.3f", interval) : "null",
                          first->page_size);
  append_source_json (out, first, PGS_WSS_PAGES_IDLE);
  g_string_append (out, ",\"soft_dirty\":");
  append_source_json (out, first, PGS_WSS_PAGES_SOFT_DIRTY);
  g_string_append_printf (out, "},\"samples_requested\":%u,\"complete\":%s,\"error\":",
                          n_requested, error_message == NULL ? "true" : "false");
  pgs_json_append_string (out, error_message);
  g_string_append (out, ",\"samples\":[");

  for (guint i = 0; i < samples->len; i++)
    {
      PgsWssSample *s = g_ptr_array_index (samples, i);

      g_string_append_printf (out, "%s\n{\"index\":%u,\"time\":%" G_GINT64_FORMAT ",\"elapsed\":%s,"
                              "\"rss\":%" G_GUINT64_FORMAT ",\"referenced\":%" G_GUINT64_FORMAT,
                              i ? "," : "", i + 1, s->time,
                              g_ascii_formatd (number, sizeof number, "%.6f", s->elapsed / 1e6),
                              s->rss, s->referenced);
      append_per_page_json (out, s->accessed, s->access_known, s->written, s->write_known,
                            s->sources);
      if (s->ran == PGS_WSS_RAN_UNKNOWN)
        g_string_append (out, ",\"ran\":null");
      else
        g_string_append_printf (out, ",\"ran\":{\"ran\":%s,\"cpu_seconds\":%s,"
                                "\"context_switches\":%" G_GUINT64_FORMAT "}",
                                s->ran == PGS_WSS_RAN_YES ? "true" : "false",
                                g_ascii_formatd (number, sizeof number, "%.3f", s->cpu_time / 1e6),
                                s->switches);
      g_string_append (out, ",\"caveats\":[");
      for (guint k = 0; k < s->caveats->len; k++)
        {
          const PgsWssCaveat *c = &g_array_index (s->caveats, PgsWssCaveat, k);

          g_string_append_printf (out, "%s{\"kind\":\"%s\",\"message\":", k ? "," : "", c->id);
          pgs_json_append_string (out, c->message);
          g_string_append_c (out, '}');
        }
      g_string_append (out, "]");
      g_string_append (out, ",\"mappings\":[");
      for (guint k = 0; k < s->mappings->len; k++)
        {
          const PgsWssMapping *m = &g_array_index (s->mappings, PgsWssMapping, k);

          g_string_append_printf (out, "%s\n {\"start\":\"0x%" G_GINT64_MODIFIER "x\",\"end\":\"0x%"
                                  G_GINT64_MODIFIER "x\",\"perms\":",
                                  k ? "," : "", m->start, m->end);
          pgs_json_append_string (out, m->perms);
          g_string_append_printf (out, ",\"offset\":%" G_GUINT64_FORMAT ",\"path\":", m->offset);
          pgs_json_append_bytes (out, pgs_mapping_label_for_path (m->path));
          g_string_append_printf (out, ",\"anonymous\":%s,\"rss\":%" G_GUINT64_FORMAT
                                  ",\"referenced\":%" G_GUINT64_FORMAT,
                                  m->anonymous ? "true" : "false", m->rss, m->referenced);
          append_per_page_json (out, m->accessed, m->access_known, m->written, m->write_known,
                                s->sources);
          g_string_append_c (out, '}');
        }
      g_string_append (out, "]}");
    }
  g_string_append (out, "\n]}\n");
}
