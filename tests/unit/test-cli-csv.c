/* test-cli-csv.c: CSV that neither a spreadsheet nor a terminal runs
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Process names, command lines and paths are chosen by whoever starts a process. A name
 * such as =HYPERLINK(…) is a formula to a spreadsheet that opens memrank --csv or the
 * app's export, and ESC, OSC or bidi bytes are run by `cat file.csv`. Each text cell is
 * the tables' text with a "'" before a formula's first character, and the *_bytes column
 * beside it holds the exact bytes whenever the cell differs from them.
 */

#include "config.h"

#include <string.h>

#include <gio/gio.h>

#include "pgs-escape.h"
#include "pgs-fixture.h"
#include "pgs-kpage.h"
#include "pgs-process.h"
#include "pgs-report.h"
#include "pgs-snapshot.h"
#include "pgs-test-cli.h"

#define BASE G_GUINT64_CONSTANT (0x10000000)

/* PID, name (the bytes of status's Name: line), what the CSV cell must read. */
static const struct {
  int         pid;
  const char *name;
  const char *cell;
} names[] = {
  { 401, "=HYPERLINK(\"http://x/\";\"y\")", "'=HYPERLINK(\"http://x/\";\"y\")" },
  { 402, "@SUM(1+1)*cmd|' /C calc'!A0", "'@SUM(1+1)*cmd|' /C calc'!A0" },
  { 403, "+1+1", "'+1+1" },
  { 404, "-4096", "'-4096" },                                 /* text, though it reads as a number */
  { 405, "\t=1+1", "'?=1+1" },
  { 406, "\r=1+1", "'?=1+1" },
  { 407, "\xef\xbc\x9d" "1+1", "'\xef\xbc\x9d" "1+1" },     /* U+FF1D fullwidth equals */
  { 408, "x\x1b]0;owned\x07y", "x?]0;owned?y" },              /* OSC: sets a terminal's title */
  { 409, "e\x1b[2J\xc2\x9bx", "e?[2J?x" },                     /* ESC CSI, and a C1 CSI */
  { 410, "\xe2\x80\xae" "fdp.exe", "?fdp.exe" },               /* U+202E right-to-left override */
  { 411, "a\xe2\x81\xa6=b", "a?=b" },                          /* U+2066 isolate, then = (not first) */
  { 412, "bad\xff", "bad?" },                                  /* not UTF-8 */
  { 413, "plain", "plain" },                                   /* unchanged: no *_bytes */
  { 414, "caf\xc3\xa9 a=b", "caf\xc3\xa9 a=b" },               /* = inside: unchanged */
};

static PgsFixture *
build_formulas (void)
{
  PgsFixture *fx = pgs_fixture_new ();
  static const char cmdline[] = "=cmd|' /C calc'!A0\0\x1b[31mred\0";

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      int pid = names[i].pid;
      guint64 page = FX_PRESENT_EXCL (1000 + i);

      pgs_fixture_add_process (fx, pid, names[i].name, 0, FALSE);
      /* One private anonymous page each; 401 also maps a file (one page) and a label. */
      pgs_fixture_add_mapping (fx, pid, BASE, BASE + 4096, "rw-p", "[heap]");
      pgs_fixture_set_pages (fx, pid, BASE, &page, 1);
      pgs_fixture_set_frame (fx, 1000 + i, 1, PGS_KPF_BIT (PGS_KPF_ANON));
    }
  pgs_fixture_write (fx, "401/cmdline", cmdline, sizeof cmdline - 1);
  pgs_fixture_add_mapping (fx, 401, BASE + 4096, BASE + 2 * 4096, "r--p",
                           "/tmp/\x1b]8;;http://x/\x07lib.so");
  /* Not a path the kernel writes, but a file can say anything: a label that is a formula. */
  pgs_fixture_add_mapping (fx, 401, BASE + 2 * 4096, BASE + 3 * 4096, "rw-p", "=1+1");
  {
    guint64 page = FX_PRESENT_EXCL (5000) | FX_FILE;

    pgs_fixture_set_pages (fx, 401, BASE + 4096, &page, 1);
    pgs_fixture_set_frame (fx, 5000, 1, PGS_KPF_BIT (PGS_KPF_LRU));
  }
  /* A child of 408 with one page, so --group-by parent names a group after the OSC name. */
  pgs_fixture_add_process (fx, 420, "child", 0, FALSE);
  pgs_fixture_set_parent (fx, 420, 408);
  pgs_fixture_add_mapping (fx, 420, BASE, BASE + 4096, "rw-p", "[heap]");
  {
    guint64 page = FX_PRESENT_EXCL (6000);

    pgs_fixture_set_pages (fx, 420, BASE, &page, 1);
    pgs_fixture_set_frame (fx, 6000, 1, PGS_KPF_BIT (PGS_KPF_ANON));
  }
  pgs_fixture_commit (fx);
  return fx;
}

/* The checks every CSV here must pass, in python3 (skipped without it): the text is
 * printable (no C0 but the line ends, no DEL, C1 or format character), no text cell starts
 * a formula, numbers are plain digits. @script adds checks; `rows` is the list of dicts. */
static void
assert_csv (const char *text,
            const char *script)
{
  g_autofree char *python = g_find_program_in_path ("python3");
  g_autofree char *full = NULL;
  g_autoptr(GSubprocess) proc = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *err = NULL;

  if (python == NULL)
    {
      g_test_message ("python3 not found: the CSV's cells are not checked one by one");
      return;
    }
  full = g_strconcat ("import csv, sys, io, base64, unicodedata\n"
                      "text = sys.stdin.read()\n"
                      "for ch in text.replace('\\r\\n', ''):\n"
                      "  assert unicodedata.category(ch) not in ('Cc', 'Cf', 'Zl', 'Zp'), repr(ch)\n"
                      "rows = list(csv.DictReader(io.StringIO(text, newline='')))\n"
                      "for r in rows:\n"
                      "  for k, v in r.items():\n"
                      "    if v.lstrip('0123456789') == '' or k.endswith('_bytes'):\n"
                      "      continue\n"
                      "    assert v[0] not in '=+-@\\t\\r\\uff1d\\uff0b\\uff0d\\uff20', (k, v)\n",
                      script, NULL);
  proc = g_subprocess_new (G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE, &error,
                           python, "-c", full, NULL);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (proc, text, NULL, NULL, &err, &error);
  g_assert_no_error (error);
  if (!g_subprocess_get_if_exited (proc) || g_subprocess_get_exit_status (proc) != 0)
    g_error ("CSV check failed: %s\n%s", err, text);
}

/* The cell rule, case by case, with whether the cell holds the bytes unchanged. */
static void
test_cell_rule (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      gboolean exact = FALSE;
      g_autofree char *cell = pgs_escape_for_csv (names[i].name, &exact);

      g_assert_cmpstr (cell, ==, names[i].cell);
      g_assert_cmpint (exact, ==, strcmp (names[i].name, names[i].cell) == 0);
    }
  {
    gboolean exact = FALSE;
    g_autofree char *cell = pgs_escape_for_csv (NULL, &exact);

    g_assert_cmpstr (cell, ==, "");
    g_assert_true (exact);
  }
}

/* A row of @text whose first field is @pid, as written (quotes and all). */
static char *
row_of (const char *text,
        int         pid)
{
  g_autofree char *start = g_strdup_printf ("\r\n%d,", pid);
  const char *p = strstr (text, start);
  const char *end;

  g_assert_nonnull (p);
  p += 2;
  end = strstr (p, "\r\n");
  g_assert_nonnull (end);
  return g_strndup (p, end - p);
}

static void
test_memrank (void)
{
  g_autoptr(PgsFixture) fx = build_formulas ();
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr(GString) script = g_string_new ("p = {int(r['pid']): r for r in rows}\n"
                                            "assert len(rows) == 15, len(rows)\n");
  g_autofree char *r401 = NULL, *r404 = NULL, *r413 = NULL;

  g_assert_cmpint (pgs_test_run_cli (fx, &out, &err, "memrank", "--csv", NULL), ==, 0);
  g_test_message ("%s", out);
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *want = g_base64_encode ((const guchar *) names[i].cell, strlen (names[i].cell));
      g_autofree char *bytes = g_base64_encode ((const guchar *) names[i].name, strlen (names[i].name));

      /* Compared through base64: the cells hold quotes and backslashes. */
      g_string_append_printf (script, "assert p[%d]['name'].encode() == base64.b64decode('%s'), p[%d]\n",
                              names[i].pid, want, names[i].pid);
      if (strcmp (names[i].name, names[i].cell) == 0)
        g_string_append_printf (script, "assert p[%d]['name_bytes'] == ''\n", names[i].pid);
      else
        g_string_append_printf (script, "assert p[%d]['name_bytes'] == '%s', p[%d]\n",
                                names[i].pid, bytes, names[i].pid);
    }
  /* The command line: a formula first, an ESC inside; the exact bytes beside it
   * (arguments joined by a space, as the text column has them). */
  g_string_append (script,
                   "assert p[401]['cmdline'] == \"'=cmd|' /C calc'!A0 ?[31mred\", p[401]\n"
                   "assert base64.b64decode(p[401]['cmdline_bytes']) == b\"=cmd|' /C calc'!A0 \\x1b[31mred\"\n"
                   "assert p[413]['cmdline_bytes'] == ''\n"
                   "assert p[401]['rss'] == '8192' and p[413]['rss'] == '4096' and p[413]['uss'] == '4096'\n");
  assert_csv (out, script->str);

  /* As written: numbers bare, the formula quoted (it holds quotes) behind its "'", the
   * number-like name as text. */
  r401 = row_of (out, 401);
  g_assert_true (g_str_has_prefix (r401, "401,1,0,root,\"'=HYPERLINK(\"\"http://x/\"\";\"\"y\"\")\","
                                         "12288,8192,8192,8192,0,,"));
  r404 = row_of (out, 404);
  g_assert_true (g_str_has_prefix (r404, "404,1,0,root,'-4096,4096,4096,4096,4096,0,,"));
  r413 = row_of (out, 413);
  g_assert_true (g_str_has_prefix (r413, "413,1,0,root,plain,4096,4096,4096,4096,0,,"));
  g_assert_true (g_str_has_suffix (r413, ",,,"));
}

/* The app's export writes the list through the same function (pgs-window-actions.c). */
static void
test_export (void)
{
  g_autoptr(PgsFixture) fx = build_formulas ();
  g_autoptr(PgsSnapshot) snapshot = pgs_test_scan (fx, PGS_SCAN_PAGES);
  g_autoptr(GPtrArray) processes = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GString) out = g_string_new (NULL);

  for (guint i = 0; i < pgs_snapshot_get_n_processes (snapshot); i++)
    g_ptr_array_add (processes, g_object_ref (pgs_snapshot_get_process (snapshot, i)));
  pgs_report_processes_csv (out, processes);
  assert_csv (out->str,
              "p = {int(r['pid']): r for r in rows}\n"
              "assert p[401]['name'].startswith(\"'=HYPERLINK(\")\n"
              "assert p[408]['name'] == 'x?]0;owned?y'\n"
              "assert base64.b64decode(p[408]['name_bytes']) == b'x\\x1b]0;owned\\x07y'\n"
              "assert p[410]['name'] == '?fdp.exe'\n");
}

static void
test_memstats_librank_groups (void)
{
  g_autoptr(PgsFixture) fx = build_formulas ();
  g_autofree char *out = NULL, *err = NULL;
  g_autofree char *out2 = NULL, *err2 = NULL;
  g_autofree char *out3 = NULL, *err3 = NULL;

  g_assert_cmpint (pgs_test_run_cli (fx, &out, &err, "memstats", "--csv", "401", NULL), ==, 0);
  assert_csv (out,
              "m = {r['start']: r for r in rows}\n"
              "assert len(rows) == 3\n"
              "assert m['0x10001000']['path'] == '/tmp/?]8;;http://x/?lib.so', m\n"
              "assert base64.b64decode(m['0x10001000']['path_bytes']) == b'/tmp/\\x1b]8;;http://x/\\x07lib.so'\n"
              "assert m['0x10002000']['path'] == \"'=1+1\" and m['0x10002000']['path_bytes'] == 'PTErMQ==', m\n"
              "assert m['0x10000000']['path'] == '[heap]' and m['0x10000000']['path_bytes'] == ''\n");

  g_assert_cmpint (pgs_test_run_cli (fx, &out2, &err2, "librank", "--csv", NULL), ==, 0);
  assert_csv (out2,
              "f = [r for r in rows if r['path'].startswith('/tmp/')]\n"
              "assert len(f) == 1 and f[0]['path'] == '/tmp/?]8;;http://x/?lib.so', rows\n"
              "assert base64.b64decode(f[0]['path_bytes']) == b'/tmp/\\x1b]8;;http://x/\\x07lib.so'\n"
              "assert f[0]['rss'] == '4096'\n");

  g_assert_cmpint (pgs_test_run_cli (fx, &out3, &err3, "memrank", "--csv", "--group-by", "parent",
                                     NULL), ==, 0);
  assert_csv (out3,
              "g = [r for r in rows if r['group'].startswith('408 ')]\n"
              "assert len(g) == 1 and g[0]['group'] == '408 (x?]0;owned?y)', rows\n"
              "assert base64.b64decode(g[0]['group_bytes']) == b'408 (x\\x1b]0;owned\\x07y)'\n");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/pgs/cli/csv/cell-rule", test_cell_rule);
  g_test_add_func ("/pgs/cli/csv/memrank", test_memrank);
  g_test_add_func ("/pgs/cli/csv/export", test_export);
  g_test_add_func ("/pgs/cli/csv/memstats-librank-groups", test_memstats_librank_groups);
  return g_test_run ();
}
