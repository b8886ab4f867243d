/* test-file-name.c: the names the app's save and export dialogs suggest
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every expectation is written out by hand from the rule in pgs-file-name.h.
 */

#include "config.h"

#include <string.h>

#include "pgs-file-name.h"

/* 2026-12-03 15:02:30 at UTC+1: the name carries the time where it was taken. */
static GDateTime *
afternoon (void)
{
  g_autoptr(GTimeZone) zone = g_time_zone_new_offset (3600);
  g_autoptr(GDateTime) utc = g_date_time_new_utc (2026, 12, 3, 14, 2, 30);

  return g_date_time_to_timezone (utc, zone);
}

static void
check (const char *subject,
       int         pid,
       const char *extension,
       const char *expected)
{
  g_autoptr(GDateTime) time = afternoon ();
  g_autofree char *name = pgs_file_name_suggest (subject, pid, time, extension);

  g_assert_cmpstr (name, ==, expected);
  g_assert_true (g_utf8_validate (name, -1, NULL));
  g_assert_null (strchr (name, '/'));
}

static void
test_process (void)
{
  check ("firefox", 12345, "png", "firefox-12345-2026-12-03-1502.png");
  check ("Web Content", 4711, "csv", "Web Content-4711-2026-12-03-1502.csv");
  check ("Ünïcødé 名前", 1, "png", "Ünïcødé 名前-1-2026-12-03-1502.png");
}

static void
test_no_process (void)
{
  check ("physical-memory", 0, "png", "physical-memory-2026-12-03-1502.png");
  check ("processes", 0, "csv", "processes-2026-12-03-1502.csv");
  check (NULL, 0, "pgsnap", "pagescope-2026-12-03-1502.pgsnap");
  check ("", 0, "png", "pagescope-2026-12-03-1502.png");
  check ("   ", 42, "png", "pagescope-42-2026-12-03-1502.png");
}

static void
test_hostile (void)
{
  /* A path, a newline, a terminal escape, a right-to-left override, a byte that is not
   * UTF-8: "../../etc/passwd\n ESC [31m RLO evil \xff". Each '/', control, format and
   * invalid character becomes '_' (".._.._etc_passwd__[31m_evil_"), then the leading
   * dots do, so the file is not hidden. */
  check ("../../etc/passwd\n\x1b[31m\xe2\x80\xae" "evil\xff", 7, "csv",
         "___.._etc_passwd__[31m_evil_-7-2026-12-03-1502.csv");
  /* Tabs and a DEL; blanks at the ends go. */
  check ("  a\tb\x7f  ", 3, "png", "a_b_-3-2026-12-03-1502.png");
  check (".hidden", 9, "png", "_hidden-9-2026-12-03-1502.png");
  check ("///", 9, "png", "___-9-2026-12-03-1502.png");
}

static void
test_long (void)
{
  g_autofree char *name = g_strnfill (100, 'x');
  g_autofree char *kept = g_strnfill (64, 'x');
  g_autofree char *expected = g_strdup_printf ("%s-5-2026-12-03-1502.png", kept);

  check (name, 5, "png", expected);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/app/file-name/process", test_process);
  g_test_add_func ("/app/file-name/no-process", test_no_process);
  g_test_add_func ("/app/file-name/hostile", test_hostile);
  g_test_add_func ("/app/file-name/long", test_long);
  return g_test_run ();
}
