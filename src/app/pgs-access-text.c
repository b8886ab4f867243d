/* pgs-access-text.c: what the Access page says of a monitor and of the heat it shows
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "pgs-access-text.h"
#include "pgs-render-access.h"
#include "pgs-units.h"

/* The first running kdamond's first context, in words: the monitor's resolution. */
char *
pgs_access_text_describe_monitor (const PgsDamonKdamond *k)
{
  const PgsDamonContext *c = k->contexts->len ? g_ptr_array_index (k->contexts, 0) : NULL;
  g_autofree char *index = g_strdup_printf ("%u", k->index);
  g_autofree char *pid = g_strdup_printf ("%d", k->pid);

  if (c == NULL || !c->intervals_known || !c->nr_regions_known)
    return g_strdup_printf (_("kdamond %s (PID %s)"), index, pid);
  {
    g_autofree char *min = pgs_units_format_count (c->min_nr_regions);
    g_autofree char *max = pgs_units_format_count (c->max_nr_regions);
    g_autofree char *sample = g_strdup_printf ("%.3g", c->sample_us / 1e3);
    g_autofree char *aggr = g_strdup_printf ("%.3g", c->aggr_us / 1e6);

    return g_strdup_printf (_("kdamond %s (PID %s) monitors %s addresses in %s to %s regions, "
                              "sampling every %s ms and aggregating every %s s"),
                            index, pid, c->operations ? c->operations : "?", min, max,
                            sample, aggr);
  }
}

double
pgs_access_text_read_seconds (PgsDamonSysfs *sysfs)
{
  guint64 slowest = pgs_damon_sysfs_slowest_aggr_us (sysfs);

  /* Two aggregations: the first one seen may have begun before the read did. The slowest
   * interval is bounded so a monitor aggregating once an hour does not hold the page. */
  return CLAMP (2.0 * slowest / 1e6, 5.0, 120.0);
}

const PgsDamonContext *
pgs_access_text_shown_context (PgsDamonCollection *collection)
{
  GPtrArray *aggs = pgs_damon_access_get_aggregations (collection->access);

  if (aggs->len == 0)
    return NULL;
  return pgs_damon_collection_context (collection, g_ptr_array_index (aggs, 0));
}

char *
pgs_access_text_legend (PgsDamonCollection *collection,
                        PgsSession         *session)
{
  GPtrArray *aggs = pgs_damon_access_get_aggregations (collection->access);
  g_autoptr(GArray) spans = pgs_render_access_spans (aggs);
  const PgsDamonContext *c = pgs_access_text_shown_context (collection);
  GString *s = g_string_new (NULL);

  if (aggs->len > 0)
    {
      const PgsDamonAggregation *first = g_ptr_array_index (aggs, 0);
      const PgsDamonAggregation *last = g_ptr_array_index (aggs, aggs->len - 1);
      g_autofree char *pid = g_strdup_printf ("%d", first->pid);
      g_autofree char *n = pgs_units_format_count (aggs->len);

      g_string_append_printf (s, _("Access heat from DAMON (kdamond PID %s): %s aggregations, "
                                   "%s s to %s s, left to right"),
                              pid, n, first->timestamp, last->timestamp);
    }
  else
    g_string_append (s, _("No whole aggregation was read: the monitor aggregates more slowly "
                          "than the read lasted, or its events were lost"));
  if (spans->len > 0)
    {
      const PgsDamonRange *lo = &g_array_index (spans, PgsDamonRange, 0);
      const PgsDamonRange *hi = &g_array_index (spans, PgsDamonRange, spans->len - 1);
      guint64 covered = 0;
      g_autofree char *lo_s = pgs_units_format_hex (lo->start);
      g_autofree char *hi_s = pgs_units_format_hex (hi->end);
      g_autofree char *size = NULL;
      g_autofree char *gaps = pgs_units_format_count (spans->len - 1);

      for (guint i = 0; i < spans->len; i++)
        covered += g_array_index (spans, PgsDamonRange, i).end -
                   g_array_index (spans, PgsDamonRange, i).start;
      size = pgs_units_format (session ? pgs_session_get_units (session) : PGS_UNITS_IEC, covered);
      g_string_append_c (s, '\n');
      g_string_append_printf (s, _("Physical addresses %s (top) to %s (bottom), %s monitored; "
                                   "%s gaps folded (grey lines)"), lo_s, hi_s, size, gaps);
    }
  if (c != NULL && c->intervals_known && c->nr_regions_known)
    {
      g_autofree char *min = pgs_units_format_count (c->min_nr_regions);
      g_autofree char *max = pgs_units_format_count (c->max_nr_regions);
      g_autofree char *sample = g_strdup_printf ("%.3g", c->sample_us / 1e3);
      g_autofree char *aggr = g_strdup_printf ("%.3g", c->aggr_us / 1e6);

      g_string_append_c (s, '\n');
      g_string_append_printf (s, _("Monitor: %s, %s to %s regions, sampling every %s ms, "
                                   "aggregating every %s s"),
                              c->operations ? c->operations : "?", min, max, sample, aggr);
    }
  g_string_append_c (s, '\n');
  g_string_append (s, _("A region’s rate is the region’s, not each frame’s: DAMON samples one "
                        "address per region. A pixel shows the hottest region in it."));
  return g_string_free (s, FALSE);
}
