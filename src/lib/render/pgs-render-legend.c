/* pgs-render-legend.c: the legend's lines for the highlight and the kernel's counters
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Kept apart from pgs-render.c (which only places these lines) so that the PNG legend and
 * the app's legend say the same thing from one function.
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "pgs-meminfo.h"
#include "pgs-physmap.h"
#include "pgs-render-legend.h"
#include "pgs-render-private.h"
#include "pgs-snapshot.h"

/* A set of frames (a file's) highlighted in place of the process's. */
static char *
describe_frames (PgsRenderer *self,
                 gboolean    *marked)
{
  const char *name = self->highlight_name;

  pgs_render_prepare (self);
  if (!self->highlighted)
    /* Translators: legend of a physical map, "No frames of libc.so.6 in this map" */
    return g_strdup_printf (_("No frames of %s in this map"), name);
  if (marked != NULL)
    *marked = TRUE;
  if (self->highlight_mode == PGS_HIGHLIGHT_OVERLAY)
    /* Translators: legend of a physical map beside a swatch of the highlight colour */
    return g_strdup_printf (_("Filled: frames of %s"), name);
  /* Translators: legend of a physical map beside an outlined swatch */
  return g_strdup_printf (_("Outlined: frames of %s"), name);
}

char *
pgs_renderer_describe_highlight (PgsRenderer *self,
                                 gboolean    *marked)
{
  const char *name;
  int pid;

  g_return_val_if_fail (PGS_IS_RENDERER (self), NULL);

  if (marked != NULL)
    *marked = FALSE;
  if (self->view == PGS_VIEW_RESIDENCY)
    return NULL;
  if (self->highlight != NULL)
    return describe_frames (self, marked);
  if (self->process == NULL)
    return NULL;
  pgs_render_prepare (self);
  name = pgs_process_get_display_name (self->process);
  pid = pgs_process_get_pid (self->process);
  if (!self->highlighted)
    /* Translators: legend of a physical map, "No frames of firefox (PID 123) in this map" */
    return g_strdup_printf (_("No frames of %s (PID %d) in this map"), name, pid);
  if (marked != NULL)
    *marked = TRUE;
  if (self->highlight_mode == PGS_HIGHLIGHT_OVERLAY)
    /* Translators: legend of a physical map beside a swatch of the highlight colour */
    return g_strdup_printf (_("Filled: frames of %s (PID %d)"), name, pid);
  /* Translators: legend of a physical map beside an outlined swatch */
  return g_strdup_printf (_("Outlined: frames of %s (PID %d)"), name, pid);
}

GPtrArray *
pgs_renderer_get_counter_lines (PgsRenderer *self)
{
  GPtrArray *lines = g_ptr_array_new_with_free_func (g_free);
  PgsSnapshot *snapshot;
  PgsPhysMap *physmap;
  const PgsMeminfo *meminfo;
  guint64 counts[PGS_N_CATEGORIES] = { 0 };
  guint page_size;

  g_return_val_if_fail (PGS_IS_RENDERER (self), lines);

  if (pgs_renderer_get_view (self) != PGS_VIEW_FLAGS)
    return lines;
  snapshot = pgs_renderer_get_snapshot (self);
  physmap = snapshot != NULL ? pgs_snapshot_get_physmap (snapshot) : NULL;
  if (physmap == NULL)
    return lines;

  meminfo = pgs_physmap_get_meminfo (physmap);
  if (meminfo == NULL)
    {
      g_ptr_array_add (lines, g_strdup (_("Kernel counters unavailable (no /proc/meminfo "
                                          "with this map): nothing reconciled")));
      return lines;
    }

  page_size = pgs_snapshot_get_page_size (snapshot);
  if (page_size == 0)
    page_size = 4096;
  for (guint c = 0; c < PGS_N_CATEGORIES; c++)
    pgs_renderer_get_legend_item (self, c, NULL, NULL, &counts[c]);

  g_ptr_array_add (lines, g_strdup (_("The kernel's counters (/proc/meminfo) · this map:")));
  for (guint k = 0; k < PGS_N_COUNTERS; k++)
    {
      PgsCounterRow row;

      pgs_counter_get_row (k, meminfo, counts, page_size, &row);
      /* A counter the kernel has and the map cannot show anyway (no HugeTLB pool) is
       * noise; an unknown one is said to be unknown. */
      if (k == PGS_COUNTER_HUGETLB && row.has_kernel && row.kernel_bytes == 0 &&
          row.map_bytes == 0)
        continue;
      g_ptr_array_add (lines, pgs_counter_format_row (&row));
    }
  return lines;
}

static double
text_width (cairo_t    *cr,
            const char *text)
{
  cairo_text_extents_t ext;

  cairo_text_extents (cr, text, &ext);
  return ext.x_advance;
}

GPtrArray *
pgs_render_legend_counters (PgsRenderer *self,
                            cairo_t     *measure,
                            double      *legend_w)
{
  g_autoptr(GPtrArray) raw = pgs_renderer_get_counter_lines (self);
  GPtrArray *out = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < raw->len; i++)
    *legend_w = MAX (*legend_w, MIN (420, text_width (measure, g_ptr_array_index (raw, i))));

  /* Word wrap; continuation lines indented. */
  for (guint i = 0; i < raw->len; i++)
    {
      g_auto(GStrv) words = g_strsplit (g_ptr_array_index (raw, i), " ", -1);
      GString *line = g_string_new (NULL);

      for (guint w = 0; words[w] != NULL; w++)
        {
          gsize old = line->len;

          if (line->len > 0)
            g_string_append_c (line, ' ');
          g_string_append (line, words[w]);
          if (old > 0 && text_width (measure, line->str) > *legend_w)
            {
              g_string_truncate (line, old);
              g_ptr_array_add (out, g_strdup (line->str));
              g_string_printf (line, "    %s", words[w]);
            }
        }
      g_ptr_array_add (out, g_string_free (line, FALSE));
    }

  for (guint i = 0; i < out->len; i++)
    *legend_w = MAX (*legend_w, text_width (measure, g_ptr_array_index (out, i)));
  return out;
}
