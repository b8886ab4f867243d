/* pgs-snapshot.c
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The immutable result of one scan: the processes (a GListModel of PgsProcess, in PID
 * order), what could not be measured and why, and optionally the physical map. Nothing
 * in it points into /proc, so it could be saved and loaded later.
 */

#include "config.h"

#include <string.h>

#include "pgs-frame-index.h"
#include "pgs-physmap.h"
#include "pgs-process-private.h"
#include "pgs-procfs.h"
#include "pgs-snapshot-private.h"

struct _PgsSnapshot
{
  GObject     parent_instance;

  GPtrArray  *processes;
  GArray     *skipped;
  PgsPhysMap *physmap;
  gint64      time;
  guint       page_size;
  guint       privileged : 1;

  char       *hostname;
  char       *kernel_release;
  char       *boot_id;
  char       *version;
  char       *meminfo_text;
  char       *zoneinfo_text;   /* the ledger's other inputs; NULL in older files */
  char       *vmstat_text;
  GFile      *file;
  char       *path;

  PgsFrameIndex *frame_index;  /* built by the first find_frame_users */
  GMutex      frame_lock;
};

static void list_model_iface_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (PgsSnapshot, pgs_snapshot, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, list_model_iface_init))

static GType
pgs_snapshot_get_item_type (GListModel *model)
{
  return PGS_TYPE_PROCESS;
}

static guint
pgs_snapshot_get_n_items (GListModel *model)
{
  return PGS_SNAPSHOT (model)->processes->len;
}

static gpointer
pgs_snapshot_get_item (GListModel *model,
                       guint       position)
{
  PgsSnapshot *self = PGS_SNAPSHOT (model);

  if (position >= self->processes->len)
    return NULL;
  return g_object_ref (g_ptr_array_index (self->processes, position));
}

static void
list_model_iface_init (GListModelInterface *iface)
{
  iface->get_item_type = pgs_snapshot_get_item_type;
  iface->get_n_items = pgs_snapshot_get_n_items;
  iface->get_item = pgs_snapshot_get_item;
}

static void
clear_skipped (gpointer data)
{
  PgsSkipped *skipped = data;

  g_clear_error (&skipped->error);
}

static void
pgs_snapshot_finalize (GObject *object)
{
  PgsSnapshot *self = (PgsSnapshot *) object;

  g_clear_pointer (&self->processes, g_ptr_array_unref);
  g_clear_pointer (&self->skipped, g_array_unref);
  g_clear_pointer (&self->physmap, pgs_physmap_unref);
  g_clear_pointer (&self->frame_index, pgs_frame_index_free);
  g_clear_pointer (&self->hostname, g_free);
  g_clear_pointer (&self->kernel_release, g_free);
  g_clear_pointer (&self->boot_id, g_free);
  g_clear_pointer (&self->version, g_free);
  g_clear_pointer (&self->meminfo_text, g_free);
  g_clear_pointer (&self->zoneinfo_text, g_free);
  g_clear_pointer (&self->vmstat_text, g_free);
  g_clear_object (&self->file);
  g_clear_pointer (&self->path, g_free);
  g_mutex_clear (&self->frame_lock);

  G_OBJECT_CLASS (pgs_snapshot_parent_class)->finalize (object);
}

static void
pgs_snapshot_class_init (PgsSnapshotClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = pgs_snapshot_finalize;
}

static void
pgs_snapshot_init (PgsSnapshot *self)
{
  g_mutex_init (&self->frame_lock);
}

static int
compare_pid (gconstpointer a,
             gconstpointer b)
{
  const PgsProcess *pa = *(PgsProcess * const *) a;
  const PgsProcess *pb = *(PgsProcess * const *) b;

  return (pa->pid > pb->pid) - (pa->pid < pb->pid);
}

PgsSnapshot *
_pgs_snapshot_new (GPtrArray  *processes,
                   GArray     *skipped,
                   gboolean    privileged,
                   guint       page_size,
                   PgsPhysMap *physmap)
{
  PgsSnapshot *self = g_object_new (PGS_TYPE_SNAPSHOT, NULL);

  self->processes = g_ptr_array_ref (processes);
  g_ptr_array_sort (self->processes, compare_pid);
  self->skipped = g_array_ref (skipped);
  g_array_set_clear_func (self->skipped, clear_skipped);
  self->privileged = !!privileged;
  self->page_size = page_size;
  self->physmap = physmap != NULL ? pgs_physmap_ref (physmap) : NULL;
  self->time = g_get_real_time ();
  return self;
}

gboolean
pgs_snapshot_is_privileged (PgsSnapshot *self)
{
  g_return_val_if_fail (PGS_IS_SNAPSHOT (self), FALSE);
  return self->privileged;
}

guint
pgs_snapshot_get_page_size (PgsSnapshot *self)
{
  g_return_val_if_fail (PGS_IS_SNAPSHOT (self), 0);
  return self->page_size;
}

gint64
pgs_snapshot_get_time (PgsSnapshot *self)
{
  g_return_val_if_fail (PGS_IS_SNAPSHOT (self), 0);
  return self->time;
}

guint
pgs_snapshot_get_n_skipped (PgsSnapshot *self)
{
  g_return_val_if_fail (PGS_IS_SNAPSHOT (self), 0);
  return self->skipped->len;
}

const PgsSkipped *
pgs_snapshot_get_skipped (PgsSnapshot *self,
                          guint        index)
{
  g_return_val_if_fail (PGS_IS_SNAPSHOT (self), NULL);
  g_return_val_if_fail (index < self->skipped->len, NULL);
  return &g_array_index (self->skipped, PgsSkipped, index);
}

guint
pgs_snapshot_get_n_processes (PgsSnapshot *self)
{
  g_return_val_if_fail (PGS_IS_SNAPSHOT (self), 0);
  return self->processes->len;
}

/* Returns: (transfer none) */
PgsProcess *
pgs_snapshot_get_process (PgsSnapshot *self,
                          guint        index)
{
  g_return_val_if_fail (PGS_IS_SNAPSHOT (self), NULL);
  g_return_val_if_fail (index < self->processes->len, NULL);
  return g_ptr_array_index (self->processes, index);
}

/* Returns: (transfer none) (nullable) */
PgsProcess *
pgs_snapshot_lookup_pid (PgsSnapshot *self,
                         int          pid)
{
  guint lo = 0, hi;

  g_return_val_if_fail (PGS_IS_SNAPSHOT (self), NULL);

  hi = self->processes->len;
  while (lo < hi)
    {
      guint mid = (lo + hi) / 2;
      PgsProcess *p = g_ptr_array_index (self->processes, mid);

      if (p->pid == pid)
        return p;
      if (p->pid < pid)
        lo = mid + 1;
      else
        hi = mid;
    }
  return NULL;
}

/* Sums @metric over the processes where it is known; @n_unknown says how many were left
 * out, so a caller never presents a partial sum as the whole. PSS is summed in the
 * kernel's fixed point and truncated once. */
guint64
pgs_snapshot_get_total (PgsSnapshot *self,
                        PgsMetric    metric,
                        guint       *n_unknown)
{
  guint64 total = 0;
  guint unknown = 0;

  g_return_val_if_fail (PGS_IS_SNAPSHOT (self), 0);

  for (guint i = 0; i < self->processes->len; i++)
    {
      PgsProcess *p = g_ptr_array_index (self->processes, i);

      if (!pgs_process_is_known (p, metric))
        unknown++;
      else if (metric == PGS_METRIC_PSS)
        total += p->pss_fp;
      else
        total += pgs_process_get_metric (p, metric);
    }

  if (n_unknown != NULL)
    *n_unknown = unknown;
  return metric == PGS_METRIC_PSS ? total >> PGS_PSS_SHIFT : total;
}

/* Returns: (transfer none) (nullable): the physical map, when the scan asked for it. */
PgsPhysMap *
pgs_snapshot_get_physmap (PgsSnapshot *self)
{
  g_return_val_if_fail (PGS_IS_SNAPSHOT (self), NULL);
  return self->physmap;
}

/* The address of page @k of @p, from its runs. */
static guint64
page_address (PgsProcess *p,
              guint32     k)
{
  guint lo = 0, hi = p->runs->len;

  while (hi - lo > 1)
    {
      guint mid = (lo + hi) / 2;

      if (g_array_index (p->runs, PgsPageRun, mid).first <= k)
        lo = mid;
      else
        hi = mid;
    }
  {
    const PgsPageRun *run = &g_array_index (p->runs, PgsPageRun, lo);

    return run->start + (guint64) (k - run->first) * p->page_size;
  }
}

GArray *
pgs_snapshot_find_frame_users (PgsSnapshot *self,
                               guint64      pfn)
{
  g_autoptr(GArray) pages = NULL;
  GArray *users;

  g_return_val_if_fail (PGS_IS_SNAPSHOT (self), NULL);

  users = g_array_new (FALSE, FALSE, sizeof (PgsFrameUser));

  g_mutex_lock (&self->frame_lock);
  if (self->frame_index == NULL)
    self->frame_index = pgs_frame_index_new (self->processes);
  g_mutex_unlock (&self->frame_lock);

  pages = g_array_sized_new (FALSE, FALSE, sizeof (PgsFramePage), 16);
  pgs_frame_index_lookup (self->frame_index, pfn, pages);
  for (guint i = 0; i < pages->len; i++)
    {
      const PgsFramePage *page = &g_array_index (pages, PgsFramePage, i);
      PgsProcess *p = g_ptr_array_index (self->processes, page->process);
      PgsFrameUser user;

      user.pid = p->pid;
      user.address = page_address (p, page->page);
      g_array_append_val (users, user);
    }
  return users;
}

/* The mapping of @p holding @address (mappings are in address order), or G_MAXUINT. */
static guint
mapping_at (PgsProcess *p,
            guint64     address)
{
  guint lo = 0, hi = p->mappings->len;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      const PgsMappingData *m = &g_array_index (p->mappings, PgsMappingData, mid);

      if (m->end <= address)
        lo = mid + 1;
      else if (m->start > address)
        hi = mid;
      else
        return mid;
    }
  return G_MAXUINT;
}

/* Adds @run's pages to @sums (guint64 process << 32 | mapping → guint64 pages). */
static void
add_range_run (PgsSnapshot       *self,
               const PgsFrameRun *run,
               GHashTable        *sums)
{
  PgsProcess *p = g_ptr_array_index (self->processes, run->process);

  for (guint32 k = run->first_page; k < run->first_page + run->n_pages; k++)
    {
      guint64 key = (guint64) run->process << 32 | mapping_at (p, page_address (p, k));
      guint64 *pages = g_hash_table_lookup (sums, &key);

      if (pages == NULL)
        {
          /* The key, then its count, in one block. */
          guint64 *entry = g_new0 (guint64, 2);

          entry[0] = key;
          pages = &entry[1];
          g_hash_table_insert (sums, entry, pages);
        }
      (*pages)++;
    }
}

static int
compare_holdings (gconstpointer a,
                  gconstpointer b)
{
  const PgsFrameHolding *x = a, *y = b;

  if (x->pid != y->pid)
    return (x->pid > y->pid) - (x->pid < y->pid);
  return strcmp (x->path, y->path);
}

GArray *
pgs_snapshot_sum_frame_range (PgsSnapshot *self,
                              guint64      first_pfn,
                              guint64      end_pfn)
{
  g_autoptr(GHashTable) sums = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  g_autoptr(GArray) runs = g_array_new (FALSE, FALSE, sizeof (PgsFrameRun));
  GArray *holdings;
  GHashTableIter iter;
  gpointer key, value;

  g_return_val_if_fail (PGS_IS_SNAPSHOT (self), NULL);

  holdings = g_array_new (FALSE, FALSE, sizeof (PgsFrameHolding));
  g_mutex_lock (&self->frame_lock);
  if (self->frame_index == NULL)
    self->frame_index = pgs_frame_index_new (self->processes);
  g_mutex_unlock (&self->frame_lock);

  pgs_frame_index_collect_range (self->frame_index, first_pfn, end_pfn, runs);
  for (guint i = 0; i < runs->len; i++)
    add_range_run (self, &g_array_index (runs, PgsFrameRun, i), sums);
  g_hash_table_iter_init (&iter, sums);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      guint64 k = *(const guint64 *) key;
      PgsProcess *p = g_ptr_array_index (self->processes, (guint) (k >> 32));
      guint mapping = (guint) (k & G_MAXUINT32);
      PgsFrameHolding h = { p->pid, "", *(const guint64 *) value };

      if (mapping != G_MAXUINT32 && mapping < p->mappings->len)
        h.path = g_array_index (p->mappings, PgsMappingData, mapping).path;
      g_array_append_val (holdings, h);
    }
  g_array_sort (holdings, compare_holdings);
  /* Merge neighbours of one process and one file (its several mappings). */
  {
    guint out = 0;

    for (guint i = 0; i < holdings->len; i++)
      {
        PgsFrameHolding *h = &g_array_index (holdings, PgsFrameHolding, i);

        if (out > 0 && compare_holdings (&g_array_index (holdings, PgsFrameHolding, out - 1), h) == 0)
          g_array_index (holdings, PgsFrameHolding, out - 1).pages += h->pages;
        else
          g_array_index (holdings, PgsFrameHolding, out++) = *h;
      }
    g_array_set_size (holdings, out);
  }
  return holdings;
}

/* A one-line kernel file without its newline, or NULL. */
static char *
read_line_at (int         root_fd,
              const char *name)
{
  gsize len;
  char *text = pgs_read_file_at (root_fd, name, &len, NULL);

  if (text != NULL)
    g_strchomp (text);
  return text;
}

void
_pgs_snapshot_read_host_info (PgsSnapshot *self,
                              int          root_fd)
{
  gsize len;

  g_assert (self->hostname == NULL);
  self->hostname = read_line_at (root_fd, "sys/kernel/hostname");
  self->kernel_release = read_line_at (root_fd, "sys/kernel/osrelease");
  self->boot_id = read_line_at (root_fd, "sys/kernel/random/boot_id");
  self->meminfo_text = pgs_read_file_at (root_fd, "meminfo", &len, NULL);
  self->zoneinfo_text = pgs_read_file_at (root_fd, "zoneinfo", &len, NULL);
  self->vmstat_text = pgs_read_file_at (root_fd, "vmstat", &len, NULL);
  self->version = g_strdup (PACKAGE_VERSION);
}

void
_pgs_snapshot_set_counters (PgsSnapshot *self,
                            const char  *zoneinfo_text,
                            const char  *vmstat_text)
{
  g_free (self->zoneinfo_text);
  self->zoneinfo_text = g_strdup (zoneinfo_text);
  g_free (self->vmstat_text);
  self->vmstat_text = g_strdup (vmstat_text);
}

void
_pgs_snapshot_set_info (PgsSnapshot *self,
                        const char  *hostname,
                        const char  *kernel_release,
                        const char  *boot_id,
                        const char  *version,
                        const char  *meminfo_text,
                        gint64       time)
{
  g_free (self->hostname);
  self->hostname = g_strdup (hostname);
  g_free (self->kernel_release);
  self->kernel_release = g_strdup (kernel_release);
  g_free (self->boot_id);
  self->boot_id = g_strdup (boot_id);
  g_free (self->version);
  self->version = g_strdup (version);
  g_free (self->meminfo_text);
  self->meminfo_text = g_strdup (meminfo_text);
  self->time = time;
}

void
_pgs_snapshot_set_file (PgsSnapshot *self,
                        GFile       *file)
{
  g_set_object (&self->file, file);
}

void
_pgs_snapshot_set_path (PgsSnapshot *self,
                        const char  *path)
{
  if (path != self->path)
    {
      g_free (self->path);
      self->path = g_strdup (path);
    }
}

GPtrArray *
_pgs_snapshot_get_processes (PgsSnapshot *self)
{
  return self->processes;
}

const char *
pgs_snapshot_get_hostname (PgsSnapshot *self)
{
  g_return_val_if_fail (PGS_IS_SNAPSHOT (self), NULL);
  return self->hostname;
}

const char *
pgs_snapshot_get_kernel_release (PgsSnapshot *self)
{
  g_return_val_if_fail (PGS_IS_SNAPSHOT (self), NULL);
  return self->kernel_release;
}

const char *
pgs_snapshot_get_boot_id (PgsSnapshot *self)
{
  g_return_val_if_fail (PGS_IS_SNAPSHOT (self), NULL);
  return self->boot_id;
}

/* The version of Pagescope that took the snapshot. */
const char *
pgs_snapshot_get_version (PgsSnapshot *self)
{
  g_return_val_if_fail (PGS_IS_SNAPSHOT (self), NULL);
  return self->version;
}

/* /proc/meminfo as it read at the scan, or NULL. */
const char *
pgs_snapshot_get_meminfo_text (PgsSnapshot *self)
{
  g_return_val_if_fail (PGS_IS_SNAPSHOT (self), NULL);
  return self->meminfo_text;
}

/* /proc/zoneinfo and /proc/vmstat as they read at the scan, or NULL (also from files
 * written before they were kept). */
const char *
pgs_snapshot_get_zoneinfo_text (PgsSnapshot *self)
{
  g_return_val_if_fail (PGS_IS_SNAPSHOT (self), NULL);
  return self->zoneinfo_text;
}

const char *
pgs_snapshot_get_vmstat_text (PgsSnapshot *self)
{
  g_return_val_if_fail (PGS_IS_SNAPSHOT (self), NULL);
  return self->vmstat_text;
}

/* Returns: (transfer none) (nullable) */
GFile *
pgs_snapshot_get_file (PgsSnapshot *self)
{
  g_return_val_if_fail (PGS_IS_SNAPSHOT (self), NULL);
  return self->file;
}

/* Returns: (transfer none) (nullable) */
const char *
pgs_snapshot_get_path (PgsSnapshot *self)
{
  g_return_val_if_fail (PGS_IS_SNAPSHOT (self), NULL);
  return self->path;
}
