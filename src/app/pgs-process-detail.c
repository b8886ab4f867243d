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
#include "pgs-memory-notes.h"
#include "pgs-process-detail-private.h"
#include "pgs-row.h"
#include "pgs-tooltip.h"
#include "pgs-wss-chart.h"

static const PgsMetric metrics[] = {
  PGS_METRIC_VSS, PGS_METRIC_RSS, PGS_METRIC_PSS, PGS_METRIC_USS, PGS_METRIC_SWAP
};
G_STATIC_ASSERT (G_N_ELEMENTS (metrics) == PGS_PROCESS_DETAIL_N_METRICS);

enum {
  PROP_0,
  PROP_PROCESS,
  PROP_WSS_SAMPLE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (PgsProcessDetail, pgs_process_detail, PGS_TYPE_PAGE)

static void on_session_changed (PgsProcessDetail *self,
                                GParamSpec       *pspec,
                                PgsSession       *session);
static void set_wss_samples    (PgsProcessDetail *self,
                                int               pid,
                                GPtrArray        *samples);

/* The last sample of the working-set series shown (its "wss-sample"), or NULL. */
static PgsWssSample *
last_wss_sample (PgsProcessDetail *self)
{
  if (self->wss_samples == NULL || self->wss_samples->len == 0)
    return NULL;
  return g_ptr_array_index (self->wss_samples, self->wss_samples->len - 1);
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
      pgs_set_tooltip_text (GTK_WIDGET (self->metric_labels[i]), tooltip);
    }
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
  pgs_memory_notes_fill_label (self->notes_label, self->process, self->physmap, self->units);

  /* By position, not by address: when a mapping comes or goes the rows after it take
   * their neighbour's mapping and relabel their cells, which costs far less than GTK
   * building new row widgets for every row a splice touches (a refresh of this test's own
   * 650 mappings: a 43 ms frame). Nothing is selected in this table, so no row has an
   * identity to keep. */
  pgs_row_store_assign (self->store, pgs_process_get_mappings (self->process),
                        pgs_process_detail_mapping_equal);
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
    case PROP_WSS_SAMPLE:
      g_value_set_boxed (value, last_wss_sample (self));
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

/* A bin (its scroller) whose least size does not depend on its width, nor its width on its
 * height. Asked for its width at a given height, the flow box of the figures answered a
 * width wider than the window (677 px at 640), which the stack around the pane gave it, cut. */
static GtkSizeRequestMode
pgs_process_detail_get_request_mode (GtkWidget *widget)
{
  return GTK_SIZE_REQUEST_CONSTANT_SIZE;
}

static void
pgs_process_detail_measure (GtkWidget      *widget,
                            GtkOrientation  orientation,
                            int             for_size,
                            int            *minimum,
                            int            *natural,
                            int            *minimum_baseline,
                            int            *natural_baseline)
{
  PgsProcessDetail *self = PGS_PROCESS_DETAIL (widget);

  gtk_widget_measure (self->scroller, orientation, -1, minimum, natural, NULL, NULL);
}

static void
pgs_process_detail_size_allocate (GtkWidget *widget,
                                  int        width,
                                  int        height,
                                  int        baseline)
{
  PgsProcessDetail *self = PGS_PROCESS_DETAIL (widget);

  gtk_widget_allocate (self->scroller, width, height, -1, NULL);
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
  /* The last sample of the working-set series shown: the Referenced cells read it. */
  properties[PROP_WSS_SAMPLE] =
    g_param_spec_boxed ("wss-sample", NULL, NULL, PGS_TYPE_WSS_SAMPLE,
                        G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/pagescope/Pagescope/"
                                                             "pgs-process-detail.ui");
  gtk_widget_class_bind_template_child (widget_class, PgsProcessDetail, stack);
  gtk_widget_class_bind_template_child (widget_class, PgsProcessDetail, metrics_box);
  gtk_widget_class_bind_template_child (widget_class, PgsProcessDetail, scroller);
  gtk_widget_class_bind_template_child (widget_class, PgsProcessDetail, name_label);
  gtk_widget_class_bind_template_child (widget_class, PgsProcessDetail, info_label);
  gtk_widget_class_bind_template_child (widget_class, PgsProcessDetail, cmdline_label);
  gtk_widget_class_bind_template_child (widget_class, PgsProcessDetail, source_label);
  gtk_widget_class_bind_template_child (widget_class, PgsProcessDetail, notes_label);
  gtk_widget_class_bind_template_child (widget_class, PgsProcessDetail, wss_button);
  gtk_widget_class_bind_template_child (widget_class, PgsProcessDetail, pages_button);
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
  gtk_widget_class_bind_template_child (widget_class, PgsProcessDetail, start_column);
  gtk_widget_class_bind_template_child (widget_class, PgsProcessDetail, referenced_column);
  gtk_widget_class_bind_template_child (widget_class, PgsProcessDetail, wss_box);
  gtk_widget_class_bind_template_child (widget_class, PgsProcessDetail, wss_chart);
  gtk_widget_class_bind_template_child (widget_class, PgsProcessDetail, wss_total_label);
  gtk_widget_class_bind_template_child (widget_class, PgsProcessDetail, wss_basis_label);
  gtk_widget_class_bind_template_child (widget_class, PgsProcessDetail, wss_caveat_label);

  widget_class->get_request_mode = pgs_process_detail_get_request_mode;
  widget_class->measure = pgs_process_detail_measure;
  widget_class->size_allocate = pgs_process_detail_size_allocate;
  gtk_widget_class_set_css_name (widget_class, "processdetail");

  pgs_process_detail_class_add_mapping_callbacks (widget_class);
  g_type_ensure (PGS_TYPE_WSS_CHART);
  g_type_ensure (PGS_TYPE_ROW);
  g_type_ensure (PGS_TYPE_MAPPING);
  g_type_ensure (PGS_TYPE_WSS_SAMPLE);
}

static void
pgs_process_detail_init (PgsProcessDetail *self)
{
  GtkNoSelection *selection;
  GtkMapListModel *map;
  GtkSorter *view_sorter;

  gtk_widget_init_template (GTK_WIDGET (self));
  /* The figures flow only to wrap: a flow box's children are otherwise stops for Tab. */
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->metrics_box));
       child != NULL; child = gtk_widget_get_next_sibling (child))
    gtk_widget_set_focusable (child, FALSE);
  /* The snapshot first: its physical map counts the process's huge-page frames. */
  g_signal_connect (self, "session-notify::snapshot", G_CALLBACK (on_session_changed), NULL);
  g_signal_connect (self, "session-notify::units", G_CALLBACK (on_session_changed), NULL);
  g_signal_connect (self, "session-notify::wss-sample", G_CALLBACK (on_session_changed), NULL);
  pgs_page_bind (PGS_PAGE (self), "selected-process", self, "process", G_BINDING_SYNC_CREATE);

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
  gtk_column_view_sort_by_column (self->column_view, self->start_column, GTK_SORT_ASCENDING);
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
    set_wss_samples (self, 0, NULL);
  /* A refresh while another view is in front would update hundreds of mapping rows no
   * one sees: that waits until the detail is shown again. In view, it waits for an idle
   * moment, so the swap of the new snapshot and the mapping rows are two short turns of
   * the main loop rather than one long one; before the next frame is drawn, so that both
   * change in one frame (a frame of the whole window is tens of milliseconds under GL on
   * a machine without a GPU). */
  self->stale = TRUE;
  if (gtk_widget_get_mapped (GTK_WIDGET (self)) && self->update_source == 0)
    self->update_source = g_idle_add_full (GDK_PRIORITY_REDRAW - 10, update_idle, self, NULL);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROCESS]);
}

/* The physical map of the process's snapshot: its huge-page frames are counted in it. */
static void
set_physmap (PgsProcessDetail *self,
             PgsPhysMap       *physmap)
{
  if (self->physmap == physmap)
    return;
  g_clear_pointer (&self->physmap, pgs_physmap_unref);
  self->physmap = physmap ? pgs_physmap_ref (physmap) : NULL;
}

static void
set_units (PgsProcessDetail *self,
           PgsUnits          units)
{
  if (self->units == units)
    return;
  self->units = units;
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

/* A working-set series of @pid (PgsWssSample, oldest first; NULL or empty for none): fills
 * the Referenced column and the chart. Kept while @pid stays selected. */
static void
set_wss_samples (PgsProcessDetail *self,
                 int               pid,
                 GPtrArray        *samples)
{
  gboolean changed;

  g_return_if_fail (PGS_IS_PROCESS_DETAIL (self));

  if (samples != NULL && samples->len == 0)
    samples = NULL;
  /* Compared while the old series is held: a new one cannot be at its address. */
  changed = samples != self->wss_samples;
  if (samples != NULL)
    g_ptr_array_ref (samples);
  g_clear_pointer (&self->wss_samples, g_ptr_array_unref);
  self->wss_samples = samples;
  self->wss_pid = samples != NULL ? pid : 0;
  /* A new sample: the Referenced cells follow it, and its sorter, which cannot watch. */
  if (changed)
    {
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_WSS_SAMPLE]);
      gtk_sorter_changed (gtk_column_view_column_get_sorter (self->referenced_column),
                          GTK_SORTER_CHANGE_DIFFERENT);
    }
  update_wss (self);
}

char *
pgs_process_detail_get_referenced_text (PgsProcessDetail  *self,
                                        PgsMapping        *mapping,
                                        const char       **tooltip)
{
  const char *unused;

  g_return_val_if_fail (PGS_IS_PROCESS_DETAIL (self), NULL);
  g_return_val_if_fail (PGS_IS_MAPPING (mapping), NULL);

  return pgs_process_detail_referenced_text (last_wss_sample (self), mapping, self->units,
                                             tooltip != NULL ? tooltip : &unused);
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

void
pgs_process_detail_set_wss_blocked_reason (PgsProcessDetail *self,
                                           const char       *reason)
{
  g_return_if_fail (PGS_IS_PROCESS_DETAIL (self));

  /* GTK 4 shows the tooltip of an insensitive button: the reason is where the user looks. */
  pgs_set_tooltip_text (GTK_WIDGET (self->wss_button),
                               reason != NULL ? reason
                               : _("Find out how much of its memory this process uses over a "
                                   "few seconds"));
}

void
pgs_process_detail_set_pages_blocked_reason (PgsProcessDetail *self,
                                             const char       *reason)
{
  g_return_if_fail (PGS_IS_PROCESS_DETAIL (self));

  pgs_set_tooltip_text (GTK_WIDGET (self->pages_button),
                               reason != NULL ? reason : _("Show this process’s residency map"));
}

GtkWidget *
pgs_process_detail_get_pages_button (PgsProcessDetail *self)
{
  g_return_val_if_fail (PGS_IS_PROCESS_DETAIL (self), NULL);
  return GTK_WIDGET (self->pages_button);
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

static void
on_session_changed (PgsProcessDetail *self,
                    GParamSpec       *pspec,
                    PgsSession       *session)
{
  const char *name = g_param_spec_get_name (pspec);
  PgsSnapshot *snapshot = pgs_session_get_snapshot (session);

  if (g_str_equal (name, "snapshot"))
    set_physmap (self, snapshot != NULL ? pgs_snapshot_get_physmap (snapshot) : NULL);
  else if (g_str_equal (name, "units"))
    set_units (self, pgs_session_get_units (session));
  else
    set_wss_samples (self, pgs_session_get_wss_pid (session),
                     pgs_session_get_wss_samples (session));
}
