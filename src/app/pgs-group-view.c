/* pgs-group-view.c
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A GtkColumnView over a GtkTreeListModel: one row per group (its sums and its private
 * figure, what ending the whole group would free), expanding to its processes. The
 * groups come from pgs_group_processes() on the window's snapshot, which the app scans
 * with page data, so the private figure is there as root. That reads every page of every
 * process: it runs in a worker thread (the snapshot is immutable), and only while the page
 * is in view. Group rows of applications carry the desktop file's name and icon.
 */

#include "config.h"

#include <glib/gi18n.h>

#include "pgs-cell.h"
#include "pgs-group-view.h"
#include "pgs-units.h"

/* A row's item: a group, or one of its processes. Lives only in this view. */
#define PGS_TYPE_GROUP_NODE (pgs_group_node_get_type ())
G_DECLARE_FINAL_TYPE (PgsGroupNode, pgs_group_node, PGS, GROUP_NODE, GObject)

struct _PgsGroupNode
{
  GObject     parent_instance;
  PgsSnapshot *snapshot; /* keeps the processes of @group alive */
  GPtrArray  *groups;   /* keeps @group alive */
  PgsGroup   *group;
  PgsProcess *process;
};

G_DEFINE_FINAL_TYPE (PgsGroupNode, pgs_group_node, G_TYPE_OBJECT)

static void
pgs_group_node_finalize (GObject *object)
{
  PgsGroupNode *self = (PgsGroupNode *) object;

  g_clear_pointer (&self->groups, g_ptr_array_unref);
  g_clear_object (&self->process);
  g_clear_object (&self->snapshot);
  G_OBJECT_CLASS (pgs_group_node_parent_class)->finalize (object);
}

static void
pgs_group_node_class_init (PgsGroupNodeClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = pgs_group_node_finalize;
}

static void
pgs_group_node_init (PgsGroupNode *self)
{
}

typedef enum
{
  COLUMN_NAME,
  COLUMN_PROCESSES,
  COLUMN_VSS,
  COLUMN_RSS,
  COLUMN_PSS,
  COLUMN_USS,
  COLUMN_PRIVATE,
  COLUMN_SWAP,
  N_COLUMNS
} ColumnId;

static const struct
{
  const char *title;
  PgsMetric   metric;   /* 0: not a per-process metric */
} columns[N_COLUMNS] = {
  [COLUMN_NAME]      = { N_("Name"), 0 },
  [COLUMN_PROCESSES] = { N_("Processes"), 0 },
  [COLUMN_VSS]       = { N_("VSS"), PGS_METRIC_VSS },
  [COLUMN_RSS]       = { N_("RSS"), PGS_METRIC_RSS },
  [COLUMN_PSS]       = { N_("PSS"), PGS_METRIC_PSS },
  [COLUMN_USS]       = { N_("USS"), PGS_METRIC_USS },
  [COLUMN_PRIVATE]   = { N_("Private"), 0 },
  [COLUMN_SWAP]      = { N_("Swap"), PGS_METRIC_SWAP },
};

/* The drop-down's order: the application first, it is what people ask about. */
static const PgsGroupBy dropdown_order[] = {
  PGS_GROUP_BY_APP, PGS_GROUP_BY_USER, PGS_GROUP_BY_CGROUP, PGS_GROUP_BY_PARENT,
};

struct _PgsGroupView
{
  PgsPage          parent_instance;

  PgsSnapshot     *snapshot;
  PgsGroupBy       group_by;
  gboolean         stale;         /* the groups are not the snapshot's: regroup when shown */
  GCancellable    *cancellable;   /* the grouping under way, if any */
  PgsSnapshot     *groups_snapshot; /* the snapshot @groups are of */
  GPtrArray       *groups;        /* PgsGroup of @groups_snapshot */
  GListStore      *store;         /* PgsGroupNode of the groups */
  GtkTreeListModel *tree;
  GtkNoSelection  *selection;

  /* template children */
  GtkDropDown     *group_by_dropdown;
  GtkColumnView   *column_view;
  GtkLabel        *note_label;
};

enum {
  PROP_0,
  PROP_SNAPSHOT,
  PROP_GROUP_BY,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (PgsGroupView, pgs_group_view, PGS_TYPE_PAGE)

static PgsGroupNode *
node_new (PgsSnapshot *snapshot,
          GPtrArray   *groups,
          PgsGroup    *group,
          PgsProcess  *process)
{
  PgsGroupNode *node = g_object_new (PGS_TYPE_GROUP_NODE, NULL);

  node->snapshot = g_object_ref (snapshot);
  node->groups = g_ptr_array_ref (groups);
  node->group = group;
  node->process = process != NULL ? g_object_ref (process) : NULL;
  return node;
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

/* A group row expands to its processes, largest PSS first. */
static GListModel *
create_children (gpointer item,
                 gpointer user_data)
{
  PgsGroupNode *node = item;
  g_autoptr(GPtrArray) sorted = NULL;
  GListStore *children;

  if (node->process != NULL)
    return NULL;
  sorted = g_ptr_array_copy (node->group->processes, NULL, NULL);
  g_ptr_array_sort (sorted, compare_pss);
  children = g_list_store_new (PGS_TYPE_GROUP_NODE);
  for (guint i = 0; i < sorted->len; i++)
    {
      g_autoptr(PgsGroupNode) child = node_new (node->snapshot, node->groups, node->group,
                                                g_ptr_array_index (sorted, i));

      g_list_store_append (children, child);
    }
  return G_LIST_MODEL (children);
}

static void
setup_cell (GtkSignalListItemFactory *factory,
            GtkListItem              *item,
            gpointer                  data)
{
  ColumnId column = GPOINTER_TO_UINT (data);
  if (column == COLUMN_NAME)
    {
      GtkWidget *expander = gtk_tree_expander_new ();
      GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
      GtkWidget *image = gtk_image_new ();

      gtk_box_append (GTK_BOX (box), image);
      gtk_box_append (GTK_BOX (box), pgs_cell_new_text (PANGO_ELLIPSIZE_END));
      gtk_tree_expander_set_child (GTK_TREE_EXPANDER (expander), box);
      gtk_list_item_set_child (item, expander);
      return;
    }
  gtk_list_item_set_child (item, pgs_cell_new_numeric ());
}

static char *
size_text (gboolean     known,
           guint64      bytes,
           const char **tooltip,
           const char  *reason)
{
  if (known)
    return pgs_units_format (PGS_UNITS_IEC, bytes);
  *tooltip = reason != NULL ? reason : _("Unknown");
  return g_strdup (PGS_UNKNOWN_TEXT);
}

static void
bind_cell (GtkSignalListItemFactory *factory,
           GtkListItem              *item,
           gpointer                  data)
{
  ColumnId column = GPOINTER_TO_UINT (data);
  GtkTreeListRow *row = gtk_list_item_get_item (item);
  g_autoptr(PgsGroupNode) node = gtk_tree_list_row_get_item (row);
  const PgsGroup *g = node->group;
  PgsProcess *p = node->process;
  GtkWidget *child = gtk_list_item_get_child (item);
  GtkLabel *label;
  g_autofree char *text = NULL;
  const char *tooltip = NULL;

  if (column == COLUMN_NAME)
    {
      GtkWidget *box = gtk_tree_expander_get_child (GTK_TREE_EXPANDER (child));
      GtkImage *image = GTK_IMAGE (gtk_widget_get_first_child (box));
      g_autoptr(GIcon) icon = NULL;

      gtk_tree_expander_set_list_row (GTK_TREE_EXPANDER (child), row);
      label = GTK_LABEL (gtk_widget_get_last_child (box));
      if (p != NULL)
        {
          text = g_strdup_printf ("%d  %s", pgs_process_get_pid (p), pgs_process_get_display_name (p));
          tooltip = pgs_process_get_display_cmdline (p);
        }
      else
        {
          text = g_strdup (g->name);
          tooltip = g->app_id;
          if (g->icon != NULL)
            icon = g_icon_new_for_string (g->icon, NULL);
        }
      gtk_image_set_from_gicon (image, icon);
      gtk_widget_set_visible (GTK_WIDGET (image), icon != NULL);
    }
  else
    {
      label = GTK_LABEL (child);
      if (column == COLUMN_PROCESSES)
        text = p != NULL ? g_strdup ("") : g_strdup_printf ("%u", g->processes->len);
      else if (column == COLUMN_PRIVATE)
        {
          /* A process's own private memory is its USS; the group's is the figure. */
          if (p != NULL)
            text = g_strdup ("");
          else
            text = size_text (g->private_known, g->private_bytes, &tooltip, g->private_reason);
        }
      else if (p != NULL)
        text = size_text (pgs_process_is_known (p, columns[column].metric),
                          pgs_process_get_metric (p, columns[column].metric), &tooltip,
                          pgs_process_get_unknown_reason (p));
      else
        {
          const guint64 values[] = { 0, 0, g->vss, g->rss, g->pss_fp >> PGS_PSS_SHIFT, g->uss,
                                     0, g->swap };
          gboolean known = (g->known & columns[column].metric) != 0;

          if (!known && g->n_partial < g->processes->len)
            {
              /* The sum over the members where it is known, a lower bound and shown as one
               * (as the process list's totals are): one unreadable process should not blank
               * the group. */
              g_autofree char *size = pgs_units_format (PGS_UNITS_IEC, values[column]);

              text = g_strconcat ("≥ ", size, NULL);
              tooltip = g->unknown_reason;
            }
          else
            text = size_text (known, values[column], &tooltip, g->unknown_reason);
        }
    }
  pgs_cell_set_text (label, text);
  pgs_cell_set_tooltip (GTK_WIDGET (label), tooltip != NULL && *tooltip ? tooltip : NULL);
}

static void
show_groups (PgsGroupView *self,
             PgsSnapshot  *snapshot,
             GPtrArray    *groups)
{
  gboolean private_known = TRUE;

  g_list_store_remove_all (self->store);
  g_clear_pointer (&self->groups, g_ptr_array_unref);
  g_clear_object (&self->groups_snapshot);
  if (groups != NULL)
    {
      self->groups = g_ptr_array_ref (groups);
      self->groups_snapshot = g_object_ref (snapshot);
      for (guint i = 0; i < groups->len; i++)
        {
          g_autoptr(PgsGroupNode) node = node_new (snapshot, groups, g_ptr_array_index (groups, i),
                                                   NULL);

          private_known &= ((PgsGroup *) g_ptr_array_index (groups, i))->private_known;
          g_list_store_append (self->store, node);
        }
    }

  gtk_label_set_text (self->note_label,
                      private_known
                      ? _("Private: the memory only the group’s processes map, what quitting the "
                          "whole group would give back. USS adds up what each maps alone.")
                      : _("Private: the memory only the group’s processes map, what quitting the "
                          "whole group would give back. Unknown (—) where a process’s pages "
                          "could not be read: it needs the frames’ map counts, readable by root."));
}

typedef struct
{
  PgsSnapshot *snapshot;
  PgsGroupBy   by;
} GroupJob;

static void
group_job_free (GroupJob *job)
{
  g_clear_object (&job->snapshot);
  g_free (job);
}

static void
group_in_thread (GTask        *task,
                 gpointer      source_object,
                 gpointer      task_data,
                 GCancellable *cancellable)
{
  GroupJob *job = task_data;
  g_autoptr(GPtrArray) all = g_ptr_array_new ();

  for (guint i = 0; i < pgs_snapshot_get_n_processes (job->snapshot); i++)
    g_ptr_array_add (all, pgs_snapshot_get_process (job->snapshot, i));
  g_task_return_pointer (task, pgs_group_processes (job->snapshot, all, job->by),
                         (GDestroyNotify) g_ptr_array_unref);
}

static void
on_grouped (GObject      *source_object,
            GAsyncResult *result,
            gpointer      user_data)
{
  PgsGroupView *self = PGS_GROUP_VIEW (source_object);
  GroupJob *job = g_task_get_task_data (G_TASK (result));
  g_autoptr(GPtrArray) groups = g_task_propagate_pointer (G_TASK (result), NULL);

  /* NULL: cancelled, a newer grouping (or dispose) took over. */
  if (groups == NULL)
    return;
  g_clear_object (&self->cancellable);
  show_groups (self, job->snapshot, groups);
}

static void
regroup (PgsGroupView *self)
{
  g_autoptr(GTask) task = NULL;
  GroupJob *job;

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  if (self->snapshot == NULL)
    {
      show_groups (self, NULL, NULL);
      return;
    }

  job = g_new0 (GroupJob, 1);
  job->snapshot = g_object_ref (self->snapshot);
  job->by = self->group_by;
  self->cancellable = g_cancellable_new ();
  task = g_task_new (self, self->cancellable, on_grouped, NULL);
  g_task_set_source_tag (task, regroup);
  g_task_set_task_data (task, job, (GDestroyNotify) group_job_free);
  g_task_run_in_thread (task, group_in_thread);
}

/* Grouping reads every page of every process (for the private figure): done when the page
 * is in view, not on every refresh behind another page, where it would stall the main
 * loop the scan keeps free. */
static void
regroup_when_shown (PgsGroupView *self)
{
  if (gtk_widget_get_mapped (GTK_WIDGET (self)))
    {
      self->stale = FALSE;
      regroup (self);
    }
  else
    {
      /* Nor are groups of an old scan kept behind another page: they hold its snapshot,
       * with every process's pages (pgs-refresh.c), alive. */
      self->stale = TRUE;
      if (self->groups_snapshot != NULL && self->groups_snapshot != self->snapshot)
        show_groups (self, NULL, NULL);
    }
}

static void
pgs_group_view_map (GtkWidget *widget)
{
  PgsGroupView *self = PGS_GROUP_VIEW (widget);

  GTK_WIDGET_CLASS (pgs_group_view_parent_class)->map (widget);
  if (self->stale)
    regroup_when_shown (self);
}

static void
on_group_by_selected (PgsGroupView *self)
{
  guint selected = gtk_drop_down_get_selected (self->group_by_dropdown);

  if (selected < G_N_ELEMENTS (dropdown_order))
    pgs_group_view_set_group_by (self, dropdown_order[selected]);
}

static void
pgs_group_view_dispose (GObject *object)
{
  PgsGroupView *self = (PgsGroupView *) object;
  GtkWidget *child;

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  if (self->store != NULL)
    g_list_store_remove_all (self->store);
  gtk_widget_dispose_template (GTK_WIDGET (self), PGS_TYPE_GROUP_VIEW);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  g_clear_object (&self->selection);
  g_clear_object (&self->tree);
  g_clear_object (&self->store);
  g_clear_pointer (&self->groups, g_ptr_array_unref);
  g_clear_object (&self->groups_snapshot);
  g_clear_object (&self->snapshot);

  G_OBJECT_CLASS (pgs_group_view_parent_class)->dispose (object);
}

static void
pgs_group_view_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  PgsGroupView *self = PGS_GROUP_VIEW (object);

  switch (prop_id)
    {
    case PROP_SNAPSHOT:
      g_value_set_object (value, self->snapshot);
      break;
    case PROP_GROUP_BY:
      g_value_set_int (value, self->group_by);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pgs_group_view_set_property (GObject      *object,
                             guint         prop_id,
                             const GValue *value,
                             GParamSpec   *pspec)
{
  PgsGroupView *self = PGS_GROUP_VIEW (object);

  switch (prop_id)
    {
    case PROP_SNAPSHOT:
      pgs_group_view_set_snapshot (self, g_value_get_object (value));
      break;
    case PROP_GROUP_BY:
      pgs_group_view_set_group_by (self, g_value_get_int (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pgs_group_view_class_init (PgsGroupViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = pgs_group_view_dispose;
  object_class->get_property = pgs_group_view_get_property;
  object_class->set_property = pgs_group_view_set_property;
  widget_class->map = pgs_group_view_map;

  properties[PROP_SNAPSHOT] =
    g_param_spec_object ("snapshot", NULL, NULL, PGS_TYPE_SNAPSHOT,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_GROUP_BY] =
    g_param_spec_int ("group-by", NULL, NULL, PGS_GROUP_BY_USER, PGS_GROUP_BY_PARENT,
                      PGS_GROUP_BY_APP,
                      G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/pagescope/Pagescope/"
                                                             "pgs-group-view.ui");
  gtk_widget_class_bind_template_child (widget_class, PgsGroupView, group_by_dropdown);
  gtk_widget_class_bind_template_child (widget_class, PgsGroupView, column_view);
  gtk_widget_class_bind_template_child (widget_class, PgsGroupView, note_label);
  gtk_widget_class_bind_template_callback (widget_class, on_group_by_selected);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "groupview");
}

static void
pgs_group_view_init (PgsGroupView *self)
{
  GtkLayoutManager *layout;

  self->group_by = PGS_GROUP_BY_APP;
  gtk_widget_init_template (GTK_WIDGET (self));
  /* The session's snapshot (pgs-page.h). */
  pgs_page_bind (PGS_PAGE (self), "snapshot", self, "snapshot", G_BINDING_SYNC_CREATE);
  layout = gtk_widget_get_layout_manager (GTK_WIDGET (self));
  gtk_orientable_set_orientation (GTK_ORIENTABLE (layout), GTK_ORIENTATION_VERTICAL);

  self->store = g_list_store_new (PGS_TYPE_GROUP_NODE);
  self->tree = gtk_tree_list_model_new (G_LIST_MODEL (g_object_ref (self->store)), FALSE, FALSE,
                                        create_children, NULL, NULL);
  self->selection = gtk_no_selection_new (G_LIST_MODEL (g_object_ref (self->tree)));
  gtk_column_view_set_model (self->column_view, GTK_SELECTION_MODEL (self->selection));

  for (guint c = 0; c < N_COLUMNS; c++)
    {
      GtkListItemFactory *factory = pgs_cell_factory_new (G_CALLBACK (setup_cell),
                                                          G_CALLBACK (bind_cell), NULL,
                                                          GUINT_TO_POINTER (c));

      pgs_cell_append_column (self->column_view, _(columns[c].title), factory, c == COLUMN_NAME);
    }
  regroup (self);
}

PgsSnapshot *
pgs_group_view_get_snapshot (PgsGroupView *self)
{
  g_return_val_if_fail (PGS_IS_GROUP_VIEW (self), NULL);
  return self->snapshot;
}

void
pgs_group_view_set_snapshot (PgsGroupView *self,
                             PgsSnapshot  *snapshot)
{
  g_return_if_fail (PGS_IS_GROUP_VIEW (self));

  if (!g_set_object (&self->snapshot, snapshot))
    return;
  regroup_when_shown (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SNAPSHOT]);
}

PgsGroupBy
pgs_group_view_get_group_by (PgsGroupView *self)
{
  g_return_val_if_fail (PGS_IS_GROUP_VIEW (self), PGS_GROUP_BY_APP);
  return self->group_by;
}

void
pgs_group_view_set_group_by (PgsGroupView *self,
                             PgsGroupBy    by)
{
  g_return_if_fail (PGS_IS_GROUP_VIEW (self));

  if (self->group_by == by)
    return;
  self->group_by = by;
  for (guint i = 0; i < G_N_ELEMENTS (dropdown_order); i++)
    if (dropdown_order[i] == by && gtk_drop_down_get_selected (self->group_by_dropdown) != i)
      gtk_drop_down_set_selected (self->group_by_dropdown, i);
  regroup_when_shown (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_GROUP_BY]);
}

GListModel *
pgs_group_view_get_model (PgsGroupView *self)
{
  g_return_val_if_fail (PGS_IS_GROUP_VIEW (self), NULL);
  return G_LIST_MODEL (self->tree);
}

gboolean
pgs_group_view_is_busy (PgsGroupView *self)
{
  g_return_val_if_fail (PGS_IS_GROUP_VIEW (self), FALSE);
  return self->cancellable != NULL;
}

const PgsGroup *
pgs_group_view_row_get_group (GtkTreeListRow *row)
{
  g_autoptr(PgsGroupNode) node = gtk_tree_list_row_get_item (row);

  return node->group;
}

PgsProcess *
pgs_group_view_row_get_process (GtkTreeListRow *row)
{
  g_autoptr(PgsGroupNode) node = gtk_tree_list_row_get_item (row);

  return node->process;
}
