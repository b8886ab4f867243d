/* pgs-frames.h: the kpagecount/kpageflags entries of the frames a scan needs, sparse
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Frame numbers come from pagemap and may be anything up to 2^55: device memory (PFN
 * mappings, GPU and PCI BARs) sits far above RAM, and a damaged fixture can say anything. So
 * nothing here is sized by the highest frame number: the table holds one slot per chunk of
 * frames actually asked for, found by binary search over the sorted chunk numbers. A frame
 * the file does not cover (read past its end, or EINVAL) is unknown, never a crash.
 */

#pragma once

#include <glib.h>

#include "pgs-physmap.h"

G_BEGIN_DECLS

typedef struct _PgsFrameTable PgsFrameTable;

/* @chunk_frames: frames per chunk, a power of two (kpage entries are read a chunk at a time,
 * and neighbouring chunks in one pread). @as_u32: keep entries saturated to 32 bits (map
 * counts), in half the memory. */
PgsFrameTable *pgs_frame_table_new    (guint           chunk_frames,
                                       gboolean        as_u32);
void           pgs_frame_table_free   (PgsFrameTable  *table);

/* Asks for the entry of @pfn. Cheap: repeated asks for one chunk cost a compare. */
void           pgs_frame_table_want   (PgsFrameTable  *table,
                                       guint64         pfn);
gboolean       pgs_frame_table_is_empty (PgsFrameTable *table);

/* Reads the chunks asked for from @fd (kpagecount or kpageflags). Chunks past the end of the
 * file, or that the kernel refuses (EINVAL), stay unknown; other read errors fail. */
gboolean       pgs_frame_table_read   (PgsFrameTable  *table,
                                       int             fd,
                                       GError        **error);

/* The entry of @pfn: FALSE when it was not asked for or could not be read. */
gboolean       pgs_frame_table_lookup (PgsFrameTable  *table,
                                       guint64         pfn,
                                       guint64        *value);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PgsFrameTable, pgs_frame_table_free)

G_END_DECLS

G_BEGIN_DECLS

/* Where the scan's last phase finds a frame's map count and flags: a physical map read
 * whole (its runs), dense arrays, or the sparse tables. */
typedef struct
{
  PgsPhysMap    *physmap;       /* or NULL */
  const guint32 *counts;        /* dense, n_frames long; or NULL */
  const guint64 *flags;
  guint64        n_frames;
  PgsFrameTable *count_table;   /* sparse; or NULL */
  PgsFrameTable *flag_table;
} PgsFrameLookup;

/* The map count of @pfn, saturated to 32 bits; FALSE where unknown. */
static inline gboolean
pgs_frame_lookup_count (const PgsFrameLookup *lookup,
                        guint64               pfn,
                        guint32              *count)
{
  guint64 v;

  if (lookup->physmap != NULL)
    return pgs_physmap_get_frame (lookup->physmap, pfn, count, NULL);
  if (lookup->counts != NULL)
    {
      if (pfn >= lookup->n_frames)
        return FALSE;
      *count = lookup->counts[pfn];
      return TRUE;
    }
  if (lookup->count_table == NULL || !pgs_frame_table_lookup (lookup->count_table, pfn, &v))
    return FALSE;
  *count = (guint32) MIN (v, G_MAXUINT32);
  return TRUE;
}

/* The flags of @pfn, 0 where unknown. */
static inline guint64
pgs_frame_lookup_flags (const PgsFrameLookup *lookup,
                        guint64               pfn)
{
  guint64 v = 0;

  if (lookup->physmap != NULL)
    {
      pgs_physmap_get_frame (lookup->physmap, pfn, NULL, &v);
      return v;
    }
  if (lookup->flags != NULL)
    return pfn < lookup->n_frames ? lookup->flags[pfn] : 0;
  if (lookup->flag_table != NULL && pgs_frame_table_lookup (lookup->flag_table, pfn, &v))
    return v;
  return 0;
}

G_END_DECLS
