/* pgs-group-view.c
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A GtkColumnView over a GtkTreeListModel: one row per group (its sums and its private
 * figure, what ending the whole group would free), expanding to its processes. The
 * groups come from pgs_group_processes() on the window's snapshot, which the app scans
 * with page data, so the private figure is there as root. That reads every page of every
 * process: it runs in a worker (pgs-model-build.h; the snapshot is immutable), and only
 * while the page is in view. Group rows of applications carry the desktop file's name and
 * icon. The columns are declared in the template.
 */

#include "config.h"

#include <unistd.h>

#include <glib/gi18n.h>

#include "pgs-cell.h"
#include "pgs-group-item.h"
#include "pgs-group-view.h"
#include "pgs-model-build.h"

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
  GCancellable    *cancellable;   /* the grouping under way or being put in the table, if any */
  PgsSnapshot     *groups_snapshot; /* the snapshot the groups shown are of */
  GListStore      *store;         /* PgsGroupItem of the groups */
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

/* A group row expands to its processes, largest PSS first. */
static GListModel *
create_children (gpointer item,
                 gpointer user_data)
{
  return pgs_group_item_get_members (item);
}

/* Template closures: a size cell's text and tooltip. */
static char *
group_size (gpointer      this,
            PgsGroupItem *item,
            const char   *metric)
{
  const char *tip;

  return item != NULL ? pgs_group_item_format (item, metric, &tip) : NULL;
}

static char *
group_size_tip (gpointer      this,
                PgsGroupItem *item,
                const char   *metric)
{
  const char *tip = NULL;
  g_autofree char *text = item != NULL ? pgs_group_item_format (item, metric, &tip) : NULL;

  return g_strdup (tip != NULL && *tip ? tip : NULL);
}

static char *
group_count (gpointer this,
             guint    count)
{
  return count > 0 ? g_strdup_printf ("%u", count) : g_strdup ("");
}

static gboolean
has_icon (gpointer  this,
          GIcon    *icon)
{
  return icon != NULL;
}

static void
set_note (PgsGroupView *self,
          gboolean      private_known)
{
  /* Root reads every frame's map count: an unknown figure then comes from a process that
   * went away or could not be read, and root is not told it needs root. */
  gtk_label_set_text (self->note_label,
                      private_known
                      ? _("Private: the memory only the group’s processes map, what quitting the "
                          "whole group would give back. USS adds up what each maps alone.")
                      : geteuid () == 0
                      ? _("Private: the memory only the group’s processes map, what quitting the "
                          "whole group would give back. Unknown (—) where a process’s pages "
                          "could not be read: it exited or hid them during the scan.")
                      : _("Private: the memory only the group’s processes map, what quitting the "
                          "whole group would give back. Unknown (—) where a process’s pages "
                          "could not be read: it needs the frames’ map counts, readable by root."));
}

static void
groups_filled (GObject      *source_object,
               GAsyncResult *result,
               gpointer      user_data)
{
  /* Cancelled: a newer grouping (or dispose) took over. */
  if (pgs_model_fill_finish (result, NULL))
    g_clear_object (&PGS_GROUP_VIEW (user_data)->cancellable);
}

static void
show_groups (PgsGroupView *self,
             PgsSnapshot  *snapshot,
             GListModel   *groups,
             gboolean      private_known)
{
  g_autoptr(GListModel) none = NULL;

  g_set_object (&self->groups_snapshot, snapshot);
  if (groups == NULL)
    groups = none = G_LIST_MODEL (g_list_store_new (PGS_TYPE_GROUP_ITEM));
  pgs_model_fill_async (self->store, groups, self->cancellable, groups_filled, self);
  set_note (self, private_known);
}

typedef struct
{
  PgsSnapshot *snapshot;
  PgsGroupBy   by;
  gboolean     private_known;
} GroupJob;

static void
group_job_free (GroupJob *job)
{
  g_clear_object (&job->snapshot);
  g_free (job);
}

/* Grouping reads every page of every process (for the private figure). */
static GListModel *
build_groups (PgsModelBuild *build,
              gpointer       data)
{
  GroupJob *job = data;

  return pgs_group_items_build (job->snapshot, job->by, &job->private_known);
}

static void
on_grouped (GObject      *source_object,
            GAsyncResult *result,
            gpointer      user_data)
{
  PgsGroupView *self = PGS_GROUP_VIEW (source_object);
  GroupJob *job = pgs_model_build_get_data (result);
  g_autoptr(GListModel) groups = pgs_model_build_finish (result, NULL);

  /* NULL: cancelled, a newer grouping (or dispose) took over. */
  if (groups == NULL)
    return;
  show_groups (self, job->snapshot, groups, job->private_known);
}

static void
regroup (PgsGroupView *self)
{
  GroupJob *job;

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();
  if (self->snapshot == NULL)
    {
      show_groups (self, NULL, NULL, TRUE);
      return;
    }

  job = g_new0 (GroupJob, 1);
  job->snapshot = g_object_ref (self->snapshot);
  job->by = self->group_by;
  pgs_model_build_async (self, build_groups, job, (GDestroyNotify) group_job_free, NULL,
                         self->cancellable, on_grouped, NULL);
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
        {
          g_cancellable_cancel (self->cancellable);
          g_clear_object (&self->cancellable);
          g_list_store_remove_all (self->store);
          g_clear_object (&self->groups_snapshot);
        }
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
  gtk_widget_class_bind_template_callback (widget_class, group_size);
  gtk_widget_class_bind_template_callback (widget_class, group_size_tip);
  gtk_widget_class_bind_template_callback (widget_class, group_count);
  gtk_widget_class_bind_template_callback (widget_class, has_icon);
  g_type_ensure (PGS_TYPE_CELL);
  g_type_ensure (PGS_TYPE_GROUP_ITEM);

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

  self->store = g_list_store_new (PGS_TYPE_GROUP_ITEM);
  self->tree = gtk_tree_list_model_new (G_LIST_MODEL (g_object_ref (self->store)), FALSE, FALSE,
                                        create_children, NULL, NULL);
  /* A header click sorts the groups, and each group's processes among themselves. */
  self->selection = gtk_no_selection_new (G_LIST_MODEL (gtk_sort_list_model_new (
    G_LIST_MODEL (g_object_ref (self->tree)),
    GTK_SORTER (gtk_tree_list_row_sorter_new (g_object_ref (gtk_column_view_get_sorter (self->column_view)))))));
  gtk_column_view_set_model (self->column_view, GTK_SELECTION_MODEL (self->selection));
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
  g_autoptr(PgsGroupItem) item = gtk_tree_list_row_get_item (row);

  return pgs_group_item_get_group (item);
}

PgsProcess *
pgs_group_view_row_get_process (GtkTreeListRow *row)
{
  g_autoptr(PgsGroupItem) item = gtk_tree_list_row_get_item (row);

  return pgs_group_item_get_process (item);
}
