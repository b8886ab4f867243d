/* pgs-cli-wss.c: the working set of one process, as a time series
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Runs PgsWss asynchronously on a main loop, as the app will, so that Ctrl-C cancels the
 * wait and the samples taken so far are still reported.
 */

#include "config.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include <glib/gi18n.h>
#include <glib-unix.h>

#include "pgs-cli.h"
#include "pgs-cli-wss.h"
#include "pgs-escape.h"

typedef struct
{
  PgsWss       *wss;
  GMainLoop    *loop;
  GCancellable *cancellable;
  GPtrArray    *samples;
  PgsOutput     output;
  guint         count;
  guint         interval_ms;
  GError       *error;
  gboolean      interrupted;
  gboolean      until_stdin;
  guint         stdin_source;
  gboolean      stdin_closed;
} WssRun;

/* "16.0 MiB", or for nothing referenced, whether the process ran: a bare 0 says nothing. */
static char *
referenced_cell (PgsWssSample *sample)
{
  guint64 referenced = pgs_wss_sample_get_referenced (sample);
  PgsWssRan ran = pgs_wss_sample_get_ran (sample, NULL, NULL);

  if (referenced > 0 || ran == PGS_WSS_RAN_YES)
    return pgs_format_size (referenced);
  return g_strdup_printf ("0 B (%s)", ran == PGS_WSS_RAN_NO ? _("did not run") : _("ran: unknown"));
}

/* Whether it ran, and every caveat, one line each, after a sample's summary. */
static void
print_trust (PgsWssSample *sample,
             GString      *out)
{
  gint64 cpu = 0;
  guint64 switches = 0;
  PgsWssRan ran = pgs_wss_sample_get_ran (sample, &cpu, &switches);

  if (ran == PGS_WSS_RAN_UNKNOWN)
    g_string_append_printf (out, _("Ran: %s.\n"), pgs_wss_ran_describe (ran));
  else
    {
      /* The count formatted apart: a G_GUINT64_FORMAT spliced into the literal would cut
       * the message in two for xgettext. */
      g_autofree char *n = g_strdup_printf ("%" G_GUINT64_FORMAT, switches);

      g_string_append_printf (out, g_dngettext (GETTEXT_PACKAGE,
                                                "Ran: %s (%.2f s of CPU, %s context switch).\n",
                                                "Ran: %s (%.2f s of CPU, %s context switches).\n",
                                                (gulong) MIN (switches, G_MAXULONG)),
                              pgs_wss_ran_describe (ran), cpu / 1e6, n);
    }
  for (guint i = 0; i < pgs_wss_sample_get_n_caveats (sample); i++)
    g_string_append_printf (out, _("Caveat: %s\n"), pgs_wss_sample_get_caveat (sample, i)->message);
}

static char *
percent_cell (guint64 part,
              guint64 whole)
{
  if (whole == 0)
    return g_strdup ("—");
  return g_strdup_printf ("%.1f%%", 100.0 * (double) part / (double) whole);
}

static int
compare_mappings (gconstpointer a,
                  gconstpointer b)
{
  const PgsWssMapping *ma = *(const PgsWssMapping * const *) a;
  const PgsWssMapping *mb = *(const PgsWssMapping * const *) b;

  if (ma->referenced != mb->referenced)
    return ma->referenced > mb->referenced ? -1 : 1;
  if (ma->rss != mb->rss)
    return ma->rss > mb->rss ? -1 : 1;
  return ma->start < mb->start ? -1 : 1;
}

static void
print_header (PgsWss   *wss,
              guint     count,
              double    interval,
              gboolean  until_stdin,
              GString  *out)
{
  PgsWssPages sources = pgs_wss_get_page_sources (wss);
  PgsWssScope scope = pgs_wss_get_scope (wss);
  static const char *const scope_names[] = {
    NULL, N_("all mappings"), N_("anonymous mappings"), N_("file-backed mappings"),
  };
  /* The name is the process's own: nothing in it reaches the terminal raw. */
  g_autofree char *name = pgs_escape_for_terminal (pgs_wss_get_name (wss), -1);

  g_string_append_printf (out, _("PID %d (%s): working set of %s (clear_refs %d), "),
                          pgs_wss_get_pid (wss), name, _(scope_names[scope]),
                          (int) scope);
  if (until_stdin)
    g_string_append_printf (out, g_dngettext (GETTEXT_PACKAGE,
                                              "%u sample, ending at a line of standard input\n",
                                              "%u samples, each ending at a line of standard input\n",
                                              count),
                            count);
  else
    g_string_append_printf (out, g_dngettext (GETTEXT_PACKAGE, "%u sample of %.2f s\n",
                                              "%u samples of %.2f s each\n", count),
                            count, interval);
  g_string_append (out, _("Rests on: smaps “Referenced”, per mapping: the resident pages whose "
                          "accessed bit or PG_referenced the kernel found set again after the "
                          "clearing.\n"));
  if (sources == PGS_WSS_PAGES_NONE)
    g_string_append_printf (out, _("Per page: unavailable, so no page is shown as touched or "
                                   "untouched. Idle page tracking: %s. Soft-dirty: %s.\n"),
                            pgs_wss_get_page_source_reason (wss, PGS_WSS_PAGES_IDLE),
                            pgs_wss_get_page_source_reason (wss, PGS_WSS_PAGES_SOFT_DIRTY));
  else
    {
      if (sources & PGS_WSS_PAGES_IDLE)
        g_string_append (out, _("Per page, accessed: idle page tracking (ACCESSED, out of the "
                                "pages it could tell).\n"));
      else
        g_string_append_printf (out, _("Per page, accessed: unavailable: %s.\n"),
                                pgs_wss_get_page_source_reason (wss, PGS_WSS_PAGES_IDLE));
      if (sources & PGS_WSS_PAGES_SOFT_DIRTY)
        g_string_append (out, _("Per page, written: soft-dirty bits (WRITTEN).\n"));
      else
        g_string_append_printf (out, _("Per page, written: unavailable: %s.\n"),
                                pgs_wss_get_page_source_reason (wss, PGS_WSS_PAGES_SOFT_DIRTY));
    }
}

static char *
known_of_cell (guint64 part,
               guint64 known)
{
  g_autofree char *a = pgs_format_size (part);
  g_autofree char *b = pgs_format_size (known);

  return g_strdup_printf ("%s / %s", a, b);
}

static void
print_sample (PgsWssSample *sample,
              guint         index,
              guint         count,
              GString      *out)
{
  static const char *const headers[] = {
    N_("ADDRESS"), N_("PERMS"), N_("REFERENCED"), N_("RSS"), N_("%"), N_("ACCESSED"),
    N_("WRITTEN"), N_("MAPPING"),
  };
  PgsWssPages sources = pgs_wss_sample_get_page_sources (sample);
  gboolean idle = (sources & PGS_WSS_PAGES_IDLE) != 0;
  gboolean dirty = (sources & PGS_WSS_PAGES_SOFT_DIRTY) != 0;
  const char *used_headers[G_N_ELEMENTS (headers)];
  g_autoptr(GPtrArray) listed = g_ptr_array_new ();
  g_autoptr(PgsTable) table = NULL;
  g_autofree char *referenced = referenced_cell (sample);
  g_autofree char *rss = pgs_format_size (pgs_wss_sample_get_rss (sample));
  g_autofree char *pct = percent_cell (pgs_wss_sample_get_referenced (sample),
                                       pgs_wss_sample_get_rss (sample));
  guint n_columns = 0;
  guint n_empty = 0;

  /* The per-page columns exist only where their source does: an absent source is said in
   * the header, never shown as a column of zeros. */
  for (guint i = 0; i < G_N_ELEMENTS (headers); i++)
    if ((i != 5 || idle) && (i != 6 || dirty))
      used_headers[n_columns++] = headers[i];
  table = pgs_table_new (n_columns, used_headers, 0x3 | (G_GUINT64_CONSTANT (1) << (n_columns - 1)));

  g_string_append_printf (out, _("\nSample %u of %u, after %.2f s: %s referenced of %s resident (%s)\n"),
                          index, count, pgs_wss_sample_get_elapsed (sample) / 1e6, referenced, rss,
                          pct);
  print_trust (sample, out);
  {
    guint64 bytes, known;

    if (pgs_wss_sample_get_accessed (sample, &bytes, &known))
      {
        g_autofree char *a = pgs_format_size (bytes);
        g_autofree char *k = pgs_format_size (known);

        g_string_append_printf (out, _("Accessed, page by page: %s of the %s idle tracking could tell\n"),
                                a, k);
      }
    if (pgs_wss_sample_get_written (sample, &bytes, &known))
      {
        g_autofree char *a = pgs_format_size (bytes);
        g_autofree char *k = pgs_format_size (known);

        g_string_append_printf (out, _("Written, page by page: %s of %s\n"), a, k);
      }
  }

  for (guint i = 0; i < pgs_wss_sample_get_n_mappings (sample); i++)
    {
      const PgsWssMapping *m = pgs_wss_sample_get_mapping (sample, i);

      if (m->rss == 0)
        n_empty++;
      else
        g_ptr_array_add (listed, (gpointer) m);
    }
  g_ptr_array_sort (listed, compare_mappings);

  for (guint i = 0; i < listed->len; i++)
    {
      const PgsWssMapping *m = g_ptr_array_index (listed, i);
      char **row = g_new0 (char *, n_columns + 1);
      guint c = 0;

      row[c++] = g_strdup_printf ("%012" G_GINT64_MODIFIER "x-%012" G_GINT64_MODIFIER "x",
                                  m->start, m->end);
      row[c++] = g_strdup (m->perms);
      row[c++] = pgs_format_size (m->referenced);
      row[c++] = pgs_format_size (m->rss);
      row[c++] = percent_cell (m->referenced, m->rss);
      if (idle)
        row[c++] = known_of_cell (m->accessed, m->access_known);
      if (dirty)
        row[c++] = known_of_cell (m->written, m->write_known);
      row[c++] = g_strdup (pgs_mapping_label_for_path (m->path));
      pgs_table_add_row (table, row);
    }
  pgs_table_print (table, out);
  if (n_empty > 0)
    g_string_append_printf (out, g_dngettext (GETTEXT_PACKAGE,
                                              "(%u mapping in scope with nothing resident is not listed)\n",
                                              "(%u mappings in scope with nothing resident are not listed)\n",
                                              n_empty),
                            n_empty);
}

static void
print_series (GPtrArray *samples,
              GString   *out)
{
  static const char *const headers[] = {
    N_("SAMPLE"), N_("AFTER"), N_("REFERENCED"), N_("RESIDENT"), N_("%"),
  };
  g_autoptr(PgsTable) table = pgs_table_new (G_N_ELEMENTS (headers), headers, 0);

  for (guint i = 0; i < samples->len; i++)
    {
      PgsWssSample *s = g_ptr_array_index (samples, i);
      char **row = g_new0 (char *, G_N_ELEMENTS (headers) + 1);

      row[0] = g_strdup_printf ("%u", i + 1);
      row[1] = g_strdup_printf ("%.2f s", pgs_wss_sample_get_elapsed (s) / 1e6);
      row[2] = referenced_cell (s);
      row[3] = pgs_format_size (pgs_wss_sample_get_rss (s));
      row[4] = percent_cell (pgs_wss_sample_get_referenced (s), pgs_wss_sample_get_rss (s));
      pgs_table_add_row (table, row);
    }
  g_string_append_c (out, '\n');
  g_string_append (out, _("Working set over time:\n"));
  pgs_table_print (table, out);
}

static void next_sample (WssRun *run);

static void
take_sample (WssRun       *run,
             PgsWssSample *sample)
{
  if (sample == NULL)
    {
      g_main_loop_quit (run->loop);
      return;
    }
  g_ptr_array_add (run->samples, sample);

  if (run->output == PGS_OUTPUT_HUMAN)
    {
      g_autoptr(GString) out = g_string_new (NULL);

      print_sample (sample, run->samples->len, run->count, out);
      pgs_cli_write (out);
    }

  if (run->samples->len < run->count && !run->stdin_closed)
    next_sample (run);
  else
    {
      if (run->samples->len < run->count)
        g_set_error (&run->error, G_IO_ERROR, G_IO_ERROR_CLOSED,
                     _("standard input closed after %u of %u samples"), run->samples->len,
                     run->count);
      g_main_loop_quit (run->loop);
    }
}

static void
on_measured (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  WssRun *run = user_data;

  take_sample (run, pgs_wss_measure_finish (PGS_WSS (source), result, &run->error));
}

/* --until-stdin: the interval ends at a line (or the end) of standard input. The clearing
 * and the read-back are quick and run here; the wait is the main loop's. */
static gboolean
on_stdin (int          fd,
          GIOCondition condition,
          gpointer     user_data)
{
  WssRun *run = user_data;
  char byte;
  gssize n;

  /* Unbuffered, a byte at a time: whatever follows the line is the next interval's. */
  do
    n = read (fd, &byte, 1);
  while ((n == 1 && byte != '\n') || (n < 0 && errno == EINTR));
  if (n <= 0)
    run->stdin_closed = TRUE;
  run->stdin_source = 0;
  take_sample (run, pgs_wss_collect (run->wss, &run->error));
  return G_SOURCE_REMOVE;
}

static void
next_sample (WssRun *run)
{
  if (!run->until_stdin)
    {
      pgs_wss_measure_async (run->wss, run->interval_ms, run->cancellable, on_measured, run);
      return;
    }
  if (!pgs_wss_clear (run->wss, &run->error))
    {
      g_main_loop_quit (run->loop);
      return;
    }
  /* Said once the bits are cleared, so whoever ends the interval knows it has begun. */
  pgs_cli_error (_("sample %u: cleared; the interval ends at the next line of standard input"),
                 run->samples->len + 1);
  run->stdin_source = g_unix_fd_add (STDIN_FILENO, G_IO_IN | G_IO_HUP | G_IO_ERR, on_stdin, run);
}

static gboolean
on_signal (gpointer user_data)
{
  WssRun *run = user_data;

  run->interrupted = TRUE;
  g_cancellable_cancel (run->cancellable);
  if (run->stdin_source != 0)
    {
      g_clear_handle_id (&run->stdin_source, g_source_remove);
      g_set_error_literal (&run->error, G_IO_ERROR, G_IO_ERROR_CANCELLED, "interrupted");
      g_main_loop_quit (run->loop);
    }
  return G_SOURCE_CONTINUE;
}

int
pgs_cli_wss (int    argc,
             char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(PgsWss) wss = NULL;
  g_autoptr(GMainLoop) loop = NULL;
  g_autoptr(GCancellable) cancellable = NULL;
  g_autoptr(GPtrArray) samples = NULL;
  g_autoptr(GString) out = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *stopped = NULL;
  g_auto(PgsCliCommon) common = { 0 };
  PgsOutput output;
  double interval = 5.0;
  g_autofree char *interval_text = NULL;
  g_autofree char *method = NULL;
  g_autofree char *cgroup = NULL;
  g_autofree char *app = NULL;
  g_autoptr(GArray) intervals = g_array_new (FALSE, FALSE, sizeof (double));
  int count = 1;
  gboolean anon = FALSE, file = FALSE, until_stdin = FALSE;
  g_autofree char *sysfs_root = NULL;
  guint sigint, sigterm;
  WssRun run = { 0 };
  guint64 pid;
  char *end = NULL;
  int code;
  const GOptionEntry entries[] = {
    { "method", 'm', 0, G_OPTION_ARG_STRING, &method, N_("referenced (clear_refs, the default) or pageout (page the memory out and watch what returns: per page, needs root)"), N_("METHOD") },
    { "interval", 'i', 0, G_OPTION_ARG_STRING, &interval_text, N_("Seconds to let the process run after each clearing or page-out (default 5); with --method pageout a list such as 1,10,60 gives one cycle per interval"), N_("SECONDS") },
    { "cgroup", 0, 0, G_OPTION_ARG_FILENAME, &cgroup, N_("With --method pageout: every process of this cgroup (a directory of a cgroup hierarchy, or a cgroup v2 path)"), N_("PATH") },
    { "app", 0, 0, G_OPTION_ARG_STRING, &app, N_("With --method pageout: every process of this application (its desktop id)"), N_("ID") },
    { "count", 'n', 0, G_OPTION_ARG_INT, &count, N_("Number of samples, one per interval (default 1)"), N_("N") },
    { "anon", 0, 0, G_OPTION_ARG_NONE, &anon, N_("Only anonymous mappings (heap, stack, anonymous mmap)"), NULL },
    { "file", 0, 0, G_OPTION_ARG_NONE, &file, N_("Only mappings with a file behind them (shared anonymous memory included)"), NULL },
    { "until-stdin", 0, 0, G_OPTION_ARG_NONE, &until_stdin, N_("End each interval at a line of standard input (or its end) instead of after --interval; says on standard error when each clearing is done"), NULL },
    { "sysfs", 0, 0, G_OPTION_ARG_FILENAME, &sysfs_root, N_("Read sysfs (DAMON, idle page tracking) from DIR instead of /sys"), N_("DIR") },
    { NULL }
  };

  context = g_option_context_new (_("PID — estimate the working set of a process (or, with --method pageout, of a group)"));
  g_option_context_set_summary (context,
    _("Clears the referenced bits of the process’s pages (/proc/PID/clear_refs), lets it run "
      "for an interval, then reads /proc/PID/smaps back: what it referenced again is its "
      "working set, shown in total and per mapping out of what is resident. Repeated "
      "--count times, it is a time series.\n\n"
      "Clearing makes the kernel’s reclaim see the process’s pages as idle until they are "
      "touched again, so under memory pressure they may be evicted sooner. Needs root, or "
      "the same user as the process.\n\n"
      "--method pageout pages the process’s memory out to swap (process_madvise "
      "MADV_PAGEOUT) and reads pagemap after the interval: what is present again is what it "
      "touched, page by page. The process faults back in what it touches (latency for it, "
      "CPU for compression); shared pages are not measured; file pages give an upper bound. "
      "Needs root."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  pgs_cli_add_common_options (context, &common);
  if (!pgs_cli_parse (context, &common, &argc, &argv, &output))
    return PGS_EXIT_USAGE;

  if (output == PGS_OUTPUT_CSV)
    {
      pgs_cli_error ("%s", _("wss has no CSV output; use --json"));
      return PGS_EXIT_USAGE;
    }
  if (method != NULL && !g_str_equal (method, "referenced") && !g_str_equal (method, "pageout"))
    {
      pgs_cli_error (_("unknown --method “%s”: referenced or pageout"), method);
      return PGS_EXIT_USAGE;
    }
  if (interval_text != NULL)
    {
      g_auto(GStrv) parts = g_strsplit (interval_text, ",", -1);

      for (guint i = 0; parts[i] != NULL; i++)
        {
          char *end = NULL;
          double v = g_ascii_strtod (g_strstrip (parts[i]), &end);

          if (end == parts[i] || *end != '\0' || !isfinite (v) || v < 0.01 || v > 86400)
            {
              pgs_cli_error ("%s", _("--interval takes seconds from 0.01 to 86400"));
              return PGS_EXIT_USAGE;
            }
          g_array_append_val (intervals, v);
        }
      if (intervals->len == 0)
        {
          pgs_cli_error ("%s", _("--interval takes seconds from 0.01 to 86400"));
          return PGS_EXIT_USAGE;
        }
      interval = g_array_index (intervals, double, 0);
    }
  else
    g_array_append_val (intervals, interval);
  if (method != NULL && g_str_equal (method, "pageout"))
    {
      PgsCliWssArgs args = { 0 };
      g_autoptr(GArray) pids = g_array_new (FALSE, FALSE, sizeof (int));
      g_autoptr(GError) group_error = NULL;

      if (anon || file || until_stdin)
        {
          pgs_cli_error ("%s", _("--anon, --file and --until-stdin are for --method referenced"));
          return PGS_EXIT_USAGE;
        }
      if (count < 1 || count > 1000000)
        {
          pgs_cli_error ("%s", _("--count takes a number from 1 to 1000000"));
          return PGS_EXIT_USAGE;
        }
      if ((cgroup != NULL) + (app != NULL) + (argc > 1) != 1 || argc > 2)
        {
          pgs_cli_error ("%s", _("wss --method pageout needs one PID, or --cgroup, or --app"));
          return PGS_EXIT_USAGE;
        }
      if (argc == 2)
        {
          int one;

          if (!pgs_cli_parse_pid (argv[1], &one))
            {
              pgs_cli_error (_("“%s” is not a PID"), argv[1]);
              return PGS_EXIT_USAGE;
            }
          g_array_append_val (pids, one);
        }
      else if (!pgs_cli_wss_group_pids (cgroup, app, common.procfs_root, pids, &group_error))
        {
          pgs_cli_error ("%s", group_error->message);
          return PGS_EXIT_FAILED;
        }
      args.pids = pids;
      args.intervals = (const double *) intervals->data;
      args.n_intervals = intervals->len;
      args.count = (guint) count;
      args.output = output;
      args.procfs_root = common.procfs_root;
      args.sysfs_root = sysfs_root;
      return pgs_cli_wss_pageout (&args);
    }
  if (intervals->len > 1)
    {
      pgs_cli_error ("%s", _("a list of intervals is for --method pageout"));
      return PGS_EXIT_USAGE;
    }
  if (cgroup != NULL || app != NULL)
    {
      pgs_cli_error ("%s", _("--cgroup and --app are for --method pageout"));
      return PGS_EXIT_USAGE;
    }
  if (anon && file)
    {
      pgs_cli_error ("%s", _("--anon and --file cannot be combined"));
      return PGS_EXIT_USAGE;
    }
  if (count < 1 || count > 1000000)
    {
      pgs_cli_error ("%s", _("--count takes a number from 1 to 1000000"));
      return PGS_EXIT_USAGE;
    }
  if (argc != 2)
    {
      pgs_cli_error ("%s", _("wss needs exactly one PID"));
      return PGS_EXIT_USAGE;
    }
  pid = g_ascii_strtoull (argv[1], &end, 10);
  if (end == argv[1] || *end != '\0' || pid == 0 || pid > G_MAXINT)
    {
      pgs_cli_error (_("“%s” is not a PID"), argv[1]);
      return PGS_EXIT_USAGE;
    }

  wss = pgs_wss_new ((int) pid);
  if (common.procfs_root != NULL)
    pgs_wss_set_procfs_root (wss, common.procfs_root);
  if (sysfs_root != NULL)
    pgs_wss_set_sysfs_root (wss, sysfs_root);
  pgs_wss_set_scope (wss, anon ? PGS_WSS_SCOPE_ANON : file ? PGS_WSS_SCOPE_FILE : PGS_WSS_SCOPE_ALL);

  /* Everything that can fail before the clearing fails here, with nothing cleared. */
  if (!pgs_wss_prepare (wss, &error))
    {
      pgs_cli_error ("%s", error->message);
      return PGS_EXIT_FAILED;
    }

  pgs_cli_error (_("warning: clearing the referenced bits of PID %d (%s)%s: until it touches "
                   "its pages again, the kernel’s reclaim sees them as idle and may evict "
                   "them sooner"),
                 pgs_wss_get_pid (wss), pgs_wss_get_name (wss),
                 (pgs_wss_get_page_sources (wss) & PGS_WSS_PAGES_SOFT_DIRTY)
                   ? _(" and its soft-dirty bits") : "");

  if (output == PGS_OUTPUT_HUMAN)
    {
      print_header (wss, count, interval, until_stdin, out);
      pgs_cli_write (out);
      g_string_truncate (out, 0);
    }

  loop = g_main_loop_new (NULL, FALSE);
  cancellable = g_cancellable_new ();
  samples = g_ptr_array_new_with_free_func ((GDestroyNotify) pgs_wss_sample_unref);
  run.wss = wss;
  run.loop = loop;
  run.cancellable = cancellable;
  run.samples = samples;
  run.output = output;
  run.count = (guint) count;
  run.interval_ms = (guint) lround (interval * 1000);
  run.until_stdin = until_stdin;

  sigint = g_unix_signal_add (SIGINT, on_signal, &run);
  sigterm = g_unix_signal_add (SIGTERM, on_signal, &run);
  next_sample (&run);
  g_main_loop_run (loop);
  g_source_remove (sigint);
  g_source_remove (sigterm);

  if (run.error != NULL)
    {
      if (run.interrupted)
        stopped = g_strdup_printf (_("interrupted after %u of %u samples"), samples->len, run.count);
      else if (g_error_matches (run.error, G_IO_ERROR, G_IO_ERROR_CLOSED))
        stopped = g_strdup (run.error->message);
      else if (run.count > 1)
        stopped = g_strdup_printf (_("%s (after %u of %u samples)"), run.error->message,
                                   samples->len, run.count);
      else
        stopped = g_strdup (run.error->message);
      g_clear_error (&run.error);
    }

  code = stopped == NULL ? PGS_EXIT_OK : samples->len > 0 ? PGS_EXIT_PARTIAL : PGS_EXIT_FAILED;

  /* A series that stopped short is still reported whole sample by sample, with why it
   * stopped; with no sample at all there is nothing to report but the reason. */
  if (samples->len > 0)
    {
      if (output == PGS_OUTPUT_JSON)
        pgs_wss_samples_to_json (out, pgs_wss_get_name (wss), until_stdin ? -1 : interval, samples,
                                 run.count, stopped);
      else if (samples->len > 1)
        print_series (samples, out);
      pgs_cli_write (out);
    }
  if (stopped != NULL)
    pgs_cli_error ("%s", stopped);
  return code;
}
