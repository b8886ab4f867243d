/* pgs-compare-item.c
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A row of the comparison: one process matched across two snapshots
 * (pgs_compare_snapshots()), built in a worker by pgs_compare_items_build().
 */

#include "config.h"

#include "pgs-compare.h"
#include "pgs-compare-item.h"

struct _PgsCompareItem
{
  GObject     parent_instance;

  int         pid;
  int         status;
  PgsProcess *old_process;
  PgsProcess *new_process;
};

G_DEFINE_FINAL_TYPE (PgsCompareItem, pgs_compare_item, G_TYPE_OBJECT)

/* What the table's template reads (ui/pgs-compare-list.ui). Set once, before the item is
 * shown: nothing ever notifies. */
enum {
  PROP_0,
  PROP_PID,
  PROP_STATUS,
  PROP_NAME,
  PROP_PROCESS,
  PROP_OLD_PROCESS,
  PROP_NEW_PROCESS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
pgs_compare_item_dispose (GObject *object)
{
  PgsCompareItem *self = PGS_COMPARE_ITEM (object);

  g_clear_object (&self->old_process);
  g_clear_object (&self->new_process);
  G_OBJECT_CLASS (pgs_compare_item_parent_class)->dispose (object);
}

static void
pgs_compare_item_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  PgsCompareItem *self = PGS_COMPARE_ITEM (object);

  switch (prop_id)
    {
    case PROP_PID:
      g_value_set_int (value, self->pid);
      break;
    case PROP_STATUS:
      g_value_set_int (value, self->status);
      break;
    case PROP_NAME:
      g_value_set_string (value, pgs_process_get_name (pgs_compare_item_get_process (self)));
      break;
    case PROP_PROCESS:
      g_value_set_object (value, pgs_compare_item_get_process (self));
      break;
    case PROP_OLD_PROCESS:
      g_value_set_object (value, self->old_process);
      break;
    case PROP_NEW_PROCESS:
      g_value_set_object (value, self->new_process);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pgs_compare_item_class_init (PgsCompareItemClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  const GParamFlags flags = G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->dispose = pgs_compare_item_dispose;
  object_class->get_property = pgs_compare_item_get_property;

  properties[PROP_PID] = g_param_spec_int ("pid", NULL, NULL, 0, G_MAXINT, 0, flags);
  /* A PgsCompareStatus. */
  properties[PROP_STATUS] = g_param_spec_int ("status", NULL, NULL, 0, G_MAXINT, 0, flags);
  /* The process's name as read, unescaped: the Name column sorts by it. */
  properties[PROP_NAME] = g_param_spec_string ("name", NULL, NULL, NULL, flags);
  /* pgs_compare_item_get_process() */
  properties[PROP_PROCESS] = g_param_spec_object ("process", NULL, NULL, PGS_TYPE_PROCESS, flags);
  /* NULL on the side the process is missing from. */
  properties[PROP_OLD_PROCESS] = g_param_spec_object ("old-process", NULL, NULL, PGS_TYPE_PROCESS,
                                                      flags);
  properties[PROP_NEW_PROCESS] = g_param_spec_object ("new-process", NULL, NULL, PGS_TYPE_PROCESS,
                                                      flags);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
pgs_compare_item_init (PgsCompareItem *self)
{
}

int
pgs_compare_item_get_pid (PgsCompareItem *self)
{
  g_return_val_if_fail (PGS_IS_COMPARE_ITEM (self), 0);
  return self->pid;
}

int
pgs_compare_item_get_status (PgsCompareItem *self)
{
  g_return_val_if_fail (PGS_IS_COMPARE_ITEM (self), 0);
  return self->status;
}

PgsProcess *
pgs_compare_item_get_old_process (PgsCompareItem *self)
{
  g_return_val_if_fail (PGS_IS_COMPARE_ITEM (self), NULL);
  return self->old_process;
}

PgsProcess *
pgs_compare_item_get_new_process (PgsCompareItem *self)
{
  g_return_val_if_fail (PGS_IS_COMPARE_ITEM (self), NULL);
  return self->new_process;
}

gboolean
pgs_compare_item_get_difference (PgsCompareItem *self,
                                 PgsMetric       metric,
                                 gint64         *difference)
{
  guint64 old_value = 0, new_value = 0;

  g_return_val_if_fail (PGS_IS_COMPARE_ITEM (self), FALSE);

  if (self->old_process != NULL)
    {
      if (!pgs_process_is_known (self->old_process, metric))
        return FALSE;
      old_value = pgs_process_get_metric (self->old_process, metric);
    }
  if (self->new_process != NULL)
    {
      if (!pgs_process_is_known (self->new_process, metric))
        return FALSE;
      new_value = pgs_process_get_metric (self->new_process, metric);
    }
  *difference = (gint64) new_value - (gint64) old_value;
  return TRUE;
}

PgsProcess *
pgs_compare_item_get_process (PgsCompareItem *self)
{
  g_return_val_if_fail (PGS_IS_COMPARE_ITEM (self), NULL);
  return self->new_process != NULL ? self->new_process : self->old_process;
}

GListModel *
pgs_compare_items_build (PgsSnapshot *old_snapshot,
                         PgsSnapshot *new_snapshot)
{
  g_autoptr(GArray) entries = pgs_compare_snapshots (old_snapshot, new_snapshot);
  g_autoptr(GPtrArray) items = g_ptr_array_new_full (entries->len, g_object_unref);
  GListStore *store = g_list_store_new (PGS_TYPE_COMPARE_ITEM);

  for (guint i = 0; i < entries->len; i++)
    {
      PgsCompareEntry *entry = &g_array_index (entries, PgsCompareEntry, i);
      PgsCompareItem *item = g_object_new (PGS_TYPE_COMPARE_ITEM, NULL);

      item->pid = entry->pid;
      item->status = entry->status;
      g_set_object (&item->old_process, entry->old_process);
      g_set_object (&item->new_process, entry->new_process);
      g_ptr_array_add (items, item);
    }
  g_list_store_splice (store, 0, 0, items->pdata, items->len);
  return G_LIST_MODEL (store);
}
