/* test-timeline-csv.c: the timeline's figures as CSV
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Issue 18: the strip's menu exports its series as CSV (pgs_timeline_data_to_csv). A
 * fixture series of three samples, written out by hand below: a whole sample, one whose
 * kernel counters and PSS are absent (empty cells, never 0), and one whose time has a
 * fraction of a second. The process name is hostile: a spreadsheet formula with quotes and
 * a comma, then a terminal escape. By pgs-escape.h's rules it becomes: the ESC byte a "?"
 * (a control character), a "'" before the leading "=" (a formula stays text); then, as RFC
 * 4180 says for a field holding a comma or quotes, the field quoted with its quotes
 * doubled.
 */

#include "config.h"

#include "pgs-timeline-data.h"

#define T0 G_GINT64_CONSTANT (1764928800000000)  /* 2025-12-05 10:00:00 UTC */
#define NO PGS_SAMPLE_ABSENT

static void
test_csv (void)
{
  gint64 times[] = { T0, T0 + 10 * G_USEC_PER_SEC, T0 + 20 * G_USEC_PER_SEC + 250000 };
  guint64 values[] = {
    100, 200, 300, 400, 500, 50, 600,
    101, 201, 301, 401, NO, NO, 601,
    102, 202, 302, 402, 502, 52, 602,
  };
  guint64 pss[] = { 4096, NO, 8192 };
  PgsTimelineData data = { 3, times, values, pss, 0, 0 };
  const char *name = "=HYPERLINK(\"http://x\",\"a,b\")\x1b[31m";
  const char *quoted = "\"'=HYPERLINK(\"\"http://x\"\",\"\"a,b\"\")?[31m\"";
  g_autofree char *expected = g_strdup_printf (
    "time,time_us,anon_bytes,mapped_bytes,shmem_bytes,cache_bytes,kernel_bytes,zram_bytes,free_bytes,process,pss_bytes\n"
    "2025-12-05T10:00:00.000000Z,1764928800000000,100,200,300,400,500,50,600,%s,4096\n"
    "2025-12-05T10:00:10.000000Z,1764928810000000,101,201,301,401,,,601,%s,\n"
    "2025-12-05T10:00:20.250000Z,1764928820250000,102,202,302,402,502,52,602,%s,8192\n",
    quoted, quoted, quoted);
  g_autofree char *csv = pgs_timeline_data_to_csv (&data, name);

  g_assert_cmpstr (csv, ==, expected);
}

static void
test_csv_no_process (void)
{
  gint64 times[] = { T0 };
  guint64 values[] = { 1, 2, 3, 4, 5, 6, 7 };
  PgsTimelineData data = { 1, times, values, NULL, 0, 0 };
  g_autofree char *csv = pgs_timeline_data_to_csv (&data, "ignored");

  g_assert_cmpstr (csv, ==,
                   "time,time_us,anon_bytes,mapped_bytes,shmem_bytes,cache_bytes,kernel_bytes,zram_bytes,free_bytes,process,pss_bytes\n"
                   "2025-12-05T10:00:00.000000Z,1764928800000000,1,2,3,4,5,6,7,,\n");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/pgs/timeline/csv", test_csv);
  g_test_add_func ("/pgs/timeline/csv-no-process", test_csv_no_process);
  return g_test_run ();
}
