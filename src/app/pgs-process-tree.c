/* pgs-process-tree.c
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A process's parent is its PPID when that process is shown; else the process is a root.
 * The roots and each expanded process's children are stores of their own, brought to what
 * is shown after every refresh and search one insertion or removal at a time: the rows that
 * stay are the same rows of GtkTreeListModel, expanded or not, selected or not, and the
 * list keeps its scroll position. (Filter models over the list of shown processes would
 * see the refresh's one splice from the first change to the last as every row in between
 * removed and added again: collapsed.) A row put back all the same (it gained its first
 * child) comes back collapsed, so the expanded PIDs are remembered before and expanded
 * again after.
 */

#include "config.h"

#include "pagescope.h"
#include "pgs-process-tree.h"
#include "pgs-row.h"

struct _PgsProcessTree
{
  GListModel         *shown;      /* PgsRow, in PID order */
  GListStore         *roots;      /* PgsRow, in PID order: in the tree, its roots */
  GtkTreeListModel   *model;
  gboolean            enabled;
  GHashTable         *ppids;      /* shown pid → its ppid */
  GHashTable         *parents;    /* pids with a shown child */
  GHashTable         *was_parent; /* the same, before the last update */
  GHashTable         *children;   /* pid → its GListStore of children (not owned) */
  GHashTable         *expanded;   /* pids remembered as expanded */
};

static int
row_pid (gpointer row)
{
  return pgs_process_get_pid (pgs_row_get_item (row));
}

static int
row_ppid (gpointer row)
{
  return pgs_process_get_ppid (pgs_row_get_item (row));
}

static gboolean
is_root (PgsProcessTree *self,
         gpointer        row)
{
  int ppid = row_ppid (row);

  return ppid == row_pid (row) || !g_hash_table_contains (self->ppids, GINT_TO_POINTER (ppid));
}

/* Brings @store to @want (both PgsRow in PID order) one insertion or removal at a time:
 * rows that stay keep their place in the tree, expanded or not. A row that gained its
 * first child or lost its last is put back, so that the tree asks again whether it has
 * children (GtkTreeListModel remembers that it had none). */
static void
sync_store (PgsProcessTree *self,
            GListStore     *store,
            GPtrArray      *want)
{
  guint i = 0, j = 0;

  while (i < g_list_model_get_n_items (G_LIST_MODEL (store)) || j < want->len)
    {
      g_autoptr(GObject) have = g_list_model_get_item (G_LIST_MODEL (store), i);
      gpointer wanted = j < want->len ? g_ptr_array_index (want, j) : NULL;
      int have_pid = have != NULL ? row_pid (have) : G_MAXINT;
      int want_pid = wanted != NULL ? row_pid (wanted) : G_MAXINT;

      if (have_pid == want_pid)
        {
          gpointer key = GINT_TO_POINTER (want_pid);

          if (have != wanted ||
              g_hash_table_contains (self->parents, key) !=
              g_hash_table_contains (self->was_parent, key))
            g_list_store_splice (store, i, 1, &wanted, 1);
          i++, j++;
        }
      else if (have_pid < want_pid)
        g_list_store_remove (store, i);
      else
        {
          g_list_store_insert (store, i, wanted);
          i++, j++;
        }
    }
}

static void
forget_children (gpointer  data,
                 GObject  *store)
{
  PgsProcessTree *self = data;
  GHashTableIter iter;
  gpointer value;

  g_hash_table_iter_init (&iter, self->children);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    if (value == (gpointer) store)
      {
        g_hash_table_iter_remove (&iter);
        return;
      }
}

static GPtrArray *
children_of (PgsProcessTree *self,
             int             pid)
{
  GPtrArray *want = g_ptr_array_new ();
  guint n = g_list_model_get_n_items (self->shown);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GObject) row = g_list_model_get_item (self->shown, i);

      if (row_ppid (row) == pid && row_pid (row) != pid)
        g_ptr_array_add (want, row);
    }
  return want;
}

static GListModel *
create_children (gpointer item,
                 gpointer user_data)
{
  PgsProcessTree *self = user_data;
  int pid = row_pid (item);
  g_autoptr(GPtrArray) want = NULL;
  GListStore *store;

  /* NULL: not expandable (no expander arrow). */
  if (!self->enabled || !g_hash_table_contains (self->parents, GINT_TO_POINTER (pid)))
    return NULL;
  store = g_list_store_new (PGS_TYPE_ROW);
  want = children_of (self, pid);
  sync_store (self, store, want);
  g_hash_table_replace (self->children, GINT_TO_POINTER (pid), store);
  g_object_weak_ref (G_OBJECT (store), forget_children, self);
  return G_LIST_MODEL (store);
}

static void
fill_ppids (PgsProcessTree *self)
{
  guint n = g_list_model_get_n_items (self->shown);
  GHashTable *swap = self->was_parent;

  self->was_parent = self->parents;
  self->parents = swap;
  g_hash_table_remove_all (self->ppids);
  g_hash_table_remove_all (self->parents);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GObject) row = g_list_model_get_item (self->shown, i);

      g_hash_table_insert (self->ppids, GINT_TO_POINTER (row_pid (row)),
                           GINT_TO_POINTER (row_ppid (row)));
      if (row_ppid (row) != row_pid (row))
        g_hash_table_add (self->parents, GINT_TO_POINTER (row_ppid (row)));
    }
}

/* The roots and every child list the tree made, brought to what is shown now. */
static void
sync_all (PgsProcessTree *self)
{
  g_autoptr(GPtrArray) roots = g_ptr_array_new ();
  g_autoptr(GHashTable) by_parent = g_hash_table_new_full (NULL, NULL, NULL,
                                                           (GDestroyNotify) g_ptr_array_unref);
  g_autoptr(GList) parents = NULL;
  guint n = g_list_model_get_n_items (self->shown);

  fill_ppids (self);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GObject) row = g_list_model_get_item (self->shown, i);
      GPtrArray *siblings;

      if (is_root (self, row))
        {
          g_ptr_array_add (roots, row);
          continue;
        }
      siblings = g_hash_table_lookup (by_parent, GINT_TO_POINTER (row_ppid (row)));
      if (siblings == NULL)
        {
          siblings = g_ptr_array_new ();
          g_hash_table_insert (by_parent, GINT_TO_POINTER (row_ppid (row)), siblings);
        }
      g_ptr_array_add (siblings, row);
    }

  sync_store (self, self->roots, roots);
  /* Syncing a store may drop others (a collapsed parent's): walk a copy of the keys. */
  parents = g_hash_table_get_keys (self->children);
  for (GList *l = parents; l != NULL; l = l->next)
    {
      GListStore *store = g_hash_table_lookup (self->children, l->data);
      GPtrArray *want = g_hash_table_lookup (by_parent, l->data);
      g_autoptr(GPtrArray) none = g_ptr_array_new ();

      if (store != NULL)
        sync_store (self, store, want != NULL ? want : none);
    }
}

static GtkTreeListModel *
make_model (PgsProcessTree *self)
{
  return gtk_tree_list_model_new (g_object_ref (G_LIST_MODEL (self->roots)), FALSE, FALSE,
                                  create_children, self, NULL);
}

PgsProcessTree *
pgs_process_tree_new (GListModel *shown)
{
  PgsProcessTree *self = g_new0 (PgsProcessTree, 1);

  self->shown = g_object_ref (shown);
  self->ppids = g_hash_table_new (NULL, NULL);
  self->expanded = g_hash_table_new (NULL, NULL);
  self->parents = g_hash_table_new (NULL, NULL);
  self->was_parent = g_hash_table_new (NULL, NULL);
  self->children = g_hash_table_new (NULL, NULL);
  self->roots = g_list_store_new (PGS_TYPE_ROW);
  return self;
}

void
pgs_process_tree_free (PgsProcessTree *self)
{
  GHashTableIter iter;
  gpointer store;

  if (self == NULL)
    return;
  g_hash_table_iter_init (&iter, self->children);
  while (g_hash_table_iter_next (&iter, NULL, &store))
    g_object_weak_unref (store, forget_children, self);
  g_clear_object (&self->model);
  g_clear_object (&self->roots);
  g_clear_object (&self->shown);
  g_clear_pointer (&self->ppids, g_hash_table_unref);
  g_clear_pointer (&self->expanded, g_hash_table_unref);
  g_clear_pointer (&self->parents, g_hash_table_unref);
  g_clear_pointer (&self->was_parent, g_hash_table_unref);
  g_clear_pointer (&self->children, g_hash_table_unref);
  g_free (self);
}

GListModel *
pgs_process_tree_get_model (PgsProcessTree *self)
{
  return self->enabled ? G_LIST_MODEL (self->model) : self->shown;
}

gboolean
pgs_process_tree_get_enabled (PgsProcessTree *self)
{
  return self->enabled;
}

GListModel *
pgs_process_tree_set_enabled (PgsProcessTree *self,
                              gboolean        enabled)
{
  if (self->enabled == enabled)
    return pgs_process_tree_get_model (self);
  self->enabled = enabled;
  g_clear_object (&self->model);
  if (enabled)
    {
      sync_all (self);
      self->model = make_model (self);
    }
  else
    g_list_store_remove_all (self->roots);
  return pgs_process_tree_get_model (self);
}

void
pgs_process_tree_remember (PgsProcessTree *self)
{
  guint n;

  if (!self->enabled)
    return;
  g_hash_table_remove_all (self->expanded);
  n = g_list_model_get_n_items (G_LIST_MODEL (self->model));
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GtkTreeListRow) row = gtk_tree_list_model_get_row (self->model, i);
      g_autoptr(GObject) item = gtk_tree_list_row_get_item (row);

      if (gtk_tree_list_row_get_expanded (row))
        g_hash_table_add (self->expanded, GINT_TO_POINTER (row_pid (item)));
    }
}

void
pgs_process_tree_update (PgsProcessTree *self)
{
  if (!self->enabled)
    return;
  sync_all (self);

  /* Rows expand in place, adding their children after them: one pass finds them all. */
  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (self->model)); i++)
    {
      g_autoptr(GtkTreeListRow) row = gtk_tree_list_model_get_row (self->model, i);
      g_autoptr(GObject) item = gtk_tree_list_row_get_item (row);

      if (!gtk_tree_list_row_get_expanded (row) &&
          g_hash_table_contains (self->expanded, GINT_TO_POINTER (row_pid (item))))
        gtk_tree_list_row_set_expanded (row, TRUE);
    }
}

void
pgs_process_tree_expand_to (PgsProcessTree *self,
                            int             pid)
{
  g_autoptr(GArray) chain = g_array_new (FALSE, FALSE, sizeof (int));
  gpointer ppid;

  if (!self->enabled)
    return;
  /* The shown ancestors, nearest first; a loop of PPIDs ends at the first repeat. */
  while (g_hash_table_lookup_extended (self->ppids, GINT_TO_POINTER (pid), NULL, &ppid) &&
         g_hash_table_contains (self->ppids, ppid) && GPOINTER_TO_INT (ppid) != pid &&
         chain->len < 4096)
    {
      pid = GPOINTER_TO_INT (ppid);
      g_array_append_val (chain, pid);
    }

  for (guint k = chain->len; k-- > 0;)
    {
      int ancestor = g_array_index (chain, int, k);

      for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (self->model)); i++)
        {
          g_autoptr(GtkTreeListRow) row = gtk_tree_list_model_get_row (self->model, i);
          g_autoptr(GObject) item = gtk_tree_list_row_get_item (row);

          if (row_pid (item) == ancestor)
            {
              gtk_tree_list_row_set_expanded (row, TRUE);
              break;
            }
        }
    }
}

gboolean
pgs_process_tree_is_expanded (PgsProcessTree *self,
                              int             pid)
{
  if (!self->enabled)
    return FALSE;
  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (self->model)); i++)
    {
      g_autoptr(GtkTreeListRow) row = gtk_tree_list_model_get_row (self->model, i);
      g_autoptr(GObject) item = gtk_tree_list_row_get_item (row);

      if (row_pid (item) == pid)
        return gtk_tree_list_row_get_expanded (row);
    }
  return FALSE;
}
