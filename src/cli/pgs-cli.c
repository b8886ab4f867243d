/* pgs-cli.c: what every command of pagescope-cli shares: options, parsing, tables
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <sys/stat.h>
#include <locale.h>
#include <pwd.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <glib/gi18n.h>

#include "pgs-cli.h"

static const GOptionEntry common_entries[] = {
  { "json", 0, 0, G_OPTION_ARG_NONE, NULL, N_("Print JSON (sizes in bytes, null when unknown)"), NULL },
  { "csv", 0, 0, G_OPTION_ARG_NONE, NULL, N_("Print CSV (sizes in bytes, empty when unknown)"), NULL },
  { "procfs", 0, 0, G_OPTION_ARG_FILENAME, NULL, N_("Read this directory instead of /proc"), N_("DIR") },
  { NULL }
};

void
pgs_cli_common_clear (PgsCliCommon *common)
{
  g_clear_pointer (&common->procfs_root, g_free);
}

void
pgs_cli_add_common_options (GOptionContext *context,
                            PgsCliCommon   *common)
{
  GOptionEntry entries[G_N_ELEMENTS (common_entries)];

  memcpy (entries, common_entries, sizeof entries);
  entries[0].arg_data = &common->json;
  entries[1].arg_data = &common->csv;
  entries[2].arg_data = &common->procfs_root;
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
}

gboolean
pgs_cli_parse (GOptionContext   *context,
               PgsCliCommon     *common,
               int              *argc,
               char           ***argv,
               PgsOutput        *output)
{
  g_autoptr(GError) error = NULL;

  if (!g_option_context_parse (context, argc, argv, &error))
    {
      pgs_cli_error ("%s", error->message);
      return FALSE;
    }
  if (common->json && common->csv)
    {
      pgs_cli_error ("%s", _("--json and --csv cannot be combined"));
      return FALSE;
    }
  /* A missing or empty --procfs is a bad argument, named with the reason, before any scan. */
  if (common->procfs_root != NULL)
    {
      struct stat st;

      if (stat (common->procfs_root, &st) != 0)
        {
          pgs_cli_error (_("--procfs “%s”: %s"), common->procfs_root, g_strerror (errno));
          return FALSE;
        }
      if (!S_ISDIR (st.st_mode))
        {
          pgs_cli_error (_("--procfs “%s”: %s"), common->procfs_root, g_strerror (ENOTDIR));
          return FALSE;
        }
    }
  *output = common->json ? PGS_OUTPUT_JSON : common->csv ? PGS_OUTPUT_CSV : PGS_OUTPUT_HUMAN;
  return TRUE;
}

/* Digits only: no sign, no space, no "0x"; @min to @max. */
gboolean
pgs_cli_parse_number (const char *text,
                      guint64     min,
                      guint64     max,
                      guint64    *value)
{
  guint64 v = 0;

  if (text == NULL || *text == '\0')
    return FALSE;
  for (const char *p = text; *p; p++)
    {
      if (!g_ascii_isdigit (*p))
        return FALSE;
      if (v > (G_MAXUINT64 - (*p - '0')) / 10)
        return FALSE;
      v = v * 10 + (*p - '0');
    }
  if (v < min || v > max)
    return FALSE;
  *value = v;
  return TRUE;
}

/* --limit N: 0 or more. Otherwise says @message (with a %s for @text) and fails. */
gboolean
pgs_cli_parse_limit (const char *text,
                     const char *message,
                     guint      *limit)
{
  guint64 v;

  if (!pgs_cli_parse_number (text, 0, G_MAXUINT - 1, &v))
    {
      pgs_cli_error (message, text);
      return FALSE;
    }
  *limit = (guint) v;
  return TRUE;
}

/* --user NAME or UID. @unnamed, when not NULL, says a UID has no passwd entry. */
gboolean
pgs_cli_parse_user (const char *user,
                    gint64     *uid,
                    gboolean   *unnamed)
{
  struct passwd *pw = getpwnam (user);
  guint64 v;

  if (pw != NULL)
    *uid = pw->pw_uid;
  /* (uid_t) -1 is nobody's: chown(2) takes it for "no change". */
  else if (pgs_cli_parse_number (user, 0, G_MAXUINT - 1, &v))
    {
      *uid = (gint64) v;
      if (unnamed != NULL)
        *unnamed = getpwuid ((uid_t) v) == NULL;
    }
  else
    {
      pgs_cli_error (_("no such user “%s”"), user);
      return FALSE;
    }
  return TRUE;
}

/* A scanner of the /proc that --procfs names. */
PgsScanner *
pgs_cli_scanner_new (const PgsCliCommon *common)
{
  PgsScanner *scanner = pgs_scanner_new ();

  if (common->procfs_root != NULL)
    pgs_scanner_set_procfs_root (scanner, common->procfs_root);
  return scanner;
}

gboolean
pgs_cli_parse_pid (const char *text,
                   int        *pid)
{
  guint64 v;

  /* The kernel's PID_MAX_LIMIT is 4194304; anything up to INT_MAX cannot be ruled out by
   * the syntax alone, 0 and negatives can. */
  if (!pgs_cli_parse_number (text, 1, G_MAXINT, &v))
    return FALSE;
  *pid = (int) v;
  return TRUE;
}

void
pgs_cli_error (const char *format,
               ...)
{
  g_autofree char *msg = NULL;
  g_autofree char *escaped = NULL;
  va_list args;

  va_start (args, format);
  msg = g_strdup_vprintf (format, args);
  va_end (args);
  /* Messages quote names, paths and lines of /proc files: escaped like the tables. */
  escaped = pgs_escape_for_terminal (msg, -1);
  fprintf (stderr, "pagescope-cli: %s\n", escaped);
}

/* One line on stderr per process that could not be measured. Returns the exit code the
 * report deserves: exits mid-scan are routine, anything else is worth a non-zero code. */
int
pgs_cli_report_skipped (PgsSnapshot *snapshot)
{
  int code = PGS_EXIT_OK;

  for (guint i = 0; i < pgs_snapshot_get_n_skipped (snapshot); i++)
    {
      const PgsSkipped *s = pgs_snapshot_get_skipped (snapshot, i);

      pgs_cli_error (_("PID %d: %s"), s->pid, s->error->message);
      if (!g_error_matches (s->error, PGS_ERROR, PGS_ERROR_PROCESS_GONE))
        code = PGS_EXIT_PARTIAL;
    }
  return code;
}

gboolean
pgs_cli_parse_metric (const char *name,
                      PgsMetric  *metric)
{
  static const struct { const char *name; PgsMetric metric; } names[] = {
    { "vss", PGS_METRIC_VSS }, { "rss", PGS_METRIC_RSS }, { "pss", PGS_METRIC_PSS },
    { "uss", PGS_METRIC_USS }, { "swap", PGS_METRIC_SWAP },
  };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    if (g_ascii_strcasecmp (name, names[i].name) == 0)
      {
        *metric = names[i].metric;
        return TRUE;
      }
  return FALSE;
}

void
pgs_cli_write (GString *out)
{
  if (fwrite (out->str, 1, out->len, stdout) != out->len || fflush (stdout) != 0)
    {
      /* A closed pipe (| head) is not worth a message. */
      if (errno != EPIPE)
        pgs_cli_error (_("writing the report: %s"), g_strerror (errno));
    }
}

char *
pgs_cli_size_cell (gboolean known,
                   guint64  bytes)
{
  return known ? pgs_format_size (bytes) : g_strdup ("—");
}

struct _PgsTable
{
  guint      n_columns;
  guint64    left_mask;
  GPtrArray *rows;     /* char ** (NULL for a rule) */
};

PgsTable *
pgs_table_new (guint               n_columns,
               const char *const  *headers,
               guint64             left_mask)
{
  PgsTable *table = g_new0 (PgsTable, 1);
  char **row = g_new0 (char *, n_columns + 1);

  table->n_columns = n_columns;
  table->left_mask = left_mask;
  table->rows = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);
  for (guint i = 0; i < n_columns; i++)
    row[i] = g_strdup (_(headers[i]));
  g_ptr_array_add (table->rows, row);
  return table;
}

/* Takes @cells, n_columns strings and a NULL after them. A NULL among the first n_columns
 * is a string the snapshot does not have (a process without a name or user in a file from
 * elsewhere): it shows as "unknown", as an unknown figure shows as "—". Every cell is
 * escaped for the terminal (pgs_escape_for_terminal()): cells hold names, users and paths. */
void
pgs_table_add_row (PgsTable  *table,
                   char     **cells)
{
  g_assert (cells[table->n_columns] == NULL);
  for (guint c = 0; c < table->n_columns; c++)
    {
      char *escaped = pgs_escape_for_terminal (cells[c] != NULL ? cells[c] : _("unknown"), -1);

      g_free (cells[c]);
      cells[c] = escaped;
    }
  g_ptr_array_add (table->rows, cells);
}

void
pgs_table_add_rule (PgsTable *table)
{
  g_ptr_array_add (table->rows, NULL);
}

void
pgs_table_print (PgsTable *table,
                 GString  *out)
{
  g_autofree guint *widths = g_new0 (guint, table->n_columns);
  guint total = 0;

  for (guint r = 0; r < table->rows->len; r++)
    {
      char **row = g_ptr_array_index (table->rows, r);

      for (guint c = 0; row != NULL && c < table->n_columns; c++)
        widths[c] = MAX (widths[c], pgs_escape_width (row[c]));
    }
  for (guint c = 0; c < table->n_columns; c++)
    total += widths[c] + (c ? 2 : 0);

  for (guint r = 0; r < table->rows->len; r++)
    {
      char **row = g_ptr_array_index (table->rows, r);

      if (row == NULL)
        {
          for (guint i = 0; i < total; i++)
            g_string_append (out, "─");
          g_string_append_c (out, '\n');
          continue;
        }

      for (guint c = 0; c < table->n_columns; c++)
        {
          guint pad = widths[c] - pgs_escape_width (row[c]);
          gboolean left = (table->left_mask >> c) & 1;
          gboolean last = c + 1 == table->n_columns;

          if (c > 0)
            g_string_append (out, "  ");
          if (!left)
            for (guint i = 0; i < pad; i++)
              g_string_append_c (out, ' ');
          g_string_append (out, row[c]);
          if (left && !last)
            for (guint i = 0; i < pad; i++)
              g_string_append_c (out, ' ');
        }
      g_string_append_c (out, '\n');
    }
}

void
pgs_table_free (PgsTable *table)
{
  g_ptr_array_unref (table->rows);
  g_free (table);
}

/* The locale and the message catalogue: pagescope-cli and pagescope-render alike. */
void
pgs_cli_init_locale (void)
{
  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);
}
