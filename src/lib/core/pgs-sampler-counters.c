/* pgs-sampler-counters.c: meminfo, zram, memory pressure and cgroups as named counters
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every file is opened once and read again with pread into one buffer: a sample reads a few
 * dozen files a second, and opening them (path walks through /proc and /sys) would cost
 * more than reading them.
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pgs-procfs.h"
#include "pgs-sample.h"
#include "pgs-sampler-private.h"

#define BUF_SIZE 16384

typedef struct
{
  char *path;        /* relative to its hierarchy's mount, "/" for the root */
  int   usage_fd;    /* memory.usage_in_bytes (v1) or memory.current (v2) */
  int   stat_fd;
  guint usage_idx;
  guint stat_idx[5];
  guint64 last_usage;
  gboolean seen;
} Cgroup;

typedef struct
{
  char      *mount;
  gboolean   v2;
  GHashTable *groups;  /* path → Cgroup */
} Hierarchy;

struct _PgsCounters
{
  GPtrArray  *names;
  GHashTable *index;      /* name → index + 1 */
  char       *sysfs_root;
  int         meminfo_fd;
  int         psi_fd;
  GPtrArray  *zram;       /* fd as pointer + 1 */
  GArray     *zram_first; /* guint: index of its first counter */
  GPtrArray  *hierarchies;
  char       *buf;
};

static const char *const v1_stat[] = { "total_rss", "total_cache", "total_shmem", "total_mapped_file", "total_swap" };
static const char *const v2_stat[] = { "anon", "file", "shmem", "file_mapped", "kernel" };
static const char *const zram_fields[] = {
  "orig_data_size", "compr_data_size", "mem_used_total", "mem_limit", "mem_used_max",
  "same_pages", "pages_compacted", "huge_pages", "huge_pages_since",
};

static guint
name_index (PgsCounters *self,
            const char  *name)
{
  gpointer found = g_hash_table_lookup (self->index, name);

  if (found != NULL)
    return GPOINTER_TO_UINT (found) - 1;
  g_ptr_array_add (self->names, g_strdup (name));
  g_hash_table_insert (self->index, g_strdup (name), GUINT_TO_POINTER (self->names->len));
  return self->names->len - 1;
}

static void
set_value (GArray  *values,
           guint    idx,
           guint64  v)
{
  if (values->len <= idx)
    {
      guint from = values->len;

      g_array_set_size (values, idx + 1);
      for (guint i = from; i <= idx; i++)
        g_array_index (values, guint64, i) = PGS_SAMPLE_ABSENT;
    }
  g_array_index (values, guint64, idx) = v;
}

static gssize
read_fd (PgsCounters *self,
         int          fd)
{
  gssize n;

  if (fd < 0)
    return -1;
  n = pgs_pread_full (fd, self->buf, BUF_SIZE - 1, 0);
  if (n < 0)
    return -1;
  self->buf[n] = '\0';
  return n;
}

static void
cgroup_free (gpointer data)
{
  Cgroup *cg = data;

  if (cg->usage_fd >= 0)
    close (cg->usage_fd);
  if (cg->stat_fd >= 0)
    close (cg->stat_fd);
  g_free (cg->path);
  g_free (cg);
}

static void
hierarchy_free (gpointer data)
{
  Hierarchy *h = data;

  g_free (h->mount);
  g_hash_table_unref (h->groups);
  g_free (h);
}

/* Every directory under @dir (relative path @rel) that has a usage file. */
static void
walk_cgroups (PgsCounters *self,
              Hierarchy   *h,
              const char  *rel,
              guint        depth)
{
  g_autofree char *dir = g_build_filename (h->mount, rel, NULL);
  g_autoptr(GDir) d = NULL;
  Cgroup *cg = g_hash_table_lookup (h->groups, rel);
  const char *entry;
  const char *shown = g_str_equal (rel, "/") ? "" : rel;

  if (depth > 32)
    return;
  if (cg == NULL)
    {
      g_autofree char *usage = g_build_filename (dir, h->v2 ? "memory.current" : "memory.usage_in_bytes", NULL);
      g_autofree char *stat = g_build_filename (dir, "memory.stat", NULL);
      int fd = open (usage, O_RDONLY | O_CLOEXEC);

      if (fd < 0)
        return;
      cg = g_new0 (Cgroup, 1);
      cg->path = g_strdup (rel);
      cg->usage_fd = fd;
      cg->stat_fd = open (stat, O_RDONLY | O_CLOEXEC);
      {
        g_autofree char *name = g_strdup_printf ("cgroup/%s%s/%s", h->v2 ? "v2" : "v1", shown,
                                                 h->v2 ? "current" : "usage_in_bytes");

        cg->usage_idx = name_index (self, name);
      }
      for (guint i = 0; i < G_N_ELEMENTS (v1_stat); i++)
        {
          g_autofree char *name = g_strdup_printf ("cgroup/%s%s/%s", h->v2 ? "v2" : "v1", shown,
                                                   h->v2 ? v2_stat[i] : v1_stat[i]);

          cg->stat_idx[i] = name_index (self, name);
        }
      cg->last_usage = G_MAXUINT64;
      g_hash_table_insert (h->groups, cg->path, cg);
    }
  cg->seen = TRUE;

  d = g_dir_open (dir, 0, NULL);
  while (d != NULL && (entry = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *child = NULL;
      g_autofree char *child_dir = g_build_filename (dir, entry, NULL);

      if (!g_file_test (child_dir, G_FILE_TEST_IS_DIR) || g_file_test (child_dir, G_FILE_TEST_IS_SYMLINK))
        continue;
      child = g_str_equal (rel, "/") ? g_strconcat ("/", entry, NULL) : g_strconcat (rel, "/", entry, NULL);
      walk_cgroups (self, h, child, depth + 1);
    }
}

/* The memory hierarchies from /proc/self/mountinfo: v1 ones with the memory controller, and
 * v2 ones (which have memory.current where the controller is on). */
static void
find_hierarchies (PgsCounters *self,
                  const char  *procfs_root)
{
  g_autofree char *path = g_build_filename (procfs_root, "self", "mountinfo", NULL);
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;

  if (!g_file_get_contents (path, &text, NULL, NULL))
    return;
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_auto(GStrv) f = g_strsplit (lines[i], " ", -1);
      guint n = g_strv_length (f), sep;
      Hierarchy *h;

      for (sep = 6; sep < n && !g_str_equal (f[sep], "-"); sep++)
        ;
      if (sep + 3 >= n)
        continue;
      if (g_str_equal (f[sep + 1], "cgroup2"))
        ;
      else if (g_str_equal (f[sep + 1], "cgroup") && strstr (f[sep + 3], "memory") != NULL)
        ;
      else
        continue;
      h = g_new0 (Hierarchy, 1);
      h->mount = g_strcompress (f[4]);
      h->v2 = g_str_equal (f[sep + 1], "cgroup2");
      h->groups = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, cgroup_free);
      g_ptr_array_add (self->hierarchies, h);
    }
}

static void
find_zram (PgsCounters *self)
{
  g_autofree char *block = g_build_filename (self->sysfs_root, "block", NULL);
  g_autoptr(GDir) d = g_dir_open (block, 0, NULL);
  const char *entry;

  while (d != NULL && (entry = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = NULL;
      guint first;
      int fd;

      if (!g_str_has_prefix (entry, "zram"))
        continue;
      path = g_build_filename (block, entry, "mm_stat", NULL);
      fd = open (path, O_RDONLY | O_CLOEXEC);
      if (fd < 0)
        continue;
      first = G_MAXUINT;
      for (guint i = 0; i < G_N_ELEMENTS (zram_fields); i++)
        {
          g_autofree char *name = g_strdup_printf ("zram/%s/%s", entry, zram_fields[i]);
          guint idx = name_index (self, name);

          if (first == G_MAXUINT)
            first = idx;
          g_assert (idx == first + i);
        }
      g_ptr_array_add (self->zram, GINT_TO_POINTER (fd + 1));
      g_array_append_val (self->zram_first, first);
    }
}

PgsCounters *
_pgs_counters_new (const char *procfs_root,
                   const char *sysfs_root,
                   GPtrArray  *names)
{
  PgsCounters *self = g_new0 (PgsCounters, 1);
  g_autofree char *meminfo = g_build_filename (procfs_root, "meminfo", NULL);
  g_autofree char *psi = g_build_filename (procfs_root, "pressure", "memory", NULL);

  self->names = g_ptr_array_ref (names);
  self->index = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->sysfs_root = g_strdup (sysfs_root);
  self->buf = g_malloc (BUF_SIZE);
  self->meminfo_fd = open (meminfo, O_RDONLY | O_CLOEXEC);
  self->psi_fd = open (psi, O_RDONLY | O_CLOEXEC);
  self->zram = g_ptr_array_new ();
  self->zram_first = g_array_new (FALSE, FALSE, sizeof (guint));
  self->hierarchies = g_ptr_array_new_with_free_func (hierarchy_free);
  find_zram (self);
  find_hierarchies (self, procfs_root);
  return self;
}

void
_pgs_counters_free (PgsCounters *self)
{
  if (self == NULL)
    return;
  if (self->meminfo_fd >= 0)
    close (self->meminfo_fd);
  if (self->psi_fd >= 0)
    close (self->psi_fd);
  for (guint i = 0; i < self->zram->len; i++)
    close (GPOINTER_TO_INT (g_ptr_array_index (self->zram, i)) - 1);
  g_ptr_array_unref (self->zram);
  g_array_unref (self->zram_first);
  g_ptr_array_unref (self->hierarchies);
  g_ptr_array_unref (self->names);
  g_hash_table_unref (self->index);
  g_free (self->sysfs_root);
  g_free (self->buf);
  g_free (self);
}

/* "Name:   123 kB" lines. */
static void
read_meminfo (PgsCounters *self,
              GArray      *values)
{
  char *line, *next;

  if (read_fd (self, self->meminfo_fd) < 0)
    return;
  for (line = self->buf; *line != '\0'; line = next)
    {
      char *colon, *end;
      char name[80];
      guint64 v;

      next = strchr (line, '\n');
      next = next != NULL ? next + 1 : line + strlen (line);
      colon = strchr (line, ':');
      if (colon == NULL || colon > next || colon - line > 60)
        continue;
      v = g_ascii_strtoull (colon + 1, &end, 10);
      if (end == colon + 1)
        continue;
      while (*end == ' ')
        end++;
      if (strncmp (end, "kB", 2) == 0)
        v *= 1024;
      memcpy (name, "meminfo/", 8);
      memcpy (name + 8, line, colon - line);
      name[8 + (colon - line)] = '\0';
      set_value (values, name_index (self, name), v);
    }
}

/* "some avg10=0.00 avg60=0.00 avg300=0.00 total=0": the totals, microseconds stalled. */
static void
read_psi (PgsCounters *self,
          GArray      *values)
{
  const char *kinds[] = { "some", "full" };

  if (read_fd (self, self->psi_fd) < 0)
    return;
  for (guint k = 0; k < G_N_ELEMENTS (kinds); k++)
    {
      char *line = strstr (self->buf, kinds[k]);
      char *total = line != NULL ? strstr (line, "total=") : NULL;
      char name[32];

      if (total == NULL)
        continue;
      g_snprintf (name, sizeof name, "psi/%s", kinds[k]);
      set_value (values, name_index (self, name), g_ascii_strtoull (total + 6, NULL, 10));
    }
}

static void
read_zram (PgsCounters *self,
           GArray      *values)
{
  for (guint d = 0; d < self->zram->len; d++)
    {
      guint first = g_array_index (self->zram_first, guint, d);
      char *p;

      if (read_fd (self, GPOINTER_TO_INT (g_ptr_array_index (self->zram, d)) - 1) < 0)
        continue;
      p = self->buf;
      for (guint i = 0; i < G_N_ELEMENTS (zram_fields); i++)
        {
          char *end;
          guint64 v = g_ascii_strtoull (p, &end, 10);

          if (end == p)
            break;
          set_value (values, first + i, v);
          p = end;
        }
    }
}

static void
set_absent (GArray *values,
            Cgroup *cg)
{
  set_value (values, cg->usage_idx, PGS_SAMPLE_ABSENT);
  for (guint s = 0; s < G_N_ELEMENTS (cg->stat_idx); s++)
    set_value (values, cg->stat_idx[s], PGS_SAMPLE_ABSENT);
}

/* A cgroup removed since the last walk: its counters are absent from now on. */
static gboolean
drop_unseen (gpointer key,
             gpointer value,
             gpointer user_data)
{
  Cgroup *cg = value;
  gboolean drop = !cg->seen;

  if (drop)
    set_absent (user_data, cg);
  cg->seen = FALSE;
  return drop;
}

static void
read_cgroups (PgsCounters *self,
              GArray      *values,
              gboolean     full)
{
  for (guint i = 0; i < self->hierarchies->len; i++)
    {
      Hierarchy *h = g_ptr_array_index (self->hierarchies, i);
      GHashTableIter iter;
      Cgroup *cg;

      if (full)
        {
          walk_cgroups (self, h, "/", 0);
          g_hash_table_foreach_remove (h->groups, drop_unseen, values);
        }
      g_hash_table_iter_init (&iter, h->groups);
      while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &cg))
        {
          guint64 usage;
          char *end;

          if (read_fd (self, cg->usage_fd) <= 0)
            {
              set_absent (values, cg);
              continue;
            }
          usage = g_ascii_strtoull (self->buf, &end, 10);
          if (end == self->buf)
            continue;
          set_value (values, cg->usage_idx, usage);
          /* The split moves with the usage; unchanged, the values before stand (the
           * caller's array still holds them) until the next full read. */
          if (!full && usage == cg->last_usage)
            continue;
          cg->last_usage = usage;
          if (read_fd (self, cg->stat_fd) <= 0)
            continue;
          for (guint s = 0; s < G_N_ELEMENTS (v1_stat); s++)
            {
              const char *key = h->v2 ? v2_stat[s] : v1_stat[s];
              gsize klen = strlen (key);
              char *line = self->buf;

              while (line != NULL && *line != '\0')
                {
                  if (strncmp (line, key, klen) == 0 && line[klen] == ' ')
                    {
                      set_value (values, cg->stat_idx[s], g_ascii_strtoull (line + klen + 1, NULL, 10));
                      break;
                    }
                  line = strchr (line, '\n');
                  line = line != NULL ? line + 1 : NULL;
                }
            }
        }
    }
}

void
_pgs_counters_read (PgsCounters *self,
                    GArray      *values,
                    gboolean     full)
{
  read_meminfo (self, values);
  read_psi (self, values);
  read_zram (self, values);
  read_cgroups (self, values, full);
}
