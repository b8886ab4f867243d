/* test-parse.c: the procfs text parsers on hand-written lines
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "pgs-error.h"
#include "pgs-format.h"
#include "pgs-parse.h"

static gboolean
parse (const char   *line,
       PgsMapsEntry *entry)
{
  return pgs_maps_parse_line (line, strlen (line), entry);
}

static void
test_maps_file_line (void)
{
  PgsMapsEntry e;

  g_assert_true (parse ("7f3c2a000000-7f3c2a021000 r-xp 0001c000 fd:01 1835056    /usr/lib/x86_64-linux-gnu/libc.so.6", &e));
  g_assert_cmphex (e.start, ==, 0x7f3c2a000000);
  g_assert_cmphex (e.end, ==, 0x7f3c2a021000);
  g_assert_cmpstr (e.perms, ==, "r-xp");
  g_assert_cmphex (e.offset, ==, 0x1c000);
  g_assert_cmpuint (e.dev_major, ==, 0xfd);
  g_assert_cmpuint (e.dev_minor, ==, 1);
  g_assert_cmpuint (e.inode, ==, 1835056);
  g_assert_cmpint (e.path_len, ==, strlen ("/usr/lib/x86_64-linux-gnu/libc.so.6"));
  g_assert_true (strncmp (e.path, "/usr/lib/x86_64-linux-gnu/libc.so.6", e.path_len) == 0);
}

static void
test_maps_anon_and_special (void)
{
  PgsMapsEntry e;

  g_assert_true (parse ("55d0c0a00000-55d0c0a21000 rw-p 00000000 00:00 0 ", &e));
  g_assert_cmpint (e.path_len, ==, 0);
  g_assert_true (parse ("55d0c0a00000-55d0c0a21000 rw-p 00000000 00:00 0", &e));
  g_assert_cmpint (e.path_len, ==, 0);
  g_assert_true (parse ("7ffd1a000000-7ffd1a021000 rw-p 00000000 00:00 0                          [stack]", &e));
  g_assert_true (strncmp (e.path, "[stack]", e.path_len) == 0);
  /* Paths may hold spaces and the kernel's " (deleted)" suffix. */
  g_assert_true (parse ("7f0000000000-7f0000001000 rw-s 00000000 00:01 42   /memfd:my buffer (deleted)", &e));
  g_assert_true (strncmp (e.path, "/memfd:my buffer (deleted)", e.path_len) == 0);
  g_assert_cmpstr (e.perms, ==, "rw-s");
}

static void
test_maps_malformed (void)
{
  static const char *const bad[] = {
    "",
    "garbage",
    "7f00-7f",                                        /* cut short */
    "7f00-7f10 r-xp",                                 /* cut short after perms */
    "7f00-7f10 r-xp 00000000 fd:01",                  /* no inode */
    "7f00+7f10 r-xp 00000000 fd:01 1 /x",             /* wrong separator */
    "7f10-7f00 r-xp 00000000 fd:01 1 /x",             /* end before start */
    "7f00-7f10 rzxp 00000000 fd:01 1 /x",             /* bad permission letter */
    "7f00-7f10 r-xp 0000zz00 fd:01 1 /x",             /* bad offset */
    "7f00-7f10 r-xp 00000000 fd-01 1 /x",             /* bad device */
    "7f00-7f10 r-xp 00000000 fd:01 12x /x",           /* bad inode */
    "10000000000000000-10000000000001000 r-xp 00000000 fd:01 1 /x", /* 17 hex digits */
  };
  PgsMapsEntry e;

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_test_message ("line %u: “%s”", i, bad[i]);
      g_assert_false (parse (bad[i], &e));
    }
}

static void
test_status (void)
{
  const char *text = "Name:\tfirefox\nUmask:\t0022\nState:\tS (sleeping)\nPPid:\t1234\n"
                     "Uid:\t1000\t1000\t1000\t1000\nVmSize:\t 2621440 kB\nVmRSS:\t  512000 kB\n"
                     "VmSwap:\t     128 kB\nThreads:\t80\n";
  g_autoptr(GError) error = NULL;
  PgsStatus st;

  g_assert_true (pgs_status_parse (text, strlen (text), &st, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (st.name, ==, "firefox");
  g_assert_cmpint (st.state, ==, 'S');
  g_assert_cmpint (st.ppid, ==, 1234);
  g_assert_cmpuint (st.uid, ==, 1000);
  g_assert_true (st.has_vm);
  g_assert_cmpuint (st.vm_size, ==, G_GUINT64_CONSTANT (2621440) * 1024);
  g_assert_cmpuint (st.vm_rss, ==, G_GUINT64_CONSTANT (512000) * 1024);
  g_assert_cmpuint (st.vm_swap, ==, 128 * 1024);
}

static void
test_status_kernel_thread_and_truncated (void)
{
  const char *kthread = "Name:\tkworker/0:1\nState:\tI (idle)\nPPid:\t2\nUid:\t0\t0\t0\t0\n";
  const char *truncated = "Name:\tbash\nState:\tS (sleeping)\n";
  const char *malformed = "Name:\tbash\nPPid:\tone\nUid:\t0\t0\t0\t0\n";
  g_autoptr(GError) error = NULL;
  PgsStatus st;

  g_assert_true (pgs_status_parse (kthread, strlen (kthread), &st, NULL));
  g_assert_false (st.has_vm);

  g_assert_false (pgs_status_parse (truncated, strlen (truncated), &st, &error));
  g_assert_error (error, PGS_ERROR, PGS_ERROR_TRUNCATED);
  g_clear_error (&error);

  g_assert_false (pgs_status_parse (malformed, strlen (malformed), &st, &error));
  g_assert_error (error, PGS_ERROR, PGS_ERROR_MALFORMED);
}

static void
parse_name (const char *name_field,
            char        out[64])
{
  g_autofree char *text = g_strdup_printf ("Name:\t%s\nState:\tS (sleeping)\nPPid:\t1\n"
                                           "Uid:\t0\t0\t0\t0\n", name_field);
  g_autoptr(GError) error = NULL;
  PgsStatus st;

  g_assert_true (pgs_status_parse (text, strlen (text), &st, &error));
  g_assert_no_error (error);
  memcpy (out, st.name, 64);
}

/* The kernel escapes Name: with string_escape_str (ESCAPE_SPACE | ESCAPE_SPECIAL, only
 * "\n\\"): "\" becomes "\\" and a newline "\n"; everything else is written raw. As read
 * on Linux 6.18 after prctl (PR_SET_NAME, "a\\b\nc\td e\x1b\xf0"):
 *   Name:\ta\\\\b\\nc\td e\x1b\xf0
 * Before: the backslash came out doubled, the newline as two characters, leading spaces of
 * a name were lost, and a name too long for 64 bytes was cut inside a character. */
static void
test_status_name_unescape (void)
{
  char name[64];
  g_autofree char *long_field = NULL;
  g_autofree char *exact = NULL;

  parse_name ("a\\\\b\\nc\td e\x1b\xf0", name);
  g_assert_cmpstr (name, ==, "a\\b\nc\td e\x1b\xf0");

  /* Kept as bytes, valid UTF-8 or not. */
  parse_name ("abc\xf0", name);
  g_assert_cmpstr (name, ==, "abc\xf0");
  parse_name ("caf\xc3\xa9", name);
  g_assert_cmpstr (name, ==, "caf\xc3\xa9");

  /* Only "Name:" and one tab are the field's: a name may begin with spaces or a tab. */
  parse_name ("  two", name);
  g_assert_cmpstr (name, ==, "  two");
  parse_name ("\tx", name);
  g_assert_cmpstr (name, ==, "\tx");
  parse_name ("", name);
  g_assert_cmpstr (name, ==, "");

  /* Escapes the kernel never writes stay as written; so does a trailing backslash. */
  parse_name ("a\\q\\", name);
  g_assert_cmpstr (name, ==, "a\\q\\");
  /* "\\\\n" is an escaped backslash, then n. */
  parse_name ("\\\\\\\\n", name);
  g_assert_cmpstr (name, ==, "\\\\n");

  /* 63 bytes (the kernel's most, a workqueue worker's name) fit whole. */
  exact = g_strnfill (63, 'w');
  parse_name (exact, name);
  g_assert_cmpstr (name, ==, exact);

  /* A damaged file: 62 bytes then a euro sign (3 bytes) does not fit in 63: the whole
   * character goes, not 1 byte of it. The same 62 + "\\" unescapes to 63 and fits. */
  long_field = g_strdup_printf ("%.*s\xe2\x82\xac", 62, exact);
  parse_name (long_field, name);
  g_assert_cmpuint (strlen (name), ==, 62);
  g_assert_true (strncmp (name, exact, 62) == 0);
  g_free (long_field);
  long_field = g_strdup_printf ("%.*s\\\\", 62, exact);
  parse_name (long_field, name);
  g_assert_cmpuint (strlen (name), ==, 63);
  g_assert_cmpint (name[62], ==, '\\');
}

/* /proc/PID/stat with a comm that holds ") (", spaces and a newline: the fields start after
 * the last ')'. Field 3 state, field 22 start time (the 20th after the state). */
static void
test_stat (void)
{
  const char *text = "4242 (a) (b c\nd) Z 1 4242 4242 0 -1 4194560 120 0 0 0 3 1 0 0 20 0 1 0 "
                     "987654321 0 0 18446744073709551615 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0\n";
  const char *with_size = "1 (x) S 0 1 1 0 -1 64 5 0 7 0 2 2 0 0 20 0 1 0 55 8192 2 18446744073709551615\n";
  const char *short_line = "1 (x) S 0 1 1 0 -1 64 5 0 7 0 2 2 0 0 20 0 1 0 55\n";
  const char *bad[] = { "", "4242 (x", "4242 (x) ", "4242 (x) S 1 2", "4242 x) S", "4242 (x) 1 2" };
  g_autoptr(GError) error = NULL;
  PgsStatFields st;

  g_assert_true (pgs_stat_parse (text, strlen (text), &st, &error));
  g_assert_no_error (error);
  g_assert_cmpint (st.state, ==, 'Z');
  g_assert_cmpuint (st.start_time, ==, 987654321);
  g_assert_cmpmem (st.comm, st.comm_len, "a) (b c\nd", 9);
  g_assert_cmpuint (st.flags, ==, 4194560);
  g_assert_cmpuint (st.minflt, ==, 120);
  g_assert_cmpuint (st.majflt, ==, 0);
  g_assert_cmpuint (st.utime, ==, 3);
  g_assert_cmpuint (st.stime, ==, 1);
  g_assert_cmpuint (st.vsize, ==, 0);
  g_assert_cmpuint (st.rss, ==, 0);

  /* vsize (23) and rss (24) read where present; a line ending at 22 still parses. */
  g_assert_true (pgs_stat_parse (with_size, strlen (with_size), &st, &error));
  g_assert_cmpuint (st.majflt, ==, 7);
  g_assert_cmpuint (st.vsize, ==, 8192);
  g_assert_cmpuint (st.rss, ==, 2);
  g_assert_true (pgs_stat_parse (short_line, strlen (short_line), &st, &error));
  g_assert_cmpuint (st.start_time, ==, 55);
  g_assert_cmpuint (st.vsize, ==, 0);

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_assert_false (pgs_stat_parse (bad[i], strlen (bad[i]), &st, &error));
      g_assert_error (error, PGS_ERROR, PGS_ERROR_MALFORMED);
      g_clear_error (&error);
    }
}

/* Arguments joined by spaces; the trailing NUL dropped; bytes kept. */
static void
test_cmdline (void)
{
  g_autofree char *a = pgs_cmdline_parse ("/bin/sh\0-c\0echo \\\xf0\0", 19);
  g_autofree char *b = pgs_cmdline_parse ("", 0);
  g_autofree char *c = pgs_cmdline_parse ("x\0\0\0", 4);

  g_assert_cmpstr (a, ==, "/bin/sh -c echo \\\xf0");
  g_assert_cmpstr (b, ==, "");
  g_assert_cmpstr (c, ==, "x");
}

static void
test_smaps_rollup (void)
{
  const char *text =
    "55d0c0a00000-7ffd1a021000 ---p 00000000 00:00 0                          [rollup]\n"
    "Rss:                4832 kB\nPss:                2184 kB\nPss_Dirty:           700 kB\n"
    "Pss_Anon:            600 kB\nShared_Clean:       4088 kB\nShared_Dirty:          0 kB\n"
    "Private_Clean:         4 kB\nPrivate_Dirty:       740 kB\nReferenced:         4832 kB\n"
    "Anonymous:           740 kB\nLazyFree:              0 kB\nSwap:                 12 kB\n"
    "SwapPss:               12 kB\nLocked:                0 kB\n";
  g_autoptr(GError) error = NULL;
  PgsSmapsFields f;

  g_assert_true (pgs_smaps_rollup_parse (text, strlen (text), &f, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (f.rss, ==, 4832 * 1024);
  g_assert_cmpuint (f.pss, ==, 2184 * 1024);
  g_assert_cmpuint (f.private_clean + f.private_dirty, ==, 744 * 1024);
  g_assert_cmpuint (f.swap, ==, 12 * 1024);
  g_assert_cmpuint (f.referenced, ==, 4832 * 1024);
}

static void
test_smaps_rollup_bad (void)
{
  const char *cut = "55d0c0a00000-7ffd1a021000 ---p 00000000 00:00 0 [rollup]\nRss:   4832 kB\nPss:  21";
  const char *bad = "55d0c0a00000-7ffd1a021000 ---p 00000000 00:00 0 [rollup]\nRss:   4832 MB\n";
  g_autoptr(GError) error = NULL;
  PgsSmapsFields f;

  g_assert_false (pgs_smaps_rollup_parse (cut, strlen (cut), &f, &error));
  g_assert_error (error, PGS_ERROR, PGS_ERROR_TRUNCATED);
  g_clear_error (&error);
  g_assert_false (pgs_smaps_rollup_parse (bad, strlen (bad), &f, &error));
  g_assert_error (error, PGS_ERROR, PGS_ERROR_MALFORMED);
}

static void
count_mapping (const PgsMapsEntry   *entry,
               const PgsSmapsFields *fields,
               gpointer              user_data)
{
  GArray *rss = user_data;

  g_array_append_val (rss, fields->rss);
}

static void
test_smaps_per_mapping (void)
{
  const char *text =
    "00400000-00401000 r-xp 00000000 08:01 12 /bin/true\n"
    "Size:                  4 kB\nRss:                   4 kB\nPss:                   2 kB\n"
    "VmFlags: rd ex mr mw me dw\n"
    "00600000-00700000 rw-p 00000000 00:00 0 [heap]\n"
    "Size:               1024 kB\nRss:                 40 kB\nPss:                 40 kB\n"
    "THPeligible:    0\nVmFlags: rd wr mr mw me ac\n";
  g_autoptr(GArray) rss = g_array_new (FALSE, FALSE, sizeof (guint64));

  PgsSmapsReader reader;
  PgsMapsEntry entry;
  PgsSmapsFields fields;
  g_autoptr(GError) error = NULL;

  pgs_smaps_reader_init (&reader, text, strlen (text));
  while (pgs_smaps_reader_next (&reader, &entry, &fields, &error))
    count_mapping (&entry, &fields, rss);
  g_assert_no_error (error);
  g_assert_false (pgs_smaps_reader_next (&reader, &entry, &fields, &error));
  g_assert_cmpuint (rss->len, ==, 2);
  g_assert_cmpuint (g_array_index (rss, guint64, 0), ==, 4096);
  g_assert_cmpuint (g_array_index (rss, guint64, 1), ==, 40 * 1024);
}

static void
test_format_size (void)
{
  static const struct { guint64 bytes; const char *text; } cases[] = {
    { 0, "0 B" },
    { 1023, "1023 B" },
    { 1024, "1.0 KiB" },
    { 1536, "1.5 KiB" },
    { 1048575, "1.0 MiB" },          /* 1023.999 KiB rounds up a unit, never "1024.0 KiB" */
    { 6144000, "5.9 MiB" },           /* 1500 pages of 4 KiB: 5.859 MiB */
    { G_GUINT64_CONSTANT (24) << 30, "24.0 GiB" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = pgs_format_size (cases[i].bytes);

      g_assert_cmpstr (text, ==, cases[i].text);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/pgs/parse/maps/file-line", test_maps_file_line);
  g_test_add_func ("/pgs/parse/maps/anon-and-special", test_maps_anon_and_special);
  g_test_add_func ("/pgs/parse/maps/malformed", test_maps_malformed);
  g_test_add_func ("/pgs/parse/status/fields", test_status);
  g_test_add_func ("/pgs/parse/status/kernel-thread-and-truncated", test_status_kernel_thread_and_truncated);
  g_test_add_func ("/pgs/parse/status/name-unescape", test_status_name_unescape);
  g_test_add_func ("/pgs/parse/stat", test_stat);
  g_test_add_func ("/pgs/parse/cmdline", test_cmdline);
  g_test_add_func ("/pgs/parse/smaps-rollup/fields", test_smaps_rollup);
  g_test_add_func ("/pgs/parse/smaps-rollup/bad", test_smaps_rollup_bad);
  g_test_add_func ("/pgs/parse/smaps/per-mapping", test_smaps_per_mapping);
  g_test_add_func ("/pgs/format/size", test_format_size);

  return g_test_run ();
}
