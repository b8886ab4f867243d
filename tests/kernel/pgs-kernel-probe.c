/* pgs-kernel-probe.c
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pgs-kernel-probe.h"
#include "pgs-kpage.h"
#include "pgs-pagemap.h"

static PgsKernelProbe probe;
static gboolean probed;

static guint64
pagemap_entry (const void *address)
{
  int fd = open ("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
  guint64 entry = 0;
  long ps = sysconf (_SC_PAGESIZE);

  if (fd >= 0)
    {
      if (pread (fd, &entry, 8, (off_t) ((uintptr_t) address / (uintptr_t) ps * 8)) != 8)
        entry = 0;
      close (fd);
    }
  return entry;
}

static guint64
frame_flags (guint64 entry)
{
  int fd = open ("/proc/kpageflags", O_RDONLY | O_CLOEXEC);
  guint64 flags = 0;

  if (fd >= 0 && pgs_pm_is_present (entry))
    {
      if (pread (fd, &flags, 8, (off_t) (pgs_pm_pfn (entry) * 8)) != 8)
        flags = 0;
    }
  if (fd >= 0)
    close (fd);
  return flags;
}

static void
probe_pages (void)
{
  long ps = sysconf (_SC_PAGESIZE);
  volatile char *p = mmap (NULL, 2 * ps, PROT_READ | PROT_WRITE,
                           MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  guint64 read_entry, written_entry, shared_entry = 0;
  int go[2];
  pid_t child;
  char byte = 0;

  g_assert (p != MAP_FAILED);
  madvise ((void *) p, 2 * ps, MADV_NOHUGEPAGE);

  /* Page 0 read only; page 1 written. */
  byte = p[0];
  p[ps] = byte + 1;
  read_entry = pagemap_entry ((const void *) p);
  written_entry = pagemap_entry ((const void *) (p + ps));
  probe.zero_page = pgs_pm_is_present (read_entry) &&
                    (frame_flags (read_entry) & PGS_KPF_BIT (PGS_KPF_ZERO_PAGE)) != 0;
  probe.soft_dirty = (written_entry & PGS_PM_SOFT_DIRTY) != 0;

  /* The written page shared with a child that waits: no longer exclusive. */
  g_assert (pipe (go) == 0);
  child = fork ();
  g_assert (child >= 0);
  if (child == 0)
    {
      close (go[1]);
      if (read (go[0], &byte, 1) < 0)
        _exit (1);
      _exit (0);
    }
  close (go[0]);
  shared_entry = pagemap_entry ((const void *) (p + ps));
  close (go[1]);
  waitpid (child, NULL, 0);
  probe.exclusive_bit_reliable = (written_entry & PGS_PM_EXCLUSIVE) != 0 &&
                                 pgs_pm_is_present (shared_entry) &&
                                 (shared_entry & PGS_PM_EXCLUSIVE) == 0;

  {
    int fd = open ("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
    g_autoptr(GArray) regions = g_array_new (FALSE, FALSE, sizeof (PgsPageRegion));

    probe.pagemap_scan = fd >= 0 && pgs_pagemap_scan (fd, (guint64) (uintptr_t) p,
                                                      (guint64) (uintptr_t) p + 2 * ps,
                                                      regions, NULL);
    if (fd >= 0)
      close (fd);
  }
  munmap ((void *) p, 2 * ps);
}

static void
probe_thp (void)
{
  g_autofree char *enabled = NULL;
  const size_t huge = 2u << 20;
  char *area, *aligned;

  if (!g_file_get_contents ("/sys/kernel/mm/transparent_hugepage/enabled", &enabled, NULL, NULL))
    return;
  {
    char *open_bracket = strchr (enabled, '['), *close_bracket;

    if (open_bracket != NULL && (close_bracket = strchr (open_bracket, ']')) != NULL)
      probe.thp_mode = g_strndup (open_bracket + 1, close_bracket - open_bracket - 1);
  }
  area = mmap (NULL, 2 * huge, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (area == MAP_FAILED)
    return;
  aligned = (char *) (((uintptr_t) area + huge - 1) & ~(uintptr_t) (huge - 1));
  madvise (aligned, huge, MADV_HUGEPAGE);
  memset (aligned, 1, huge);
  probe.thp_madvise_works = (frame_flags (pagemap_entry (aligned)) & PGS_KPF_BIT (PGS_KPF_THP)) != 0;
  munmap (area, 2 * huge);
}

/* Some of DAMON's sysfs handlers can answer EBUSY while another tool holds their lock:
 * retried, as the library does. */
static gboolean
read_sysfs_word (const char  *path,
                 char       **word)
{
  for (guint attempt = 0; attempt < 1000; attempt++)
    {
      g_autoptr(GError) error = NULL;

      if (g_file_get_contents (path, word, NULL, &error))
        {
          g_strstrip (*word);
          return TRUE;
        }
      if (g_error_matches (error, G_FILE_ERROR, G_FILE_ERROR_NOENT))
        return FALSE;
      g_usleep (1000);
    }
  return FALSE;
}

static void
probe_damon (void)
{
  const char *root = "/sys/kernel/mm/damon/admin/kdamonds";
  g_autoptr(GDir) dir = g_dir_open (root, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *state_path = g_build_filename (root, name, "state", NULL);
      g_autofree char *contexts = g_build_filename (root, name, "contexts", NULL);
      g_autofree char *state = NULL;
      g_autoptr(GDir) cdir = NULL;
      const char *ctx;

      if (!read_sysfs_word (state_path, &state) || !g_str_equal (state, "on"))
        continue;
      probe.damon_running++;
      cdir = g_dir_open (contexts, 0, NULL);
      while (cdir != NULL && (ctx = g_dir_read_name (cdir)) != NULL)
        {
          g_autofree char *ops_path = g_build_filename (contexts, ctx, "operations", NULL);
          g_autofree char *ops = NULL;

          if (read_sysfs_word (ops_path, &ops) && g_str_equal (ops, "paddr"))
            probe.damon_paddr = TRUE;
        }
    }
}

static void
probe_system (void)
{
  g_autofree char *swaps = NULL;
  g_autofree char *cmdline = NULL;
  int fd;

  fd = open ("/sys/kernel/mm/page_idle/bitmap", O_RDONLY | O_CLOEXEC);
  probe.idle_tracking = fd >= 0;
  if (fd >= 0)
    close (fd);

  if (g_file_get_contents ("/proc/swaps", &swaps, NULL, NULL))
    {
      char *nl = strchr (swaps, '\n');

      probe.swap_active = nl != NULL && strchr (nl + 1, '\n') != NULL;
    }
  probe.zram_available = g_file_test ("/sys/class/zram-control/hot_add", G_FILE_TEST_EXISTS) ||
                         g_file_test ("/sys/block/zram0", G_FILE_TEST_EXISTS);
  probe.lazy_init = g_file_get_contents ("/proc/cmdline", &cmdline, NULL, NULL) &&
                    strstr (cmdline, "deferred_init=lazy") != NULL;
}

static const char *
yes_no (gboolean value)
{
  return value ? "yes" : "no";
}

const PgsKernelProbe *
pgs_kernel_probe (void)
{
  if (probed)
    return &probe;
  probed = TRUE;

  probe_pages ();
  probe_thp ();
  probe_damon ();
  probe_system ();

  /* TAP comments: the reason for every expectation derived below is in the log. */
  g_print ("# probe: zero page mapped on read faults: %s\n", yes_no (probe.zero_page));
  g_print ("# probe: pagemap exclusive bit reliable: %s\n", yes_no (probe.exclusive_bit_reliable));
  g_print ("# probe: PAGEMAP_SCAN: %s\n", yes_no (probe.pagemap_scan));
  g_print ("# probe: idle page tracking: %s\n", yes_no (probe.idle_tracking));
  g_print ("# probe: soft-dirty: %s\n", yes_no (probe.soft_dirty));
  g_print ("# probe: THP mode: %s; a madvised 2 MiB region got a THP: %s\n",
           probe.thp_mode ? probe.thp_mode : "(no THP)", yes_no (probe.thp_madvise_works));
  g_print ("# probe: swap active: %s; zram available: %s\n", yes_no (probe.swap_active),
           yes_no (probe.zram_available));
  g_print ("# probe: DAMON kdamonds on: %u (physical addresses: %s)\n", probe.damon_running,
           yes_no (probe.damon_paddr));
  g_print ("# probe: struct pages initialised lazily: %s\n", yes_no (probe.lazy_init));
  return &probe;
}
