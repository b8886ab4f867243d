/* test-wss-trust.c: whether a working-set sample says when it cannot be trusted
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A fixture procfs tree (PID 100's stat and threads, vmstat, pressure/memory, fd links) and
 * a fixture sysfs tree (DAMON's admin directory, page_idle/bitmap) are read at the start of
 * an interval, edited as the kernel would during it, and read again at its end. Expected
 * figures worked out by hand next to each edit.
 */

#include "config.h"

#include <string.h>
#include <unistd.h>

#include <pagescope.h>

#include "pgs-fixture.h"
#include "pgs-test-json.h"
#include "pgs-wss-sample-private.h"
#include "pgs-wss-trust.h"

#define PID 100

typedef struct
{
  PgsFixture *proc;
  PgsFixture *sys;
} Trees;

/* stat with a name holding a space and a parenthesis: the fields follow the last ')'.
 * utime is field 14, stime 15. */
static void
write_stat (PgsFixture *proc,
            guint       utime,
            guint       stime)
{
  g_autofree char *stat =
    g_strdup_printf ("%d (a) b) S 1 100 100 0 -1 4194304 10 0 0 0 %u %u 0 0 20 0 2 0 1000 "
                     "1000000 100 18446744073709551615\n", PID, utime, stime);

  pgs_fixture_write (proc, "100/stat", stat, -1);
}

static void
write_thread (PgsFixture *proc,
              int         tid,
              guint       voluntary,
              guint       involuntary)
{
  g_autofree char *path = g_strdup_printf ("100/task/%d/status", tid);
  g_autofree char *status =
    g_strdup_printf ("Name:\ta) b\nState:\tS (sleeping)\nvoluntary_ctxt_switches:\t%u\n"
                     "nonvoluntary_ctxt_switches:\t%u\n", voluntary, involuntary);

  pgs_fixture_write (proc, path, status, -1);
}

static void
write_vmstat (PgsFixture *proc,
              guint       steal_anon,
              guint       steal_file)
{
  /* pgsteal_kswapd and pgsteal_direct split the same pages another way: not summed. */
  g_autofree char *vmstat =
    g_strdup_printf ("nr_free_pages 1000\npgsteal_kswapd 999\npgsteal_direct 999\n"
                     "pgsteal_anon %u\npgsteal_file %u\npgscan_anon 5000\n", steal_anon, steal_file);

  pgs_fixture_write (proc, "vmstat", vmstat, -1);
}

static void
write_psi (PgsFixture *proc,
           guint64     some_total)
{
  g_autofree char *psi =
    g_strdup_printf ("some avg10=0.00 avg60=0.00 avg300=0.00 total=%" G_GUINT64_FORMAT "\n"
                     "full avg10=0.00 avg60=0.00 avg300=0.00 total=77777777\n", some_total);

  pgs_fixture_write (proc, "pressure/memory", psi, -1);
}

static void
trees_init (Trees *t)
{
  t->proc = pgs_fixture_new ();
  t->sys = pgs_fixture_new ();
  write_stat (t->proc, 100, 50);
  write_thread (t->proc, 100, 3, 1);
  write_thread (t->proc, 101, 7, 0);
  write_vmstat (t->proc, 10, 5);
  write_psi (t->proc, 1000);
}

static void
trees_clear (Trees *t)
{
  pgs_fixture_free (t->proc);
  pgs_fixture_free (t->sys);
}

static PgsWssSample *
interval (Trees *t,
          void (*during) (Trees *t))
{
  g_autoptr(PgsWssTrust) trust = pgs_wss_trust_begin (pgs_fixture_get_root (t->proc),
                                                      pgs_fixture_get_root (t->sys), PID);
  PgsWssSample *sample = pgs_wss_sample_new (PID, PGS_WSS_SCOPE_ALL, 4096, PGS_WSS_PAGES_NONE,
                                             "none", "none");

  if (during != NULL)
    during (t);
  pgs_wss_trust_end (trust, sample);
  pgs_wss_sample_seal (sample, 1000000, 0);
  return sample;
}

static const PgsWssCaveat *
find_caveat (PgsWssSample     *sample,
             PgsWssCaveatKind  kind)
{
  for (guint i = 0; i < pgs_wss_sample_get_n_caveats (sample); i++)
    if (pgs_wss_sample_get_caveat (sample, i)->kind == kind)
      return pgs_wss_sample_get_caveat (sample, i);
  return NULL;
}

/* Nothing moved: it did not run, and nothing is said against the figure. */
static void
test_quiet (void)
{
  g_autoptr(PgsWssSample) sample = NULL;
  gint64 cpu = -1;
  guint64 switches = 99;
  Trees t;

  trees_init (&t);
  sample = interval (&t, NULL);
  g_assert_cmpint (pgs_wss_sample_get_ran (sample, &cpu, &switches), ==, PGS_WSS_RAN_NO);
  g_assert_cmpint (cpu, ==, 0);
  g_assert_cmpuint (switches, ==, 0);
  g_assert_cmpuint (pgs_wss_sample_get_n_caveats (sample), ==, 0);
  g_assert_cmpstr (pgs_wss_ran_describe (PGS_WSS_RAN_NO), ==,
                   "the process did not run during the interval");
  trees_clear (&t);
}

static void
run_some (Trees *t)
{
  /* utime 100 -> 130, stime 50 -> 70: 50 ticks. Thread 100: 3+1 -> 9+2 (+7); thread 101
   * unchanged: 7 switches in all. */
  write_stat (t->proc, 130, 70);
  write_thread (t->proc, 100, 9, 2);
}

static void
test_ran (void)
{
  g_autoptr(PgsWssSample) sample = NULL;
  gint64 cpu = -1;
  guint64 switches = 0;
  long tick = sysconf (_SC_CLK_TCK);
  Trees t;

  trees_init (&t);
  sample = interval (&t, run_some);
  g_assert_cmpint (pgs_wss_sample_get_ran (sample, &cpu, &switches), ==, PGS_WSS_RAN_YES);
  g_assert_cmpint (cpu, ==, 50 * G_USEC_PER_SEC / tick);
  g_assert_cmpuint (switches, ==, 7);
  trees_clear (&t);
}

static void
switch_only (Trees *t)
{
  /* Less than a tick of CPU, one switch on thread 101: it ran. */
  write_thread (t->proc, 101, 8, 0);
}

static void
test_ran_switch_only (void)
{
  g_autoptr(PgsWssSample) sample = NULL;
  Trees t;

  trees_init (&t);
  sample = interval (&t, switch_only);
  g_assert_cmpint (pgs_wss_sample_get_ran (sample, NULL, NULL), ==, PGS_WSS_RAN_YES);
  trees_clear (&t);
}

static void
remove_stat (Trees *t)
{
  g_autofree char *path = g_build_filename (pgs_fixture_get_root (t->proc), "100", "stat", NULL);

  g_assert_cmpint (unlink (path), ==, 0);
}

static void
truncate_stat (Trees *t)
{
  /* Cut right after the name: no fields to read. */
  pgs_fixture_write (t->proc, "100/stat", "100 (a) b)", -1);
}

/* A stat line with nothing after the name: unknown, and no read past its end. */
static void
test_ran_malformed (void)
{
  g_autoptr(PgsWssSample) sample = NULL;
  Trees t;

  trees_init (&t);
  sample = interval (&t, truncate_stat);
  g_assert_cmpint (pgs_wss_sample_get_ran (sample, NULL, NULL), ==, PGS_WSS_RAN_UNKNOWN);
  trees_clear (&t);
}

/* Gone at the end (or never readable): unknown, never "did not run". */
static void
test_ran_unknown (void)
{
  g_autoptr(PgsWssSample) sample = NULL;
  Trees t;

  trees_init (&t);
  sample = interval (&t, remove_stat);
  g_assert_cmpint (pgs_wss_sample_get_ran (sample, NULL, NULL), ==, PGS_WSS_RAN_UNKNOWN);
  trees_clear (&t);
}

static void
write_kdamond (PgsFixture *sys,
               int         id,
               const char *state,
               const char *ops,
               int         target_pid,
               const char *action)
{
  g_autofree char *base = g_strdup_printf ("kernel/mm/damon/admin/kdamonds/%d", id);
  g_autofree char *state_path = g_strdup_printf ("%s/state", base);
  g_autofree char *ops_path = g_strdup_printf ("%s/contexts/0/operations", base);
  g_autofree char *target_path = g_strdup_printf ("%s/contexts/0/targets/0/pid_target", base);
  g_autofree char *action_path = g_strdup_printf ("%s/contexts/0/schemes/0/action", base);
  g_autofree char *target = g_strdup_printf ("%d\n", target_pid);
  g_autofree char *state_nl = g_strdup_printf ("%s\n", state);
  g_autofree char *ops_nl = g_strdup_printf ("%s\n", ops);

  pgs_fixture_write (sys, "kernel/mm/damon/admin/kdamonds/nr_kdamonds", "4\n", -1);
  pgs_fixture_write (sys, state_path, state_nl, -1);
  pgs_fixture_write (sys, ops_path, ops_nl, -1);
  pgs_fixture_write (sys, target_path, target, -1);
  if (action != NULL)
    {
      g_autofree char *action_nl = g_strdup_printf ("%s\n", action);

      pgs_fixture_write (sys, action_path, action_nl, -1);
    }
}

/* kdamond 0: on, paddr, pageout (a caveat naming it); 1: off, paddr (none); 2: on, vaddr of
 * PID 100 (a caveat); 3: on, vaddr of PID 200 (none). */
static void
test_damon (void)
{
  g_autoptr(PgsWssSample) sample = NULL;
  const PgsWssCaveat *c;
  Trees t;

  trees_init (&t);
  write_kdamond (t.sys, 0, "on", "paddr", 0, "pageout");
  write_kdamond (t.sys, 1, "off", "paddr", 0, NULL);
  write_kdamond (t.sys, 2, "on", "vaddr", PID, NULL);
  write_kdamond (t.sys, 3, "on", "vaddr", 200, NULL);
  sample = interval (&t, NULL);

  g_assert_cmpuint (pgs_wss_sample_get_n_caveats (sample), ==, 2);
  c = find_caveat (sample, PGS_WSS_CAVEAT_DAMON_PADDR);
  g_assert_nonnull (c);
  g_assert_cmpstr (c->id, ==, "damon-paddr");
  g_assert_cmpstr (c->message, ==, "A DAMON monitor of physical memory is running (kdamond 0): "
                   "it clears accessed bits, and its schemes (pageout) can evict or move pages "
                   "during the interval, so the working set may be too low.");
  c = find_caveat (sample, PGS_WSS_CAVEAT_DAMON_VADDR);
  g_assert_nonnull (c);
  g_assert_cmpstr (c->id, ==, "damon-vaddr");
  g_assert_nonnull (strstr (c->message, "(kdamond 2)"));
  trees_clear (&t);
}

static void
add_idle_user (PgsFixture *proc)
{
  g_autofree char *fd_dir = g_build_filename (pgs_fixture_get_root (proc), "777", "fd", NULL);
  g_autofree char *link = g_build_filename (fd_dir, "3", NULL);

  pgs_fixture_write (proc, "777/comm", "idlewatch\n", -1);
  g_assert_cmpint (g_mkdir_with_parents (fd_dir, 0755), ==, 0);
  g_assert_cmpint (symlink ("/sys/kernel/mm/page_idle/bitmap", link), ==, 0);
}

static void
test_idle_tracking (void)
{
  g_autoptr(PgsWssSample) without_bitmap = NULL;
  g_autoptr(PgsWssSample) sample = NULL;
  const PgsWssCaveat *c;
  Trees t;

  trees_init (&t);
  add_idle_user (t.proc);
  /* No page_idle/bitmap in this sysfs: the kernel has none, so nobody can use it. */
  without_bitmap = interval (&t, NULL);
  g_assert_null (find_caveat (without_bitmap, PGS_WSS_CAVEAT_IDLE_TRACKING));

  pgs_fixture_write (t.sys, "kernel/mm/page_idle/bitmap", "", 0);
  sample = interval (&t, NULL);
  c = find_caveat (sample, PGS_WSS_CAVEAT_IDLE_TRACKING);
  g_assert_nonnull (c);
  g_assert_cmpstr (c->message, ==, "PID 777 (idlewatch) uses idle page tracking (it has "
                   "/sys/kernel/mm/page_idle/bitmap open): marking pages idle clears their "
                   "accessed bits, so the working set may be too low.");
  trees_clear (&t);
}

static void
reclaim (Trees *t)
{
  /* pgsteal_anon 10 -> 17, pgsteal_file 5 -> 8: 10 pages. PSI some 1000 -> 4000 us: 3 ms. */
  write_vmstat (t->proc, 17, 8);
  write_psi (t->proc, 4000);
}

static void
little_pressure (Trees *t)
{
  /* 999 us of stall: under the millisecond that is reported. */
  write_psi (t->proc, 1999);
}

static void
test_reclaim_and_pressure (void)
{
  g_autoptr(PgsWssSample) sample = NULL;
  g_autoptr(PgsWssSample) little = NULL;
  g_autofree char *expected = NULL;
  long ps = sysconf (_SC_PAGESIZE);
  const PgsWssCaveat *c;
  Trees t;

  trees_init (&t);
  sample = interval (&t, reclaim);
  c = find_caveat (sample, PGS_WSS_CAVEAT_RECLAIM);
  g_assert_nonnull (c);
  g_assert_cmpstr (c->id, ==, "reclaim");
  expected = g_strdup_printf ("The kernel reclaimed %.1f KiB during the interval (/proc/vmstat "
                              "pgsteal): pages of the working set may have been evicted.",
                              10.0 * ps / 1024);
  g_assert_cmpstr (c->message, ==, expected);
  c = find_caveat (sample, PGS_WSS_CAVEAT_PRESSURE);
  g_assert_nonnull (c);
  g_assert_cmpstr (c->id, ==, "memory-pressure");
  g_assert_nonnull (strstr (c->message, "Tasks waited 3 ms for memory"));

  little = interval (&t, little_pressure);
  g_assert_cmpuint (pgs_wss_sample_get_n_caveats (little), ==, 0);
  trees_clear (&t);
}

/* The JSON carries both, and a ran that is unknown as null, never as false. */
static void
test_json (void)
{
  g_autoptr(PgsWssSample) known = NULL;
  g_autoptr(PgsWssSample) unknown = NULL;
  g_autoptr(GPtrArray) samples = g_ptr_array_new ();
  g_autoptr(GString) out = g_string_new (NULL);
  Trees t;

  trees_init (&t);
  write_kdamond (t.sys, 0, "on", "paddr", 0, "pageout");
  known = interval (&t, NULL);
  unknown = interval (&t, remove_stat);
  g_ptr_array_add (samples, known);
  g_ptr_array_add (samples, unknown);
  pgs_wss_samples_to_json (out, "a) b", -1, samples, 2, NULL);
  pgs_test_assert_json (out->str);
  g_test_message ("%s", out->str);
  g_assert_nonnull (strstr (out->str, "\"interval\":null,"));
  g_assert_nonnull (strstr (out->str, "\"ran\":{\"ran\":false,\"cpu_seconds\":0.000,\"context_switches\":0},"
                                      "\"caveats\":[{\"kind\":\"damon-paddr\",\"message\":\"A DAMON monitor"));
  g_assert_nonnull (strstr (out->str, "\"ran\":null,\"caveats\":[{\"kind\":\"damon-paddr\""));
  trees_clear (&t);
}

int
main (int   argc,
      char *argv[])
{
  g_setenv ("LC_ALL", "C", TRUE);
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/pgs/wss-trust/quiet", test_quiet);
  g_test_add_func ("/pgs/wss-trust/ran", test_ran);
  g_test_add_func ("/pgs/wss-trust/ran-switch-only", test_ran_switch_only);
  g_test_add_func ("/pgs/wss-trust/ran-unknown", test_ran_unknown);
  g_test_add_func ("/pgs/wss-trust/ran-malformed", test_ran_malformed);
  g_test_add_func ("/pgs/wss-trust/damon", test_damon);
  g_test_add_func ("/pgs/wss-trust/idle-tracking", test_idle_tracking);
  g_test_add_func ("/pgs/wss-trust/reclaim-and-pressure", test_reclaim_and_pressure);
  g_test_add_func ("/pgs/wss-trust/json", test_json);

  return g_test_run ();
}
