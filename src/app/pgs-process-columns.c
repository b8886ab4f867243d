/* pgs-process-columns.c
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The process list's columns: what each shows, how its cells are made and kept up to date
 * in place on a refresh, and how it sorts. The list (pgs-process-list.c) owns the model.
 */

#include "config.h"

#include <glib/gi18n.h>

#include "pgs-cell.h"
#include "pgs-memory-notes.h"
#include "pgs-process-columns.h"
#include "pgs-row.h"

static const struct
{
  const char *id;
  const char *title;
  const char *property;
  PgsMetric   metric;     /* 0 for the columns that are not sizes */
} columns[PGS_PROCESS_N_COLUMNS] = {
  [PGS_PROCESS_COLUMN_PID]  = { "pid", N_("PID"), "pid", 0 },
  [PGS_PROCESS_COLUMN_USER] = { "user", N_("User"), "user", 0 },
  [PGS_PROCESS_COLUMN_NAME] = { "name", N_("Name"), "name", 0 },
  [PGS_PROCESS_COLUMN_VSS]  = { "vss", N_("VSS"), "vss", PGS_METRIC_VSS },
  [PGS_PROCESS_COLUMN_RSS]  = { "rss", N_("RSS"), "rss", PGS_METRIC_RSS },
  [PGS_PROCESS_COLUMN_PSS]  = { "pss", N_("PSS"), "pss", PGS_METRIC_PSS },
  [PGS_PROCESS_COLUMN_USS]  = { "uss", N_("USS"), "uss", PGS_METRIC_USS },
  [PGS_PROCESS_COLUMN_SWAP] = { "swap", N_("Swap"), "swap", PGS_METRIC_SWAP },
  [PGS_PROCESS_COLUMN_CLEAN] = { "clean", N_("Clean"), "clean", PGS_METRIC_CLEAN },
  [PGS_PROCESS_COLUMN_DIRTY] = { "dirty", N_("Dirty"), "dirty", PGS_METRIC_DIRTY },
  [PGS_PROCESS_COLUMN_SHARED] = { "shared", N_("Shared"), "shared", PGS_METRIC_SHARED },
  [PGS_PROCESS_COLUMN_PRIVATE] = { "private", N_("Private"), "private", PGS_METRIC_PRIVATE },
  [PGS_PROCESS_COLUMN_CMDLINE] = { "cmdline", N_("Command Line"), "cmdline", 0 },
  [PGS_PROCESS_COLUMN_STARTED] = { "started", N_("Started"), "start-time", 0 },
};

typedef struct
{
  PgsProcessColumns *self;
  PgsProcessColumn   column;
} ColumnData;

struct _PgsProcessColumns
{
  PgsUnits             units;
  gboolean             tree;         /* the name cells carry expanders */
  gint64               boot_time;    /* of the snapshot's boot, for "Started"; 0 unknown */
  GtkColumnViewColumn *column_objects[PGS_PROCESS_N_COLUMNS];
  ColumnData           column_data[PGS_PROCESS_N_COLUMNS];
  GPtrArray           *bound_items;  /* every bound GtkListItem, for a change of units */
};

static void
setup_cell (GtkSignalListItemFactory *factory,
            GtkListItem              *item,
            ColumnData               *data)
{
  GtkWidget *label;

  if (columns[data->column].metric != 0 || data->column == PGS_PROCESS_COLUMN_PID ||
      data->column == PGS_PROCESS_COLUMN_STARTED)
    label = pgs_cell_new_numeric ();
  else
    label = pgs_cell_new_text (PANGO_ELLIPSIZE_END);

  /* The name carries the tree's expander; in the flat list the expander has no row and
   * shows only the label. */
  if (data->column == PGS_PROCESS_COLUMN_NAME)
    {
      GtkWidget *expander = gtk_tree_expander_new ();

      gtk_tree_expander_set_child (GTK_TREE_EXPANDER (expander), label);
      gtk_list_item_set_child (item, expander);
    }
  else
    gtk_list_item_set_child (item, label);
  g_object_set_data (G_OBJECT (label), "pgs-list-item", item);
}

static GtkLabel *
cell_label (GtkListItem *item)
{
  GtkWidget *child = gtk_list_item_get_child (item);

  if (GTK_IS_TREE_EXPANDER (child))
    child = gtk_tree_expander_get_child (GTK_TREE_EXPANDER (child));
  return GTK_LABEL (child);
}

PgsRow *
pgs_process_columns_get_row (gpointer item)
{
  if (GTK_IS_TREE_LIST_ROW (item))
    {
      /* get_item is transfer full; the tree row keeps its item alive. */
      PgsRow *row = gtk_tree_list_row_get_item (item);

      g_object_unref (row);
      return row;
    }
  return PGS_ROW (item);
}

static char *
format_started (gint64 started)
{
  g_autoptr(GDateTime) time = g_date_time_new_from_unix_local (started);
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();

  if (time == NULL)
    return g_strdup (PGS_UNKNOWN_TEXT);
  /* Today: the time alone; before: the date too, both in the user's locale. */
  if (g_date_time_get_year (time) == g_date_time_get_year (now) &&
      g_date_time_get_day_of_year (time) == g_date_time_get_day_of_year (now))
    return g_date_time_format (time, "%X");
  return g_date_time_format (time, "%x %X");
}

static void
update_cell (GtkListItem *item,
             ColumnData  *data)
{
  GtkLabel *label = cell_label (item);
  PgsProcess *process = pgs_row_get_item (pgs_process_columns_get_row (gtk_list_item_get_item (item)));
  gint64 started;
  PgsMetric metric = columns[data->column].metric;
  g_autofree char *text = NULL;
  g_autofree char *swap_note = NULL;
  const char *tooltip = NULL;

  switch (data->column)
    {
    case PGS_PROCESS_COLUMN_PID:
      text = g_strdup_printf ("%d", pgs_process_get_pid (process));
      break;
    case PGS_PROCESS_COLUMN_USER:
      text = g_strdup (pgs_process_get_display_user (process));
      break;
    case PGS_PROCESS_COLUMN_NAME:
      text = g_strdup (pgs_process_get_display_name (process));
      tooltip = pgs_process_get_display_cmdline (process);
      break;
    case PGS_PROCESS_COLUMN_VSS:
    case PGS_PROCESS_COLUMN_RSS:
    case PGS_PROCESS_COLUMN_PSS:
    case PGS_PROCESS_COLUMN_USS:
    case PGS_PROCESS_COLUMN_SWAP:
    case PGS_PROCESS_COLUMN_CLEAN:
    case PGS_PROCESS_COLUMN_DIRTY:
    case PGS_PROCESS_COLUMN_SHARED:
    case PGS_PROCESS_COLUMN_PRIVATE:
      if (pgs_process_is_known (process, metric))
        {
          text = pgs_units_format (data->self->units, pgs_process_get_metric (process, metric));
          /* Swap is not free when it is zram: what it costs in RAM. */
          if (data->column == PGS_PROCESS_COLUMN_SWAP)
            tooltip = swap_note = pgs_memory_notes_swap (process, data->self->units);
        }
      else
        {
          text = g_strdup (PGS_UNKNOWN_TEXT);
          tooltip = pgs_process_get_unknown_reason (process);
          if (tooltip == NULL && (metric & PGS_METRIC_SPLIT))
            tooltip = _("Clean, dirty, shared and private come from the kernel’s "
                        "smaps_rollup, which could not be read for this process (or the "
                        "snapshot file does not keep them)");
          if (tooltip == NULL)
            tooltip = _("Unknown");
        }
      break;
    case PGS_PROCESS_COLUMN_CMDLINE:
      text = g_strdup (pgs_process_get_display_cmdline (process));
      tooltip = text;
      break;
    case PGS_PROCESS_COLUMN_STARTED:
      if (pgs_process_get_started (process, data->self->boot_time, &started))
        text = format_started (started);
      else
        {
          text = g_strdup (PGS_UNKNOWN_TEXT);
          tooltip = _("The start time could not be read, or the snapshot was taken in "
                      "another boot");
        }
      break;
    case PGS_PROCESS_N_COLUMNS:
    default:
      g_assert_not_reached ();
    }

  pgs_cell_set_text (label, text);
  pgs_cell_set_tooltip (GTK_WIDGET (label), tooltip != NULL && *tooltip ? tooltip : NULL);
}

static void
on_row_item_changed (GtkListItem *item)
{
  update_cell (item, g_object_get_data (G_OBJECT (item), "column-data"));
}

static void
bind_cell (GtkSignalListItemFactory *factory,
           GtkListItem              *item,
           ColumnData               *data)
{
  gpointer list_row = gtk_list_item_get_item (item);
  PgsRow *row = pgs_process_columns_get_row (list_row);
  GtkWidget *child = gtk_list_item_get_child (item);
  gulong id;

  if (GTK_IS_TREE_EXPANDER (child))
    gtk_tree_expander_set_list_row (GTK_TREE_EXPANDER (child),
                                    data->self->tree && GTK_IS_TREE_LIST_ROW (list_row)
                                    ? list_row : NULL);
  g_object_set_data (G_OBJECT (item), "column-data", data);
  id = g_signal_connect_swapped (row, "notify::item", G_CALLBACK (on_row_item_changed), item);
  g_object_set_data (G_OBJECT (item), "notify-id", GSIZE_TO_POINTER (id));
  g_object_set_data_full (G_OBJECT (item), "notify-row", g_object_ref (row), g_object_unref);
  g_ptr_array_add (data->self->bound_items, item);
  update_cell (item, data);
}

static void
unbind_cell (GtkSignalListItemFactory *factory,
             GtkListItem              *item,
             ColumnData               *data)
{
  gulong id = GPOINTER_TO_SIZE (g_object_get_data (G_OBJECT (item), "notify-id"));

  GtkWidget *child = gtk_list_item_get_child (item);

  if (id != 0)
    g_signal_handler_disconnect (g_object_get_data (G_OBJECT (item), "notify-row"), id);
  g_object_set_data (G_OBJECT (item), "notify-id", NULL);
  g_object_set_data (G_OBJECT (item), "notify-row", NULL);
  if (GTK_IS_TREE_EXPANDER (child))
    gtk_tree_expander_set_list_row (GTK_TREE_EXPANDER (child), NULL);
  if (data->self->bound_items != NULL)
    g_ptr_array_remove_fast (data->self->bound_items, item);
}

static GtkListItemFactory *
column_factory_new (ColumnData *data)
{
  return pgs_cell_factory_new (G_CALLBACK (setup_cell), G_CALLBACK (bind_cell),
                               G_CALLBACK (unbind_cell), data);
}

/* PSS and USS are unknown for the processes the scan could only read the status of: such a
 * process sorts by what is known of it, its RSS (an upper bound of both), rather than to
 * the bottom where a large process would hide behind a row of "—". */
static guint64
sort_key (PgsProcess *process,
          PgsMetric   metric)
{
  if (pgs_process_is_known (process, metric))
    return pgs_process_get_metric (process, metric);
  if (pgs_process_is_known (process, PGS_METRIC_RSS))
    return pgs_process_get_metric (process, PGS_METRIC_RSS);
  return 0;
}

static int
compare_known_or_rss (gconstpointer a,
                      gconstpointer b,
                      gpointer      user_data)
{
  PgsMetric metric = GPOINTER_TO_INT (user_data);
  guint64 ka = sort_key (pgs_row_get_item ((gpointer) a), metric);
  guint64 kb = sort_key (pgs_row_get_item ((gpointer) b), metric);

  return ka < kb ? GTK_ORDERING_SMALLER : ka > kb ? GTK_ORDERING_LARGER : GTK_ORDERING_EQUAL;
}

static GtkSorter *
sorter_for_column (PgsProcessColumn column)
{
  GtkExpression *process;
  GtkExpression *expression;

  if (column == PGS_PROCESS_COLUMN_PSS || column == PGS_PROCESS_COLUMN_USS)
    return GTK_SORTER (gtk_custom_sorter_new (compare_known_or_rss,
                                              GINT_TO_POINTER (columns[column].metric), NULL));

  /* row.process.<property> */
  process = gtk_property_expression_new (PGS_TYPE_ROW, NULL, "item");
  expression = gtk_property_expression_new (PGS_TYPE_PROCESS, process,
                                            columns[column].property);

  if (column == PGS_PROCESS_COLUMN_USER || column == PGS_PROCESS_COLUMN_NAME ||
      column == PGS_PROCESS_COLUMN_CMDLINE)
    return GTK_SORTER (gtk_string_sorter_new (expression));
  return GTK_SORTER (gtk_numeric_sorter_new (expression));
}

PgsProcessColumns *
pgs_process_columns_new (GtkColumnView *view)
{
  PgsProcessColumns *self = g_new0 (PgsProcessColumns, 1);

  self->bound_items = g_ptr_array_new ();
  for (guint i = 0; i < PGS_PROCESS_N_COLUMNS; i++)
    {
      g_autoptr(GtkListItemFactory) factory = NULL;
      g_autoptr(GtkSorter) column_sorter = NULL;
      GtkColumnViewColumn *column;

      self->column_data[i].self = self;
      self->column_data[i].column = i;
      factory = column_factory_new (&self->column_data[i]);
      column = gtk_column_view_column_new (_(columns[i].title), g_steal_pointer (&factory));
      column_sorter = sorter_for_column (i);
      gtk_column_view_column_set_sorter (column, column_sorter);
      gtk_column_view_column_set_resizable (column, TRUE);
      if (i == PGS_PROCESS_COLUMN_NAME)
        gtk_column_view_column_set_expand (column, TRUE);
      gtk_column_view_append_column (view, column);
      self->column_objects[i] = column;
      g_object_unref (column);
    }
  return self;
}

/* After the view let go of its cells: unbinding them needs the list of bound items. */
void
pgs_process_columns_free (PgsProcessColumns *self)
{
  if (self == NULL)
    return;
  g_clear_pointer (&self->bound_items, g_ptr_array_unref);
  g_free (self);
}

GtkColumnViewColumn *
pgs_process_columns_get (PgsProcessColumns *self,
                         PgsProcessColumn   column)
{
  g_return_val_if_fail (column < PGS_PROCESS_N_COLUMNS, NULL);
  return self->column_objects[column];
}

void
pgs_process_columns_set_units (PgsProcessColumns *self,
                               PgsUnits           units)
{
  if (self->units == units)
    return;
  self->units = units;

  /* A new factory would not rebind the cells on GTK 4.8: the bound ones are redone here,
   * the others are bound in the new units when they scroll into view. */
  for (guint i = 0; i < self->bound_items->len; i++)
    {
      GtkListItem *item = g_ptr_array_index (self->bound_items, i);
      ColumnData *data = g_object_get_data (G_OBJECT (item), "column-data");

      if (columns[data->column].metric != 0)
        update_cell (item, data);
    }
}

void
pgs_process_columns_set_tree (PgsProcessColumns *self,
                              gboolean           tree)
{
  self->tree = tree;
}

void
pgs_process_columns_set_boot_time (PgsProcessColumns *self,
                                   gint64             boot_time)
{
  if (self->boot_time == boot_time)
    return;
  self->boot_time = boot_time;
  for (guint i = 0; i < self->bound_items->len; i++)
    {
      GtkListItem *item = g_ptr_array_index (self->bound_items, i);
      ColumnData *data = g_object_get_data (G_OBJECT (item), "column-data");

      if (data->column == PGS_PROCESS_COLUMN_STARTED)
        update_cell (item, data);
    }
}

const char *
pgs_process_columns_get_id (PgsProcessColumn column)
{
  g_return_val_if_fail (column < PGS_PROCESS_N_COLUMNS, NULL);
  return columns[column].id;
}

const char *
pgs_process_columns_get_title (PgsProcessColumn column)
{
  g_return_val_if_fail (column < PGS_PROCESS_N_COLUMNS, NULL);
  return _(columns[column].title);
}

void
pgs_process_columns_show (PgsProcessColumns  *self,
                          const char * const *ids)
{
  for (guint i = PGS_PROCESS_COLUMN_FIRST_OPTIONAL; i < PGS_PROCESS_N_COLUMNS; i++)
    gtk_column_view_column_set_visible (self->column_objects[i],
                                        ids != NULL && g_strv_contains (ids, columns[i].id));
}
