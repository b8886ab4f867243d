/* pgs-report.c
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "pgs-mapping.h"
#include "pgs-process.h"
#include "pgs-report.h"
#include "pgs-snapshot.h"

static const struct {
  const char *name;
  PgsMetric   metric;
} metrics[] = {
  { "vss", PGS_METRIC_VSS },
  { "rss", PGS_METRIC_RSS },
  { "pss", PGS_METRIC_PSS },
  { "uss", PGS_METRIC_USS },
  { "swap", PGS_METRIC_SWAP },
};

const char *const pgs_report_process_columns[] = {
  "pid", "ppid", "uid", "user", "name", "vss", "rss", "pss", "uss", "swap", "unknown_reason",
  "cmdline", NULL
};

void
pgs_json_append_string (GString    *out,
                        const char *str)
{
  if (str == NULL)
    {
      g_string_append (out, "null");
      return;
    }

  g_string_append_c (out, '"');
  for (const guchar *p = (const guchar *) str; *p; p++)
    {
      switch (*p)
        {
        case '"':
          g_string_append (out, "\\\"");
          break;
        case '\\':
          g_string_append (out, "\\\\");
          break;
        case '\n':
          g_string_append (out, "\\n");
          break;
        case '\t':
          g_string_append (out, "\\t");
          break;
        case '\r':
          g_string_append (out, "\\r");
          break;
        default:
          if (*p < 0x20)
            g_string_append_printf (out, "\\u%04x", *p);
          else
            g_string_append_c (out, *p);
        }
    }
  g_string_append_c (out, '"');
}

/* Command lines and paths are bytes, not always UTF-8: JSON must be. */
void
pgs_json_append_bytes (GString    *out,
                       const char *str)
{
  g_autofree char *valid = NULL;

  if (str != NULL && !g_utf8_validate (str, -1, NULL))
    str = valid = g_utf8_make_valid (str, -1);
  pgs_json_append_string (out, str);
}

void
pgs_json_append_size (GString  *out,
                      gboolean  known,
                      guint64   value)
{
  if (known)
    g_string_append_printf (out, "%" G_GUINT64_FORMAT, value);
  else
    g_string_append (out, "null");
}

static const char *
source_name (PgsSource source)
{
  switch (source)
    {
    case PGS_SOURCE_PAGES:
      return "pagemap";
    case PGS_SOURCE_KERNEL:
      return "smaps_rollup";
    case PGS_SOURCE_STATUS:
      return "status";
    case PGS_SOURCE_NONE:
    default:
      return "none";
    }
}

static void
append_mapping_json (GString    *out,
                     PgsMapping *m)
{
  g_string_append_printf (out, "{\"start\":\"0x%" G_GINT64_MODIFIER "x\",\"end\":\"0x%"
                          G_GINT64_MODIFIER "x\",\"perms\":",
                          pgs_mapping_get_start (m), pgs_mapping_get_end (m));
  pgs_json_append_string (out, pgs_mapping_get_perms (m));
  g_string_append_printf (out, ",\"offset\":%" G_GUINT64_FORMAT ",\"path\":",
                          pgs_mapping_get_offset (m));
  pgs_json_append_bytes (out, pgs_mapping_get_label (m));
  for (guint i = 0; i < G_N_ELEMENTS (metrics); i++)
    {
      g_string_append_printf (out, ",\"%s\":", metrics[i].name);
      pgs_json_append_size (out, pgs_mapping_is_known (m, metrics[i].metric),
                        pgs_mapping_get_metric (m, metrics[i].metric));
    }
  g_string_append_c (out, '}');
}

void
pgs_report_process_json (GString    *out,
                         PgsProcess *p,
                         gboolean    mappings)
{
  g_string_append_printf (out, "{\"pid\":%d,\"ppid\":%d,\"uid\":%u,\"user\":",
                          pgs_process_get_pid (p), pgs_process_get_ppid (p),
                          pgs_process_get_uid (p));
  pgs_json_append_bytes (out, pgs_process_get_user (p));
  g_string_append (out, ",\"name\":");
  pgs_json_append_bytes (out, pgs_process_get_name (p));
  g_string_append (out, ",\"cmdline\":");
  pgs_json_append_bytes (out, pgs_process_get_cmdline (p));
  for (guint i = 0; i < G_N_ELEMENTS (metrics); i++)
    {
      g_string_append_printf (out, ",\"%s\":", metrics[i].name);
      pgs_json_append_size (out, pgs_process_is_known (p, metrics[i].metric),
                        pgs_process_get_metric (p, metrics[i].metric));
    }
  g_string_append (out, ",\"unknown_reason\":");
  pgs_json_append_string (out, pgs_process_get_known (p) == PGS_METRIC_ALL ? NULL
                               : pgs_process_get_unknown_reason (p));
  g_string_append_printf (out, ",\"source\":\"%s\"", source_name (pgs_process_get_source (p)));
  /* Not in metrics[]: the CSV columns and the order of the fields before stay as they were. */
  g_string_append (out, ",\"swap_pss\":");
  pgs_json_append_size (out, pgs_process_is_known (p, PGS_METRIC_SWAP_PSS),
                        pgs_process_get_metric (p, PGS_METRIC_SWAP_PSS));

  if (mappings)
    {
      GListModel *list = pgs_process_get_mappings (p);
      guint n = g_list_model_get_n_items (list);

      g_string_append (out, ",\"mappings\":[");
      for (guint i = 0; i < n; i++)
        {
          g_autoptr(PgsMapping) m = g_list_model_get_item (list, i);

          if (i > 0)
            g_string_append_c (out, ',');
          g_string_append (out, "\n  ");
          append_mapping_json (out, m);
        }
      g_string_append_c (out, ']');
    }
  g_string_append_c (out, '}');
}

static void
append_skipped_json (GString     *out,
                     PgsSnapshot *snapshot)
{
  guint n = pgs_snapshot_get_n_skipped (snapshot);

  g_string_append_printf (out, "\"skipped\":%u,\"skipped_processes\":[", n);
  for (guint i = 0; i < n; i++)
    {
      const PgsSkipped *s = pgs_snapshot_get_skipped (snapshot, i);

      g_string_append_printf (out, "%s{\"pid\":%d,\"reason\":", i ? "," : "", s->pid);
      pgs_json_append_string (out, s->error->message);
      g_string_append_c (out, '}');
    }
  g_string_append_c (out, ']');
}

void
pgs_report_memrank_json (GString     *out,
                         PgsSnapshot *snapshot,
                         GPtrArray   *processes,
                         guint        n_listed)
{
  static const PgsMetric total_metrics[] = {
    PGS_METRIC_RSS, PGS_METRIC_PSS, PGS_METRIC_USS, PGS_METRIC_SWAP
  };
  static const char *const total_names[] = { "rss", "pss", "uss", "swap" };
  guint64 totals[G_N_ELEMENTS (total_metrics)] = { 0 };
  guint unknown[G_N_ELEMENTS (total_metrics)] = { 0 };

  /* PSS adds up in the kernel's fixed point and is truncated once. */
  for (guint i = 0; i < processes->len; i++)
    {
      PgsProcess *p = g_ptr_array_index (processes, i);

      for (guint k = 0; k < G_N_ELEMENTS (total_metrics); k++)
        {
          if (!pgs_process_is_known (p, total_metrics[k]))
            unknown[k]++;
          else if (total_metrics[k] == PGS_METRIC_PSS)
            totals[k] += pgs_process_get_pss_fixed (p);
          else
            totals[k] += pgs_process_get_metric (p, total_metrics[k]);
        }
    }
  totals[1] >>= PGS_PSS_SHIFT;

  g_string_append_printf (out, "{\"privileged\":%s,\"page_size\":%u,",
                          pgs_snapshot_is_privileged (snapshot) ? "true" : "false",
                          pgs_snapshot_get_page_size (snapshot));
  append_skipped_json (out, snapshot);

  /* Totals are over the processes where each metric is known; totals_unknown says how many
   * were left out of each, so a partial sum is never mistaken for the whole. */
  g_string_append (out, ",\"totals\":{");
  for (guint k = 0; k < G_N_ELEMENTS (total_metrics); k++)
    {
      g_string_append_printf (out, "%s\"%s\":", k ? "," : "", total_names[k]);
      pgs_json_append_size (out, unknown[k] < processes->len || processes->len == 0, totals[k]);
    }
  g_string_append (out, "},\"totals_unknown\":{");
  for (guint k = 0; k < G_N_ELEMENTS (total_metrics); k++)
    g_string_append_printf (out, "%s\"%s\":%u", k ? "," : "", total_names[k], unknown[k]);
  g_string_append (out, "},\"processes\":[");

  for (guint i = 0; i < MIN (n_listed, processes->len); i++)
    {
      g_string_append (out, i ? ",\n" : "\n");
      pgs_report_process_json (out, g_ptr_array_index (processes, i), FALSE);
    }
  g_string_append (out, "\n]}\n");
}

void
pgs_report_memstats_json (GString     *out,
                          PgsSnapshot *snapshot,
                          GPtrArray   *processes)
{
  g_string_append_printf (out, "{\"privileged\":%s,\"page_size\":%u,",
                          pgs_snapshot_is_privileged (snapshot) ? "true" : "false",
                          pgs_snapshot_get_page_size (snapshot));
  append_skipped_json (out, snapshot);
  g_string_append (out, ",\"processes\":[");
  for (guint i = 0; i < processes->len; i++)
    {
      g_string_append (out, i ? ",\n" : "\n");
      pgs_report_process_json (out, g_ptr_array_index (processes, i), TRUE);
    }
  g_string_append (out, "\n]}\n");
}

/* RFC 4180: quote a field that holds a comma, quote or line break; double the quotes. */
void
pgs_csv_append_field (GString    *out,
                      const char *field)
{
  if (field == NULL)
    return;
  if (strpbrk (field, ",\"\r\n") == NULL)
    {
      g_string_append (out, field);
      return;
    }
  g_string_append_c (out, '"');
  for (const char *p = field; *p; p++)
    {
      if (*p == '"')
        g_string_append_c (out, '"');
      g_string_append_c (out, *p);
    }
  g_string_append_c (out, '"');
}

static void
append_csv_size (GString  *out,
                 gboolean  known,
                 guint64   value)
{
  g_string_append_c (out, ',');
  if (known)
    g_string_append_printf (out, "%" G_GUINT64_FORMAT, value);
}

void
pgs_report_processes_csv (GString   *out,
                          GPtrArray *processes)
{
  for (guint i = 0; pgs_report_process_columns[i]; i++)
    g_string_append_printf (out, "%s%s", i ? "," : "", pgs_report_process_columns[i]);
  g_string_append (out, "\r\n");

  for (guint i = 0; i < processes->len; i++)
    {
      PgsProcess *p = g_ptr_array_index (processes, i);

      g_string_append_printf (out, "%d,%d,%u,", pgs_process_get_pid (p),
                              pgs_process_get_ppid (p), pgs_process_get_uid (p));
      pgs_csv_append_field (out, pgs_process_get_user (p));
      g_string_append_c (out, ',');
      pgs_csv_append_field (out, pgs_process_get_name (p));
      for (guint k = 0; k < G_N_ELEMENTS (metrics); k++)
        append_csv_size (out, pgs_process_is_known (p, metrics[k].metric),
                         pgs_process_get_metric (p, metrics[k].metric));
      g_string_append_c (out, ',');
      if (pgs_process_get_known (p) != PGS_METRIC_ALL)
        pgs_csv_append_field (out, pgs_process_get_unknown_reason (p));
      g_string_append_c (out, ',');
      pgs_csv_append_field (out, pgs_process_get_cmdline (p));
      g_string_append (out, "\r\n");
    }
}

void
pgs_report_mappings_csv (GString    *out,
                         PgsProcess *process,
                         GPtrArray  *mappings)
{
  g_string_append (out, "pid,start,end,perms,offset,path,vss,rss,pss,uss,swap\r\n");
  for (guint i = 0; i < mappings->len; i++)
    {
      PgsMapping *m = g_ptr_array_index (mappings, i);

      g_string_append_printf (out, "%d,0x%" G_GINT64_MODIFIER "x,0x%" G_GINT64_MODIFIER "x,%s,%"
                              G_GUINT64_FORMAT ",",
                              pgs_process_get_pid (process), pgs_mapping_get_start (m),
                              pgs_mapping_get_end (m), pgs_mapping_get_perms (m),
                              pgs_mapping_get_offset (m));
      pgs_csv_append_field (out, pgs_mapping_get_label (m));
      for (guint k = 0; k < G_N_ELEMENTS (metrics); k++)
        append_csv_size (out, pgs_mapping_is_known (m, metrics[k].metric),
                         pgs_mapping_get_metric (m, metrics[k].metric));
      g_string_append (out, "\r\n");
    }
}
