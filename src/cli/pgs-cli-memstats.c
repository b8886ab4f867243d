/* pgs-cli-memstats.c: one process explained, mapping by mapping
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "pgs-cli.h"

static PgsMetric sort_metric;

static int
compare_mappings (gconstpointer a,
                  gconstpointer b)
{
  PgsMapping *ma = *(PgsMapping * const *) a;
  PgsMapping *mb = *(PgsMapping * const *) b;
  gboolean ka = pgs_mapping_is_known (ma, sort_metric);
  gboolean kb = pgs_mapping_is_known (mb, sort_metric);
  guint64 va = pgs_mapping_get_metric (ma, sort_metric);
  guint64 vb = pgs_mapping_get_metric (mb, sort_metric);

  if (ka != kb)
    return ka ? -1 : 1;
  if (va != vb)
    return va > vb ? -1 : 1;
  return pgs_mapping_get_start (ma) < pgs_mapping_get_start (mb) ? -1 : 1;
}

static GPtrArray *
sorted_mappings (PgsProcess *p)
{
  GListModel *list = pgs_process_get_mappings (p);
  guint n = g_list_model_get_n_items (list);
  GPtrArray *sorted = g_ptr_array_new_full (n, g_object_unref);

  for (guint i = 0; i < n; i++)
    g_ptr_array_add (sorted, g_list_model_get_item (list, i));
  g_ptr_array_sort (sorted, compare_mappings);
  return sorted;
}

static void
print_process (PgsProcess *p,
               GString    *out)
{
  static const char *const summary_headers[] = { N_("VSS"), N_("RSS"), N_("PSS"), N_("USS"), N_("SWAP") };
  static const char *const headers[] = {
    N_("ADDRESS"), N_("PERMS"), N_("OFFSET"), N_("VSS"), N_("RSS"), N_("PSS"), N_("USS"),
    N_("SWAP"), N_("MAPPING"),
  };
  static const PgsMetric columns[] = {
    PGS_METRIC_VSS, PGS_METRIC_RSS, PGS_METRIC_PSS, PGS_METRIC_USS, PGS_METRIC_SWAP,
  };
  g_autoptr(PgsTable) summary = pgs_table_new (5, summary_headers, 0);
  g_autoptr(PgsTable) table = pgs_table_new (9, headers, 0x103);
  g_autoptr(GPtrArray) mappings = sorted_mappings (p);
  g_autofree char *name = NULL, *user = NULL, *cmdline = NULL;
  char **row;

  /* A snapshot from elsewhere may lack them: unknown, never shown as empty. */
  name = pgs_escape_for_terminal (pgs_process_get_name (p) ?: _("unknown"), -1);
  user = pgs_escape_for_terminal (pgs_process_get_user (p) ?: _("unknown"), -1);
  cmdline = pgs_escape_for_terminal (pgs_process_get_cmdline (p), -1);
  g_string_append_printf (out, _("PID %d  %s  user %s\n"), pgs_process_get_pid (p), name, user);
  if (*cmdline != '\0')
    g_string_append_printf (out, "  %s\n", cmdline);

  row = g_new0 (char *, 6);
  for (guint k = 0; k < G_N_ELEMENTS (columns); k++)
    row[k] = pgs_cli_size_cell (pgs_process_is_known (p, columns[k]),
                                pgs_process_get_metric (p, columns[k]));
  pgs_table_add_row (summary, row);
  pgs_table_print (summary, out);
  if (pgs_process_get_known (p) != PGS_METRIC_ALL)
    {
      g_autofree char *reason = pgs_escape_for_terminal (pgs_process_get_unknown_reason (p), -1);

      g_string_append_printf (out, _("— unknown: %s\n"), reason);
    }
  g_string_append_c (out, '\n');

  for (guint i = 0; i < mappings->len; i++)
    {
      PgsMapping *m = g_ptr_array_index (mappings, i);

      row = g_new0 (char *, 10);
      row[0] = g_strdup_printf ("%012" G_GINT64_MODIFIER "x-%012" G_GINT64_MODIFIER "x",
                                pgs_mapping_get_start (m), pgs_mapping_get_end (m));
      row[1] = g_strdup (pgs_mapping_get_perms (m));
      row[2] = g_strdup_printf ("%08" G_GINT64_MODIFIER "x", pgs_mapping_get_offset (m));
      for (guint k = 0; k < G_N_ELEMENTS (columns); k++)
        row[3 + k] = pgs_cli_size_cell (pgs_mapping_is_known (m, columns[k]),
                                        pgs_mapping_get_metric (m, columns[k]));
      row[8] = g_strdup (pgs_mapping_get_label (m));
      pgs_table_add_row (table, row);
    }
  pgs_table_print (table, out);
}

int
pgs_cli_memstats (int    argc,
                  char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(PgsScanner) scanner = NULL;
  g_autoptr(PgsSnapshot) snapshot = NULL;
  g_autoptr(GArray) pids = g_array_new (FALSE, FALSE, sizeof (int));
  g_autoptr(GPtrArray) found = g_ptr_array_new ();
  g_autoptr(GString) out = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *sort = NULL;
  g_auto(PgsCliCommon) common = { 0 };
  g_auto(PgsCliInstant) instant = { 0 };
  g_autofree char *snapshot_path = NULL;
  PgsOutput output;
  int code;
  const GOptionEntry entries[] = {
    { "sort", 's', 0, G_OPTION_ARG_STRING, &sort, N_("Sort mappings by pss (default), uss, rss, vss or swap"), N_("METRIC") },
    { "snapshot", 0, 0, G_OPTION_ARG_FILENAME, &snapshot_path, N_("Read this snapshot file instead of scanning"), N_("FILE") },
    { NULL }
  };

  context = g_option_context_new (_("PID… — explain the memory of processes"));
  g_option_context_set_summary (context,
    _("Shows the VSS, RSS, PSS, USS and swap of each process, then each of its mappings "
      "(address range, permissions, offset, file or [heap], [stack], [anon]…) with the same "
      "numbers, largest PSS first."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  pgs_cli_add_instant_options (context, &instant, FALSE);
  pgs_cli_add_common_options (context, &common);
  if (!pgs_cli_parse (context, &common, &argc, &argv, &output))
    return PGS_EXIT_USAGE;

  sort_metric = PGS_METRIC_PSS;
  if (sort != NULL && !pgs_cli_parse_metric (sort, &sort_metric))
    {
      pgs_cli_error (_("--sort takes pss, uss, rss, vss or swap, not “%s”"), sort);
      return PGS_EXIT_USAGE;
    }

  for (int i = 1; i < argc; i++)
    {
      int pid;

      /* GOption leaves a "--" that comes before an argument starting with "-". */
      if (g_str_equal (argv[i], "--"))
        continue;
      if (!pgs_cli_parse_pid (argv[i], &pid))
        {
          pgs_cli_error (_("“%s” is not a PID"), argv[i]);
          return PGS_EXIT_USAGE;
        }
      g_array_append_val (pids, pid);
    }
  if (pids->len == 0)
    {
      pgs_cli_error ("%s", _("memstats needs at least one PID"));
      return PGS_EXIT_USAGE;
    }

  scanner = pgs_cli_scanner_new (&common);
  pgs_scanner_set_flags (scanner, PGS_SCAN_MAPPINGS);
  pgs_scanner_set_pids (scanner, (const int *) (void *) pids->data, pids->len);
  snapshot = pgs_cli_scan_instant (scanner, snapshot_path, &instant, instant.at, TRUE, &error);
  if (snapshot == NULL)
    {
      pgs_cli_error ("%s", error->message);
      return PGS_EXIT_FAILED;
    }

  /* In the order asked for. */
  for (guint i = 0; i < pids->len; i++)
    {
      PgsProcess *p = pgs_snapshot_lookup_pid (snapshot, g_array_index (pids, int, i));

      if (p != NULL && !g_ptr_array_find (found, p, NULL))
        g_ptr_array_add (found, p);
      else if (p == NULL && snapshot_path != NULL)
        pgs_cli_error (_("PID %d is not in %s"), g_array_index (pids, int, i), snapshot_path);
    }

  /* Every PID named on the command line that is not reported is worth a non-zero exit. */
  code = pgs_cli_report_skipped (snapshot);
  if (pgs_snapshot_get_n_skipped (snapshot) > 0)
    code = PGS_EXIT_PARTIAL;
  if (found->len == 0)
    code = PGS_EXIT_FAILED;

  switch (output)
    {
    case PGS_OUTPUT_HUMAN:
      for (guint i = 0; i < found->len; i++)
        {
          if (i > 0)
            g_string_append_c (out, '\n');
          print_process (g_ptr_array_index (found, i), out);
        }
      break;
    case PGS_OUTPUT_JSON:
      pgs_report_memstats_json (out, snapshot, found);
      break;
    case PGS_OUTPUT_CSV:
      for (guint i = 0; i < found->len; i++)
        {
          PgsProcess *p = g_ptr_array_index (found, i);
          g_autoptr(GPtrArray) mappings = sorted_mappings (p);
          g_autoptr(GString) part = g_string_new (NULL);

          pgs_report_mappings_csv (part, p, mappings);
          /* One header for all processes. */
          g_string_append (out, i == 0 ? part->str : strchr (part->str, '\n') + 1);
        }
      break;
    }

  pgs_cli_write (out);
  return code;
}
