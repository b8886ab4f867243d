/* pgs-swap.c
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the kernel counts in smaps (fs/proc/task_mmu.c, Linux 6.x):
 *  - Swap: every swap PTE (smaps_pte_entry), and for a shmem mapping the swapped pages of
 *    the shmem object in its range (smap_gather_stats: shmem_swap_usage, or per hole
 *    through smaps_pte_hole for a private writable one). Swapped shmem pages have no PTE,
 *    so pagemap shows nothing there: shmem, tmpfs, memfd, SysV and shared anonymous
 *    memory under-reported swap when taken page by page.
 *  - SwapPss: per swap PTE, (PAGE_SIZE << 12) / swap count (swp_swapcount), or the page
 *    whole for a count of 1; shmem's swapped pages are not in it. The swap count of an
 *    entry is not visible from user space, so SwapPss comes from smaps: exact where smaps
 *    could be read, unknown where not, and 0 without reading anything where the process has
 *    no swap PTE at all.
 *
 * Shmem mappings are file mappings on a device with major number 0 (tmpfs, the shm mount,
 * memfd, SysV and "/dev/zero (deleted)" for shared anonymous memory all are); others on
 * major 0 (overlayfs, btrfs, NFS) cost a read of smaps, only while swap is in use.
 */

#include "config.h"

#include <string.h>

#include "pgs-parse.h"
#include "pgs-procfs.h"
#include "pgs-swap.h"

/* "   123 kB" → bytes */
static gboolean
meminfo_kb (const char *p,
                gsize       len,
                guint64    *bytes)
{
  g_autofree char *text = g_strndup (p, len);
  char *end = NULL;
  guint64 kb;

  g_strstrip (text);
  if (!g_ascii_isdigit (text[0]))
    return FALSE;
  kb = g_ascii_strtoull (text, &end, 10);
  if (end == NULL || strcmp (end, " kB") != 0 || kb > G_MAXUINT64 / 1024)
    return FALSE;
  *bytes = kb * 1024;
  return TRUE;
}

PgsSwapState
_pgs_swap_state (int root_fd)
{
  g_autofree char *buf = NULL;
  PgsLineReader reader;
  const char *line;
  gsize len;
  gboolean complete;
  guint64 total = 0, free_ = 0;
  guint seen = 0;

  buf = pgs_read_file_at (root_fd, "meminfo", &len, NULL);
  if (buf == NULL)
    return PGS_SWAP_UNKNOWN;

  pgs_line_reader_init (&reader, buf, len);
  while (pgs_line_reader_next (&reader, &line, &len, &complete))
    {
      if (len > 10 && memcmp (line, "SwapTotal:", 10) == 0)
        {
          if (!meminfo_kb (line + 10, len - 10, &total))
            return PGS_SWAP_UNKNOWN;
          seen |= 1;
        }
      else if (len > 9 && memcmp (line, "SwapFree:", 9) == 0)
        {
          if (!meminfo_kb (line + 9, len - 9, &free_))
            return PGS_SWAP_UNKNOWN;
          seen |= 2;
        }
    }
  if (seen != 3 || free_ > total)
    return PGS_SWAP_UNKNOWN;
  return total == free_ ? PGS_SWAP_NONE : PGS_SWAP_USED;
}

static inline gboolean
may_be_shmem (const PgsMappingData *m)
{
  return m->inode != 0 && m->dev_major == 0;
}

typedef struct
{
  PgsProcess *proc;
  guint       next;
} Match;

static void
take_mapping (const PgsMapsEntry   *entry,
              const PgsSmapsFields *fields,
              gpointer              user_data)
{
  Match *match = user_data;
  PgsMappingData *m = _pgs_process_match_mapping (match->proc, &match->next, entry->start,
                                                  entry->end);

  if (m == NULL)
    return;
  if (fields->seen & PGS_SMAPS_SEEN_SWAP_PSS)
    {
      m->swap_pss = fields->swap_pss;
      m->known |= PGS_METRIC_SWAP_PSS;
    }
  if (may_be_shmem (m) && (fields->seen & (1u << 5)))
    m->swap = fields->swap;
}

void
_pgs_swap_fill (PgsProcess   *proc,
                int           dirfd,
                PgsSwapState  state)
{
  PgsMappingData *maps = (PgsMappingData *) proc->mappings->data;
  gboolean swap_ptes = FALSE, shmem = FALSE, all_known = TRUE;
  g_autofree char *smaps = NULL;
  gsize len;

  for (guint i = 0; i < proc->mappings->len; i++)
    {
      swap_ptes |= maps[i].swap > 0;
      shmem |= may_be_shmem (&maps[i]);
    }

  if (!swap_ptes && (state == PGS_SWAP_NONE || !shmem))
    {
      /* No swap PTE: SwapPss is 0 by the kernel's definition; and no shmem swap to find. */
      for (guint i = 0; i < proc->mappings->len; i++)
        {
          maps[i].swap_pss = 0;
          maps[i].known |= PGS_METRIC_SWAP_PSS;
        }
    }
  else
    {
      smaps = pgs_read_file_at (dirfd, "smaps", &len, NULL);
      if (smaps != NULL)
        {
          Match match = { proc, 0 };
          PgsSmapsReader reader;
          PgsMapsEntry entry;
          PgsSmapsFields fields;

          pgs_smaps_reader_init (&reader, smaps, len);
          while (pgs_smaps_reader_next (&reader, &entry, &fields, NULL))
            take_mapping (&entry, &fields, &match);
        }
    }

  proc->swap_pss = 0;
  for (guint i = 0; i < proc->mappings->len; i++)
    {
      all_known &= (maps[i].known & PGS_METRIC_SWAP_PSS) != 0;
      proc->swap_pss += maps[i].swap_pss;
    }
  if (all_known)
    proc->known |= PGS_METRIC_SWAP_PSS;
}
