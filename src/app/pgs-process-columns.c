/* pgs-process-columns.c
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The closures the process list's template calls for its cells and sort orders; the
 * columns themselves are declared in ui/pgs-process-list.ui. A list item's item is a
 * PgsRow, or in the tree a GtkTreeListRow of one; the row's "item" is the PgsProcess.
 */

#include "config.h"

#include <glib/gi18n.h>

#include "pgs-cell.h"
#include "pgs-growth.h"
#include "pgs-memory-notes.h"
#include "pgs-process-columns.h"
#include "pgs-sparkline.h"

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

static PgsRow *
row (gpointer  this,
     GObject  *item)
{
  return item != NULL ? g_object_ref (pgs_process_columns_get_row (item)) : NULL;
}

/* The name cells carry the tree's expanders; in the flat list they have no row. */
static GtkTreeListRow *
tree_row (gpointer  this,
          GObject  *item)
{
  return item != NULL && GTK_IS_TREE_LIST_ROW (item) ? g_object_ref (GTK_TREE_LIST_ROW (item)) : NULL;
}

static char *
display (gpointer    this,
         PgsProcess *process,
         const char *what)
{
  /* No cell watches a process's own properties: a snapshot's processes are freed in the
   * release thread (pgs-release.c), and a watch would be told there, off the main thread. */
  if (process == NULL)
    return NULL;
  if (g_str_equal (what, "pid"))
    return g_strdup_printf ("%d", pgs_process_get_pid (process));
  if (g_str_equal (what, "user"))
    return g_strdup (pgs_process_get_display_user (process));
  if (g_str_equal (what, "name"))
    return g_strdup (pgs_process_get_display_name (process));
  return g_strdup (pgs_process_get_display_cmdline (process));
}

static PgsMetric
metric_named (const char *name)
{
  static const char * const names[] = { "vss", "rss", "pss", "uss", "swap", "clean", "dirty",
                                        "shared", "private" };
  static const PgsMetric metrics[] = { PGS_METRIC_VSS, PGS_METRIC_RSS, PGS_METRIC_PSS,
                                       PGS_METRIC_USS, PGS_METRIC_SWAP, PGS_METRIC_CLEAN,
                                       PGS_METRIC_DIRTY, PGS_METRIC_SHARED, PGS_METRIC_PRIVATE };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    if (g_str_equal (names[i], name))
      return metrics[i];
  g_return_val_if_reached (0);
}

/* An unknown size says why; swap what it costs in RAM when it is zram. */
static char *
size_tip (gpointer    this,
          PgsProcess *process,
          const char *name,
          PgsUnits    units)
{
  PgsMetric metric = metric_named (name);
  const char *reason;

  if (process == NULL)
    return NULL;
  if (pgs_process_is_known (process, metric))
    return metric == PGS_METRIC_SWAP ? pgs_memory_notes_swap (process, units) : NULL;
  reason = pgs_process_get_unknown_reason (process);
  if (reason == NULL && (metric & PGS_METRIC_SPLIT))
    reason = _("Clean, dirty, shared and private come from the kernel’s smaps_rollup, which "
               "could not be read for this process (or the snapshot file does not keep them)");
  return g_strdup (reason != NULL && *reason ? reason : _("Unknown"));
}

/* PSS and USS are unknown for the processes the scan could only read the status of: such a
 * process sorts by what is known of it, its RSS (an upper bound of both), rather than to
 * the bottom where a large process would hide behind a row of "—". */
static guint64
known_or_rss (gpointer    this,
              PgsProcess *process,
              const char *name)
{
  PgsMetric metric = metric_named (name);

  if (pgs_process_is_known (process, metric))
    return pgs_process_get_metric (process, metric);
  if (pgs_process_is_known (process, PGS_METRIC_RSS))
    return pgs_process_get_metric (process, PGS_METRIC_RSS);
  return 0;
}

static char *
started (gpointer    this,
         PgsProcess *process,
         gint64      boot_time)
{
  g_autoptr(GDateTime) time = NULL;
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();
  gint64 seconds;

  if (process == NULL)
    return NULL;
  if (!pgs_process_get_started (process, boot_time, &seconds) ||
      (time = g_date_time_new_from_unix_local (seconds)) == NULL)
    return g_strdup (PGS_UNKNOWN_TEXT);
  /* Today: the time alone; before: the date too, both in the user's locale. */
  if (g_date_time_get_year (time) == g_date_time_get_year (now) &&
      g_date_time_get_day_of_year (time) == g_date_time_get_day_of_year (now))
    return g_date_time_format (time, "%X");
  return g_date_time_format (time, "%x %X");
}

static char *
started_tip (gpointer    this,
             PgsProcess *process,
             gint64      boot_time)
{
  gint64 seconds;

  if (process == NULL || pgs_process_get_started (process, boot_time, &seconds))
    return NULL;
  return g_strdup (_("The start time could not be read, or the snapshot was taken in another boot"));
}

/* Growth: the row's process over the range of the recording shown (pgs-growth.c computed
 * every process's at once; a cell only looks its own up). */
static const PgsGrowthEntry *
growth_entry (PgsProcess *process,
              PgsGrowth  *growth)
{
  /* A range of one sample (the live history's first, at launch) says nothing of growth:
   * unknown, not 0 B. */
  if (process == NULL || growth == NULL || pgs_growth_get_from (growth) == pgs_growth_get_to (growth))
    return NULL;
  return pgs_growth_lookup (growth, pgs_process_get_pid (process), pgs_process_get_start_time (process));
}

static char *
growth_text (gpointer    this,
             PgsProcess *process,
             PgsGrowth  *growth,
             PgsUnits    units)
{
  const PgsGrowthEntry *entry = growth_entry (process, growth);

  if (process == NULL)
    return NULL;
  return entry != NULL ? pgs_growth_format (entry, units) : g_strdup (PGS_UNKNOWN_TEXT);
}

static char *
growth_tip (gpointer    this,
            PgsProcess *process,
            PgsGrowth  *growth)
{
  const PgsGrowthEntry *entry = growth_entry (process, growth);
  g_autoptr(GString) tip = NULL;
  g_autofree char *span = NULL;
  guint seconds;

  if (process == NULL)
    return NULL;
  if (growth == NULL)
    return g_strdup (_("Working out the growth over the range…"));
  if (pgs_growth_get_from (growth) == pgs_growth_get_to (growth))
    return g_strdup (_("Growth needs two samples: the next refresh takes the second"));
  if (entry == NULL)
    return g_strdup (_("Not running at any sample of the range"));
  tip = g_string_new (NULL);
  /* The samples' numbers move as the live history drops its oldest: the time spanned too. */
  seconds = (guint) (pgs_growth_get_duration (growth) / G_USEC_PER_SEC);
  span = seconds >= 60 ? g_strdup_printf (_("%u min %02u s"), seconds / 60, seconds % 60)
                       : g_strdup_printf (_("%u s"), seconds);
  if (entry->flags & PGS_GROWTH_RSS)
    g_string_printf (tip, _("Change of RSS over %s, from sample %u to sample %u (its PSS could not be read)"),
                     span, pgs_growth_get_from (growth) + 1, pgs_growth_get_to (growth) + 1);
  else
    g_string_printf (tip, _("Change of PSS over %s, from sample %u to sample %u"),
                     span, pgs_growth_get_from (growth) + 1, pgs_growth_get_to (growth) + 1);
  if (entry->flags & PGS_GROWTH_NEW)
    g_string_append_printf (tip, "\n%s", _("Started after the first sample: counted from 0"));
  if (entry->flags & PGS_GROWTH_GONE)
    g_string_append_printf (tip, "\n%s", _("Ended before the last sample: counted to 0"));
  return g_string_free (g_steal_pointer (&tip), FALSE);
}

static GBytes *
growth_points (gpointer    this,
               PgsProcess *process,
               PgsGrowth  *growth)
{
  const PgsGrowthEntry *entry = growth_entry (process, growth);

  return entry != NULL ? pgs_growth_get_points (growth, entry) : NULL;
}

/* Signed, so that a descending sort puts the biggest growth first and the biggest shrink
 * last; a process without a figure (still being worked out) below both. */
static gint64
growth_sort (gpointer    this,
             PgsProcess *process,
             PgsGrowth  *growth)
{
  const PgsGrowthEntry *entry = growth_entry (process, growth);

  return entry != NULL ? entry->change : G_MININT64;
}

static gboolean
is_set (gpointer  this,
        GObject  *object)
{
  return object != NULL;
}

void
pgs_process_columns_class_add_callbacks (GtkWidgetClass *widget_class)
{
  g_type_ensure (PGS_TYPE_ROW);
  g_type_ensure (PGS_TYPE_PROCESS);
  g_type_ensure (PGS_TYPE_GROWTH);
  g_type_ensure (G_TYPE_BYTES);
  g_type_ensure (PGS_TYPE_SPARKLINE);
  pgs_cell_class_add_callbacks (widget_class);
  gtk_widget_class_bind_template_callback (widget_class, row);
  gtk_widget_class_bind_template_callback (widget_class, tree_row);
  gtk_widget_class_bind_template_callback (widget_class, display);
  gtk_widget_class_bind_template_callback (widget_class, size_tip);
  gtk_widget_class_bind_template_callback (widget_class, known_or_rss);
  gtk_widget_class_bind_template_callback (widget_class, started);
  gtk_widget_class_bind_template_callback (widget_class, started_tip);
  gtk_widget_class_bind_template_callback (widget_class, growth_text);
  gtk_widget_class_bind_template_callback (widget_class, growth_tip);
  gtk_widget_class_bind_template_callback (widget_class, growth_points);
  gtk_widget_class_bind_template_callback (widget_class, growth_sort);
  gtk_widget_class_bind_template_callback (widget_class, is_set);
}

gint64
pgs_process_columns_key (gpointer process)
{
  return pgs_process_get_pid (process);
}

/* Whether two processes of one PID show the same in every cell. */
gboolean
pgs_process_columns_equal (gpointer a,
                           gpointer b)
{
  return pgs_process_get_known (a) == pgs_process_get_known (b) &&
         pgs_process_get_ppid (a) == pgs_process_get_ppid (b) &&
         pgs_process_is_known (a, PGS_METRIC_SPLIT) == pgs_process_is_known (b, PGS_METRIC_SPLIT) &&
         pgs_process_get_metric (a, PGS_METRIC_CLEAN) == pgs_process_get_metric (b, PGS_METRIC_CLEAN) &&
         pgs_process_get_metric (a, PGS_METRIC_SHARED) == pgs_process_get_metric (b, PGS_METRIC_SHARED) &&
         pgs_process_get_start_time (a) == pgs_process_get_start_time (b) &&
         pgs_process_get_vss (a) == pgs_process_get_vss (b) &&
         pgs_process_get_rss (a) == pgs_process_get_rss (b) &&
         pgs_process_get_pss (a) == pgs_process_get_pss (b) &&
         pgs_process_get_uss (a) == pgs_process_get_uss (b) &&
         pgs_process_get_swap (a) == pgs_process_get_swap (b) &&
         g_strcmp0 (pgs_process_get_name (a), pgs_process_get_name (b)) == 0 &&
         g_strcmp0 (pgs_process_get_user (a), pgs_process_get_user (b)) == 0 &&
         g_strcmp0 (pgs_process_get_cmdline (a), pgs_process_get_cmdline (b)) == 0 &&
         g_strcmp0 (pgs_process_get_unknown_reason (a), pgs_process_get_unknown_reason (b)) == 0;
}
