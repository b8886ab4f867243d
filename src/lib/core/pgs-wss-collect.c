/* pgs-wss-collect.c: pgs_wss_collect, the end of the interval: each mapping and page in
 * scope accounted into a sample
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "pgs-error.h"
#include "pgs-pagemap.h"
#include "pgs-parse.h"
#include "pgs-procfs.h"
#include "pgs-wss-private.h"
#include "pgs-wss-sample-private.h"
#include "pgs-wss-trust.h"

typedef struct
{
  PgsWss             *self;
  PgsWssSample       *sample;
  PgsWssMapping      *mapping;
  PgsWssIdleReadback  idle;
  GError             *error;
} CollectContext;

static gboolean
collect_page (guint64   address,
              guint64   entry,
              gpointer  user_data,
              GError  **error)
{
  CollectContext *ctx = user_data;
  PgsWss *self = ctx->self;
  PgsWssPageState state = PGS_WSS_PAGE_UNKNOWN;

  if (self->sources & PGS_WSS_PAGES_SOFT_DIRTY)
    {
      state |= PGS_WSS_PAGE_WRITE_KNOWN;
      if (entry & PGS_PM_SOFT_DIRTY)
        state |= PGS_WSS_PAGE_WRITTEN;
    }
  if ((self->sources & PGS_WSS_PAGES_IDLE) &&
      !pgs_wss_idle_state (self, &ctx->idle, address, pgs_pm_pfn (entry), &state, error))
    return FALSE;

  if (state & PGS_WSS_PAGE_ACCESS_KNOWN)
    ctx->mapping->access_known += self->page_size;
  if (state & PGS_WSS_PAGE_ACCESSED)
    ctx->mapping->accessed += self->page_size;
  if (state & PGS_WSS_PAGE_WRITE_KNOWN)
    ctx->mapping->write_known += self->page_size;
  if (state & PGS_WSS_PAGE_WRITTEN)
    ctx->mapping->written += self->page_size;
  pgs_wss_sample_add_page (ctx->sample, address, state);
  return TRUE;
}

static void
collect_mapping (const PgsMapsEntry   *entry,
                 const PgsSmapsFields *fields,
                 gpointer              user_data)
{
  CollectContext *ctx = user_data;
  g_autofree char *path = NULL;
  PgsWssMapping m = { 0 };
  PgsWssWalk walk;
  guint64 address, pm;

  if (ctx->error != NULL || !pgs_wss_in_scope (ctx->self->cleared_scope, entry->inode))
    return;

  if (!pgs_wss_check_fields (ctx->self->pid, entry, fields, &ctx->error))
    return;

  path = g_strndup (entry->path, entry->path_len);
  m.start = entry->start;
  m.end = entry->end;
  m.offset = entry->offset;
  m.inode = entry->inode;
  memcpy (m.perms, entry->perms, sizeof m.perms);
  m.anonymous = entry->inode == 0;
  m.path = path;
  m.rss = fields->rss;
  m.referenced = fields->referenced;

  if (ctx->self->sources != PGS_WSS_PAGES_NONE && fields->rss > 0)
    {
      ctx->mapping = &m;
      pgs_wss_walk_init (&walk, ctx->self, entry->start, entry->end);
      while (pgs_wss_walk_next (&walk, &address, &pm, &ctx->error) &&
             collect_page (address, pm, ctx, &ctx->error))
        ;
      ctx->mapping = NULL;
    }
  pgs_wss_sample_add_mapping (ctx->sample, &m);
}

PgsWssSample *
pgs_wss_collect (PgsWss  *self,
                 GError **error)
{
  g_autoptr(GHashTable) blocks = pgs_wss_idle_blocks_new ();
  g_autoptr(PgsWssSample) sample = NULL;
  g_autoptr(GError) local = NULL;
  g_autofree char *smaps = NULL;
  CollectContext ctx = { self, NULL, NULL, { blocks, 0 }, NULL };
  PgsSmapsReader reader;
  PgsMapsEntry entry;
  PgsSmapsFields fields;
  gint64 elapsed;
  gsize len;

  g_return_val_if_fail (PGS_IS_WSS (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);
  g_return_val_if_fail (self->cleared, NULL);

  smaps = pgs_helper_read_at (pgs_wss_usable_helper (self), self->dir_fd, self->pid, "smaps", &len, &local);
  elapsed = g_get_monotonic_time () - self->cleared_at;
  if (smaps == NULL)
    {
      if (g_error_matches (local, PGS_ERROR, PGS_ERROR_PROCESS_GONE))
        pgs_wss_set_gone_error (self, error, "during the interval");
      else
        g_propagate_error (error, g_steal_pointer (&local));
      return NULL;
    }
  if (len == 0)
    {
      /* The mm is gone: a zombie not reaped yet. */
      pgs_wss_set_gone_error (self, error, "during the interval");
      return NULL;
    }

  sample = pgs_wss_sample_new (self->pid, self->cleared_scope, self->page_size, self->sources,
                               self->idle_reason, self->soft_dirty_reason);
  ctx.sample = sample;
  pgs_smaps_reader_init (&reader, smaps, len);
  while (pgs_smaps_reader_next (&reader, &entry, &fields, &local))
    collect_mapping (&entry, &fields, &ctx);
  if (local != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local));
      g_clear_error (&ctx.error);
      return NULL;
    }
  if (ctx.error != NULL)
    {
      g_propagate_error (error, ctx.error);
      return NULL;
    }

  pgs_wss_trust_end (self->trust, sample);
  pgs_wss_sample_seal (sample, elapsed, g_get_real_time ());
  return g_steal_pointer (&sample);
}
