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

static void
pgs_compare_item_dispose (GObject *object)
{
  PgsCompareItem *self = PGS_COMPARE_ITEM (object);

  g_clear_object (&self->old_process);
  g_clear_object (&self->new_process);
  G_OBJECT_CLASS (pgs_compare_item_parent_class)->dispose (object);
}

static void
pgs_compare_item_class_init (PgsCompareItemClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = pgs_compare_item_dispose;
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
