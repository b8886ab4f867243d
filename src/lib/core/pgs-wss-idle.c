/* pgs-wss-idle.c: the idle page tracking backend: frames marked idle at the clearing,
 * their bits read back at the collection
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * (The kernel facts are in pgs-wss.c.)
 */

#include "config.h"

#include <errno.h>
#include <unistd.h>

#include "pgs-error.h"
#include "pgs-kpage.h"
#include "pgs-pagemap.h"
#include "pgs-parse.h"
#include "pgs-procfs.h"
#include "pgs-wss-private.h"

/* Frames read or written together in kpageflags and the idle bitmap: a PMD's worth, so a
 * folio (naturally aligned, at most PMD order for anonymous and page cache folios) never
 * straddles two blocks and its head is found in the block of any of its pages. */
#define BLOCK_FRAMES 512
#define BLOCK_WORDS  (BLOCK_FRAMES / 64)

typedef struct
{
  guint64 index;                 /* hash key: pfn / BLOCK_FRAMES */
  guint64 flags[BLOCK_FRAMES];   /* kpageflags, read back at collect */
  guint64 words[BLOCK_WORDS];    /* idle bits */
} FrameBlock;

GHashTable *
pgs_wss_idle_blocks_new (void)
{
  return g_hash_table_new_full (g_int64_hash, g_int64_equal, NULL, g_free);
}

typedef struct
{
  PgsWss     *self;
  GHashTable *blocks;     /* pfn / BLOCK_FRAMES → FrameBlock (words only) */
  GError     *error;
} MarkContext;

static FrameBlock *
lookup_block (GHashTable *blocks,
              guint64     index,
              gboolean   *created)
{
  FrameBlock *block = g_hash_table_lookup (blocks, &index);

  *created = block == NULL;
  if (block == NULL)
    {
      block = g_new0 (FrameBlock, 1);
      block->index = index;
      g_hash_table_insert (blocks, &block->index, block);
    }
  return block;
}

static gboolean
mark_page (guint64   address,
           guint64   entry,
           gpointer  user_data,
           GError  **error)
{
  MarkContext *ctx = user_data;
  MarkedPage page = { address, pgs_pm_pfn (entry) };
  FrameBlock *block;
  gboolean created;

  if (page.pfn == 0)
    return TRUE;
  g_array_append_val (ctx->self->marked, page);
  block = lookup_block (ctx->blocks, page.pfn / BLOCK_FRAMES, &created);
  block->words[page.pfn % BLOCK_FRAMES / 64] |= G_GUINT64_CONSTANT (1) << (page.pfn % 64);
  return TRUE;
}

static void
mark_mapping (const PgsMapsEntry   *entry,
              const PgsSmapsFields *fields,
              gpointer              user_data)
{
  MarkContext *ctx = user_data;
  PgsWssWalk walk;
  guint64 address, pm;

  if (ctx->error != NULL || fields->rss == 0 || !pgs_wss_in_scope (ctx->self->cleared_scope, entry->inode))
    return;
  pgs_wss_walk_init (&walk, ctx->self, entry->start, entry->end);
  while (pgs_wss_walk_next (&walk, &address, &pm, &ctx->error) &&
         mark_page (address, pm, ctx, &ctx->error))
    ;
}

/* Marks every resident frame of the mappings in scope idle, and remembers which frame was
 * at which address: a page at a new frame by the read-back was faulted in (or replaced)
 * during the interval. Tail pages' bits are ignored by the kernel; setting them is harmless. */
gboolean
pgs_wss_mark_idle (PgsWss  *self,
                   GError **error)
{
  g_autoptr(GHashTable) blocks = pgs_wss_idle_blocks_new ();
  g_autofree char *smaps = NULL;
  g_autoptr(GError) local = NULL;
  g_autoptr(GError) parse_error = NULL;
  MarkContext ctx = { self, blocks, NULL };
  PgsSmapsReader reader;
  PgsMapsEntry entry;
  PgsSmapsFields fields;
  GHashTableIter iter;
  FrameBlock *block;
  gsize len;

  smaps = pgs_helper_read_at (pgs_wss_usable_helper (self), self->dir_fd, self->pid, "smaps", &len, &local);
  if (smaps == NULL)
    {
      if (g_error_matches (local, PGS_ERROR, PGS_ERROR_PROCESS_GONE))
        pgs_wss_set_gone_error (self, error, "while it was being cleared");
      else
        g_propagate_error (error, g_steal_pointer (&local));
      return FALSE;
    }

  g_array_set_size (self->marked, 0);
  pgs_smaps_reader_init (&reader, smaps, len);
  while (pgs_smaps_reader_next (&reader, &entry, &fields, &parse_error))
    mark_mapping (&entry, &fields, &ctx);
  if (parse_error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&parse_error));
      g_clear_error (&ctx.error);
      return FALSE;
    }
  if (ctx.error != NULL)
    {
      g_propagate_error (error, ctx.error);
      return FALSE;
    }

  g_hash_table_iter_init (&iter, blocks);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &block))
    {
      gssize n;

      do
        n = pwrite (self->idle_fd, block->words, sizeof block->words,
                    (off_t) (block->index * sizeof block->words));
      while (n < 0 && errno == EINTR);
      if (n != (gssize) sizeof block->words)
        {
          pgs_set_error_from_errno (error, n < 0 ? errno : EIO, "idle page tracking: %s",
                                    PAGE_IDLE_BITMAP);
          return FALSE;
        }
    }
  return TRUE;
}

static FrameBlock *
read_block (PgsWss              *self,
            PgsWssIdleReadback  *ctx,
            guint64              index,
            GError             **error)
{
  gboolean created;
  FrameBlock *block = lookup_block (ctx->blocks, index, &created);
  gssize n;

  if (!created)
    return block;

  /* Past the end of either file reads short: those frames stay zero (no flags, not idle). */
  n = pgs_pread_full (self->kpageflags_fd, block->flags, sizeof block->flags,
                      index * sizeof block->flags);
  if (n >= 0)
    n = pgs_pread_full (self->idle_fd, block->words, sizeof block->words,
                        index * sizeof block->words);
  if (n < 0 && errno != ENXIO)
    {
      pgs_set_error_from_errno (error, errno, "idle page tracking: reading frame block %"
                                G_GUINT64_FORMAT, index);
      g_hash_table_remove (ctx->blocks, &index);
      return NULL;
    }
  return block;
}

gboolean
pgs_wss_idle_state (PgsWss              *self,
                    PgsWssIdleReadback  *ctx,
                    guint64              address,
                    guint64              pfn,
                    PgsWssPageState     *state,
                    GError             **error)
{
  GArray *marked = self->marked;
  guint64 marked_pfn = 0;
  FrameBlock *block;
  guint head;
  guint64 flags;

  if (pfn == 0)
    return TRUE;

  while (ctx->cursor < marked->len && g_array_index (marked, MarkedPage, ctx->cursor).address < address)
    ctx->cursor++;
  if (ctx->cursor < marked->len && g_array_index (marked, MarkedPage, ctx->cursor).address == address)
    marked_pfn = g_array_index (marked, MarkedPage, ctx->cursor).pfn;

  if (marked_pfn != pfn)
    {
      /* Not resident at the clear, or at another frame then: faulted in during the interval. */
      *state |= PGS_WSS_PAGE_ACCESS_KNOWN | PGS_WSS_PAGE_ACCESSED;
      return TRUE;
    }

  block = read_block (self, ctx, pfn / BLOCK_FRAMES, error);
  if (block == NULL)
    return FALSE;

  head = pfn % BLOCK_FRAMES;
  if (block->flags[head] & PGS_KPF_BIT (PGS_KPF_COMPOUND_TAIL))
    {
      while (head > 0 && !(block->flags[head] & PGS_KPF_BIT (PGS_KPF_COMPOUND_HEAD)))
        head--;
      if (!(block->flags[head] & PGS_KPF_BIT (PGS_KPF_COMPOUND_HEAD)))
        return TRUE;
    }
  flags = block->flags[head];
  if (!(flags & PGS_KPF_BIT (PGS_KPF_LRU)) || (flags & PGS_KPF_BIT (PGS_KPF_NOPAGE)))
    return TRUE;

  *state |= PGS_WSS_PAGE_ACCESS_KNOWN;
  if (!(block->words[head / 64] & (G_GUINT64_CONSTANT (1) << (head % 64))))
    *state |= PGS_WSS_PAGE_ACCESSED;
  return TRUE;
}
