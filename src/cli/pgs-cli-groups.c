/* pgs-cli-groups.c: memrank --group-by
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "pgs-cli.h"

static void
print_groups_human (GPtrArray *groups,
                    guint      n_processes,
                    guint      limit,
                    GString   *out)
{
  static const char *const headers[] = {
    N_("GROUP"), N_("PROCS"), N_("VSS"), N_("RSS"), N_("PSS"), N_("USS"), N_("PRIVATE"),
    N_("SWAP"),
  };
  g_autoptr(PgsTable) table = pgs_table_new (8, headers, 0x1);
  g_autoptr(GHashTable) reasons = g_hash_table_new (g_str_hash, g_str_equal);
  /* vss, rss, pss (fixed point), uss, private, swap */
  guint64 totals[6] = { 0 };
  guint unknown[6] = { 0 };
  gboolean any_known[6] = { FALSE };
  guint shown = MIN (limit, groups->len);

  for (guint i = 0; i < groups->len; i++)
    {
      const PgsGroup *g = g_ptr_array_index (groups, i);
      const gboolean known[6] = {
        g->known & PGS_METRIC_VSS, g->known & PGS_METRIC_RSS, g->known & PGS_METRIC_PSS,
        g->known & PGS_METRIC_USS, g->private_known, g->known & PGS_METRIC_SWAP,
      };
      const guint64 values[6] = { g->vss, g->rss, g->pss_fp, g->uss, g->private_bytes, g->swap };

      /* Groups partition the processes, and a frame private to one group is private to no
       * other: every column adds up across groups, private included. A group's sums cover
       * its members with the figure known, so the totals cover every such process. */
      for (guint k = 0; k < 6; k++)
        {
          totals[k] += values[k];
          if (!known[k])
            unknown[k]++;
          any_known[k] |= known[k] || (k != 4 && g->n_partial < g->processes->len) ||
                          (k == 4 && g->private_at_least);
        }
      if (g->known != PGS_METRIC_ALL && g->unknown_reason != NULL)
        g_hash_table_add (reasons, (gpointer) g->unknown_reason);
      if (!g->private_known && g->private_reason != NULL)
        g_hash_table_add (reasons, (gpointer) g->private_reason);

      if (i < shown)
        {
          char **row = g_new0 (char *, 9);

          row[0] = g_strdup (g->name);
          row[1] = g_strdup_printf ("%u", g->processes->len);
          for (guint k = 0; k < 6; k++)
            {
              guint64 v = k == 2 ? values[k] >> PGS_PSS_SHIFT : values[k];

              /* A sum over some of the members (the others' unknown) says so, as the totals
               * do; so does a private figure from some members' frames (a lower bound). */
              if (!known[k] && (k == 4 ? g->private_at_least
                                       : g->n_partial < g->processes->len))
                {
                  g_autofree char *size = pgs_format_size (v);

                  row[2 + k] = g_strconcat (size, "*", NULL);
                }
              else
                row[2 + k] = pgs_cli_size_cell (known[k], v);
            }
          pgs_table_add_row (table, row);
        }
    }
  totals[2] >>= PGS_PSS_SHIFT;

  pgs_table_add_rule (table);
  {
    char **row = g_new0 (char *, 9);

    row[0] = g_strdup_printf (ngettext ("TOTAL (%u group)", "TOTAL (%u groups)", groups->len),
                              groups->len);
    row[1] = g_strdup_printf ("%u", n_processes);
    for (guint k = 0; k < 6; k++)
      {
        g_autofree char *size = pgs_cli_size_cell (any_known[k], totals[k]);

        row[2 + k] = unknown[k] > 0 && any_known[k] ? g_strconcat (size, "*", NULL)
                                                    : g_steal_pointer (&size);
      }
    pgs_table_add_row (table, row);
  }
  pgs_table_print (table, out);

  if (shown < groups->len)
    g_string_append_printf (out, _("(%u more groups not shown; totals cover all %u)\n"),
                            groups->len - shown, groups->len);
  g_string_append (out, _("PRIVATE: memory mapped by no process outside the group, what ending "
                          "the whole group would free.\n"));
  if (g_hash_table_size (reasons) > 0)
    {
      GHashTableIter iter;
      gpointer reason;

      g_string_append (out, _("— unknown; * sum of the known values only. Why:\n"));
      g_hash_table_iter_init (&iter, reasons);
      while (g_hash_table_iter_next (&iter, &reason, NULL))
        {
          g_autofree char *shown_reason = pgs_escape_for_terminal (reason, -1);

          g_string_append_printf (out, "  %s\n", shown_reason);
        }
    }
}

void
pgs_cli_print_groups (PgsSnapshot *snapshot,
                      GPtrArray   *processes,
                      const char  *group_by,
                      PgsMetric    sort,
                      PgsOutput    output,
                      guint        limit,
                      GString     *out)
{
  g_autoptr(GPtrArray) groups = NULL;
  PgsGroupBy by;

  if (!pgs_group_by_from_string (group_by, &by))
    g_assert_not_reached ();
  groups = pgs_group_processes (snapshot, processes, by);
  pgs_group_sort (groups, sort);

  switch (output)
    {
    case PGS_OUTPUT_HUMAN:
      print_groups_human (groups, processes->len, limit, out);
      break;
    case PGS_OUTPUT_JSON:
      if (limit < groups->len)
        g_ptr_array_set_size (groups, limit);
      pgs_report_groups_json (out, snapshot, group_by, groups);
      break;
    case PGS_OUTPUT_CSV:
      if (limit < groups->len)
        g_ptr_array_set_size (groups, limit);
      pgs_report_groups_csv (out, groups);
      break;
    }
}
