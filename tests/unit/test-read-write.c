/* test-read-write.c: reading procfs records whole, and writing JSON without printf
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <fcntl.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "pgs-procfs.h"
#include "pgs-report.h"

/* A record longer than the first buffer (4 KiB) fills it: the reader must go on. */
static void
test_record_longer_than_buffer (void)
{
  g_autofree char *dir = g_dir_make_tmp ("pgs-record-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "status", NULL);
  g_autofree char *text = NULL;
  g_autofree char *read = NULL;
  gsize len = 0;
  int dirfd;

  text = g_malloc (10001);
  for (guint i = 0; i < 10000; i++)
    text[i] = i % 61 == 60 ? '\n' : 'a' + i % 26;
  text[10000] = '\0';
  g_assert_true (g_file_set_contents (path, text, 10000, NULL));

  dirfd = open (dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  g_assert_cmpint (dirfd, >=, 0);
  read = pgs_read_record_at (dirfd, "status", &len, NULL);
  close (dirfd);
  g_assert_nonnull (read);
  g_assert_cmpuint (len, ==, 10000);
  g_assert_cmpmem (read, len, text, 10000);
  g_assert_cmpint (read[len], ==, '\0');

  g_unlink (path);
  g_rmdir (dir);
}

/* The kernel's own: status ends with its last line, cmdline with this program's argv. */
static void
test_record_procfs (gconstpointer argv0)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *status = NULL, *cmdline = NULL;
  gsize len = 0;
  int dirfd = open ("/proc/self", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

  g_assert_cmpint (dirfd, >=, 0);
  status = pgs_read_record_at (dirfd, "status", &len, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (len, ==, strlen (status));
  g_assert_true (g_str_has_prefix (status, "Name:\t"));
  /* The last line the kernel writes (fs/proc/array.c, task_context_switch_counts). */
  g_assert_nonnull (strstr (status, "\nnonvoluntary_ctxt_switches:"));
  g_assert_cmpint (status[len - 1], ==, '\n');

  cmdline = pgs_read_record_at (dirfd, "cmdline", &len, &error);
  g_assert_no_error (error);
  close (dirfd);
  g_assert_cmpstr (cmdline, ==, argv0);
  g_assert_cmpuint (len, >, strlen (argv0));   /* its NUL, and any arguments after */
}

static void
test_missing_record (void)
{
  g_autoptr(GError) error = NULL;
  int dirfd = open ("/proc/self", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

  g_assert_null (pgs_read_record_at (dirfd, "no-such-file", NULL, &error));
  g_assert_nonnull (error);
  close (dirfd);
}

static void
test_json_uint (void)
{
  static const struct { guint64 value; const char *text; } cases[] = {
    { 0, "0" }, { 9, "9" }, { 10, "10" }, { 4096, "4096" },
    { G_GUINT64_CONSTANT (1000000000000), "1000000000000" },
    { G_MAXUINT64, "18446744073709551615" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GString) out = g_string_new ("[");

      pgs_json_append_uint (out, cases[i].value);
      g_assert_cmpstr (out->str + 1, ==, cases[i].text);
    }
}

/* Runs of plain text between the characters that need an escape, at either end too. */
static void
test_json_string_runs (void)
{
  static const struct { const char *in, *out; } cases[] = {
    { "", "\"\"" },
    { "plain", "\"plain\"" },
    { "\"", "\"\\\"\"" },
    { "a\"b\\c", "\"a\\\"b\\\\c\"" },
    { "\001x\037", "\"\\u0001x\\u001f\"" },
    { "tab\there\r\n", "\"tab\\there\\r\\n\"" },
    { "del\177", "\"del\\u007f\"" },
    /* U+0085 (C1) escaped; U+00E9 (C3 A9) and U+00A0 (C2 A0) kept. */
    { "n\302\205l", "\"n\\u0085l\"" },
    { "\303\251t\302\240\302", "\"\303\251t\302\240\357\277\275\"" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GString) out = g_string_new (NULL);

      pgs_json_append_string (out, cases[i].in);
      g_assert_cmpstr (out->str, ==, cases[i].out);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/pgs/procfs/record/longer-than-buffer", test_record_longer_than_buffer);
  g_test_add_data_func ("/pgs/procfs/record/status-and-cmdline", argv[0], test_record_procfs);
  g_test_add_func ("/pgs/procfs/record/missing", test_missing_record);
  g_test_add_func ("/pgs/json/uint", test_json_uint);
  g_test_add_func ("/pgs/json/string-runs", test_json_string_runs);
  return g_test_run ();
}
