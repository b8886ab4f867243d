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

/* The table */

typedef enum
{
  KIND_STATUS,
  KIND_PID,
  KIND_NAME,
  KIND_OLD,
  KIND_NEW,
  KIND_DIFFERENCE,
} ColumnKind;

static const struct
{
  const char *id;
  const char *title;
  ColumnKind  kind;
  PgsMetric   metric;
} columns[] = {
  { "status", N_("Status"), KIND_STATUS, 0 },
  { "pid", N_("PID"), KIND_PID, 0 },
  { "name", N_("Name"), KIND_NAME, 0 },
  { "old-pss", N_("Old PSS"), KIND_OLD, PGS_METRIC_PSS },
  { "new-pss", N_("New PSS"), KIND_NEW, PGS_METRIC_PSS },
  { "pss", N_("ΔPSS"), KIND_DIFFERENCE, PGS_METRIC_PSS },
  { "old-rss", N_("Old RSS"), KIND_OLD, PGS_METRIC_RSS },
  { "new-rss", N_("New RSS"), KIND_NEW, PGS_METRIC_RSS },
  { "rss", N_("ΔRSS"), KIND_DIFFERENCE, PGS_METRIC_RSS },
  { "uss", N_("ΔUSS"), KIND_DIFFERENCE, PGS_METRIC_USS },
  { "swap", N_("ΔSwap"), KIND_DIFFERENCE, PGS_METRIC_SWAP },
};

#define N_COLUMNS G_N_ELEMENTS (columns)

typedef struct
{
  PgsCompareList *self;
  guint           column;
} ColumnData;

struct _PgsCompareList
{
  PgsPage           parent_instance;

  PgsSnapshot      *old_snapshot;
  PgsSnapshot      *new_snapshot;
  PgsUnits          units;
  char             *description;

  GCancellable     *cancellable;  /* the comparison being built or put in the table, if any */
  GListStore       *store;
  GtkSortListModel *sort_model;
  ColumnData        column_data[N_COLUMNS];

  GtkLabel         *description_label;
  GtkColumnView    *column_view;
};

G_DEFINE_FINAL_TYPE (PgsCompareList, pgs_compare_list, PGS_TYPE_PAGE)

static char *
format_signed (PgsUnits units,
               gint64   value)
{
  g_autofree char *size = pgs_units_format (units, value < 0 ? -(guint64) value : (guint64) value);

  if (value == 0)
    return g_steal_pointer (&size);
  /* A minus sign, not a hyphen: the figure is a difference. */
  return g_strconcat (value > 0 ? "+" : "−", size, NULL);
}

static char *
cell_text (PgsCompareList  *self,
           PgsCompareItem  *item,
           guint            column,
           const char     **tooltip)
{
  PgsProcess *process;
  PgsMetric metric = columns[column].metric;
  gint64 difference;

  *tooltip = NULL;
  switch (columns[column].kind)
    {
    case KIND_STATUS:
      switch (pgs_compare_item_get_status (item))
        {
        case PGS_COMPARE_GONE:
          *tooltip = _("This process ran when the old snapshot was taken and not in the new one");
          return g_strdup (_("Gone"));
        case PGS_COMPARE_NEW:
          *tooltip = _("This process was not running when the old snapshot was taken");
          return g_strdup (_("New"));
        case PGS_COMPARE_BOTH:
        default:
          return g_strdup ("");
        }
    case KIND_PID:
      return g_strdup_printf ("%d", pgs_compare_item_get_pid (item));
    case KIND_NAME:
      *tooltip = pgs_process_get_display_cmdline (pgs_compare_item_get_process (item));
      return g_strdup (pgs_process_get_display_name (pgs_compare_item_get_process (item)));
    case KIND_OLD:
    case KIND_NEW:
      process = columns[column].kind == KIND_OLD ? pgs_compare_item_get_old_process (item) : pgs_compare_item_get_new_process (item);
      if (process == NULL)
        {
          *tooltip = _("The process is not in this snapshot");
          return g_strdup ("");
        }
      if (!pgs_process_is_known (process, metric))
        {
          *tooltip = pgs_process_get_unknown_reason (process);
          return g_strdup (PGS_UNKNOWN_TEXT);
        }
      return pgs_units_format (self->units, pgs_process_get_metric (process, metric));
    case KIND_DIFFERENCE:
    default:
      if (!pgs_compare_item_get_difference (item, metric, &difference))
        {
          *tooltip = _("Unknown in one of the snapshots");
          return g_strdup (PGS_UNKNOWN_TEXT);
        }
      return format_signed (self->units, difference);
    }
}

static void
setup_cell (GtkSignalListItemFactory *factory,
            GtkListItem              *list_item,
            ColumnData               *data)
{
  ColumnKind kind = columns[data->column].kind;

  if (kind == KIND_STATUS)
    {
      GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);

      gtk_box_append (GTK_BOX (box), gtk_image_new ());
      gtk_box_append (GTK_BOX (box), pgs_cell_new_text (PANGO_ELLIPSIZE_NONE));
      gtk_list_item_set_child (list_item, box);
      return;
    }
  if (kind == KIND_NAME)
    gtk_list_item_set_child (list_item, pgs_cell_new_text (PANGO_ELLIPSIZE_END));
  else
    gtk_list_item_set_child (list_item, pgs_cell_new_numeric ());
}

static void
bind_cell (GtkSignalListItemFactory *factory,
           GtkListItem              *list_item,
           ColumnData               *data)
{
  PgsCompareItem *item = gtk_list_item_get_item (list_item);
  GtkWidget *child = gtk_list_item_get_child (list_item);
  g_autofree char *text = NULL;
  const char *tooltip;

  text = cell_text (data->self, item, data->column, &tooltip);
  if (columns[data->column].kind == KIND_STATUS)
    {
      GtkWidget *image = gtk_widget_get_first_child (child);
      const char *icon = pgs_compare_item_get_status (item) == PGS_COMPARE_GONE ? "list-remove-symbolic"
                         : pgs_compare_item_get_status (item) == PGS_COMPARE_NEW ? "list-add-symbolic" : NULL;

      gtk_image_set_from_icon_name (GTK_IMAGE (image), icon);
      gtk_widget_set_visible (image, icon != NULL);
      gtk_widget_remove_css_class (child, "compare-gone");
      gtk_widget_remove_css_class (child, "compare-new");
      if (pgs_compare_item_get_status (item) == PGS_COMPARE_GONE)
        gtk_widget_add_css_class (child, "compare-gone");
      else if (pgs_compare_item_get_status (item) == PGS_COMPARE_NEW)
        gtk_widget_add_css_class (child, "compare-new");
      child = gtk_widget_get_next_sibling (image);
    }
  pgs_cell_set_text (GTK_LABEL (child), text);
  pgs_cell_set_tooltip (child, tooltip != NULL && *tooltip ? tooltip : NULL);
}

static gint64
sort_key (PgsCompareItem *item,
          guint           column)
{
  PgsMetric metric = columns[column].metric;
  PgsProcess *process;
  gint64 difference;

  switch (columns[column].kind)
    {
    case KIND_STATUS:
      return pgs_compare_item_get_status (item);
    case KIND_PID:
      return pgs_compare_item_get_pid (item);
    case KIND_OLD:
    case KIND_NEW:
      process = columns[column].kind == KIND_OLD ? pgs_compare_item_get_old_process (item) : pgs_compare_item_get_new_process (item);
      if (process == NULL)
        return -1;
      if (!pgs_process_is_known (process, metric))
        /* By what is known, as in the process list: RSS bounds PSS and USS. */
        return pgs_process_is_known (process, PGS_METRIC_RSS)
               ? (gint64) pgs_process_get_metric (process, PGS_METRIC_RSS) : 0;
      return pgs_process_get_metric (process, metric);
    case KIND_DIFFERENCE:
    default:
      /* Sorted by the size of the change, grown or shrunk: what the comparison is for. */
      if (!pgs_compare_item_get_difference (item, metric, &difference))
        return -1;
      return difference < 0 ? -difference : difference;
    case KIND_NAME:
      return 0;
    }
}

static int
compare_column (gconstpointer a,
                gconstpointer b,
                gpointer      user_data)
{
  ColumnData *data = user_data;
  gint64 ka, kb;

  if (columns[data->column].kind == KIND_NAME)
    {
      int c = g_strcmp0 (pgs_process_get_name (pgs_compare_item_get_process ((PgsCompareItem *) a)),
                         pgs_process_get_name (pgs_compare_item_get_process ((PgsCompareItem *) b)));

      return c < 0 ? GTK_ORDERING_SMALLER : c > 0 ? GTK_ORDERING_LARGER : GTK_ORDERING_EQUAL;
    }
  ka = sort_key ((PgsCompareItem *) a, data->column);
  kb = sort_key ((PgsCompareItem *) b, data->column);
  return ka < kb ? GTK_ORDERING_SMALLER : ka > kb ? GTK_ORDERING_LARGER : GTK_ORDERING_EQUAL;
}

static void
rebind_all (PgsCompareList *self)
{
  /* Few rows and rare changes (units): rebuilding the model rebinds every visible cell. */
  gtk_sort_list_model_set_model (self->sort_model, NULL);
  gtk_sort_list_model_set_model (self->sort_model, G_LIST_MODEL (self->store));
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
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "comparelist");
}

static void
pgs_compare_list_init (PgsCompareList *self)
{
  GtkWidget *header, *close, *scroller;
  GtkSingleSelection *selection;

  gtk_orientable_set_orientation (GTK_ORIENTABLE (gtk_widget_get_layout_manager (GTK_WIDGET (self))),
                                  GTK_ORIENTATION_VERTICAL);

  header = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  gtk_widget_set_margin_start (header, 12);
  gtk_widget_set_margin_end (header, 12);
  gtk_widget_set_margin_top (header, 6);
  gtk_widget_set_margin_bottom (header, 6);
  self->description_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->description_label, 0);
  gtk_label_set_wrap (self->description_label, TRUE);
  gtk_widget_set_hexpand (GTK_WIDGET (self->description_label), TRUE);
  gtk_box_append (GTK_BOX (header), GTK_WIDGET (self->description_label));
  close = gtk_button_new_with_mnemonic (_("_Close Comparison"));
  gtk_widget_set_valign (close, GTK_ALIGN_CENTER);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (close), "win.close-compare");
  gtk_box_append (GTK_BOX (header), close);
  gtk_widget_set_parent (header, GTK_WIDGET (self));

  self->store = g_list_store_new (PGS_TYPE_COMPARE_ITEM);
  self->column_view = GTK_COLUMN_VIEW (gtk_column_view_new (NULL));
  gtk_column_view_set_show_column_separators (self->column_view, TRUE);
  for (guint i = 0; i < N_COLUMNS; i++)
    {
      GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
      GtkColumnViewColumn *column;
      GtkSorter *sorter;

      self->column_data[i] = (ColumnData) { self, i };
      g_signal_connect (factory, "setup", G_CALLBACK (setup_cell), &self->column_data[i]);
      g_signal_connect (factory, "bind", G_CALLBACK (bind_cell), &self->column_data[i]);
      column = gtk_column_view_column_new (_(columns[i].title), factory);
      gtk_column_view_column_set_resizable (column, TRUE);
      gtk_column_view_column_set_expand (column, columns[i].kind == KIND_NAME);
      sorter = GTK_SORTER (gtk_custom_sorter_new (compare_column, &self->column_data[i], NULL));
      gtk_column_view_column_set_sorter (column, sorter);
      g_object_unref (sorter);
      gtk_column_view_append_column (self->column_view, column);
      g_object_unref (column);
    }
  /* No column sorts at first: the library's order, the largest change of PSS first. */
  self->sort_model = gtk_sort_list_model_new (G_LIST_MODEL (g_object_ref (self->store)),
                                              g_object_ref (gtk_column_view_get_sorter (self->column_view)));
  selection = gtk_single_selection_new (G_LIST_MODEL (self->sort_model));
  gtk_single_selection_set_autoselect (selection, FALSE);
  gtk_single_selection_set_can_unselect (selection, TRUE);
  gtk_column_view_set_model (self->column_view, GTK_SELECTION_MODEL (selection));
  g_object_unref (selection);

  scroller = gtk_scrolled_window_new ();
  gtk_widget_set_vexpand (scroller, TRUE);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), GTK_WIDGET (self->column_view));
  gtk_widget_set_parent (scroller, GTK_WIDGET (self));
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

void
pgs_compare_list_set_units (PgsCompareList *self,
                            PgsUnits        units)
{
  g_return_if_fail (PGS_IS_COMPARE_LIST (self));

  if (self->units == units)
    return;
  self->units = units;
  rebind_all (self);
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
  const char *tooltip;

  g_return_val_if_fail (PGS_IS_COMPARE_LIST (self), NULL);

  item = g_list_model_get_item (G_LIST_MODEL (self->sort_model), position);
  if (item == NULL)
    return NULL;
  for (guint i = 0; i < N_COLUMNS; i++)
    if (g_str_equal (columns[i].id, column_id))
      return cell_text (self, item, i, &tooltip);
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
