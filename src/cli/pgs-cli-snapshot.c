/* pgs-cli-snapshot.c: pagescope-cli snapshot, and --snapshot for the other commands
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <stdio.h>
#include <unistd.h>

#include <glib/gi18n.h>

#include "pgs-cli.h"

char *
pgs_cli_snapshot_path (const char  *arg,
                       GError     **error)
{
  char *path = pgs_local_file_from_arg (arg);

  /* GIO's dummy file for such a URI supports no operation. */
  if (path == NULL)
    g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                         g_dgettext ("glib20", "Operation not supported"));
  return path;
}

char *
pgs_cli_recording_path (const char  *arg,
                        GError     **error)
{
  char *path = pgs_local_file_from_arg (arg);

  if (path == NULL)
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED, "not a local file");
  return path;
}

/* The live scan, or the snapshot file @snapshot_path when given (then @scanner is unused:
 * a file holds every process, with mappings and pages). */
PgsSnapshot *
pgs_cli_scan (PgsScanner  *scanner,
              const char  *snapshot_path,
              GError     **error)
{
  g_autofree char *path = NULL;
  PgsSnapshot *snapshot = NULL;

  if (snapshot_path == NULL)
    return pgs_scanner_scan (scanner, NULL, error);

  path = pgs_cli_snapshot_path (snapshot_path, error);
  if (path != NULL)
    snapshot = pgs_snapshot_load_path (path, error);
  if (snapshot == NULL)
    g_prefix_error (error, "%s: ", snapshot_path);
  return snapshot;
}

void
pgs_cli_instant_clear (PgsCliInstant *instant)
{
  g_clear_pointer (&instant->recording, g_free);
  g_clear_pointer (&instant->at, g_free);
  g_clear_pointer (&instant->from, g_free);
  g_clear_pointer (&instant->to, g_free);
}

void
pgs_cli_add_instant_options (GOptionContext *context,
                             PgsCliInstant  *instant,
                             gboolean        range)
{
  const GOptionEntry at_entries[] = {
    { "recording", 0, 0, G_OPTION_ARG_FILENAME, &instant->recording, N_("Read an instant of this recording (.pgrec)"), N_("FILE") },
    { "at", 0, 0, G_OPTION_ARG_STRING, &instant->at, N_("The instant: +SECONDS, HH:MM:SS on the recording's clock, or ISO 8601"), N_("WHEN") },
    { NULL }
  };
  const GOptionEntry range_entries[] = {
    { "recording", 0, 0, G_OPTION_ARG_FILENAME, &instant->recording, N_("Compare two instants of this recording (.pgrec)"), N_("FILE") },
    { "from", 0, 0, G_OPTION_ARG_STRING, &instant->from, N_("The earlier instant: +SECONDS, HH:MM:SS or ISO 8601"), N_("WHEN") },
    { "to", 0, 0, G_OPTION_ARG_STRING, &instant->to, N_("The later instant"), N_("WHEN") },
    { NULL }
  };

  g_option_context_add_main_entries (context, range ? range_entries : at_entries, GETTEXT_PACKAGE);
}

PgsSnapshot *
pgs_cli_scan_instant (PgsScanner          *scanner,
                      const char          *snapshot_path,
                      const PgsCliInstant *instant,
                      const char          *when,
                      gboolean             pages,
                      GError             **error)
{
  g_autofree char *path = NULL;
  g_autoptr(PgsRecording) recording = NULL;
  g_autofree char *shown = NULL;
  PgsSnapshot *snapshot;
  gint64 time;
  guint index;

  if (instant->recording == NULL)
    {
      if (when != NULL)
        {
          g_set_error (error, PGS_ERROR, PGS_ERROR_FAILED, _("a time needs --recording FILE"));
          return NULL;
        }
      return pgs_cli_scan (scanner, snapshot_path, error);
    }
  if (snapshot_path != NULL)
    {
      g_set_error (error, PGS_ERROR, PGS_ERROR_FAILED, _("--snapshot and --recording are one or the other"));
      return NULL;
    }
  path = pgs_cli_recording_path (instant->recording, error);
  if (path != NULL)
    recording = pgs_recording_open_path (path, error);
  if (recording == NULL)
    {
      g_prefix_error (error, "%s: ", instant->recording);
      return NULL;
    }
  if (pgs_recording_get_end_note (recording) != NULL)
    pgs_cli_error ("%s: %s", instant->recording, pgs_recording_get_end_note (recording));
  if (when == NULL)
    time = pgs_recording_get_start_time (recording);
  else if (!pgs_recording_parse_time (recording, when, &time, error))
    return NULL;

  if (pages)
    {
      index = pgs_recording_find_picture (recording, time);
      if (index == G_MAXUINT)
        {
          g_set_error (error, PGS_ERROR, PGS_ERROR_FAILED, _("%s holds no page-level picture"), instant->recording);
          return NULL;
        }
      snapshot = pgs_recording_get_picture (recording, index, error);
      shown = pgs_recording_format_time (recording, pgs_recording_get_picture_time (recording, index));
      if (snapshot != NULL)
        pgs_cli_error (_("%s: page-level picture %u of %u, taken %s"), instant->recording, index + 1,
                       pgs_recording_get_n_pictures (recording), shown);
    }
  else
    {
      index = pgs_recording_find_sample (recording, time);
      snapshot = pgs_recording_get_snapshot_at_sample (recording, index, error);
      shown = pgs_recording_format_time (recording, pgs_recording_get_sample_time (recording, index));
      if (snapshot != NULL)
        pgs_cli_error (_("%s: sample %u of %u, taken %s"), instant->recording, index + 1,
                       pgs_recording_get_n_samples (recording), shown);
    }
  if (snapshot == NULL)
    g_prefix_error (error, "%s: ", instant->recording);
  return snapshot;
}

int
pgs_cli_snapshot (int    argc,
                  char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(PgsScanner) scanner = NULL;
  g_autoptr(PgsSnapshot) snapshot = NULL;
  g_autofree char *path = NULL;
  g_autoptr(GString) out = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *output_path = NULL;
  g_auto(PgsCliCommon) common = { 0 };
  PgsPhysMap *physmap;
  PgsOutput output;
  gint64 started;
  goffset size;
  gboolean sized;
  double scan_s;
  int code;
  const GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output_path, N_("Write the snapshot to this file (.pgsnap)"), N_("FILE") },
    { NULL }
  };

  context = g_option_context_new (_("— save a snapshot of memory to a file"));
  g_option_context_set_summary (context,
    _("Scans every process (figures, mappings and pages) and, as root, the physical map, and "
      "saves it all with the host name, kernel, boot id and time to one file. memrank, memstats "
      "and render read it with --snapshot, compare compares two; no root is needed to read one."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  pgs_cli_add_common_options (context, &common);
  if (!pgs_cli_parse (context, &common, &argc, &argv, &output))
    return PGS_EXIT_USAGE;
  if (output_path == NULL || *output_path == '\0')
    {
      pgs_cli_error ("%s", _("snapshot needs --output FILE"));
      return PGS_EXIT_USAGE;
    }
  if (output == PGS_OUTPUT_CSV)
    {
      pgs_cli_error ("%s", _("snapshot prints JSON or text, not CSV"));
      return PGS_EXIT_USAGE;
    }
  if (argc > 1)
    {
      pgs_cli_error (_("unexpected argument “%s”"), argv[1]);
      return PGS_EXIT_USAGE;
    }

  scanner = pgs_cli_scanner_new (&common);
  pgs_scanner_set_flags (scanner, PGS_SCAN_MAPPINGS | PGS_SCAN_PAGES | PGS_SCAN_PHYSMAP);
  started = g_get_monotonic_time ();
  snapshot = pgs_scanner_scan (scanner, NULL, &error);
  if (snapshot == NULL && g_error_matches (error, PGS_ERROR, PGS_ERROR_NO_PERMISSION))
    {
      /* Not root: everything but the physical map. */
      g_clear_error (&error);
      pgs_scanner_set_flags (scanner, PGS_SCAN_MAPPINGS | PGS_SCAN_PAGES);
      snapshot = pgs_scanner_scan (scanner, NULL, &error);
    }
  if (snapshot == NULL)
    {
      pgs_cli_error ("%s", error->message);
      return PGS_EXIT_FAILED;
    }
  scan_s = (g_get_monotonic_time () - started) / 1e6;
  code = pgs_cli_report_skipped (snapshot);
  if (!pgs_snapshot_is_privileged (snapshot))
    pgs_cli_error ("%s", _("not root: the snapshot holds what this user can see (no physical map, "
                           "no PSS or USS of other users' processes) and is marked unprivileged"));

  started = g_get_monotonic_time ();
  path = pgs_cli_snapshot_path (output_path, &error);
  if (path == NULL || !pgs_snapshot_save_path (snapshot, path, &error))
    {
      pgs_cli_error (_("saving %s: %s"), output_path, error->message);
      return PGS_EXIT_FAILED;
    }
  sized = pgs_local_file_query_size (path, &size, NULL);
  physmap = pgs_snapshot_get_physmap (snapshot);

  if (output == PGS_OUTPUT_JSON)
    {
      g_string_append (out, "{\"file\":");
      pgs_json_append_bytes (out, output_path);
      g_string_append_printf (out, ",\"size\":%" G_GOFFSET_FORMAT ",\"processes\":%u,\"skipped\":%u,"
                              "\"frames\":", sized ? size : (goffset) -1,
                              pgs_snapshot_get_n_processes (snapshot), pgs_snapshot_get_n_skipped (snapshot));
      if (physmap != NULL)
        g_string_append_printf (out, "%" G_GUINT64_FORMAT, pgs_physmap_get_n_frames (physmap));
      else
        g_string_append (out, "null");
      g_string_append_printf (out, ",\"privileged\":%s,\"scan_seconds\":%.3f,\"save_seconds\":%.3f}\n",
                              pgs_snapshot_is_privileged (snapshot) ? "true" : "false", scan_s,
                              (g_get_monotonic_time () - started) / 1e6);
    }
  else
    {
      g_autofree char *shown = sized ? pgs_format_size (size) : g_strdup ("?");

      g_string_append_printf (out, _("%u processes%s, %s, saved in %.2f s (scan %.2f s)\n"),
                              pgs_snapshot_get_n_processes (snapshot),
                              physmap != NULL ? _(" and the physical map") : "",
                              shown, (g_get_monotonic_time () - started) / 1e6, scan_s);
    }
  pgs_cli_write (out);
  return code;
}
