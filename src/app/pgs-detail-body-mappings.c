/* pgs-detail-body-mappings.c: the closures of the process detail's table of mappings
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The columns are declared in ui/pgs-detail-body.ui. A list item's item is a PgsRow
 * whose "item" is the PgsMapping; a cell's "page" is the detail (PgsProcessDetail), whose
 * "wss-sample" the Referenced cells read.
 */

#include "config.h"

#include <glib/gi18n.h>

#include "pgs-cell.h"
#include "pgs-detail-body-private.h"

/* The mapping's entry in @sample: the same VMA, not one that has since been split or
 * replaced at that address. */
static const PgsWssMapping *
lookup_wss_mapping (PgsWssSample *sample,
                    PgsMapping   *mapping)
{
  const PgsWssMapping *found;

  if (sample == NULL)
    return NULL;
  found = pgs_wss_sample_lookup_mapping (sample, pgs_mapping_get_start (mapping));
  if (found == NULL || found->start != pgs_mapping_get_start (mapping) ||
      found->end != pgs_mapping_get_end (mapping))
    return NULL;
  return found;
}

char *
_pgs_detail_body_referenced_text (PgsWssSample  *sample,
                                  PgsMapping    *mapping,
                                  PgsUnits       units,
                                  const char   **tooltip)
{
  const PgsWssMapping *found;

  if (sample == NULL)
    {
      *tooltip = _("Not measured: use Measure Working Set to see how much of this mapping "
                   "the process uses");
      return g_strdup (PGS_UNKNOWN_TEXT);
    }
  found = lookup_wss_mapping (sample, mapping);
  if (found == NULL)
    {
      *tooltip = _("Not in the last working-set sample: the mapping is new or has changed "
                   "since");
      return g_strdup (PGS_UNKNOWN_TEXT);
    }
  *tooltip = _("Bytes of this mapping the process touched during the last working-set "
               "sample (smaps “Referenced”)");
  return pgs_units_format (units, found->referenced);
}

/* The cells read a mapping through closures, never a property lookup: a mapping never
 * changes, and a lookup would watch it. A row's mapping is replaced without a notification
 * when it shows the same (pgs_row_store_assign()) and then finalized, in the release
 * thread, with the watch still connected: ui-memory's refreshes aborted in GLib's
 * invalid_closure_notify when the watch was later taken down. */
static char *
address (gpointer    this,
         PgsMapping *mapping)
{
  return mapping != NULL ? g_strdup_printf ("%012" G_GINT64_MODIFIER "x",
                                            pgs_mapping_get_start (mapping)) : NULL;
}

static char *
perms (gpointer    this,
       PgsMapping *mapping)
{
  return mapping != NULL ? g_strdup (pgs_mapping_get_perms (mapping)) : NULL;
}

/* Permissions sort in byte order, "r-xp" before "rw-p", which a GtkStringSorter's
 * collation would not keep: the four letters as one number. */
static guint
perms_key (gpointer    this,
           PgsMapping *mapping)
{
  const char *perms = mapping != NULL ? pgs_mapping_get_perms (mapping) : NULL;
  guint key = 0;

  for (guint i = 0; i < 4; i++)
    {
      key = key << 8 | (perms != NULL ? (guchar) *perms : 0);
      if (perms != NULL && *perms != '\0')
        perms++;
    }
  return key;
}

static char *
offset (gpointer    this,
        PgsMapping *mapping)
{
  return mapping != NULL ? g_strdup_printf ("%" G_GINT64_MODIFIER "x",
                                            pgs_mapping_get_offset (mapping)) : NULL;
}

static char *
display_label (gpointer    this,
               PgsMapping *mapping)
{
  return mapping != NULL ? g_strdup (pgs_mapping_get_display_label (mapping)) : NULL;
}

/* Only an unknown size has a tooltip: why, as the process says, when it says. The cell
 * is asked for its tooltip while it is shown, so inside the body. */
static char *
size_tip (gpointer    this,
          PgsMapping *mapping,
          const char *metric,
          GtkWidget  *cell)
{
  GtkWidget *body = cell != NULL ? gtk_widget_get_ancestor (cell, PGS_TYPE_DETAIL_BODY) : NULL;
  PgsDetailBody *self = body != NULL ? PGS_DETAIL_BODY (body) : NULL;
  const char *reason = NULL;

  if (mapping == NULL || pgs_mapping_is_known (mapping, pgs_cell_metric_named (metric)))
    return NULL;
  if (self != NULL && self->process != NULL)
    reason = pgs_process_get_unknown_reason (self->process);
  return g_strdup (reason != NULL ? reason : _("Not measured for this mapping"));
}

static char *
referenced (gpointer      this,
            PgsMapping   *mapping,
            PgsWssSample *sample,
            PgsUnits      units)
{
  const char *tooltip;

  return mapping != NULL ? _pgs_detail_body_referenced_text (sample, mapping, units, &tooltip)
                         : NULL;
}

static char *
referenced_tip (gpointer      this,
                PgsMapping   *mapping,
                PgsWssSample *sample)
{
  g_autofree char *text = NULL;
  const char *tooltip = NULL;

  if (mapping != NULL)
    text = _pgs_detail_body_referenced_text (sample, mapping, PGS_UNITS_IEC, &tooltip);
  return g_strdup (tooltip);
}

/* Referenced bytes as a sort key: unknown sorts below 0 B. */
static gint64
referenced_key (gpointer      this,
                PgsMapping   *mapping,
                PgsWssSample *sample)
{
  const PgsWssMapping *found = mapping != NULL ? lookup_wss_mapping (sample, mapping) : NULL;

  return found != NULL ? (gint64) (found->referenced >> 1) : -1;
}

void
_pgs_detail_body_class_add_mapping_callbacks (GtkWidgetClass *widget_class)
{
  pgs_cell_class_add_callbacks (widget_class);
  gtk_widget_class_bind_template_callback (widget_class, address);
  gtk_widget_class_bind_template_callback (widget_class, perms);
  gtk_widget_class_bind_template_callback (widget_class, perms_key);
  gtk_widget_class_bind_template_callback (widget_class, offset);
  gtk_widget_class_bind_template_callback (widget_class, display_label);
  gtk_widget_class_bind_template_callback (widget_class, size_tip);
  gtk_widget_class_bind_template_callback (widget_class, referenced);
  gtk_widget_class_bind_template_callback (widget_class, referenced_tip);
  gtk_widget_class_bind_template_callback (widget_class, referenced_key);
}

gboolean
_pgs_detail_body_mapping_equal (gpointer a,
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
