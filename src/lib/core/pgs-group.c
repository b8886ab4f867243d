/* pgs-group.c
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The private figure of a group: a frame is private to the group when every mapping of it
 * (its kpagecount) belongs to a member. Frames mapped once need no comparison (and are most
 * frames); the rest are collected per group as (pfn, count) records, sorted by pfn, and a
 * run of equal pfns as long as the frame's count is private. A sort over the shared frames
 * only, no hash lookup per page.
 */

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "pgs-app-id.h"
#include "pgs-cgroup.h"
#include "pgs-group.h"
#include "pgs-pagemap.h"
#include "pgs-process-private.h"
#include "pgs-snapshot.h"

gboolean
pgs_group_by_from_string (const char *str,
                          PgsGroupBy *by)
{
  static const struct { const char *name; PgsGroupBy by; } names[] = {
    { "user", PGS_GROUP_BY_USER }, { "cgroup", PGS_GROUP_BY_CGROUP },
    { "app", PGS_GROUP_BY_APP }, { "parent", PGS_GROUP_BY_PARENT },
  };

  g_return_val_if_fail (str != NULL, FALSE);
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    if (g_ascii_strcasecmp (str, names[i].name) == 0)
      {
        *by = names[i].by;
        return TRUE;
      }
  return FALSE;
}

void
pgs_group_free (PgsGroup *group)
{
  if (group == NULL)
    return;
  g_free (group->name);
  g_free (group->app_id);
  g_free (group->icon);
  g_ptr_array_unref (group->processes);
  g_free (group);
}

typedef struct
{
  guint64 pfn;
  guint32 count;
} SharedFrame;

/* LSD radix sort on the pfn, 11 bits a pass, as many passes as the largest pfn needs
 * (three for 2^33 frames, 32 TiB): linear where qsort's comparisons were the larger part of
 * --group-by's cost on half a million shared frames. */
static void
sort_frames (GArray *frames)
{
  enum { BITS = 11, BUCKETS = 1 << BITS };
  SharedFrame *a = (SharedFrame *) (void *) frames->data;
  g_autofree SharedFrame *tmp = NULL;
  guint64 max_pfn = 0;
  guint n = frames->len;

  if (n < 2)
    return;
  for (guint i = 0; i < n; i++)
    max_pfn = MAX (max_pfn, a[i].pfn);
  tmp = g_new (SharedFrame, n);

  for (guint shift = 0; shift < 64 && (max_pfn >> shift) != 0; shift += BITS)
    {
      guint count[BUCKETS] = { 0 };
      guint sum = 0;
      SharedFrame *swap;

      for (guint i = 0; i < n; i++)
        count[(a[i].pfn >> shift) & (BUCKETS - 1)]++;
      for (guint b = 0; b < BUCKETS; b++)
        {
          guint c = count[b];

          count[b] = sum;
          sum += c;
        }
      for (guint i = 0; i < n; i++)
        tmp[count[(a[i].pfn >> shift) & (BUCKETS - 1)]++] = a[i];
      swap = a;
      a = tmp;
      tmp = swap;
    }
  /* After an odd number of passes the sorted records sit in the scratch buffer. */
  if (a != (SharedFrame *) (void *) frames->data)
    {
      memcpy (frames->data, a, (gsize) n * sizeof (SharedFrame));
      tmp = a;
    }
}

/* Collects @proc's present frames that count in its RSS: adds the ones mapped once to
 * @private_bytes and appends the others to @shared. Returns FALSE where @proc has no
 * frame-level data. */
static gboolean
collect_frames (PgsProcess *proc,
                GArray     *shared,
                guint64    *private_bytes)
{
  const PgsMappingData *maps;

  if (proc->source != PGS_SOURCE_PAGES || proc->entries == NULL || proc->counts == NULL ||
      proc->runs == NULL)
    return FALSE;

  maps = (const PgsMappingData *) (const void *) proc->mappings->data;
  for (guint r = 0; r < proc->runs->len; r++)
    {
      const PgsPageRun *run = &g_array_index (proc->runs, PgsPageRun, r);

      /* The scanner leaves RSS 0 for a hugetlb mapping (not in Rss or Pss) and for one
       * whose only present pages are the zero page: neither is memory a kill frees here. */
      if (maps[run->mapping].rss == 0)
        continue;

      for (guint32 j = 0; j < run->n_pages; j++)
        {
          guint64 entry = proc->entries[run->first + j];
          guint32 count = proc->counts[run->first + j];

          /* Count 0: the zero page or a PFN mapping (not in RSS), or a large folio's
           * rounded-down average under CONFIG_NO_PAGE_MAPCOUNT, which cannot be compared:
           * never claimed private. */
          if (!pgs_pm_is_present (entry) || count == 0 || count == PGS_COUNT_UNKNOWN)
            continue;
          if (count == 1)
            *private_bytes += proc->page_size;
          else
            {
              SharedFrame f = { pgs_pm_pfn (entry), count };

              g_array_append_val (shared, f);
            }
        }
    }
  return TRUE;
}

static void
compute_private (PgsSnapshot *snapshot,
                 PgsGroup    *group,
                 GArray      *shared)
{
  guint page_size = pgs_snapshot_get_page_size (snapshot);
  guint64 bytes = 0;
  guint i = 0;

  if (!pgs_snapshot_is_privileged (snapshot))
    {
      group->private_reason = "the private figure needs root (frame map counts from "
                              "/proc/kpagecount)";
      return;
    }

  g_array_set_size (shared, 0);
  for (guint k = 0; k < group->processes->len; k++)
    if (!collect_frames (g_ptr_array_index (group->processes, k), shared, &bytes))
      group->private_reason = "the private figure needs every member's frames (some "
                              "member's pagemap was unreadable or gave no frame numbers)";
  if (group->private_reason != NULL && shared->len == 0 && bytes == 0)
    return;

  sort_frames (shared);
  while (i < shared->len)
    {
      const SharedFrame *f = &g_array_index (shared, SharedFrame, i);
      guint j = i + 1;

      while (j < shared->len && g_array_index (shared, SharedFrame, j).pfn == f->pfn)
        j++;
      /* Every mapping of the frame is a member's. (More than its count happens only when
       * the frame changed hands during the scan: not claimed.) */
      if (j - i == f->count)
        bytes += page_size;
      i = j;
    }

  /* Without some members' frames the figure is a lower bound: a frame the unread members
   * also map has a count the read ones do not reach (so is not claimed), and their frames
   * mapped once are not seen at all. Neither can make it too high. */
  group->private_bytes = bytes;
  group->private_known = group->private_reason == NULL;
  group->private_at_least = !group->private_known;
}

static void
add_member (PgsGroup   *group,
            PgsProcess *p)
{
  g_ptr_array_add (group->processes, p);
  group->vss += pgs_process_get_vss (p);
  group->rss += pgs_process_get_rss (p);
  group->pss_fp += pgs_process_get_pss_fixed (p);
  group->uss += pgs_process_get_uss (p);
  group->swap += pgs_process_get_swap (p);
  group->known &= pgs_process_get_known (p);
  if (pgs_process_get_known (p) != PGS_METRIC_ALL)
    {
      group->n_partial++;
      if (group->unknown_reason == NULL)
        group->unknown_reason = pgs_process_get_unknown_reason (p);
    }
}

/* The key a process is grouped under, and the group's name, icon and app id. */
static char *
group_key (PgsSnapshot *snapshot,
           PgsProcess  *p,
           PgsGroupBy   by,
           GHashTable  *apps,
           char       **name,
           char       **app_id,
           char       **icon)
{
  const char *cgroup = pgs_process_get_cgroup (p);

  switch (by)
    {
    case PGS_GROUP_BY_USER:
      *name = g_strdup (pgs_process_get_user (p));
      return g_strdup_printf ("%u", pgs_process_get_uid (p));

    case PGS_GROUP_BY_CGROUP:
      *name = g_strdup (cgroup != NULL ? cgroup : "(no cgroup v2)");
      return g_strdup (*name);

    case PGS_GROUP_BY_PARENT:
      {
        int ppid = pgs_process_get_ppid (p);
        PgsProcess *parent = ppid > 0 ? pgs_snapshot_lookup_pid (snapshot, ppid) : NULL;

        /* A parent without a name (in a snapshot from elsewhere) is its PID alone. */
        *name = parent != NULL && pgs_process_get_name (parent) != NULL
                  ? g_strdup_printf ("%d (%s)", ppid, pgs_process_get_name (parent))
                  : g_strdup_printf ("%d", ppid);
        return g_strdup_printf ("%d", ppid);
      }

    case PGS_GROUP_BY_APP:
    default:
      {
        g_autofree char *unit = NULL;
        PgsUnitKind kind;

        if (cgroup == NULL)
          {
            *name = g_strdup ("(no cgroup v2)");
            return g_strdup ("none:");
          }
        kind = pgs_cgroup_classify (cgroup, &unit);
        if (kind == PGS_UNIT_APP)
          {
            char **cached = g_hash_table_lookup (apps, unit);

            if (cached == NULL)
              {
                cached = g_new0 (char *, 3);
                if (!pgs_app_id_lookup (unit, &cached[0], &cached[1]))
                  cached[0] = g_strdup (unit);
                g_hash_table_insert (apps, g_strdup (unit), cached);
              }
            *name = g_strdup (cached[0]);
            *icon = g_strdup (cached[1]);
            *app_id = g_strdup (unit);
            return g_strconcat ("app:", unit, NULL);
          }
        /* The root cgroup holds what no unit claims (kernel threads' helpers, processes of
         * a container run without systemd): "/" alone reads as a glitch, so say what it is. */
        *name = g_strdup (g_str_equal (unit, "/") ? "(root cgroup: no app or service)" : unit);
        return g_strconcat (kind == PGS_UNIT_OTHER ? "cgroup:" : "unit:", unit, NULL);
      }
    }
}

static guint64
group_value (const PgsGroup *g,
             PgsMetric       metric)
{
  switch (metric)
    {
    case PGS_METRIC_VSS:
      return g->vss;
    case PGS_METRIC_RSS:
      return g->rss;
    case PGS_METRIC_USS:
      return g->uss;
    case PGS_METRIC_SWAP:
      return g->swap;
    case PGS_METRIC_PSS:
    default:
      return g->pss_fp;
    }
}

static int
compare_groups (gconstpointer a,
                gconstpointer b,
                gpointer      user_data)
{
  const PgsGroup *ga = *(PgsGroup * const *) a;
  const PgsGroup *gb = *(PgsGroup * const *) b;
  PgsMetric metric = GPOINTER_TO_UINT (user_data);
  gboolean ka = (ga->known & metric) != 0;
  gboolean kb = (gb->known & metric) != 0;
  guint64 va = group_value (ga, metric);
  guint64 vb = group_value (gb, metric);

  if (ka != kb)
    return ka ? -1 : 1;
  if (va != vb)
    return va > vb ? -1 : 1;
  if (ga->rss != gb->rss)
    return ga->rss > gb->rss ? -1 : 1;
  return g_strcmp0 (ga->name, gb->name);
}

void
pgs_group_sort (GPtrArray *groups,
                PgsMetric  metric)
{
  g_return_if_fail (groups != NULL);
  g_ptr_array_sort_with_data (groups, compare_groups, GUINT_TO_POINTER (metric));
}

GHashTable *
pgs_group_names (PgsSnapshot *snapshot,
                 GPtrArray   *processes,
                 PgsGroupBy   by)
{
  g_autoptr(GHashTable) apps = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                      (GDestroyNotify) g_strfreev);
  GHashTable *names = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, g_free);

  g_return_val_if_fail (snapshot != NULL, names);
  g_return_val_if_fail (processes != NULL, names);

  for (guint i = 0; i < processes->len; i++)
    {
      PgsProcess *p = g_ptr_array_index (processes, i);
      char *name = NULL;
      g_autofree char *app_id = NULL;
      g_autofree char *icon = NULL;
      g_autofree char *key = group_key (snapshot, p, by, apps, &name, &app_id, &icon);

      g_hash_table_insert (names, GINT_TO_POINTER (pgs_process_get_pid (p)), name);
    }
  return names;
}

GPtrArray *
pgs_group_processes (PgsSnapshot *snapshot,
                     GPtrArray   *processes,
                     PgsGroupBy   by)
{
  g_autoptr(GHashTable) index = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GHashTable) apps = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                      (GDestroyNotify) g_strfreev);
  g_autoptr(GArray) shared = g_array_new (FALSE, FALSE, sizeof (SharedFrame));
  GPtrArray *groups = g_ptr_array_new_with_free_func ((GDestroyNotify) pgs_group_free);

  g_return_val_if_fail (snapshot != NULL, groups);
  g_return_val_if_fail (processes != NULL, groups);

  for (guint i = 0; i < processes->len; i++)
    {
      PgsProcess *p = g_ptr_array_index (processes, i);
      g_autofree char *name = NULL;
      g_autofree char *app_id = NULL;
      g_autofree char *icon = NULL;
      char *key = group_key (snapshot, p, by, apps, &name, &app_id, &icon);
      PgsGroup *group = g_hash_table_lookup (index, key);

      if (group == NULL)
        {
          group = g_new0 (PgsGroup, 1);
          group->name = g_steal_pointer (&name);
          group->app_id = g_steal_pointer (&app_id);
          group->icon = g_steal_pointer (&icon);
          group->processes = g_ptr_array_new ();
          group->known = PGS_METRIC_ALL;
          g_ptr_array_add (groups, group);
          g_hash_table_insert (index, key, group);
        }
      else
        {
          g_free (key);
          /* A member a snapshot from elsewhere gave no user name: another may have it. */
          if (group->name == NULL)
            group->name = g_steal_pointer (&name);
        }
      add_member (group, p);
    }

  for (guint i = 0; i < groups->len; i++)
    compute_private (snapshot, g_ptr_array_index (groups, i), shared);

  pgs_group_sort (groups, PGS_METRIC_PSS);
  return groups;
}
