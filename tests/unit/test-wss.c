/* test-wss.c: working-set estimation on fixture trees
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The fixture's clear_refs is a plain file, so what PgsWss wrote to it is read back: "1",
 * "2", "3", and "4" before those when soft-dirty is in use. smaps is hand-written; the
 * "kernel" between clearing and collecting is the test editing the files.
 *
 * Process 100, "worker": see wss-fixture.h. The per-page sources and the asynchronous
 * measurement are in test-wss-sampling.c.
 */

#include "config.h"

#include <errno.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include <pagescope.h>

#include "pgs-fixture.h"
#include "pgs-test-json.h"
#include "pgs-parse.h"
#include "wss-fixture.h"

static PgsWssSample *
sample_now (PgsWss  *wss,
            GError **error)
{
  if (!pgs_wss_clear (wss, error))
    return NULL;
  return pgs_wss_collect (wss, error);
}

static void
assert_mapping (const PgsWssMapping *m,
                guint64              start,
                guint64              end,
                const char          *path,
                gboolean             anonymous,
                guint64              rss_kb,
                guint64              referenced_kb)
{
  g_test_message ("mapping %" G_GINT64_MODIFIER "x %s", m->start, m->path);
  g_assert_cmphex (m->start, ==, start);
  g_assert_cmphex (m->end, ==, end);
  g_assert_cmpstr (m->path, ==, path);
  g_assert_cmpint (m->anonymous, ==, anonymous);
  g_assert_cmpuint (m->rss, ==, rss_kb * KB);
  g_assert_cmpuint (m->referenced, ==, referenced_kb * KB);
}

static void
test_smaps_all (void)
{
  g_autoptr(PgsFixture) fx = build_worker ();
  g_autoptr(PgsWss) wss = wss_for (fx, 100, PGS_WSS_SCOPE_ALL);
  g_autoptr(PgsWssSample) sample = NULL;
  g_autoptr(GError) error = NULL;
  guint64 bytes = 1, known = 1;

  sample = sample_now (wss, &error);
  g_assert_no_error (error);
  assert_fixture_file (fx, "100/clear_refs", "1");
  g_assert_cmpstr (pgs_wss_get_name (wss), ==, "worker");

  g_assert_cmpuint (pgs_wss_sample_get_n_mappings (sample), ==, 6);
  assert_mapping (pgs_wss_sample_get_mapping (sample, 0), 0x400000, 0x401000, "/usr/bin/worker", FALSE, 4, 4);
  assert_mapping (pgs_wss_sample_get_mapping (sample, 1), 0x1000000, 0x1100000, "[heap]", TRUE, 800, 300);
  assert_mapping (pgs_wss_sample_get_mapping (sample, 2), 0x7f0000000000, 0x7f0000200000, "/usr/lib/libc.so.6", FALSE, 1200, 1000);
  assert_mapping (pgs_wss_sample_get_mapping (sample, 3), 0x7f0000400000, 0x7f0000800000, "/dev/zero (deleted)", FALSE, 2048, 512);
  assert_mapping (pgs_wss_sample_get_mapping (sample, 4), 0x7f0001000000, 0x7f0001400000, "", TRUE, 0, 0);
  assert_mapping (pgs_wss_sample_get_mapping (sample, 5), 0x7ffc00000000, 0x7ffc00021000, "[stack]", TRUE, 16, 8);
  g_assert_cmpuint (pgs_wss_sample_get_rss (sample), ==, 4068 * KB);
  g_assert_cmpuint (pgs_wss_sample_get_referenced (sample), ==, 1824 * KB);
  g_assert_cmpint (pgs_wss_sample_get_scope (sample), ==, PGS_WSS_SCOPE_ALL);
  g_assert_cmpint (pgs_wss_sample_get_pid (sample), ==, 100);

  g_assert_true (pgs_wss_sample_lookup_mapping (sample, 0x1000000 + 5000) == pgs_wss_sample_get_mapping (sample, 1));
  g_assert_true (pgs_wss_sample_lookup_mapping (sample, 0x7ffc00020fff) == pgs_wss_sample_get_mapping (sample, 5));
  g_assert_null (pgs_wss_sample_lookup_mapping (sample, 0x401000));
  g_assert_null (pgs_wss_sample_lookup_mapping (sample, 0x3fffff));

  /* A fixture is not the live kernel: no per-page view, and said so, not shown as empty. */
  g_assert_cmpint (pgs_wss_sample_get_page_sources (sample), ==, PGS_WSS_PAGES_NONE);
  g_assert_false (pgs_wss_sample_get_accessed (sample, &bytes, &known));
  g_assert_false (pgs_wss_sample_get_written (sample, &bytes, &known));
  g_assert_cmpuint (bytes, ==, 1);
  g_assert_nonnull (strstr (pgs_wss_sample_get_page_source_reason (sample, PGS_WSS_PAGES_IDLE),
                            pgs_fixture_get_root (fx)));
  g_assert_nonnull (strstr (pgs_wss_sample_get_page_source_reason (sample, PGS_WSS_PAGES_SOFT_DIRTY),
                            "live kernel"));
  g_assert_cmpint (pgs_wss_sample_lookup_page (sample, 0x1000000), ==, PGS_WSS_PAGE_UNKNOWN);

  /* A second sample writes the code again. */
  g_clear_pointer (&sample, pgs_wss_sample_unref);
  sample = sample_now (wss, &error);
  g_assert_no_error (error);
  assert_fixture_file (fx, "100/clear_refs", "11");
}

static void
test_smaps_anon (void)
{
  g_autoptr(PgsFixture) fx = build_worker ();
  g_autoptr(PgsWss) wss = wss_for (fx, 100, PGS_WSS_SCOPE_ANON);
  g_autoptr(PgsWssSample) sample = NULL;
  g_autoptr(GError) error = NULL;

  sample = sample_now (wss, &error);
  g_assert_no_error (error);
  assert_fixture_file (fx, "100/clear_refs", "2");
  g_assert_cmpuint (pgs_wss_sample_get_n_mappings (sample), ==, 3);
  assert_mapping (pgs_wss_sample_get_mapping (sample, 0), 0x1000000, 0x1100000, "[heap]", TRUE, 800, 300);
  assert_mapping (pgs_wss_sample_get_mapping (sample, 1), 0x7f0001000000, 0x7f0001400000, "", TRUE, 0, 0);
  assert_mapping (pgs_wss_sample_get_mapping (sample, 2), 0x7ffc00000000, 0x7ffc00021000, "[stack]", TRUE, 16, 8);
  g_assert_cmpuint (pgs_wss_sample_get_rss (sample), ==, 816 * KB);
  g_assert_cmpuint (pgs_wss_sample_get_referenced (sample), ==, 308 * KB);
  g_assert_cmpint (pgs_wss_sample_get_scope (sample), ==, PGS_WSS_SCOPE_ANON);
}

static void
test_smaps_file (void)
{
  g_autoptr(PgsFixture) fx = build_worker ();
  g_autoptr(PgsWss) wss = wss_for (fx, 100, PGS_WSS_SCOPE_FILE);
  g_autoptr(PgsWssSample) sample = NULL;
  g_autoptr(GError) error = NULL;

  sample = sample_now (wss, &error);
  g_assert_no_error (error);
  assert_fixture_file (fx, "100/clear_refs", "3");
  g_assert_cmpuint (pgs_wss_sample_get_n_mappings (sample), ==, 3);
  assert_mapping (pgs_wss_sample_get_mapping (sample, 0), 0x400000, 0x401000, "/usr/bin/worker", FALSE, 4, 4);
  assert_mapping (pgs_wss_sample_get_mapping (sample, 1), 0x7f0000000000, 0x7f0000200000, "/usr/lib/libc.so.6", FALSE, 1200, 1000);
  /* Shared anonymous memory is a shmem file to the kernel: clear_refs 3 clears it. */
  assert_mapping (pgs_wss_sample_get_mapping (sample, 2), 0x7f0000400000, 0x7f0000800000, "/dev/zero (deleted)", FALSE, 2048, 512);
  g_assert_cmpuint (pgs_wss_sample_get_rss (sample), ==, 3252 * KB);
  g_assert_cmpuint (pgs_wss_sample_get_referenced (sample), ==, 1516 * KB);
}

/* The scope read back is the one cleared, even if the object's scope changed in between. */
static void
test_scope_of_the_clear (void)
{
  g_autoptr(PgsFixture) fx = build_worker ();
  g_autoptr(PgsWss) wss = wss_for (fx, 100, PGS_WSS_SCOPE_ANON);
  g_autoptr(PgsWssSample) sample = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_true (pgs_wss_clear (wss, &error));
  g_assert_no_error (error);
  pgs_wss_set_scope (wss, PGS_WSS_SCOPE_FILE);
  sample = pgs_wss_collect (wss, &error);
  g_assert_no_error (error);
  g_assert_cmpint (pgs_wss_sample_get_scope (sample), ==, PGS_WSS_SCOPE_ANON);
  g_assert_cmpuint (pgs_wss_sample_get_referenced (sample), ==, 308 * KB);
}

/* Each bad smaps is found before anything is cleared. */
static void
test_smaps_malformed (void)
{
  static const struct {
    const char *smaps;
    int         code;
    const char *in_message;
  } cases[] = {
    { "00400000-00401000 r-xp 00000000 08:01 1234 /x\nRss:  4 kB\nReferenced:  4 MB\n",
      PGS_ERROR_MALFORMED, "line 3" },
    { "00400000-00401000 r-xp 00000000 08:01 1234 /x\nRss:  four kB\nReferenced:  4 kB\n",
      PGS_ERROR_MALFORMED, "line 2" },
    { "Rss:  4 kB\n00400000-00401000 r-xp 00000000 08:01 1234 /x\n",
      PGS_ERROR_MALFORMED, "line 1" },
    { "00400000-00401000 r-xp 00000000 08:01 1234 /x\nRss:  4 kB\n"
      "00500000-00501000 rw-p 00000000 00:00 0\nRss:  4 kB\nReferenced:  4 kB\n",
      PGS_ERROR_MALFORMED, "no Referenced line for the mapping at 0x400000" },
    { "00400000-00401000 r-xp 00000000 08:01 1234 /x\nReferenced:  4 kB\n",
      PGS_ERROR_MALFORMED, "no Rss line" },
    { "00400000-00401000 r-xp 00000000 08:01 1234 /x\nRss:  4 kB\nReferenced:  4 k",
      PGS_ERROR_TRUNCATED, "cut short" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(PgsFixture) fx = build_worker ();
      g_autoptr(PgsWss) wss = wss_for (fx, 100, PGS_WSS_SCOPE_ALL);
      g_autoptr(GError) error = NULL;

      g_test_message ("case %u", i);
      pgs_fixture_write (fx, "100/smaps", cases[i].smaps, -1);
      g_assert_false (pgs_wss_clear (wss, &error));
      g_assert_error (error, PGS_ERROR, cases[i].code);
      g_assert_nonnull (strstr (error->message, cases[i].in_message));
      g_assert_nonnull (strstr (error->message, "PID 100"));
      assert_fixture_file (fx, "100/clear_refs", "");
    }
}

/* A smaps that goes bad after the clearing (it cannot be undone) fails the collect only. */
static void
test_smaps_malformed_at_collect (void)
{
  g_autoptr(PgsFixture) fx = build_worker ();
  g_autoptr(PgsWss) wss = wss_for (fx, 100, PGS_WSS_SCOPE_ALL);
  g_autoptr(PgsWssSample) sample = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_true (pgs_wss_clear (wss, &error));
  pgs_fixture_write (fx, "100/smaps",
                     "00400000-00401000 r-xp 00000000 08:01 1234 /x\nRss:  4 kB\nReferenced: -4 kB\n", -1);
  sample = pgs_wss_collect (wss, &error);
  g_assert_error (error, PGS_ERROR, PGS_ERROR_MALFORMED);
  g_assert_null (sample);
}

static void
assert_refused (PgsFixture *fx,
                int         pid,
                int         code,
                const char *in_message)
{
  g_autoptr(PgsWss) wss = wss_for (fx, pid, PGS_WSS_SCOPE_ALL);
  g_autoptr(GError) error = NULL;

  g_assert_false (pgs_wss_clear (wss, &error));
  g_assert_error (error, PGS_ERROR, code);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, in_message));
  g_assert_null (strchr (error->message, '\n'));
}

static void
test_refused (void)
{
  g_autoptr(PgsFixture) fx = build_worker ();

  /* Kernel thread, before Linux 6.8: no Kthread line, no Vm lines. */
  pgs_fixture_add_process (fx, 2, "kthreadd", 0, TRUE);
  pgs_fixture_write (fx, "2/clear_refs", "", 0);
  pgs_fixture_write (fx, "2/smaps", "", 0);
  assert_refused (fx, 2, PGS_ERROR_KERNEL_THREAD, "PID 2 (kthreadd) is a kernel thread");
  assert_fixture_file (fx, "2/clear_refs", "");

  /* Since 6.8, status says so. */
  pgs_fixture_add_process (fx, 3, "pool_workqueue_release", 0, TRUE);
  pgs_fixture_write (fx, "3/status", "Name:\tpool_workqueue_release\nState:\tI (idle)\nTgid:\t3\n"
                     "PPid:\t2\nUid:\t0\t0\t0\t0\nKthread:\t1\n", -1);
  pgs_fixture_write (fx, "3/clear_refs", "", 0);
  pgs_fixture_write (fx, "3/smaps", "", 0);
  assert_refused (fx, 3, PGS_ERROR_KERNEL_THREAD, "kernel thread");
  assert_fixture_file (fx, "3/clear_refs", "");

  /* A zombie has no Vm lines either, but is not a kernel thread. */
  pgs_fixture_add_process (fx, 300, "defunct", 0, TRUE);
  pgs_fixture_write (fx, "300/status", "Name:\tdefunct\nState:\tZ (zombie)\nTgid:\t300\n"
                     "PPid:\t1\nUid:\t0\t0\t0\t0\nKthread:\t0\n", -1);
  pgs_fixture_write (fx, "300/clear_refs", "", 0);
  pgs_fixture_write (fx, "300/smaps", "", 0);
  assert_refused (fx, 300, PGS_ERROR_PROCESS_GONE, "PID 300 (defunct) has exited");
  assert_fixture_file (fx, "300/clear_refs", "");

  /* An mm that is gone between status and smaps: empty smaps, state still S. */
  pgs_fixture_add_process (fx, 400, "exiting", 0, FALSE);
  pgs_fixture_write (fx, "400/clear_refs", "", 0);
  pgs_fixture_write (fx, "400/smaps", "", 0);
  assert_refused (fx, 400, PGS_ERROR_KERNEL_THREAD, "no user memory");
  assert_fixture_file (fx, "400/clear_refs", "");

  assert_refused (fx, 999, PGS_ERROR_NO_SUCH_PROCESS, "no process with PID 999");

  /* No clear_refs at all: the process went away under us. */
  pgs_fixture_add_process (fx, 500, "vanishing", 0, FALSE);
  pgs_fixture_write (fx, "500/smaps", WORKER_SMAPS, -1);
  assert_refused (fx, 500, PGS_ERROR_PROCESS_GONE, "PID 500 (vanishing) exited");
}

/* Root may write any file, so only a normal user sees the fixture refuse; the kernel suite
 * runs the CLI as nobody against a root process for the real thing. */
static void
test_no_permission (void)
{
  g_autoptr(PgsFixture) fx = build_worker ();
  g_autofree char *path = g_build_filename (pgs_fixture_get_root (fx), "100/clear_refs", NULL);

  if (geteuid () == 0)
    {
      g_test_skip ("root writes a read-only file anyway");
      return;
    }
  g_assert_cmpint (g_chmod (path, 0444), ==, 0);
  assert_refused (fx, 100, PGS_ERROR_NO_PERMISSION, "cannot clear its referenced bits");
  assert_fixture_file (fx, "100/clear_refs", "");
}

static void
remove_tree (const char *path)
{
  GDir *dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      g_assert_cmpint (g_unlink (child), ==, 0);
    }
  if (dir != NULL)
    g_dir_close (dir);
  g_assert_cmpint (g_rmdir (path), ==, 0);
}

static void
test_gone_during_interval (void)
{
  g_autoptr(PgsFixture) fx = build_worker ();
  g_autoptr(PgsWss) wss = wss_for (fx, 100, PGS_WSS_SCOPE_ALL);
  g_autoptr(PgsWss) zombie = NULL;
  g_autoptr(PgsWssSample) sample = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_build_filename (pgs_fixture_get_root (fx), "100", NULL);

  /* Reaped: the directory is gone. */
  g_assert_true (pgs_wss_clear (wss, &error));
  remove_tree (dir);
  sample = pgs_wss_collect (wss, &error);
  g_assert_null (sample);
  g_assert_error (error, PGS_ERROR, PGS_ERROR_PROCESS_GONE);
  g_assert_cmpstr (error->message, ==, "PID 100 (worker) exited during the interval");
  g_clear_error (&error);

  /* Not reaped yet: a zombie's smaps reads empty. */
  pgs_fixture_add_process (fx, 200, "worker2", 0, FALSE);
  pgs_fixture_write (fx, "200/smaps", WORKER_SMAPS, -1);
  pgs_fixture_write (fx, "200/clear_refs", "", 0);
  zombie = wss_for (fx, 200, PGS_WSS_SCOPE_ALL);
  g_assert_true (pgs_wss_clear (zombie, &error));
  pgs_fixture_write (fx, "200/smaps", "", 0);
  sample = pgs_wss_collect (zombie, &error);
  g_assert_null (sample);
  g_assert_error (error, PGS_ERROR, PGS_ERROR_PROCESS_GONE);
  g_assert_cmpstr (error->message, ==, "PID 200 (worker2) exited during the interval");
}

static void
test_status_kthread (void)
{
  static const char base[] = "Name:\tx\nState:\tS (sleeping)\nPPid:\t1\nUid:\t0\t0\t0\t0\n";
  g_autofree char *with_0 = g_strconcat (base, "Kthread:\t0\nVmSize:\t 4 kB\n", NULL);
  g_autofree char *with_1 = g_strconcat (base, "Kthread:\t1\n", NULL);
  g_autofree char *bad = g_strconcat (base, "Kthread:\t2\n", NULL);
  g_autoptr(GError) error = NULL;
  PgsStatus status;

  g_assert_true (pgs_status_parse (base, strlen (base), &status, &error));
  g_assert_cmpint (status.kthread, ==, -1);
  g_assert_true (pgs_status_parse (with_0, strlen (with_0), &status, &error));
  g_assert_cmpint (status.kthread, ==, 0);
  g_assert_true (status.has_vm);
  g_assert_true (pgs_status_parse (with_1, strlen (with_1), &status, &error));
  g_assert_cmpint (status.kthread, ==, 1);
  g_assert_no_error (error);
  g_assert_false (pgs_status_parse (bad, strlen (bad), &status, &error));
  g_assert_error (error, PGS_ERROR, PGS_ERROR_MALFORMED);
}

static gboolean
run_python_json_check (const char *json,
                       const char *script)
{
  g_autofree char *python = g_find_program_in_path ("python3");
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;
  int status = 0;
  int fd;

  pgs_test_assert_json (json);
  if (python == NULL)
    return TRUE;
  fd = g_file_open_tmp ("pagescope-wss-XXXXXX.json", &path, &error);
  g_assert_no_error (error);
  close (fd);
  g_file_set_contents (path, json, -1, &error);
  g_assert_no_error (error);
  {
    const char *argv[] = { python, "-c", script, path, NULL };

    g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL, NULL, &status, &error);
  }
  g_assert_no_error (error);
  g_unlink (path);
  return g_spawn_check_wait_status (status, NULL);
}

static void
test_json (void)
{
  g_autoptr(PgsFixture) fx = build_worker ();
  g_autoptr(PgsWss) wss = wss_for (fx, 100, PGS_WSS_SCOPE_FILE);
  g_autoptr(GPtrArray) samples = g_ptr_array_new_with_free_func ((GDestroyNotify) pgs_wss_sample_unref);
  g_autoptr(GString) out = g_string_new (NULL);
  g_autoptr(GString) partial = g_string_new (NULL);
  g_autoptr(GError) error = NULL;

  for (guint i = 0; i < 2; i++)
    {
      g_ptr_array_add (samples, sample_now (wss, &error));
      g_assert_no_error (error);
    }
  pgs_wss_samples_to_json (out, "worker", 1.5, samples, 2, NULL);
  g_test_message ("%s", out->str);

  g_assert_true (g_str_has_prefix (out->str, "{\"pid\":100,\"name\":\"worker\",\"scope\":\"file\",\"clear_refs\":3,"
                                              "\"interval\":1.500,\"page_size\":"));
  g_assert_nonnull (strstr (out->str, "\"basis\":\"smaps_referenced\",\"per_page\":{\"idle_tracking\":{\"available\":false,\"reason\":\""));
  g_assert_nonnull (strstr (out->str, "\"samples_requested\":2,\"complete\":true,\"error\":null,"));
  /* 3252 kB = 3330048, 1516 kB = 1552384 */
  g_assert_nonnull (strstr (out->str, "\"rss\":3330048,\"referenced\":1552384,\"accessed\":null,"
                                      "\"accessed_known\":null,\"written\":null,\"written_known\":null,"));
  g_assert_nonnull (strstr (out->str, "{\"start\":\"0x7f0000400000\",\"end\":\"0x7f0000800000\",\"perms\":\"rw-s\","
                                      "\"offset\":0,\"path\":\"/dev/zero (deleted)\",\"anonymous\":false,"
                                      "\"rss\":2097152,\"referenced\":524288,\"accessed\":null,"));
  g_assert_nonnull (strstr (out->str, "{\"index\":2,"));
  g_assert_true (run_python_json_check (out->str,
    "import json,sys\n"
    "d = json.load(open(sys.argv[1]))\n"
    "assert len(d['samples']) == 2\n"
    "for s in d['samples']:\n"
    "  assert s['rss'] == sum(m['rss'] for m in s['mappings']) == 3252 * 1024\n"
    "  assert s['referenced'] == sum(m['referenced'] for m in s['mappings']) == 1516 * 1024\n"
    "  assert all(not m['anonymous'] for m in s['mappings'])\n"));

  g_ptr_array_set_size (samples, 1);
  pgs_wss_samples_to_json (partial, "worker", 1.5, samples, 5, "PID 100 (worker) exited during the interval");
  g_assert_nonnull (strstr (partial->str, "\"samples_requested\":5,\"complete\":false,"
                                          "\"error\":\"PID 100 (worker) exited during the interval\","));
  g_assert_true (run_python_json_check (partial->str,
    "import json,sys\n"
    "d = json.load(open(sys.argv[1]))\n"
    "assert len(d['samples']) == 1 and d['complete'] is False\n"));
}

static int
run_cli (PgsFixture  *fx,
         char       **out,
         char       **err,
         ...)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  gboolean is_json = FALSE;
  const char *arg;
  int status = 0;
  va_list args;

  g_ptr_array_add (argv, (char *) g_getenv ("PAGESCOPE_CLI"));
  g_ptr_array_add (argv, (char *) "wss");
  g_ptr_array_add (argv, (char *) "--procfs");
  g_ptr_array_add (argv, (char *) pgs_fixture_get_root (fx));
  va_start (args, err);
  while ((arg = va_arg (args, const char *)) != NULL)
    {
      g_ptr_array_add (argv, (char *) arg);
      is_json |= strcmp (arg, "--json") == 0;
    }
  va_end (args);
  g_ptr_array_add (argv, NULL);

  g_spawn_sync (NULL, (char **) argv->pdata, (char *[]) { (char *) "LC_ALL=C", NULL },
                G_SPAWN_DEFAULT, NULL, NULL, out, err, &status, &error);
  g_assert_no_error (error);
  g_assert_true (WIFEXITED (status));
  if (is_json && out != NULL && **out != '\0')
    pgs_test_assert_json (*out);
  return WEXITSTATUS (status);
}

/* The whitespace-separated words of the first line of @text that holds @needle. */
static GStrv
line_words (const char *text,
            const char *needle)
{
  const char *hit = strstr (text, needle);
  const char *start, *end;
  g_autofree char *line = NULL;

  g_assert_nonnull (hit);
  for (start = hit; start > text && start[-1] != '\n'; start--)
    ;
  end = strchr (hit, '\n');
  line = g_strndup (start, end ? (gsize) (end - start) : strlen (start));
  return g_regex_split_simple ("\\s+", g_strstrip (line), 0, 0);
}

static guint
count_lines (const char *text)
{
  guint n = 0;

  for (const char *p = text; *p; p++)
    n += *p == '\n';
  return n;
}

static void
test_cli (void)
{
  g_autoptr(PgsFixture) fx = build_worker ();
  g_autofree char *out = NULL, *err = NULL;

  pgs_fixture_add_process (fx, 2, "kthreadd", 0, TRUE);
  pgs_fixture_write (fx, "2/clear_refs", "", 0);

  g_assert_cmpint (run_cli (fx, &out, &err, "--interval", "0.01", "--count", "2", "100", NULL), ==, 0);
  g_test_message ("%s%s", out, err);
  g_assert_cmpuint (count_lines (err), ==, 1);
  g_assert_nonnull (strstr (err, "warning: clearing the referenced bits of PID 100 (worker)"));
  g_assert_nonnull (strstr (err, "reclaim"));
  g_assert_true (g_str_has_prefix (out, "PID 100 (worker): working set of all mappings (clear_refs 1), 2 samples"));
  g_assert_nonnull (strstr (out, "Rests on: smaps “Referenced”, per mapping"));
  g_assert_nonnull (strstr (out, "Per page: unavailable"));
  /* 1824 KiB of 4068 KiB: 1.8 MiB of 4.0 MiB, 44.8% */
  g_assert_nonnull (strstr (out, "Sample 1 of 2, after "));
  g_assert_nonnull (strstr (out, ": 1.8 MiB referenced of 4.0 MiB resident (44.8%)\n"));
  g_assert_nonnull (strstr (out, "Sample 2 of 2, after "));
  {
    /* libc's row: 1000 kB referenced of 1200 kB, 83.3%. */
    g_auto(GStrv) words = line_words (out, "/usr/lib/libc.so.6");

    g_assert_cmpuint (g_strv_length (words), ==, 8);
    g_assert_cmpstr (words[0], ==, "7f0000000000-7f0000200000");
    g_assert_cmpstr (words[1], ==, "r-xp");
    g_assert_cmpstr (words[2], ==, "1000.0");
    g_assert_cmpstr (words[3], ==, "KiB");
    g_assert_cmpstr (words[4], ==, "1.2");
    g_assert_cmpstr (words[5], ==, "MiB");
    g_assert_cmpstr (words[6], ==, "83.3%");
  }
  g_assert_nonnull (strstr (out, "(1 mapping in scope with nothing resident is not listed)"));
  g_assert_nonnull (strstr (out, "Working set over time:"));
  /* No per-page columns where there is no per-page source. */
  g_assert_null (strstr (out, "ACCESSED"));
  g_assert_null (strstr (out, "WRITTEN"));
  assert_fixture_file (fx, "100/clear_refs", "11");
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  g_assert_cmpint (run_cli (fx, &out, &err, "--interval", "0.01", "--anon", "--json", "100", NULL), ==, 0);
  g_assert_nonnull (strstr (out, "\"scope\":\"anon\",\"clear_refs\":2,"));
  g_assert_nonnull (strstr (out, "\"rss\":835584,\"referenced\":315392,"));  /* 816, 308 kB */
  g_assert_true (run_python_json_check (out, "import json,sys; json.load(open(sys.argv[1]))"));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  /* Refusals: one line on stderr, nothing on stdout, nothing written to clear_refs. */
  g_assert_cmpint (run_cli (fx, &out, &err, "--interval", "0.01", "2", NULL), ==, 3);
  g_assert_cmpstr (out, ==, "");
  g_assert_cmpstr (err, ==, "pagescope-cli: PID 2 (kthreadd) is a kernel thread: it has no user memory, so no working set\n");
  assert_fixture_file (fx, "2/clear_refs", "");
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  g_assert_cmpint (run_cli (fx, &out, &err, "--json", "4242", NULL), ==, 3);
  g_assert_cmpstr (out, ==, "");
  g_assert_cmpstr (err, ==, "pagescope-cli: no process with PID 4242\n");
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  /* Usage errors: exit 2, before anything is read. */
  g_assert_cmpint (run_cli (fx, &out, &err, "--anon", "--file", "100", NULL), ==, 2);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run_cli (fx, &out, &err, "--csv", "100", NULL), ==, 2);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run_cli (fx, &out, &err, "--interval", "0", "100", NULL), ==, 2);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run_cli (fx, &out, &err, "--count", "0", "100", NULL), ==, 2);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run_cli (fx, &out, &err, "100", "200", NULL), ==, 2);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run_cli (fx, &out, &err, "self", NULL), ==, 2);
  /* Each run writes from offset 0 of the (fixture) file: the anon run's "2" over "11". */
  assert_fixture_file (fx, "100/clear_refs", "21");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/pgs/wss/smaps/all", test_smaps_all);
  g_test_add_func ("/pgs/wss/smaps/anon", test_smaps_anon);
  g_test_add_func ("/pgs/wss/smaps/file", test_smaps_file);
  g_test_add_func ("/pgs/wss/smaps/scope-of-the-clear", test_scope_of_the_clear);
  g_test_add_func ("/pgs/wss/smaps/malformed", test_smaps_malformed);
  g_test_add_func ("/pgs/wss/smaps/malformed-at-collect", test_smaps_malformed_at_collect);
  g_test_add_func ("/pgs/wss/refused", test_refused);
  g_test_add_func ("/pgs/wss/no-permission", test_no_permission);
  g_test_add_func ("/pgs/wss/gone-during-interval", test_gone_during_interval);
  g_test_add_func ("/pgs/wss/status-kthread", test_status_kthread);
  g_test_add_func ("/pgs/wss/json", test_json);
  g_test_add_func ("/pgs/wss/cli", test_cli);

  return g_test_run ();
}
