/* pgs-wss-pageout-json.c: `pagescope-cli wss --method pageout --json`
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One object; sizes in bytes, times in seconds:
 *
 *   method              "pageout"
 *   page_size           bytes
 *   swap                whether swap was active: without it anonymous pages are not measured
 *                       (they count as not_measured, no_swap)
 *   processes           list of {pid, name}: the processes measured (one, or a group)
 *   gone                list of "PID n (name)": processes that exited meanwhile, dropped
 *   cycles_requested    how many cycles were asked for
 *   complete            false when the series stopped short; "error" says why
 *   error               string or null
 *   touched, stayed_out, not_measured, shared, upper_bound, pageout_seconds, interval
 *                       the last cycle's totals (see below), for a single measurement
 *   mappings            the last cycle's mappings of every process (see below, with pid)
 *   cycles              list of, one per page-out and wait:
 *     index             1, 2, …
 *     interval          the wait asked for
 *     pageout_seconds   how long paging out every process took (the wait starts after)
 *     paged_out         bytes the page-out moved (present before it, not after)
 *     touched           bytes present again, or back in swap under another swap entry
 *     stayed_out        bytes where the page-out left them
 *     not_measured      bytes that could not be measured: shared + not_paged + no_swap
 *     shared            of it, mapped by other processes too (MADV_PAGEOUT leaves them)
 *     upper_bound       of touched, the bytes in mappings whose figure is an upper bound
 *     swapoff           a swap area was turned off during the interval: it brought its
 *                       pages back into memory, touched or not, so touched may be too high
 *     processes         list of {pid, name, elapsed (the wait really had, from the end of
 *                       its page-out), pageout_seconds, paged_out, touched, stayed_out,
 *                       not_measured, shared, not_paged, no_swap, mappings}
 *   a mapping           {pid, start, end ("0x…"), perms, path ("[anon]" for none), anonymous,
 *                       touched, stayed_out, not_measured, shared, not_paged, no_swap,
 *                       upper_bound (bool), bound (list of "fault-around", "large-folios"),
 *                       refused (why the kernel will not page it out, or null)}
 *                       Mappings with nothing measured are left out.
 */

#include "config.h"

#include "pgs-mapping.h"
#include "pgs-report.h"
#include "pgs-wss-pageout-private.h"

static void
append_mapping (GString                 *out,
                int                      pid,
                const PgsPageoutMapping *m)
{
  g_string_append_printf (out, "{\"pid\":%d,\"start\":\"0x%" G_GINT64_MODIFIER "x\","
                          "\"end\":\"0x%" G_GINT64_MODIFIER "x\",\"perms\":\"%s\",",
                          pid, m->start, m->end, m->perms);
  pgs_json_append_text_member (out, "path", pgs_mapping_label_for_path (m->path));
  g_string_append_printf (out, ",\"anonymous\":%s,\"touched\":%" G_GUINT64_FORMAT
                          ",\"stayed_out\":%" G_GUINT64_FORMAT ",\"not_measured\":%" G_GUINT64_FORMAT
                          ",\"shared\":%" G_GUINT64_FORMAT ",\"not_paged\":%" G_GUINT64_FORMAT
                          ",\"no_swap\":%" G_GUINT64_FORMAT ",\"upper_bound\":%s,\"bound\":[",
                          m->anonymous ? "true" : "false", m->touched, m->stayed_out,
                          m->not_measured, m->shared, m->not_paged, m->no_swap,
                          m->bound != PGS_PAGEOUT_EXACT ? "true" : "false");
  if (m->bound & PGS_PAGEOUT_FAULT_AROUND)
    g_string_append (out, "\"fault-around\"");
  if (m->bound & PGS_PAGEOUT_LARGE_FOLIOS)
    g_string_append_printf (out, "%s\"large-folios\"",
                            (m->bound & PGS_PAGEOUT_FAULT_AROUND) ? "," : "");
  g_string_append (out, "],\"refused\":");
  if (m->refused != NULL)
    pgs_json_append_string (out, m->refused);
  else
    g_string_append (out, "null");
  g_string_append_c (out, '}');
}

static gboolean
mapping_listed (const PgsPageoutMapping *m)
{
  return m->touched + m->stayed_out + m->not_measured > 0;
}

static void
append_mappings (GString   *out,
                 GPtrArray *results)
{
  gboolean first = TRUE;

  g_string_append (out, "\"mappings\":[");
  for (guint p = 0; p < results->len; p++)
    {
      PgsPageoutResult *r = g_ptr_array_index (results, p);

      for (guint i = 0; i < pgs_pageout_result_get_n_mappings (r); i++)
        {
          const PgsPageoutMapping *m = pgs_pageout_result_get_mapping (r, i);

          if (!mapping_listed (m))
            continue;
          if (!first)
            g_string_append_c (out, ',');
          first = FALSE;
          append_mapping (out, pgs_pageout_result_get_pid (r), m);
        }
    }
  g_string_append_c (out, ']');
}

typedef struct
{
  guint64 touched, stayed_out, not_measured, shared, upper_bound, paged_out;
  gint64  pageout_time;
  gint64  interval;
  gboolean swapoff;
} Totals;

static void
sum_cycle (GPtrArray *results,
           Totals    *t)
{
  *t = (Totals) { 0 };
  for (guint p = 0; p < results->len; p++)
    {
      PgsPageoutResult *r = g_ptr_array_index (results, p);

      t->touched += pgs_pageout_result_get_touched (r);
      t->stayed_out += pgs_pageout_result_get_stayed_out (r);
      t->not_measured += pgs_pageout_result_get_not_measured (r);
      t->shared += pgs_pageout_result_get_shared (r);
      t->upper_bound += pgs_pageout_result_get_upper_bound (r);
      t->paged_out += pgs_pageout_result_get_paged_out (r);
      t->pageout_time += pgs_pageout_result_get_pageout_time (r);
      t->interval = pgs_pageout_result_get_interval (r);
      t->swapoff |= pgs_pageout_result_get_swapoff (r);
    }
}

static void
append_totals (GString      *out,
               const Totals *t)
{
  g_string_append_printf (out, "\"interval\":%.3f,\"pageout_seconds\":%.3f,"
                          "\"paged_out\":%" G_GUINT64_FORMAT ",\"touched\":%" G_GUINT64_FORMAT
                          ",\"stayed_out\":%" G_GUINT64_FORMAT ",\"not_measured\":%" G_GUINT64_FORMAT
                          ",\"shared\":%" G_GUINT64_FORMAT ",\"upper_bound\":%" G_GUINT64_FORMAT
                          ",\"swapoff\":%s",
                          t->interval / 1e6, t->pageout_time / 1e6, t->paged_out, t->touched,
                          t->stayed_out, t->not_measured, t->shared, t->upper_bound,
                          t->swapoff ? "true" : "false");
}

void
pgs_pageout_to_json (GString    *out,
                     PgsPageout *self,
                     GPtrArray  *cycles,
                     guint       n_requested,
                     const char *error_message)
{
  const char * const *gone = pgs_pageout_get_gone (self);
  Totals t;

  g_string_append_printf (out, "{\"method\":\"pageout\",\"page_size\":%u,\"swap\":%s,"
                          "\"processes\":[", self->page_size, self->swap ? "true" : "false");
  for (guint i = 0; i < self->procs->len; i++)
    {
      PoProc *proc = &g_array_index (self->procs, PoProc, i);

      g_string_append_printf (out, "%s{\"pid\":%d,", i > 0 ? "," : "", proc->pid);
      pgs_json_append_text_member (out, "name", proc->name != NULL ? proc->name : "");
      g_string_append_c (out, '}');
    }
  g_string_append (out, "],\"gone\":[");
  for (guint i = 0; gone[i] != NULL; i++)
    {
      if (i > 0)
        g_string_append_c (out, ',');
      pgs_json_append_string (out, gone[i]);
    }
  g_string_append_printf (out, "],\"cycles_requested\":%u,\"complete\":%s,\"error\":",
                          n_requested, error_message == NULL ? "true" : "false");
  if (error_message != NULL)
    pgs_json_append_string (out, error_message);
  else
    g_string_append (out, "null");

  if (cycles->len > 0)
    {
      GPtrArray *last = g_ptr_array_index (cycles, cycles->len - 1);

      sum_cycle (last, &t);
      g_string_append_c (out, ',');
      append_totals (out, &t);
      g_string_append_c (out, ',');
      append_mappings (out, last);
    }

  g_string_append (out, ",\"cycles\":[");
  for (guint c = 0; c < cycles->len; c++)
    {
      GPtrArray *results = g_ptr_array_index (cycles, c);

      sum_cycle (results, &t);
      g_string_append_printf (out, "%s{\"index\":%u,", c > 0 ? "," : "", c + 1);
      append_totals (out, &t);
      g_string_append (out, ",\"processes\":[");
      for (guint p = 0; p < results->len; p++)
        {
          PgsPageoutResult *r = g_ptr_array_index (results, p);
          guint64 not_paged = 0, no_swap = 0;

          for (guint i = 0; i < pgs_pageout_result_get_n_mappings (r); i++)
            {
              not_paged += pgs_pageout_result_get_mapping (r, i)->not_paged;
              no_swap += pgs_pageout_result_get_mapping (r, i)->no_swap;
            }
          g_string_append_printf (out, "%s{\"pid\":%d,", p > 0 ? "," : "",
                                  pgs_pageout_result_get_pid (r));
          pgs_json_append_text_member (out, "name", pgs_pageout_result_get_name (r));
          g_string_append_printf (out, ",\"elapsed\":%.3f,\"pageout_seconds\":%.3f,"
                                  "\"paged_out\":%" G_GUINT64_FORMAT ",\"touched\":%" G_GUINT64_FORMAT
                                  ",\"stayed_out\":%" G_GUINT64_FORMAT
                                  ",\"not_measured\":%" G_GUINT64_FORMAT ",\"shared\":%" G_GUINT64_FORMAT
                                  ",\"not_paged\":%" G_GUINT64_FORMAT ",\"no_swap\":%" G_GUINT64_FORMAT ",",
                                  pgs_pageout_result_get_elapsed (r) / 1e6,
                                  pgs_pageout_result_get_pageout_time (r) / 1e6,
                                  pgs_pageout_result_get_paged_out (r),
                                  pgs_pageout_result_get_touched (r),
                                  pgs_pageout_result_get_stayed_out (r),
                                  pgs_pageout_result_get_not_measured (r),
                                  pgs_pageout_result_get_shared (r), not_paged, no_swap);
          {
            g_autoptr(GPtrArray) one = g_ptr_array_new ();

            g_ptr_array_add (one, r);
            append_mappings (out, one);
          }
          g_string_append_c (out, '}');
        }
      g_string_append (out, "]}");
    }
  g_string_append (out, "]}\n");
}
