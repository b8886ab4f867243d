/* fuzz-scanner.c: pagemap, kpagecount and kpageflags records through the whole scanner
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The input is a tiny procfs tree: a byte of scan flags, then sections separated by
 * SEPARATOR: maps, pagemap, kpagecount, kpageflags and optionally status. The pagemap
 * section is written at the offset of the first mapping's pagemap entry, so fuzzed
 * addresses reach it. Each run writes the tree into one temporary directory (process 1) and
 * scans it with the real scanner; any outcome but a crash, a hang or a critical is fine, and
 * a snapshot that comes out must add up (RSS ≤ VSS).
 */

#define _GNU_SOURCE 1  /* memmem */
#include "config.h"

#include <fcntl.h>
#include <glib/gstdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <pagescope.h>

#include "pgs-parse.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

#define SEPARATOR "@@@\n"

static const char *const files[] = { "1/maps", "1/pagemap", "kpagecount", "kpageflags", "1/status" };
static char *root;

static void
remove_root (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    {
      g_autofree char *path = g_build_filename (root, files[i], NULL);

      g_unlink (path);
    }
  {
    g_autofree char *cmdline = g_build_filename (root, "1", "cmdline", NULL);
    g_autofree char *dir = g_build_filename (root, "1", NULL);

    g_unlink (cmdline);
    g_rmdir (dir);
  }
  g_rmdir (root);
  g_clear_pointer (&root, g_free);
}

static void
write_file (const char   *name,
            const guint8 *data,
            gsize         len,
            guint64       offset)
{
  g_autofree char *path = g_build_filename (root, name, NULL);
  /* A new file each run. (Truncating one to 0 and rewriting it made ext4 flush it at close,
   * auto_da_alloc, and every run wait for the disk.) */
  int fd = open (path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);

  g_assert (fd >= 0);
  /* A fuzzed offset may be past what the file system allows: then the file stays empty. */
  if (len == 0 || offset >= (G_GUINT64_CONSTANT (1) << 40) ||
      pwrite (fd, data, len, (off_t) offset) != (gssize) len)
    offset = len = 0;
  /* Sparse up to the offset: holes read as zeros, as pagemap's unmapped entries. */
  g_assert (ftruncate (fd, (off_t) (offset + len)) == 0);
  close (fd);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  static const char default_status[] =
    "Name:\tfuzz\nState:\tS (sleeping)\nPPid:\t0\nUid:\t0\t0\t0\t0\n"
    "VmSize:\t   16384 kB\nVmRSS:\t      16 kB\nVmSwap:\t       0 kB\n";
  const guint8 *section[G_N_ELEMENTS (files)] = { NULL };
  gsize section_len[G_N_ELEMENTS (files)] = { 0 };
  g_autoptr(PgsScanner) scanner = NULL;
  g_autoptr(PgsSnapshot) snapshot = NULL;
  g_autoptr(GError) error = NULL;
  const guint8 *p, *end = data + size;
  guint64 pagemap_offset = 0;
  PgsMapsEntry first;
  guint flags, n = 0;

  if (size < 1)
    return 0;
  flags = data[0] & (PGS_SCAN_MAPPINGS | PGS_SCAN_PAGES | PGS_SCAN_PHYSMAP);

  /* A fresh tree each run, removed after it: nothing of one run leaks into the next (a
   * pagemap written at another offset), and nothing stays behind when libFuzzer ends the
   * process without running atexit handlers. */
    {
      g_autofree char *dir = NULL;

      /* tmpfs where there is one: a run writes five files. */
      if (g_file_test ("/dev/shm", G_FILE_TEST_IS_DIR) && access ("/dev/shm", W_OK) == 0)
        {
          root = g_build_filename ("/dev/shm", "pagescope-fuzz-XXXXXX", NULL);
          if (g_mkdtemp (root) == NULL)
            g_clear_pointer (&root, g_free);
        }
      if (root == NULL)
        root = g_dir_make_tmp ("pagescope-fuzz-XXXXXX", NULL);
      g_assert (root != NULL);
      dir = g_build_filename (root, "1", NULL);
      g_assert (g_mkdir (dir, 0755) == 0);
      {
        g_autofree char *cmdline = g_build_filename (root, "1", "cmdline", NULL);

        g_assert (g_file_set_contents (cmdline, "fuzz", 5, NULL));
      }
    }

  for (p = data + 1; n < G_N_ELEMENTS (files); n++)
    {
      const guint8 *sep = memmem (p, end - p, SEPARATOR, strlen (SEPARATOR));

      section[n] = p;
      section_len[n] = (sep != NULL ? sep : end) - p;
      if (sep == NULL)
        {
          n++;
          break;
        }
      p = sep + strlen (SEPARATOR);
    }
  if (n < G_N_ELEMENTS (files))
    {
      section[4] = (const guint8 *) default_status;
      section_len[4] = strlen (default_status);
    }

  {
    const char *nl = memchr (section[0], '\n', section_len[0]);

    if (pgs_maps_parse_line ((const char *) section[0],
                             (nl != NULL ? (const guint8 *) nl : section[0] + section_len[0]) - section[0],
                             &first))
      pagemap_offset = first.start / (guint64) sysconf (_SC_PAGESIZE) * 8;
  }

  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    write_file (files[i], section[i], section_len[i], i == 1 ? pagemap_offset : 0);

  scanner = pgs_scanner_new ();
  pgs_scanner_set_procfs_root (scanner, root);
  pgs_scanner_set_flags (scanner, flags);
  snapshot = pgs_scanner_scan (scanner, NULL, &error);
  remove_root ();
  if (snapshot == NULL)
    {
      g_assert (error != NULL);
      return 0;
    }

  for (guint i = 0; i < pgs_snapshot_get_n_processes (snapshot); i++)
    {
      PgsProcess *proc = pgs_snapshot_get_process (snapshot, i);

      if (pgs_process_is_known (proc, PGS_METRIC_RSS) && pgs_process_is_known (proc, PGS_METRIC_VSS))
        g_assert_cmpuint (pgs_process_get_rss (proc), <=, pgs_process_get_vss (proc));
      if (pgs_process_is_known (proc, PGS_METRIC_USS) && pgs_process_is_known (proc, PGS_METRIC_RSS))
        g_assert_cmpuint (pgs_process_get_uss (proc), <=, pgs_process_get_rss (proc));
    }
  return 0;
}
