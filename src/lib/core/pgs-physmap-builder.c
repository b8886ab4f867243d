/* pgs-physmap-builder.c: making the runs of a physical map (private to libpagescope)
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The builder knows runs and pairs, not the physical map: pgs-physmap-make.c takes its
 * arrays (pgs_physmap_new_from_builder()), so calls go one way, from the map to the builder.
 */

#include "config.h"

#include <string.h>

#include "pgs-physmap-builder.h"

void
pgs_run_builder_init (RunBuilder *b)
{
  memset (b, 0, sizeof *b);
  b->epochs = g_array_new (FALSE, FALSE, sizeof (guint32));
  b->table_mask = 255;
  b->table = g_new0 (guint32, b->table_mask + 1);
}

void
pgs_run_builder_clear (RunBuilder *b)
{
  g_free (b->lo);
  g_free (b->pair);
  g_array_unref (b->epochs);
  g_free (b->pair_count);
  g_free (b->pair_flags);
  g_free (b->table);
}

static inline guint32
pair_hash (guint32 count,
           guint64 flags)
{
  guint64 h = (flags ^ ((guint64) count << 29) ^ count) * G_GUINT64_CONSTANT (0x9e3779b97f4a7c15);

  return (guint32) (h >> 32);
}

guint32
pgs_run_builder_pair (RunBuilder *b,
                      guint32     count,
                      guint64     flags)
{
  guint32 slot = pair_hash (count, flags) & b->table_mask;

  for (;; slot = (slot + 1) & b->table_mask)
    {
      guint32 e = b->table[slot];

      if (e == 0)
        break;
      if (b->pair_count[e - 1] == count && b->pair_flags[e - 1] == flags)
        return e - 1;
    }

  if (b->n_pairs == b->pair_cap)
    {
      b->pair_cap = MAX (b->pair_cap * 2, 256);
      b->pair_count = g_renew (guint32, b->pair_count, b->pair_cap);
      b->pair_flags = g_renew (guint64, b->pair_flags, b->pair_cap);
    }
  b->pair_count[b->n_pairs] = count;
  b->pair_flags[b->n_pairs] = flags;
  b->table[slot] = ++b->n_pairs;

  /* At most half full. */
  if (b->n_pairs * 2 > b->table_mask)
    {
      b->table_mask = b->table_mask * 2 + 1;
      g_free (b->table);
      b->table = g_new0 (guint32, b->table_mask + 1);
      for (guint32 k = 0; k < b->n_pairs; k++)
        {
          guint32 t = pair_hash (b->pair_count[k], b->pair_flags[k]) & b->table_mask;

          while (b->table[t] != 0)
            t = (t + 1) & b->table_mask;
          b->table[t] = k + 1;
        }
    }
  return b->n_pairs - 1;
}
