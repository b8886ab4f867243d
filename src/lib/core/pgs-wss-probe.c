/* pgs-wss-probe.c: which per-page working-set sources this kernel offers
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Moved out of pgs-wss.c unchanged: the probes touch no process but this one.
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "pgs-pagemap.h"
#include "pgs-procfs.h"
#include "pgs-wss.h"

#define DEFAULT_SYSFS_ROOT "/sys"
#define PAGE_IDLE_BITMAP   "kernel/mm/page_idle/bitmap"

/* Runs the probe for soft-dirty on a page of this process: a page just written reads with
 * bit 55 set where the kernel tracks soft-dirty at all (every new VMA starts soft-dirty),
 * and never does where it is compiled out. Touches nothing outside this process. */
static gboolean
probe_soft_dirty (char **reason)
{
  long page_size = sysconf (_SC_PAGESIZE);
  guint64 entry = 0;
  gssize n;
  int errsv;
  int fd;
  volatile char *page;

  page = mmap (NULL, page_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (page == MAP_FAILED)
    {
      *reason = g_strdup_printf ("soft-dirty could not be probed (mmap: %s)", g_strerror (errno));
      return FALSE;
    }
  page[0] = 1;

  fd = open ("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
  errsv = errno;
  n = fd < 0 ? -1 : pgs_pread_full (fd, &entry, sizeof entry,
                                    (guint64) (guintptr) page / page_size * sizeof entry);
  if (fd >= 0)
    errsv = errno;
  pgs_close (fd);
  munmap ((void *) page, page_size);

  if (n != sizeof entry)
    {
      *reason = g_strdup_printf ("soft-dirty could not be probed (/proc/self/pagemap: %s)",
                                 n < 0 ? g_strerror (errsv) : "short read");
      return FALSE;
    }
  if (!pgs_pm_is_present (entry))
    {
      *reason = g_strdup ("soft-dirty could not be probed (the probe page was not resident)");
      return FALSE;
    }
  if (!(entry & PGS_PM_SOFT_DIRTY))
    {
      *reason = g_strdup ("this kernel has no soft-dirty tracking (built without "
                          "CONFIG_MEM_SOFT_DIRTY: pagemap bit 55 stays clear on a page just "
                          "written)");
      return FALSE;
    }
  return TRUE;
}

static gboolean
probe_idle (const char  *sysfs_root,
            char       **reason)
{
  g_autofree char *path = g_build_filename (sysfs_root, PAGE_IDLE_BITMAP, NULL);
  int fd;

  if (access (path, F_OK) != 0)
    {
      if (errno == ENOENT)
        *reason = g_strdup_printf ("this kernel has no idle page tracking (built without "
                                   "CONFIG_IDLE_PAGE_TRACKING: there is no %s)", path);
      else
        *reason = g_strdup_printf ("idle page tracking is not usable (%s: %s)", path,
                                   g_strerror (errno));
      return FALSE;
    }

  fd = open (path, O_RDWR | O_CLOEXEC);
  if (fd < 0)
    {
      *reason = g_strdup_printf ("idle page tracking needs root (%s: %s)", path, g_strerror (errno));
      return FALSE;
    }
  pgs_close (fd);

  /* Frame numbers in pagemap and the flags that find a folio's head need root as well. */
  fd = open (PGS_PROCFS_DEFAULT_ROOT "/kpageflags", O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    {
      *reason = g_strdup_printf ("idle page tracking needs root (/proc/kpageflags: %s)",
                                 g_strerror (errno));
      return FALSE;
    }
  pgs_close (fd);
  return TRUE;
}

PgsWssPages
pgs_wss_probe_page_sources (const char  *sysfs_root,
                            char       **idle_reason,
                            char       **soft_dirty_reason)
{
  g_autofree char *idle_why = NULL;
  g_autofree char *dirty_why = NULL;
  PgsWssPages sources = PGS_WSS_PAGES_NONE;

  if (sysfs_root == NULL)
    sysfs_root = DEFAULT_SYSFS_ROOT;
  if (probe_idle (sysfs_root, &idle_why))
    sources |= PGS_WSS_PAGES_IDLE;
  if (probe_soft_dirty (&dirty_why))
    sources |= PGS_WSS_PAGES_SOFT_DIRTY;

  if (idle_reason != NULL)
    *idle_reason = g_steal_pointer (&idle_why);
  if (soft_dirty_reason != NULL)
    *soft_dirty_reason = g_steal_pointer (&dirty_why);
  return sources;
}
