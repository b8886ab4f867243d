/* pgs-detail-body.c
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The process detail's "detail" page, apart from it so that it is built only when a
 * process is first shown: its template (a table of eleven columns, each with a factory of
 * its own, and some forty labels and boxes) is most of the detail's cost, and at start no
 * process is selected.
 *
 * The mappings come from pgs_process_get_mappings(), which creates its PgsMapping objects
 * on first use: only the process the user looks at pays for them.
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "pgs-release.h"
#include "pgs-memory-notes.h"
#include "pgs-detail-body-private.h"
#include "pgs-row.h"
#include "pgs-tooltip.h"
#include "pgs-wss-chart.h"

static const PgsMetric metrics[] = {
  PGS_METRIC_VSS, PGS_METRIC_RSS, PGS_METRIC_PSS, PGS_METRIC_USS, PGS_METRIC_SWAP
};
G_STATIC_ASSERT (G_N_ELEMENTS (metrics) == PGS_DETAIL_BODY_N_METRICS);

enum {
  PROP_0,
  PROP_WSS_SAMPLE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (PgsDetailBody, pgs_detail_body, GTK_TYPE_WIDGET)


/* The library's reasons are sentences without the full stop: one follows each here. */
static void
end_sentence (GString *text)
{
  if (text->len > 0 && !strchr (".!?", text->str[text->len - 1]))
    g_string_append_c (text, '.');
}

static void
update_wss (PgsDetailBody *self)
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
update_numbers (PgsDetailBody *self)
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
      pgs_set_tooltip_text (GTK_WIDGET (self->metric_labels[i]), tooltip);
    }
}

void
pgs_detail_body_show_process (PgsDetailBody *self,
                              PgsProcess    *process,
                              PgsPhysMap    *physmap,
                              PgsUnits       units)
{
  g_autofree char *info = NULL;
  const char *reason;
  g_autoptr(GString) source = NULL;

  g_return_if_fail (PGS_IS_DETAIL_BODY (self));
  g_return_if_fail (!process || PGS_IS_PROCESS (process));

  pgs_set_object_release (&self->process, process);
  if (self->units != units)
    {
      self->units = units;
      update_wss (self);
    }
  update_numbers (self);

  if (self->process == NULL)
    {
      pgs_row_store_assign (self->store, NULL, NULL);
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
  pgs_set_tooltip_text (GTK_WIDGET (self->cmdline_label),
                               pgs_process_get_display_cmdline (self->process));
  gtk_widget_set_visible (GTK_WIDGET (self->cmdline_label),
                          pgs_process_get_cmdline (self->process) != NULL &&
                          *pgs_process_get_cmdline (self->process) != '\0');

  source = g_string_new (source_text (pgs_process_get_source (self->process)));
  reason = pgs_process_get_unknown_reason (self->process);
  if (pgs_process_get_known (self->process) != PGS_METRIC_ALL && reason != NULL)
    g_string_append_printf (source, " — %s", reason);
  gtk_label_set_text (self->source_label, source->str);
  pgs_memory_notes_fill_label (self->notes_label, self->process, physmap, self->units);

  /* By position, not by address: when a mapping comes or goes the rows after it take
   * their neighbour's mapping and relabel their cells, which costs far less than GTK
   * building new row widgets for every row a splice touches (a refresh of this test's own
   * 650 mappings: a 43 ms frame). Nothing is selected in this table, so no row has an
   * identity to keep. */
  pgs_row_store_assign (self->store, pgs_process_get_mappings (self->process),
                        _pgs_detail_body_mapping_equal);
  /* New numbers under the sorter: sort again where the order broke. */
  pgs_row_resort_if_needed (G_LIST_MODEL (self->sort_model),
                            gtk_column_view_get_sorter (self->column_view));
}

void
pgs_detail_body_set_units (PgsDetailBody *self,
                           PgsUnits       units)
{
  g_return_if_fail (PGS_IS_DETAIL_BODY (self));

  if (self->units == units)
    return;
  self->units = units;
  update_numbers (self);
  update_wss (self);
}

PgsWssSample *
pgs_wss_series_last (GPtrArray *series)
{
  if (series == NULL || series->len == 0)
    return NULL;
  return g_ptr_array_index (series, series->len - 1);
}

gboolean
pgs_wss_series_replace (GPtrArray **series,
                        GPtrArray  *samples)
{
  gboolean changed;

  if (samples != NULL && samples->len == 0)
    samples = NULL;
  /* Compared while the old series is held: a new one cannot be at its address. */
  changed = samples != *series;
  if (samples != NULL)
    g_ptr_array_ref (samples);
  g_clear_pointer (series, g_ptr_array_unref);
  *series = samples;
  return changed;
}

void
pgs_detail_body_set_wss_samples (PgsDetailBody *self,
                                 GPtrArray     *samples)
{
  gboolean changed;

  g_return_if_fail (PGS_IS_DETAIL_BODY (self));

  changed = pgs_wss_series_replace (&self->wss_samples, samples);
  /* A new sample: the Referenced sorter follows it, which cannot watch. */
  if (changed)
    {
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_WSS_SAMPLE]);
      gtk_sorter_changed (gtk_column_view_column_get_sorter (self->referenced_column),
                          GTK_SORTER_CHANGE_DIFFERENT);
    }
  update_wss (self);
}

void
pgs_detail_body_set_wss_blocked_reason (PgsDetailBody *self,
                                        const char    *reason)
{
  g_return_if_fail (PGS_IS_DETAIL_BODY (self));

  /* GTK 4 shows the tooltip of an insensitive button: the reason is where the user looks. */
  pgs_set_tooltip_text (GTK_WIDGET (self->wss_button),
                        reason != NULL ? reason
                        : _("Find out how much of its memory this process uses over a "
                            "few seconds"));
}

void
pgs_detail_body_set_pages_blocked_reason (PgsDetailBody *self,
                                          const char    *reason)
{
  g_return_if_fail (PGS_IS_DETAIL_BODY (self));

  pgs_set_tooltip_text (GTK_WIDGET (self->pages_button),
                        reason != NULL ? reason : _("Show this process’s residency map"));
}

char *
pgs_detail_body_get_referenced_text (PgsDetailBody  *self,
                                     PgsMapping     *mapping,
                                     const char    **tooltip)
{
  const char *unused;

  g_return_val_if_fail (PGS_IS_DETAIL_BODY (self), NULL);
  g_return_val_if_fail (PGS_IS_MAPPING (mapping), NULL);

  return _pgs_detail_body_referenced_text (pgs_wss_series_last (self->wss_samples), mapping,
                                           self->units, tooltip != NULL ? tooltip : &unused);
}

const char *
pgs_detail_body_get_metric_text (PgsDetailBody *self,
                                 PgsMetric      metric)
{
  g_return_val_if_fail (PGS_IS_DETAIL_BODY (self), NULL);

  for (guint i = 0; i < G_N_ELEMENTS (metrics); i++)
    if (metrics[i] == metric)
      return gtk_label_get_text (self->metric_labels[i]);
  return NULL;
}

GListModel *
pgs_detail_body_get_mappings (PgsDetailBody *self)
{
  g_return_val_if_fail (PGS_IS_DETAIL_BODY (self), NULL);
  return self->mappings;
}

PgsWssChart *
pgs_detail_body_get_wss_chart (PgsDetailBody *self)
{
  g_return_val_if_fail (PGS_IS_DETAIL_BODY (self), NULL);
  return self->wss_chart;
}

const char *
pgs_detail_body_get_wss_basis_text (PgsDetailBody *self)
{
  g_return_val_if_fail (PGS_IS_DETAIL_BODY (self), NULL);
  return gtk_widget_get_visible (self->wss_box) ? gtk_label_get_text (self->wss_basis_label) : NULL;
}

const char *
pgs_detail_body_get_wss_caveat_text (PgsDetailBody *self)
{
  g_return_val_if_fail (PGS_IS_DETAIL_BODY (self), NULL);

  return gtk_widget_get_visible (GTK_WIDGET (self->wss_caveat_label))
         ? gtk_label_get_text (self->wss_caveat_label) : NULL;
}

const char *
pgs_detail_body_get_wss_total_text (PgsDetailBody *self)
{
  g_return_val_if_fail (PGS_IS_DETAIL_BODY (self), NULL);
  return gtk_label_get_text (self->wss_total_label);
}

GtkWidget *
pgs_detail_body_get_wss_button (PgsDetailBody *self)
{
  g_return_val_if_fail (PGS_IS_DETAIL_BODY (self), NULL);
  return GTK_WIDGET (self->wss_button);
}

GtkWidget *
pgs_detail_body_get_pages_button (PgsDetailBody *self)
{
  g_return_val_if_fail (PGS_IS_DETAIL_BODY (self), NULL);
  return GTK_WIDGET (self->pages_button);
}

static void
pgs_detail_body_dispose (GObject *object)
{
  PgsDetailBody *self = (PgsDetailBody *) object;

  if (self->store != NULL)
    g_list_store_remove_all (self->store);
  gtk_widget_dispose_template (GTK_WIDGET (self), PGS_TYPE_DETAIL_BODY);
  g_clear_object (&self->mappings);
  g_clear_object (&self->sort_model);
  g_clear_object (&self->store);
  pgs_clear_release (&self->process);
  g_clear_pointer (&self->wss_samples, g_ptr_array_unref);

  G_OBJECT_CLASS (pgs_detail_body_parent_class)->dispose (object);
}

static void
pgs_detail_body_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  PgsDetailBody *self = PGS_DETAIL_BODY (object);

  switch (prop_id)
    {
    case PROP_WSS_SAMPLE:
      g_value_set_boxed (value, pgs_wss_series_last (self->wss_samples));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pgs_detail_body_class_init (PgsDetailBodyClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = pgs_detail_body_dispose;
  object_class->get_property = pgs_detail_body_get_property;

  /* The last sample of the working-set series shown: the Referenced column sorts by it. */
  properties[PROP_WSS_SAMPLE] =
    g_param_spec_boxed ("wss-sample", NULL, NULL, PGS_TYPE_WSS_SAMPLE,
                        G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/pagescope/Pagescope/"
                                                             "pgs-detail-body.ui");
  gtk_widget_class_bind_template_child (widget_class, PgsDetailBody, content);
  gtk_widget_class_bind_template_child (widget_class, PgsDetailBody, metrics_box);
  gtk_widget_class_bind_template_child (widget_class, PgsDetailBody, name_label);
  gtk_widget_class_bind_template_child (widget_class, PgsDetailBody, info_label);
  gtk_widget_class_bind_template_child (widget_class, PgsDetailBody, cmdline_label);
  gtk_widget_class_bind_template_child (widget_class, PgsDetailBody, source_label);
  gtk_widget_class_bind_template_child (widget_class, PgsDetailBody, notes_label);
  gtk_widget_class_bind_template_child (widget_class, PgsDetailBody, wss_button);
  gtk_widget_class_bind_template_child (widget_class, PgsDetailBody, pages_button);
  gtk_widget_class_bind_template_child_full (widget_class, "vss_label", FALSE,
                                             G_STRUCT_OFFSET (PgsDetailBody, metric_labels[0]));
  gtk_widget_class_bind_template_child_full (widget_class, "rss_label", FALSE,
                                             G_STRUCT_OFFSET (PgsDetailBody, metric_labels[1]));
  gtk_widget_class_bind_template_child_full (widget_class, "pss_label", FALSE,
                                             G_STRUCT_OFFSET (PgsDetailBody, metric_labels[2]));
  gtk_widget_class_bind_template_child_full (widget_class, "uss_label", FALSE,
                                             G_STRUCT_OFFSET (PgsDetailBody, metric_labels[3]));
  gtk_widget_class_bind_template_child_full (widget_class, "swap_label", FALSE,
                                             G_STRUCT_OFFSET (PgsDetailBody, metric_labels[4]));
  gtk_widget_class_bind_template_child (widget_class, PgsDetailBody, column_view);
  gtk_widget_class_bind_template_child (widget_class, PgsDetailBody, start_column);
  gtk_widget_class_bind_template_child (widget_class, PgsDetailBody, referenced_column);
  gtk_widget_class_bind_template_child (widget_class, PgsDetailBody, wss_box);
  gtk_widget_class_bind_template_child (widget_class, PgsDetailBody, wss_chart);
  gtk_widget_class_bind_template_child (widget_class, PgsDetailBody, wss_total_label);
  gtk_widget_class_bind_template_child (widget_class, PgsDetailBody, wss_basis_label);
  gtk_widget_class_bind_template_child (widget_class, PgsDetailBody, wss_caveat_label);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "detailbody");

  _pgs_detail_body_class_add_mapping_callbacks (widget_class);
  g_type_ensure (PGS_TYPE_WSS_CHART);
  g_type_ensure (PGS_TYPE_ROW);
  g_type_ensure (PGS_TYPE_MAPPING);
  g_type_ensure (PGS_TYPE_WSS_SAMPLE);
}

static void
pgs_detail_body_init (PgsDetailBody *self)
{
  GtkNoSelection *selection;
  GtkMapListModel *map;
  GtkSorter *view_sorter;

  gtk_widget_init_template (GTK_WIDGET (self));
  /* The figures flow only to wrap: a flow box's children are otherwise stops for Tab. */
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->metrics_box));
       child != NULL; child = gtk_widget_get_next_sibling (child))
    gtk_widget_set_focusable (child, FALSE);

  self->store = g_list_store_new (PGS_TYPE_ROW);
  view_sorter = gtk_column_view_get_sorter (self->column_view);
  self->sort_model = gtk_sort_list_model_new (g_object_ref (G_LIST_MODEL (self->store)),
                                              g_object_ref (view_sorter));
  map = gtk_map_list_model_new (g_object_ref (G_LIST_MODEL (self->sort_model)),
                                pgs_row_map_to_item, NULL, NULL);
  self->mappings = G_LIST_MODEL (map);
  selection = gtk_no_selection_new (g_object_ref (G_LIST_MODEL (self->sort_model)));
  gtk_column_view_set_model (self->column_view, GTK_SELECTION_MODEL (selection));
  g_object_unref (selection);

  /* Address order, like the residency map next door reads. */
  gtk_column_view_sort_by_column (self->column_view, self->start_column, GTK_SORT_ASCENDING);
  update_numbers (self);
  update_wss (self);
}

GtkWidget *
pgs_detail_body_new (void)
{
  return g_object_new (PGS_TYPE_DETAIL_BODY, NULL);
}
