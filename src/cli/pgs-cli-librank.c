/* pgs-cli-librank.c: every mapped file, ranked by the PSS of its mappings
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"


#include <glib/gi18n.h>

#include "pgs-cli.h"

static void
print_human (GPtrArray *files,
             guint      n_processes,
             guint      n_unmapped,
             guint      limit,
             GString   *out)
{
  static const char *const headers[] = {
    N_("PROCS"), N_("VSS"), N_("RSS"), N_("PSS"), N_("USS"), N_("SWAP"), N_("PATH"),
  };
  static const PgsMetric columns[] = {
    PGS_METRIC_VSS, PGS_METRIC_RSS, PGS_METRIC_PSS, PGS_METRIC_USS, PGS_METRIC_SWAP,
  };
  g_autoptr(PgsTable) table = pgs_table_new (7, headers, 1 << 6);
  guint64 totals[G_N_ELEMENTS (columns)] = { 0 };
  guint unknown[G_N_ELEMENTS (columns)] = { 0 };
  guint shown = MIN (limit, files->len);

  for (guint i = 0; i < files->len; i++)
    {
      const PgsLibFile *f = g_ptr_array_index (files, i);
      const guint64 values[] = { f->vss, f->rss, f->pss_fp, f->uss, f->swap };

      for (guint k = 0; k < G_N_ELEMENTS (columns); k++)
        {
          if (f->known & columns[k])
            totals[k] += values[k];
          else
            unknown[k]++;
        }
      if (i < shown)
        {
          char **row = g_new0 (char *, 8);

          row[0] = g_strdup_printf ("%u", f->pids->len);
          for (guint k = 0; k < G_N_ELEMENTS (columns); k++)
            row[1 + k] = pgs_cli_size_cell ((f->known & columns[k]) != 0,
                                            columns[k] == PGS_METRIC_PSS
                                              ? values[k] >> PGS_PSS_SHIFT : values[k]);
          row[6] = g_strdup (f->path);
          pgs_table_add_row (table, row);
        }
    }
  totals[2] >>= PGS_PSS_SHIFT;

  pgs_table_add_rule (table);
  {
    char **row = g_new0 (char *, 8);

    row[0] = g_strdup_printf ("%u", n_processes - n_unmapped);
    for (guint k = 0; k < G_N_ELEMENTS (columns); k++)
      {
        g_autofree char *size = pgs_cli_size_cell (unknown[k] < files->len, totals[k]);

        row[1 + k] = unknown[k] > 0 && unknown[k] < files->len ? g_strconcat (size, "*", NULL)
                                                                : g_steal_pointer (&size);
      }
    row[6] = g_strdup_printf (ngettext ("TOTAL (%u file)", "TOTAL (%u files)", files->len),
                              files->len);
    pgs_table_add_row (table, row);
  }
  pgs_table_print (table, out);

  if (shown < files->len)
    g_string_append_printf (out, _("(%u more not shown; totals cover all %u)\n"),
                            files->len - shown, files->len);
  if (unknown[2] > 0)
    g_string_append (out, _("— unknown (the kernel's smaps could not be read); * total of the "
                            "known values only\n"));
  if (n_unmapped > 0)
    g_string_append_printf (out, ngettext ("%u process is left out: its mappings are not "
                                           "readable (another user's; run as root)\n",
                                           "%u processes are left out: their mappings are not "
                                           "readable (another user's; run as root)\n",
                                           n_unmapped), n_unmapped);
}

int
pgs_cli_librank (int    argc,
                 char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(PgsScanner) scanner = NULL;
  g_autoptr(PgsSnapshot) snapshot = NULL;
  g_autoptr(GPtrArray) matched = NULL;
  g_autoptr(GPtrArray) files = NULL;
  g_autoptr(GArray) pids = g_array_new (FALSE, FALSE, sizeof (int));
  g_autoptr(GString) out = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) pid_texts = NULL;
  g_autofree char *user = NULL;
  g_autofree char *limit_text = NULL;
  g_auto(PgsCliCommon) common = { 0 };
  PgsOutput output;
  guint limit = G_MAXUINT;
  guint n_unmapped = 0;
  gint64 want_uid = -1;
  int code;
  const GOptionEntry entries[] = {
    { "pid", 'p', 0, G_OPTION_ARG_STRING_ARRAY, &pid_texts, N_("Only the files this process maps (repeatable)"), N_("PID") },
    { "user", 'u', 0, G_OPTION_ARG_STRING, &user, N_("Only processes of this user (name or UID)"), N_("USER") },
    { "limit", 'n', 0, G_OPTION_ARG_STRING, &limit_text, N_("Show only the first N files"), "N" },
    { NULL }
  };

  context = g_option_context_new (_("— rank mapped files by PSS"));
  g_option_context_set_summary (context,
    _("Lists every mapped file (libraries, executables, fonts, data files, shared memory) with "
      "the number of processes that map it and the sums of their VSS, RSS, PSS, USS and swap "
      "for it (the sums of the kernel's smaps entries for that path), largest PSS first."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  pgs_cli_add_common_options (context, &common);
  if (!pgs_cli_parse (context, &common, &argc, &argv, &output))
    return PGS_EXIT_USAGE;
  if (argc > 1)
    {
      pgs_cli_error (_("librank takes no arguments, not “%s” (use --pid)"), argv[1]);
      return PGS_EXIT_USAGE;
    }
  for (guint i = 0; pid_texts != NULL && pid_texts[i] != NULL; i++)
    {
      int pid;

      if (!pgs_cli_parse_pid (pid_texts[i], &pid))
        {
          pgs_cli_error (_("--pid takes a process ID, not “%s”"), pid_texts[i]);
          return PGS_EXIT_USAGE;
        }
      g_array_append_val (pids, pid);
    }
  if (limit_text != NULL
      && !pgs_cli_parse_limit (limit_text, _("--limit takes a number of files, 0 or more, not “%s”"),
                               &limit))
    return PGS_EXIT_USAGE;
  if (user != NULL && !pgs_cli_parse_user (user, &want_uid, NULL))
    return PGS_EXIT_USAGE;

  scanner = pgs_cli_scanner_new (&common);
  pgs_scanner_set_flags (scanner, PGS_SCAN_MAPPINGS);
  if (pids->len > 0)
    pgs_scanner_set_pids (scanner, (const int *) (void *) pids->data, pids->len);
  snapshot = pgs_scanner_scan (scanner, NULL, &error);
  if (snapshot == NULL)
    {
      pgs_cli_error ("%s", error->message);
      return PGS_EXIT_FAILED;
    }
  code = pgs_cli_report_skipped (snapshot);

  matched = g_ptr_array_new ();
  for (guint i = 0; i < pgs_snapshot_get_n_processes (snapshot); i++)
    {
      PgsProcess *p = pgs_snapshot_get_process (snapshot, i);

      if (want_uid < 0 || pgs_process_get_uid (p) == (guint) want_uid)
        g_ptr_array_add (matched, p);
    }
  files = pgs_librank (matched, &n_unmapped);

  switch (output)
    {
    case PGS_OUTPUT_HUMAN:
      print_human (files, matched->len, n_unmapped, limit, out);
      break;
    case PGS_OUTPUT_JSON:
    case PGS_OUTPUT_CSV:
      if (limit < files->len)
        g_ptr_array_set_size (files, limit);
      if (output == PGS_OUTPUT_JSON)
        pgs_report_librank_json (out, snapshot, files, n_unmapped);
      else
        pgs_report_librank_csv (out, files);
      break;
    }

  pgs_cli_write (out);
  if (n_unmapped > 0 && code == PGS_EXIT_OK && pids->len > 0)
    code = PGS_EXIT_PARTIAL;
  return code;
}
