/* pgs-cli-ledger.c: every byte of MemTotal, in rows (pgs-ledger.c)
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <unistd.h>

#include <glib/gi18n.h>

#include "pgs-cli.h"

/* "12.3" (percent of MemTotal, one decimal), or "—". */
static char *
percent_cell (gboolean known,
              gint64   bytes,
              guint64  total)
{
  double pc;

  if (!known || total == 0)
    return g_strdup ("—");
  pc = 100.0 * (double) bytes / (double) total;

  /* No "-0.0 %" for a few KiB below zero. */
  return g_strdup_printf ("%.1f %%", pc > -0.05 && pc < 0.05 ? 0.0 : pc);
}

static char *
signed_size (gint64 bytes)
{
  g_autofree char *size = pgs_format_size (bytes < 0 ? (guint64) -bytes : (guint64) bytes);

  return bytes < 0 ? g_strconcat ("−", size, NULL) : g_steal_pointer (&size);
}

static void
print_human (const PgsLedger *ledger,
             const char      *reason,
             GString         *out)
{
  static const char *const headers[] = {
    N_("WHERE"), N_("SIZE"), N_("OF TOTAL"), N_("FROM"), N_("KERNEL COUNTER"), N_("COUNTER"),
  };
  g_autoptr(PgsTable) table = pgs_table_new (G_N_ELEMENTS (headers), headers, 1 | 1 << 3 | 1 << 4);
  g_autofree char *total = pgs_format_size (ledger->mem_total);

  for (guint r = 0; r < PGS_LEDGER_N_ROWS; r++)
    {
      const PgsLedgerEntry *e = &ledger->rows[r];
      char **cells = g_new0 (char *, G_N_ELEMENTS (headers) + 1);

      cells[0] = g_strdup (pgs_ledger_row_get_label (r));
      cells[1] = pgs_cli_size_cell (e->known, e->bytes);
      cells[2] = percent_cell (e->known, (gint64) e->bytes, ledger->mem_total);
      cells[3] = g_strdup (e->known ? pgs_ledger_source_get_id (e->source) : "");
      cells[4] = g_strdup (e->counter != NULL ? e->counter : "");
      cells[5] = e->counter != NULL ? pgs_cli_size_cell (e->counter_known, e->counter_value)
                                    : g_strdup ("");
      pgs_table_add_row (table, cells);
    }
  {
    char **cells = g_new0 (char *, G_N_ELEMENTS (headers) + 1);

    cells[0] = g_strdup (ledger->unexplained_known ? _("Unexplained") : _("Unknown and unexplained"));
    cells[1] = signed_size (ledger->unknown);
    cells[2] = percent_cell (TRUE, ledger->unknown, ledger->mem_total);
    cells[3] = g_strdup ("");
    cells[4] = g_strdup ("");
    cells[5] = g_strdup ("");
    pgs_table_add_row (table, cells);
  }
  pgs_table_add_rule (table);
  {
    char **cells = g_new0 (char *, G_N_ELEMENTS (headers) + 1);

    cells[0] = g_strdup (_("MemTotal"));
    cells[1] = g_strdup (total);
    cells[2] = g_strdup ("100.0 %");
    cells[3] = g_strdup ("");
    cells[4] = g_strdup ("MemTotal");
    cells[5] = g_strdup (total);
    pgs_table_add_row (table, cells);
  }
  pgs_table_print (table, out);

  if (ledger->outside_known)
    {
      g_autofree char *outside = pgs_format_size (ledger->outside_mem_total);

      /* Translators: %s is a size */
      g_string_append_printf (out, _("Beside MemTotal, not in it: %s reserved at boot by the "
                                     "firmware and the kernel (zoneinfo present − MemTotal)\n"),
                              outside);
    }
  else
    g_string_append (out, _("Beside MemTotal: memory reserved at boot unknown (no zoneinfo)\n"));
  if (!ledger->unexplained_known)
    g_string_append_printf (out, _("— unknown: %s\n"), reason);
}

static void
print_json (const PgsLedger *ledger,
            guint            page_size,
            const char      *reason,
            GString         *out)
{
  g_string_append_printf (out, "{\"mem_total\":%" G_GUINT64_FORMAT ",\"page_size\":%u,"
                          "\"from_frames\":%s,\"rows\":[",
                          ledger->mem_total, page_size, ledger->from_frames ? "true" : "false");
  for (guint r = 0; r < PGS_LEDGER_N_ROWS; r++)
    {
      const PgsLedgerEntry *e = &ledger->rows[r];

      g_string_append (out, r ? ",\n{\"name\":" : "\n{\"name\":");
      pgs_json_append_string (out, pgs_ledger_row_get_id (r));
      g_string_append (out, ",\"label\":");
      pgs_json_append_string (out, pgs_ledger_row_get_label (r));
      g_string_append (out, ",\"bytes\":");
      pgs_json_append_size (out, e->known, e->bytes);
      g_string_append (out, ",\"source\":");
      if (e->known)
        pgs_json_append_string (out, pgs_ledger_source_get_id (e->source));
      else
        g_string_append (out, "null");
      g_string_append (out, ",\"counter\":");
      if (e->counter != NULL)
        pgs_json_append_string (out, e->counter);
      else
        g_string_append (out, "null");
      g_string_append (out, ",\"counter_value\":");
      pgs_json_append_size (out, e->counter != NULL && e->counter_known, e->counter_value);
      g_string_append_c (out, '}');
    }
  g_string_append (out, "\n],\"unexplained\":");
  if (ledger->unexplained_known)
    g_string_append_printf (out, "%" G_GINT64_FORMAT, ledger->unexplained);
  else
    g_string_append (out, "null");
  g_string_append_printf (out, ",\"unknown_and_unexplained\":%" G_GINT64_FORMAT
                          ",\"outside_mem_total\":", ledger->unknown);
  pgs_json_append_size (out, ledger->outside_known, ledger->outside_mem_total);
  g_string_append (out, ",\"unknown_reason\":");
  if (reason != NULL && !ledger->unexplained_known)
    pgs_json_append_string (out, reason);
  else
    g_string_append (out, "null");
  g_string_append (out, "}\n");
}

static void
csv_size (GString  *out,
          gboolean  known,
          guint64   value)
{
  g_string_append_c (out, ',');
  if (known)
    g_string_append_printf (out, "%" G_GUINT64_FORMAT, value);
}

static void
print_csv (const PgsLedger *ledger,
           GString         *out)
{
  g_string_append (out, "name,label,bytes,source,counter,counter_value\n");
  for (guint r = 0; r < PGS_LEDGER_N_ROWS; r++)
    {
      const PgsLedgerEntry *e = &ledger->rows[r];

      pgs_csv_append_field (out, pgs_ledger_row_get_id (r));
      g_string_append_c (out, ',');
      pgs_csv_append_field (out, pgs_ledger_row_get_label (r));
      csv_size (out, e->known, e->bytes);
      g_string_append_c (out, ',');
      if (e->known)
        g_string_append (out, pgs_ledger_source_get_id (e->source));
      g_string_append_c (out, ',');
      pgs_csv_append_field (out, e->counter);
      csv_size (out, e->counter != NULL && e->counter_known, e->counter_value);
      g_string_append_c (out, '\n');
    }
  /* Not rows of the ledger: the rest, the total and what lies beside it. */
  g_string_append (out, "unexplained,");
  pgs_csv_append_field (out, _("Unexplained"));
  g_string_append_c (out, ',');
  if (ledger->unexplained_known)
    g_string_append_printf (out, "%" G_GINT64_FORMAT, ledger->unexplained);
  g_string_append (out, ",,,\nmem_total,");
  pgs_csv_append_field (out, _("MemTotal"));
  g_string_append_printf (out, ",%" G_GUINT64_FORMAT ",counter,MemTotal,%" G_GUINT64_FORMAT "\n",
                          ledger->mem_total, ledger->mem_total);
  g_string_append (out, "outside_mem_total,");
  pgs_csv_append_field (out, _("Reserved at boot, beside MemTotal"));
  csv_size (out, ledger->outside_known, ledger->outside_mem_total);
  g_string_append (out, ",counter,,\n");
}

/* The live ledger: the frames when they can be read (root), with the counters read right
 * after them; the counters alone otherwise, and @reason says why. */
static PgsLedger *
ledger_live (const char  *procfs_root,
             char       **reason,
             GError     **error)
{
  g_autoptr(GError) frames_error = NULL;
  g_autoptr(PgsPhysMap) physmap = NULL;
  g_autofree char *meminfo = NULL, *zoneinfo = NULL, *vmstat = NULL;
  const char *root = procfs_root != NULL ? procfs_root : "/proc";
  g_autofree char *meminfo_path = g_build_filename (root, "meminfo", NULL);
  g_autofree char *zoneinfo_path = g_build_filename (root, "zoneinfo", NULL);
  g_autofree char *vmstat_path = g_build_filename (root, "vmstat", NULL);

  physmap = pgs_physmap_read (procfs_root, NULL, &frames_error);
  if (physmap == NULL)
    /* Translators: %s says why kpageflags could not be read */
    *reason = g_strdup_printf (_("the rows counted from the frames need root (%s)"),
                               frames_error->message);
  g_file_get_contents (vmstat_path, &vmstat, NULL, NULL);
  if (physmap != NULL && pgs_physmap_get_meminfo_text (physmap) != NULL)
    return pgs_ledger_compute (physmap, pgs_physmap_get_meminfo_text (physmap),
                               pgs_physmap_get_zoneinfo_text (physmap), vmstat,
                               (guint) sysconf (_SC_PAGESIZE), error);

  if (!g_file_get_contents (meminfo_path, &meminfo, NULL, error))
    return NULL;
  g_file_get_contents (zoneinfo_path, &zoneinfo, NULL, NULL);
  return pgs_ledger_compute (physmap, meminfo, zoneinfo, vmstat, (guint) sysconf (_SC_PAGESIZE),
                             error);
}

int
pgs_cli_ledger (int    argc,
                char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(PgsLedger) ledger = NULL;
  g_autoptr(GString) out = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  g_auto(PgsCliCommon) common = { 0 };
  g_auto(PgsCliInstant) instant = { 0 };
  g_autofree char *snapshot_path = NULL;
  g_autofree char *reason = NULL;
  PgsOutput output;
  guint page_size = (guint) sysconf (_SC_PAGESIZE);
  const GOptionEntry entries[] = {
    { "snapshot", 0, 0, G_OPTION_ARG_FILENAME, &snapshot_path, N_("Read this snapshot file instead of /proc"), N_("FILE") },
    { NULL }
  };

  context = g_option_context_new (_("— where every byte of MemTotal is"));
  g_option_context_set_summary (context,
    _("Accounts for every byte of MemTotal: the memory processes map (anonymous, files, "
      "shared memory), the page cache and shared memory no process maps, the kernel's "
      "(slab, page tables, stacks, vmalloc, per-CPU, the rest), huge pages, zram, free "
      "memory and memory not yet initialised, with the unexplained rest and the memory "
      "reserved at boot beside it. As root from the page frames (kpageflags, kpagecount), "
      "checked against /proc/meminfo; otherwise the rows the kernel's counters give."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  pgs_cli_add_instant_options (context, &instant, FALSE);
  pgs_cli_add_common_options (context, &common);
  if (!pgs_cli_parse (context, &common, &argc, &argv, &output))
    return PGS_EXIT_USAGE;
  if (argc > 1)
    {
      pgs_cli_error (_("ledger takes no arguments, not “%s”"), argv[1]);
      return PGS_EXIT_USAGE;
    }

  if (snapshot_path != NULL || instant.recording != NULL)
    {
      g_autoptr(PgsSnapshot) snapshot = pgs_cli_scan_instant (NULL, snapshot_path, &instant, instant.at, TRUE, &error);

      if (snapshot == NULL)
        {
          pgs_cli_error ("%s", error->message);
          return PGS_EXIT_FAILED;
        }
      page_size = pgs_snapshot_get_page_size (snapshot);
      if (pgs_snapshot_get_physmap (snapshot) == NULL)
        reason = g_strdup (_("the snapshot holds no physical map (it was taken without root)"));
      ledger = pgs_ledger_new_for_snapshot (snapshot, &error);
      if (ledger == NULL)
        if (snapshot_path != NULL)
            g_prefix_error (&error, "%s: ", snapshot_path);
    }
  else
    ledger = ledger_live (common.procfs_root, &reason, &error);

  if (ledger == NULL)
    {
      pgs_cli_error ("%s", error->message);
      return PGS_EXIT_FAILED;
    }
  if (reason == NULL)
    reason = g_strdup (_("the kernel gives no counter for some rows"));

  switch (output)
    {
    case PGS_OUTPUT_HUMAN:
      print_human (ledger, reason, out);
      break;
    case PGS_OUTPUT_JSON:
      print_json (ledger, page_size, reason, out);
      break;
    case PGS_OUTPUT_CSV:
      print_csv (ledger, out);
      break;
    }
  pgs_cli_write (out);
  return PGS_EXIT_OK;
}
