/* pgs-cli-memrank.c: every process, ranked by PSS
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <glib/gi18n.h>

#include "pgs-cli.h"

static PgsMetric sort_metric;

/* Largest first; unknown values after every known one; then by PID. */
static int
compare_processes (gconstpointer a,
                   gconstpointer b)
{
  PgsProcess *pa = *(PgsProcess * const *) a;
  PgsProcess *pb = *(PgsProcess * const *) b;
  gboolean ka = pgs_process_is_known (pa, sort_metric);
  gboolean kb = pgs_process_is_known (pb, sort_metric);
  guint64 va, vb;

  if (ka != kb)
    return ka ? -1 : 1;
  va = sort_metric == PGS_METRIC_PSS ? pgs_process_get_pss_fixed (pa)
                                     : pgs_process_get_metric (pa, sort_metric);
  vb = sort_metric == PGS_METRIC_PSS ? pgs_process_get_pss_fixed (pb)
                                     : pgs_process_get_metric (pb, sort_metric);
  if (va != vb)
    return va > vb ? -1 : 1;
  return pgs_process_get_pid (pa) - pgs_process_get_pid (pb);
}

static void
print_human (PgsSnapshot *snapshot,
             GPtrArray   *matched,
             guint        limit,
             GString     *out)
{
  static const char *const headers[] = {
    N_("PID"), N_("USER"), N_("NAME"), N_("VSS"), N_("RSS"), N_("PSS"), N_("USS"), N_("SWAP"),
  };
  static const PgsMetric columns[] = {
    PGS_METRIC_VSS, PGS_METRIC_RSS, PGS_METRIC_PSS, PGS_METRIC_USS, PGS_METRIC_SWAP,
  };
  g_autoptr(PgsTable) table = pgs_table_new (8, headers, 0x6);
  g_autoptr(GHashTable) reasons = g_hash_table_new (g_str_hash, g_str_equal);
  guint64 totals[G_N_ELEMENTS (columns)] = { 0 };
  guint unknown[G_N_ELEMENTS (columns)] = { 0 };
  guint shown = MIN (limit, matched->len);

  for (guint i = 0; i < matched->len; i++)
    {
      PgsProcess *p = g_ptr_array_index (matched, i);

      for (guint k = 0; k < G_N_ELEMENTS (columns); k++)
        {
          if (!pgs_process_is_known (p, columns[k]))
            unknown[k]++;
          else
            totals[k] += columns[k] == PGS_METRIC_PSS ? pgs_process_get_pss_fixed (p)
                                                      : pgs_process_get_metric (p, columns[k]);
        }
      if (pgs_process_get_known (p) != PGS_METRIC_ALL && pgs_process_get_unknown_reason (p))
        g_hash_table_add (reasons, (gpointer) pgs_process_get_unknown_reason (p));

      if (i < shown)
        {
          char **row = g_new0 (char *, 9);

          row[0] = g_strdup_printf ("%d", pgs_process_get_pid (p));
          row[1] = g_strdup (pgs_process_get_user (p));
          row[2] = g_strdup (pgs_process_get_name (p));
          for (guint k = 0; k < G_N_ELEMENTS (columns); k++)
            row[3 + k] = pgs_cli_size_cell (pgs_process_is_known (p, columns[k]),
                                            pgs_process_get_metric (p, columns[k]));
          pgs_table_add_row (table, row);
        }
    }
  totals[2] >>= PGS_PSS_SHIFT;

  pgs_table_add_rule (table);
  {
    char **row = g_new0 (char *, 9);

    row[0] = g_strdup ("");
    row[1] = g_strdup (_("TOTAL"));
    row[2] = g_strdup_printf (ngettext ("%u process", "%u processes", matched->len), matched->len);
    for (guint k = 0; k < G_N_ELEMENTS (columns); k++)
      {
        g_autofree char *size = pgs_cli_size_cell (unknown[k] < matched->len, totals[k]);

        /* A sum that leaves processes out says so. */
        row[3 + k] = unknown[k] > 0 && unknown[k] < matched->len ? g_strconcat (size, "*", NULL)
                                                                  : g_steal_pointer (&size);
      }
    pgs_table_add_row (table, row);
  }

  pgs_table_print (table, out);

  if (shown < matched->len)
    g_string_append_printf (out, _("(%u more not shown; totals cover all %u)\n"),
                            matched->len - shown, matched->len);
  if (g_hash_table_size (reasons) > 0)
    {
      GHashTableIter iter;
      gpointer reason;

      g_string_append_printf (out, _("— unknown; * total of the known values only (%u of %u "
                                     "processes for PSS). Why:\n"),
                              matched->len - unknown[2], matched->len);
      g_hash_table_iter_init (&iter, reasons);
      while (g_hash_table_iter_next (&iter, &reason, NULL))
        {
          g_autofree char *shown = pgs_escape_for_terminal (reason, -1);

          g_string_append_printf (out, "  %s\n", shown);
        }
    }
}

int
pgs_cli_memrank (int    argc,
                 char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(PgsScanner) scanner = NULL;
  g_autoptr(PgsSnapshot) snapshot = NULL;
  g_autoptr(GPtrArray) matched = NULL;
  g_autoptr(GString) out = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *sort = NULL;
  g_autofree char *user = NULL;
  g_autofree char *limit_text = NULL;
  g_autofree char *group_by = NULL;
  g_auto(PgsCliCommon) common = { 0 };
  g_auto(PgsCliInstant) instant = { 0 };
  g_autofree char *snapshot_path = NULL;
  PgsOutput output;
  guint limit = G_MAXUINT;
  gint64 want_uid = -1;
  gboolean uid_unnamed = FALSE;
  int code;
  const GOptionEntry entries[] = {
    { "sort", 's', 0, G_OPTION_ARG_STRING, &sort, N_("Sort by pss (default), uss, rss, vss or swap"), N_("METRIC") },
    { "limit", 'n', 0, G_OPTION_ARG_STRING, &limit_text, N_("Show only the first N processes (0: the totals only)"), "N" },
    { "user", 'u', 0, G_OPTION_ARG_STRING, &user, N_("Only processes of this user (name or UID)"), N_("USER") },
    { "group-by", 'g', 0, G_OPTION_ARG_STRING, &group_by, N_("Sum the processes by user, cgroup, app or parent, with what each group alone maps (private)"), N_("KEY") },
    { "snapshot", 0, 0, G_OPTION_ARG_FILENAME, &snapshot_path, N_("Read this snapshot file instead of scanning"), N_("FILE") },
    { NULL }
  };

  context = g_option_context_new (_("[NAME…] — rank processes by PSS"));
  g_option_context_set_summary (context,
    _("Lists every process with its VSS, RSS, PSS (proportional set size: each page divided "
      "by the number of processes that map it), USS (pages mapped only by this process) and "
      "swap, largest PSS first. NAME filters on the process name (substring)."));
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
  if (group_by != NULL && !pgs_group_by_from_string (group_by, &(PgsGroupBy) { 0 }))
    {
      pgs_cli_error (_("--group-by takes user, cgroup, app or parent, not “%s”"), group_by);
      return PGS_EXIT_USAGE;
    }
  if (limit_text != NULL
      && !pgs_cli_parse_limit (limit_text,
                               _("--limit takes a number of processes, 0 or more, not “%s”"),
                               &limit))
    return PGS_EXIT_USAGE;
  if (user != NULL && !pgs_cli_parse_user (user, &want_uid, &uid_unnamed))
    return PGS_EXIT_USAGE;

  scanner = pgs_cli_scanner_new (&common);
  /* The private figure of a group compares frames: keep every process's. Totals alone
   * are the kernel's own smaps_rollup figures, exact and without a page walk. memrank shows
   * neither the host nor the kernel's counters, and compares with no other scan: neither
   * they nor the processes' start times are read. */
  pgs_scanner_set_flags (scanner, (group_by != NULL ? PGS_SCAN_PAGES : PGS_SCAN_KERNEL_TOTALS) |
                                  PGS_SCAN_NO_HOST_INFO | PGS_SCAN_NO_START_TIME);
  /* Read no more of the processes a filter leaves out than the test needs. An unnamed UID
   * must be seen running something, whatever its name: no name filter then. */
  pgs_scanner_set_filter (scanner, argc > 1 && !uid_unnamed ? (const char * const *) argv + 1 : NULL,
                          want_uid);
  snapshot = pgs_cli_scan_instant (scanner, snapshot_path, &instant, instant.at, group_by != NULL, &error);
  if (snapshot == NULL)
    {
      pgs_cli_error ("%s", error->message);
      return PGS_EXIT_FAILED;
    }

  /* A UID without a passwd entry is a user only while some process runs under it
   * (containers map such UIDs); otherwise it is a typo. */
  if (uid_unnamed)
    {
      gboolean seen = FALSE;

      for (guint i = 0; i < pgs_snapshot_get_n_processes (snapshot) && !seen; i++)
        seen = pgs_process_get_uid (pgs_snapshot_get_process (snapshot, i)) == (guint) want_uid;
      if (!seen)
        {
          pgs_cli_error (_("no such user “%s”"), user);
          return PGS_EXIT_USAGE;
        }
    }

  matched = g_ptr_array_new ();
  for (guint i = 0; i < pgs_snapshot_get_n_processes (snapshot); i++)
    {
      PgsProcess *p = pgs_snapshot_get_process (snapshot, i);
      gboolean name_ok = argc < 2;

      if (want_uid >= 0 && pgs_process_get_uid (p) != (guint) want_uid)
        continue;
      /* A name the snapshot does not have matches no filter. */
      for (int a = 1; a < argc && !name_ok && pgs_process_get_name (p) != NULL; a++)
        name_ok = strstr (pgs_process_get_name (p), argv[a]) != NULL;
      if (name_ok)
        g_ptr_array_add (matched, p);
    }
  g_ptr_array_sort (matched, compare_processes);

  code = pgs_cli_report_skipped (snapshot);

  if (group_by != NULL)
    pgs_cli_print_groups (snapshot, matched, group_by, sort_metric, output, limit, out);
  else switch (output)
    {
    case PGS_OUTPUT_HUMAN:
      print_human (snapshot, matched, limit, out);
      break;
    case PGS_OUTPUT_JSON:
    case PGS_OUTPUT_CSV:
      if (output == PGS_OUTPUT_JSON)
        pgs_report_memrank_json (out, snapshot, matched, limit);
      else
        {
          if (limit < matched->len)
            g_ptr_array_set_size (matched, limit);
          pgs_report_processes_csv (out, matched);
        }
      break;
    }

  pgs_cli_write (out);
  return code;
}
