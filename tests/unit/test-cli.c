/* test-cli.c: pagescope-cli on a fixture tree
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The proposal's example (see test-scanner.c): alpha has 1000 private pages and 1000 shared
 * with beta. With PS = 4096: alpha RSS 8192000, PSS 6144000, USS 4096000; beta RSS 4096000,
 * PSS 2048000, USS 0.
 */

#define _GNU_SOURCE 1   /* unshare () */

#include "config.h"

#include <errno.h>
#include <sched.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gio/gio.h>
#include <glib/gstdio.h>

#include "pgs-escape.h"
#include "pgs-fixture.h"
#include "pgs-test-cli.h"
#include "pgs-kpage.h"

#define BASE G_GUINT64_CONSTANT (0x10000000)

static PgsFixture *
build (gboolean unprivileged)
{
  PgsFixture *fx = pgs_fixture_new ();
  guint64 a[2000], b[1000];

  pgs_fixture_set_unprivileged (fx, unprivileged);
  pgs_fixture_add_process (fx, 100, "alpha", 0, FALSE);
  pgs_fixture_add_process (fx, 200, "beta", 0, FALSE);
  pgs_fixture_add_process (fx, 300, "kworker/1:0", 0, TRUE);
  pgs_fixture_add_mapping (fx, 100, BASE, BASE + 2000 * 4096, "rw-p", "[heap]");
  pgs_fixture_add_mapping (fx, 200, BASE, BASE + 1000 * 4096, "r--s", "/dev/shm/with,comma");
  for (guint i = 0; i < 1000; i++)
    {
      a[i] = FX_PRESENT_EXCL (1000 + i);
      pgs_fixture_set_frame (fx, 1000 + i, 1, PGS_KPF_BIT (PGS_KPF_ANON));
      a[1000 + i] = b[i] = FX_PRESENT (5000 + i) | FX_FILE;
      pgs_fixture_set_frame (fx, 5000 + i, 2, PGS_KPF_BIT (PGS_KPF_LRU));
    }
  pgs_fixture_set_pages (fx, 100, BASE, a, 2000);
  pgs_fixture_set_pages (fx, 200, BASE, b, 1000);
  pgs_fixture_commit (fx);
  return fx;
}

/* The document is strict JSON (pgs-test-json.h; pgs_test_run_cli checks it as well). */
static void
assert_valid_json (const char *text)
{
  pgs_test_assert_json (text);
}

static void
test_memrank_json (void)
{
  g_autoptr(PgsFixture) fx = build (FALSE);
  g_autofree char *out = NULL, *err = NULL;

  g_assert_cmpint (pgs_test_run_cli (fx, &out, &err, "memrank", "--json", NULL), ==, 0);
  g_assert_cmpstr (err, ==, "");
  assert_valid_json (out);
  g_assert_nonnull (strstr (out, "\"privileged\":true,\"page_size\":4096,\"skipped\":0,"));
  /* Totals: RSS 3000 pages, PSS 2000, USS 1000. */
  g_assert_nonnull (strstr (out, "\"totals\":{\"rss\":12288000,\"pss\":8192000,\"uss\":4096000,\"swap\":0}"));
  /* Largest PSS first, then beta; the kernel thread is not a process with memory. */
  g_assert_nonnull (strstr (out, "{\"pid\":100,\"ppid\":1,\"uid\":0,\"user\":\"root\",\"name\":\"alpha\","
                                 "\"cmdline\":\"/usr/bin/alpha --fixture\",\"vss\":8192000,\"rss\":8192000,"
                                 "\"pss\":6144000,\"uss\":4096000,\"swap\":0,\"unknown_reason\":null"));
  g_assert_true (strstr (out, "\"pid\":100") < strstr (out, "\"pid\":200"));
  g_assert_nonnull (strstr (out, "\"pid\":200,"));
  g_assert_null (strstr (out, "\"pid\":300,"));
}

static void
test_memrank_sort_limit_filter (void)
{
  g_autoptr(PgsFixture) fx = build (FALSE);
  g_autofree char *out = NULL, *err = NULL;
  g_autofree char *out2 = NULL, *err2 = NULL;
  g_autofree char *out3 = NULL, *err3 = NULL;

  /* --limit 1 lists alpha only, but the totals cover both. */
  g_assert_cmpint (pgs_test_run_cli (fx, &out, &err, "memrank", "--json", "--limit", "1", NULL), ==, 0);
  g_assert_null (strstr (out, "\"pid\":200"));
  g_assert_nonnull (strstr (out, "\"pss\":8192000"));

  /* A name filter: only beta. */
  g_assert_cmpint (pgs_test_run_cli (fx, &out2, &err2, "memrank", "--csv", "bet", NULL), ==, 0);
  g_assert_cmpstr (out2, ==,
                   "pid,ppid,uid,user,name,vss,rss,pss,uss,swap,unknown_reason,cmdline,user_bytes,"
                   "name_bytes,cmdline_bytes\r\n"
                   "200,1,0,root,beta,4096000,4096000,2048000,0,0,,/usr/bin/beta --fixture,,,\r\n");

  g_assert_cmpint (pgs_test_run_cli (fx, &out3, &err3, "memrank", "--sort", "bogus", NULL), ==, 2);
  g_assert_nonnull (strstr (err3, "--sort takes pss, uss, rss, vss or swap"));
}

static void
test_memrank_human (void)
{
  g_autoptr(PgsFixture) fx = build (FALSE);
  g_autofree char *out = NULL, *err = NULL;
  g_auto(GStrv) lines = NULL;

  g_assert_cmpint (pgs_test_run_cli (fx, &out, &err, "memrank", NULL), ==, 0);
  lines = g_strsplit (out, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), >=, 5);
  g_assert_true (g_str_has_prefix (g_strstrip (lines[0]), "PID"));
  /* 8192000 B = 7.8 MiB; 6144000 = 5.9 MiB; 4096000 = 3.9 MiB. */
  {
    /* Columns are padded to the widest cell: compare the cells, not the spacing. */
    g_autoptr(GRegex) spaces = g_regex_new (" +", 0, 0, NULL);
    g_autofree char *row = g_regex_replace_literal (spaces, lines[1], -1, 0, " ", 0, NULL);
    g_autofree char *total = g_regex_replace_literal (spaces, lines[4], -1, 0, " ", 0, NULL);

    g_assert_cmpstr (g_strstrip (row), ==, "100 root alpha 7.8 MiB 7.8 MiB 5.9 MiB 3.9 MiB 0 B");
    /* 12288000 B = 11.7 MiB, 8192000 = 7.8 MiB, 4096000 = 3.9 MiB */
    g_assert_cmpstr (g_strstrip (total), ==, "TOTAL 2 processes 11.7 MiB 11.7 MiB 7.8 MiB 3.9 MiB 0 B");
  }
}

static void
test_memstats (void)
{
  g_autoptr(PgsFixture) fx = build (FALSE);
  g_autofree char *out = NULL, *err = NULL;

  g_assert_cmpint (pgs_test_run_cli (fx, &out, &err, "memstats", "--json", "200", NULL), ==, 0);
  assert_valid_json (out);
  g_assert_nonnull (strstr (out, "\"mappings\":[\n  {\"start\":\"0x10000000\",\"end\":\"0x103e8000\","
                                 "\"perms\":\"r--s\",\"offset\":0,\"path\":\"/dev/shm/with,comma\","
                                 "\"vss\":4096000,\"rss\":4096000,\"pss\":2048000,\"uss\":0,\"swap\":0}]"));
}

static void
test_memstats_csv_quotes (void)
{
  g_autoptr(PgsFixture) fx = build (FALSE);
  g_autofree char *out = NULL, *err = NULL;

  g_assert_cmpint (pgs_test_run_cli (fx, &out, &err, "memstats", "--csv", "200", "100", NULL), ==, 0);
  g_assert_cmpstr (out, ==,
                   "pid,start,end,perms,offset,path,vss,rss,pss,uss,swap,path_bytes\r\n"
                   "200,0x10000000,0x103e8000,r--s,0,\"/dev/shm/with,comma\",4096000,4096000,2048000,0,0,\r\n"
                   "100,0x10000000,0x107d0000,rw-p,0,[heap],8192000,8192000,6144000,4096000,0,\r\n");
}

/* Bad PIDs: one clear line each on stderr; what can be reported still is; exit 1. */
static void
test_memstats_bad_pids (void)
{
  g_autoptr(PgsFixture) fx = build (FALSE);
  g_autofree char *out = NULL, *err = NULL;
  g_autofree char *out2 = NULL, *err2 = NULL;
  g_autofree char *out3 = NULL, *err3 = NULL;
  g_auto(GStrv) lines = NULL;

  g_assert_cmpint (pgs_test_run_cli (fx, &out, &err, "memstats", "100", "4242", "300", NULL), ==, 1);
  lines = g_strsplit (err, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 3);
  g_assert_cmpstr (lines[0], ==, "pagescope-cli: PID 4242: no process with PID 4242");
  g_assert_cmpstr (lines[1], ==, "pagescope-cli: PID 300: a kernel thread has no user memory");
  g_assert_nonnull (strstr (out, "PID 100  alpha"));

  g_assert_cmpint (pgs_test_run_cli (fx, &out2, &err2, "memstats", "4242", NULL), ==, 3);
  g_assert_cmpint (pgs_test_run_cli (fx, &out3, &err3, "memstats", "12abc", NULL), ==, 2);
  g_assert_nonnull (strstr (err3, "“12abc” is not a PID"));
}

/* A normal user's view: PSS and USS from smaps_rollup or unknown, shown as null/— never 0. */
static void
test_unprivileged_unknown (void)
{
  g_autoptr(PgsFixture) fx = build (TRUE);
  g_autofree char *out = NULL, *err = NULL;
  g_autofree char *human = NULL, *err2 = NULL;

  g_assert_cmpint (pgs_test_run_cli (fx, &out, &err, "memrank", "--json", NULL), ==, 0);
  g_assert_nonnull (strstr (out, "\"privileged\":false"));
  g_assert_nonnull (strstr (out, "\"vss\":8192000,\"rss\":102400,\"pss\":null,\"uss\":null,\"swap\":0,"
                                 "\"unknown_reason\":\"smaps_rollup: smaps_rollup: No such file or directory\""));
  g_assert_nonnull (strstr (out, "\"totals_unknown\":{\"rss\":0,\"pss\":2,\"uss\":2,\"swap\":0}"));
  g_assert_nonnull (strstr (out, "\"totals\":{\"rss\":204800,\"pss\":null,\"uss\":null,\"swap\":0}"));

  g_assert_cmpint (pgs_test_run_cli (fx, &human, &err2, "memrank", NULL), ==, 0);
  g_assert_nonnull (strstr (human, "—"));
}


/* Names and command lines are bytes any user picks. Process 400 is named "abc" and a
 * lone UTF-8 lead byte (prctl (PR_SET_NAME, "abc\xf0")), 500 carries an ESC sequence that
 * clears a terminal and a C1 CSI (U+009B, valid UTF-8), 600 is three wide characters
 * (6 columns) with a command line holding a comma, a quote, a newline and an invalid byte. */
static PgsFixture *
build_hostile (gboolean unprivileged)
{
  PgsFixture *fx = pgs_fixture_new ();
  static const char cmdline[] = "a,b\"c\nd\0\xff";

  pgs_fixture_set_unprivileged (fx, unprivileged);
  pgs_fixture_add_process (fx, 400, "abc\xf0", 0, FALSE);
  pgs_fixture_add_process (fx, 500, "e\x1b[2J\xc2\x9bx", 0, FALSE);
  pgs_fixture_add_process (fx, 600, "\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e", 0, FALSE);
  pgs_fixture_write (fx, "600/cmdline", cmdline, sizeof cmdline);
  /* 1, 2 and 3 private pages resident of 31, 32 and 33 mapped (status says VmRSS 100 kB,
   * which must fit): --sort vss puts 600 first. */
  for (int pid = 400; pid <= 600; pid += 100)
    {
      guint n = pid / 100 - 3;
      guint64 pages[3];

      pgs_fixture_add_mapping (fx, pid, BASE, BASE + (n + 30) * 4096, "rw-p",
                               pid == 600 ? "/tmp/x\xff\x1b[31m,y" : "[heap]");
      for (guint i = 0; i < n; i++)
        {
          pages[i] = FX_PRESENT_EXCL (100 * pid + i);
          pgs_fixture_set_frame (fx, 100 * pid + i, 1, PGS_KPF_BIT (PGS_KPF_ANON));
        }
      pgs_fixture_set_pages (fx, pid, BASE, pages, n);
    }
  pgs_fixture_commit (fx);
  return fx;
}

/* Nothing but printable UTF-8 and line ends. */
static void
assert_terminal_safe (const char *text)
{
  g_assert_true (g_utf8_validate (text, -1, NULL));
  for (const guchar *p = (const guchar *) text; *p; p++)
    {
      g_assert_true (*p >= 0x20 ? *p != 0x7f : *p == '\n');
      g_assert_false (p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f);   /* C1 */
    }
}

static void
test_escape_human (void)
{
  g_autoptr(PgsFixture) fx = build_hostile (FALSE);
  g_autofree char *out = NULL, *err = NULL;
  g_autofree char *out2 = NULL, *err2 = NULL;
  g_auto(GStrv) lines = NULL;
  glong header_chars;
  guint rows = 0;

  g_assert_cmpint (pgs_test_run_cli (fx, &out, &err, "memrank", "--sort", "vss", NULL), ==, 0);
  assert_terminal_safe (out);
  g_assert_nonnull (strstr (out, " abc? "));
  g_assert_nonnull (strstr (out, " e?[2J?x "));

  /* Every line of the table is as wide on screen as the header: in characters, the line
   * with the three wide characters is 3 shorter, the others equal. */
  lines = g_strsplit (out, "\n", -1);
  header_chars = g_utf8_strlen (lines[0], -1);
  for (guint i = 1; lines[i] != NULL && *lines[i] != '\0'; i++)
    {
      if (strstr (lines[i], "\xe6\x97\xa5") != NULL)
        g_assert_cmpint (g_utf8_strlen (lines[i], -1), ==, header_chars - 3);
      else
        g_assert_cmpint (g_utf8_strlen (lines[i], -1), ==, header_chars);
      rows++;
    }
  g_assert_cmpuint (rows, ==, 5);   /* 3 processes, the rule, the totals */

  /* memstats: the name and the command line in its heading. */
  g_assert_cmpint (pgs_test_run_cli (fx, &out2, &err2, "memstats", "500", "600", NULL), ==, 0);
  assert_terminal_safe (out2);
  g_assert_nonnull (strstr (out2, "PID 500  e?[2J?x  user root\n  /usr/bin/e?[2J?x --fixture\n"));
  g_assert_nonnull (strstr (out2, "\n  a,b\"c?d ?\n"));
  g_assert_nonnull (strstr (out2, "  /tmp/x??[31m,y\n"));
}

/* The rule, case by case: what each input shows as, and how many columns that takes. */
static void
test_escape_rules (void)
{
  static const struct { const char *in; const char *shown; guint width; } cases[] = {
    { "plain", "plain", 5 },
    { "abc\xf0", "abc?", 4 },                       /* a lead byte at the end */
    { "\xf0\x9f\x98", "???", 3 },                   /* a cut 4-byte character: one per byte */
    { "\xc0\xaf", "??", 2 },                        /* overlong "/" */
    { "\xed\xa0\x80", "???", 3 },                   /* a UTF-16 surrogate */
    { "a\tb\nc\x7f", "a?b?c?", 6 },                 /* C0 and DEL */
    { "\xc2\x9b" "31m", "?31m", 4 },                /* C1 CSI */
    { "\xe2\x80\xae" "txt", "?txt", 4 },            /* U+202E right-to-left override (Cf) */
    { "soft\xc2\xad", "soft?", 5 },                 /* U+00AD soft hyphen (Cf) */
    { "x\xe2\x80\xa8y", "x?y", 3 },                 /* U+2028 line separator */
    { "\xe6\x97\xa5\xe6\x9c\xac", "\xe6\x97\xa5\xe6\x9c\xac", 4 },   /* two wide characters */
    { "e\xcc\x81", "e\xcc\x81", 1 },                /* e and a combining acute */
    { "caf\xc3\xa9 \xe2\x80\x94", "caf\xc3\xa9 \xe2\x80\x94", 6 },   /* é and an em dash */
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *shown = pgs_escape_for_terminal (cases[i].in, -1);

      g_assert_cmpstr (shown, ==, cases[i].shown);
      g_assert_cmpuint (pgs_escape_width (shown), ==, cases[i].width);
    }
  /* A length stops at it, NUL and all. */
  {
    g_autofree char *shown = pgs_escape_for_terminal ("a\0b\xff", 4);

    g_assert_cmpstr (shown, ==, "a?b?");
  }
}

/* Messages quote what they were given, escaped the same way. */
static void
test_escape_errors (void)
{
  g_autoptr(PgsFixture) fx = build_hostile (FALSE);
  g_autoptr(PgsFixture) ufx = build_hostile (TRUE);
  g_autofree char *out = NULL, *err = NULL;
  g_autofree char *out2 = NULL, *err2 = NULL;
  g_autofree char *out3 = NULL, *err3 = NULL;
  static const char rollup[] = "00400000-00401000 r--p 00000000 00:00 0  [rollup]\n"
                               "Rss: \x1b]0;owned\x07\xff\n";

  g_assert_cmpint (pgs_test_run_cli (fx, &out, &err, "memrank", "--user", "\x1b[2J", NULL), ==, 2);
  g_assert_cmpstr (err, ==, "pagescope-cli: no such user “?[2J”\n");
  g_assert_cmpint (pgs_test_run_cli (fx, &out2, &err2, "memstats", "\x1b]0;x\x07", NULL), ==, 2);
  g_assert_cmpstr (err2, ==, "pagescope-cli: “?]0;x?” is not a PID\n");

  /* A reason quoting a line of a /proc file, in the table's notes. */
  pgs_fixture_write (ufx, "400/smaps_rollup", rollup, sizeof rollup - 1);
  g_assert_cmpint (pgs_test_run_cli (ufx, &out3, &err3, "memrank", NULL), ==, 0);
  assert_terminal_safe (out3);
  assert_terminal_safe (err3);
  g_assert_nonnull (strstr (out3, "“Rss: ?]0;owned??”"));
}

/* Runs python3 @script with @text on stdin; skips the check without python3. */
static void
assert_python (const char *script,
               const char *text)
{
  g_autofree char *python = g_find_program_in_path ("python3");
  g_autoptr(GSubprocess) proc = NULL;
  g_autoptr(GBytes) input = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *err = NULL;

  if (python == NULL)
    return;
  proc = g_subprocess_new (G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE, &error,
                           python, "-c", script, NULL);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (proc, text, NULL, NULL, &err, &error);
  g_assert_no_error (error);
  if (!g_subprocess_get_if_exited (proc) || g_subprocess_get_exit_status (proc) != 0)
    g_error ("python check failed: %s", err);
}

static void
test_escape_json (void)
{
  g_autoptr(PgsFixture) fx = build_hostile (FALSE);
  g_autofree char *out = NULL, *err = NULL;
  g_autofree char *out2 = NULL, *err2 = NULL;

  g_assert_cmpint (pgs_test_run_cli (fx, &out, &err, "memrank", "--json", NULL), ==, 0);
  g_assert_true (g_utf8_validate (out, -1, NULL));
  /* base64 of 61 62 63 f0 is YWJj8A==; of "a,b\"c\nd \xff" YSxiImMKZCD/. */
  g_assert_nonnull (strstr (out, "\"name\":\"abc\xef\xbf\xbd\",\"name_bytes\":\"YWJj8A==\","));
  g_assert_nonnull (strstr (out, "\"name\":\"e\\u001b[2J\\u009bx\",\"cmdline\":"));
  g_assert_nonnull (strstr (out, "\"cmdline\":\"a,b\\\"c\\nd \xef\xbf\xbd\",\"cmdline_bytes\":\"YSxiImMKZCD/\","));
  assert_python ("import json, sys, base64\n"
                 "d = json.load(sys.stdin)\n"
                 "p = {q['pid']: q for q in d['processes']}\n"
                 "assert base64.b64decode(p[400]['name_bytes']) == b'abc\\xf0'\n"
                 "assert p[400]['name'] == 'abc\\ufffd'\n"
                 "assert p[500]['name'] == 'e\\x1b[2J\\x9bx' and 'name_bytes' not in p[500]\n"
                 "assert base64.b64decode(p[600]['cmdline_bytes']) == b'a,b\"c\\nd \\xff'\n"
                 "assert p[600]['name'] == '\\u65e5\\u672c\\u8a9e'\n", out);

  /* A mapping's path: path_bytes. */
  g_assert_cmpint (pgs_test_run_cli (fx, &out2, &err2, "memstats", "--json", "600", NULL), ==, 0);
  g_assert_true (g_utf8_validate (out2, -1, NULL));
  assert_python ("import json, sys, base64\n"
                 "m = json.load(sys.stdin)['processes'][0]['mappings'][0]\n"
                 "assert m['path'] == '/tmp/x\\ufffd\\x1b[31m,y', m\n"
                 "assert base64.b64decode(m['path_bytes']) == b'/tmp/x\\xff\\x1b[31m,y'\n", out2);
}

static void
test_escape_csv (void)
{
  g_autoptr(PgsFixture) fx = build_hostile (FALSE);
  g_autofree char *out = NULL, *err = NULL;
  g_autofree char *out2 = NULL, *err2 = NULL;

  g_assert_cmpint (pgs_test_run_cli (fx, &out, &err, "memrank", "--csv", "--sort", "vss", NULL), ==, 0);
  g_assert_true (g_utf8_validate (out, -1, NULL));
  g_assert_true (g_str_has_prefix (out, "pid,ppid,uid,user,name,vss,rss,pss,uss,swap,"
                                   "unknown_reason,cmdline,user_bytes,name_bytes,cmdline_bytes\r\n"));
  assert_python ("import csv, sys, io, base64\n"
                 "rows = list(csv.DictReader(io.StringIO(sys.stdin.read(), newline='')))\n"
                 "p = {int(r['pid']): r for r in rows}\n"
                 "assert len(rows) == 3, rows\n"
                 "assert p[400]['name'] == 'abc?' and base64.b64decode(p[400]['name_bytes']) == b'abc\\xf0'\n"
                 "assert p[500]['name'] == 'e?[2J?x'\n"
                 "assert base64.b64decode(p[500]['name_bytes']) == b'e\\x1b[2J\\xc2\\x9bx'\n"
                 "assert p[600]['cmdline'] == 'a,b\"c?d ?', p[600]\n"
                 "assert base64.b64decode(p[600]['cmdline_bytes']) == b'a,b\"c\\nd \\xff'\n", out);

  g_assert_cmpint (pgs_test_run_cli (fx, &out2, &err2, "memstats", "--csv", "600", NULL), ==, 0);
  g_assert_true (g_utf8_validate (out2, -1, NULL));
  assert_python ("import csv, sys, io, base64\n"
                 "rows = list(csv.DictReader(io.StringIO(sys.stdin.read(), newline='')))\n"
                 "assert len(rows) == 1 and rows[0]['path'] == '/tmp/x??[31m,y', rows\n"
                 "assert base64.b64decode(rows[0]['path_bytes']) == b'/tmp/x\\xff\\x1b[31m,y'\n", out2);
}

/* Options that make no sense: exit 2 and one line naming the problem. */
static void
test_bad_options (void)
{
  g_autoptr(PgsFixture) fx = build (FALSE);
  static const struct { const char *args[5]; const char *message; } cases[] = {
    { { "render", "--view", "flags", "--zoom=0" }, "--zoom takes a factor of 1" },
    { { "render", "--view", "flags", "--zoom=-1" }, "--zoom takes a factor of 1" },
    { { "render", "--view", "flags", "--zoom=nan" }, "--zoom takes a factor of 1" },
    { { "render", "--view", "flags", "--zoom=inf" }, "--zoom takes a factor of 1" },
    { { "render", "--view", "residency", "--pid=0" }, "--pid takes a process ID, 1 or more, not “0”" },
    { { "render", "--view", "residency", "--pid=-1" }, "--pid takes a process ID, 1 or more, not “-1”" },
    { { "render", "--view", "flags", "--pid=0" }, "--pid takes a process ID" },
    { { "render", "--view", "flags", "--width=0" }, "--width and --height take 1 to 16384 pixels" },
    { { "render", "--view", "flags", "--height=-5" }, "--width and --height take 1 to 16384 pixels" },
    { { "render", "--view", "flags", "--width=16385" }, "--width and --height take 1 to 16384 pixels" },
    { { "render", "--view", "flags", "--width=99999999999" }, "99999999999" },
    { { "memrank", "--limit=-1" }, "--limit takes a number of processes, 0 or more, not “-1”" },
    { { "memrank", "--limit=1e3" }, "--limit takes a number of processes" },
    { { "memrank", "--user=99999999" }, "no such user “99999999”" },
    { { "memrank", "--user=4294967295" }, "no such user “4294967295”" },
    { { "memstats", "0" }, "“0” is not a PID" },
    { { "memstats", "-5" }, "-5" },
    { { "memstats", "abc" }, "“abc” is not a PID" },
    { { "memstats", "+5" }, "“+5” is not a PID" },
    { { "memstats", "--", "-5" }, "“-5” is not a PID" },
    { { "memstats", " 5" }, "“ 5” is not a PID" },
    { { "wss", "--method=bogus", "1" }, "unknown --method “bogus”: referenced or pageout" },
    { { "wss", "--interval=1,10", "1" }, "a list of intervals is for --method pageout" },
    { { "wss", "--method=pageout", "--interval=1,x", "1" }, "--interval takes seconds from 0.01 to 86400" },
    { { "wss", "--method=pageout", "--interval=0", "1" }, "--interval takes seconds from 0.01 to 86400" },
    { { "wss", "--method=pageout", "--cgroup=/x", "1" }, "needs one PID, or --cgroup, or --app" },
    { { "wss", "--method=pageout", "--anon", "1" }, "are for --method referenced" },
    { { "wss", "--cgroup=/x", "1" }, "--cgroup and --app are for --method pageout" },
    { { "wss", "--method=pageout", "abc" }, "“abc” is not a PID" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *out = NULL, *err = NULL;
      const char *const *a = cases[i].args;

      g_test_message ("%s %s %s %s", a[0], a[1], a[2] ? a[2] : "", a[2] && a[3] ? a[3] : "");
      g_assert_cmpint (pgs_test_run_cli (fx, &out, &err, a[0], a[1], a[2], a[3], NULL), ==, 2);
      g_assert_nonnull (strstr (err, cases[i].message));
      g_assert_true (g_str_has_prefix (err, "pagescope-cli: "));
      g_assert_nonnull (strchr (err, '\n'));
      g_assert_cmpstr (strchr (err, '\n') + 1, ==, "");
      g_assert_cmpstr (out, ==, "");
    }
}

/* A group that is not there: exit 3 and one line that names it. */
static void
test_wss_pageout_no_group (void)
{
  g_autoptr(PgsFixture) fx = build (FALSE);
  g_autofree char *out = NULL, *err = NULL;
  g_autofree char *out2 = NULL, *err2 = NULL;

  g_assert_cmpint (pgs_test_run_cli (fx, &out, &err, "wss", "--method=pageout",
                                     "--cgroup=/no/such/pagescope-group", NULL), ==, 3);
  g_assert_true (g_str_has_prefix (err, "pagescope-cli: no cgroup “/no/such/pagescope-group”"));
  g_assert_cmpstr (out, ==, "");
  g_assert_cmpint (pgs_test_run_cli (fx, &out2, &err2, "wss", "--method=pageout",
                                     "--app=org.example.NoSuchApp", NULL), ==, 3);
  g_assert_true (g_str_has_prefix (err2, "pagescope-cli: no running process of the application "
                                         "“org.example.NoSuchApp”"));
  g_assert_cmpstr (out2, ==, "");
}

/* A UID without a passwd entry (a container's) is a user while a process runs under it. */
static void
test_memrank_unnamed_uid (void)
{
  g_autoptr(PgsFixture) fx = pgs_fixture_new ();
  guint64 page = FX_PRESENT_EXCL (77);
  g_autofree char *out = NULL, *err = NULL;
  g_autofree char *out2 = NULL, *err2 = NULL;

  pgs_fixture_add_process (fx, 700, "contained", 99999998, FALSE);
  pgs_fixture_add_mapping (fx, 700, BASE, BASE + 4096, "rw-p", "[heap]");
  pgs_fixture_set_frame (fx, 77, 1, PGS_KPF_BIT (PGS_KPF_ANON));
  pgs_fixture_set_pages (fx, 700, BASE, &page, 1);
  pgs_fixture_commit (fx);

  g_assert_cmpint (pgs_test_run_cli (fx, &out, &err, "memrank", "--json", "--user", "99999998", NULL), ==, 0);
  g_assert_nonnull (strstr (out, "{\"pid\":700,\"ppid\":1,\"uid\":99999998,"));
  g_assert_cmpint (pgs_test_run_cli (fx, &out2, &err2, "memrank", "--user", "99999997", NULL), ==, 2);
  g_assert_cmpstr (err2, ==, "pagescope-cli: no such user “99999997”\n");
}

/* --procfs names the path and the reason, before any scan; --limit 0 is the totals alone. */
static void
test_procfs_and_limit (void)
{
  g_autoptr(PgsFixture) fx = build (FALSE);
  g_autofree char *out = NULL, *err = NULL;
  g_autofree char *out2 = NULL, *err2 = NULL;
  g_autofree char *out3 = NULL, *err3 = NULL;
  g_autofree char *out4 = NULL, *err4 = NULL;

  g_assert_cmpint (pgs_test_run_cli (NULL, &out, &err, "memrank", "--procfs", "", NULL), ==, 2);
  g_assert_cmpstr (err, ==, "pagescope-cli: --procfs “”: No such file or directory\n");
  g_assert_cmpint (pgs_test_run_cli (NULL, &out2, &err2, "memrank", "--procfs", "/nonexistent/procfs", NULL), ==, 2);
  g_assert_cmpstr (err2, ==, "pagescope-cli: --procfs “/nonexistent/procfs”: No such file or directory\n");
  g_assert_cmpint (pgs_test_run_cli (NULL, &out3, &err3, "memrank", "--procfs", "/dev/null", NULL), ==, 2);
  g_assert_cmpstr (err3, ==, "pagescope-cli: --procfs “/dev/null”: Not a directory\n");

  g_assert_cmpint (pgs_test_run_cli (fx, &out4, &err4, "memrank", "--json", "--limit", "0", NULL), ==, 0);
  g_assert_nonnull (strstr (out4, "\"totals\":{\"rss\":12288000,\"pss\":8192000,"));
  g_assert_nonnull (strstr (out4, "\"processes\":[\n]}"));
}


static char *
read_text (const char *path)
{
  g_autoptr(GError) error = NULL;
  char *text = NULL;

  g_file_get_contents (path, &text, NULL, &error);
  g_assert_no_error (error);
  return text;
}

/* The names in @dir, sorted, joined by spaces. */
static char *
list_dir (const char *dir)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  g_assert_nonnull (d);
  while ((name = g_dir_read_name (d)) != NULL)
    g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, (GCompareFunc) g_strcmp0);
  g_ptr_array_add (names, NULL);
  return g_strjoinv (" ", (char **) names->pdata);
}

/* Takes @dir. */
static void
remove_tree (char *dir)
{
  const char *argv[] = { "rm", "-rf", dir, NULL };

  g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL, NULL, NULL);
  g_free (dir);
}

/* Every failure names the file and the system's reason; nothing half-written remains. */
static void
test_write_errors (void)
{
  g_autoptr(PgsFixture) fx = build (FALSE);
  g_autofree char *tmp = g_dir_make_tmp ("pagescope-write-XXXXXX", NULL);
  g_autofree char *missing = g_build_filename (tmp, "missing", "x.png", NULL);
  g_autofree char *target = g_build_filename (tmp, "old.png", NULL);
  g_autofree char *out = NULL, *err = NULL, *expected = NULL;
  g_autofree char *out2 = NULL, *err2 = NULL, *expected2 = NULL;
  g_autofree char *out3 = NULL, *err3 = NULL;
  g_autofree char *out4 = NULL, *err4 = NULL, *names = NULL, *png = NULL;
  GStatBuf st;

  g_assert_nonnull (tmp);
  g_test_queue_destroy ((GDestroyNotify) remove_tree, g_strdup (tmp));

  /* A directory as the target. */
  g_assert_cmpint (pgs_test_run_cli (fx, &out, &err, "render", "--view", "residency", "--pid", "100",
                            "-o", tmp, NULL), ==, 3);
  expected = g_strdup_printf ("pagescope-cli: cannot write “%s”: %s\n", tmp, g_strerror (EISDIR));
  g_assert_cmpstr (err, ==, expected);

  /* A folder that does not exist. */
  g_assert_cmpint (pgs_test_run_cli (fx, &out2, &err2, "render", "--view", "residency", "--pid", "100",
                            "-o", missing, NULL), ==, 3);
  expected2 = g_strdup_printf ("pagescope-cli: cannot write “%s”: %s\n", missing, g_strerror (ENOENT));
  g_assert_cmpstr (err2, ==, expected2);

  /* A full disk, where the system has the device: written in place, never renamed over. */
  if (access ("/dev/full", W_OK) == 0)
    {
      g_assert_cmpint (pgs_test_run_cli (fx, &out3, &err3, "render", "--view", "residency", "--pid", "100",
                                "-o", "/dev/full", NULL), ==, 3);
      g_assert_cmpstr (err3, ==, "pagescope-cli: cannot write “/dev/full”: No space left on device\n");
      g_assert_cmpint (g_stat ("/dev/full", &st), ==, 0);
      g_assert_true (S_ISCHR (st.st_mode));
    }

  /* Replacing a file keeps its permissions and leaves no temporary file. */
  g_assert_true (g_file_set_contents (target, "old", -1, NULL));
  g_assert_cmpint (g_chmod (target, 0640), ==, 0);
  g_assert_cmpint (pgs_test_run_cli (fx, &out4, &err4, "render", "--view", "residency", "--pid", "100",
                            "-o", target, NULL), ==, 0);
  png = read_text (target);
  g_assert_true (g_str_has_prefix (png, "\x89PNG\r\n"));
  g_assert_cmpint (g_stat (target, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0640);
  names = list_dir (tmp);
  g_assert_cmpstr (names, ==, "old.png");
}

typedef struct
{
  const char *dir;
  gboolean    tmpfs;   /* a 16 KiB tmpfs, else read-only */
} MountSetup;

/* In the child, before exec: a mount namespace of its own, so whatever is mounted goes
 * away with the child, also when the test fails. */
static void
mount_in_child (gpointer data)
{
  const MountSetup *setup = data;

  if (unshare (CLONE_NEWNS) != 0 || mount (NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0)
    _exit (77);
  if (setup->tmpfs)
    {
      g_autofree char *old = g_build_filename (setup->dir, "old.png", NULL);

      if (mount ("pagescope-test", setup->dir, "tmpfs", 0, "size=16k") != 0 ||
          !g_file_set_contents (old, "old", -1, NULL))
        _exit (77);
    }
  else if (mount (setup->dir, setup->dir, NULL, MS_BIND, NULL) != 0 ||
           mount (NULL, setup->dir, NULL, MS_REMOUNT | MS_BIND | MS_RDONLY, NULL) != 0)
    _exit (77);
}

/* Renders into @dir/old.png inside the mount set up, then lists @dir and shows old.png
 * from the same namespace. Returns the shell's exit status, 77 when mounts are denied. */
static int
render_mounted (PgsFixture  *fx,
                const char  *dir,
                gboolean     tmpfs,
                char       **out,
                char       **err)
{
  MountSetup setup = { dir, tmpfs };
  /* print_suppressions=0: a sanitizer build's LeakSanitizer would list the fontconfig
   * suppressions the legend needs after the one line compared. */
  const char *script = "export LSAN_OPTIONS=\"${LSAN_OPTIONS:+$LSAN_OPTIONS:}print_suppressions=0\"; "
                       "\"$0\" render --view residency --pid 100 --legend --procfs \"$1\" -o \"$2/old.png\"; "
                       "echo \"exit=$?\"; ls -A \"$2\"; cat \"$2/old.png\"";
  const char *argv[] = { "/bin/sh", "-c", script, g_getenv ("PAGESCOPE_CLI"),
                         pgs_fixture_get_root (fx), dir, NULL };
  g_autoptr(GError) error = NULL;
  int status = 0;

  g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, mount_in_child, &setup, out, err,
                &status, &error);
  g_assert_no_error (error);
  g_assert_true (WIFEXITED (status));
  return WEXITSTATUS (status);
}

/* A read-only folder: the old file stays as it was. As root, which ignores permissions, the
 * folder is a read-only bind mount in a mount namespace of the command's own. */
static void
test_write_read_only (void)
{
  g_autoptr(PgsFixture) fx = build (FALSE);
  g_autofree char *tmp = g_dir_make_tmp ("pagescope-write-XXXXXX", NULL);
  g_autofree char *target = g_build_filename (tmp, "old.png", NULL);
  g_autofree char *out = NULL, *err = NULL, *expected = NULL, *names = NULL, *old = NULL;

  g_assert_nonnull (tmp);
  g_test_queue_destroy ((GDestroyNotify) remove_tree, g_strdup (tmp));
  g_assert_true (g_file_set_contents (target, "old", -1, NULL));

  if (geteuid () == 0)
    {
      if (render_mounted (fx, tmp, FALSE, &out, &err) == 77)
        {
          g_test_skip ("no mount namespace here");
          return;
        }
      expected = g_strdup_printf ("pagescope-cli: cannot write “%s”: %s\n", target, g_strerror (EROFS));
      g_assert_cmpstr (err, ==, expected);
      g_assert_cmpstr (out, ==, "exit=3\nold.png\nold");
    }
  else
    {
      int code;

      g_assert_cmpint (g_chmod (tmp, 0555), ==, 0);
      code = pgs_test_run_cli (fx, &out, &err, "render", "--view", "residency", "--pid", "100", "-o",
                      target, NULL);
      g_assert_cmpint (g_chmod (tmp, 0755), ==, 0);
      g_assert_cmpint (code, ==, 3);
      expected = g_strdup_printf ("pagescope-cli: cannot write “%s”: %s\n", target, g_strerror (EACCES));
      g_assert_cmpstr (err, ==, expected);
    }
  names = list_dir (tmp);
  g_assert_cmpstr (names, ==, "old.png");
  old = read_text (target);
  g_assert_cmpstr (old, ==, "old");
}

/* A full file system (a 16 KiB tmpfs; the picture with its legend is some 50 KiB): the
 * message says so, old.png is untouched and no temporary file remains. Root only. */
static void
test_write_full_disk (void)
{
  g_autoptr(PgsFixture) fx = build (FALSE);
  g_autofree char *tmp = g_dir_make_tmp ("pagescope-write-XXXXXX", NULL);
  g_autofree char *out = NULL, *err = NULL, *expected = NULL;

  g_assert_nonnull (tmp);
  g_test_queue_destroy ((GDestroyNotify) remove_tree, g_strdup (tmp));
  if (geteuid () != 0 || render_mounted (fx, tmp, TRUE, &out, &err) == 77)
    {
      g_test_skip ("mounting a small tmpfs needs root and a mount namespace");
      return;
    }
  expected = g_strdup_printf ("pagescope-cli: cannot write “%s/old.png”: %s\n", tmp, g_strerror (ENOSPC));
  g_assert_cmpstr (err, ==, expected);
  g_assert_cmpstr (out, ==, "exit=3\nold.png\nold");
}

static void
test_usage (void)
{
  g_autofree char *out = NULL, *err = NULL;
  g_autofree char *out2 = NULL, *err2 = NULL;
  g_autofree char *out3 = NULL, *err3 = NULL;

  g_assert_cmpint (pgs_test_run_cli (NULL, &out, &err, "--help", NULL), ==, 0);
  g_assert_nonnull (strstr (out, "memrank"));
  g_assert_cmpint (pgs_test_run_cli (NULL, &out2, &err2, "frobnicate", NULL), ==, 2);
  g_assert_nonnull (strstr (err2, "unknown command “frobnicate”"));
  g_assert_cmpint (pgs_test_run_cli (NULL, &out3, &err3, "memrank", "--procfs", "/nonexistent/procfs", NULL), ==, 2);
  g_assert_nonnull (strstr (err3, "/nonexistent/procfs"));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  if (sysconf (_SC_PAGESIZE) != 4096)
    {
      g_test_skip ("the expected figures assume 4 KiB pages");
      return g_test_run ();
    }

  g_test_add_func ("/pgs/cli/memrank/json", test_memrank_json);
  g_test_add_func ("/pgs/cli/memrank/sort-limit-filter", test_memrank_sort_limit_filter);
  g_test_add_func ("/pgs/cli/memrank/human", test_memrank_human);
  g_test_add_func ("/pgs/cli/memrank/unnamed-uid", test_memrank_unnamed_uid);
  g_test_add_func ("/pgs/cli/memstats/json", test_memstats);
  g_test_add_func ("/pgs/cli/memstats/csv-quotes", test_memstats_csv_quotes);
  g_test_add_func ("/pgs/cli/memstats/bad-pids", test_memstats_bad_pids);
  g_test_add_func ("/pgs/cli/unprivileged-unknown", test_unprivileged_unknown);
  g_test_add_func ("/pgs/cli/usage", test_usage);
  g_test_add_func ("/pgs/cli/escape/rules", test_escape_rules);
  g_test_add_func ("/pgs/cli/escape/human", test_escape_human);
  g_test_add_func ("/pgs/cli/escape/errors", test_escape_errors);
  g_test_add_func ("/pgs/cli/escape/json", test_escape_json);
  g_test_add_func ("/pgs/cli/escape/csv", test_escape_csv);
  g_test_add_func ("/pgs/cli/bad-options", test_bad_options);
  g_test_add_func ("/pgs/cli/wss-pageout-no-group", test_wss_pageout_no_group);
  g_test_add_func ("/pgs/cli/procfs-and-limit", test_procfs_and_limit);
  g_test_add_func ("/pgs/cli/write/errors", test_write_errors);
  g_test_add_func ("/pgs/cli/write/read-only", test_write_read_only);
  g_test_add_func ("/pgs/cli/write/full-disk", test_write_full_disk);

  return g_test_run ();
}
