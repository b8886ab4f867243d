/* pgs-fixture.c
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pgs-fixture.h"

struct _PgsFixture
{
  char       *root;
  GHashTable *maps;     /* pid → GString */
  GArray     *counts;   /* guint64 per frame */
  GArray     *flags;
  gboolean    unprivileged;
};

static void
string_free (gpointer data)
{
  g_string_free (data, TRUE);
}

PgsFixture *
pgs_fixture_new (void)
{
  PgsFixture *fx = g_new0 (PgsFixture, 1);
  g_autoptr(GError) error = NULL;

  fx->root = g_dir_make_tmp ("pagescope-fixture-XXXXXX", &error);
  g_assert_no_error (error);
  /* Readable by the unprivileged user a test may switch to. */
  g_assert_cmpint (chmod (fx->root, 0755), ==, 0);
  fx->maps = g_hash_table_new_full (NULL, NULL, NULL, string_free);
  fx->counts = g_array_new (FALSE, TRUE, sizeof (guint64));
  fx->flags = g_array_new (FALSE, TRUE, sizeof (guint64));
  return fx;
}

static void
remove_tree (const char *path)
{
  GDir *dir = g_dir_open (path, 0, NULL);
  const char *name;

  if (dir != NULL)
    {
      while ((name = g_dir_read_name (dir)) != NULL)
        {
          g_autofree char *child = g_build_filename (path, name, NULL);

          if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
            remove_tree (child);
          else
            g_unlink (child);
        }
      g_dir_close (dir);
    }
  g_rmdir (path);
}

void
pgs_fixture_free (PgsFixture *fx)
{
  remove_tree (fx->root);
  g_free (fx->root);
  g_hash_table_unref (fx->maps);
  g_array_unref (fx->counts);
  g_array_unref (fx->flags);
  g_free (fx);
}

const char *
pgs_fixture_get_root (PgsFixture *fx)
{
  return fx->root;
}

void
pgs_fixture_write (PgsFixture *fx,
                   const char *relpath,
                   const char *contents,
                   gssize      len)
{
  g_autofree char *path = g_build_filename (fx->root, relpath, NULL);
  g_autofree char *dir = g_path_get_dirname (path);
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  /* Replaced whole by a rename, as before (tests rely on it), but without the fsync that
   * costs seconds on a busy disk for a fixture of 1,000 processes. */
  g_file_set_contents_full (path, contents, len, G_FILE_SET_CONTENTS_CONSISTENT, 0644, &error);
  g_assert_no_error (error);
  g_assert_cmpint (chmod (path, 0644), ==, 0);
}

void
pgs_fixture_add_process (PgsFixture *fx,
                         int         pid,
                         const char *name,
                         guint       uid,
                         gboolean    kernel_thread)
{
  g_autofree char *status = NULL;
  g_autofree char *relpath = g_strdup_printf ("%d/status", pid);
  g_autofree char *cmd_path = g_strdup_printf ("%d/cmdline", pid);
  g_autofree char *maps_path = g_strdup_printf ("%d/maps", pid);
  g_autofree char *cmdline = g_strdup_printf ("/usr/bin/%s%c--fixture%c", name, 0, 0);

  status = g_strdup_printf ("Name:\t%s\nUmask:\t0022\nState:\tS (sleeping)\nTgid:\t%d\nPid:\t%d\n"
                            "PPid:\t1\nUid:\t%u\t%u\t%u\t%u\nGid:\t0\t0\t0\t0\n%s",
                            name, pid, pid, uid, uid, uid, uid,
                            kernel_thread ? "" : "VmSize:\t    8192 kB\nVmRSS:\t     100 kB\nVmSwap:\t       0 kB\n");
  pgs_fixture_write (fx, relpath, status, -1);
  pgs_fixture_write (fx, cmd_path, kernel_thread ? "" : cmdline,
                     kernel_thread ? 0 : (gssize) (strlen (name) + 20));
  pgs_fixture_write (fx, maps_path, "", 0);
  g_hash_table_insert (fx->maps, GINT_TO_POINTER (pid), g_string_new (NULL));
}

void
pgs_fixture_add_mapping (PgsFixture *fx,
                         int         pid,
                         guint64     start,
                         guint64     end,
                         const char *perms,
                         const char *path)
{
  GString *maps = g_hash_table_lookup (fx->maps, GINT_TO_POINTER (pid));
  g_autofree char *maps_path = g_strdup_printf ("%d/maps", pid);
  g_autofree char *pm_rel = g_strdup_printf ("%d/pagemap", pid);
  g_autofree char *pm_path = g_build_filename (fx->root, pm_rel, NULL);
  guint page_size = (guint) sysconf (_SC_PAGESIZE);
  int fd;

  g_assert_nonnull (maps);
  g_string_append_printf (maps, "%08" G_GINT64_MODIFIER "x-%08" G_GINT64_MODIFIER "x %s %08x %s %s%s\n",
                          start, end, perms, 0, path && *path != '[' ? "08:01 1234" : "00:00 0",
                          path && *path ? "                          " : "", path ? path : "");
  pgs_fixture_write (fx, maps_path, maps->str, maps->len);

  /* Extend the pagemap so the mapping's range reads as zeros (not present). */
  fd = open (pm_path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
  g_assert_cmpint (fd, >=, 0);
  {
    struct stat st;

    g_assert_cmpint (fstat (fd, &st), ==, 0);
    if ((guint64) st.st_size < end / page_size * 8)
      g_assert_cmpint (ftruncate (fd, end / page_size * 8), ==, 0);
  }
  close (fd);
}

void
pgs_fixture_set_pages (PgsFixture    *fx,
                       int            pid,
                       guint64        address,
                       const guint64 *entries,
                       gsize          n)
{
  g_autofree char *pm_rel = g_strdup_printf ("%d/pagemap", pid);
  g_autofree char *pm_path = g_build_filename (fx->root, pm_rel, NULL);
  guint page_size = (guint) sysconf (_SC_PAGESIZE);
  int fd = open (pm_path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);

  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (pwrite (fd, entries, n * 8, address / page_size * 8), ==, (gssize) (n * 8));
  close (fd);
}

void
pgs_fixture_set_frame (PgsFixture *fx,
                       guint64     pfn,
                       guint64     count,
                       guint64     flags)
{
  if (pfn >= fx->counts->len)
    {
      g_array_set_size (fx->counts, pfn + 1);
      g_array_set_size (fx->flags, pfn + 1);
    }
  g_array_index (fx->counts, guint64, pfn) = count;
  g_array_index (fx->flags, guint64, pfn) = flags;
}

void
pgs_fixture_set_unprivileged (PgsFixture *fx,
                              gboolean    unprivileged)
{
  fx->unprivileged = unprivileged;
}

void
pgs_fixture_commit (PgsFixture *fx)
{
  if (fx->unprivileged)
    return;
  pgs_fixture_write (fx, "kpagecount", fx->counts->data, fx->counts->len * 8);
  pgs_fixture_write (fx, "kpageflags", fx->flags->data, fx->flags->len * 8);
}

void
pgs_fixture_set_parent (PgsFixture *fx,
                        int         pid,
                        int         ppid)
{
  g_autofree char *relpath = g_strdup_printf ("%d/status", pid);
  g_autofree char *path = g_build_filename (fx->root, relpath, NULL);
  g_autofree char *status = NULL;
  g_autofree char *line = g_strdup_printf ("PPid:\t%d\n", ppid);
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) parts = NULL;
  g_autofree char *joined = NULL;

  g_file_get_contents (path, &status, NULL, &error);
  g_assert_no_error (error);
  parts = g_strsplit (status, "PPid:\t1\n", 2);
  g_assert_cmpuint (g_strv_length (parts), ==, 2);
  joined = g_strjoin (line, parts[0], parts[1], NULL);
  pgs_fixture_write (fx, relpath, joined, -1);
}

#define DAMON_ADMIN "kernel/mm/damon/admin/kdamonds/"
#define DAMON_CTX   DAMON_ADMIN "0/contexts/0/"

void
pgs_fixture_add_free_damon (PgsFixture *fx)
{
  pgs_fixture_write (fx, DAMON_ADMIN "nr_kdamonds", "0\n", -1);
  pgs_fixture_write (fx, DAMON_ADMIN "0/state", "off\n", -1);
  pgs_fixture_write (fx, DAMON_ADMIN "0/pid", "-1\n", -1);
  pgs_fixture_write (fx, DAMON_ADMIN "0/contexts/nr_contexts", "0\n", -1);
  pgs_fixture_write (fx, DAMON_CTX "operations", "vaddr\n", -1);
  pgs_fixture_write (fx, DAMON_CTX "monitoring_attrs/intervals/sample_us", "1000\n", -1);
  pgs_fixture_write (fx, DAMON_CTX "monitoring_attrs/intervals/aggr_us", "20000\n", -1);
  pgs_fixture_write (fx, DAMON_CTX "monitoring_attrs/intervals/update_us", "500000\n", -1);
  pgs_fixture_write (fx, DAMON_CTX "monitoring_attrs/nr_regions/min", "5\n", -1);
  pgs_fixture_write (fx, DAMON_CTX "monitoring_attrs/nr_regions/max", "500\n", -1);
  pgs_fixture_write (fx, DAMON_CTX "targets/nr_targets", "0\n", -1);
  pgs_fixture_write (fx, DAMON_CTX "targets/0/regions/nr_regions", "0\n", -1);
  pgs_fixture_write (fx, DAMON_CTX "targets/0/regions/0/start", "0\n", -1);
  pgs_fixture_write (fx, DAMON_CTX "targets/0/regions/0/end", "0\n", -1);
}
