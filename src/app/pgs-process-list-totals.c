/* pgs-process-list-totals.c: the line under the process list, what the rows shown add up to
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "pgs-memory-notes.h"
#include "pgs-process-list-private.h"
#include "pgs-row.h"
#include "pgs-tooltip.h"

void
_pgs_process_list_update_count (PgsProcessList *self)
{
  guint n_total = self->snapshot ? pgs_snapshot_get_n_processes (self->snapshot) : 0;
  /* What the filter lets through, also under collapsed rows of the tree. */
  guint n_shown = g_list_model_get_n_items (G_LIST_MODEL (self->filter_model));
  g_autofree char *text = NULL;

  if (self->snapshot == NULL)
    text = g_strdup ("");
  else if (n_shown == n_total)
    text = g_strdup_printf (ngettext ("%u process", "%u processes", n_total), n_total);
  else
    /* Translators: "Showing 3 of 120 processes" */
    text = g_strdup_printf (ngettext ("Showing %u of %u process", "Showing %u of %u processes",
                                      n_total), n_shown, n_total);
  gtk_label_set_text (self->count_label, text);
}

/* Appends one total as a unit that line wrapping never splits ("PSS 1.2 GiB"). */
static void
append_item (GString    *out,
             const char *item)
{
  g_autoptr(GString) unbroken = g_string_new (item);

  g_string_replace (unbroken, " ", "\u00a0", 0);
  if (out->len > 0)
    g_string_append (out, "   ");
  g_string_append (out, unbroken->str);
}

/* The total of what the list shows: the totals sit under the rows and add them up, so a
 * search for one process shows that process's figures, not the machine's. */
static guint64
shown_total (PgsProcessList *self,
             PgsMetric       metric,
             guint          *n_unknown)
{
  GListModel *shown = G_LIST_MODEL (self->filter_model);
  guint n = g_list_model_get_n_items (shown);
  guint64 total = 0;

  if (n == pgs_snapshot_get_n_processes (self->snapshot))
    return pgs_snapshot_get_total (self->snapshot, metric, n_unknown);

  *n_unknown = 0;
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(PgsRow) row = g_list_model_get_item (shown, i);
      PgsProcess *process = pgs_row_get_item (row);

      if (!pgs_process_is_known (process, metric))
        (*n_unknown)++;
      else if (metric == PGS_METRIC_PSS)
        /* Summed with the kernel's fraction, truncated once, as the snapshot's total is. */
        total += pgs_process_get_pss_fixed (process);
      else
        total += pgs_process_get_metric (process, metric);
    }
  return metric == PGS_METRIC_PSS ? total >> PGS_PSS_SHIFT : total;
}

static void
append_total (PgsProcessList *self,
              GString        *out,
              GString        *tooltip,
              const char     *name,
              PgsMetric       metric)
{
  g_autofree char *size = NULL;
  g_autofree char *item = NULL;
  guint n_unknown = 0;
  guint64 total;

  total = shown_total (self, metric, &n_unknown);
  size = pgs_units_format (self->units, total);

  if (n_unknown == 0)
    {
      /* Translators: a total under the process list, "PSS 1.2 GiB" */
      item = g_strdup_printf (_("%s %s"), name, size);
      append_item (out, item);
      return;
    }

  /* A partial sum is a lower bound, and says so: never shown as the whole. */
  /* Translators: a total that leaves out processes, "PSS ≥ 1.2 GiB (3 unknown)" */
  item = g_strdup_printf (ngettext ("%s ≥ %s (%u unknown)", "%s ≥ %s (%u unknown)", n_unknown),
                          name, size, n_unknown);
  append_item (out, item);
  if (tooltip->len > 0)
    g_string_append_c (tooltip, '\n');
  g_string_append_printf (tooltip,
                          ngettext ("%s could not be read for %u process: "
                                    "the total counts only the others.",
                                    "%s could not be read for %u processes: "
                                    "the total counts only the others.",
                                    n_unknown),
                          name, n_unknown);
}

void
_pgs_process_list_update_totals (PgsProcessList *self)
{
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(GString) tooltip = g_string_new (NULL);
  guint n_skipped;

  if (self->snapshot == NULL)
    {
      gtk_label_set_text (self->totals_label, "");
      pgs_set_tooltip_text (GTK_WIDGET (self->totals_label), NULL);
      return;
    }

  append_total (self, text, tooltip, _("RSS"), PGS_METRIC_RSS);
  append_total (self, text, tooltip, _("PSS"), PGS_METRIC_PSS);
  append_total (self, text, tooltip, _("USS"), PGS_METRIC_USS);
  append_total (self, text, tooltip, _("Swap"), PGS_METRIC_SWAP);
  {
    /* Swap on zram is in RAM: machine-wide, exactly how much. */
    g_autofree char *zram = pgs_memory_notes_system_swap (self->units);

    if (zram != NULL)
      append_item (text, zram);
  }

  n_skipped = pgs_snapshot_get_n_skipped (self->snapshot);
  if (n_skipped > 0)
    {
      g_autofree char *item = g_strdup_printf (ngettext ("%u not measured", "%u not measured",
                                                         n_skipped), n_skipped);

      append_item (text, item);
      if (tooltip->len > 0)
        g_string_append_c (tooltip, '\n');
      /* The tooltip starts with the words the user points at, so it reads as their
       * explanation beside the other totals' notes. */
      g_string_append_printf (tooltip,
                              ngettext ("%u not measured: this process exited or could not be "
                                        "read during the scan; it is not in the list or the "
                                        "totals.",
                                        "%u not measured: these processes exited or could not "
                                        "be read during the scan; they are not in the list or "
                                        "the totals.", n_skipped), n_skipped);
      for (guint i = 0; i < n_skipped && i < 10; i++)
        {
          const PgsSkipped *skipped = pgs_snapshot_get_skipped (self->snapshot, i);

          g_string_append_printf (tooltip, "\n%d: %s", skipped->pid,
                                  skipped->error ? skipped->error->message : "");
        }
    }

  gtk_label_set_text (self->totals_label, text->str);
  pgs_set_tooltip_text (GTK_WIDGET (self->totals_label), tooltip->len ? tooltip->str : NULL);
}
