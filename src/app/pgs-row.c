/* pgs-row.c
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A scan makes new objects for every process and mapping. Were a list's items those
 * objects, each refresh would make GtkColumnView throw away and rebuild every row widget
 * (GTK 4.8 keeps up to 200 of them): 30 to 250 ms of main loop on this machine. A row
 * stays for as long as its key (PID, address) does and only its item changes: cells whose
 * text comes out the same are left alone, and the selection and the scroll position stay
 * with their rows. Measured on the process list: 8 ms a refresh instead of 50 to 180 ms.
 */

#include "config.h"

#include "pgs-release.h"
#include "pgs-row.h"

struct _PgsRow
{
  GObject  parent_instance;

  GObject *item;
};

enum {
  PROP_0,
  PROP_ITEM,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (PgsRow, pgs_row, G_TYPE_OBJECT)

static void
pgs_row_dispose (GObject *object)
{
  PgsRow *self = (PgsRow *) object;

  pgs_clear_release (&self->item);

  G_OBJECT_CLASS (pgs_row_parent_class)->dispose (object);
}

static void
pgs_row_get_property (GObject    *object,
                      guint       prop_id,
                      GValue     *value,
                      GParamSpec *pspec)
{
  PgsRow *self = PGS_ROW (object);

  switch (prop_id)
    {
    case PROP_ITEM:
      g_value_set_object (value, self->item);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pgs_row_class_init (PgsRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = pgs_row_dispose;
  object_class->get_property = pgs_row_get_property;

  properties[PROP_ITEM] =
    g_param_spec_object ("item", NULL, NULL, G_TYPE_OBJECT,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
pgs_row_init (PgsRow *self)
{
}

PgsRow *
pgs_row_new (gpointer item)
{
  PgsRow *self;

  g_return_val_if_fail (G_IS_OBJECT (item), NULL);

  self = g_object_new (PGS_TYPE_ROW, NULL);
  self->item = g_object_ref (item);
  return self;
}

gpointer
pgs_row_get_item (PgsRow *self)
{
  g_return_val_if_fail (PGS_IS_ROW (self), NULL);
  return self->item;
}

void
pgs_row_set_item (PgsRow   *self,
                  gpointer  item)
{
  g_return_if_fail (PGS_IS_ROW (self));
  g_return_if_fail (G_IS_OBJECT (item));

  if (pgs_set_object_release (&self->item, item))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ITEM]);
}

void
pgs_row_store_merge (GListStore      *store,
                     GListModel      *items,
                     PgsRowKeyFunc    key,
                     PgsRowEqualFunc  equal)
{
  GListModel *rows = G_LIST_MODEL (store);
  guint n_old = g_list_model_get_n_items (rows);
  guint n_new = items ? g_list_model_get_n_items (items) : 0;
  g_autoptr(GPtrArray) result = g_ptr_array_new_full (n_new, g_object_unref);
  /* (row, item) pairs of kept rows: updated after the splice, never before it. The sort
   * model places the rows the splice adds among the others by their figures, and finds
   * the others' order broken ("Comparison method violates its general contract", fatal
   * in the tests) if those changed under it first; pgs_row_resort_if_needed() mends the
   * order after. */
  g_autoptr(GPtrArray) kept = g_ptr_array_new_full (2 * n_new, g_object_unref);
  guint i = 0, j = 0;
  guint first = G_MAXUINT, end_old = 0, end_new = 0;

  /* One pass: the new list of rows, reusing the row of every key still there. */
  while (i < n_old || j < n_new)
    {
      g_autoptr(PgsRow) row = i < n_old ? g_list_model_get_item (rows, i) : NULL;
      g_autoptr(GObject) item = j < n_new ? g_list_model_get_item (items, j) : NULL;
      gint64 old_key = row ? key (row->item) : G_MAXINT64;
      gint64 new_key = item ? key (item) : G_MAXINT64;

      if (old_key == new_key)
        {
          g_ptr_array_add (kept, g_object_ref (row));
          g_ptr_array_add (kept, g_steal_pointer (&item));
          g_ptr_array_add (result, g_steal_pointer (&row));
          i++, j++;
          continue;
        }

      /* A row that goes or comes: the splice must cover it. Before the first change
       * both lists match one to one, so it starts at the same index in both. */
      if (first == G_MAXUINT)
        first = i;
      if (old_key < new_key)
        i++;
      else
        {
          g_ptr_array_add (result, pgs_row_new (item));
          j++;
        }
      end_old = i;
      end_new = j;
    }

  /* One splice from the first change to the last, the rows in between put back as they
   * were: every splice makes the sort model and the view start over (6 ms each on a
   * table of 650 mappings), however few rows it moves. */
  if (first != G_MAXUINT)
    g_list_store_splice (store, first, end_old - first, result->pdata + first, end_new - first);

  for (guint k = 0; k < kept->len; k += 2)
    {
      PgsRow *row = g_ptr_array_index (kept, k);
      GObject *item = g_ptr_array_index (kept, k + 1);

      /* Unchanged: the cells stay as they are, no notification to rebind them. That is
       * most rows of a refresh. */
      if (equal != NULL && row->item != item && equal (row->item, item))
        pgs_set_object_release (&row->item, item);
      else
        pgs_row_set_item (row, item);
    }
}

void
pgs_row_store_assign (GListStore      *store,
                      GListModel      *items,
                      PgsRowEqualFunc  equal)
{
  GListModel *rows = G_LIST_MODEL (store);
  guint n_old = g_list_model_get_n_items (rows);
  guint n_new = items ? g_list_model_get_n_items (items) : 0;
  guint n_common = MIN (n_old, n_new);

  for (guint i = 0; i < n_common; i++)
    {
      g_autoptr(PgsRow) row = g_list_model_get_item (rows, i);
      g_autoptr(GObject) item = g_list_model_get_item (items, i);

      if (equal != NULL && row->item != item && equal (row->item, item))
        pgs_set_object_release (&row->item, item);
      else
        pgs_row_set_item (row, item);
    }

  if (n_new > n_old)
    {
      g_autoptr(GPtrArray) added = g_ptr_array_new_full (n_new - n_old, g_object_unref);

      for (guint i = n_old; i < n_new; i++)
        {
          g_autoptr(GObject) item = g_list_model_get_item (items, i);

          g_ptr_array_add (added, pgs_row_new (item));
        }
      g_list_store_splice (store, n_old, 0, added->pdata, added->len);
    }
  else if (n_old > n_new)
    g_list_store_splice (store, n_new, n_old - n_new, NULL, 0);
}

void
pgs_row_resort_if_needed (GListModel *model,
                          GtkSorter  *sorter)
{
  guint n = g_list_model_get_n_items (model);
  g_autoptr(GObject) previous = n > 0 ? g_list_model_get_item (model, 0) : NULL;

  for (guint i = 1; i < n; i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (model, i);

      if (gtk_sorter_compare (sorter, previous, item) == GTK_ORDERING_LARGER)
        {
          gtk_sorter_changed (sorter, GTK_SORTER_CHANGE_DIFFERENT);
          return;
        }
      g_set_object (&previous, item);
    }
}

gpointer
pgs_row_map_to_item (gpointer item,
                     gpointer user_data)
{
  gpointer inner = g_object_ref (PGS_ROW (item)->item);

  g_object_unref (item);
  return inner;
}

/* PgsRowItems */

#define PGS_TYPE_ROW_ITEMS (pgs_row_items_get_type ())
G_DECLARE_FINAL_TYPE (PgsRowItems, pgs_row_items, PGS, ROW_ITEMS, GObject)

struct _PgsRowItems
{
  GObject     parent_instance;

  GListModel *rows;
};

static GType
pgs_row_items_get_item_type (GListModel *list)
{
  return G_TYPE_OBJECT;
}

static guint
pgs_row_items_get_n_items (GListModel *list)
{
  return g_list_model_get_n_items (PGS_ROW_ITEMS (list)->rows);
}

static gpointer
pgs_row_items_get_item (GListModel *list,
                        guint       position)
{
  g_autoptr(GObject) row = g_list_model_get_item (PGS_ROW_ITEMS (list)->rows, position);

  if (row != NULL && GTK_IS_TREE_LIST_ROW (row))
    {
      GObject *inner = gtk_tree_list_row_get_item (GTK_TREE_LIST_ROW (row));

      g_object_unref (row);
      row = inner;
    }
  return row != NULL ? g_object_ref (PGS_ROW (row)->item) : NULL;
}

static void
pgs_row_items_model_init (GListModelInterface *iface)
{
  iface->get_item_type = pgs_row_items_get_item_type;
  iface->get_n_items = pgs_row_items_get_n_items;
  iface->get_item = pgs_row_items_get_item;
}

G_DEFINE_FINAL_TYPE_WITH_CODE (PgsRowItems, pgs_row_items, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, pgs_row_items_model_init))

static void
pgs_row_items_dispose (GObject *object)
{
  PgsRowItems *self = PGS_ROW_ITEMS (object);

  if (self->rows != NULL)
    g_signal_handlers_disconnect_by_data (self->rows, self);
  g_clear_object (&self->rows);

  G_OBJECT_CLASS (pgs_row_items_parent_class)->dispose (object);
}

static void
pgs_row_items_class_init (PgsRowItemsClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = pgs_row_items_dispose;
}

static void
pgs_row_items_init (PgsRowItems *self)
{
}

static void
on_rows_changed (GListModel  *rows,
                 guint        position,
                 guint        removed,
                 guint        added,
                 PgsRowItems *self)
{
  g_list_model_items_changed (G_LIST_MODEL (self), position, removed, added);
}

GListModel *
pgs_row_items_new (GListModel *rows)
{
  PgsRowItems *self = g_object_new (PGS_TYPE_ROW_ITEMS, NULL);

  self->rows = g_object_ref (rows);
  g_signal_connect (rows, "items-changed", G_CALLBACK (on_rows_changed), self);
  return G_LIST_MODEL (self);
}
