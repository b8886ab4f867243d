/* pgs-cli-compare.c: pagescope-cli compare OLD NEW
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "pgs-cli.h"

static const struct { const char *name; PgsMetric metric; } compare_metrics[] = {
  { "rss", PGS_METRIC_RSS },
  { "pss", PGS_METRIC_PSS },
  { "uss", PGS_METRIC_USS },
  { "swap", PGS_METRIC_SWAP },
};

static const char *
status_name (PgsCompareStatus status)
{
  switch (status)
    {
    case PGS_COMPARE_GONE:
      return "gone";
    case PGS_COMPARE_NEW:
      return "new";
    case PGS_COMPARE_BOTH:
    default:
      return "both";
    }
}

/* A name for a terminal: control characters and invalid UTF-8 shown escaped, not sent. */
static char *
printable (const char *s)
{
  GString *out = g_string_new (NULL);

  if (s == NULL)
    return g_string_free (out, FALSE);
  while (*s != '\0')
    {
      gunichar c = g_utf8_get_char_validated (s, -1);

      if (c == (gunichar) -1 || c == (gunichar) -2)
        {
          g_string_append_printf (out, "\\x%02x", (guchar) *s);
          s++;
          continue;
        }
      if (g_unichar_iscntrl (c))
        g_string_append_printf (out, "\\x%02x", c);
      else
        g_string_append_unichar (out, c);
      s = g_utf8_next_char (s);
    }
  return g_string_free (out, FALSE);
}

static char *
signed_size (gint64 d)
{
  g_autofree char *abs = pgs_format_size (d < 0 ? -(guint64) d : (guint64) d);

  /* "0 B" as every other size is written, not a bare "0". */
  return d == 0 ? g_strdup (abs) : g_strdup_printf ("%c%s", d < 0 ? '-' : '+', abs);
}

static void
append_figures_json (GString    *out,
                     PgsProcess *p)
{
  if (p == NULL)
    {
      g_string_append (out, "null");
      return;
    }
  g_string_append_c (out, '{');
  for (guint i = 0; i < G_N_ELEMENTS (compare_metrics); i++)
    {
      g_string_append_printf (out, "%s\"%s\":", i > 0 ? "," : "", compare_metrics[i].name);
      pgs_json_append_size (out, pgs_process_is_known (p, compare_metrics[i].metric),
                            pgs_process_get_metric (p, compare_metrics[i].metric));
    }
  g_string_append_c (out, '}');
}

static void
append_snapshot_json (GString     *out,
                      PgsSnapshot *s)
{
  g_autoptr(GDateTime) time = g_date_time_new_from_unix_utc (pgs_snapshot_get_time (s) / G_USEC_PER_SEC);
  g_autofree char *iso = time != NULL ? g_date_time_format_iso8601 (time) : NULL;
  const char *local = pgs_snapshot_get_path (s);
  g_autofree char *path = local != NULL ? pgs_local_file_parse_name (local) : NULL;

  g_string_append (out, "{\"file\":");
  pgs_json_append_bytes (out, path);
  g_string_append (out, ",\"hostname\":");
  pgs_json_append_bytes (out, pgs_snapshot_get_hostname (s));
  g_string_append (out, ",\"kernel\":");
  pgs_json_append_bytes (out, pgs_snapshot_get_kernel_release (s));
  g_string_append (out, ",\"boot_id\":");
  pgs_json_append_bytes (out, pgs_snapshot_get_boot_id (s));
  g_string_append (out, ",\"time\":");
  pgs_json_append_string (out, iso);
  g_string_append_printf (out, ",\"privileged\":%s}", pgs_snapshot_is_privileged (s) ? "true" : "false");
}

/* Sums over the processes where a figure is known, as memrank's totals are; the change is
 * summed over the entries whose change is known. With @unknown, how many each leaves out. */
static guint64
total (PgsSnapshot *old_s,
       PgsSnapshot *new_s,
       GArray      *entries,
       guint        side,
       PgsMetric    metric,
       guint       *n_unknown)
{
  gint64 sum = 0;

  if (side == 0)
    return pgs_snapshot_get_total (old_s, metric, n_unknown);
  if (side == 1)
    return pgs_snapshot_get_total (new_s, metric, n_unknown);
  *n_unknown = 0;
  for (guint i = 0; i < entries->len; i++)
    {
      gint64 d;

      if (pgs_compare_entry_get_diff (&g_array_index (entries, PgsCompareEntry, i), metric, &d))
        sum += d;
      else
        (*n_unknown)++;
    }
  return (guint64) sum;
}

static void
append_totals_json (GString     *out,
                    PgsSnapshot *old_s,
                    PgsSnapshot *new_s,
                    GArray      *entries,
                    gboolean     unknown)
{
  static const char *const names[] = { "old", "new", "diff" };

  g_string_append_c (out, '{');
  for (guint side = 0; side < 3; side++)
    {
      g_string_append_printf (out, "%s\"%s\":{", side > 0 ? "," : "", names[side]);
      for (guint m = 0; m < G_N_ELEMENTS (compare_metrics); m++)
        {
          guint n_unknown;
          guint64 value = total (old_s, new_s, entries, side, compare_metrics[m].metric, &n_unknown);

          g_string_append_printf (out, "%s\"%s\":", m > 0 ? "," : "", compare_metrics[m].name);
          if (unknown)
            g_string_append_printf (out, "%u", n_unknown);
          else if (side == 2)
            g_string_append_printf (out, "%" G_GINT64_FORMAT, (gint64) value);
          else
            g_string_append_printf (out, "%" G_GUINT64_FORMAT, value);
        }
      g_string_append_c (out, '}');
    }
  g_string_append_c (out, '}');
}

static void
append_json (GString     *out,
             PgsSnapshot *old_s,
             PgsSnapshot *new_s,
             GArray      *entries,
             gboolean     reordered)
{
  g_string_append_printf (out, "{\"reordered\":%s,\"old_snapshot\":", reordered ? "true" : "false");
  append_snapshot_json (out, old_s);
  g_string_append (out, ",\"new_snapshot\":");
  append_snapshot_json (out, new_s);
  g_string_append (out, ",\"processes\":[");
  for (guint i = 0; i < entries->len; i++)
    {
      const PgsCompareEntry *e = &g_array_index (entries, PgsCompareEntry, i);
      PgsProcess *any = e->new_process != NULL ? e->new_process : e->old_process;

      g_string_append_printf (out, "%s\n{\"pid\":%d,\"name\":", i > 0 ? "," : "", e->pid);
      pgs_json_append_bytes (out, pgs_process_get_name (any));
      g_string_append_printf (out, ",\"status\":\"%s\",\"old\":", status_name (e->status));
      append_figures_json (out, e->old_process);
      g_string_append (out, ",\"new\":");
      append_figures_json (out, e->new_process);
      g_string_append (out, ",\"diff\":{");
      for (guint m = 0; m < G_N_ELEMENTS (compare_metrics); m++)
        {
          gint64 d;

          g_string_append_printf (out, "%s\"%s\":", m > 0 ? "," : "", compare_metrics[m].name);
          if (pgs_compare_entry_get_diff (e, compare_metrics[m].metric, &d))
            g_string_append_printf (out, "%" G_GINT64_FORMAT, d);
          else
            g_string_append (out, "null");
        }
      g_string_append (out, "}}");
    }
  g_string_append (out, "\n],\"totals\":");
  append_totals_json (out, old_s, new_s, entries, FALSE);
  g_string_append (out, ",\"totals_unknown\":");
  append_totals_json (out, old_s, new_s, entries, TRUE);
  g_string_append (out, "}\n");
}

static void
append_header (GString     *out,
               const char  *label,
               PgsSnapshot *s)
{
  g_autoptr(GDateTime) time = g_date_time_new_from_unix_local (pgs_snapshot_get_time (s) / G_USEC_PER_SEC);
  g_autofree char *when = time != NULL ? g_date_time_format (time, "%Y-%m-%d %H:%M:%S %Z") : g_strdup ("?");
  g_autofree char *host = printable (pgs_snapshot_get_hostname (s));
  g_autofree char *kernel = printable (pgs_snapshot_get_kernel_release (s));
  const char *local = pgs_snapshot_get_path (s);
  g_autofree char *path_raw = local != NULL ? pgs_local_file_parse_name (local) : NULL;
  g_autofree char *path = printable (path_raw);

  g_string_append_printf (out, _("%s: %s  host %s, kernel %s, %s%s\n"), label, path,
                          *host != '\0' ? host : "?", *kernel != '\0' ? kernel : "?", when,
                          pgs_snapshot_is_privileged (s) ? "" : _(", unprivileged"));
}

static char *
size_or_dash (PgsProcess *p,
              PgsMetric   metric)
{
  if (p == NULL)
    return g_strdup ("");
  return pgs_cli_size_cell (pgs_process_is_known (p, metric), pgs_process_get_metric (p, metric));
}

static char *
diff_cell (const PgsCompareEntry *e,
           PgsMetric              metric)
{
  gint64 d;

  if (!pgs_compare_entry_get_diff (e, metric, &d))
    return g_strdup ("—");
  return signed_size (d);
}

static void
append_human (GString     *out,
              PgsSnapshot *old_s,
              PgsSnapshot *new_s,
              GArray      *entries)
{
  static const char *const headers[] = {
    N_("PID"), N_("NAME"), N_("STATUS"), N_("OLD PSS"), N_("NEW PSS"), N_("ΔPSS"), N_("ΔRSS"),
    N_("ΔUSS"), N_("ΔSWAP"),
  };
  g_autoptr(PgsTable) table = pgs_table_new (G_N_ELEMENTS (headers), headers, (1 << 1) | (1 << 2));
  guint counts[3] = { 0 };
  gboolean partial = FALSE;

  append_header (out, _("old"), old_s);
  append_header (out, _("new"), new_s);
  if (g_strcmp0 (pgs_snapshot_get_boot_id (old_s), pgs_snapshot_get_boot_id (new_s)) != 0)
    g_string_append (out, _("(different boots: no process is in both)\n"));
  g_string_append_c (out, '\n');

  for (guint i = 0; i < entries->len; i++)
    {
      const PgsCompareEntry *e = &g_array_index (entries, PgsCompareEntry, i);
      PgsProcess *any = e->new_process != NULL ? e->new_process : e->old_process;
      char **row = g_new0 (char *, G_N_ELEMENTS (headers) + 1);

      counts[e->status]++;
      row[0] = g_strdup_printf ("%d", e->pid);
      row[1] = pgs_process_get_name (any) != NULL ? printable (pgs_process_get_name (any)) : NULL;
      row[2] = g_strdup (e->status == PGS_COMPARE_BOTH ? "" : status_name (e->status));
      row[3] = size_or_dash (e->old_process, PGS_METRIC_PSS);
      row[4] = size_or_dash (e->new_process, PGS_METRIC_PSS);
      row[5] = diff_cell (e, PGS_METRIC_PSS);
      row[6] = diff_cell (e, PGS_METRIC_RSS);
      row[7] = diff_cell (e, PGS_METRIC_USS);
      row[8] = diff_cell (e, PGS_METRIC_SWAP);
      pgs_table_add_row (table, row);
    }

  pgs_table_add_rule (table);
  {
    char **row = g_new0 (char *, G_N_ELEMENTS (headers) + 1);
    static const struct { guint side; PgsMetric metric; } cells[] = {
      { 0, PGS_METRIC_PSS }, { 1, PGS_METRIC_PSS }, { 2, PGS_METRIC_PSS }, { 2, PGS_METRIC_RSS },
      { 2, PGS_METRIC_USS }, { 2, PGS_METRIC_SWAP },
    };

    row[0] = g_strdup ("");
    row[1] = g_strdup (_("TOTAL"));
    row[2] = g_strdup_printf (_("%u gone, %u new"), counts[PGS_COMPARE_GONE], counts[PGS_COMPARE_NEW]);
    for (guint c = 0; c < G_N_ELEMENTS (cells); c++)
      {
        guint n_unknown;
        guint64 value = total (old_s, new_s, entries, cells[c].side, cells[c].metric, &n_unknown);
        g_autofree char *text = cells[c].side == 2 ? signed_size ((gint64) value) : pgs_format_size (value);

        /* A sum that leaves processes out says so, as memrank's totals do. */
        row[3 + c] = g_strdup_printf ("%s%s", text, n_unknown > 0 ? "*" : "");
        partial |= n_unknown > 0;
      }
    pgs_table_add_row (table, row);
  }
  pgs_table_print (table, out);
  if (strstr (out->str, "—") != NULL)
    g_string_append (out, _("— unknown: not measured in that snapshot (taken without root, or the "
                            "process was not readable; memrank --snapshot says why)\n"));
  if (partial)
    g_string_append (out, _("* total of the known values only\n"));
}

int
pgs_cli_compare (int    argc,
                 char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(PgsSnapshot) old_s = NULL;
  g_autoptr(PgsSnapshot) new_s = NULL;
  g_autoptr(GArray) entries = NULL;
  g_autoptr(GString) out = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  g_auto(PgsCliCommon) common = { 0 };
  g_auto(PgsCliInstant) instant = { 0 };
  gboolean reordered = FALSE;
  PgsOutput output;

  context = g_option_context_new (_("OLD NEW — compare two snapshot files"));
  g_option_context_set_summary (context,
    _("Lists the processes of two snapshots (pagescope-cli snapshot) with their old and new "
      "RSS, PSS, USS and swap and the change, largest PSS change first. OLD is the one "
      "captured first, whichever order the files are named in. A process is the same "
      "in both only with the same PID and start time: a PID reused by another process shows "
      "as one gone and one new."));
  pgs_cli_add_instant_options (context, &instant, TRUE);
  pgs_cli_add_common_options (context, &common);
  if (!pgs_cli_parse (context, &common, &argc, &argv, &output))
    return PGS_EXIT_USAGE;
  if (instant.recording != NULL && (argc != 1 || instant.from == NULL || instant.to == NULL))
    {
      pgs_cli_error ("%s", _("compare --recording FILE needs --from WHEN and --to WHEN, and no files"));
      return PGS_EXIT_USAGE;
    }
  if (instant.recording == NULL && argc != 3)
    {
      pgs_cli_error ("%s", _("compare needs two snapshot files, OLD and NEW"));
      return PGS_EXIT_USAGE;
    }
  if (output == PGS_OUTPUT_CSV)
    {
      pgs_cli_error ("%s", _("compare prints JSON or text, not CSV"));
      return PGS_EXIT_USAGE;
    }

  if (instant.recording != NULL)
    {
      old_s = pgs_cli_scan_instant (NULL, NULL, &instant, instant.from, FALSE, &error);
      if (old_s != NULL)
        new_s = pgs_cli_scan_instant (NULL, NULL, &instant, instant.to, FALSE, &error);
    }
  else
    {
      old_s = pgs_cli_scan (NULL, argv[1], &error);
      if (old_s != NULL)
        new_s = pgs_cli_scan (NULL, argv[2], &error);
    }
  if (new_s == NULL)
    {
      pgs_cli_error ("%s", error->message);
      return PGS_EXIT_FAILED;
    }

  /* OLD is the one captured first, whichever order the files were named in: the other way
   * round, what came shows as gone and what went as new. Said on stderr, and in the JSON. */
  if (pgs_snapshot_get_time (old_s) > 0 && pgs_snapshot_get_time (new_s) > 0 &&
      pgs_snapshot_get_time (new_s) < pgs_snapshot_get_time (old_s))
    {
      PgsSnapshot *earlier = g_steal_pointer (&new_s);

      new_s = g_steal_pointer (&old_s);
      old_s = earlier;
      reordered = TRUE;
      if (instant.recording != NULL)
        pgs_cli_error ("%s", _("--to is before --from: comparing in time order"));
      else
        pgs_cli_error (_("“%s” was captured before “%s”: comparing in capture order, “%s” as OLD"),
                       argv[2], argv[1], argv[2]);
    }

  entries = pgs_compare_snapshots (old_s, new_s);
  if (output == PGS_OUTPUT_JSON)
    append_json (out, old_s, new_s, entries, reordered);
  else
    append_human (out, old_s, new_s, entries);
  pgs_cli_write (out);
  return PGS_EXIT_OK;
}
