/* pgs-cli-record.c: pagescope-cli record and series
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <signal.h>
#include <stdio.h>
#include <sys/resource.h>
#include <unistd.h>

#include <glib/gi18n.h>

#include "pgs-cli.h"

static volatile sig_atomic_t stop_requested;

static void
on_stop (int sig)
{
  stop_requested = 1;
}

/* Sleeps until @deadline (monotonic µs) or a signal. */
static void
sleep_until (gint64 deadline)
{
  while (!stop_requested)
    {
      gint64 now = g_get_monotonic_time ();

      if (now >= deadline)
        return;
      g_usleep (MIN (deadline - now, 200000));
    }
}

static PgsSnapshot *
take_picture (PgsScanner *scanner)
{
  g_autoptr(GError) error = NULL;
  PgsSnapshot *snapshot;

  /* Counts only where frames are mapped: the picture's largest cost is reading the two
   * kpage files whole (pgs_physmap_read_fds_mapped). */
  pgs_scanner_set_flags (scanner, PGS_SCAN_MAPPINGS | PGS_SCAN_PAGES | PGS_SCAN_PHYSMAP | PGS_SCAN_MAPPED_COUNTS);
  snapshot = pgs_scanner_scan (scanner, NULL, &error);
  if (snapshot == NULL && g_error_matches (error, PGS_ERROR, PGS_ERROR_NO_PERMISSION))
    {
      g_clear_error (&error);
      pgs_scanner_set_flags (scanner, PGS_SCAN_MAPPINGS | PGS_SCAN_PAGES);
      snapshot = pgs_scanner_scan (scanner, NULL, &error);
    }
  if (snapshot == NULL)
    pgs_cli_error (_("picture: %s"), error->message);
  return snapshot;
}

int
pgs_cli_record (int    argc,
                char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(PgsScanner) scanner = NULL;
  g_autoptr(PgsSampler) sampler = NULL;
  g_autoptr(PgsRecordingWriter) writer = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *output_path = NULL;
  g_auto(PgsCliCommon) common = { 0 };
  double interval = 1, pages_every = 60, duration = 0;
  PgsRecordingSetup setup = { 0 };
  gboolean progress = isatty (STDERR_FILENO);
  gint64 started, next_sample, next_picture;
  PgsOutput output;
  struct rlimit rl;
  const GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output_path, N_("Write the recording to this file (.pgrec)"), N_("FILE") },
    { "interval", 0, 0, G_OPTION_ARG_DOUBLE, &interval, N_("Seconds between samples of the totals (default 1)"), N_("SECONDS") },
    { "pages-every", 0, 0, G_OPTION_ARG_DOUBLE, &pages_every, N_("Seconds between page-level pictures (default 60; 0: none)"), N_("SECONDS") },
    { "duration", 0, 0, G_OPTION_ARG_DOUBLE, &duration, N_("Stop after this many seconds (default: at Ctrl+C)"), N_("SECONDS") },
    { NULL }
  };

  context = g_option_context_new (_("— record memory over time to a file"));
  g_option_context_set_summary (context,
    _("Samples every process's totals (smaps_rollup), /proc/meminfo, zram, memory pressure and "
      "each cgroup's memory every --interval, and a page-level picture (what a snapshot holds) "
      "every --pages-every, until --duration or Ctrl+C. As a normal user it records what that "
      "user can see, and the file says so."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  pgs_cli_add_common_options (context, &common);
  if (!pgs_cli_parse (context, &common, &argc, &argv, &output))
    return PGS_EXIT_USAGE;
  if (output_path == NULL || *output_path == '\0')
    {
      pgs_cli_error ("%s", _("record needs --output FILE"));
      return PGS_EXIT_USAGE;
    }
  if (!(interval >= 0.01 && interval <= 86400) || !(pages_every >= 0 && pages_every <= 86400 * 7) ||
      !(duration >= 0 && duration <= 86400.0 * 365))
    {
      pgs_cli_error ("%s", _("--interval must be 0.01 to 86400 seconds, --pages-every and --duration not negative"));
      return PGS_EXIT_USAGE;
    }
  if (argc > 1)
    {
      pgs_cli_error (_("unexpected argument “%s”"), argv[1]);
      return PGS_EXIT_USAGE;
    }

  /* Every process's stat and smaps_rollup stay open: room for a few thousand. */
  if (getrlimit (RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max)
    {
      rl.rlim_cur = rl.rlim_max;
      setrlimit (RLIMIT_NOFILE, &rl);
    }
  sampler = pgs_sampler_new (common.procfs_root, NULL);
  scanner = pgs_cli_scanner_new (&common);
  setup.interval_ms = (guint) (interval * 1000);
  setup.pages_every_ms = (guint) (pages_every * 1000);
  setup.privileged = geteuid () == 0;
  setup.procfs_root = common.procfs_root;
  writer = pgs_recording_writer_new (output_path, &setup, &error);
  if (writer == NULL)
    {
      pgs_cli_error ("%s", error->message);
      return PGS_EXIT_FAILED;
    }
  if (!setup.privileged)
    pgs_cli_error ("%s", _("not root: recording what this user can see (other users' processes: "
                           "VSS and RSS only); the file is marked unprivileged"));

  signal (SIGINT, on_stop);
  signal (SIGTERM, on_stop);
  started = g_get_monotonic_time ();
  next_sample = started;
  next_picture = pages_every > 0 ? started : G_MAXINT64;
  while (!stop_requested)
    {
      const PgsSample *sample;
      gint64 now;

      sample = pgs_sampler_sample (sampler);
      if (!pgs_recording_writer_add_sample (writer, sample, &error))
        {
          pgs_cli_error (_("writing %s: %s"), output_path, error->message);
          return PGS_EXIT_FAILED;
        }
      now = g_get_monotonic_time ();
      if (now >= next_picture)
        {
          g_autoptr(PgsSnapshot) picture = take_picture (scanner);

          if (picture != NULL &&
              !pgs_recording_writer_add_picture (writer, picture, pgs_snapshot_get_time (picture), &error))
            {
              pgs_cli_error (_("writing %s: %s"), output_path, error->message);
              return PGS_EXIT_FAILED;
            }
          next_picture += (gint64) (pages_every * G_USEC_PER_SEC);
          if (next_picture < now)
            next_picture = now + (gint64) (pages_every * G_USEC_PER_SEC);
        }
      if (progress)
        {
          g_autofree char *size = pgs_format_size (pgs_recording_writer_get_size (writer));

          fprintf (stderr, "\r%s", "");
          fprintf (stderr, _("\r%.0f s, %u samples, %u pictures, %s   "), (now - started) / 1e6,
                   pgs_recording_writer_get_n_samples (writer), pgs_recording_writer_get_n_pictures (writer), size);
          fflush (stderr);
        }
      if (duration > 0 && now - started >= (gint64) (duration * G_USEC_PER_SEC))
        break;
      next_sample += (gint64) (interval * G_USEC_PER_SEC);
      if (next_sample < now)
        next_sample = now;
      if (duration > 0)
        next_sample = MIN (next_sample, started + (gint64) (duration * G_USEC_PER_SEC));
      sleep_until (next_sample);
    }
  if (progress)
    fprintf (stderr, "\n");
  if (!pgs_recording_writer_close (writer, &error))
    {
      pgs_cli_error (_("writing %s: %s"), output_path, error->message);
      return PGS_EXIT_FAILED;
    }
  {
    g_autoptr(GString) out = g_string_new (NULL);
    g_autofree char *size = pgs_format_size (pgs_recording_writer_get_size (writer));

    if (output == PGS_OUTPUT_JSON)
      g_string_append_printf (out, "{\"samples\":%u,\"pictures\":%u,\"size\":%" G_GUINT64_FORMAT ",\"seconds\":%.3f}\n",
                              pgs_recording_writer_get_n_samples (writer),
                              pgs_recording_writer_get_n_pictures (writer),
                              pgs_recording_writer_get_size (writer), (g_get_monotonic_time () - started) / 1e6);
    else
      g_string_append_printf (out, _("%u samples, %u pictures, %s in %.1f s\n"),
                              pgs_recording_writer_get_n_samples (writer),
                              pgs_recording_writer_get_n_pictures (writer), size,
                              (g_get_monotonic_time () - started) / 1e6);
    pgs_cli_write (out);
  }
  return PGS_EXIT_OK;
}

static const char *const figure_names[] = { "vss", "rss", "pss", "uss", "swap", "swap_pss" };

static void
append_figure_json (GString            *out,
                    const PgsSeriesRow *row,
                    guint               f)
{
  static const guint bits[] = { PGS_METRIC_VSS, PGS_METRIC_RSS, PGS_METRIC_PSS, PGS_METRIC_USS,
                                PGS_METRIC_SWAP, PGS_METRIC_SWAP_PSS };

  g_string_append_printf (out, ",\"%s\":", figure_names[f]);
  pgs_json_append_size (out, (row->known & bits[f]) != 0, row->figures[f]);
}

int
pgs_cli_series (int    argc,
                char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(PgsRecording) recording = NULL;
  g_autoptr(PgsSeries) series = NULL;
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) out = g_string_new (NULL);
  g_autofree char *recording_path = NULL;
  g_autofree char *pid_text = NULL;
  g_autofree char *group_by = NULL;
  g_auto(PgsCliCommon) common = { 0 };
  PgsSeriesKind kind = PGS_SERIES_MACHINE;
  PgsOutput output;
  int pid = 0;
  gint64 start;
  const GOptionEntry entries[] = {
    { "recording", 0, 0, G_OPTION_ARG_FILENAME, &recording_path, N_("The recording to read"), N_("FILE") },
    { "pid", 'p', 0, G_OPTION_ARG_STRING, &pid_text, N_("The processes with this PID"), N_("PID") },
    { "group-by", 'g', 0, G_OPTION_ARG_STRING, &group_by, N_("Sum processes by user, name, or give every process"), N_("KEY") },
    { NULL }
  };

  context = g_option_context_new (_("— figures over time from a recording"));
  g_option_context_set_summary (context,
    _("Prints one row per sample: the machine's counters (meminfo, zram, pressure, cgroups), or "
      "with --pid a process's figures (a PID used again is another process, with its own start "
      "time), or with --group-by (user, name, process) sums."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  pgs_cli_add_common_options (context, &common);
  if (!pgs_cli_parse (context, &common, &argc, &argv, &output))
    return PGS_EXIT_USAGE;
  if (recording_path == NULL)
    {
      pgs_cli_error ("%s", _("series needs --recording FILE"));
      return PGS_EXIT_USAGE;
    }
  if (pid_text != NULL && !pgs_cli_parse_pid (pid_text, &pid))
    return PGS_EXIT_USAGE;
  if (pid != 0)
    kind = PGS_SERIES_PROCESS;
  if (group_by != NULL)
    {
      if (g_str_equal (group_by, "user"))
        kind = PGS_SERIES_USER;
      else if (g_str_equal (group_by, "name"))
        kind = PGS_SERIES_NAME;
      else if (g_str_equal (group_by, "process"))
        kind = PGS_SERIES_PROCESS;
      else
        {
          pgs_cli_error (_("--group-by takes user, name or process, not “%s”"), group_by);
          return PGS_EXIT_USAGE;
        }
    }
  path = pgs_cli_recording_path (recording_path, &error);
  if (path != NULL)
    recording = pgs_recording_open_path (path, &error);
  if (recording == NULL)
    {
      pgs_cli_error ("%s: %s", recording_path, error->message);
      return PGS_EXIT_FAILED;
    }
  if (pgs_recording_get_end_note (recording) != NULL)
    pgs_cli_error ("%s: %s", recording_path, pgs_recording_get_end_note (recording));
  series = pgs_series_new (recording, kind, pid, &error);
  if (series == NULL)
    {
      pgs_cli_error ("%s: %s", recording_path, error->message);
      return PGS_EXIT_FAILED;
    }
  start = pgs_recording_get_start_time (recording);

  if (kind == PGS_SERIES_MACHINE)
    {
      guint n = pgs_series_get_n_counters (series);

      if (output == PGS_OUTPUT_CSV)
        {
          pgs_csv_append_field (out, "seconds");
          for (guint c = 0; c < n; c++)
            {
              g_string_append_c (out, ',');
              pgs_csv_append_field (out, pgs_series_get_counter_name (series, c));
            }
          g_string_append_c (out, '\n');
        }
      else if (output == PGS_OUTPUT_JSON)
        g_string_append (out, "[");
      for (guint r = 0; r < pgs_series_get_n_rows (series); r++)
        {
          const PgsSeriesRow *row = pgs_series_get_row (series, r);
          double secs = (row->time - start) / 1e6;

          if (output == PGS_OUTPUT_JSON)
            {
              g_string_append_printf (out, "%s{\"seconds\":%.3f", r > 0 ? "," : "", secs);
              for (guint c = 0; c < n; c++)
                {
                  guint64 v = pgs_series_get_counter (series, r, c);

                  g_string_append_c (out, ',');
                  pgs_json_append_bytes (out, pgs_series_get_counter_name (series, c));
                  if (v == PGS_SAMPLE_ABSENT)
                    g_string_append (out, ":null");
                  else
                    g_string_append_printf (out, ":%" G_GUINT64_FORMAT, v);
                }
              g_string_append_c (out, '}');
              continue;
            }
          g_string_append_printf (out, "%.3f", secs);
          for (guint c = 0; c < n; c++)
            {
              guint64 v = pgs_series_get_counter (series, r, c);

              if (output == PGS_OUTPUT_CSV)
                g_string_append_c (out, ',');
              else
                g_string_append_printf (out, "  %s=", pgs_series_get_counter_name (series, c));
              if (v != PGS_SAMPLE_ABSENT)
                g_string_append_printf (out, "%" G_GUINT64_FORMAT, v);
              else if (output != PGS_OUTPUT_CSV)
                g_string_append (out, _("unknown"));
            }
          g_string_append_c (out, '\n');
        }
      if (output == PGS_OUTPUT_JSON)
        g_string_append (out, "]\n");
      pgs_cli_write (out);
      return PGS_EXIT_OK;
    }

  if (output == PGS_OUTPUT_CSV)
    g_string_append (out, "seconds,key,pid,start_time,name,members,vss,rss,pss,uss,swap,swap_pss\n");
  else if (output == PGS_OUTPUT_JSON)
    g_string_append (out, "[");
  else
    g_string_append_printf (out, "%10s  %-20s  %-16s  %12s  %12s  %12s  %12s\n", _("seconds"), _("key"), _("name"),
                            "RSS", "PSS", "USS", _("swap"));
  for (guint r = 0; r < pgs_series_get_n_rows (series); r++)
    {
      const PgsSeriesRow *row = pgs_series_get_row (series, r);
      double secs = (row->time - start) / 1e6;

      if (output == PGS_OUTPUT_JSON)
        {
          g_string_append_printf (out, "%s{\"seconds\":%.3f,\"key\":", r > 0 ? "," : "", secs);
          pgs_json_append_bytes (out, row->key);
          g_string_append (out, ",\"name\":");
          pgs_json_append_bytes (out, row->name);
          if (row->pid != 0)
            g_string_append_printf (out, ",\"pid\":%d,\"start_time\":%" G_GUINT64_FORMAT, row->pid, row->start_time);
          g_string_append_printf (out, ",\"members\":%u", row->n_members);
          for (guint f = 0; f < PGS_SAMPLE_N_FIGURES; f++)
            append_figure_json (out, row, f);
          g_string_append_c (out, '}');
        }
      else if (output == PGS_OUTPUT_CSV)
        {
          static const guint bits[] = { PGS_METRIC_VSS, PGS_METRIC_RSS, PGS_METRIC_PSS, PGS_METRIC_USS,
                                        PGS_METRIC_SWAP, PGS_METRIC_SWAP_PSS };

          g_string_append_printf (out, "%.3f,", secs);
          pgs_csv_append_field (out, row->key);
          g_string_append_printf (out, ",%d,%" G_GUINT64_FORMAT ",", row->pid, row->start_time);
          pgs_csv_append_field (out, row->name);
          g_string_append_printf (out, ",%u", row->n_members);
          for (guint f = 0; f < PGS_SAMPLE_N_FIGURES; f++)
            if (row->known & bits[f])
              g_string_append_printf (out, ",%" G_GUINT64_FORMAT, row->figures[f]);
            else
              g_string_append_c (out, ',');
          g_string_append_c (out, '\n');
        }
      else
        {
          g_autofree char *key = pgs_escape_for_terminal (row->key, -1);
          g_autofree char *name = pgs_escape_for_terminal (row->name, -1);
          g_autofree char *rss = pgs_cli_size_cell (row->known & PGS_METRIC_RSS, row->figures[PGS_SAMPLE_RSS]);
          g_autofree char *pss = pgs_cli_size_cell (row->known & PGS_METRIC_PSS, row->figures[PGS_SAMPLE_PSS]);
          g_autofree char *uss = pgs_cli_size_cell (row->known & PGS_METRIC_USS, row->figures[PGS_SAMPLE_USS]);
          g_autofree char *swap = pgs_cli_size_cell (row->known & PGS_METRIC_SWAP, row->figures[PGS_SAMPLE_SWAP]);

          g_string_append_printf (out, "%10.3f  %-20s  %-16s  %12s  %12s  %12s  %12s\n", secs, key, name,
                                  rss, pss, uss, swap);
        }
    }
  if (output == PGS_OUTPUT_JSON)
    g_string_append (out, "]\n");
  pgs_cli_write (out);
  return PGS_EXIT_OK;
}
