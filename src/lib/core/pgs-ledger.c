/* pgs-ledger.c
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every byte of MemTotal in rows. Where the frames can answer (kpageflags and kpagecount,
 * as root), a row is counted from them and follows them when a counter disagrees; the
 * kernel's counters give the rest, and are the checks.
 *
 * From the frames (pgs_ledger_count_frames()), each frame once, by its category
 * (pgs-category.c, tail pages following their head) and then by its own flags:
 *  - page cache, shmem and anonymous pages (any LRU category, unevictable and mlocked
 *    ones included): ANON is anonymous, SWAPBACKED without ANON is shmem, the rest file;
 *    a map count above 0 puts it with the processes (what their PSS sums to: each mapped
 *    frame is divided among the mappings that hold it), else in the rows "no process
 *    maps", file pages split by DIRTY | WRITEBACK;
 *  - SLAB, PGTABLE, HUGE (hugetlb), BUDDY (free), the never-initialised spans;
 *  - every other frame inside a zone has no flag that says what it is for (flagless,
 *    RESERVED, the zero page, OFFLINE, a compound page the kernel allocated, zsmalloc's
 *    PRIVATE pages): the kernel's. Frames no zone spans, NOPAGE and the holes the counters
 *    find are not memory.
 *
 * Why the page-flag map's Shmem never agreed with /proc/meminfo's (about 10 MiB short on
 * the 6.18 test machines): its precedence (pgs-category.c) puts UNEVICTABLE and MLOCKED
 * before SWAPBACKED, so shmem that is mlocked or on the unevictable LRU (SHM_LOCK, ramfs-
 * like mappings, a process that mlocks its memfds) shows as "Unevictable" there, while
 * the kernel's NR_SHMEM counts every shmem page whatever LRU it is on. Measured: all
 * 2538 frames with SWAPBACKED and without ANON (10152 kB) carried UNEVICTABLE, 2036 of
 * them MLOCKED too, and Shmem read 10152 kB. The ledger splits by ANON and SWAPBACKED
 * before looking at the LRU, and agrees to the page.
 *
 * The kernel memory then splits as its counters say:
 *  - slab: the frames (SLAB on every page of a slab here, tails following the head
 *    elsewhere); SReclaimable of them is reclaimable, the rest unreclaimable, or
 *    SUnreclaim where that is more: it counts kmalloc()s above 8 KiB too, whole compound
 *    pages without the SLAB flag (6.7 MiB of them on the test machine), which are then
 *    taken from the kernel's flagless frames;
 *  - stacks (KernelStack), vmalloc (VmallocUsed, less KernelStack: with CONFIG_VMAP_STACK,
 *    on by default on every 64-bit architecture that has it, stacks are vmalloc pages and
 *    VmallocUsed counts them; checked on this machine against /proc/vmallocinfo), per-CPU
 *    (Percpu), zram and zswap (vmstat nr_zspages), the per-CPU free lists (zoneinfo's
 *    pagesets "count:", which MemFree leaves out since 6.10 and BUDDY does not mark):
 *    these pages carry no telling flag, so they come out of the kernel's frames;
 *  - boot memory outside MemTotal (zoneinfo's present less MemTotal) comes out of them too;
 *  - what is left is "the rest": kernel memory no counter names (drivers, early
 *    allocations, the memmap of hot-plugged memory…).
 * The rows then sum to the frames inside the zones less what lies outside MemTotal, and
 * the unexplained rest (MemTotal − rows) is what the frames and the counters do not
 * agree on: frames without NOPAGE in a zone's holes, counters above the frames they name.
 *
 * Without the frames (a normal user, a snapshot without a physical map), the rows the
 * counters give on their own are shown and the others are unknown, never 0.
 */

#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "pgs-kpage.h"
#include "pgs-ledger.h"
#include "pgs-meminfo.h"
#include "pgs-physmap.h"
#include "pgs-snapshot.h"

#define B(f) PGS_KPF_BIT (PGS_KPF_##f)

static const struct
{
  const char *id;
  const char *label;
  const char *description;
  PgsCategory category;
} row_info[PGS_LEDGER_N_ROWS] = {
  [PGS_LEDGER_PROCESS_ANON] = { "processes-anon", N_("Processes: anonymous"),
    N_("Anonymous frames some process maps (kpageflags ANON, kpagecount above 0): the anonymous part of every process’s PSS together"),
    PGS_CATEGORY_ANON },
  [PGS_LEDGER_PROCESS_FILE] = { "processes-file", N_("Processes: files"),
    N_("Page cache frames some process maps: libraries, executables, mapped files"),
    PGS_CATEGORY_FILE_ACTIVE },
  [PGS_LEDGER_PROCESS_SHMEM] = { "processes-shmem", N_("Processes: shared memory"),
    N_("Shared memory, tmpfs and memfd frames some process maps (SWAPBACKED without ANON)"),
    PGS_CATEGORY_SHMEM },
  [PGS_LEDGER_ANON_UNMAPPED] = { "anon-unmapped", N_("Anonymous, no process maps"),
    N_("Anonymous frames no process maps: the swap cache, pages being freed"),
    PGS_CATEGORY_ANON_THP },
  [PGS_LEDGER_CACHE_CLEAN] = { "cache-clean", N_("Page cache, no process maps: clean"),
    N_("Files read and kept in memory that no process maps; given back at once when needed"),
    PGS_CATEGORY_FILE_INACTIVE },
  [PGS_LEDGER_CACHE_DIRTY] = { "cache-dirty", N_("Page cache, no process maps: dirty"),
    N_("File pages written and not yet on disk (DIRTY or WRITEBACK) that no process maps"),
    PGS_CATEGORY_DIRTY },
  [PGS_LEDGER_SHMEM_UNMAPPED] = { "shmem-unmapped", N_("tmpfs and shmem, no process maps"),
    N_("Files in tmpfs (/dev/shm, /tmp on tmpfs), memfds and SysV segments no process maps"),
    PGS_CATEGORY_KSM },
  [PGS_LEDGER_SLAB_RECLAIMABLE] = { "slab-reclaimable", N_("Kernel: slab, reclaimable"),
    N_("Slab frames, as much as SReclaimable says is reclaimable (dentries, inodes)"),
    PGS_CATEGORY_SLAB },
  [PGS_LEDGER_SLAB_UNRECLAIMABLE] = { "slab-unreclaimable", N_("Kernel: slab, unreclaimable"),
    N_("The other slab frames (kpageflags SLAB); SUnreclaim is the kernel’s figure"),
    PGS_CATEGORY_SLAB },
  [PGS_LEDGER_PAGE_TABLES] = { "page-tables", N_("Kernel: page tables"),
    N_("Frames holding page tables (kpageflags PGTABLE)"),
    PGS_CATEGORY_PAGE_TABLE },
  [PGS_LEDGER_KERNEL_STACKS] = { "kernel-stacks", N_("Kernel: stacks"),
    N_("The kernel stacks of every thread (KernelStack)"),
    PGS_CATEGORY_RESERVED },
  [PGS_LEDGER_VMALLOC] = { "vmalloc", N_("Kernel: vmalloc"),
    N_("vmalloc pages other than stacks (VmallocUsed less KernelStack): BPF maps, modules, large tables"),
    PGS_CATEGORY_RESERVED },
  [PGS_LEDGER_PERCPU] = { "percpu", N_("Kernel: per-CPU"),
    N_("The per-CPU allocator’s pages (Percpu)"),
    PGS_CATEGORY_RESERVED },
  [PGS_LEDGER_KERNEL_OTHER] = { "kernel-other", N_("Kernel: the rest"),
    N_("Frames with no telling flag that no counter names: drivers, early allocations, buffers"),
    PGS_CATEGORY_RESERVED },
  [PGS_LEDGER_HUGETLB] = { "hugetlb", N_("Huge pages, reserved"),
    N_("The hugetlbfs pool, used or free (kpageflags HUGE)"),
    PGS_CATEGORY_HUGETLB },
  [PGS_LEDGER_ZRAM] = { "zram", N_("zram and zswap"),
    N_("RAM holding compressed pages of zram devices and zswap (vmstat nr_zspages)"),
    PGS_CATEGORY_UNEVICTABLE },
  [PGS_LEDGER_FREE] = { "free", N_("Free"),
    N_("In the page allocator’s free lists (kpageflags BUDDY)"),
    PGS_CATEGORY_FREE },
  [PGS_LEDGER_FREE_PCP] = { "free-pcp", N_("Free, on per-CPU lists"),
    N_("Free pages kept on each CPU’s lists (zoneinfo pagesets); not in MemFree"),
    PGS_CATEGORY_FREE },
  [PGS_LEDGER_UNINIT] = { "uninitialised", N_("Free, not yet initialised"),
    N_("Memory the kernel counts as total and free but has not initialised yet (MemTotal less the zones’ managed pages)"),
    PGS_CATEGORY_FREE_UNINIT },
};

const char *
pgs_ledger_row_get_id (PgsLedgerRow row)
{
  g_return_val_if_fail (row < PGS_LEDGER_N_ROWS, NULL);
  return row_info[row].id;
}

const char *
pgs_ledger_row_get_label (PgsLedgerRow row)
{
  g_return_val_if_fail (row < PGS_LEDGER_N_ROWS, NULL);
  return g_dgettext (GETTEXT_PACKAGE, row_info[row].label);
}

const char *
pgs_ledger_row_get_description (PgsLedgerRow row)
{
  g_return_val_if_fail (row < PGS_LEDGER_N_ROWS, NULL);
  return g_dgettext (GETTEXT_PACKAGE, row_info[row].description);
}

PgsCategory
pgs_ledger_row_get_category (PgsLedgerRow row)
{
  g_return_val_if_fail (row < PGS_LEDGER_N_ROWS, PGS_CATEGORY_RESERVED);
  return row_info[row].category;
}

const char *
pgs_ledger_source_get_id (PgsLedgerSource source)
{
  return source == PGS_LEDGER_SOURCE_FRAMES ? "frames" : "counter";
}

/* ---- the frames ---- */

typedef enum { KIND_ANON, KIND_SHMEM, KIND_FILE } Kind;

/* The kind a frame's own flags give, or -1 when they say nothing (a tail page that
 * follows its head). */
static int
kind_of (guint64 flags)
{
  if (flags & B (ANON))
    return KIND_ANON;
  if (flags & B (SWAPBACKED))
    return KIND_SHMEM;
  if (flags & (B (LRU) | B (DIRTY) | B (WRITEBACK) | B (MMAP) | B (UNEVICTABLE) | B (MLOCKED) |
               B (ACTIVE) | B (UPTODATE)))
    return KIND_FILE;
  return -1;
}

/* Frames of [start, start + n) inside some zone. */
static guint64
inside_zones (const PgsZone *zones,
              guint          n_zones,
              guint64        start,
              guint64        n)
{
  guint64 inside = 0;

  if (n_zones == 0)
    return n;   /* no zoneinfo: nothing to tell them by */
  for (guint z = 0; z < n_zones; z++)
    {
      guint64 lo, hi;

      if (!zones[z].has_start || zones[z].spanned == 0)
        continue;
      lo = MAX (start, zones[z].start_pfn);
      hi = MIN (start + n, zones[z].start_pfn + zones[z].spanned);
      if (hi > lo)
        inside += hi - lo;
    }
  return MIN (inside, n);
}

void
pgs_ledger_count_frames (PgsPhysMap      *physmap,
                         PgsLedgerFrames *out)
{
  enum { BATCH = 4096 };
  g_autofree guint64 *lengths = g_new (guint64, BATCH);
  g_autofree guint32 *counts = g_new (guint32, BATCH);
  g_autofree guint64 *flags = g_new (guint64, BATCH);
  guint64 n_runs, start = 0;
  guint8 head = PGS_CATEGORY_RESERVED;
  int head_kind = KIND_FILE;
  const PgsZone *zones;
  const PgsFrameSpan *spans;
  guint n_zones, n_spans;

  g_return_if_fail (physmap != NULL);
  g_return_if_fail (out != NULL);

  memset (out, 0, sizeof *out);
  zones = pgs_physmap_get_zones (physmap, &n_zones);
  n_runs = pgs_physmap_get_n_runs (physmap);
  for (guint64 first = 0; first < n_runs; first += BATCH)
    {
      guint64 got = pgs_physmap_get_runs (physmap, first, BATCH, lengths, counts, flags);

      for (guint64 i = 0; i < got; start += lengths[i], i++)
        {
          guint64 n = lengths[i], f = flags[i];
          PgsCategory c = pgs_category_classify_run (f, &head);
          int kind;

          switch (c)
            {
            case PGS_CATEGORY_HOLE:
              out->holes += n;
              continue;
            case PGS_CATEGORY_FREE:
              out->free += n;
              continue;
            case PGS_CATEGORY_SLAB:
              out->slab += n;
              continue;
            case PGS_CATEGORY_PAGE_TABLE:
              out->page_tables += n;
              continue;
            case PGS_CATEGORY_HUGETLB:
              out->hugetlb += n;
              continue;
            case PGS_CATEGORY_RESERVED:
            case PGS_CATEGORY_ZERO_PAGE:
            case PGS_CATEGORY_FREE_UNINIT:
              {
                guint64 in = inside_zones (zones, n_zones, start, n);

                out->kernel += in;
                out->holes += n - in;
              }
              continue;
            default:
              break;
            }

          /* A page of the page cache, shmem or anonymous memory. */
          kind = kind_of (f);
          if (f & B (COMPOUND_HEAD))
            head_kind = kind < 0 ? KIND_FILE : kind;
          else if (kind < 0 && (f & B (COMPOUND_TAIL)))
            kind = head_kind;
          if (kind < 0)
            kind = KIND_FILE;

          if (kind == KIND_ANON)
            *(counts[i] > 0 ? &out->process_anon : &out->anon_unmapped) += n;
          else if (kind == KIND_SHMEM)
            *(counts[i] > 0 ? &out->process_shmem : &out->shmem_unmapped) += n;
          else if (counts[i] > 0)
            out->process_file += n;
          else if (f & (B (DIRTY) | B (WRITEBACK)))
            out->cache_dirty += n;
          else
            out->cache_clean += n;
        }
    }

  /* The spans lie on flagless frames, counted above as the kernel's (or, outside every
   * zone, as holes): give them their own rows. */
  spans = pgs_physmap_get_spans (physmap, &n_spans);
  for (guint s = 0; s < n_spans; s++)
    {
      guint64 in = inside_zones (zones, n_zones, spans[s].start, spans[s].n_frames);

      if (spans[s].category == PGS_CATEGORY_FREE_UNINIT)
        out->uninit += in;
      else
        out->holes += in;
      out->kernel -= MIN (out->kernel, in);
    }
}

/* ---- the counters ---- */

/* The value of "KEY: N" (meminfo, @colon) or "KEY N" (vmstat) at the start of a line. */
static gboolean
lookup (const char *text,
        const char *key,
        gboolean    colon,
        guint64    *value)
{
  gsize key_len = strlen (key);

  for (const char *p = text; p != NULL && *p != '\0';)
    {
      const char *eol = strchr (p, '\n');

      if (strncmp (p, key, key_len) == 0 && p[key_len] == (colon ? ':' : ' '))
        {
          const char *s = p + key_len + 1;
          guint64 v = 0;

          while (*s == ' ')
            s++;
          if (!g_ascii_isdigit (*s))
            return FALSE;
          for (; g_ascii_isdigit (*s); s++)
            {
              if (v > (G_MAXUINT64 - 9) / 10)
                return FALSE;
              v = v * 10 + (guint64) (*s - '0');
            }
          *value = v;
          return TRUE;
        }
      p = eol != NULL ? eol + 1 : NULL;
    }
  return FALSE;
}

/* A meminfo field in bytes. */
static gboolean
kb (const char *meminfo,
    const char *key,
    guint64    *bytes)
{
  guint64 v;

  if (meminfo == NULL || !lookup (meminfo, key, TRUE, &v) || v > G_MAXUINT64 / 1024)
    return FALSE;
  *bytes = v * 1024;
  return TRUE;
}

/* The pages on the per-CPU free lists: every pageset's "count:" in zoneinfo. */
static gboolean
pcp_pages (const char *zoneinfo,
           guint64    *pages)
{
  gboolean any = FALSE;

  *pages = 0;
  for (const char *p = zoneinfo; p != NULL && *p != '\0';)
    {
      const char *eol = strchr (p, '\n');
      const char *s = p;

      while (*s == ' ')
        s++;
      if (s > p && strncmp (s, "count:", 6) == 0)
        {
          guint64 v = g_ascii_strtoull (s + 6, NULL, 10);

          *pages += MIN (v, G_MAXUINT32);
          any = TRUE;
        }
      else if (strncmp (s, "pagesets", 8) == 0)
        any = TRUE;   /* a zone with its lists empty still says so */
      p = eol != NULL ? eol + 1 : NULL;
    }
  return any;
}

static void
set_row (PgsLedger      *ledger,
         PgsLedgerRow    row,
         gboolean        known,
         guint64         bytes,
         PgsLedgerSource source)
{
  ledger->rows[row].known = known;
  ledger->rows[row].bytes = known ? bytes : 0;
  ledger->rows[row].source = source;
}

static void
set_counter (PgsLedger    *ledger,
             PgsLedgerRow  row,
             const char   *name,
             gboolean      known,
             guint64       value)
{
  ledger->rows[row].counter = name;
  ledger->rows[row].counter_known = known;
  ledger->rows[row].counter_value = known ? value : 0;
}

PgsLedger *
pgs_ledger_compute (PgsPhysMap  *physmap,
                    const char  *meminfo,
                    const char  *zoneinfo,
                    const char  *vmstat,
                    guint        page_size,
                    GError     **error)
{
  g_autoptr(PgsLedger) ledger = g_new0 (PgsLedger, 1);
  g_autoptr(GArray) zones = NULL;
  PgsMeminfo mi;
  PgsLedgerFrames fr = { 0 };
  guint64 ps = page_size > 0 ? page_size : 4096;
  guint64 present = 0, managed = 0, pcp = 0, zspages = 0;
  guint64 anon = 0, shmem = 0, cached = 0, buffers = 0, free_ = 0, srecl = 0, sunrecl = 0;
  guint64 stacks = 0, vmalloc = 0, percpu = 0, pgtables = 0;
  gboolean has_anon, has_shmem, has_cache, has_srecl, has_sunrecl, has_stacks, has_vmalloc;
  gboolean has_percpu, has_pgtables, has_zones, has_pcp, has_zs, frames;
  guint64 uninit_counter = 0, large_kmalloc = 0, uninit_missed = 0, page_cache;
  guint64 sum = 0;
  gboolean all_known = TRUE;

  if (meminfo == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, "no /proc/meminfo to account for");
      return NULL;
    }
  if (!pgs_meminfo_parse (meminfo, strlen (meminfo), &mi, error))
    return NULL;
  ledger->mem_total = mi.value[PGS_MEMINFO_MEM_TOTAL];

  if (zoneinfo != NULL)
    {
      g_autoptr(GError) local = NULL;

      zones = pgs_zoneinfo_parse (zoneinfo, strlen (zoneinfo), &local);
    }
  has_zones = zones != NULL && zones->len > 0;
  /* Texts from a snapshot file may hold anything: sums that would wrap make them unknown. */
  for (guint z = 0; has_zones && z < zones->len; z++)
    if (g_uint64_checked_add (&present, present, g_array_index (zones, PgsZone, z).present) == FALSE ||
        g_uint64_checked_add (&managed, managed, g_array_index (zones, PgsZone, z).managed) == FALSE)
      has_zones = FALSE;
  if (present > G_MAXUINT64 / ps || managed > G_MAXUINT64 / ps)
    has_zones = FALSE;
  if (has_zones && present * ps >= ledger->mem_total)
    {
      ledger->outside_known = TRUE;
      ledger->outside_mem_total = present * ps - ledger->mem_total;
    }
  /* A kernel that initialises its memory lazily counts what it has not yet given the
   * allocator as total and free (see pgs-meminfo.c); mainline has MemTotal = Σ managed. */
  if (has_zones)
    uninit_counter = ledger->mem_total > managed * ps ? ledger->mem_total - managed * ps : 0;
  has_pcp = has_zones && pcp_pages (zoneinfo, &pcp) && pcp <= G_MAXUINT64 / ps;
  has_zs = vmstat != NULL && lookup (vmstat, "nr_zspages", FALSE, &zspages) &&
           zspages <= G_MAXUINT64 / ps;

  has_anon = kb (meminfo, "AnonPages", &anon);
  has_shmem = kb (meminfo, "Shmem", &shmem);
  has_cache = kb (meminfo, "Cached", &cached) && kb (meminfo, "Buffers", &buffers) &&
              has_shmem && g_uint64_checked_add (&cached, cached, buffers) && cached >= shmem;
  page_cache = has_cache ? cached - shmem : 0;   /* Cached + Buffers − Shmem */
  has_srecl = kb (meminfo, "SReclaimable", &srecl);
  has_sunrecl = kb (meminfo, "SUnreclaim", &sunrecl);
  has_stacks = kb (meminfo, "KernelStack", &stacks);
  has_vmalloc = kb (meminfo, "VmallocUsed", &vmalloc);
  has_percpu = kb (meminfo, "Percpu", &percpu);
  has_pgtables = kb (meminfo, "PageTables", &pgtables);
  free_ = mi.value[PGS_MEMINFO_MEM_FREE];
  /* Stacks are vmalloc pages where VmallocUsed can hold them (CONFIG_VMAP_STACK). */
  if (has_vmalloc && has_stacks && stacks <= vmalloc)
    vmalloc -= stacks;

  frames = physmap != NULL;
  if (frames)
    pgs_ledger_count_frames (physmap, &fr);
  ledger->from_frames = frames;

#define FRAMES(row, n) set_row (ledger, row, frames, (n) * ps, PGS_LEDGER_SOURCE_FRAMES)
  FRAMES (PGS_LEDGER_PROCESS_FILE, fr.process_file);
  FRAMES (PGS_LEDGER_PROCESS_SHMEM, fr.process_shmem);
  FRAMES (PGS_LEDGER_ANON_UNMAPPED, fr.anon_unmapped);
  FRAMES (PGS_LEDGER_CACHE_CLEAN, fr.cache_clean);
  FRAMES (PGS_LEDGER_CACHE_DIRTY, fr.cache_dirty);
  FRAMES (PGS_LEDGER_SHMEM_UNMAPPED, fr.shmem_unmapped);
#undef FRAMES

  /* Anonymous memory some process maps: AnonPages is exactly that (NR_ANON_MAPPED). */
  if (frames)
    set_row (ledger, PGS_LEDGER_PROCESS_ANON, TRUE, fr.process_anon * ps, PGS_LEDGER_SOURCE_FRAMES);
  else
    set_row (ledger, PGS_LEDGER_PROCESS_ANON, has_anon, anon, PGS_LEDGER_SOURCE_COUNTER);
  set_counter (ledger, PGS_LEDGER_PROCESS_ANON, "AnonPages", has_anon, anon);
  set_counter (ledger, PGS_LEDGER_PROCESS_SHMEM, "Shmem", has_shmem, shmem);
  set_counter (ledger, PGS_LEDGER_SHMEM_UNMAPPED, "Shmem", has_shmem, shmem);
  /* Cached counts shmem and leaves out Buffers (block device pages, page cache too). */
  set_counter (ledger, PGS_LEDGER_PROCESS_FILE, "Cached + Buffers − Shmem", has_cache,
               page_cache);
  set_counter (ledger, PGS_LEDGER_CACHE_CLEAN, "Cached + Buffers − Shmem", has_cache,
               page_cache);
  set_counter (ledger, PGS_LEDGER_CACHE_DIRTY, "Cached + Buffers − Shmem", has_cache,
               page_cache);

  /* Slab: the frames say how much, SReclaimable how much of it is reclaimable. SUnreclaim
   * also counts kmalloc()s above 8 KiB (kmalloc_large: plain compound pages, no SLAB
   * flag): where it holds more than the frames' SLAB pages, that much more comes out of
   * the kernel's flagless frames. */
  if (frames)
    {
      guint64 slab = fr.slab * ps;
      guint64 recl = has_srecl ? MIN (srecl, slab) : 0;

      set_row (ledger, PGS_LEDGER_SLAB_RECLAIMABLE, has_srecl, recl, PGS_LEDGER_SOURCE_COUNTER);
      /* Without SReclaimable the split is unknown. */
      if (has_sunrecl && sunrecl > slab - recl)
        {
          large_kmalloc = sunrecl - (slab - recl);
          set_row (ledger, PGS_LEDGER_SLAB_UNRECLAIMABLE, has_srecl, sunrecl,
                   PGS_LEDGER_SOURCE_COUNTER);
        }
      else
        set_row (ledger, PGS_LEDGER_SLAB_UNRECLAIMABLE, has_srecl, slab - recl,
                 PGS_LEDGER_SOURCE_FRAMES);
    }
  else
    {
      set_row (ledger, PGS_LEDGER_SLAB_RECLAIMABLE, has_srecl, srecl, PGS_LEDGER_SOURCE_COUNTER);
      set_row (ledger, PGS_LEDGER_SLAB_UNRECLAIMABLE, has_sunrecl, sunrecl, PGS_LEDGER_SOURCE_COUNTER);
    }
  set_counter (ledger, PGS_LEDGER_SLAB_RECLAIMABLE, "SReclaimable", has_srecl, srecl);
  set_counter (ledger, PGS_LEDGER_SLAB_UNRECLAIMABLE, "SUnreclaim", has_sunrecl, sunrecl);

  if (frames)
    set_row (ledger, PGS_LEDGER_PAGE_TABLES, TRUE, fr.page_tables * ps, PGS_LEDGER_SOURCE_FRAMES);
  else
    set_row (ledger, PGS_LEDGER_PAGE_TABLES, has_pgtables, pgtables, PGS_LEDGER_SOURCE_COUNTER);
  set_counter (ledger, PGS_LEDGER_PAGE_TABLES, "PageTables", has_pgtables, pgtables);

  set_row (ledger, PGS_LEDGER_KERNEL_STACKS, has_stacks, stacks, PGS_LEDGER_SOURCE_COUNTER);
  set_counter (ledger, PGS_LEDGER_KERNEL_STACKS, "KernelStack", has_stacks, stacks);
  set_row (ledger, PGS_LEDGER_VMALLOC, has_vmalloc, vmalloc, PGS_LEDGER_SOURCE_COUNTER);
  set_counter (ledger, PGS_LEDGER_VMALLOC, "VmallocUsed − KernelStack", has_vmalloc, vmalloc);
  set_row (ledger, PGS_LEDGER_PERCPU, has_percpu, percpu, PGS_LEDGER_SOURCE_COUNTER);
  set_counter (ledger, PGS_LEDGER_PERCPU, "Percpu", has_percpu, percpu);
  set_row (ledger, PGS_LEDGER_ZRAM, has_zs, zspages * ps, PGS_LEDGER_SOURCE_COUNTER);
  set_row (ledger, PGS_LEDGER_FREE_PCP, has_pcp, pcp * ps, PGS_LEDGER_SOURCE_COUNTER);

  if (frames)
    set_row (ledger, PGS_LEDGER_HUGETLB, TRUE, fr.hugetlb * ps, PGS_LEDGER_SOURCE_FRAMES);
  else
    set_row (ledger, PGS_LEDGER_HUGETLB, PGS_MEMINFO_HAS (&mi, PGS_MEMINFO_HUGETLB),
             mi.value[PGS_MEMINFO_HUGETLB], PGS_LEDGER_SOURCE_COUNTER);
  set_counter (ledger, PGS_LEDGER_HUGETLB, "Hugetlb", PGS_MEMINFO_HAS (&mi, PGS_MEMINFO_HUGETLB),
               mi.value[PGS_MEMINFO_HUGETLB]);

  /* Free: MemFree is BUDDY plus, on a lazily initialised kernel, what is not initialised.
   * A never-initialised frame reads as flagless as a kernel page does; the spans
   * (pgs-meminfo.c) find them as a zone's flagless top, which a section initialised
   * above them (lazy init running during the scan: managed then grows between the frames
   * and zoneinfo) hides. Where MemTotal − Σ managed says more is not initialised than the
   * spans hold, the difference comes out of the kernel's flagless frames. */
  if (frames)
    {
      set_row (ledger, PGS_LEDGER_FREE, TRUE, fr.free * ps, PGS_LEDGER_SOURCE_FRAMES);
      if (has_zones && uninit_counter > fr.uninit * ps)
        {
          uninit_missed = uninit_counter - fr.uninit * ps;
          set_row (ledger, PGS_LEDGER_UNINIT, TRUE, uninit_counter, PGS_LEDGER_SOURCE_COUNTER);
        }
      else
        set_row (ledger, PGS_LEDGER_UNINIT, TRUE, fr.uninit * ps, PGS_LEDGER_SOURCE_FRAMES);
    }
  else
    {
      /* Without zoneinfo, MemFree cannot be told from the memory not yet initialised. */
      set_row (ledger, PGS_LEDGER_FREE, has_zones && free_ >= uninit_counter,
               free_ - MIN (free_, uninit_counter), PGS_LEDGER_SOURCE_COUNTER);
      set_row (ledger, PGS_LEDGER_UNINIT, has_zones, uninit_counter, PGS_LEDGER_SOURCE_COUNTER);
    }
  set_counter (ledger, PGS_LEDGER_FREE, "MemFree", TRUE, free_);
  set_counter (ledger, PGS_LEDGER_UNINIT, "MemFree", TRUE, free_);

  /* The rest of the kernel's frames: less what lies outside MemTotal and what the
   * counters name. Counters above the frames leave 0 here and show as a negative
   * unexplained rest. */
  if (frames && ledger->outside_known && has_stacks && has_vmalloc && has_percpu && has_zs &&
      has_pcp)
    {
      guint64 kernel = fr.kernel * ps;
      guint64 named[] = { ledger->outside_mem_total, uninit_missed, large_kmalloc, stacks,
                          vmalloc, percpu, zspages * ps, pcp * ps };

      for (guint i = 0; i < G_N_ELEMENTS (named); i++)
        kernel -= MIN (kernel, named[i]);
      set_row (ledger, PGS_LEDGER_KERNEL_OTHER, TRUE, kernel, PGS_LEDGER_SOURCE_FRAMES);
    }
  else
    set_row (ledger, PGS_LEDGER_KERNEL_OTHER, FALSE, 0, PGS_LEDGER_SOURCE_FRAMES);

  for (guint r = 0; r < PGS_LEDGER_N_ROWS; r++)
    {
      if (!ledger->rows[r].known)
        all_known = FALSE;
      else if (!g_uint64_checked_add (&sum, sum, ledger->rows[r].bytes))
        sum = G_MAXUINT64;
    }
  /* Signed, saturated: real figures are far inside the range. */
  if (sum <= ledger->mem_total)
    ledger->unknown = (gint64) MIN (ledger->mem_total - sum, (guint64) G_MAXINT64);
  else
    ledger->unknown = -(gint64) MIN (sum - ledger->mem_total, (guint64) G_MAXINT64);
  ledger->unexplained_known = all_known;
  ledger->unexplained = all_known ? ledger->unknown : 0;
  return g_steal_pointer (&ledger);
}

PgsLedger *
pgs_ledger_new_for_snapshot (PgsSnapshot  *snapshot,
                             GError      **error)
{
  PgsPhysMap *physmap;
  const char *meminfo = NULL, *zoneinfo = NULL;

  g_return_val_if_fail (PGS_IS_SNAPSHOT (snapshot), NULL);

  /* The counters read right after the frames, where there are frames. */
  physmap = pgs_snapshot_get_physmap (snapshot);
  if (physmap != NULL)
    {
      meminfo = pgs_physmap_get_meminfo_text (physmap);
      zoneinfo = pgs_physmap_get_zoneinfo_text (physmap);
    }
  if (meminfo == NULL)
    meminfo = pgs_snapshot_get_meminfo_text (snapshot);
  if (zoneinfo == NULL)
    zoneinfo = pgs_snapshot_get_zoneinfo_text (snapshot);
  return pgs_ledger_compute (physmap, meminfo, zoneinfo, pgs_snapshot_get_vmstat_text (snapshot),
                             pgs_snapshot_get_page_size (snapshot), error);
}

void
pgs_ledger_free (PgsLedger *ledger)
{
  g_free (ledger);
}

gboolean
pgs_ledger_counter_agrees (const PgsLedger *ledger,
                           PgsLedgerRow     row,
                           guint64          slack,
                           guint64         *rows_sum)
{
  const PgsLedgerEntry *e;
  guint64 sum = 0, diff;

  g_return_val_if_fail (ledger != NULL, FALSE);
  g_return_val_if_fail (row < PGS_LEDGER_N_ROWS, FALSE);

  e = &ledger->rows[row];
  if (e->counter == NULL || !e->counter_known)
    return FALSE;
  for (guint r = 0; r < PGS_LEDGER_N_ROWS; r++)
    if (ledger->rows[r].counter != NULL && strcmp (ledger->rows[r].counter, e->counter) == 0)
      {
        if (!ledger->rows[r].known)
          return FALSE;
        sum += ledger->rows[r].bytes;
      }
  if (rows_sum != NULL)
    *rows_sum = sum;
  diff = sum > e->counter_value ? sum - e->counter_value : e->counter_value - sum;
  return diff <= MAX (slack, e->counter_value / 100);
}
