/* pgs-cli-system.c: the RAM behind swap (zram), merged pages (KSM) and huge pages (THP)
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "pgs-cli.h"

typedef struct
{
  PgsProcess    *process;
  gboolean       swap_known;
  guint64        swap;
  gboolean       swap_ram_known;
  guint64        swap_ram;
  const char    *swap_ram_reason;
  gboolean       thp_known;
  guint64        anon_huge;
  gboolean       thp_all_known;  /* the library's: AnonHugePages + ShmemPmdMapped + FilePmdMapped */
  guint64        thp_all;
  gboolean       ksm_known;
  PgsKsmProcess  ksm;
} Row;

static void
read_process (const char *procfs_root,
              Row        *row)
{
  g_autofree char *dir = g_strdup_printf ("%s/%d", procfs_root ? procfs_root : "/proc",
                                          pgs_process_get_pid (row->process));
  g_autofree char *path = g_build_filename (dir, "smaps_rollup", NULL);
  g_autofree char *buf = NULL;
  gsize len = 0;

  if (g_file_get_contents (path, &buf, &len, NULL))
    row->thp_known = pgs_kb_field (buf, len, "AnonHugePages", &row->anon_huge);
  g_clear_pointer (&buf, g_free);
  g_clear_pointer (&path, g_free);
  path = g_build_filename (dir, "ksm_stat", NULL);
  if (g_file_get_contents (path, &buf, &len, NULL))
    row->ksm_known = pgs_ksm_parse_process (buf, len, &row->ksm);
}

static int
compare_rows (gconstpointer a,
              gconstpointer b)
{
  const Row *ra = a;
  const Row *rb = b;

  if (ra->swap != rb->swap)
    return ra->swap > rb->swap ? -1 : 1;
  if (ra->thp_all != rb->thp_all)
    return ra->thp_all > rb->thp_all ? -1 : 1;
  if (ra->anon_huge != rb->anon_huge)
    return ra->anon_huge > rb->anon_huge ? -1 : 1;
  return pgs_process_get_pid (ra->process) - pgs_process_get_pid (rb->process);
}

static void
json_int (GString *out,
          gint64   v)
{
  if (v < 0)
    g_string_append (out, "null");
  else
    g_string_append_printf (out, "%" G_GINT64_FORMAT, v);
}

static void
print_json (PgsSwapCost        *cost,
            const PgsKsmSystem *ksm,
            gboolean            have_ksm,
            const guint64      *thp,
            const gboolean     *thp_known,
            GArray             *rows,
            guint               page_size,
            GString            *out)
{
  g_string_append_printf (out, "{\"page_size\":%u,\"swaps\":[", page_size);
  for (guint i = 0; i < cost->swaps->len; i++)
    {
      const PgsSwapDevice *s = g_ptr_array_index (cost->swaps, i);

      g_string_append (out, i ? ",{" : "{");
      pgs_json_append_text_member (out, "device", s->device);
      g_string_append (out, ",\"type\":");
      pgs_json_append_string (out, s->type);
      g_string_append_printf (out, ",\"size\":%" G_GUINT64_FORMAT ",\"used\":%" G_GUINT64_FORMAT
                              ",\"priority\":%d,\"zram\":", s->size, s->used, s->priority);
      pgs_json_append_string (out, s->zram);
      g_string_append_c (out, '}');
    }
  g_string_append (out, "],\"zram\":[");
  for (guint i = 0; i < cost->zram->len; i++)
    {
      const PgsZramDevice *z = g_ptr_array_index (cost->zram, i);

      g_string_append_printf (out, "%s{\"device\":\"%s\",\"swap\":%s,\"orig_data_size\":%"
                              G_GUINT64_FORMAT ",\"compr_data_size\":%" G_GUINT64_FORMAT
                              ",\"mem_used_total\":%" G_GUINT64_FORMAT ",\"mem_limit\":%"
                              G_GUINT64_FORMAT ",\"mem_used_max\":%" G_GUINT64_FORMAT
                              ",\"same_pages\":%" G_GUINT64_FORMAT ",\"huge_pages\":%"
                              G_GUINT64_FORMAT "}",
                              i ? "," : "", z->name, z->is_swap ? "true" : "false",
                              z->stat.orig_data_size, z->stat.compr_data_size,
                              z->stat.mem_used_total, z->stat.mem_limit, z->stat.mem_used_max,
                              z->stat.same_pages, z->stat.huge_pages);
    }
  /* The RAM the zram swap devices use: exact. Null when no swap is on zram. */
  g_string_append (out, "],\"swap_ram\":");
  pgs_json_append_size (out, cost->n_zram_swap > 0, cost->zram_used);
  g_string_append (out, ",\"ksm\":");
  if (!have_ksm)
    g_string_append (out, "null");
  else
    {
      g_string_append (out, "{\"run\":");
      json_int (out, ksm->run);
      g_string_append (out, ",\"pages_shared\":");
      json_int (out, ksm->pages_shared);
      g_string_append (out, ",\"pages_sharing\":");
      json_int (out, ksm->pages_sharing);
      g_string_append (out, ",\"pages_unshared\":");
      json_int (out, ksm->pages_unshared);
      g_string_append (out, ",\"pages_volatile\":");
      json_int (out, ksm->pages_volatile);
      g_string_append (out, ",\"ksm_zero_pages\":");
      json_int (out, ksm->ksm_zero_pages);
      g_string_append (out, ",\"saved\":");
      json_int (out, ksm->pages_sharing < 0 ? -1 : ksm->pages_sharing * (gint64) page_size);
      g_string_append (out, ",\"general_profit\":");
      json_int (out, ksm->general_profit);
      g_string_append_c (out, '}');
    }
  g_string_append (out, ",\"thp\":{\"anon\":");
  pgs_json_append_size (out, thp_known[0], thp[0]);
  g_string_append (out, ",\"shmem\":");
  pgs_json_append_size (out, thp_known[1], thp[1]);
  g_string_append (out, ",\"file\":");
  pgs_json_append_size (out, thp_known[2], thp[2]);
  g_string_append (out, "},\"processes\":[");
  for (guint i = 0; i < rows->len; i++)
    {
      const Row *r = &g_array_index (rows, Row, i);

      g_string_append_printf (out, "%s\n{\"pid\":%d,", i ? "," : "",
                              pgs_process_get_pid (r->process));
      pgs_json_append_text_member (out, "name", pgs_process_get_name (r->process));
      g_string_append_c (out, ',');
      pgs_json_append_text_member (out, "user", pgs_process_get_user (r->process));
      g_string_append (out, ",\"swap\":");
      pgs_json_append_size (out, r->swap_known, r->swap);
      /* An estimate, and named so: the kernel does not say how well a process's own pages
       * compressed. */
      g_string_append (out, ",\"swap_ram_estimate\":");
      pgs_json_append_size (out, r->swap_ram_known, r->swap_ram);
      g_string_append (out, ",\"swap_ram_unknown_reason\":");
      pgs_json_append_string (out, r->swap_ram_known ? NULL : r->swap_ram_reason);
      g_string_append (out, ",\"anon_huge\":");
      pgs_json_append_size (out, r->thp_known, r->anon_huge);
      /* All of its memory in huge pages mapped whole: anonymous, shmem and file. */
      g_string_append (out, ",\"thp\":");
      pgs_json_append_size (out, r->thp_all_known, r->thp_all);
      g_string_append (out, ",\"ksm_rmap_items\":");
      json_int (out, r->ksm_known ? r->ksm.rmap_items : -1);
      g_string_append (out, ",\"ksm_merging_pages\":");
      json_int (out, r->ksm_known ? r->ksm.merging_pages : -1);
      g_string_append (out, ",\"ksm_process_profit\":");
      json_int (out, r->ksm_known ? r->ksm.process_profit : -1);
      g_string_append_c (out, '}');
    }
  g_string_append (out, "\n]}\n");
}

static char *
size_or_dash (gboolean known,
              guint64  v)
{
  return pgs_cli_size_cell (known, v);
}

static void
print_human (PgsSwapCost        *cost,
             const PgsKsmSystem *ksm,
             gboolean            have_ksm,
             const char         *ksm_error,
             const guint64      *thp,
             const gboolean     *thp_known,
             GArray             *rows,
             guint               limit,
             guint               page_size,
             GString            *out)
{
  if (cost->swaps->len == 0)
    g_string_append (out, _("Swap: none\n"));
  else
    {
      static const char *const headers[] = { N_("SWAP DEVICE"), N_("TYPE"), N_("SIZE"), N_("USED") };
      g_autoptr(PgsTable) table = pgs_table_new (4, headers, 0x3);

      for (guint i = 0; i < cost->swaps->len; i++)
        {
          const PgsSwapDevice *s = g_ptr_array_index (cost->swaps, i);
          char **row = g_new0 (char *, 5);

          row[0] = g_strdup (s->device);
          row[1] = g_strdup (s->zram != NULL ? "zram" : s->type);
          row[2] = pgs_format_size (s->size);
          row[3] = pgs_format_size (s->used);
          pgs_table_add_row (table, row);
        }
      pgs_table_print (table, out);
    }

  if (cost->zram->len > 0)
    {
      static const char *const headers[] = {
        N_("ZRAM"), N_("SWAP"), N_("STORED"), N_("COMPRESSED"), N_("RAM USED"), N_("RATIO"),
      };
      g_autoptr(PgsTable) table = pgs_table_new (6, headers, 0x3);

      g_string_append_c (out, '\n');
      for (guint i = 0; i < cost->zram->len; i++)
        {
          const PgsZramDevice *z = g_ptr_array_index (cost->zram, i);
          char **row = g_new0 (char *, 7);

          row[0] = g_strdup (z->name);
          row[1] = g_strdup (z->is_swap ? _("yes") : _("no"));
          row[2] = pgs_format_size (z->stat.orig_data_size);
          row[3] = pgs_format_size (z->stat.compr_data_size);
          row[4] = pgs_format_size (z->stat.mem_used_total);
          row[5] = z->stat.mem_used_total > 0
                   ? g_strdup_printf ("%.2f", (double) z->stat.orig_data_size / z->stat.mem_used_total)
                   : g_strdup ("—");
          pgs_table_add_row (table, row);
        }
      pgs_table_print (table, out);
    }
  if (cost->n_zram_swap > 0)
    {
      g_autofree char *used = pgs_format_size (cost->zram_used);
      g_autofree char *orig = pgs_format_size (cost->zram_orig);

      g_string_append_printf (out, _("RAM behind swap: %s holding %s of swapped-out data (exact: "
                                     "mem_used_total of the zram swap devices)\n"), used, orig);
    }

  g_string_append_c (out, '\n');
  if (!have_ksm)
    g_string_append_printf (out, _("KSM: unknown (%s)\n"), ksm_error);
  else
    {
      g_autofree char *saved = pgs_format_size ((guint64) MAX (ksm->pages_sharing, 0) * page_size);
      const char *state = ksm->run == 1 ? _("running") : ksm->run == 2 ? _("unmerging") : _("stopped");

      /* The counts as text first: a G_GINT64_FORMAT spliced into _() reaches no catalogue. */
      g_autofree char *shared = g_strdup_printf ("%" G_GINT64_FORMAT, MAX (ksm->pages_shared, 0));
      g_autofree char *sharing = g_strdup_printf ("%" G_GINT64_FORMAT, MAX (ksm->pages_sharing, 0));

      g_string_append_printf (out, _("KSM: %s; %s merged pages back %s more mappings: %s saved"),
                              state, shared, sharing, saved);
      if (ksm->general_profit >= 0)
        {
          g_autofree char *profit = pgs_format_size ((guint64) ksm->general_profit);

          g_string_append_printf (out, _(" (profit after KSM's own metadata: %s)"), profit);
        }
      g_string_append_c (out, '\n');
    }
  {
    g_autofree char *a = size_or_dash (thp_known[0], thp[0]);
    g_autofree char *s = size_or_dash (thp_known[1], thp[1]);
    g_autofree char *f = size_or_dash (thp_known[2], thp[2]);

    g_string_append_printf (out, _("Transparent huge pages: anonymous %s, shmem %s, file %s\n"),
                            a, s, f);
  }

  if (rows->len > 0)
    {
      static const char *const headers[] = {
        N_("PID"), N_("USER"), N_("NAME"), N_("SWAP"), N_("SWAP RAM (EST.)"), N_("THP"),
        N_("KSM PAGES"), N_("KSM PROFIT"),
      };
      g_autoptr(PgsTable) table = pgs_table_new (8, headers, 0x6);
      g_autoptr(GHashTable) reasons = g_hash_table_new (g_str_hash, g_str_equal);

      g_string_append_c (out, '\n');
      for (guint i = 0; i < MIN (limit, rows->len); i++)
        {
          const Row *r = &g_array_index (rows, Row, i);
          char **row = g_new0 (char *, 9);

          row[0] = g_strdup_printf ("%d", pgs_process_get_pid (r->process));
          row[1] = g_strdup (pgs_process_get_user (r->process));
          row[2] = g_strdup (pgs_process_get_name (r->process));
          row[3] = size_or_dash (r->swap_known, r->swap);
          row[4] = size_or_dash (r->swap_ram_known, r->swap_ram);
          row[5] = size_or_dash (r->thp_all_known, r->thp_all);
          row[6] = r->ksm_known && r->ksm.merging_pages >= 0
                   ? g_strdup_printf ("%" G_GINT64_FORMAT, r->ksm.merging_pages) : g_strdup ("—");
          row[7] = r->ksm_known && r->ksm.process_profit >= 0
                   ? pgs_format_size ((guint64) MAX (r->ksm.process_profit, 0)) : g_strdup ("—");
          if (!r->swap_ram_known && r->swap_ram_reason != NULL)
            g_hash_table_add (reasons, (gpointer) r->swap_ram_reason);
          pgs_table_add_row (table, row);
        }
      pgs_table_print (table, out);
      if (limit < rows->len)
        g_string_append_printf (out, _("(%u more not shown)\n"), rows->len - limit);
      g_string_append (out, _("SWAP RAM (EST.): the process's swap × the zram devices' RAM used / "
                              "data stored; an estimate, the kernel does not say how well each "
                              "process's pages compressed.\n"));
      if (g_hash_table_size (reasons) > 0)
        {
          GHashTableIter iter;
          gpointer reason;

          g_hash_table_iter_init (&iter, reasons);
          while (g_hash_table_iter_next (&iter, &reason, NULL))
            g_string_append_printf (out, "  — %s\n", (const char *) reason);
        }
    }
  else
    g_string_append (out, _("No process has swap, transparent huge pages or merged pages.\n"));
}

int
pgs_cli_system (int    argc,
                char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(PgsScanner) scanner = NULL;
  g_autoptr(PgsSnapshot) snapshot = NULL;
  g_autoptr(PgsSwapCost) cost = NULL;
  g_autoptr(GArray) rows = g_array_new (FALSE, TRUE, sizeof (Row));
  g_autoptr(GString) out = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GError) ksm_error = NULL;
  g_autofree char *sysfs_root = NULL;
  g_autofree char *limit_text = NULL;
  g_autofree char *meminfo = NULL;
  g_autofree char *meminfo_path = NULL;
  g_auto(PgsCliCommon) common = { 0 };
  PgsKsmSystem ksm = { 0 };
  gboolean have_ksm;
  guint64 thp[3] = { 0 };
  gboolean thp_known[3] = { FALSE };
  gsize meminfo_len = 0;
  PgsOutput output;
  guint limit = G_MAXUINT;
  int code;
  const GOptionEntry entries[] = {
    { "limit", 'n', 0, G_OPTION_ARG_STRING, &limit_text, N_("List only the first N processes"), "N" },
    { "sysfs", 0, 0, G_OPTION_ARG_FILENAME, &sysfs_root, N_("Read this directory instead of /sys"), N_("DIR") },
    { NULL }
  };

  context = g_option_context_new (_("— the RAM behind swap, merging and huge pages"));
  g_option_context_set_summary (context,
    _("Shows what swap costs in RAM when it is zram (machine-wide exactly, from "
      "/sys/block/zramN/mm_stat; per process as an estimate), what KSM merging saves "
      "(/sys/kernel/mm/ksm, /proc/PID/ksm_stat), and how much memory is in transparent huge "
      "pages (/proc/meminfo, smaps_rollup AnonHugePages). Lists the processes that have "
      "swap, huge pages or merged pages."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  pgs_cli_add_common_options (context, &common);
  if (!pgs_cli_parse (context, &common, &argc, &argv, &output))
    return PGS_EXIT_USAGE;
  if (argc > 1)
    {
      pgs_cli_error (_("system takes no arguments, not “%s”"), argv[1]);
      return PGS_EXIT_USAGE;
    }
  if (output == PGS_OUTPUT_CSV)
    {
      pgs_cli_error ("%s", _("system prints text or --json, not CSV"));
      return PGS_EXIT_USAGE;
    }
  if (limit_text != NULL
      && !pgs_cli_parse_limit (limit_text,
                               _("--limit takes a number of processes, 0 or more, not “%s”"),
                               &limit))
    return PGS_EXIT_USAGE;

  cost = pgs_swap_cost_read (common.procfs_root, sysfs_root, &error);
  if (cost == NULL)
    {
      pgs_cli_error ("%s", error->message);
      return PGS_EXIT_FAILED;
    }
  have_ksm = pgs_ksm_read_system (sysfs_root, &ksm, &ksm_error);
  meminfo_path = g_build_filename (common.procfs_root ? common.procfs_root : "/proc", "meminfo", NULL);
  if (g_file_get_contents (meminfo_path, &meminfo, &meminfo_len, NULL))
    {
      thp_known[0] = pgs_kb_field (meminfo, meminfo_len, "AnonHugePages", &thp[0]);
      thp_known[1] = pgs_kb_field (meminfo, meminfo_len, "ShmemHugePages", &thp[1]);
      thp_known[2] = pgs_kb_field (meminfo, meminfo_len, "FileHugePages", &thp[2]);
    }

  scanner = pgs_cli_scanner_new (&common);
  snapshot = pgs_scanner_scan (scanner, NULL, &error);
  if (snapshot == NULL)
    {
      pgs_cli_error ("%s", error->message);
      return PGS_EXIT_FAILED;
    }
  code = pgs_cli_report_skipped (snapshot);

  for (guint i = 0; i < pgs_snapshot_get_n_processes (snapshot); i++)
    {
      Row row = { pgs_snapshot_get_process (snapshot, i) };

      row.swap_known = pgs_process_is_known (row.process, PGS_METRIC_SWAP);
      row.swap = pgs_process_get_swap (row.process);
      read_process (common.procfs_root, &row);
      row.thp_all_known = pgs_process_get_thp_total (row.process, &row.thp_all);
      if (row.swap_known)
        row.swap_ram_known = pgs_swap_cost_estimate (cost, row.swap, &row.swap_ram,
                                                     &row.swap_ram_reason);
      else
        row.swap_ram_reason = "the process's swap is unknown";
      if (row.swap > 0 || row.anon_huge > 0 || row.thp_all > 0 ||
          (row.ksm_known && (row.ksm.merging_pages > 0 || row.ksm.rmap_items > 0)))
        g_array_append_val (rows, row);
    }
  g_array_sort (rows, compare_rows);

  if (output == PGS_OUTPUT_JSON)
    {
      if (limit < rows->len)
        g_array_set_size (rows, limit);
      print_json (cost, &ksm, have_ksm, thp, thp_known, rows,
                  pgs_snapshot_get_page_size (snapshot), out);
    }
  else
    print_human (cost, &ksm, have_ksm, ksm_error ? ksm_error->message : NULL, thp, thp_known,
                 rows, limit, pgs_snapshot_get_page_size (snapshot), out);

  pgs_cli_write (out);
  return code;
}
