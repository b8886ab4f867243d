/* test-cli.c: pagescope-cli on a fixture tree
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The proposal's example (see test-scanner.c): alpha has 1000 private pages and 1000 shared
 * with beta. With PS = 4096: alpha RSS 8192000, PSS 6144000, USS 4096000; beta RSS 4096000,
 * PSS 2048000, USS 0.
 */

#include "config.h"

#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "pgs-fixture.h"
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

static int
run_cli (PgsFixture  *fx,
         char       **out,
         char       **err,
         ...)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  const char *arg;
  int status = 0;
  va_list args;

  g_ptr_array_add (argv, (char *) g_getenv ("PAGESCOPE_CLI"));
  va_start (args, err);
  while ((arg = va_arg (args, const char *)) != NULL)
    g_ptr_array_add (argv, (char *) arg);
  va_end (args);
  if (fx != NULL)
    {
      g_ptr_array_add (argv, (char *) "--procfs");
      g_ptr_array_add (argv, (char *) pgs_fixture_get_root (fx));
    }
  g_ptr_array_add (argv, NULL);

  g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL, out, err,
                &status, &error);
  g_assert_no_error (error);
  g_assert_true (WIFEXITED (status));
  return WEXITSTATUS (status);
}

/* The document parses as JSON, where python3 is there to say so. */
static void
assert_valid_json (const char *text)
{
  g_autofree char *python = g_find_program_in_path ("python3");
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;
  int status = 0;
  int fd;

  if (python == NULL)
    return;
  fd = g_file_open_tmp ("pagescope-XXXXXX.json", &path, &error);
  g_assert_no_error (error);
  close (fd);
  g_file_set_contents (path, text, -1, &error);
  g_assert_no_error (error);
  {
    const char *argv[] = { python, "-c", "import json,sys; json.load(open(sys.argv[1]))", path, NULL };

    g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL, NULL, &status, &error);
  }
  g_assert_no_error (error);
  g_unlink (path);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
}

static void
test_memrank_json (void)
{
  g_autoptr(PgsFixture) fx = build (FALSE);
  g_autofree char *out = NULL, *err = NULL;

  g_assert_cmpint (run_cli (fx, &out, &err, "memrank", "--json", NULL), ==, 0);
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
  g_assert_cmpint (run_cli (fx, &out, &err, "memrank", "--json", "--limit", "1", NULL), ==, 0);
  g_assert_null (strstr (out, "\"pid\":200"));
  g_assert_nonnull (strstr (out, "\"pss\":8192000"));

  /* A name filter: only beta. */
  g_assert_cmpint (run_cli (fx, &out2, &err2, "memrank", "--csv", "bet", NULL), ==, 0);
  g_assert_cmpstr (out2, ==,
                   "pid,ppid,uid,user,name,vss,rss,pss,uss,swap,unknown_reason,cmdline\r\n"
                   "200,1,0,root,beta,4096000,4096000,2048000,0,0,,/usr/bin/beta --fixture\r\n");

  g_assert_cmpint (run_cli (fx, &out3, &err3, "memrank", "--sort", "bogus", NULL), ==, 2);
  g_assert_nonnull (strstr (err3, "--sort takes pss, uss, rss, vss or swap"));
}

static void
test_memrank_human (void)
{
  g_autoptr(PgsFixture) fx = build (FALSE);
  g_autofree char *out = NULL, *err = NULL;
  g_auto(GStrv) lines = NULL;

  g_assert_cmpint (run_cli (fx, &out, &err, "memrank", NULL), ==, 0);
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

  g_assert_cmpint (run_cli (fx, &out, &err, "memstats", "--json", "200", NULL), ==, 0);
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

  g_assert_cmpint (run_cli (fx, &out, &err, "memstats", "--csv", "200", "100", NULL), ==, 0);
  g_assert_cmpstr (out, ==,
                   "pid,start,end,perms,offset,path,vss,rss,pss,uss,swap\r\n"
                   "200,0x10000000,0x103e8000,r--s,0,\"/dev/shm/with,comma\",4096000,4096000,2048000,0,0\r\n"
                   "100,0x10000000,0x107d0000,rw-p,0,[heap],8192000,8192000,6144000,4096000,0\r\n");
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

  g_assert_cmpint (run_cli (fx, &out, &err, "memstats", "100", "4242", "300", NULL), ==, 1);
  lines = g_strsplit (err, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 3);
  g_assert_cmpstr (lines[0], ==, "pagescope-cli: PID 4242: no process with PID 4242");
  g_assert_cmpstr (lines[1], ==, "pagescope-cli: PID 300: a kernel thread has no user memory");
  g_assert_nonnull (strstr (out, "PID 100  alpha"));

  g_assert_cmpint (run_cli (fx, &out2, &err2, "memstats", "4242", NULL), ==, 3);
  g_assert_cmpint (run_cli (fx, &out3, &err3, "memstats", "12abc", NULL), ==, 2);
  g_assert_nonnull (strstr (err3, "“12abc” is not a PID"));
}

/* A normal user's view: PSS and USS from smaps_rollup or unknown, shown as null/— never 0. */
static void
test_unprivileged_unknown (void)
{
  g_autoptr(PgsFixture) fx = build (TRUE);
  g_autofree char *out = NULL, *err = NULL;
  g_autofree char *human = NULL, *err2 = NULL;

  g_assert_cmpint (run_cli (fx, &out, &err, "memrank", "--json", NULL), ==, 0);
  g_assert_nonnull (strstr (out, "\"privileged\":false"));
  g_assert_nonnull (strstr (out, "\"vss\":8192000,\"rss\":102400,\"pss\":null,\"uss\":null,\"swap\":0,"
                                 "\"unknown_reason\":\"smaps_rollup: smaps_rollup: No such file or directory\""));
  g_assert_nonnull (strstr (out, "\"totals_unknown\":{\"rss\":0,\"pss\":2,\"uss\":2,\"swap\":0}"));
  g_assert_nonnull (strstr (out, "\"totals\":{\"rss\":204800,\"pss\":null,\"uss\":null,\"swap\":0}"));

  g_assert_cmpint (run_cli (fx, &human, &err2, "memrank", NULL), ==, 0);
  g_assert_nonnull (strstr (human, "—"));
}

static void
test_usage (void)
{
  g_autofree char *out = NULL, *err = NULL;
  g_autofree char *out2 = NULL, *err2 = NULL;
  g_autofree char *out3 = NULL, *err3 = NULL;

  g_assert_cmpint (run_cli (NULL, &out, &err, "--help", NULL), ==, 0);
  g_assert_nonnull (strstr (out, "memrank"));
  g_assert_cmpint (run_cli (NULL, &out2, &err2, "frobnicate", NULL), ==, 2);
  g_assert_nonnull (strstr (err2, "unknown command “frobnicate”"));
  g_assert_cmpint (run_cli (NULL, &out3, &err3, "memrank", "--procfs", "/nonexistent/procfs", NULL), ==, 3);
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
  g_test_add_func ("/pgs/cli/memstats/json", test_memstats);
  g_test_add_func ("/pgs/cli/memstats/csv-quotes", test_memstats_csv_quotes);
  g_test_add_func ("/pgs/cli/memstats/bad-pids", test_memstats_bad_pids);
  g_test_add_func ("/pgs/cli/unprivileged-unknown", test_unprivileged_unknown);
  g_test_add_func ("/pgs/cli/usage", test_usage);

  return g_test_run ();
}
