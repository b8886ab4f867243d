/* pgs-cli-access.c: the machine's access heat from a running kdamond
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <inttypes.h>
#include <signal.h>
#include <string.h>

#include <glib/gi18n.h>

#include "pgs-cli.h"

#define TOP_REGIONS 8

static volatile int stop_requested;

static void
on_signal (int sig)
{
  (void) sig;
  stop_requested = 1;
}

static double
aggr_seconds (const PgsDamonContext *c)
{
  return c != NULL && c->intervals_known && c->aggr_us > 0 ? c->aggr_us / 1e6 : 0;
}

static void
append_context_json (GString               *out,
                     const PgsDamonContext *c)
{
  g_string_append (out, "{\"operations\":");
  pgs_json_append_string (out, c->operations);
  g_string_append_printf (out, ",\"addr_unit\":%" PRIu64 ",\"addr_unit_in_sysfs\":%s",
                          c->addr_unit, c->has_addr_unit ? "true" : "false");
  if (c->intervals_known)
    g_string_append_printf (out, ",\"sample_us\":%" PRIu64 ",\"aggr_us\":%"
                            PRIu64 ",\"update_us\":%" PRIu64
                            ",\"max_nr_accesses\":%" PRIu64,
                            c->sample_us, c->aggr_us, c->update_us,
                            c->sample_us > 0 ? c->aggr_us / c->sample_us : 0);
  else
    g_string_append (out, ",\"sample_us\":null,\"aggr_us\":null,\"update_us\":null,"
                     "\"max_nr_accesses\":null");
  if (c->nr_regions_known)
    g_string_append_printf (out, ",\"min_nr_regions\":%" PRIu64
                            ",\"max_nr_regions\":%" PRIu64 "}",
                            c->min_nr_regions, c->max_nr_regions);
  else
    g_string_append (out, ",\"min_nr_regions\":null,\"max_nr_regions\":null}");
}

static void
print_json (PgsDamonCollection *col,
            GString            *out)
{
  GPtrArray *aggs = pgs_damon_access_get_aggregations (col->access);
  GPtrArray *messages = pgs_damon_access_get_messages (col->access);
  PgsDamonAccessCounts counts;

  pgs_damon_access_get_counts (col->access, &counts);
  g_string_append (out, "{\"kdamonds\":[");
  for (guint i = 0, n = 0; i < col->before->kdamonds->len; i++)
    {
      PgsDamonKdamond *k = g_ptr_array_index (col->before->kdamonds, i);

      if (!k->on)
        continue;
      g_string_append_printf (out, "%s{\"index\":%u,\"pid\":%d,\"contexts\":[", n++ ? "," : "",
                              k->index, k->pid);
      for (guint j = 0; j < k->contexts->len; j++)
        {
          if (j)
            g_string_append_c (out, ',');
          append_context_json (out, g_ptr_array_index (k->contexts, j));
        }
      g_string_append (out, "]}");
    }
  g_string_append_printf (out, "],\"seconds\":%.3f,\"interrupted\":%s,\"instance\":",
                          col->seconds, col->interrupted ? "true" : "false");
  pgs_json_append_string (out, col->instance);
  g_string_append_printf (out, ",\"private_mount\":%s,\"ram_end\":",
                          col->private_mount ? "true" : "false");
  if (col->ram_end)
    g_string_append_printf (out, "%" PRIu64, col->ram_end);
  else
    g_string_append (out, "null");
  g_string_append_printf (out, ",\"counts\":{\"lines\":%" PRIu64 ",\"events\":%"
                          PRIu64 ",\"errors\":%" PRIu64 ",\"lost\":%"
                          PRIu64 ",\"incomplete\":%" PRIu64 "}",
                          counts.lines, counts.events, counts.errors, counts.lost,
                          counts.incomplete);
  g_string_append (out, ",\"messages\":[");
  for (guint i = 0; i < messages->len + col->messages->len; i++)
    {
      if (i)
        g_string_append_c (out, ',');
      pgs_json_append_string (out, i < messages->len ? g_ptr_array_index (messages, i)
                              : g_ptr_array_index (col->messages, i - messages->len));
    }
  g_string_append (out, "],\"aggregations\":[");
  for (guint i = 0; i < aggs->len; i++)
    {
      const PgsDamonAggregation *a = g_ptr_array_index (aggs, i);
      double secs = aggr_seconds (pgs_damon_collection_context (col, a));

      g_string_append_printf (out, "%s\n{\"timestamp\":\"%s\",\"timestamp_ns\":%" PRIu64
                              ",\"kdamond_pid\":%d,\"target_id\":%" PRIu64
                              ",\"nr_regions\":%u,\"regions\":[",
                              i ? "," : "", a->timestamp, a->timestamp_ns, a->pid, a->target_id,
                              a->regions->len);
      for (guint j = 0; j < a->regions->len; j++)
        {
          const PgsDamonRegion *r = &g_array_index (a->regions, PgsDamonRegion, j);

          g_string_append_printf (out, "%s{\"start\":%" PRIu64 ",\"end\":%"
                                  PRIu64 ",\"nr_accesses\":%u,\"age\":%u",
                                  j ? "," : "", r->start, r->end, r->nr_accesses, r->age);
          if (secs > 0)
            g_string_append_printf (out, ",\"accesses_per_second\":%.6g,\"age_seconds\":%.6g}",
                                    r->nr_accesses / secs, r->age * secs);
          else
            g_string_append (out, ",\"accesses_per_second\":null,\"age_seconds\":null}");
        }
      g_string_append (out, "]}");
    }
  g_string_append (out, "\n]}\n");
}

static int
compare_hot (gconstpointer a,
             gconstpointer b)
{
  const PgsDamonRegion *ra = *(const PgsDamonRegion **) a;
  const PgsDamonRegion *rb = *(const PgsDamonRegion **) b;

  if (ra->nr_accesses != rb->nr_accesses)
    return ra->nr_accesses > rb->nr_accesses ? -1 : 1;
  if (ra->end - ra->start != rb->end - rb->start)
    return ra->end - ra->start > rb->end - rb->start ? -1 : 1;
  return ra->start < rb->start ? -1 : 1;
}

static void
print_aggregation (PgsDamonCollection        *col,
                   const PgsDamonAggregation *a,
                   GString                   *out)
{
  static const char *const headers[] = { N_("START"), N_("END"), N_("SIZE"),
                                         N_("ACCESSES"), N_("PER SECOND"), N_("AGE") };
  const PgsDamonContext *c = pgs_damon_collection_context (col, a);
  double secs = aggr_seconds (c);
  g_autoptr(GPtrArray) sorted = g_ptr_array_new ();
  g_autoptr(PgsTable) table = pgs_table_new (6, headers, 0);
  guint64 total = 0, accessed = 0;
  guint n_accessed = 0;
  g_autofree char *total_s = NULL;
  g_autofree char *accessed_s = NULL;

  for (guint j = 0; j < a->regions->len; j++)
    {
      const PgsDamonRegion *r = &g_array_index (a->regions, PgsDamonRegion, j);

      total += r->end - r->start;
      if (r->nr_accesses > 0)
        {
          accessed += r->end - r->start;
          n_accessed++;
        }
      g_ptr_array_add (sorted, (gpointer) r);
    }
  g_ptr_array_sort (sorted, compare_hot);
  total_s = pgs_format_size (total);
  accessed_s = pgs_format_size (accessed);
  g_string_append_printf (out, _("\nAggregation at %s (kdamond PID %d, target %" PRIu64
                                 "): %u regions over %s; %u regions (%s) accessed\n"),
                          a->timestamp, a->pid, a->target_id, a->regions->len, total_s,
                          n_accessed, accessed_s);
  for (guint j = 0; j < MIN (sorted->len, TOP_REGIONS); j++)
    {
      const PgsDamonRegion *r = g_ptr_array_index (sorted, j);
      char **row = g_new0 (char *, 7);

      row[0] = g_strdup_printf ("%#" PRIx64, r->start);
      row[1] = g_strdup_printf ("%#" PRIx64, r->end);
      row[2] = pgs_format_size (r->end - r->start);
      row[3] = g_strdup_printf ("%u", r->nr_accesses);
      row[4] = secs > 0 ? g_strdup_printf ("%.2f", r->nr_accesses / secs) : g_strdup ("?");
      row[5] = secs > 0 ? g_strdup_printf ("%u (%.0f s)", r->age, r->age * secs)
                        : g_strdup_printf ("%u", r->age);
      pgs_table_add_row (table, row);
    }
  pgs_table_print (table, out);
}

static void
print_human (PgsDamonCollection *col,
             GString            *out)
{
  GPtrArray *aggs = pgs_damon_access_get_aggregations (col->access);
  GPtrArray *messages = pgs_damon_access_get_messages (col->access);
  PgsDamonAccessCounts counts;

  pgs_damon_access_get_counts (col->access, &counts);
  for (guint i = 0; i < col->before->kdamonds->len; i++)
    {
      PgsDamonKdamond *k = g_ptr_array_index (col->before->kdamonds, i);
      PgsDamonContext *c;

      if (!k->on || k->contexts->len == 0)
        continue;
      c = g_ptr_array_index (k->contexts, 0);
      g_string_append_printf (out, _("kdamond %u (PID %d): %s operations, address unit %"
                                     PRIu64 " byte(s)\n"),
                              k->index, k->pid, c->operations ? c->operations : "?",
                              c->addr_unit);
      if (c->nr_regions_known)
        g_string_append_printf (out, _("  Resolution: %" PRIu64 " to %" PRIu64
                                       " regions over the monitored memory\n"),
                                c->min_nr_regions, c->max_nr_regions);
      if (c->intervals_known)
        g_string_append_printf (out, _("  Sampling every %.3g ms, aggregation every %.3g s (at "
                                       "most %" PRIu64 " accesses per region per "
                                       "aggregation), regions updated every %.3g s\n"),
                                c->sample_us / 1e3, c->aggr_us / 1e6,
                                c->sample_us ? c->aggr_us / c->sample_us : 0,
                                c->update_us / 1e6);
    }
  g_string_append (out, _("A region’s rate is the region’s, not each frame’s: DAMON checks one "
                          "address per region per sampling interval.\n"));
  g_string_append_printf (out, _("Read %.1f s from the tracefs instance %s%s: %u complete "
                                 "aggregations, %" PRIu64 " seen in part, %"
                                 PRIu64 " events lost, %" PRIu64
                                 " lines not understood\n"),
                          col->seconds, col->instance,
                          col->private_mount ? _(" (tracefs mounted privately)") : "",
                          aggs->len, counts.incomplete, counts.lost, counts.errors);
  for (guint i = 0; i < aggs->len; i++)
    print_aggregation (col, g_ptr_array_index (aggs, i), out);
  for (guint i = 0; i < messages->len; i++)
    pgs_cli_error ("%s", (const char *) g_ptr_array_index (messages, i));
  for (guint i = 0; i < col->messages->len; i++)
    pgs_cli_error ("%s", (const char *) g_ptr_array_index (col->messages, i));
}

int
pgs_cli_access (int    argc,
                char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(PgsDamonCollection) col = NULL;
  g_autoptr(GString) out = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  g_auto(PgsCliCommon) common = { 0 };
  g_autofree char *sysfs_root = NULL;
  struct sigaction sa = { 0 };
  double seconds = 0;
  gboolean start_monitor = FALSE;
  int code;
  PgsOutput output;
  const GOptionEntry entries[] = {
    { "seconds", 's', 0, G_OPTION_ARG_DOUBLE, &seconds, N_("Read for this long (default: two aggregation intervals, at least 5 s)"), N_("SECONDS") },
    { "sysfs", 0, 0, G_OPTION_ARG_FILENAME, &sysfs_root, N_("Read DAMON’s sysfs from DIR instead of /sys"), N_("DIR") },
    { "start-monitor", 0, 0, G_OPTION_ARG_NONE, &start_monitor, N_("Where no kdamond runs and DAMON’s sysfs is free, start one of Pagescope’s own for the read: removed afterwards, also when killed"), NULL },
    { NULL }
  };

  context = g_option_context_new (_("— the machine’s memory access heat from DAMON"));
  g_option_context_set_summary (context,
    _("Reads the regions a running kdamond reports (the damon:damon_aggregated tracepoint) "
      "through a tracefs instance of its own, without changing any monitor, and prints each "
      "aggregation: the regions with their access rate and age. Needs root."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  pgs_cli_add_common_options (context, &common);
  if (!pgs_cli_parse (context, &common, &argc, &argv, &output))
    return PGS_EXIT_USAGE;
  if (output == PGS_OUTPUT_CSV)
    {
      pgs_cli_error ("%s", _("access prints JSON or text, not CSV"));
      return PGS_EXIT_USAGE;
    }
  if (!(seconds >= 0 && seconds <= 86400))
    {
      pgs_cli_error ("%s", _("--seconds takes 0 (the default) to 86400"));
      return PGS_EXIT_USAGE;
    }
  if (argc > 1)
    {
      pgs_cli_error (_("unexpected argument “%s”"), argv[1]);
      return PGS_EXIT_USAGE;
    }

  /* ^C or a kill ends the read early; the reader's instance is removed either way. */
  sa.sa_handler = on_signal;
  sigaction (SIGINT, &sa, NULL);
  sigaction (SIGTERM, &sa, NULL);

  col = pgs_cli_access_collect (sysfs_root, common.procfs_root, seconds, start_monitor,
                                &stop_requested, &code);
  if (col == NULL)
    return code;
  if (output == PGS_OUTPUT_JSON)
    print_json (col, out);
  else
    print_human (col, out);
  pgs_cli_write (out);
  return pgs_damon_access_get_aggregations (col->access)->len > 0 && code == PGS_EXIT_OK
         ? PGS_EXIT_OK : PGS_EXIT_PARTIAL;
}
