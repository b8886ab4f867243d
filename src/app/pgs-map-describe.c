/* pgs-map-describe.c: what a map's cell is, in words
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The words of the tooltip, the status line and the page details: first what the colour
 * means, in the legend's own words, then the numbers.
 */

#include "config.h"

#include <glib/gi18n.h>

#include "pgs-kpage.h"
#include "pgs-map-describe.h"
#include "pgs-map-focus.h"
#include "pgs-map-folds.h"
#include "pgs-map-hover.h"
#include "pgs-pagemap.h"
#include "pgs-units.h"

static const char *
mapping_label (PgsProcess *process,
               guint       index,
               guint64    *start,
               guint64    *offset)
{
  GListModel *mappings = pgs_process_get_mappings (process);
  g_autoptr(PgsMapping) mapping = g_list_model_get_item (mappings, index);

  if (mapping == NULL)
    return NULL;
  *start = pgs_mapping_get_start (mapping);
  *offset = pgs_mapping_get_offset (mapping);
  /* The string lives in the process's mapping data, which outlives this call. */
  return pgs_mapping_get_display_label (mapping);
}

char *
pgs_map_describe_hit (PgsRenderer  *renderer,
                      PgsSnapshot  *snapshot,
                      PgsProcess   *process,
                      const PgsHit *hit)
{
  GString *text = g_string_new (NULL);
  g_autofree char *flags = NULL;
  guint64 pfn = 0;
  gboolean have_pfn = FALSE;

  /* First what the colour means, in the legend's own words, then the numbers. */
  if (renderer != NULL && hit->legend_index < pgs_renderer_get_n_legend_items (renderer))
    {
      const char *category = NULL;

      pgs_renderer_get_legend_item (renderer, hit->legend_index, NULL, &category, NULL);
      if (category != NULL)
        g_string_append (text, category);
    }

  /* The latest process: a hit carried over a refresh was looked up in it. */
  if (!hit->is_frame && process != NULL)
    {
      guint64 start = 0, offset = 0, page_size = pgs_snapshot_get_page_size (snapshot);
      const char *label = mapping_label (process, hit->mapping, &start, &offset);

      g_autofree char *address = pgs_units_format_hex (hit->address);

      g_string_append_c (text, '\n');
      g_string_append_printf (text, _("Address %s"), address);
      if (label != NULL)
        {
          g_autofree char *in_file =
            pgs_units_format_hex (offset + (hit->address - start) / page_size * page_size);

          g_string_append_printf (text, "\n%s\n", label);
          g_string_append_printf (text, _("Offset %s"), in_file);
        }
      if (pgs_pm_is_present (hit->entry))
        {
          pfn = pgs_pm_pfn (hit->entry);
          have_pfn = pfn != 0;
          g_string_append_c (text, '\n');
          g_string_append (text, (hit->entry & PGS_PM_FILE) ? _("Present, file or shared")
                                                             : _("Present, anonymous"));
        }
      else if (pgs_pm_is_swapped (hit->entry))
        {
          g_autofree char *swap_offset = pgs_units_format_hex (pgs_pm_swap_offset (hit->entry));

          g_string_append_c (text, '\n');
          g_string_append_printf (text, _("Swapped (type %u, offset %s)"),
                                  pgs_pm_swap_type (hit->entry), swap_offset);
        }
      else
        {
          g_string_append_c (text, '\n');
          g_string_append (text, _("Not present"));
        }
    }
  else if (hit->is_frame)
    {
      pfn = hit->pfn;
      have_pfn = TRUE;
    }

  if (have_pfn)
    {
      g_autofree char *frame = pgs_units_format_hex (pfn);

      g_string_append_c (text, '\n');
      g_string_append_printf (text, _("Frame %s"), frame);
    }
  else if (!hit->is_frame && pgs_pm_is_present (hit->entry))
    {
      g_string_append_c (text, '\n');
      g_string_append (text, _("Frame number hidden (needs root)"));
    }

  if (hit->count != G_MAXUINT32 /* PGS_COUNT_UNKNOWN */ &&
      (hit->is_frame || pgs_pm_is_present (hit->entry)))
    {
      g_string_append_c (text, '\n');
      g_string_append_printf (text, ngettext ("Mapped %'u time", "Mapped %'u times", hit->count),
                              hit->count);
    }

  if (hit->is_frame && pgs_category_get_description (hit->category) != NULL)
    g_string_append_printf (text, "\n%s", pgs_category_get_description (hit->category));

  if (hit->is_frame || have_pfn)
    {
      flags = pgs_kpageflags_to_string (hit->flags);
      if (flags != NULL && *flags)
        {
          g_string_append_c (text, '\n');
          g_string_append_printf (text, _("Flags: %s"), flags);
        }
    }

  if (hit->n_pages > 1)
    {
      g_autofree char *pages = pgs_units_format_count (hit->n_pages);

      g_string_append_c (text, '\n');
      g_string_append_printf (text, ngettext ("This pixel stands for %s page",
                                              "This pixel stands for %s pages",
                                              (gulong) MIN (hit->n_pages, G_MAXULONG)),
                              pages);
    }

  /* Lines were appended each with its newline first. */
  if (text->len > 0 && text->str[0] == '\n')
    g_string_erase (text, 0, 1);
  return g_string_free (text, FALSE);
}

char *
pgs_map_describe_at (PgsMapFolds       *folds,
                     const PgsMapShown *shown,
                     double             x,
                     double             y,
                     PgsSnapshot       *snapshot,
                     PgsProcess        *process,
                     PgsUnits           units)
{
  int fold = pgs_map_folds_at (folds, shown, x, y);
  PgsHit hit;

  if (fold >= 0)
    return pgs_map_folds_describe (folds, shown, fold, units);
  if (pgs_map_hit_test (shown, x, y, &hit) && hit.valid)
    return pgs_map_describe_hit (shown->renderer, snapshot, process, &hit);
  return NULL;
}

char *
pgs_map_describe_status (PgsMapFolds       *folds,
                         PgsMapHover       *hover,
                         PgsMapFocus       *focus,
                         const PgsMapShown *shown,
                         PgsSnapshot       *snapshot,
                         PgsProcess        *process,
                         PgsUnits           units)
{
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  PgsHit hit;
  double x, y;

  if (pgs_map_hover_get_point (hover, &x, &y))
    text = pgs_map_describe_at (folds, shown, x, y, snapshot, process, units);
  if (text == NULL && pgs_map_focus_get_cell (focus, &hit, NULL, NULL) &&
      shown->renderer != NULL)
    text = pgs_map_describe_hit (shown->renderer, snapshot, process, &hit);
  if (text == NULL)
    return g_strdup (_("Point at a cell, or focus the map and use the arrow keys, to read it here"));
  /* One line: the tooltip's lines side by side. */
  lines = g_strsplit (text, "\n", -1);
  return g_strjoinv (" · ", lines);
}
