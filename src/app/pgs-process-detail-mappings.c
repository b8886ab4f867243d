/* pgs-process-detail-mappings.c: the process detail's table of mappings (its columns,
 * cells and sort orders)
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "pgs-cell.h"
#include "pgs-process-detail-private.h"
#include "pgs-row.h"

static const struct
{
  const char *id;
  const char *title;
  const char *property;
  PgsMetric   metric;
} mcolumns[N_MCOLS] = {
  [MCOL_START]  = { "start", N_("Address"), "start", 0 },
  [MCOL_PERMS]  = { "perms", N_("Perms"), "perms", 0 },
  [MCOL_OFFSET] = { "offset", N_("Offset"), "offset", 0 },
  [MCOL_LABEL]  = { "label", N_("Mapping"), "label", 0 },
  [MCOL_VSS]    = { "vss", N_("Size"), "vss", PGS_METRIC_VSS },
  [MCOL_RSS]    = { "rss", N_("RSS"), "rss", PGS_METRIC_RSS },
  /* Not a PgsMapping property: it comes from the last working-set sample. */
  [MCOL_REFERENCED] = { "referenced", N_("Referenced"), NULL, 0 },
  [MCOL_PSS]    = { "pss", N_("PSS"), "pss", PGS_METRIC_PSS },
  [MCOL_USS]    = { "uss", N_("USS"), "uss", PGS_METRIC_USS },
  [MCOL_SWAP]   = { "swap", N_("Swap"), "swap", PGS_METRIC_SWAP },
};

static void
setup_cell (GtkSignalListItemFactory *factory,
            GtkListItem              *item,
            ColumnData               *data)
{
  GtkWidget *label = pgs_cell_new ();

  if (data->column == MCOL_LABEL || data->column == MCOL_PERMS)
    {
      gtk_label_set_xalign (GTK_LABEL (label), 0.0);
      gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_START);
    }
  else
    gtk_label_set_xalign (GTK_LABEL (label), 1.0);
  if (data->column != MCOL_LABEL)
    gtk_widget_add_css_class (label, "numeric");
  if (data->column == MCOL_START || data->column == MCOL_OFFSET)
    gtk_widget_add_css_class (label, "monospace");
  gtk_list_item_set_child (item, label);
}

static const PgsWssMapping *
lookup_wss_mapping (PgsProcessDetail *self,
                    PgsMapping       *mapping)
{
  PgsWssSample *sample;
  const PgsWssMapping *found;

  if (self->wss_samples == NULL || self->wss_samples->len == 0)
    return NULL;
  sample = g_ptr_array_index (self->wss_samples, self->wss_samples->len - 1);
  found = pgs_wss_sample_lookup_mapping (sample, pgs_mapping_get_start (mapping));
  /* The same VMA, not one that has since been split or replaced at that address. */
  if (found == NULL || found->start != pgs_mapping_get_start (mapping) ||
      found->end != pgs_mapping_get_end (mapping))
    return NULL;
  return found;
}

/* Referenced bytes as a sort key: unknown sorts below 0 B. */
static int
compare_referenced (gconstpointer a,
                    gconstpointer b,
                    gpointer      user_data)
{
  PgsProcessDetail *self = user_data;
  const PgsWssMapping *wa = lookup_wss_mapping (self, pgs_row_get_item ((gpointer) a));
  const PgsWssMapping *wb = lookup_wss_mapping (self, pgs_row_get_item ((gpointer) b));
  gint64 ka = wa != NULL ? (gint64) (wa->referenced >> 1) : -1;
  gint64 kb = wb != NULL ? (gint64) (wb->referenced >> 1) : -1;

  return ka < kb ? GTK_ORDERING_SMALLER : ka > kb ? GTK_ORDERING_LARGER : GTK_ORDERING_EQUAL;
}

/* The mapping columns sort through plain C comparisons rather than property expressions:
 * GtkSortListModel compares row by row each time rows come or go, and evaluating two
 * chained property expressions per comparison cost about 6 ms a splice on 650 mappings,
 * a stall on every refresh of a process whose mappings change. Unknown sorts as 0, like
 * GtkNumericSorter would. */
static int
compare_mapping_column (gconstpointer a,
                        gconstpointer b,
                        gpointer      user_data)
{
  const ColumnData *data = user_data;
  PgsMapping *ma = pgs_row_get_item ((gpointer) a);
  PgsMapping *mb = pgs_row_get_item ((gpointer) b);
  PgsMetric metric = mcolumns[data->column].metric;
  guint64 ka, kb;
  int order;

  switch (data->column)
    {
    case MCOL_START:
      ka = pgs_mapping_get_start (ma);
      kb = pgs_mapping_get_start (mb);
      break;
    case MCOL_OFFSET:
      ka = pgs_mapping_get_offset (ma);
      kb = pgs_mapping_get_offset (mb);
      break;
    case MCOL_PERMS:
    case MCOL_LABEL:
      order = data->column == MCOL_PERMS
              ? g_strcmp0 (pgs_mapping_get_perms (ma), pgs_mapping_get_perms (mb))
              : g_strcmp0 (pgs_mapping_get_label (ma), pgs_mapping_get_label (mb));
      return order < 0 ? GTK_ORDERING_SMALLER : order > 0 ? GTK_ORDERING_LARGER
                                                          : GTK_ORDERING_EQUAL;
    default:
      ka = pgs_mapping_is_known (ma, metric) ? pgs_mapping_get_metric (ma, metric) : 0;
      kb = pgs_mapping_is_known (mb, metric) ? pgs_mapping_get_metric (mb, metric) : 0;
      break;
    }
  return ka < kb ? GTK_ORDERING_SMALLER : ka > kb ? GTK_ORDERING_LARGER : GTK_ORDERING_EQUAL;
}

static void
update_cell (GtkListItem *item,
             ColumnData  *data)
{
  GtkLabel *label = GTK_LABEL (gtk_list_item_get_child (item));
  PgsMapping *mapping = pgs_row_get_item (gtk_list_item_get_item (item));
  PgsMetric metric = mcolumns[data->column].metric;
  g_autofree char *text = NULL;
  const char *tooltip = NULL;

  switch (data->column)
    {
    case MCOL_START:
      text = g_strdup_printf ("%012" G_GINT64_MODIFIER "x", pgs_mapping_get_start (mapping));
      break;
    case MCOL_PERMS:
      text = g_strdup (pgs_mapping_get_perms (mapping));
      break;
    case MCOL_OFFSET:
      text = g_strdup_printf ("%" G_GINT64_MODIFIER "x", pgs_mapping_get_offset (mapping));
      break;
    case MCOL_LABEL:
      text = g_strdup (pgs_mapping_get_display_label (mapping));
      tooltip = text;
      break;
    case MCOL_REFERENCED:
      text = pgs_process_detail_get_referenced_text (data->self, mapping, &tooltip);
      break;
    case MCOL_VSS:
    case MCOL_RSS:
    case MCOL_PSS:
    case MCOL_USS:
    case MCOL_SWAP:
      if (pgs_mapping_is_known (mapping, metric))
        text = pgs_units_format (data->self->units, pgs_mapping_get_metric (mapping, metric));
      else
        {
          text = g_strdup (PGS_UNKNOWN_TEXT);
          if (data->self->process != NULL)
            tooltip = pgs_process_get_unknown_reason (data->self->process);
          if (tooltip == NULL)
            tooltip = _("Not measured for this mapping");
        }
      break;
    case N_MCOLS:
    default:
      g_assert_not_reached ();
    }

  pgs_cell_set_text (label, text);
  pgs_cell_set_tooltip (GTK_WIDGET (label), tooltip);
}

static void
on_row_item_changed (GtkListItem *item)
{
  update_cell (item, g_object_get_data (G_OBJECT (item), "column-data"));
}

/* Rows outlive refreshes (pgs-row.c): a cell follows its row's item. */
static void
bind_cell (GtkSignalListItemFactory *factory,
           GtkListItem              *item,
           ColumnData               *data)
{
  gulong id;

  g_object_set_data (G_OBJECT (item), "column-data", data);
  id = g_signal_connect_swapped (gtk_list_item_get_item (item), "notify::item",
                                 G_CALLBACK (on_row_item_changed), item);
  g_object_set_data (G_OBJECT (item), "notify-id", GSIZE_TO_POINTER (id));
  if (data->column == MCOL_REFERENCED)
    g_ptr_array_add (data->self->referenced_items, item);
  g_ptr_array_add (data->self->bound_items, item);
  update_cell (item, data);
}

static void
unbind_cell (GtkSignalListItemFactory *factory,
             GtkListItem              *item,
             ColumnData               *data)
{
  gulong id = GPOINTER_TO_SIZE (g_object_get_data (G_OBJECT (item), "notify-id"));

  if (id != 0)
    g_signal_handler_disconnect (gtk_list_item_get_item (item), id);
  g_object_set_data (G_OBJECT (item), "notify-id", NULL);
  if (data->column == MCOL_REFERENCED)
    g_ptr_array_remove_fast (data->self->referenced_items, item);
  if (data->self->bound_items != NULL)
    g_ptr_array_remove_fast (data->self->bound_items, item);
}

static GtkListItemFactory *
column_factory_new (ColumnData *data)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();

  g_signal_connect (factory, "setup", G_CALLBACK (setup_cell), data);
  g_signal_connect (factory, "bind", G_CALLBACK (bind_cell), data);
  g_signal_connect (factory, "unbind", G_CALLBACK (unbind_cell), data);
  return factory;
}

/* New samples: the Referenced cells and their sort order follow. The rows themselves did
 * not change, so nothing rebinds them: the bound cells are updated in place. */
void
pgs_process_detail_refresh_referenced_column (PgsProcessDetail *self)
{
  GtkSorter *sorter = gtk_column_view_column_get_sorter (self->column_objects[MCOL_REFERENCED]);

  for (guint i = 0; i < self->referenced_items->len; i++)
    update_cell (g_ptr_array_index (self->referenced_items, i),
                 &self->column_data[MCOL_REFERENCED]);
  if (sorter != NULL)
    gtk_sorter_changed (sorter, GTK_SORTER_CHANGE_DIFFERENT);
}

void
pgs_process_detail_add_columns (PgsProcessDetail *self)
{
  for (guint i = 0; i < N_MCOLS; i++)
    {
      g_autoptr(GtkListItemFactory) factory = NULL;
      GtkSorter *sorter;
      GtkColumnViewColumn *column;

      self->column_data[i].self = self;
      self->column_data[i].column = i;
      factory = column_factory_new (&self->column_data[i]);
      column = gtk_column_view_column_new (_(mcolumns[i].title), g_steal_pointer (&factory));
      if (i == MCOL_REFERENCED)
        sorter = GTK_SORTER (gtk_custom_sorter_new (compare_referenced, self, NULL));
      else
        sorter = GTK_SORTER (gtk_custom_sorter_new (compare_mapping_column,
                                                    &self->column_data[i], NULL));
      gtk_column_view_column_set_sorter (column, sorter);
      g_object_unref (sorter);
      gtk_column_view_column_set_resizable (column, TRUE);
      if (i == MCOL_LABEL)
        gtk_column_view_column_set_expand (column, TRUE);
      gtk_column_view_append_column (self->column_view, column);
      self->column_objects[i] = column;
      g_object_unref (column);
    }
}

void
pgs_process_detail_update_size_cells (PgsProcessDetail *self)
{
  /* A new factory would not rebind the cells on GTK 4.8: the bound ones are redone here,
   * the others are bound in the new units when they scroll into view. */
  for (guint i = 0; i < self->bound_items->len; i++)
    {
      GtkListItem *item = g_ptr_array_index (self->bound_items, i);
      ColumnData *data = g_object_get_data (G_OBJECT (item), "column-data");

      if (mcolumns[data->column].metric != 0)
        update_cell (item, data);
    }
}

gboolean
pgs_process_detail_mapping_equal (gpointer a,
                                  gpointer b)
{
  return pgs_mapping_get_end (a) == pgs_mapping_get_end (b) &&
         pgs_mapping_get_offset (a) == pgs_mapping_get_offset (b) &&
         g_strcmp0 (pgs_mapping_get_perms (a), pgs_mapping_get_perms (b)) == 0 &&
         g_strcmp0 (pgs_mapping_get_label (a), pgs_mapping_get_label (b)) == 0 &&
         pgs_mapping_get_rss (a) == pgs_mapping_get_rss (b) &&
         pgs_mapping_get_pss (a) == pgs_mapping_get_pss (b) &&
         pgs_mapping_get_uss (a) == pgs_mapping_get_uss (b) &&
         pgs_mapping_get_swap (a) == pgs_mapping_get_swap (b) &&
         pgs_mapping_is_known (a, PGS_METRIC_PSS) == pgs_mapping_is_known (b, PGS_METRIC_PSS) &&
         pgs_mapping_is_known (a, PGS_METRIC_USS) == pgs_mapping_is_known (b, PGS_METRIC_USS);
}

char *
pgs_process_detail_get_referenced_text (PgsProcessDetail  *self,
                                        PgsMapping        *mapping,
                                        const char       **tooltip)
{
  const PgsWssMapping *found;
  const char *unused;

  g_return_val_if_fail (PGS_IS_PROCESS_DETAIL (self), NULL);
  g_return_val_if_fail (PGS_IS_MAPPING (mapping), NULL);

  if (tooltip == NULL)
    tooltip = &unused;
  if (self->wss_samples == NULL)
    {
      *tooltip = _("Not measured: use Measure Working Set to see how much of this mapping "
                   "the process uses");
      return g_strdup (PGS_UNKNOWN_TEXT);
    }
  found = lookup_wss_mapping (self, mapping);
  if (found == NULL)
    {
      *tooltip = _("Not in the last working-set sample: the mapping is new or has changed "
                   "since");
      return g_strdup (PGS_UNKNOWN_TEXT);
    }
  *tooltip = _("Bytes of this mapping the process touched during the last working-set "
               "sample (smaps “Referenced”)");
  return pgs_units_format (self->units, found->referenced);
}
