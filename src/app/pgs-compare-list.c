/* pgs-compare-list.c
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The library matches the processes of two snapshots by PID and start time
 * (pgs_compare_snapshots: a reused PID is one process gone and one new) and orders them by
 * the size of their PSS change. This table shows that order, with the old and new PSS and
 * RSS, and the change of PSS, RSS, USS and swap; a header click sorts by a column. A
 * process only in the old snapshot is "Gone", one only in the new is "New": said in words
 * with an icon, not by colour alone.
 */

#include "config.h"

#include <glib/gi18n.h>

#include "pgs-cell.h"
#include "pgs-compare.h"
#include "pgs-compare-list.h"
#include "pgs-model-build.h"
#include "pgs-release.h"

struct _PgsCompareList
{
  PgsPage           parent_instance;

  PgsSnapshot      *old_snapshot;
  PgsSnapshot      *new_snapshot;
  char             *description;

  GCancellable     *cancellable;  /* the comparison being built or put in the table, if any */
  GListStore       *store;
  GtkSortListModel *sort_model;

  GtkLabel         *description_label;
  GtkColumnView    *column_view;
};

G_DEFINE_FINAL_TYPE (PgsCompareList, pgs_compare_list, PGS_TYPE_PAGE)

/* The template's closures (ui/pgs-compare-list.ui declares the columns). */

static char *
status_text (gpointer this,
             int      status)
{
  return g_strdup (status == PGS_COMPARE_GONE ? _("Gone")
                   : status == PGS_COMPARE_NEW ? _("New") : "");
}

static char *
status_tip (gpointer this,
            int      status)
{
  if (status == PGS_COMPARE_GONE)
    return g_strdup (_("This process ran when the old snapshot was taken and not in the new one"));
  if (status == PGS_COMPARE_NEW)
    return g_strdup (_("This process was not running when the old snapshot was taken"));
  return NULL;
}

static char *
status_icon (gpointer this,
             int      status)
{
  return g_strdup (status == PGS_COMPARE_GONE ? "list-remove-symbolic"
                   : status == PGS_COMPARE_NEW ? "list-add-symbolic" : NULL);
}

static gboolean
status_has_icon (gpointer this,
                 int      status)
{
  return status == PGS_COMPARE_GONE || status == PGS_COMPARE_NEW;
}

/* For themes. They replace the box's classes: its orientation's is kept. */
static char **
status_classes (gpointer this,
                int      status)
{
  const char *classes[] = { "horizontal", NULL, NULL };

  classes[1] = status == PGS_COMPARE_GONE ? "compare-gone"
               : status == PGS_COMPARE_NEW ? "compare-new" : NULL;
  return g_strdupv ((char **) classes);
}

static char *
display (gpointer    this,
         PgsProcess *process,
         const char *what)
{
  if (process == NULL)
    return NULL;
  return g_strdup (g_str_equal (what, "name") ? pgs_process_get_display_name (process)
                                              : pgs_process_get_display_cmdline (process));
}

/* The tooltip of an old or new size (its text: pgs_cell_size_in()). */
static char *
side_tip (gpointer    this,
          PgsProcess *process,
          const char *metric)
{
  if (process == NULL)
    return g_strdup (_("The process is not in this snapshot"));
  if (!pgs_process_is_known (process, pgs_cell_metric_named (metric)))
    return g_strdup (pgs_process_get_unknown_reason (process));
  return NULL;
}

/* A side the process is missing from sorts lowest. */
static gint64
side_key (gpointer    this,
          PgsProcess *process,
          const char *metric)
{
  PgsMetric known = pgs_cell_metric_named (metric);

  if (process == NULL)
    return -1;
  if (pgs_process_is_known (process, known))
    return pgs_process_get_metric (process, known);
  /* By what is known, as in the process list: RSS bounds PSS and USS. */
  return pgs_process_is_known (process, PGS_METRIC_RSS)
         ? (gint64) pgs_process_get_metric (process, PGS_METRIC_RSS) : 0;
}

static char *
change (gpointer        this,
        PgsCompareItem *item,
        const char     *metric,
        PgsUnits        units)
{
  g_autofree char *size = NULL;
  gint64 difference;

  if (item == NULL)
    return NULL;
  if (!pgs_compare_item_get_difference (item, pgs_cell_metric_named (metric), &difference))
    return g_strdup (PGS_UNKNOWN_TEXT);
  size = pgs_units_format (units, difference < 0 ? -(guint64) difference : (guint64) difference);
  if (difference == 0)
    return g_steal_pointer (&size);
  /* A minus sign, not a hyphen: the figure is a difference. */
  return g_strconcat (difference > 0 ? "+" : "−", size, NULL);
}

static char *
change_tip (gpointer        this,
            PgsCompareItem *item,
            const char     *metric)
{
  gint64 difference;

  if (item == NULL || pgs_compare_item_get_difference (item, pgs_cell_metric_named (metric),
                                                       &difference))
    return NULL;
  return g_strdup (_("Unknown in one of the snapshots"));
}

/* Sorted by the size of the change, grown or shrunk: what the comparison is for. Unknown
 * sorts lowest. A sorter evaluates this on the row: @item is its this. */
static gint64
change_key (PgsCompareItem *item,
            const char     *metric)
{
  gint64 difference;

  if (!pgs_compare_item_get_difference (item, pgs_cell_metric_named (metric), &difference))
    return -1;
  return difference < 0 ? -difference : difference;
}

static void
pgs_compare_list_dispose (GObject *object)
{
  PgsCompareList *self = PGS_COMPARE_LIST (object);
  GtkWidget *child;

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  if (self->store != NULL)
    g_list_store_remove_all (self->store);
  gtk_widget_dispose_template (GTK_WIDGET (self), PGS_TYPE_COMPARE_LIST);
  /* The template's children without an id too. */
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  g_clear_object (&self->store);
  pgs_clear_release (&self->old_snapshot);
  pgs_clear_release (&self->new_snapshot);
  G_OBJECT_CLASS (pgs_compare_list_parent_class)->dispose (object);
}

static void
pgs_compare_list_finalize (GObject *object)
{
  PgsCompareList *self = PGS_COMPARE_LIST (object);

  g_free (self->description);
  G_OBJECT_CLASS (pgs_compare_list_parent_class)->finalize (object);
}

static void
pgs_compare_list_class_init (PgsCompareListClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = pgs_compare_list_dispose;
  object_class->finalize = pgs_compare_list_finalize;

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/pagescope/Pagescope/"
                                                             "pgs-compare-list.ui");
  gtk_widget_class_bind_template_child (widget_class, PgsCompareList, description_label);
  gtk_widget_class_bind_template_child (widget_class, PgsCompareList, column_view);
  g_type_ensure (PGS_TYPE_COMPARE_ITEM);
  pgs_cell_class_add_callbacks (widget_class);
  gtk_widget_class_bind_template_callback (widget_class, status_text);
  gtk_widget_class_bind_template_callback (widget_class, status_tip);
  gtk_widget_class_bind_template_callback (widget_class, status_icon);
  gtk_widget_class_bind_template_callback (widget_class, status_has_icon);
  gtk_widget_class_bind_template_callback (widget_class, status_classes);
  gtk_widget_class_bind_template_callback (widget_class, display);
  gtk_widget_class_bind_template_callback (widget_class, side_tip);
  gtk_widget_class_bind_template_callback (widget_class, side_key);
  gtk_widget_class_bind_template_callback (widget_class, change);
  gtk_widget_class_bind_template_callback (widget_class, change_tip);
  gtk_widget_class_bind_template_callback (widget_class, change_key);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "comparelist");
}

static void
pgs_compare_list_init (PgsCompareList *self)
{
  GtkSingleSelection *selection;

  gtk_orientable_set_orientation (GTK_ORIENTABLE (gtk_widget_get_layout_manager (GTK_WIDGET (self))),
                                  GTK_ORIENTATION_VERTICAL);
  gtk_widget_init_template (GTK_WIDGET (self));

  self->store = g_list_store_new (PGS_TYPE_COMPARE_ITEM);
  self->sort_model = gtk_sort_list_model_new (G_LIST_MODEL (g_object_ref (self->store)),
                                              g_object_ref (gtk_column_view_get_sorter (self->column_view)));
  selection = gtk_single_selection_new (G_LIST_MODEL (self->sort_model));
  gtk_single_selection_set_autoselect (selection, FALSE);
  gtk_single_selection_set_can_unselect (selection, TRUE);
  gtk_column_view_set_model (self->column_view, GTK_SELECTION_MODEL (selection));
  g_object_unref (selection);
}

typedef struct
{
  PgsSnapshot *old_snapshot;
  PgsSnapshot *new_snapshot;
} CompareJob;

static void
compare_job_free (CompareJob *job)
{
  g_clear_object (&job->old_snapshot);
  g_clear_object (&job->new_snapshot);
  g_free (job);
}

static GListModel *
build_items (PgsModelBuild *build,
             gpointer       data)
{
  CompareJob *job = data;

  return pgs_compare_items_build (job->old_snapshot, job->new_snapshot);
}

static void
items_filled (GObject      *source_object,
              GAsyncResult *result,
              gpointer      user_data)
{
  /* Cancelled: a newer comparison (or dispose) took over. */
  if (pgs_model_fill_finish (result, NULL))
    g_clear_object (&PGS_COMPARE_LIST (user_data)->cancellable);
}

static void
on_compared (GObject      *source_object,
             GAsyncResult *result,
             gpointer      user_data)
{
  PgsCompareList *self = PGS_COMPARE_LIST (source_object);
  g_autoptr(GListModel) items = pgs_model_build_finish (result, NULL);

  /* NULL: cancelled, a newer comparison (or dispose) took over. */
  if (items != NULL)
    pgs_model_fill_async (self->store, items, self->cancellable, items_filled, self);
}

void
pgs_compare_list_set_snapshots (PgsCompareList *self,
                                PgsSnapshot    *old_snapshot,
                                PgsSnapshot    *new_snapshot,
                                const char     *description)
{
  CompareJob *job;

  g_return_if_fail (PGS_IS_COMPARE_LIST (self));

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_list_store_remove_all (self->store);
  pgs_set_object_release (&self->old_snapshot, old_snapshot);
  pgs_set_object_release (&self->new_snapshot, new_snapshot);
  g_free (self->description);
  self->description = g_strdup (description);
  gtk_label_set_text (self->description_label, description != NULL ? description : "");
  if (old_snapshot == NULL || new_snapshot == NULL)
    return;

  /* Matching every process of both: in a worker, off the main loop. */
  job = g_new0 (CompareJob, 1);
  job->old_snapshot = g_object_ref (old_snapshot);
  job->new_snapshot = g_object_ref (new_snapshot);
  self->cancellable = g_cancellable_new ();
  pgs_model_build_async (self, build_items, job, (GDestroyNotify) compare_job_free, NULL,
                         self->cancellable, on_compared, NULL);
}

GListModel *
pgs_compare_list_get_model (PgsCompareList *self)
{
  g_return_val_if_fail (PGS_IS_COMPARE_LIST (self), NULL);
  return G_LIST_MODEL (self->sort_model);
}

char *
pgs_compare_list_get_cell_text (PgsCompareList *self,
                                guint           position,
                                const char     *column_id)
{
  g_autoptr(PgsCompareItem) item = NULL;
  PgsSession *session;
  PgsUnits units;
  PgsProcess *process;

  g_return_val_if_fail (PGS_IS_COMPARE_LIST (self), NULL);

  item = g_list_model_get_item (G_LIST_MODEL (self->sort_model), position);
  if (item == NULL)
    return NULL;
  session = pgs_page_get_session (PGS_PAGE (self));
  units = session != NULL ? pgs_session_get_units (session) : PGS_UNITS_IEC;
  if (g_str_equal (column_id, "status"))
    return status_text (NULL, pgs_compare_item_get_status (item));
  if (g_str_equal (column_id, "pid"))
    return pgs_cell_count (NULL, pgs_compare_item_get_pid (item));
  if (g_str_equal (column_id, "name"))
    return display (NULL, pgs_compare_item_get_process (item), "name");
  if (g_str_has_prefix (column_id, "old-") || g_str_has_prefix (column_id, "new-"))
    {
      process = column_id[0] == 'o' ? pgs_compare_item_get_old_process (item)
                                    : pgs_compare_item_get_new_process (item);
      return process != NULL ? pgs_cell_size_in (NULL, G_OBJECT (process), column_id + 4, units)
                             : g_strdup ("");
    }
  if (g_strv_contains ((const char * const[]) { "pss", "rss", "uss", "swap", NULL }, column_id))
    return change (NULL, item, column_id, units);
  return NULL;
}

gboolean
pgs_compare_list_is_busy (PgsCompareList *self)
{
  g_return_val_if_fail (PGS_IS_COMPARE_LIST (self), FALSE);
  return self->cancellable != NULL;
}

const char *
pgs_compare_list_get_description (PgsCompareList *self)
{
  g_return_val_if_fail (PGS_IS_COMPARE_LIST (self), NULL);
  return self->description;
}
