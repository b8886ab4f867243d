/* pgs-memory-notes.c
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The figures come from the library (pgs-zram.h, pgs-thp.h); this file reads them at most
 * once a second for the list's many tooltips and says what they mean. A process's RAM in
 * zram is an estimate (the kernel does not say how well its own pages compressed) and is
 * labelled so; the machine-wide figure is the devices' own and exact.
 */

#include "config.h"

#include <glib/gi18n.h>

#include "pgs-memory-notes.h"

#define MAX_AGE_US G_USEC_PER_SEC

static struct
{
  char        *procfs_root;
  char        *sysfs_root;
  PgsSwapCost *cost;
  gint64       read_at;
} notes;

void
pgs_memory_notes_set_roots (const char *procfs_root,
                            const char *sysfs_root)
{
  g_free (notes.procfs_root);
  g_free (notes.sysfs_root);
  notes.procfs_root = g_strdup (procfs_root);
  notes.sysfs_root = g_strdup (sysfs_root);
  g_clear_pointer (&notes.cost, pgs_swap_cost_free);
  notes.read_at = 0;
}

PgsSwapCost *
pgs_memory_notes_get_swap_cost (void)
{
  gint64 now = g_get_monotonic_time ();

  if (notes.read_at != 0 && now - notes.read_at < MAX_AGE_US)
    return notes.cost;
  g_clear_pointer (&notes.cost, pgs_swap_cost_free);
  notes.cost = pgs_swap_cost_read (notes.procfs_root, notes.sysfs_root, NULL);
  notes.read_at = now;
  return notes.cost;
}

char *
pgs_memory_notes_swap (PgsProcess *process,
                       PgsUnits    units)
{
  PgsSwapCost *cost;
  g_autofree char *swapped = NULL;
  g_autofree char *ram_text = NULL;
  const char *reason = NULL;
  guint64 swap, ram;

  g_return_val_if_fail (PGS_IS_PROCESS (process), NULL);

  if (!pgs_process_is_known (process, PGS_METRIC_SWAP) ||
      (swap = pgs_process_get_swap (process)) == 0)
    return NULL;
  swapped = pgs_units_format (units, swap);
  cost = pgs_memory_notes_get_swap_cost ();
  if (cost == NULL)
    /* Translators: %s is a size: "1.2 GiB swapped" */
    return g_strdup_printf (_("%s swapped"), swapped);
  if (cost->n_zram_swap == 0 && cost->n_other_swap > 0)
    /* Translators: %s is a size */
    return g_strdup_printf (_("%s swapped, to disk: it takes no RAM"), swapped);
  if (!pgs_swap_cost_estimate (cost, swap, &ram, &reason))
    {
      if (cost->n_zram_swap > 0 && cost->n_other_swap > 0)
        /* Translators: %s is a size */
        return g_strdup_printf (_("%s swapped, to zram and disk: its RAM cost cannot be told "
                                  "(which device holds its pages is not known)"), swapped);
      /* Translators: %s is a size */
      return g_strdup_printf (_("%s swapped; the RAM it takes is unknown"), swapped);
    }
  ram_text = pgs_units_format (units, ram);
  /* Translators: "1.2 GiB swapped, ≈ 410 MiB of RAM in zram (estimate: device ratio)": the
   * process's swap times the zram devices' RAM used over the data they hold */
  return g_strdup_printf (_("%s swapped, ≈ %s of RAM in zram (estimate: device ratio)"),
                          swapped, ram_text);
}

char *
pgs_memory_notes_thp (PgsProcess *process,
                      PgsPhysMap *physmap,
                      PgsUnits    units)
{
  g_autoptr(GString) text = g_string_new (NULL);
  guint64 rollup, frames;
  gboolean rollup_known, frames_known;

  g_return_val_if_fail (PGS_IS_PROCESS (process), NULL);

  rollup_known = pgs_process_get_thp_total (process, &rollup);
  frames_known = pgs_process_count_thp_pages (process, physmap, &frames);
  if (!rollup_known && !frames_known)
    return NULL;

  g_string_append (text, _("Transparent huge pages:"));
  if (rollup_known)
    {
      g_autofree char *size = pgs_units_format (units, rollup);

      /* Translators: after "Transparent huge pages:"; %s is a size */
      g_string_append_printf (text, _(" %s mapped whole (smaps_rollup)"), size);
    }
  if (frames_known)
    {
      g_autofree char *size = pgs_units_format (units, frames);

      if (rollup_known)
        g_string_append (text, " ·");
      /* Translators: after "Transparent huge pages:"; %s is a size */
      g_string_append_printf (text, _(" %s of its pages in THP or large-folio frames, mapped whole or in pieces (kpageflags)"), size);
    }
  return g_string_free (g_steal_pointer (&text), FALSE);
}

char *
pgs_memory_notes_system_swap (PgsUnits units)
{
  PgsSwapCost *cost = pgs_memory_notes_get_swap_cost ();
  g_autofree char *orig = NULL;
  g_autofree char *used = NULL;

  if (cost == NULL || cost->n_zram_swap == 0)
    return NULL;
  orig = pgs_units_format (units, cost->zram_orig);
  used = pgs_units_format (units, cost->zram_used);
  /* Translators: "zram: 1.5 GiB of swap in 500 MiB of RAM (exact, mm_stat)" */
  return g_strdup_printf (_("zram: %s of swap in %s of RAM (exact, mm_stat)"), orig, used);
}

void
pgs_memory_notes_fill_label (GtkLabel   *label,
                             PgsProcess *process,
                             PgsPhysMap *physmap,
                             PgsUnits    units)
{
  g_autofree char *swap = process ? pgs_memory_notes_swap (process, units) : NULL;
  g_autofree char *thp = process ? pgs_memory_notes_thp (process, physmap, units) : NULL;
  g_autofree char *text = g_strjoin ("\n", swap ? swap : thp, swap ? thp : NULL, NULL);

  gtk_label_set_text (label, text ? text : "");
  gtk_widget_set_visible (GTK_WIDGET (label), text != NULL && *text != '\0');
}
