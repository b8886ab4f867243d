/* pgs-group-item.c
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A group of pgs_group_processes(), or a process of one, as a GObject with a property per
 * figure, for the columns, cells and sorters the Groups template declares.
 */

#include "config.h"

#include <glib/gi18n.h>

#include "pgs-group-item.h"
#include "pgs-units.h"

struct _PgsGroupItem
{
  GObject      parent_instance;

  PgsSnapshot *snapshot;  /* keeps the processes of @group alive */
  GPtrArray   *groups;    /* keeps @group alive */
  PgsGroup    *group;
  PgsProcess  *process;   /* a member's row; NULL for the group's */
};

enum {
  PROP_0,
  PROP_NAME,
  PROP_TIP,
  PROP_ICON,
  PROP_N_PROCESSES,
  PROP_VSS,
  PROP_RSS,
  PROP_PSS,
  PROP_USS,
  PROP_PRIVATE,
  PROP_SWAP,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (PgsGroupItem, pgs_group_item, G_TYPE_OBJECT)

static void
pgs_group_item_finalize (GObject *object)
{
  PgsGroupItem *self = PGS_GROUP_ITEM (object);

  g_clear_pointer (&self->groups, g_ptr_array_unref);
  g_clear_object (&self->process);
  g_clear_object (&self->snapshot);
  G_OBJECT_CLASS (pgs_group_item_parent_class)->finalize (object);
}

/* A figure of the row as it sorts: a process's own, the group's sum over the members where
 * it is known. */
static guint64
figure (PgsGroupItem *self,
        guint         prop_id)
{
  static const PgsMetric metrics[] = {
    [PROP_VSS] = PGS_METRIC_VSS, [PROP_RSS] = PGS_METRIC_RSS, [PROP_PSS] = PGS_METRIC_PSS,
    [PROP_USS] = PGS_METRIC_USS, [PROP_SWAP] = PGS_METRIC_SWAP,
  };
  const PgsGroup *g = self->group;

  if (prop_id == PROP_PRIVATE)
    return self->process != NULL ? pgs_process_get_uss (self->process) : g->private_bytes;
  if (self->process != NULL)
    return pgs_process_get_metric (self->process, metrics[prop_id]);
  switch (prop_id)
    {
    case PROP_VSS: return g->vss;
    case PROP_RSS: return g->rss;
    case PROP_PSS: return g->pss_fp >> PGS_PSS_SHIFT;
    case PROP_USS: return g->uss;
    case PROP_SWAP: return g->swap;
    default: g_assert_not_reached ();
    }
}

static void
pgs_group_item_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  PgsGroupItem *self = PGS_GROUP_ITEM (object);
  PgsProcess *p = self->process;

  switch (prop_id)
    {
    case PROP_NAME:
      if (p != NULL)
        g_value_take_string (value, g_strdup_printf ("%d  %s", pgs_process_get_pid (p),
                                                     pgs_process_get_display_name (p)));
      else
        g_value_set_string (value, self->group->name);
      break;
    case PROP_TIP:
      g_value_set_string (value, p != NULL ? pgs_process_get_display_cmdline (p) : self->group->app_id);
      break;
    case PROP_ICON:
      if (p == NULL && self->group->icon != NULL)
        g_value_take_object (value, g_icon_new_for_string (self->group->icon, NULL));
      break;
    case PROP_N_PROCESSES:
      g_value_set_uint (value, p != NULL ? 0 : self->group->processes->len);
      break;
    case PROP_VSS:
    case PROP_RSS:
    case PROP_PSS:
    case PROP_USS:
    case PROP_PRIVATE:
    case PROP_SWAP:
      g_value_set_uint64 (value, figure (self, prop_id));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pgs_group_item_class_init (PgsGroupItemClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags flags = G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;
  static const char *sizes[] = { "vss", "rss", "pss", "uss", "private", "swap" };

  object_class->finalize = pgs_group_item_finalize;
  object_class->get_property = pgs_group_item_get_property;

  properties[PROP_NAME] = g_param_spec_string ("name", NULL, NULL, NULL, flags);
  properties[PROP_TIP] = g_param_spec_string ("tip", NULL, NULL, NULL, flags);
  properties[PROP_ICON] = g_param_spec_object ("icon", NULL, NULL, G_TYPE_ICON, flags);
  properties[PROP_N_PROCESSES] = g_param_spec_uint ("n-processes", NULL, NULL, 0, G_MAXUINT, 0, flags);
  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
    properties[PROP_VSS + i] = g_param_spec_uint64 (sizes[i], NULL, NULL, 0, G_MAXUINT64, 0, flags);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
pgs_group_item_init (PgsGroupItem *self)
{
}

static PgsGroupItem *
item_new (PgsSnapshot *snapshot,
          GPtrArray   *groups,
          PgsGroup    *group,
          PgsProcess  *process)
{
  PgsGroupItem *self = g_object_new (PGS_TYPE_GROUP_ITEM, NULL);

  self->snapshot = g_object_ref (snapshot);
  self->groups = g_ptr_array_ref (groups);
  self->group = group;
  self->process = process != NULL ? g_object_ref (process) : NULL;
  return self;
}

const PgsGroup *
pgs_group_item_get_group (PgsGroupItem *self)
{
  g_return_val_if_fail (PGS_IS_GROUP_ITEM (self), NULL);
  return self->group;
}

PgsProcess *
pgs_group_item_get_process (PgsGroupItem *self)
{
  g_return_val_if_fail (PGS_IS_GROUP_ITEM (self), NULL);
  return self->process;
}

static int
compare_pss (gconstpointer a,
             gconstpointer b)
{
  PgsProcess *pa = *(PgsProcess * const *) a;
  PgsProcess *pb = *(PgsProcess * const *) b;
  guint64 va = pgs_process_get_pss_fixed (pa);
  guint64 vb = pgs_process_get_pss_fixed (pb);

  if (va != vb)
    return va > vb ? -1 : 1;
  return pgs_process_get_pid (pa) - pgs_process_get_pid (pb);
}

GListModel *
pgs_group_item_get_members (PgsGroupItem *self)
{
  g_autoptr(GPtrArray) sorted = NULL;
  GListStore *members;

  g_return_val_if_fail (PGS_IS_GROUP_ITEM (self), NULL);
  if (self->process != NULL)
    return NULL;
  sorted = g_ptr_array_copy (self->group->processes, NULL, NULL);
  g_ptr_array_sort (sorted, compare_pss);
  members = g_list_store_new (PGS_TYPE_GROUP_ITEM);
  for (guint i = 0; i < sorted->len; i++)
    {
      g_autoptr(PgsGroupItem) member = item_new (self->snapshot, self->groups, self->group,
                                                 g_ptr_array_index (sorted, i));

      g_list_store_append (members, member);
    }
  return G_LIST_MODEL (members);
}

char *
pgs_group_item_format (PgsGroupItem  *self,
                       const char    *metric,
                       const char   **tip)
{
  GParamSpec *pspec = g_object_class_find_property (G_OBJECT_GET_CLASS (self), metric);
  const PgsGroup *g = self->group;
  PgsMetric bit;
  gboolean known;

  g_return_val_if_fail (pspec != NULL, NULL);
  *tip = NULL;
  bit = pspec == properties[PROP_VSS] ? PGS_METRIC_VSS : pspec == properties[PROP_RSS] ? PGS_METRIC_RSS :
        pspec == properties[PROP_PSS] ? PGS_METRIC_PSS : pspec == properties[PROP_USS] ? PGS_METRIC_USS :
        pspec == properties[PROP_SWAP] ? PGS_METRIC_SWAP : 0;
  if (pspec == properties[PROP_PRIVATE])
    {
      /* A process's row: what it alone maps, its USS (the private figure of a group of
       * one), so the column reads down the members as it does across the groups. */
      if (self->process != NULL)
        {
          known = pgs_process_is_known (self->process, PGS_METRIC_USS);
          *tip = known ? _("Mapped by this process alone (its USS)")
                       : pgs_process_get_unknown_reason (self->process);
          if (known)
            return pgs_units_format (PGS_UNITS_IEC, pgs_process_get_uss (self->process));
          if (*tip == NULL)
            *tip = _("Unknown");
          return g_strdup (PGS_UNKNOWN_TEXT);
        }
      known = g->private_known;
      *tip = g->private_reason;
      if (!known && g->private_at_least)
        {
          /* What the members with frames hold alone: a lower bound, said as one. */
          g_autofree char *size = pgs_units_format (PGS_UNITS_IEC, g->private_bytes);

          return g_strconcat ("≥ ", size, NULL);
        }
    }
  else if (self->process != NULL)
    {
      known = pgs_process_is_known (self->process, bit);
      *tip = pgs_process_get_unknown_reason (self->process);
    }
  else
    {
      known = (g->known & bit) != 0;
      *tip = g->unknown_reason;
      if (!known && g->n_partial < g->processes->len)
        {
          /* The sum over the members where it is known, a lower bound and shown as one
           * (as the process list's totals are): one unreadable process should not blank
           * the group. */
          g_autofree char *size = pgs_units_format (PGS_UNITS_IEC, figure (self, pspec->param_id));

          return g_strconcat ("≥ ", size, NULL);
        }
    }
  if (known)
    {
      *tip = NULL;
      return pgs_units_format (PGS_UNITS_IEC, figure (self, pspec->param_id));
    }
  if (*tip == NULL)
    *tip = _("Unknown");
  return g_strdup (PGS_UNKNOWN_TEXT);
}

GListModel *
pgs_group_items_build (PgsSnapshot *snapshot,
                       PgsGroupBy   by,
                       gboolean    *private_known)
{
  g_autoptr(GPtrArray) all = g_ptr_array_new ();
  g_autoptr(GPtrArray) groups = NULL;
  g_autoptr(GPtrArray) items = NULL;
  GListStore *store = g_list_store_new (PGS_TYPE_GROUP_ITEM);

  *private_known = TRUE;
  if (snapshot == NULL)
    return G_LIST_MODEL (store);
  for (guint i = 0; i < pgs_snapshot_get_n_processes (snapshot); i++)
    g_ptr_array_add (all, pgs_snapshot_get_process (snapshot, i));
  groups = pgs_group_processes (snapshot, all, by);
  items = g_ptr_array_new_full (groups->len, g_object_unref);
  for (guint i = 0; i < groups->len; i++)
    {
      PgsGroup *group = g_ptr_array_index (groups, i);

      *private_known &= group->private_known;
      g_ptr_array_add (items, item_new (snapshot, groups, group, NULL));
    }
  g_list_store_splice (store, 0, 0, items->pdata, items->len);
  return G_LIST_MODEL (store);
}
