/* pgs-zram.c
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <string.h>

#include "pgs-error.h"
#include "pgs-parse.h"
#include "pgs-zram.h"

gboolean
pgs_zram_parse_mm_stat (const char  *buf,
                        gsize        len,
                        PgsZramStat *stat,
                        GError     **error)
{
  guint64 v[8] = { 0 };
  const char *p = buf;
  const char *end = buf + len;
  guint n = 0;

  g_return_val_if_fail (buf != NULL && stat != NULL, FALSE);

  /* Kernels have appended columns over time (huge_pages 5.8, huge_pages_since 6.1): the
   * first five are there since 4.7. */
  while (n < G_N_ELEMENTS (v))
    {
      char *num_end = NULL;

      while (p < end && (*p == ' ' || *p == '\t'))
        p++;
      if (p >= end || !g_ascii_isdigit (*p))
        break;
      v[n++] = g_ascii_strtoull (p, &num_end, 10);
      if (num_end == NULL || num_end > end || num_end == p)
        break;
      p = num_end;
    }
  if (n < 5)
    {
      g_set_error (error, PGS_ERROR, PGS_ERROR_MALFORMED,
                   "mm_stat has %u numbers, not the 5 or more of a zram device", n);
      return FALSE;
    }
  stat->orig_data_size = v[0];
  stat->compr_data_size = v[1];
  stat->mem_used_total = v[2];
  stat->mem_limit = v[3];
  stat->mem_used_max = v[4];
  stat->same_pages = v[5];
  stat->pages_compacted = v[6];
  stat->huge_pages = v[7];
  return TRUE;
}

void
pgs_swap_device_free (PgsSwapDevice *device)
{
  if (device == NULL)
    return;
  g_free (device->device);
  g_free (device->type);
  g_free (device->zram);
  g_free (device);
}

/* /proc/swaps escapes spaces and such in paths as \040 (seq_file's mangle_path). */
static char *
unescape_octal (const char *s)
{
  GString *out = g_string_new (NULL);

  for (; *s; s++)
    {
      if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' &&
          s[3] >= '0' && s[3] <= '7')
        {
          char c = (char) ((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));

          if (c != '\0')
            {
              g_string_append_c (out, c);
              s += 3;
              continue;
            }
        }
      g_string_append_c (out, *s);
    }
  return g_string_free (out, FALSE);
}

GPtrArray *
pgs_swaps_parse (const char *buf,
                 gsize       len)
{
  GPtrArray *devices = g_ptr_array_new_with_free_func ((GDestroyNotify) pgs_swap_device_free);
  PgsLineReader reader;
  const char *line;
  gsize line_len;
  gboolean complete;

  g_return_val_if_fail (buf != NULL, devices);

  pgs_line_reader_init (&reader, buf, len);
  while (pgs_line_reader_next (&reader, &line, &line_len, &complete))
    {
      g_autofree char *text = g_strndup (line, line_len);
      g_auto(GStrv) fields = g_strsplit_set (text, " \t", -1);
      const char *f[5];
      guint n = 0;
      guint64 size, used;
      gint64 prio;
      char *e1 = NULL, *e2 = NULL, *e3 = NULL;
      PgsSwapDevice *d;
      const char *base;

      for (guint i = 0; fields[i] != NULL && n < 5; i++)
        if (*fields[i] != '\0')
          f[n++] = fields[i];
      if (n < 5 || g_str_equal (f[0], "Filename"))
        continue;
      size = g_ascii_strtoull (f[2], &e1, 10);
      used = g_ascii_strtoull (f[3], &e2, 10);
      prio = g_ascii_strtoll (f[4], &e3, 10);
      if (*e1 != '\0' || *e2 != '\0' || *e3 != '\0')
        continue;

      d = g_new0 (PgsSwapDevice, 1);
      d->device = unescape_octal (f[0]);
      d->type = g_strdup (f[1]);
      d->size = size * 1024;
      d->used = used * 1024;
      d->priority = (int) CLAMP (prio, G_MININT, G_MAXINT);
      base = strrchr (d->device, '/');
      base = base != NULL ? base + 1 : d->device;
      if (g_str_has_prefix (d->device, "/dev/zram") && base[4] != '\0' &&
          strspn (base + 4, "0123456789") == strlen (base + 4))
        d->zram = g_strdup (base);
      g_ptr_array_add (devices, d);
    }
  return devices;
}

void
pgs_zram_device_free (PgsZramDevice *device)
{
  if (device == NULL)
    return;
  g_free (device->name);
  g_free (device);
}

void
pgs_swap_cost_free (PgsSwapCost *cost)
{
  if (cost == NULL)
    return;
  g_clear_pointer (&cost->swaps, g_ptr_array_unref);
  g_clear_pointer (&cost->zram, g_ptr_array_unref);
  g_free (cost);
}

static int
compare_zram (gconstpointer a,
              gconstpointer b)
{
  const PgsZramDevice *da = *(PgsZramDevice * const *) a;
  const PgsZramDevice *db = *(PgsZramDevice * const *) b;

  /* zram2 before zram10. */
  return g_ascii_strtoll (da->name + 4, NULL, 10) - g_ascii_strtoll (db->name + 4, NULL, 10);
}

PgsSwapCost *
pgs_swap_cost_read (const char  *procfs_root,
                    const char  *sysfs_root,
                    GError     **error)
{
  g_autoptr(PgsSwapCost) cost = g_new0 (PgsSwapCost, 1);
  g_autofree char *swaps_path = g_build_filename (procfs_root ? procfs_root : "/proc", "swaps", NULL);
  g_autofree char *block = g_build_filename (sysfs_root ? sysfs_root : "/sys", "block", NULL);
  g_autofree char *buf = NULL;
  gsize len = 0;
  GDir *dir;
  const char *name;

  if (!g_file_get_contents (swaps_path, &buf, &len, error))
    return NULL;
  cost->swaps = pgs_swaps_parse (buf, len);
  cost->zram = g_ptr_array_new_with_free_func ((GDestroyNotify) pgs_zram_device_free);

  /* No /sys/block (a container without sysfs): no zram to read, which is said by the
   * zram swaps having no figures. */
  dir = g_dir_open (block, 0, NULL);
  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = NULL;
      g_autofree char *stat_buf = NULL;
      PgsZramDevice *z;
      gsize stat_len = 0;

      if (!g_str_has_prefix (name, "zram") || name[4] == '\0' ||
          strspn (name + 4, "0123456789") != strlen (name + 4))
        continue;
      path = g_build_filename (block, name, "mm_stat", NULL);
      if (!g_file_get_contents (path, &stat_buf, &stat_len, NULL))
        continue;
      z = g_new0 (PgsZramDevice, 1);
      z->name = g_strdup (name);
      if (!pgs_zram_parse_mm_stat (stat_buf, stat_len, &z->stat, NULL))
        {
          pgs_zram_device_free (z);
          continue;
        }
      g_ptr_array_add (cost->zram, z);
    }
  if (dir != NULL)
    g_dir_close (dir);
  g_ptr_array_sort (cost->zram, compare_zram);

  for (guint i = 0; i < cost->swaps->len; i++)
    {
      const PgsSwapDevice *s = g_ptr_array_index (cost->swaps, i);
      gboolean found = FALSE;

      for (guint k = 0; s->zram != NULL && k < cost->zram->len; k++)
        {
          PgsZramDevice *z = g_ptr_array_index (cost->zram, k);

          if (g_str_equal (z->name, s->zram))
            {
              z->is_swap = TRUE;
              cost->zram_orig += z->stat.orig_data_size;
              cost->zram_used += z->stat.mem_used_total;
              found = TRUE;
            }
        }
      if (found)
        cost->n_zram_swap++;
      else
        cost->n_other_swap++;
    }
  return g_steal_pointer (&cost);
}

gboolean
pgs_swap_cost_estimate (const PgsSwapCost *cost,
                        guint64            swap,
                        guint64           *ram,
                        const char       **reason)
{
  g_return_val_if_fail (cost != NULL && ram != NULL && reason != NULL, FALSE);

  *reason = NULL;
  if (swap == 0)
    {
      *ram = 0;
      return TRUE;
    }
  if (cost->n_other_swap > 0 && cost->n_zram_swap > 0)
    {
      *reason = "swap is on zram and on other devices: which holds a process's pages is not known";
      return FALSE;
    }
  if (cost->n_zram_swap == 0)
    {
      /* Swapped to disk (or a zram device whose figures could not be read): no RAM. */
      if (cost->n_other_swap > 0)
        {
          *ram = 0;
          return TRUE;
        }
      *reason = "the process has swap but no swap device is listed (it was turned off)";
      return FALSE;
    }
  if (cost->zram_orig == 0)
    {
      *reason = "zram holds no data now; the process's swap was counted before it changed";
      return FALSE;
    }
  /* 128-bit-free: swap and used are far below 2^64 / 2^32 on any machine; still, divide
   * first when the product could overflow. */
  if (swap > G_MAXUINT64 / MAX (cost->zram_used, 1))
    *ram = swap / cost->zram_orig * cost->zram_used;
  else
    *ram = swap * cost->zram_used / cost->zram_orig;
  return TRUE;
}
