/* test-compare.c: two snapshots matched by PID and start time
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <stdarg.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib/gstdio.h>
#include <pagescope.h>

#include "pgs-fixture.h"
#include "pgs-kpage.h"
#include "pgs-snapshot-private.h"
#include "pgs-test-json.h"

#define BASE G_GUINT64_CONSTANT (0x10000000)

static guint64 PS;

typedef struct
{
  int         pid;
  const char *name;
  guint64     start_time;
  guint       n_pages;    /* private, present: RSS = PSS = USS = n_pages pages */
} Proc;

static PgsSnapshot *
scan_procs (const Proc *procs,
            guint       n,
            const char *boot_id)
{
  g_autoptr(PgsFixture) fx = pgs_fixture_new ();
  g_autoptr(PgsScanner) scanner = pgs_scanner_new ();
  g_autoptr(GError) error = NULL;
  PgsSnapshot *snap;
  guint64 pfn = 100;

  for (guint i = 0; i < n; i++)
    {
      g_autofree guint64 *e = g_new0 (guint64, procs[i].n_pages);
      g_autofree char *rel = g_strdup_printf ("%d/stat", procs[i].pid);
      g_autofree char *stat = g_strdup_printf ("%d (%s) S 1 1 1 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 %"
                                               G_GUINT64_FORMAT " 0 0\n", procs[i].pid, procs[i].name,
                                               procs[i].start_time);

      pgs_fixture_add_process (fx, procs[i].pid, procs[i].name, 0, FALSE);
      pgs_fixture_write (fx, rel, stat, -1);
      pgs_fixture_add_mapping (fx, procs[i].pid, BASE, BASE + procs[i].n_pages * PS, "rw-p", "[heap]");
      for (guint k = 0; k < procs[i].n_pages; k++, pfn++)
        {
          e[k] = FX_PRESENT_EXCL (pfn);
          pgs_fixture_set_frame (fx, pfn, 1, PGS_KPF_BIT (PGS_KPF_ANON));
        }
      pgs_fixture_set_pages (fx, procs[i].pid, BASE, e, procs[i].n_pages);
    }
  pgs_fixture_write (fx, "sys/kernel/random/boot_id", boot_id, -1);
  pgs_fixture_commit (fx);

  pgs_scanner_set_procfs_root (scanner, pgs_fixture_get_root (fx));
  snap = pgs_scanner_scan (scanner, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (pgs_snapshot_get_n_processes (snap), ==, n);
  return snap;
}

static const Proc old_procs[] = {
  { 100, "alpha", 500, 1000 },
  { 200, "beta", 600, 10 },     /* killed before the second snapshot */
  { 300, "gamma", 700, 5 },     /* its PID is reused by delta */
};
static const Proc new_procs[] = {
  { 100, "alpha", 500, 1500 },
  { 300, "delta", 9000, 20 },
  { 400, "eps", 9100, 3 },
};

static void
assert_entry (const PgsCompareEntry *e,
              int                    pid,
              PgsCompareStatus       status,
              gint64                 pss_pages)
{
  gint64 d = 0;

  g_assert_cmpint (e->pid, ==, pid);
  g_assert_cmpint (e->status, ==, status);
  g_assert_true ((e->old_process != NULL) == (status != PGS_COMPARE_NEW));
  g_assert_true ((e->new_process != NULL) == (status != PGS_COMPARE_GONE));
  g_assert_true (pgs_compare_entry_get_diff (e, PGS_METRIC_PSS, &d));
  g_assert_cmpint (d, ==, pss_pages * (gint64) PS);
  g_assert_true (pgs_compare_entry_get_diff (e, PGS_METRIC_RSS, &d));
  g_assert_cmpint (d, ==, pss_pages * (gint64) PS);
  g_assert_true (pgs_compare_entry_get_diff (e, PGS_METRIC_SWAP, &d));
  g_assert_cmpint (d, ==, 0);
}

static void
test_gone_new_reused (void)
{
  g_autoptr(PgsSnapshot) old_s = scan_procs (old_procs, 3, "boot-a\n");
  g_autoptr(PgsSnapshot) new_s = scan_procs (new_procs, 3, "boot-a\n");
  g_autoptr(GArray) entries = pgs_compare_snapshots (old_s, new_s);

  /* By the size of the PSS change: alpha +500 pages, delta (new) +20, beta (gone) -10,
   * gamma (gone) -5, eps (new) +3. PID 300 is two entries: gamma went, delta came. */
  g_assert_cmpuint (entries->len, ==, 5);
  assert_entry (&g_array_index (entries, PgsCompareEntry, 0), 100, PGS_COMPARE_BOTH, 500);
  assert_entry (&g_array_index (entries, PgsCompareEntry, 1), 300, PGS_COMPARE_NEW, 20);
  assert_entry (&g_array_index (entries, PgsCompareEntry, 2), 200, PGS_COMPARE_GONE, -10);
  assert_entry (&g_array_index (entries, PgsCompareEntry, 3), 300, PGS_COMPARE_GONE, -5);
  assert_entry (&g_array_index (entries, PgsCompareEntry, 4), 400, PGS_COMPARE_NEW, 3);
  g_assert_cmpstr (pgs_process_get_name (g_array_index (entries, PgsCompareEntry, 1).new_process), ==, "delta");
  g_assert_cmpstr (pgs_process_get_name (g_array_index (entries, PgsCompareEntry, 3).old_process), ==, "gamma");
  g_assert_cmpuint (pgs_process_get_start_time (g_array_index (entries, PgsCompareEntry, 3).old_process), ==, 700);
}

static void
test_other_boot (void)
{
  g_autoptr(PgsSnapshot) old_s = scan_procs (old_procs, 1, "boot-a\n");
  g_autoptr(PgsSnapshot) new_s = scan_procs (old_procs, 1, "boot-b\n");
  g_autoptr(GArray) entries = pgs_compare_snapshots (old_s, new_s);

  /* Same PID and start time, but another boot: not the same process. */
  g_assert_cmpuint (entries->len, ==, 2);
  assert_entry (&g_array_index (entries, PgsCompareEntry, 0), 100, PGS_COMPARE_GONE, -1000);
  assert_entry (&g_array_index (entries, PgsCompareEntry, 1), 100, PGS_COMPARE_NEW, 1000);
}

static void
test_cli_json (void)
{
  g_autoptr(PgsSnapshot) old_s = scan_procs (old_procs, 3, "boot-a\n");
  g_autoptr(PgsSnapshot) new_s = scan_procs (new_procs, 3, "boot-a\n");
  g_autofree char *dir = g_dir_make_tmp ("pgs-compare-XXXXXX", NULL);
  g_autofree char *a = g_build_filename (dir, "old.pgsnap", NULL);
  g_autofree char *b = g_build_filename (dir, "new.pgsnap", NULL);
  g_autoptr(GFile) fa = g_file_new_for_path (a);
  g_autoptr(GFile) fb = g_file_new_for_path (b);
  g_autofree char *out = NULL, *err = NULL, *expect = NULL;
  g_autoptr(GError) error = NULL;
  const char *cli = g_getenv ("PAGESCOPE_CLI");
  const char *argv[] = { cli, "compare", "--json", a, b, NULL };
  int status;

  if (cli == NULL)
    {
      g_test_skip ("PAGESCOPE_CLI not set");
      return;
    }
  g_assert_true (pgs_snapshot_save (old_s, fa, NULL, &error));
  g_assert_true (pgs_snapshot_save (new_s, fb, NULL, &error));
  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, &err, &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  pgs_test_assert_json (out);

  /* The first entry and the totals, in bytes worked out from the page counts. */
  expect = g_strdup_printf ("{\"pid\":100,\"name\":\"alpha\",\"status\":\"both\","
                            "\"old\":{\"rss\":%" G_GUINT64_FORMAT ",\"pss\":%" G_GUINT64_FORMAT ",\"uss\":%" G_GUINT64_FORMAT ",\"swap\":0},"
                            "\"new\":{\"rss\":%" G_GUINT64_FORMAT ",\"pss\":%" G_GUINT64_FORMAT ",\"uss\":%" G_GUINT64_FORMAT ",\"swap\":0},"
                            "\"diff\":{\"rss\":%" G_GUINT64_FORMAT ",\"pss\":%" G_GUINT64_FORMAT ",\"uss\":%" G_GUINT64_FORMAT ",\"swap\":0}}",
                            1000 * PS, 1000 * PS, 1000 * PS, 1500 * PS, 1500 * PS, 1500 * PS,
                            500 * PS, 500 * PS, 500 * PS);
  g_assert_nonnull (strstr (out, expect));
  g_assert_nonnull (strstr (out, "{\"pid\":200,\"name\":\"beta\",\"status\":\"gone\""));
  g_assert_nonnull (strstr (out, "\"new\":null"));
  g_free (expect);
  /* Old 1015 pages, new 1523: +508. */
  expect = g_strdup_printf ("\"diff\":{\"rss\":%" G_GUINT64_FORMAT ",\"pss\":%" G_GUINT64_FORMAT,
                            508 * PS, 508 * PS);
  g_assert_nonnull (strstr (strstr (out, "\"totals\""), expect));
  g_assert_nonnull (strstr (out, "\"totals_unknown\":{\"old\":{\"rss\":0,\"pss\":0,\"uss\":0,\"swap\":0}"));

  g_unlink (a);
  g_unlink (b);
  g_rmdir (dir);
}

/* Runs `compare ARGS…` on files; stdout and stderr; the exit status. */
static int
run_compare (char       **out,
             char       **err,
             const char  *first,
             ...)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  const char *arg;
  int status = 0;
  va_list args;

  g_ptr_array_add (argv, (char *) g_getenv ("PAGESCOPE_CLI"));
  g_ptr_array_add (argv, (char *) "compare");
  va_start (args, first);
  for (arg = first; arg != NULL; arg = va_arg (args, const char *))
    g_ptr_array_add (argv, (char *) arg);
  va_end (args);
  g_ptr_array_add (argv, NULL);
  g_assert_true (g_spawn_sync (NULL, (char **) argv->pdata, (char *[]) { (char *) "TZ=UTC", NULL },
                               G_SPAWN_DEFAULT, NULL, NULL, out, err, &status, &error));
  g_assert_no_error (error);
  g_assert_true (WIFEXITED (status));
  return WEXITSTATUS (status);
}

/* 2026-03-01 14:03:07 and 14:03:41 UTC, in microseconds: the same minute. */
#define T_BEFORE (G_GINT64_CONSTANT (1772373787) * G_USEC_PER_SEC)
#define T_AFTER  (G_GINT64_CONSTANT (1772373821) * G_USEC_PER_SEC)

/* The files named the wrong way round (after first): compared in capture order, said so;
 * the header shows each time to the second; a swap change of nothing is "0 B". */
static void
test_cli_capture_order (void)
{
  g_autoptr(PgsSnapshot) old_s = scan_procs (old_procs, 3, "boot-a\n");
  g_autoptr(PgsSnapshot) new_s = scan_procs (new_procs, 3, "boot-a\n");
  g_autofree char *dir = g_dir_make_tmp ("pgs-compare-XXXXXX", NULL);
  g_autofree char *before = g_build_filename (dir, "before.pgsnap", NULL);
  g_autofree char *after = g_build_filename (dir, "after.pgsnap", NULL);
  g_autoptr(GFile) fb = g_file_new_for_path (before);
  g_autoptr(GFile) fa = g_file_new_for_path (after);
  g_autofree char *out = NULL, *err = NULL, *out2 = NULL, *err2 = NULL;
  g_autofree char *out3 = NULL, *err3 = NULL;
  g_autofree char *expect = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) lines = NULL;
  const char *row;

  if (g_getenv ("PAGESCOPE_CLI") == NULL)
    {
      g_test_skip ("PAGESCOPE_CLI not set");
      return;
    }
  _pgs_snapshot_set_info (old_s, "host", "6.1.0", "boot-a", "0.1.0", NULL, T_BEFORE);
  _pgs_snapshot_set_info (new_s, "host", "6.1.0", "boot-a", "0.1.0", NULL, T_AFTER);
  g_assert_true (pgs_snapshot_save (old_s, fb, NULL, &error));
  g_assert_true (pgs_snapshot_save (new_s, fa, NULL, &error));
  g_assert_no_error (error);

  /* after, before: before is OLD all the same. */
  g_assert_cmpint (run_compare (&out, &err, after, before, NULL), ==, 0);
  g_test_message ("%s%s", out, err);
  expect = g_strdup_printf ("pagescope-cli: “%s” was captured before “%s”: comparing in capture "
                            "order, “%s” as OLD\n", before, after, before);
  g_assert_cmpstr (err, ==, expect);
  lines = g_strsplit (out, "\n", -1);
  g_clear_pointer (&expect, g_free);
  expect = g_strdup_printf ("old: %s  host host, kernel 6.1.0, 2026-03-01 14:03:07 UTC", before);
  g_assert_cmpstr (lines[0], ==, expect);
  g_clear_pointer (&expect, g_free);
  expect = g_strdup_printf ("new: %s  host host, kernel 6.1.0, 2026-03-01 14:03:41 UTC", after);
  g_assert_cmpstr (lines[1], ==, expect);
  /* alpha grew by 500 pages; eps (PID 400) is new, beta (200) gone: not the other way. */
  row = strstr (out, "\n400  eps");
  g_assert_nonnull (row);
  g_assert_nonnull (strstr (row, "new"));
  row = strstr (out, "\n200  beta");
  g_assert_nonnull (row);
  g_assert_nonnull (strstr (row, "gone"));
  /* No process swapped in either: its change is "0 B", never a bare "0". */
  {
    g_auto(GStrv) words = NULL;
    const char *line = strstr (out, "\n100  alpha") + 1;
    g_autofree char *one = g_strndup (line, strchr (line, '\n') - line);

    words = g_strsplit_set (one, " ", -1);
    /* The last two words: "0" and "B" of ΔSWAP. */
    g_assert_cmpuint (g_strv_length (words), >=, 2);
    g_assert_cmpstr (words[g_strv_length (words) - 2], ==, "0");
    g_assert_cmpstr (words[g_strv_length (words) - 1], ==, "B");
  }

  /* The JSON says it too; OLD is before. */
  g_assert_cmpint (run_compare (&out2, &err2, "--json", after, before, NULL), ==, 0);
  pgs_test_assert_json (out2);
  g_assert_true (g_str_has_prefix (out2, "{\"reordered\":true,\"old_snapshot\":{\"file\":"));
  g_assert_nonnull (strstr (out2, "\"time\":\"2026-03-01T14:03:07Z\",\"privileged\":true},"
                                  "\"new_snapshot\":"));
  g_assert_nonnull (strstr (out2, "{\"pid\":400,\"name\":\"eps\",\"status\":\"new\""));

  /* In order: nothing said, not reordered. */
  g_assert_cmpint (run_compare (&out3, &err3, "--json", before, after, NULL), ==, 0);
  g_assert_cmpstr (err3, ==, "");
  g_assert_true (g_str_has_prefix (out3, "{\"reordered\":false,"));
  g_assert_nonnull (strstr (out3, "{\"pid\":400,\"name\":\"eps\",\"status\":\"new\""));

  g_unlink (before);
  g_unlink (after);
  g_rmdir (dir);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  PS = (guint64) sysconf (_SC_PAGESIZE);

  g_test_add_func ("/pgs/compare/gone-new-reused", test_gone_new_reused);
  g_test_add_func ("/pgs/compare/other-boot", test_other_boot);
  g_test_add_func ("/pgs/compare/cli-json", test_cli_json);
  g_test_add_func ("/pgs/compare/cli-capture-order", test_cli_capture_order);
  return g_test_run ();
}
