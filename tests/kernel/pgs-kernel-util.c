/* pgs-kernel-util.c
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/swap.h>
#include <unistd.h>

#include "pgs-kernel-util.h"

static char *zram_device;   /* set when we made the swap ourselves */
static char *zram_sysfs;

void
pgs_kernel_require_root (void)
{
  if (geteuid () != 0)
    {
      g_printerr ("kernel tests need root (kpagecount, kpageflags, other pagemaps): skipped\n");
      exit (77);
    }
}

gboolean
pgs_kernel_read_rollup (int             pid,
                        PgsSmapsFields *fields)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/smaps_rollup", pid);
  g_autofree char *text = NULL;
  gsize len;

  if (!g_file_get_contents (path, &text, &len, NULL))
    return FALSE;
  return pgs_smaps_rollup_parse (text, len, fields, NULL);
}

static gboolean
swap_active (void)
{
  g_autofree char *swaps = NULL;

  if (!g_file_get_contents ("/proc/swaps", &swaps, NULL, NULL))
    return FALSE;
  /* A header line, then one line per active area. */
  return strchr (swaps, '\n') != NULL && strchr (strchr (swaps, '\n') + 1, '\n') != NULL;
}

static gboolean
write_sysfs (const char  *path,
             const char  *value,
             char       **message)
{
  g_autoptr(GError) error = NULL;

  if (!g_file_set_contents (path, value, -1, &error))
    {
      /* g_file_set_contents renames a temp file into place: sysfs refuses that; write directly. */
      FILE *f = fopen (path, "w");

      if (f == NULL || fputs (value, f) < 0 || fclose (f) != 0)
        {
          *message = g_strdup_printf ("cannot write %s", path);
          return FALSE;
        }
    }
  return TRUE;
}

gboolean
pgs_kernel_setup_swap (char **message)
{
  g_autofree char *disksize = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  int status = 0;
  const char *argv_mkswap[] = { "mkswap", NULL, NULL };

  if (swap_active ())
    return TRUE;

  /* Use zram0 when it is free, else ask for a new device. */
  if (g_file_get_contents ("/sys/block/zram0/disksize", &disksize, NULL, NULL) &&
      g_ascii_strtoull (disksize, NULL, 10) == 0)
    {
      zram_device = g_strdup ("/dev/zram0");
      zram_sysfs = g_strdup ("/sys/block/zram0");
    }
  else
    {
      g_autofree char *id = NULL;

      if (!g_file_get_contents ("/sys/class/zram-control/hot_add", &id, NULL, NULL))
        {
          *message = g_strdup ("no swap, and no zram device to make one (modprobe zram)");
          return FALSE;
        }
      g_strstrip (id);
      zram_device = g_strdup_printf ("/dev/zram%s", id);
      zram_sysfs = g_strdup_printf ("/sys/block/zram%s", id);
    }

  {
    g_autofree char *path = g_build_filename (zram_sysfs, "disksize", NULL);

    if (!write_sysfs (path, "268435456", message))
      goto fail;
  }

  argv_mkswap[1] = zram_device;
  if (!g_spawn_sync (NULL, (char **) argv_mkswap, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL,
                     &out, &err, &status, NULL) || !g_spawn_check_wait_status (status, NULL))
    {
      *message = g_strdup_printf ("mkswap %s failed: %s", zram_device, err ? err : "");
      goto fail;
    }
  if (swapon (zram_device, 0) != 0)
    {
      *message = g_strdup_printf ("swapon %s: %s", zram_device, g_strerror (errno));
      goto fail;
    }
  return TRUE;

fail:
  pgs_kernel_teardown_swap ();
  return FALSE;
}

void
pgs_kernel_teardown_swap (void)
{
  if (zram_device == NULL)
    return;
  swapoff (zram_device);
  {
    g_autofree char *path = g_build_filename (zram_sysfs, "reset", NULL);
    char *ignored = NULL;

    write_sysfs (path, "1", &ignored);
    g_free (ignored);
  }
  if (!g_str_equal (zram_device, "/dev/zram0"))
    {
      const char *id = zram_device + strlen ("/dev/zram");
      char *ignored = NULL;

      write_sysfs ("/sys/class/zram-control/hot_remove", id, &ignored);
      g_free (ignored);
    }
  g_clear_pointer (&zram_device, g_free);
  g_clear_pointer (&zram_sysfs, g_free);
}
