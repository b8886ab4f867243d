/* pgs-report.c
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "pgs-escape.h"
#include "pgs-group.h"
#include "pgs-librank.h"
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
  "cmdline", "user_bytes", "name_bytes", "cmdline_bytes", NULL
};

/* A number in decimal without printf: memrank --json writes a dozen per process, and
 * g_string_append_printf() formats each into a string of its own first. Through it, the
 * JSON of 870 processes took 27 M instructions, as much as reading them. */
void
pgs_json_append_uint (GString *out,
                      guint64  value)
{
  char digits[20];
  guint n = 0;

  do
    digits[sizeof digits - ++n] = '0' + value % 10;
  while ((value /= 10) != 0);
  g_string_append_len (out, digits + sizeof digits - n, n);
}

/* "KEY": with the comma before it unless FIRST. KEY is plain ASCII. */
static void
append_key (GString    *out,
            const char *key,
            gboolean    first)
{
  if (!first)
    g_string_append_c (out, ',');
  g_string_append_c (out, '"');
  g_string_append (out, key);
  g_string_append (out, "\":");
}

/* Always valid UTF-8 (bytes that are not become U+FFFD), every control character (C0, DEL
 * and C1) as \uXXXX: the document parses, and printing it to a terminal is safe. */
void
pgs_json_append_string (GString    *out,
                        const char *str)
{
  g_autofree char *valid = NULL;

  if (str == NULL)
    {
      g_string_append (out, "null");
      return;
    }
  if ((valid = pgs_escape_make_valid (str)) != NULL)
    str = valid;

  g_string_append_c (out, '"');
  for (const guchar *p = (const guchar *) str; *p; p++)
    {
      const guchar *run = p;

      /* Most text needs no escape: append it a run at a time. */
      while (*p >= 0x20 && *p != '"' && *p != '\\' && *p != 0x7f && *p != 0xc2)
        p++;
      if (p > run)
        g_string_append_len (out, (const char *) run, p - run);
      if (*p == '\0')
        break;
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
          if (*p < 0x20 || *p == 0x7f)
            g_string_append_printf (out, "\\u%04x", *p);
          else if (*p == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f)
            g_string_append_printf (out, "\\u%04x", *++p);   /* C1, U+0080 to U+009F */
          else
            g_string_append_c (out, *p);
        }
    }
  g_string_append_c (out, '"');
}

void
pgs_json_append_bytes (GString    *out,
                       const char *str)
{
  pgs_json_append_string (out, str);
}

void
pgs_json_append_text_member (GString    *out,
                             const char *key,
                             const char *value)
{
  append_key (out, key, TRUE);
  pgs_json_append_string (out, value);
  if (value != NULL && !g_utf8_validate (value, -1, NULL))
    {
      g_autofree char *b64 = g_base64_encode ((const guchar *) value, strlen (value));

      g_string_append_printf (out, ",\"%s_bytes\":\"%s\"", key, b64);
    }
}

void
pgs_json_append_size (GString  *out,
                      gboolean  known,
                      guint64   value)
{
  if (known)
    pgs_json_append_uint (out, value);
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
  g_string_append_printf (out, ",\"offset\":%" G_GUINT64_FORMAT ",",
                          pgs_mapping_get_offset (m));
  pgs_json_append_text_member (out, "path", pgs_mapping_get_label (m));
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
  /* PIDs are positive, a PPID 0 at most (the kernel's own parent of init). */
  g_string_append (out, "{\"pid\":");
  pgs_json_append_uint (out, MAX (pgs_process_get_pid (p), 0));
  g_string_append (out, ",\"ppid\":");
  pgs_json_append_uint (out, MAX (pgs_process_get_ppid (p), 0));
  g_string_append (out, ",\"uid\":");
  pgs_json_append_uint (out, pgs_process_get_uid (p));
  g_string_append_c (out, ',');
  pgs_json_append_text_member (out, "user", pgs_process_get_user (p));
  g_string_append_c (out, ',');
  pgs_json_append_text_member (out, "name", pgs_process_get_name (p));
  g_string_append_c (out, ',');
  pgs_json_append_text_member (out, "cmdline", pgs_process_get_cmdline (p));
  for (guint i = 0; i < G_N_ELEMENTS (metrics); i++)
    {
      append_key (out, metrics[i].name, FALSE);
      pgs_json_append_size (out, pgs_process_is_known (p, metrics[i].metric),
                        pgs_process_get_metric (p, metrics[i].metric));
    }
  g_string_append (out, ",\"unknown_reason\":");
  pgs_json_append_string (out, pgs_process_get_known (p) == PGS_METRIC_ALL ? NULL
                               : pgs_process_get_unknown_reason (p));
  append_key (out, "source", FALSE);
  g_string_append_c (out, '"');
  g_string_append (out, source_name (pgs_process_get_source (p)));
  g_string_append_c (out, '"');
  /* Not in metrics[]: the CSV columns and the order of the fields before stay as they were. */
  g_string_append (out, ",\"swap_pss\":");
  pgs_json_append_size (out, pgs_process_is_known (p, PGS_METRIC_SWAP_PSS),
                        pgs_process_get_metric (p, PGS_METRIC_SWAP_PSS));
  /* Transparent huge pages mapped whole, from smaps_rollup; null where not read. */
  g_string_append (out, ",\"thp\":");
  pgs_json_append_size (out, pgs_process_is_known (p, PGS_METRIC_THP),
                        pgs_process_get_metric (p, PGS_METRIC_THP));
  {
    static const struct { const char *name; PgsMetric metric; } split[] = {
      { "clean", PGS_METRIC_CLEAN }, { "dirty", PGS_METRIC_DIRTY },
      { "shared", PGS_METRIC_SHARED }, { "private", PGS_METRIC_PRIVATE },
    };

    for (guint i = 0; i < G_N_ELEMENTS (split); i++)
      {
        append_key (out, split[i].name, FALSE);
        pgs_json_append_size (out, pgs_process_is_known (p, split[i].metric),
                              pgs_process_get_metric (p, split[i].metric));
      }
  }

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

/* RFC 4180: quote a field that holds a comma or a quote; double the quotes. The text is
 * pgs_escape_for_csv()'s: controls and bidi characters as "?", a formula's first
 * character behind a "'", so neither a terminal nor a spreadsheet runs what a process
 * chose to be called. */
void
pgs_csv_append_field (GString    *out,
                      const char *field)
{
  g_autofree char *cell = NULL;

  if (field == NULL)
    return;
  cell = pgs_escape_for_csv (field, NULL);
  if (strpbrk (cell, ",\"\r\n") == NULL)
    {
      g_string_append (out, cell);
      return;
    }
  g_string_append_c (out, '"');
  for (const char *p = cell; *p; p++)
    {
      if (*p == '"')
        g_string_append_c (out, '"');
      g_string_append_c (out, *p);
    }
  g_string_append_c (out, '"');
}

/* The companion of a text column: ",BASE64" of the exact bytes when the text column does
 * not hold them unchanged (escaped, made valid or guarded against a formula), "," alone
 * when it does. */
static void
append_csv_bytes (GString    *out,
                  const char *field)
{
  gboolean exact = TRUE;
  g_autofree char *cell = pgs_escape_for_csv (field, &exact);

  g_string_append_c (out, ',');
  if (!exact)
    {
      g_autofree char *b64 = g_base64_encode ((const guchar *) field, strlen (field));

      g_string_append (out, b64);
    }
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
      append_csv_bytes (out, pgs_process_get_user (p));
      append_csv_bytes (out, pgs_process_get_name (p));
      append_csv_bytes (out, pgs_process_get_cmdline (p));
      g_string_append (out, "\r\n");
    }
}

void
pgs_report_mappings_csv (GString    *out,
                         PgsProcess *process,
                         GPtrArray  *mappings)
{
  g_string_append (out, "pid,start,end,perms,offset,path,vss,rss,pss,uss,swap,path_bytes\r\n");
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
      append_csv_bytes (out, pgs_mapping_get_label (m));
      g_string_append (out, "\r\n");
    }
}

/* memrank --group-by: the groups (PgsGroup), then what the sums leave out. */
void
pgs_report_groups_json (GString     *out,
                        PgsSnapshot *snapshot,
                        const char  *group_by,
                        GPtrArray   *groups)
{
  g_string_append_printf (out, "{\"privileged\":%s,\"page_size\":%u,\"group_by\":",
                          pgs_snapshot_is_privileged (snapshot) ? "true" : "false",
                          pgs_snapshot_get_page_size (snapshot));
  pgs_json_append_string (out, group_by);
  g_string_append_c (out, ',');
  append_skipped_json (out, snapshot);
  g_string_append (out, ",\"groups\":[");
  for (guint i = 0; i < groups->len; i++)
    {
      const PgsGroup *g = g_ptr_array_index (groups, i);
      const guint64 values[] = { g->vss, g->rss, g->pss_fp >> PGS_PSS_SHIFT, g->uss, g->swap };

      g_string_append (out, i ? ",\n{" : "\n{");
      pgs_json_append_text_member (out, "group", g->name);
      g_string_append (out, ",\"app_id\":");
      pgs_json_append_string (out, g->app_id);
      g_string_append (out, ",\"icon\":");
      pgs_json_append_string (out, g->icon);
      g_string_append_printf (out, ",\"processes\":%u,\"unknown_processes\":%u",
                              g->processes->len, g->n_partial);
      for (guint k = 0; k < G_N_ELEMENTS (metrics); k++)
        {
          g_string_append_printf (out, ",\"%s\":", metrics[k].name);
          pgs_json_append_size (out, (g->known & metrics[k].metric) != 0, values[k]);
          if (metrics[k].metric == PGS_METRIC_USS)
            {
              g_string_append (out, ",\"private\":");
              pgs_json_append_size (out, g->private_known, g->private_bytes);
            }
        }
      g_string_append (out, ",\"unknown_reason\":");
      pgs_json_append_string (out, g->known == PGS_METRIC_ALL ? NULL : g->unknown_reason);
      g_string_append (out, ",\"private_unknown_reason\":");
      pgs_json_append_string (out, g->private_known ? NULL : g->private_reason);
      g_string_append (out, ",\"pids\":[");
      for (guint k = 0; k < g->processes->len; k++)
        g_string_append_printf (out, "%s%d", k ? "," : "",
                                pgs_process_get_pid (g_ptr_array_index (g->processes, k)));
      g_string_append (out, "]}");
    }
  g_string_append (out, "\n]}\n");
}

void
pgs_report_groups_csv (GString   *out,
                       GPtrArray *groups)
{
  g_string_append (out, "group,processes,vss,rss,pss,uss,private,swap,unknown_reason,"
                        "private_unknown_reason,app_id,group_bytes\r\n");
  for (guint i = 0; i < groups->len; i++)
    {
      const PgsGroup *g = g_ptr_array_index (groups, i);

      pgs_csv_append_field (out, g->name);
      g_string_append_printf (out, ",%u", g->processes->len);
      append_csv_size (out, (g->known & PGS_METRIC_VSS) != 0, g->vss);
      append_csv_size (out, (g->known & PGS_METRIC_RSS) != 0, g->rss);
      append_csv_size (out, (g->known & PGS_METRIC_PSS) != 0, g->pss_fp >> PGS_PSS_SHIFT);
      append_csv_size (out, (g->known & PGS_METRIC_USS) != 0, g->uss);
      append_csv_size (out, g->private_known, g->private_bytes);
      append_csv_size (out, (g->known & PGS_METRIC_SWAP) != 0, g->swap);
      g_string_append_c (out, ',');
      if (g->known != PGS_METRIC_ALL)
        pgs_csv_append_field (out, g->unknown_reason);
      g_string_append_c (out, ',');
      if (!g->private_known)
        pgs_csv_append_field (out, g->private_reason);
      g_string_append_c (out, ',');
      pgs_csv_append_field (out, g->app_id);
      append_csv_bytes (out, g->name);
      g_string_append (out, "\r\n");
    }
}

/* librank: the files (PgsLibFile). */
void
pgs_report_librank_json (GString     *out,
                         PgsSnapshot *snapshot,
                         GPtrArray   *files,
                         guint        n_unmapped)
{
  g_string_append_printf (out, "{\"privileged\":%s,\"page_size\":%u,\"unmapped_processes\":%u,",
                          pgs_snapshot_is_privileged (snapshot) ? "true" : "false",
                          pgs_snapshot_get_page_size (snapshot), n_unmapped);
  append_skipped_json (out, snapshot);
  g_string_append (out, ",\"files\":[");
  for (guint i = 0; i < files->len; i++)
    {
      const PgsLibFile *f = g_ptr_array_index (files, i);
      const guint64 values[] = { f->vss, f->rss, f->pss_fp >> PGS_PSS_SHIFT, f->uss, f->swap };

      g_string_append (out, i ? ",\n{" : "\n{");
      pgs_json_append_text_member (out, "path", f->path);
      g_string_append_printf (out, ",\"processes\":%u,\"mappings\":%u", f->pids->len,
                              f->n_mappings);
      for (guint k = 0; k < G_N_ELEMENTS (metrics); k++)
        {
          g_string_append_printf (out, ",\"%s\":", metrics[k].name);
          pgs_json_append_size (out, (f->known & metrics[k].metric) != 0, values[k]);
        }
      g_string_append (out, ",\"pids\":[");
      for (guint k = 0; k < f->pids->len; k++)
        g_string_append_printf (out, "%s%d", k ? "," : "", g_array_index (f->pids, int, k));
      g_string_append (out, "]}");
    }
  g_string_append (out, "\n]}\n");
}

void
pgs_report_librank_csv (GString   *out,
                        GPtrArray *files)
{
  g_string_append (out, "path,processes,mappings,vss,rss,pss,uss,swap,path_bytes\r\n");
  for (guint i = 0; i < files->len; i++)
    {
      const PgsLibFile *f = g_ptr_array_index (files, i);
      const guint64 values[] = { f->vss, f->rss, f->pss_fp >> PGS_PSS_SHIFT, f->uss, f->swap };

      pgs_csv_append_field (out, f->path);
      g_string_append_printf (out, ",%u,%u", f->pids->len, f->n_mappings);
      for (guint k = 0; k < G_N_ELEMENTS (metrics); k++)
        append_csv_size (out, (f->known & metrics[k].metric) != 0, values[k]);
      append_csv_bytes (out, f->path);
      g_string_append (out, "\r\n");
    }
}
