/* pgs-cli-render-access.c: `render --view access`, DAMON's access heat as PNG
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <inttypes.h>
#include <signal.h>

#include <glib/gi18n.h>

#include "pgs-cli.h"
#include "pgs-cli-render.h"
#include "pgs-render-access.h"

static volatile int stop_requested;

static void
on_signal (int sig)
{
  (void) sig;
  stop_requested = 1;
}

int
pgs_cli_render_access (const PgsCliRenderAccessArgs *args)
{
  g_autoptr(PgsDamonCollection) col = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) out = g_string_new (NULL);
  g_autofree char *resolution = NULL;
  const PgsDamonContext *c = NULL;
  struct sigaction sa = { 0 };
  PgsAccessView view = { 0 };
  GPtrArray *aggs;
  int code = PGS_EXIT_OK;

  sa.sa_handler = on_signal;
  sigaction (SIGINT, &sa, NULL);
  sigaction (SIGTERM, &sa, NULL);
  col = pgs_cli_access_collect (args->sysfs_root, args->procfs_root, args->seconds,
                                args->start_monitor, &stop_requested, &code);
  if (col == NULL)
    return code;
  aggs = pgs_damon_access_get_aggregations (col->access);
  if (aggs->len > 0)
    c = pgs_damon_collection_context (col, g_ptr_array_index (aggs, 0));
  view.aggregations = aggs;
  view.style = args->style;
  if (c != NULL && c->intervals_known && c->sample_us > 0)
    {
      view.max_nr_accesses = c->aggr_us / c->sample_us;
      view.aggr_seconds = c->aggr_us / 1e6;
      resolution = g_strdup_printf (_("Monitor: %s, %" PRIu64 " to %" PRIu64
                                      " regions, sampling every %.3g ms, aggregating every %.3g s"),
                                    c->operations ? c->operations : "?", c->min_nr_regions,
                                    c->max_nr_regions, c->sample_us / 1e3, c->aggr_us / 1e6);
      view.resolution = resolution;
    }

  if (args->output_path != NULL &&
      !pgs_render_access_write_png (&view, args->output_path, args->width, args->height,
                                    args->legend, &error))
    {
      pgs_cli_error ("%s", error->message);
      return PGS_EXIT_FAILED;
    }
  if (args->output == PGS_OUTPUT_JSON)
    {
      g_string_append (out, "{\n  \"view\": \"access\",\n  \"file\": ");
      pgs_json_append_string (out, args->output_path);
      g_string_append_printf (out, ",\n  \"width\": %d,\n  \"height\": %d,\n  \"style\": \"%s\",\n"
                              "  \"aggregations\": %u,\n  \"max_nr_accesses\": %" PRIu64
                              ",\n  \"seconds\": %.3f\n}\n",
                              args->width, args->height, pgs_render_style_get_id (args->style),
                              aggs->len, view.max_nr_accesses, col->seconds);
    }
  else
    g_string_append_printf (out, _("%u aggregations read in %.1f s%s%s\n"), aggs->len,
                            col->seconds, args->output_path ? _(", drawn to ") : "",
                            args->output_path ? args->output_path : "");
  pgs_cli_write (out);
  for (guint i = 0; i < col->messages->len; i++)
    pgs_cli_error ("%s", (const char *) g_ptr_array_index (col->messages, i));
  return aggs->len > 0 ? PGS_EXIT_OK : PGS_EXIT_PARTIAL;
}
