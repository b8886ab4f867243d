/* pgs-process-detail.c
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The mappings come from pgs_process_get_mappings(), which creates its PgsMapping objects
 * on first use: only the process the user looks at pays for them.
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "pgs-release.h"
#include "pgs-cell.h"
#include "pgs-memory-notes.h"
#include "pgs-process-detail.h"
#include "pgs-row.h"
#include "pgs-wss-chart.h"

typedef enum
{
  MCOL_START,
  MCOL_PERMS,
  MCOL_OFFSET,
  MCOL_LABEL,
  MCOL_VSS,
  MCOL_RSS,
  MCOL_REFERENCED,
  MCOL_PSS,
  MCOL_USS,
  MCOL_SWAP,
  N_MCOLS
} MappingColumn;

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

static const PgsMetric metrics[] = {
  PGS_METRIC_VSS, PGS_METRIC_RSS, PGS_METRIC_PSS, PGS_METRIC_USS, PGS_METRIC_SWAP
};

typedef struct
{
  PgsProcessDetail *self;
  MappingColumn     column;
} ColumnData;

struct _PgsProcessDetail
{
  GtkWidget            parent_instance;

  GtkButton           *wss_button;

  PgsProcess          *process;
  PgsUnits             units;
  gboolean             stale;      /* the process changed and the view has not caught up */
  guint                update_source;

  GListStore          *store;      /* PgsRow of PgsMapping, in address order */
  GtkSortListModel    *sort_model;
  GListModel          *mappings;   /* the sorted rows mapped to their PgsMapping */
  GtkColumnViewColumn *column_objects[N_MCOLS];
  ColumnData           column_data[N_MCOLS];

  /* The last working-set series, of wss_pid: kept across refreshes while that PID is
   * selected, dropped when another process is. */
  int                  wss_pid;
  GPtrArray           *wss_samples;   /* PgsWssSample, oldest first; NULL before any */
  GPtrArray           *referenced_items; /* the bound GtkListItems of the Referenced column */
  GPtrArray           *bound_items;      /* every bound GtkListItem, for a change of units */
  PgsPhysMap          *physmap;          /* the snapshot's, for the THP frames; or NULL */

  /* template children */
  GtkStack            *stack;
  GtkLabel            *name_label;
  GtkLabel            *info_label;
  GtkLabel            *cmdline_label;
  GtkLabel            *source_label;
  GtkLabel            *notes_label;
  GtkLabel            *metric_labels[G_N_ELEMENTS (metrics)];
  GtkColumnView       *column_view;
  GtkWidget           *wss_box;
  PgsWssChart         *wss_chart;
  GtkLabel            *wss_total_label;
  GtkLabel            *wss_basis_label;
  GtkLabel            *wss_caveat_label;
};

enum {
  PROP_0,
  PROP_PROCESS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (PgsProcessDetail, pgs_process_detail, GTK_TYPE_WIDGET)

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
static void
refresh_referenced_column (PgsProcessDetail *self)
{
  GtkSorter *sorter = gtk_column_view_column_get_sorter (self->column_objects[MCOL_REFERENCED]);

  for (guint i = 0; i < self->referenced_items->len; i++)
    update_cell (g_ptr_array_index (self->referenced_items, i),
                 &self->column_data[MCOL_REFERENCED]);
  if (sorter != NULL)
    gtk_sorter_changed (sorter, GTK_SORTER_CHANGE_DIFFERENT);
}

/* The library's reasons are sentences without the full stop: one follows each here. */
static void
end_sentence (GString *text)
{
  if (text->len > 0 && !strchr (".!?", text->str[text->len - 1]))
    g_string_append_c (text, '.');
}

static void
update_wss (PgsProcessDetail *self)
{
  PgsWssSample *last;
  g_autofree char *referenced = NULL;
  g_autofree char *rss = NULL;
  g_autofree char *interval = NULL;
  g_autofree char *total = NULL;
  g_autoptr(GString) basis = NULL;
  g_autoptr(GDateTime) when = NULL;
  g_autofree char *when_text = NULL;
  guint n;

  n = self->wss_samples != NULL ? self->wss_samples->len : 0;
  gtk_widget_set_visible (self->wss_box, n > 0);
  pgs_wss_chart_set_samples (self->wss_chart, n > 0 ? self->wss_samples : NULL);
  if (n == 0)
    return;

  last = g_ptr_array_index (self->wss_samples, n - 1);
  referenced = pgs_units_format (self->units, pgs_wss_sample_get_referenced (last));
  rss = pgs_units_format (self->units, pgs_wss_sample_get_rss (last));
  interval = g_strdup_printf ("%.1f", pgs_wss_sample_get_elapsed (last) / 1e6);
  when = g_date_time_new_from_unix_local (pgs_wss_sample_get_time (last) / G_USEC_PER_SEC);
  when_text = when != NULL ? g_date_time_format (when, "%X") : g_strdup ("?");
  /* Translators: "Working set 16.0 MiB of 104 MiB resident, used within 5.0 s (sample 1 of 1, 12:03:04)" */
  total = g_strdup_printf (_("Working set %s of %s resident, used within %s s "
                             "(sample %u of %u, %s)"),
                           referenced, rss, interval, n, n, when_text);
  /* Never a bare 0: say whether the process ran at all. */
  if (pgs_wss_sample_get_referenced (last) == 0 ||
      pgs_wss_sample_get_ran (last, NULL, NULL) == PGS_WSS_RAN_NO)
    {
      g_autofree char *figure = g_steal_pointer (&total);

      /* Translators: a working-set figure, then whether the process ran during the interval */
      total = g_strdup_printf (_("%s; %s"), figure,
                               pgs_wss_ran_describe (pgs_wss_sample_get_ran (last, NULL, NULL)));
    }
  gtk_label_set_text (self->wss_total_label, total);

  /* What may have made the figure too low, one line beside it. */
  {
    g_autoptr(GString) caveats = g_string_new (NULL);

    for (guint i = 0; i < pgs_wss_sample_get_n_caveats (last); i++)
      g_string_append_printf (caveats, "%s%s", i ? " " : "",
                              pgs_wss_sample_get_caveat (last, i)->message);
    gtk_label_set_text (self->wss_caveat_label, caveats->str);
    gtk_widget_set_visible (GTK_WIDGET (self->wss_caveat_label), caveats->len > 0);
  }

  /* What the figure rests on, and what it cannot rest on here and why. */
  basis = g_string_new (_("From the kernel’s smaps “Referenced”, per mapping: the pages "
                          "the process touched since its referenced bits were cleared."));
  if (!(pgs_wss_sample_get_page_sources (last) & PGS_WSS_PAGES_IDLE))
    {
      g_string_append_c (basis, ' ');
      g_string_append_printf (basis, _("Which pages were used cannot be shown page by page: %s"),
                              pgs_wss_sample_get_page_source_reason (last, PGS_WSS_PAGES_IDLE));
      end_sentence (basis);
    }
  if (!(pgs_wss_sample_get_page_sources (last) & PGS_WSS_PAGES_SOFT_DIRTY))
    {
      g_string_append_c (basis, ' ');
      g_string_append_printf (basis, _("Which pages were written cannot be shown either: %s"),
                              pgs_wss_sample_get_page_source_reason (last,
                                                                     PGS_WSS_PAGES_SOFT_DIRTY));
      end_sentence (basis);
    }
  gtk_label_set_text (self->wss_basis_label, basis->str);
}

static const char *
source_text (PgsSource source)
{
  switch (source)
    {
    case PGS_SOURCE_PAGES:
      return _("Counted page by page from pagemap and kpagecount");
    case PGS_SOURCE_KERNEL:
      return _("From the kernel’s own smaps_rollup");
    case PGS_SOURCE_STATUS:
      return _("Only /proc/PID/status could be read: PSS and USS are unknown");
    case PGS_SOURCE_NONE:
    default:
      return _("Nothing beyond the process’s name could be read");
    }
}

static void
update_numbers (PgsProcessDetail *self)
{
  for (guint i = 0; i < G_N_ELEMENTS (metrics); i++)
    {
      g_autofree char *text = NULL;
      const char *tooltip = NULL;

      if (self->process == NULL)
        text = g_strdup ("");
      else if (pgs_process_is_known (self->process, metrics[i]))
        text = pgs_units_format (self->units, pgs_process_get_metric (self->process, metrics[i]));
      else
        {
          text = g_strdup (PGS_UNKNOWN_TEXT);
          tooltip = pgs_process_get_unknown_reason (self->process);
        }
      gtk_label_set_text (self->metric_labels[i], text);
      gtk_widget_set_tooltip_text (GTK_WIDGET (self->metric_labels[i]), tooltip);
    }
}

static gboolean
mapping_equal (gpointer a,
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

static void
update (PgsProcessDetail *self)
{
  g_autofree char *info = NULL;
  const char *reason;
  g_autoptr(GString) source = NULL;

  update_numbers (self);

  if (self->process == NULL)
    {
      pgs_row_store_assign (self->store, NULL, NULL);
      gtk_stack_set_visible_child_name (self->stack, "empty");
      return;
    }

  gtk_label_set_text (self->name_label, pgs_process_get_display_name (self->process));
  /* Translators: under a process's name: "PID 1234 · user alice · 37 mappings" */
  info = g_strdup_printf (ngettext ("PID %d · %s · %'u mapping", "PID %d · %s · %'u mappings",
                                    pgs_process_get_n_mappings (self->process)),
                          pgs_process_get_pid (self->process),
                          pgs_process_get_user (self->process) ?
                            pgs_process_get_display_user (self->process) : "?",
                          pgs_process_get_n_mappings (self->process));
  gtk_label_set_text (self->info_label, info);
  gtk_label_set_text (self->cmdline_label, pgs_process_get_display_cmdline (self->process));
  /* Command lines run long: the whole of it on hover. */
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->cmdline_label),
                               pgs_process_get_display_cmdline (self->process));
  gtk_widget_set_visible (GTK_WIDGET (self->cmdline_label),
                          pgs_process_get_cmdline (self->process) != NULL &&
                          *pgs_process_get_cmdline (self->process) != '\0');

  source = g_string_new (source_text (pgs_process_get_source (self->process)));
  reason = pgs_process_get_unknown_reason (self->process);
  if (pgs_process_get_known (self->process) != PGS_METRIC_ALL && reason != NULL)
    g_string_append_printf (source, " — %s", reason);
  gtk_label_set_text (self->source_label, source->str);
  pgs_memory_notes_fill_label (self->notes_label, self->process, self->physmap, self->units);

  /* By position, not by address: when a mapping comes or goes the rows after it take
   * their neighbour's mapping and relabel their cells, which costs far less than GTK
   * building new row widgets for every row a splice touches (a refresh of this test's own
   * 650 mappings: a 43 ms frame). Nothing is selected in this table, so no row has an
   * identity to keep. */
  pgs_row_store_assign (self->store, pgs_process_get_mappings (self->process), mapping_equal);
  /* New numbers under the sorter: sort again where the order broke. */
  pgs_row_resort_if_needed (G_LIST_MODEL (self->sort_model),
                            gtk_column_view_get_sorter (self->column_view));
  gtk_stack_set_visible_child_name (self->stack, "detail");
}

static gboolean
update_idle (gpointer data)
{
  PgsProcessDetail *self = data;

  self->update_source = 0;
  if (self->stale)
    {
      gint64 start = g_get_monotonic_time ();

      self->stale = FALSE;
      update (self);
      g_debug ("Mappings of the selected process updated: %.1f ms",
               (g_get_monotonic_time () - start) / 1000.0);
    }
  return G_SOURCE_REMOVE;
}

static void
pgs_process_detail_map (GtkWidget *widget)
{
  PgsProcessDetail *self = PGS_PROCESS_DETAIL (widget);

  if (self->stale)
    {
      self->stale = FALSE;
      update (self);
    }
  GTK_WIDGET_CLASS (pgs_process_detail_parent_class)->map (widget);
}

static void
pgs_process_detail_dispose (GObject *object)
{
  PgsProcessDetail *self = (PgsProcessDetail *) object;

  g_clear_handle_id (&self->update_source, g_source_remove);
  if (self->store != NULL)
    g_list_store_remove_all (self->store);
  gtk_widget_dispose_template (GTK_WIDGET (self), PGS_TYPE_PROCESS_DETAIL);
  g_clear_object (&self->mappings);
  g_clear_object (&self->store);
  pgs_clear_release (&self->process);
  g_clear_pointer (&self->wss_samples, g_ptr_array_unref);
  g_clear_pointer (&self->referenced_items, g_ptr_array_unref);
  g_clear_pointer (&self->bound_items, g_ptr_array_unref);
  g_clear_pointer (&self->physmap, pgs_physmap_unref);

  G_OBJECT_CLASS (pgs_process_detail_parent_class)->dispose (object);
}

static void
pgs_process_detail_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  PgsProcessDetail *self = PGS_PROCESS_DETAIL (object);

  switch (prop_id)
    {
    case PROP_PROCESS:
      g_value_set_object (value, self->process);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pgs_process_detail_set_property (GObject      *object,
                                 guint         prop_id,
                                 const GValue *value,
                                 GParamSpec   *pspec)
{
  PgsProcessDetail *self = PGS_PROCESS_DETAIL (object);

  switch (prop_id)
    {
    case PROP_PROCESS:
      pgs_process_detail_set_process (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pgs_process_detail_class_init (PgsProcessDetailClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = pgs_process_detail_dispose;
  object_class->get_property = pgs_process_detail_get_property;
  object_class->set_property = pgs_process_detail_set_property;

  widget_class->map = pgs_process_detail_map;

  properties[PROP_PROCESS] =
    g_param_spec_object ("process", NULL, NULL, PGS_TYPE_PROCESS,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/pagescope/Pagescope/"
                                                             "pgs-process-detail.ui");
  gtk_widget_class_bind_template_child (widget_class, PgsProcessDetail, stack);
  gtk_widget_class_bind_template_child (widget_class, PgsProcessDetail, name_label);
  gtk_widget_class_bind_template_child (widget_class, PgsProcessDetail, info_label);
  gtk_widget_class_bind_template_child (widget_class, PgsProcessDetail, cmdline_label);
  gtk_widget_class_bind_template_child (widget_class, PgsProcessDetail, source_label);
  gtk_widget_class_bind_template_child (widget_class, PgsProcessDetail, notes_label);
  gtk_widget_class_bind_template_child (widget_class, PgsProcessDetail, wss_button);
  gtk_widget_class_bind_template_child_full (widget_class, "vss_label", FALSE,
                                             G_STRUCT_OFFSET (PgsProcessDetail, metric_labels[0]));
  gtk_widget_class_bind_template_child_full (widget_class, "rss_label", FALSE,
                                             G_STRUCT_OFFSET (PgsProcessDetail, metric_labels[1]));
  gtk_widget_class_bind_template_child_full (widget_class, "pss_label", FALSE,
                                             G_STRUCT_OFFSET (PgsProcessDetail, metric_labels[2]));
  gtk_widget_class_bind_template_child_full (widget_class, "uss_label", FALSE,
                                             G_STRUCT_OFFSET (PgsProcessDetail, metric_labels[3]));
  gtk_widget_class_bind_template_child_full (widget_class, "swap_label", FALSE,
                                             G_STRUCT_OFFSET (PgsProcessDetail, metric_labels[4]));
  gtk_widget_class_bind_template_child (widget_class, PgsProcessDetail, column_view);
  gtk_widget_class_bind_template_child (widget_class, PgsProcessDetail, wss_box);
  gtk_widget_class_bind_template_child (widget_class, PgsProcessDetail, wss_chart);
  gtk_widget_class_bind_template_child (widget_class, PgsProcessDetail, wss_total_label);
  gtk_widget_class_bind_template_child (widget_class, PgsProcessDetail, wss_basis_label);
  gtk_widget_class_bind_template_child (widget_class, PgsProcessDetail, wss_caveat_label);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "processdetail");

  g_type_ensure (PGS_TYPE_WSS_CHART);
}

static void
pgs_process_detail_init (PgsProcessDetail *self)
{
  GtkNoSelection *selection;
  GtkMapListModel *map;
  GtkSorter *view_sorter;

  gtk_widget_init_template (GTK_WIDGET (self));
  self->referenced_items = g_ptr_array_new ();
  self->bound_items = g_ptr_array_new ();

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

  self->store = g_list_store_new (PGS_TYPE_ROW);
  view_sorter = gtk_column_view_get_sorter (self->column_view);
  self->sort_model = gtk_sort_list_model_new (g_object_ref (G_LIST_MODEL (self->store)),
                                              g_object_ref (view_sorter));
  map = gtk_map_list_model_new (g_object_ref (G_LIST_MODEL (self->sort_model)),
                                pgs_row_map_to_item, NULL, NULL);
  self->mappings = G_LIST_MODEL (map);
  selection = gtk_no_selection_new (G_LIST_MODEL (self->sort_model));
  gtk_column_view_set_model (self->column_view, GTK_SELECTION_MODEL (selection));
  g_object_unref (selection);

  /* Address order, like the residency map next door reads. */
  gtk_column_view_sort_by_column (self->column_view, self->column_objects[MCOL_START],
                                  GTK_SORT_ASCENDING);
  update (self);
}

GtkWidget *
pgs_process_detail_new (void)
{
  return g_object_new (PGS_TYPE_PROCESS_DETAIL, NULL);
}

PgsProcess *
pgs_process_detail_get_process (PgsProcessDetail *self)
{
  g_return_val_if_fail (PGS_IS_PROCESS_DETAIL (self), NULL);
  return self->process;
}

void
pgs_process_detail_set_process (PgsProcessDetail *self,
                                PgsProcess       *process)
{
  g_return_if_fail (PGS_IS_PROCESS_DETAIL (self));
  g_return_if_fail (!process || PGS_IS_PROCESS (process));

  if (!pgs_set_object_release (&self->process, process))
    return;
  /* Results belong to the PID measured: a refresh of the same process keeps them. */
  if (self->wss_samples != NULL && (process == NULL || pgs_process_get_pid (process) != self->wss_pid))
    pgs_process_detail_set_wss_samples (self, 0, NULL);
  /* A refresh while another view is in front would update hundreds of mapping rows no
   * one sees: that waits until the detail is shown again. In view, it waits for an idle
   * moment, so the swap of the new snapshot and the mapping rows are two short turns of
   * the main loop rather than one long one. */
  self->stale = TRUE;
  if (gtk_widget_get_mapped (GTK_WIDGET (self)) && self->update_source == 0)
    self->update_source = g_idle_add (update_idle, self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROCESS]);
}

/* The physical map of the process's snapshot: its huge-page frames are counted in it. */
void
pgs_process_detail_set_physmap (PgsProcessDetail *self,
                                PgsPhysMap       *physmap)
{
  g_return_if_fail (PGS_IS_PROCESS_DETAIL (self));

  if (self->physmap == physmap)
    return;
  g_clear_pointer (&self->physmap, pgs_physmap_unref);
  self->physmap = physmap ? pgs_physmap_ref (physmap) : NULL;
}

void
pgs_process_detail_set_units (PgsProcessDetail *self,
                              PgsUnits          units)
{
  g_return_if_fail (PGS_IS_PROCESS_DETAIL (self));

  if (self->units == units)
    return;
  self->units = units;
  /* A new factory would not rebind the cells on GTK 4.8: the bound ones are redone here,
   * the others are bound in the new units when they scroll into view. */
  for (guint i = 0; i < self->bound_items->len; i++)
    {
      GtkListItem *item = g_ptr_array_index (self->bound_items, i);
      ColumnData *data = g_object_get_data (G_OBJECT (item), "column-data");

      if (mcolumns[data->column].metric != 0)
        update_cell (item, data);
    }
  refresh_referenced_column (self);
  update_numbers (self);
  update_wss (self);
}

const char *
pgs_process_detail_get_metric_text (PgsProcessDetail *self,
                                    PgsMetric         metric)
{
  g_return_val_if_fail (PGS_IS_PROCESS_DETAIL (self), NULL);

  if (self->stale)
    {
      self->stale = FALSE;
      update (self);
    }
  for (guint i = 0; i < G_N_ELEMENTS (metrics); i++)
    if (metrics[i] == metric)
      return gtk_label_get_text (self->metric_labels[i]);
  return NULL;
}

GListModel *
pgs_process_detail_get_mappings (PgsProcessDetail *self)
{
  g_return_val_if_fail (PGS_IS_PROCESS_DETAIL (self), NULL);

  if (self->stale)
    {
      self->stale = FALSE;
      update (self);
    }
  return self->mappings;
}

void
pgs_process_detail_set_wss_samples (PgsProcessDetail *self,
                                    int               pid,
                                    GPtrArray        *samples)
{
  g_return_if_fail (PGS_IS_PROCESS_DETAIL (self));

  if (samples != NULL && samples->len == 0)
    samples = NULL;
  if (samples != NULL)
    g_ptr_array_ref (samples);
  g_clear_pointer (&self->wss_samples, g_ptr_array_unref);
  self->wss_samples = samples;
  self->wss_pid = samples != NULL ? pid : 0;
  refresh_referenced_column (self);
  update_wss (self);
}

GPtrArray *
pgs_process_detail_get_wss_samples (PgsProcessDetail *self)
{
  g_return_val_if_fail (PGS_IS_PROCESS_DETAIL (self), NULL);
  return self->wss_samples;
}

PgsWssChart *
pgs_process_detail_get_wss_chart (PgsProcessDetail *self)
{
  g_return_val_if_fail (PGS_IS_PROCESS_DETAIL (self), NULL);
  return self->wss_chart;
}

const char *
pgs_process_detail_get_wss_basis_text (PgsProcessDetail *self)
{
  g_return_val_if_fail (PGS_IS_PROCESS_DETAIL (self), NULL);
  return gtk_widget_get_visible (self->wss_box) ? gtk_label_get_text (self->wss_basis_label) : NULL;
}

const char *
pgs_process_detail_get_wss_caveat_text (PgsProcessDetail *self)
{
  g_return_val_if_fail (PGS_IS_PROCESS_DETAIL (self), NULL);

  return gtk_widget_get_visible (GTK_WIDGET (self->wss_caveat_label))
         ? gtk_label_get_text (self->wss_caveat_label) : NULL;
}

const char *
pgs_process_detail_get_wss_total_text (PgsProcessDetail *self)
{
  g_return_val_if_fail (PGS_IS_PROCESS_DETAIL (self), NULL);

  return gtk_label_get_text (self->wss_total_label);
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

void
pgs_process_detail_set_wss_blocked_reason (PgsProcessDetail *self,
                                           const char       *reason)
{
  g_return_if_fail (PGS_IS_PROCESS_DETAIL (self));

  /* GTK 4 shows the tooltip of an insensitive button: the reason is where the user looks. */
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->wss_button),
                               reason != NULL ? reason
                               : _("Find out how much of its memory this process uses over a "
                                   "few seconds"));
}

const char *
pgs_process_detail_get_wss_tooltip (PgsProcessDetail *self)
{
  g_return_val_if_fail (PGS_IS_PROCESS_DETAIL (self), NULL);
  return gtk_widget_get_tooltip_text (GTK_WIDGET (self->wss_button));
}

GtkWidget *
pgs_process_detail_get_wss_button (PgsProcessDetail *self)
{
  g_return_val_if_fail (PGS_IS_PROCESS_DETAIL (self), NULL);
  return GTK_WIDGET (self->wss_button);
}
