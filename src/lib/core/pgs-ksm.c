/* pgs-ksm.c
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "pgs-error.h"
#include "pgs-ksm.h"
#include "pgs-parse.h"

static gint64
read_number (const char *dir,
             const char *name)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autofree char *buf = NULL;
  char *end = NULL;
  gint64 v;

  if (!g_file_get_contents (path, &buf, NULL, NULL))
    return -1;
  v = g_ascii_strtoll (buf, &end, 10);
  if (end == buf || (*end != '\n' && *end != '\0'))
    return -1;
  return v;
}

gboolean
pgs_ksm_read_system (const char    *sysfs_root,
                     PgsKsmSystem  *ksm,
                     GError       **error)
{
  g_autofree char *dir = g_build_filename (sysfs_root ? sysfs_root : "/sys", "kernel", "mm",
                                           "ksm", NULL);

  g_return_val_if_fail (ksm != NULL, FALSE);

  ksm->run = read_number (dir, "run");
  if (ksm->run < 0)
    {
      g_set_error (error, PGS_ERROR, PGS_ERROR_UNSUPPORTED,
                   "%s/run is not readable: the kernel has no KSM (CONFIG_KSM)", dir);
      return FALSE;
    }
  ksm->pages_shared = read_number (dir, "pages_shared");
  ksm->pages_sharing = read_number (dir, "pages_sharing");
  ksm->pages_unshared = read_number (dir, "pages_unshared");
  ksm->pages_volatile = read_number (dir, "pages_volatile");
  ksm->full_scans = read_number (dir, "full_scans");
  ksm->ksm_zero_pages = read_number (dir, "ksm_zero_pages");
  ksm->general_profit = read_number (dir, "general_profit");
  return TRUE;
}

gboolean
pgs_ksm_parse_process (const char    *buf,
                       gsize          len,
                       PgsKsmProcess *ksm)
{
  static const struct { const char *key; gsize offset; } keys[] = {
    { "ksm_rmap_items ", G_STRUCT_OFFSET (PgsKsmProcess, rmap_items) },
    { "ksm_merging_pages ", G_STRUCT_OFFSET (PgsKsmProcess, merging_pages) },
    { "ksm_zero_pages ", G_STRUCT_OFFSET (PgsKsmProcess, zero_pages) },
    { "ksm_process_profit ", G_STRUCT_OFFSET (PgsKsmProcess, process_profit) },
  };
  PgsLineReader reader;
  const char *line;
  gsize line_len;
  gboolean complete;
  gboolean any = FALSE;

  g_return_val_if_fail (buf != NULL && ksm != NULL, FALSE);

  ksm->rmap_items = ksm->merging_pages = ksm->zero_pages = ksm->process_profit = -1;
  pgs_line_reader_init (&reader, buf, len);
  while (pgs_line_reader_next (&reader, &line, &line_len, &complete))
    for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
      {
        gsize klen = strlen (keys[i].key);
        g_autofree char *num = NULL;
        char *end = NULL;
        gint64 v;

        if (line_len <= klen || memcmp (line, keys[i].key, klen) != 0)
          continue;
        num = g_strndup (line + klen, line_len - klen);
        v = g_ascii_strtoll (num, &end, 10);
        if (end != num && *end == '\0')
          {
            G_STRUCT_MEMBER (gint64, ksm, keys[i].offset) = v;
            any = TRUE;
          }
      }
  return any;
}

gboolean
pgs_kb_field (const char *buf,
              gsize       len,
              const char *key,
              guint64    *bytes)
{
  PgsLineReader reader;
  const char *line;
  gsize line_len;
  gboolean complete;
  gsize klen = strlen (key);

  g_return_val_if_fail (buf != NULL && key != NULL && bytes != NULL, FALSE);

  pgs_line_reader_init (&reader, buf, len);
  while (pgs_line_reader_next (&reader, &line, &line_len, &complete))
    {
      g_autofree char *rest = NULL;
      char *end = NULL;
      guint64 v;

      if (line_len <= klen + 1 || memcmp (line, key, klen) != 0 || line[klen] != ':')
        continue;
      rest = g_strndup (line + klen + 1, line_len - klen - 1);
      g_strstrip (rest);
      v = g_ascii_strtoull (rest, &end, 10);
      if (end == rest || !g_str_equal (end, " kB") || v > G_MAXUINT64 / 1024)
        return FALSE;
      *bytes = v * 1024;
      return TRUE;
    }
  return FALSE;
}
