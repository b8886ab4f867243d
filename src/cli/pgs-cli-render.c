/* pgs-cli-render.c: residency, sharing and page-flag maps as PNG
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>

#include <glib/gi18n.h>

#include "pgs-cli.h"
#include "pgs-cli-render.h"
#include "pgs-render.h"

static gboolean
parse_view (const char *name,
            PgsView    *view)
{
  /* "pages" is what the app's tab calls the residency view. */
  if (g_strcmp0 (name, "residency") == 0 || g_strcmp0 (name, "pages") == 0)
    *view = PGS_VIEW_RESIDENCY;
  else if (g_strcmp0 (name, "sharing") == 0)
    *view = PGS_VIEW_SHARING;
  else if (g_strcmp0 (name, "flags") == 0)
    *view = PGS_VIEW_FLAGS;
  else
    return FALSE;
  return TRUE;
}

static const char *const view_names[] = { "residency", "sharing", "flags" };
static const char *const layout_names[] = { "linear", "hilbert" };
static const char *const highlight_names[] = { "outline", "overlay" };

static void
append_json (GString     *out,
             PgsRenderer *renderer,
             const char  *path,
             int          width,
             int          height)
{
  PgsSnapshot *snapshot = pgs_renderer_get_snapshot (renderer);
  PgsProcess *process = pgs_renderer_get_process (renderer);
  guint page_size = pgs_snapshot_get_page_size (snapshot);
  guint n = pgs_renderer_get_n_legend_items (renderer);
  guint64 total = 0;

  g_string_append_printf (out, "{\n  \"view\": \"%s\",\n  \"layout\": \"%s\",\n"
                          "  \"style\": \"%s\",\n",
                          view_names[pgs_renderer_get_view (renderer)],
                          layout_names[pgs_renderer_get_layout (renderer)],
                          pgs_render_style_get_id (pgs_renderer_get_style (renderer)));
  if (process != NULL)
    g_string_append_printf (out, "  \"pid\": %d,\n", pgs_process_get_pid (process));
  else
    g_string_append (out, "  \"pid\": null,\n");
  g_string_append (out, "  \"file\": ");
  if (path != NULL)
    pgs_json_append_string (out, path);
  else
    g_string_append (out, "null");
  g_string_append_printf (out, ",\n  \"width\": %d,\n  \"height\": %d,\n  \"page_size\": %u,\n"
                          "  \"pages_per_pixel\": %" G_GUINT64_FORMAT ",\n  \"aggregation\": ",
                          width, height, page_size,
                          pgs_renderer_get_pages_per_pixel (renderer, width, height));
  pgs_json_append_string (out, pgs_renderer_get_aggregation_rule (renderer));
  {
    gboolean marked;
    g_autofree char *text = pgs_renderer_describe_highlight (renderer, &marked);

    /* Physical views with a process: how its frames are marked, and in what colour. */
    if (text != NULL)
      {
        g_string_append_printf (out, ",\n  \"highlight\": { \"mode\": \"%s\", \"color\": ",
                                highlight_names[pgs_renderer_get_highlight_mode (renderer)]);
        if (marked)
          g_string_append_printf (out, "\"#%06x\"", pgs_palette_style (
                                  pgs_renderer_get_style (renderer))->highlight & 0xffffff);
        else
          g_string_append (out, "null");
        g_string_append (out, ", \"label\": ");
        pgs_json_append_string (out, text);
        g_string_append (out, " }");
      }
  }
  g_string_append (out, ",\n  \"categories\": [\n");
  for (guint i = 0; i < n; i++)
    {
      guint32 argb;
      const char *label;
      guint64 pages;

      pgs_renderer_get_legend_item (renderer, i, &argb, &label, &pages);
      total += pages;
      g_string_append (out, "    { \"id\": ");
      pgs_json_append_string (out, pgs_renderer_get_legend_id (renderer, i));
      g_string_append (out, ", \"label\": ");
      pgs_json_append_string (out, label);
      g_string_append_printf (out, ", \"color\": \"#%06x\", \"pages\": %" G_GUINT64_FORMAT
                              ", \"bytes\": %" G_GUINT64_FORMAT " }%s\n",
                              argb & 0xffffff, pages, pages * page_size, i + 1 < n ? "," : "");
    }
  g_string_append_printf (out, "  ],\n  \"total_pages\": %" G_GUINT64_FORMAT ",\n"
                          "  \"total_bytes\": %" G_GUINT64_FORMAT "\n}\n",
                          total, total * page_size);
}

static void
append_human (GString     *out,
              PgsRenderer *renderer)
{
  static const char *const headers[] = { N_("COLOUR"), N_("CATEGORY"), N_("PAGES"), N_("SIZE") };
  g_autoptr(PgsTable) table = pgs_table_new (4, headers, 0x3);
  guint page_size = pgs_snapshot_get_page_size (pgs_renderer_get_snapshot (renderer));
  g_autofree char *highlight = pgs_renderer_describe_highlight (renderer, NULL);

  for (guint i = 0; i < pgs_renderer_get_n_legend_items (renderer); i++)
    {
      guint32 argb;
      const char *label;
      guint64 pages;
      char **row = g_new0 (char *, 5);

      pgs_renderer_get_legend_item (renderer, i, &argb, &label, &pages);
      row[0] = g_strdup_printf ("#%06x", argb & 0xffffff);
      row[1] = g_strdup (label);
      row[2] = g_strdup_printf ("%" G_GUINT64_FORMAT, pages);
      row[3] = pgs_format_size (pages * page_size);
      pgs_table_add_row (table, row);
    }
  pgs_table_print (table, out);
  g_string_append_printf (out, "%s\n", pgs_renderer_get_aggregation_rule (renderer));
  if (highlight != NULL)
    g_string_append_printf (out, "%s\n", highlight);
}

int
pgs_cli_render (int    argc,
                char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(PgsScanner) scanner = NULL;
  g_autoptr(PgsSnapshot) snapshot = NULL;
  g_autoptr(PgsRenderer) renderer = NULL;
  g_autoptr(GString) out = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *view_name = NULL;
  g_autofree char *layout_name = NULL;
  g_autofree char *output_path = NULL;
  g_autofree char *pid_text = NULL;
  g_autofree char *style_name = NULL;
  g_autofree char *highlight_name = NULL;
  g_auto(PgsCliCommon) common = { 0 };
  g_auto(PgsCliInstant) instant = { 0 };
  g_autofree char *snapshot_path = NULL;
  PgsProcess *process = NULL;
  PgsOutput output;
  PgsView view;
  PgsLayout layout = PGS_LAYOUT_LINEAR;
  PgsRenderStyle style = PGS_RENDER_STYLE_LIGHT;
  PgsHighlightMode highlight = PGS_HIGHLIGHT_OUTLINE;
  PgsScanFlags flags;
  int pid = 0, width = 1024, height = 768;
  gboolean legend = FALSE, start_monitor = FALSE;
  double zoom = 1.0;
  double seconds = 0;
  g_autofree char *sysfs_root = NULL;
  int code;
  const GOptionEntry entries[] = {
    { "view", 0, 0, G_OPTION_ARG_STRING, &view_name, N_("residency (one process; also called pages, as the app's tab), sharing or flags (all frames), or access (DAMON's access heat, time × physical address)"), N_("VIEW") },
    { "seconds", 0, 0, G_OPTION_ARG_DOUBLE, &seconds, N_("--view access: read a running kdamond this long (default: two aggregation intervals)"), N_("SECONDS") },
    { "sysfs", 0, 0, G_OPTION_ARG_FILENAME, &sysfs_root, N_("--view access: read DAMON’s sysfs from DIR instead of /sys"), N_("DIR") },
    { "start-monitor", 0, 0, G_OPTION_ARG_NONE, &start_monitor, N_("--view access: where no kdamond runs and DAMON’s sysfs is free, start one of Pagescope’s own for the read (removed afterwards)"), NULL },
    { "pid", 'p', 0, G_OPTION_ARG_STRING, &pid_text, N_("The process: drawn by residency, highlighted by sharing and flags"), N_("PID") },
    { "layout", 0, 0, G_OPTION_ARG_STRING, &layout_name, N_("linear (rows, default) or hilbert"), N_("LAYOUT") },
    { "style", 0, 0, G_OPTION_ARG_STRING, &style_name, N_("Colours for a light (default), dark, hc-light or hc-dark (high contrast) background"), N_("STYLE") },
    { "highlight", 0, 0, G_OPTION_ARG_STRING, &highlight_name, N_("How sharing and flags mark the frames of --pid: outline (default) or overlay"), N_("MODE") },
    { "width", 'W', 0, G_OPTION_ARG_INT, &width, N_("Map width in pixels (default 1024)"), N_("PIXELS") },
    { "height", 'H', 0, G_OPTION_ARG_INT, &height, N_("Map height in pixels (default 768)"), N_("PIXELS") },
    { "zoom", 0, 0, G_OPTION_ARG_DOUBLE, &zoom, N_("Magnify the centre of the map (default 1: all of it)"), N_("FACTOR") },
    { "legend", 0, 0, G_OPTION_ARG_NONE, &legend, N_("Add a legend with the pages in each colour (the image grows to fit)"), NULL },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output_path, N_("Write the picture to this PNG file"), N_("FILE") },
    { "snapshot", 0, 0, G_OPTION_ARG_FILENAME, &snapshot_path, N_("Read this snapshot file instead of scanning"), N_("FILE") },
    { NULL }
  };

  context = g_option_context_new (_("— draw memory page by page"));
  g_option_context_set_summary (context,
    _("Draws a residency map of one process (one cell per virtual page), or a sharing heatmap "
      "or page-flag map of all physical memory (one cell per page frame; needs root), and "
      "prints the number of pages in each colour."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  pgs_cli_add_instant_options (context, &instant, FALSE);
  pgs_cli_add_common_options (context, &common);
  if (!pgs_cli_parse (context, &common, &argc, &argv, &output))
    return PGS_EXIT_USAGE;

  if (g_strcmp0 (view_name, "access") == 0)
    {
      PgsCliRenderAccessArgs args = { sysfs_root, common.procfs_root, seconds, width, height,
                                      style, legend, output_path, output, start_monitor };

      if (style_name != NULL && !pgs_render_style_from_id (style_name, &args.style))
        {
          pgs_cli_error (_("--style takes light, dark, hc-light or hc-dark, not “%s”"), style_name);
          return PGS_EXIT_USAGE;
        }
      if (width <= 0 || height <= 0 || width > 16384 || height > 16384 ||
          !(seconds >= 0 && seconds <= 86400) || output == PGS_OUTPUT_CSV || argc > 1)
        {
          pgs_cli_error ("%s", _("--view access takes --seconds 0 to 86400, --width and "
                                 "--height 1 to 16384, JSON or text, no arguments"));
          return PGS_EXIT_USAGE;
        }
      return pgs_cli_render_access (&args);
    }
  if (view_name == NULL || !parse_view (view_name, &view))
    {
      pgs_cli_error ("%s", _("--view takes residency, sharing, flags (pages is residency) or access"));
      return PGS_EXIT_USAGE;
    }
  if (layout_name != NULL && g_strcmp0 (layout_name, "linear") != 0)
    {
      if (g_strcmp0 (layout_name, "hilbert") != 0)
        {
          pgs_cli_error (_("--layout takes linear or hilbert, not “%s”"), layout_name);
          return PGS_EXIT_USAGE;
        }
      layout = PGS_LAYOUT_HILBERT;
    }
  if (style_name != NULL && !pgs_render_style_from_id (style_name, &style))
    {
      pgs_cli_error (_("--style takes light, dark, hc-light or hc-dark, not “%s”"), style_name);
      return PGS_EXIT_USAGE;
    }
  if (highlight_name != NULL && g_strcmp0 (highlight_name, "outline") != 0)
    {
      if (g_strcmp0 (highlight_name, "overlay") != 0)
        {
          pgs_cli_error (_("--highlight takes outline or overlay, not “%s”"), highlight_name);
          return PGS_EXIT_USAGE;
        }
      highlight = PGS_HIGHLIGHT_OVERLAY;
    }
  if (pid_text != NULL && !pgs_cli_parse_pid (pid_text, &pid))
    {
      pgs_cli_error (_("--pid takes a process ID, 1 or more, not “%s”"), pid_text);
      return PGS_EXIT_USAGE;
    }
  if (!isfinite (zoom) || zoom < 1.0)
    {
      pgs_cli_error (_("--zoom takes a factor of 1 (all of the map) or more, not %g"), zoom);
      return PGS_EXIT_USAGE;
    }
  if (view == PGS_VIEW_RESIDENCY && pid <= 0)
    {
      pgs_cli_error ("%s", _("--view residency needs --pid"));
      return PGS_EXIT_USAGE;
    }
  if (width <= 0 || height <= 0 || width > 16384 || height > 16384)
    {
      pgs_cli_error ("%s", _("--width and --height take 1 to 16384 pixels"));
      return PGS_EXIT_USAGE;
    }
  if (output == PGS_OUTPUT_CSV)
    {
      pgs_cli_error ("%s", _("render prints JSON or text, not CSV"));
      return PGS_EXIT_USAGE;
    }
  if (argc > 1)
    {
      pgs_cli_error (_("unexpected argument “%s”"), argv[1]);
      return PGS_EXIT_USAGE;
    }

  scanner = pgs_cli_scanner_new (&common);
  flags = PGS_SCAN_METRICS;
  if (pid > 0)
    flags |= PGS_SCAN_MAPPINGS | PGS_SCAN_PAGES;
  if (view != PGS_VIEW_RESIDENCY)
    flags |= PGS_SCAN_PHYSMAP;
  pgs_scanner_set_flags (scanner, flags);
  /* Processes matter here only as the one drawn or highlighted. */
  if (pid > 0)
    pgs_scanner_set_pids (scanner, &pid, 1);
  snapshot = pgs_cli_scan_instant (scanner, snapshot_path, &instant, instant.at, TRUE, &error);
  if (snapshot == NULL)
    {
      pgs_cli_error ("%s", error->message);
      return PGS_EXIT_FAILED;
    }

  if (snapshot_path != NULL && view != PGS_VIEW_RESIDENCY && pgs_snapshot_get_physmap (snapshot) == NULL)
    {
      pgs_cli_error (_("%s was taken without root: it has no physical map to draw"), snapshot_path);
      return PGS_EXIT_FAILED;
    }

  code = PGS_EXIT_OK;
  if (pid > 0)
    {
      process = pgs_snapshot_lookup_pid (snapshot, pid);
      if (process == NULL)
        {
          pgs_cli_report_skipped (snapshot);
          return PGS_EXIT_FAILED;
        }
    }

  renderer = pgs_renderer_new (snapshot, view);
  pgs_renderer_set_layout (renderer, layout);
  pgs_renderer_set_style (renderer, style);
  pgs_renderer_set_highlight_mode (renderer, highlight);
  pgs_renderer_set_process (renderer, process);
  pgs_renderer_set_viewport (renderer, zoom, 0.5, 0.5);

  if (output_path != NULL &&
      !pgs_renderer_write_png (renderer, output_path, width, height, legend, &error))
    {
      pgs_cli_error ("%s", error->message);
      return PGS_EXIT_FAILED;
    }

  if (output == PGS_OUTPUT_JSON)
    append_json (out, renderer, output_path, width, height);
  else
    append_human (out, renderer);
  pgs_cli_write (out);
  return code;
}
