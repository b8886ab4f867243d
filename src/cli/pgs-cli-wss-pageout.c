/* pgs-cli-wss-pageout.c: `pagescope-cli wss --method pageout`
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Cycles of page-out and wait on a main loop: Ctrl-C cancels the page-out between chunks,
 * or the wait, and the cycles done so far are still reported. A progress line on standard
 * error while paging out, when it is a terminal.
 */

#include "config.h"

#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <glib/gi18n.h>
#include <glib-unix.h>

#include "pgs-cli.h"
#include "pgs-cli-wss.h"
#include "pgs-escape.h"

/* What paging 1 GiB out into zram took on the test machine (README, "Working set by
 * paging out"): for the estimate said before starting. */
#define SECONDS_PER_GIB 4.0

typedef struct
{
  PgsPageout   *pageout;
  GMainLoop    *loop;
  GCancellable *cancellable;
  GPtrArray    *cycles;       /* GPtrArray of PgsPageoutResult */
  PgsOutput     output;
  const double *intervals;
  guint         n_intervals;
  guint         n_cycles;
  GError       *error;
  gboolean      interrupted;
  gboolean      progress;     /* stderr is a terminal */
  guint         progress_source;
  gboolean      paging;
  gint64        cycle_start;
} PageoutRun;

static double
cycle_interval (PageoutRun *run,
                guint       index)
{
  return run->intervals[index % run->n_intervals];
}

static gboolean
progress_tick (gpointer user_data)
{
  PageoutRun *run = user_data;
  guint64 done = 0, total = 0;
  gboolean paging = pgs_pageout_get_progress (run->pageout, &done, &total);

  /* Once the page-out is over, the wait has begun. */
  if (run->paging && !paging)
    {
      run->paging = FALSE;
      run->cycle_start = g_get_monotonic_time ();
    }
  if (run->paging)
    {
      g_autofree char *d = pgs_format_size (MIN (done, total));
      g_autofree char *t = pgs_format_size (total);

      fprintf (stderr, _("\r\033[Kcycle %u of %u: paging out %s of %s (%.0f%%)"),
               run->cycles->len + 1, run->n_cycles, d, t,
               total > 0 ? 100.0 * MIN (done, total) / total : 100.0);
    }
  else
    fprintf (stderr, _("\r\033[Kcycle %u of %u: waiting, %.0f s of %g s"),
             run->cycles->len + 1, run->n_cycles,
             (g_get_monotonic_time () - run->cycle_start) / 1e6,
             cycle_interval (run, run->cycles->len));
  fflush (stderr);
  return G_SOURCE_CONTINUE;
}

static void
clear_progress (PageoutRun *run)
{
  g_clear_handle_id (&run->progress_source, g_source_remove);
  if (run->progress)
    {
      fputs ("\r\033[K", stderr);
      fflush (stderr);
    }
}

static int
compare_mappings (gconstpointer a,
                  gconstpointer b)
{
  const PgsPageoutMapping *ma = *(const PgsPageoutMapping * const *) a;
  const PgsPageoutMapping *mb = *(const PgsPageoutMapping * const *) b;

  if (ma->touched != mb->touched)
    return ma->touched > mb->touched ? -1 : 1;
  if (ma->stayed_out != mb->stayed_out)
    return ma->stayed_out > mb->stayed_out ? -1 : 1;
  return ma->start < mb->start ? -1 : 1;
}

static char *
percent_cell (guint64 part,
              guint64 whole)
{
  if (whole == 0)
    return g_strdup ("—");
  return g_strdup_printf ("%.1f%%", 100.0 * (double) part / (double) whole);
}

static void
print_result (PgsPageoutResult *r,
              GString          *out)
{
  static const char *const headers[] = {
    N_("ADDRESS"), N_("PERMS"), N_("TOUCHED"), N_("STAYED OUT"), N_("%"), N_("NOT MEASURED"),
    N_("MAPPING"),
  };
  g_autoptr(PgsTable) table = pgs_table_new (G_N_ELEMENTS (headers), headers,
                                             0x3 | (1u << (G_N_ELEMENTS (headers) - 1)));
  g_autoptr(GPtrArray) listed = g_ptr_array_new ();
  g_autofree char *name = pgs_escape_for_terminal (pgs_pageout_result_get_name (r), -1);
  g_autofree char *touched = pgs_format_size (pgs_pageout_result_get_touched (r));
  g_autofree char *out_ = pgs_format_size (pgs_pageout_result_get_stayed_out (r));
  g_autofree char *nm = pgs_format_size (pgs_pageout_result_get_not_measured (r));
  g_autofree char *shared = pgs_format_size (pgs_pageout_result_get_shared (r));
  gboolean bounded = FALSE;

  g_string_append_printf (out, _("PID %d (%s), after %.2f s: touched %s, stayed out %s, "
                                 "not measured %s (shared %s); page-out %.2f s\n"),
                          pgs_pageout_result_get_pid (r), name,
                          pgs_pageout_result_get_elapsed (r) / 1e6, touched, out_, nm, shared,
                          pgs_pageout_result_get_pageout_time (r) / 1e6);
  if (pgs_pageout_result_get_swapoff (r))
    g_string_append (out, _("Caveat: a swap area was turned off during the interval: it brought "
                            "its pages back into memory, touched or not, so touched may be too "
                            "high.\n"));
  for (guint i = 0; i < pgs_pageout_result_get_n_mappings (r); i++)
    {
      const PgsPageoutMapping *m = pgs_pageout_result_get_mapping (r, i);

      if (m->touched + m->stayed_out + m->not_measured > 0)
        g_ptr_array_add (listed, (gpointer) m);
    }
  g_ptr_array_sort (listed, compare_mappings);
  for (guint i = 0; i < listed->len; i++)
    {
      const PgsPageoutMapping *m = g_ptr_array_index (listed, i);
      char **row = g_new0 (char *, G_N_ELEMENTS (headers) + 1);
      g_autofree char *t = pgs_format_size (m->touched);

      row[0] = g_strdup_printf ("%012" G_GINT64_MODIFIER "x-%012" G_GINT64_MODIFIER "x",
                                m->start, m->end);
      row[1] = g_strdup (m->perms);
      /* "≤": an upper bound (file pages, large folios). */
      row[2] = m->bound != PGS_PAGEOUT_EXACT && m->touched > 0
               ? g_strdup_printf ("≤ %s", t) : g_strdup (t);
      bounded |= m->bound != PGS_PAGEOUT_EXACT && m->touched > 0;
      row[3] = pgs_format_size (m->stayed_out);
      row[4] = percent_cell (m->touched, m->touched + m->stayed_out);
      row[5] = m->refused != NULL
               ? g_strdup_printf ("%s (%s)", pgs_format_size (m->not_measured), _(m->refused))
               : pgs_format_size (m->not_measured);
      row[6] = pgs_escape_for_terminal (pgs_mapping_label_for_path (m->path), -1);
      pgs_table_add_row (table, row);
    }
  pgs_table_print (table, out);
  if (bounded)
    g_string_append (out, _("≤: an upper bound: file pages come back with their neighbours "
                            "(fault-around, readahead), large folios may be swapped in whole.\n"));
}

static void next_cycle (PageoutRun *run);

static void
on_measured (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  PageoutRun *run = user_data;
  GPtrArray *results = pgs_pageout_measure_finish (PGS_PAGEOUT (source), result, &run->error);

  clear_progress (run);
  if (results == NULL)
    {
      g_main_loop_quit (run->loop);
      return;
    }
  g_ptr_array_add (run->cycles, results);
  if (run->output == PGS_OUTPUT_HUMAN)
    {
      g_autoptr(GString) out = g_string_new (NULL);
      guint64 pageout_bytes = 0;
      gint64 pageout_time = 0;

      for (guint i = 0; i < results->len; i++)
        {
          pageout_bytes += pgs_pageout_result_get_paged_out (g_ptr_array_index (results, i));
          pageout_time += pgs_pageout_result_get_pageout_time (g_ptr_array_index (results, i));
        }
      {
        g_autofree char *bytes = pgs_format_size (pageout_bytes);

        g_string_append_printf (out, _("\nCycle %u of %u: interval %g s, after a page-out of %s "
                                       "that took %.2f s\n"),
                                run->cycles->len, run->n_cycles,
                                cycle_interval (run, run->cycles->len - 1), bytes,
                                pageout_time / 1e6);
      }
      for (guint i = 0; i < results->len; i++)
        print_result (g_ptr_array_index (results, i), out);
      pgs_cli_write (out);
    }
  if (run->cycles->len < run->n_cycles)
    next_cycle (run);
  else
    g_main_loop_quit (run->loop);
}

static void
next_cycle (PageoutRun *run)
{
  double interval = cycle_interval (run, run->cycles->len);

  run->paging = TRUE;
  run->cycle_start = g_get_monotonic_time ();
  if (run->progress)
    run->progress_source = g_timeout_add (200, progress_tick, run);
  pgs_pageout_measure_async (run->pageout, (guint) lround (interval * 1000), run->cancellable,
                             on_measured, run);
}

static gboolean
on_signal (gpointer user_data)
{
  PageoutRun *run = user_data;

  run->interrupted = TRUE;
  g_cancellable_cancel (run->cancellable);
  return G_SOURCE_CONTINUE;
}

static void
print_curve (PageoutRun *run,
             GString    *out)
{
  static const char *const headers[] = {
    N_("CYCLE"), N_("INTERVAL"), N_("PAGE-OUT"), N_("TOUCHED"), N_("STAYED OUT"),
    N_("NOT MEASURED"),
  };
  g_autoptr(PgsTable) table = pgs_table_new (G_N_ELEMENTS (headers), headers, 0);

  for (guint c = 0; c < run->cycles->len; c++)
    {
      GPtrArray *results = g_ptr_array_index (run->cycles, c);
      guint64 t = 0, s = 0, n = 0;
      gint64 time = 0;
      char **row = g_new0 (char *, G_N_ELEMENTS (headers) + 1);

      for (guint i = 0; i < results->len; i++)
        {
          PgsPageoutResult *r = g_ptr_array_index (results, i);

          t += pgs_pageout_result_get_touched (r);
          s += pgs_pageout_result_get_stayed_out (r);
          n += pgs_pageout_result_get_not_measured (r);
          time += pgs_pageout_result_get_pageout_time (r);
        }
      row[0] = g_strdup_printf ("%u", c + 1);
      row[1] = g_strdup_printf ("%g s", cycle_interval (run, c));
      row[2] = g_strdup_printf ("%.2f s", time / 1e6);
      row[3] = pgs_format_size (t);
      row[4] = pgs_format_size (s);
      row[5] = pgs_format_size (n);
      pgs_table_add_row (table, row);
    }
  g_string_append (out, _("\nWhat it touched, by interval:\n"));
  pgs_table_print (table, out);
}

static void
say_what_it_does (PgsPageout *pageout,
                  double      total_wait)
{
  guint n = pgs_pageout_get_n_processes (pageout);
  guint64 bytes = pgs_pageout_get_bytes (pageout);
  guint64 swap_free = pgs_pageout_get_swap_free (pageout);
  g_autofree char *size = pgs_format_size (bytes);
  g_autofree char *left = pgs_format_size (pgs_pageout_get_left_bytes (pageout));
  g_autofree char *who = NULL;
  double estimate = SECONDS_PER_GIB * (double) bytes / (1u << 30);

  if (n == 1)
    {
      g_autofree char *name = pgs_escape_for_terminal (pgs_pageout_get_name (pageout, 0), -1);

      who = g_strdup_printf ("PID %d (%s)", pgs_pageout_get_pid (pageout, 0), name);
    }
  else
    who = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u process", "%u processes", n), n);

  pgs_cli_error (_("warning: paging out %s: %s of its memory moves to swap (and clean file "
                   "pages out of memory); it faults back in what it touches, which costs it "
                   "latency, and compressing costs CPU. Nothing is lost. Paging out may take "
                   "about %.0f s per cycle, then %g s of waiting in all; %s stays in place "
                   "(shared, locked or not pageable) and is reported as not measured"),
                 who, size, MAX (1.0, ceil (estimate)), total_wait, left);
  if (!pgs_pageout_get_swap (pageout))
    pgs_cli_error ("%s", _("warning: no swap is active: anonymous pages cannot be paged out, "
                           "so they are not measured; only file pages are"));
  else if (swap_free != G_MAXUINT64 && swap_free < bytes)
    {
      g_autofree char *free_ = pgs_format_size (swap_free);

      pgs_cli_error (_("warning: only %s of swap is free: what does not fit stays in memory "
                       "and is reported as not measured"), free_);
    }
}

int
pgs_cli_wss_pageout (const PgsCliWssArgs *args)
{
  g_autoptr(PgsPageout) pageout = NULL;
  g_autoptr(GMainLoop) loop = NULL;
  g_autoptr(GCancellable) cancellable = NULL;
  g_autoptr(GPtrArray) cycles = NULL;
  g_autoptr(GString) out = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *stopped = NULL;
  PageoutRun run = { 0 };
  double total_wait = 0;
  guint sigint, sigterm;
  int code;

  pageout = pgs_pageout_new ((const int *) args->pids->data, args->pids->len);
  if (args->procfs_root != NULL)
    pgs_pageout_set_procfs_root (pageout, args->procfs_root);
  if (args->sysfs_root != NULL)
    pgs_pageout_set_sysfs_root (pageout, args->sysfs_root);
  if (!pgs_pageout_prepare (pageout, &error))
    {
      pgs_cli_error ("%s", error->message);
      return PGS_EXIT_FAILED;
    }

  for (guint c = 0; c < args->count * args->n_intervals; c++)
    total_wait += args->intervals[c % args->n_intervals];
  say_what_it_does (pageout, total_wait);

  loop = g_main_loop_new (NULL, FALSE);
  cancellable = g_cancellable_new ();
  cycles = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);
  run.pageout = pageout;
  run.loop = loop;
  run.cancellable = cancellable;
  run.cycles = cycles;
  run.output = args->output;
  run.intervals = args->intervals;
  run.n_intervals = args->n_intervals;
  run.n_cycles = args->count * args->n_intervals;
  run.progress = isatty (STDERR_FILENO);

  sigint = g_unix_signal_add (SIGINT, on_signal, &run);
  sigterm = g_unix_signal_add (SIGTERM, on_signal, &run);
  next_cycle (&run);
  g_main_loop_run (loop);
  g_source_remove (sigint);
  g_source_remove (sigterm);
  clear_progress (&run);

  for (guint i = 0; pgs_pageout_get_gone (pageout)[i] != NULL; i++)
    pgs_cli_error (_("%s exited during the measurement and is left out"),
                   pgs_pageout_get_gone (pageout)[i]);

  if (run.error != NULL)
    {
      if (run.interrupted)
        stopped = g_strdup_printf (_("interrupted after %u of %u cycles"), cycles->len,
                                   run.n_cycles);
      else if (run.n_cycles > 1)
        stopped = g_strdup_printf (_("%s (after %u of %u cycles)"), run.error->message,
                                   cycles->len, run.n_cycles);
      else
        stopped = g_strdup (run.error->message);
      g_clear_error (&run.error);
    }
  code = stopped == NULL ? PGS_EXIT_OK : cycles->len > 0 ? PGS_EXIT_PARTIAL : PGS_EXIT_FAILED;

  if (cycles->len > 0)
    {
      if (args->output == PGS_OUTPUT_JSON)
        pgs_pageout_to_json (out, pageout, cycles, run.n_cycles, stopped);
      else if (cycles->len > 1)
        print_curve (&run, out);
      pgs_cli_write (out);
    }
  if (stopped != NULL)
    pgs_cli_error ("%s", stopped);
  return code;
}
