/* test-damon.c: DAMON's sysfs from fake trees, the damon_aggregated trace parser and the
 * aggregation of its lines, with expected values worked out by hand
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "pagescope-core.h"
#include "pgs-fixture.h"

#define ADMIN "kernel/mm/damon/admin/kdamonds/"
#define CTX ADMIN "0/contexts/0/"

/* One kdamond as the 6.18 test machine has it, with addr_unit 4096 instead of 1. */
static void
write_running_kdamond (PgsFixture *fx,
                       gboolean    addr_unit)
{
  pgs_fixture_write (fx, ADMIN "nr_kdamonds", "1\n", -1);
  pgs_fixture_write (fx, ADMIN "0/state", "on\n", -1);
  pgs_fixture_write (fx, ADMIN "0/pid", "107\n", -1);
  pgs_fixture_write (fx, ADMIN "0/contexts/nr_contexts", "1\n", -1);
  pgs_fixture_write (fx, CTX "operations", "paddr\n", -1);
  if (addr_unit)
    pgs_fixture_write (fx, CTX "addr_unit", "4096\n", -1);
  pgs_fixture_write (fx, CTX "monitoring_attrs/intervals/sample_us", "500000\n", -1);
  pgs_fixture_write (fx, CTX "monitoring_attrs/intervals/aggr_us", "5000000\n", -1);
  pgs_fixture_write (fx, CTX "monitoring_attrs/intervals/update_us", "60000000\n", -1);
  pgs_fixture_write (fx, CTX "monitoring_attrs/nr_regions/min", "1024\n", -1);
  pgs_fixture_write (fx, CTX "monitoring_attrs/nr_regions/max", "8192\n", -1);
  pgs_fixture_write (fx, CTX "schemes/nr_schemes", "1\n", -1);
  pgs_fixture_write (fx, CTX "targets/nr_targets", "1\n", -1);
  pgs_fixture_write (fx, CTX "targets/0/pid_target", "0\n", -1);
  pgs_fixture_write (fx, CTX "targets/0/regions/nr_regions", "1\n", -1);
  pgs_fixture_write (fx, CTX "targets/0/regions/0/start", "1048576\n", -1);
  pgs_fixture_write (fx, CTX "targets/0/regions/0/end", "1507328\n", -1);
}

static void
test_sysfs_running (void)
{
  g_autoptr(PgsFixture) fx = pgs_fixture_new ();
  g_autoptr(PgsDamonSysfs) sysfs = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) running = NULL;
  g_autofree char *reason = NULL;
  PgsDamonKdamond *k;
  PgsDamonContext *c;
  PgsDamonTarget *t;
  PgsDamonRange *r;

  write_running_kdamond (fx, TRUE);
  sysfs = pgs_damon_sysfs_read (pgs_fixture_get_root (fx), &error);
  g_assert_no_error (error);
  g_assert_true (sysfs->present);
  g_assert_cmpuint (sysfs->nr_kdamonds, ==, 1);
  k = g_ptr_array_index (sysfs->kdamonds, 0);
  g_assert_true (k->on);
  g_assert_cmpint (k->pid, ==, 107);
  g_assert_cmpuint (k->contexts->len, ==, 1);
  c = g_ptr_array_index (k->contexts, 0);
  g_assert_cmpstr (c->operations, ==, "paddr");
  g_assert_true (c->has_addr_unit);
  g_assert_cmpuint (c->addr_unit, ==, 4096);
  g_assert_true (c->intervals_known);
  g_assert_cmpuint (c->sample_us, ==, 500000);
  g_assert_cmpuint (c->aggr_us, ==, 5000000);
  g_assert_cmpuint (c->update_us, ==, 60000000);
  g_assert_true (c->nr_regions_known);
  g_assert_cmpuint (c->min_nr_regions, ==, 1024);
  g_assert_cmpuint (c->max_nr_regions, ==, 8192);
  g_assert_cmpuint (c->n_schemes, ==, 1);
  g_assert_cmpuint (c->targets->len, ==, 1);
  t = g_ptr_array_index (c->targets, 0);
  g_assert_cmpuint (t->regions->len, ==, 1);
  r = &g_array_index (t->regions, PgsDamonRange, 0);
  g_assert_cmpuint (r->start, ==, 1048576);
  g_assert_cmpuint (r->end, ==, 1507328);

  running = pgs_damon_sysfs_running (sysfs);
  g_assert_cmpuint (running->len, ==, 1);
  g_assert_true (pgs_damon_sysfs_context_for_pid (sysfs, 107) == c);
  g_assert_null (pgs_damon_sysfs_context_for_pid (sysfs, 108));

  /* The test machine's case: one runs, so none of ours may start. */
  g_assert_false (pgs_damon_sysfs_can_start (sysfs, &reason));
  g_assert_nonnull (strstr (reason, "PID 107"));
}

static void
test_sysfs_no_addr_unit (void)
{
  g_autoptr(PgsFixture) fx = pgs_fixture_new ();
  g_autoptr(PgsDamonSysfs) sysfs = NULL;
  PgsDamonContext *c;

  /* Kernels before addr_unit: the unit is one byte. */
  write_running_kdamond (fx, FALSE);
  sysfs = pgs_damon_sysfs_read (pgs_fixture_get_root (fx), NULL);
  c = g_ptr_array_index (((PgsDamonKdamond *) g_ptr_array_index (sysfs->kdamonds, 0))->contexts, 0);
  g_assert_false (c->has_addr_unit);
  g_assert_cmpuint (c->addr_unit, ==, 1);
}

static void
test_sysfs_can_start (void)
{
  g_autoptr(PgsFixture) none = pgs_fixture_new ();
  g_autoptr(PgsFixture) zero = pgs_fixture_new ();
  g_autoptr(PgsFixture) off = pgs_fixture_new ();
  g_autoptr(PgsFixture) module = pgs_fixture_new ();
  g_autoptr(PgsFixture) unknown = pgs_fixture_new ();
  g_autoptr(PgsDamonSysfs) s = NULL;
  char *reason = NULL;

  /* No DAMON sysfs at all. */
  pgs_fixture_write (none, "kernel/mm/placeholder", "", -1);
  s = pgs_damon_sysfs_read (pgs_fixture_get_root (none), NULL);
  g_assert_nonnull (s);
  g_assert_false (s->present);
  g_assert_false (pgs_damon_sysfs_can_start (s, &reason));
  g_assert_nonnull (strstr (reason, "no DAMON sysfs"));
  g_clear_pointer (&reason, g_free);
  g_clear_pointer (&s, pgs_damon_sysfs_free);

  /* nr_kdamonds 0: free. */
  pgs_fixture_write (zero, ADMIN "nr_kdamonds", "0\n", -1);
  s = pgs_damon_sysfs_read (pgs_fixture_get_root (zero), NULL);
  g_assert_true (s->present);
  g_assert_cmpuint (s->nr_kdamonds, ==, 0);
  g_assert_true (pgs_damon_sysfs_can_start (s, &reason));
  g_assert_null (reason);
  g_clear_pointer (&s, pgs_damon_sysfs_free);

  /* Two kdamonds, both off, and a DAMON module present but disabled: free. */
  pgs_fixture_write (off, ADMIN "nr_kdamonds", "2\n", -1);
  pgs_fixture_write (off, ADMIN "0/state", "off\n", -1);
  pgs_fixture_write (off, ADMIN "0/pid", "-1\n", -1);
  pgs_fixture_write (off, ADMIN "1/state", "off\n", -1);
  pgs_fixture_write (off, "module/damon_reclaim/parameters/enabled", "N\n", -1);
  pgs_fixture_write (off, "module/damon_reclaim/parameters/kdamond_pid", "-1\n", -1);
  s = pgs_damon_sysfs_read (pgs_fixture_get_root (off), NULL);
  g_assert_cmpuint (s->kdamonds->len, ==, 2);
  g_assert_cmpuint (s->modules->len, ==, 1);
  g_assert_cmpint (((PgsDamonKdamond *) g_ptr_array_index (s->kdamonds, 0))->pid, ==, -1);
  g_assert_true (pgs_damon_sysfs_can_start (s, NULL));
  g_clear_pointer (&s, pgs_damon_sysfs_free);

  /* Every admin kdamond off, but DAMON_RECLAIM runs one of its own. */
  pgs_fixture_write (module, ADMIN "nr_kdamonds", "0\n", -1);
  pgs_fixture_write (module, "module/damon_reclaim/parameters/enabled", "Y\n", -1);
  pgs_fixture_write (module, "module/damon_reclaim/parameters/kdamond_pid", "55\n", -1);
  s = pgs_damon_sysfs_read (pgs_fixture_get_root (module), NULL);
  g_assert_false (pgs_damon_sysfs_can_start (s, &reason));
  g_assert_nonnull (strstr (reason, "damon_reclaim"));
  g_assert_nonnull (strstr (reason, "55"));
  g_clear_pointer (&reason, g_free);
  g_clear_pointer (&s, pgs_damon_sysfs_free);

  /* A kdamond whose state cannot be read might be on: not free. */
  pgs_fixture_write (unknown, ADMIN "nr_kdamonds", "1\n", -1);
  pgs_fixture_write (unknown, ADMIN "0/pid", "-1\n", -1);
  s = pgs_damon_sysfs_read (pgs_fixture_get_root (unknown), NULL);
  g_assert_false (pgs_damon_sysfs_can_start (s, &reason));
  g_assert_nonnull (strstr (reason, "cannot be read"));
  g_clear_pointer (&reason, g_free);
}

static void
test_sysfs_malformed (void)
{
  g_autoptr(PgsFixture) fx = pgs_fixture_new ();
  g_autoptr(GError) error = NULL;
  PgsDamonSysfs *s;

  pgs_fixture_write (fx, ADMIN "nr_kdamonds", "many\n", -1);
  s = pgs_damon_sysfs_read (pgs_fixture_get_root (fx), &error);
  g_assert_null (s);
  g_assert_error (error, PGS_ERROR, PGS_ERROR_MALFORMED);
}

#define LINE(ts, body) "       kdamond.0-107     [003] ..... " ts ": damon_aggregated: " body

static void
test_trace_line (void)
{
  g_autoptr(GError) error = NULL;
  PgsDamonEvent e;
  guint64 lost = 0;
  const char *l = LINE ("5123.456789", "target_id=0 nr_regions=1432 4294967296-4311744512: 3 12");

  g_assert_cmpint (pgs_damon_trace_parse_line (l, strlen (l), 1, 0, &e, &lost, &error), ==,
                   PGS_DAMON_LINE_EVENT);
  g_assert_no_error (error);
  g_assert_cmpuint (e.timestamp_ns, ==, G_GUINT64_CONSTANT (5123456789000));
  g_assert_cmpstr (e.timestamp, ==, "5123.456789");
  g_assert_cmpint (e.pid, ==, 107);
  g_assert_cmpuint (e.target_id, ==, 0);
  g_assert_cmpuint (e.nr_regions, ==, 1432);
  g_assert_cmpuint (e.start, ==, G_GUINT64_CONSTANT (4294967296));
  g_assert_cmpuint (e.end, ==, G_GUINT64_CONSTANT (4311744512));
  g_assert_cmpuint (e.nr_accesses, ==, 3);
  g_assert_cmpuint (e.age, ==, 12);

  /* addr_unit 4096: 1048576 × 4096 = 4 GiB, 1048832 × 4096 = 4 GiB + 1 MiB. The line's
   * own newline is allowed, and the RAM end 0x140000000 (5 GiB) is not passed. */
  l = LINE ("7.5", "target_id=1 nr_regions=2 1048576-1048832: 0 5") "\n";
  g_assert_cmpint (pgs_damon_trace_parse_line (l, strlen (l), 4096, G_GUINT64_CONSTANT (0x140000000),
                                               &e, &lost, &error), ==, PGS_DAMON_LINE_EVENT);
  g_assert_no_error (error);
  g_assert_cmpuint (e.timestamp_ns, ==, G_GUINT64_CONSTANT (7500000000));
  g_assert_cmpuint (e.target_id, ==, 1);
  g_assert_cmpuint (e.start, ==, G_GUINT64_CONSTANT (4294967296));
  g_assert_cmpuint (e.end, ==, G_GUINT64_CONSTANT (4296015872));

  /* No task or CPU column (trace options off): no PID, the rest the same. */
  l = "  123.000001: damon_aggregated: target_id=0 nr_regions=1 0-4096: 10 0";
  g_assert_cmpint (pgs_damon_trace_parse_line (l, strlen (l), 1, 0, &e, &lost, NULL), ==,
                   PGS_DAMON_LINE_EVENT);
  g_assert_cmpint (e.pid, ==, -1);
  g_assert_cmpuint (e.timestamp_ns, ==, G_GUINT64_CONSTANT (123000001000));
  g_assert_cmpuint (e.nr_accesses, ==, 10);

  /* Lines that are not events. */
  l = "# tracer: nop";
  g_assert_cmpint (pgs_damon_trace_parse_line (l, strlen (l), 1, 0, &e, &lost, NULL), ==,
                   PGS_DAMON_LINE_OTHER);
  l = "  kdamond.0-107 [003] ..... 5.0: damos_before_apply: ctx_idx=0";
  g_assert_cmpint (pgs_damon_trace_parse_line (l, strlen (l), 1, 0, &e, &lost, NULL), ==,
                   PGS_DAMON_LINE_OTHER);
  g_assert_cmpint (pgs_damon_trace_parse_line ("", 0, 1, 0, &e, &lost, NULL), ==,
                   PGS_DAMON_LINE_OTHER);
  l = "CPU:3 [LOST 120 EVENTS]";
  g_assert_cmpint (pgs_damon_trace_parse_line (l, strlen (l), 1, 0, &e, &lost, NULL), ==,
                   PGS_DAMON_LINE_LOST);
  g_assert_cmpuint (lost, ==, 120);
}

static void
assert_error (const char *line,
              guint64     addr_unit,
              guint64     ram_end,
              const char *why)
{
  g_autoptr(GError) error = NULL;
  PgsDamonEvent e;

  g_assert_cmpint (pgs_damon_trace_parse_line (line, strlen (line), addr_unit, ram_end, &e,
                                               NULL, &error), ==, PGS_DAMON_LINE_ERROR);
  g_assert_error (error, PGS_ERROR, PGS_ERROR_MALFORMED);
  if (strstr (error->message, why) == NULL)
    g_error ("“%s” does not say “%s”", error->message, why);
}

static void
test_trace_errors (void)
{
  /* A region ending at 4311744512 (0x101000000) past RAM ending at 0x100000000. */
  assert_error (LINE ("1.0", "target_id=0 nr_regions=1 4294967296-4311744512: 3 12"), 1,
                G_GUINT64_CONSTANT (0x100000000), "beyond RAM");
  /* Cut short in the region. */
  assert_error (LINE ("1.0", "target_id=0 nr_regions=3 4294967296-43"), 1, 0, "no region");
  assert_error (LINE ("1.0", "target_id=0 nr_regions=3 4294967296-4311744512: 3"), 1, 0, "no age");
  /* A format this parser does not know (a newer kernel's, say). */
  assert_error (LINE ("1.0", "ctx=0 target=0 regions=3 [4294967296, 4311744512) 3 12"), 1, 0,
                "no target_id");
  assert_error ("damon_aggregated happened", 1, 0, "unknown format");
  assert_error (LINE ("x", "target_id=0 nr_regions=1 0-4096: 1 1"), 1, 0, "no timestamp");
  /* 2^64 does not fit; nor does 2^63 × 2. */
  assert_error (LINE ("1.0", "target_id=0 nr_regions=1 0-18446744073709551616: 1 1"), 1, 0,
                "no region");
  assert_error (LINE ("1.0", "target_id=0 nr_regions=1 0-9223372036854775808: 1 1"), 2, 0,
                "beyond 64 bits");
  assert_error (LINE ("1.0", "target_id=0 nr_regions=1 8192-4096: 1 1"), 1, 0, "ends before");
  assert_error (LINE ("1.0", "target_id=0 nr_regions=0 0-4096: 1 1"), 1, 0, "nr_regions is 0");
  assert_error (LINE ("1.0", "target_id=0 nr_regions=1 0-4096: 1 1 extra"), 1, 0,
                "more after the age");
  assert_error ("CPU:3 [LOST many EVENTS]", 1, 0, "lost-events");
}

/* The tail of one aggregation (the read began inside it; events lost after it), a whole
 * one of three regions, then one region of the next and a line cut short (the read ended
 * inside it). */
static const char trace[] =
  LINE ("10.000300", "target_id=0 nr_regions=3 12288-16384: 1 4") "\n"
  "CPU:1 [LOST 2 EVENTS]\n"
  LINE ("15.000100", "target_id=0 nr_regions=3 0-4096: 2 7") "\n"
  LINE ("15.000101", "target_id=0 nr_regions=3 4096-12288: 0 1") "\n"
  LINE ("15.000102", "target_id=0 nr_regions=3 12288-16384: 10 0") "\n"
  LINE ("20.000100", "target_id=0 nr_regions=3 0-8192: 5 0") "\n"
  "       kdamond.0-107     [003] ..... 20.000101: damon_aggregated: target_id=0 nr_regions=3 8192-";

static void
check_access (PgsDamonAccess *access)
{
  GPtrArray *aggs = pgs_damon_access_get_aggregations (access);
  PgsDamonAccessCounts counts;
  const PgsDamonAggregation *a;
  const PgsDamonRegion *r;

  pgs_damon_access_get_counts (access, &counts);
  g_assert_cmpuint (counts.lines, ==, 7);
  g_assert_cmpuint (counts.events, ==, 5);
  g_assert_cmpuint (counts.lost, ==, 2);
  g_assert_cmpuint (counts.errors, ==, 1);     /* the cut last line */
  g_assert_cmpuint (counts.incomplete, ==, 2); /* the tail, and the unfinished one */
  g_assert_cmpuint (aggs->len, ==, 1);
  a = g_ptr_array_index (aggs, 0);
  g_assert_cmpstr (a->timestamp, ==, "15.000100");
  g_assert_cmpuint (a->timestamp_ns, ==, G_GUINT64_CONSTANT (15000100000));
  g_assert_cmpint (a->pid, ==, 107);
  g_assert_cmpuint (a->nr_regions, ==, 3);
  g_assert_cmpuint (a->regions->len, ==, 3);
  /* Scaled by the kdamond's addr_unit, 2: byte addresses are twice the line's. */
  r = &g_array_index (a->regions, PgsDamonRegion, 0);
  g_assert_cmpuint (r->start, ==, 0);
  g_assert_cmpuint (r->end, ==, 8192);
  g_assert_cmpuint (r->nr_accesses, ==, 2);
  g_assert_cmpuint (r->age, ==, 7);
  r = &g_array_index (a->regions, PgsDamonRegion, 1);
  g_assert_cmpuint (r->start, ==, 8192);
  g_assert_cmpuint (r->end, ==, 24576);
  g_assert_cmpuint (r->nr_accesses, ==, 0);
  r = &g_array_index (a->regions, PgsDamonRegion, 2);
  g_assert_cmpuint (r->start, ==, 24576);
  g_assert_cmpuint (r->end, ==, 32768);
  g_assert_cmpuint (r->nr_accesses, ==, 10);
  g_assert_cmpuint (r->age, ==, 0);
  g_assert_cmpuint (pgs_damon_access_get_messages (access)->len, ==, 1);
}

static void
test_access_whole (void)
{
  g_autoptr(PgsDamonAccess) access = pgs_damon_access_new (0);

  pgs_damon_access_set_addr_unit (access, 107, 2);
  pgs_damon_access_feed (access, trace, strlen (trace));
  pgs_damon_access_finish (access);
  check_access (access);
}

static void
test_access_bytewise (void)
{
  g_autoptr(PgsDamonAccess) access = pgs_damon_access_new (0);

  /* trace_pipe may cut anywhere: one byte at a time gives the same picture. */
  pgs_damon_access_set_addr_unit (access, 107, 2);
  for (gsize i = 0; i < strlen (trace); i++)
    pgs_damon_access_feed (access, trace + i, 1);
  pgs_damon_access_finish (access);
  check_access (access);
}

static void
test_access_long_line (void)
{
  g_autoptr(PgsDamonAccess) access = pgs_damon_access_new (0);
  g_autofree char *junk = g_strnfill (10000, 'x');
  const char *ok = LINE ("1.0", "target_id=0 nr_regions=1 0-4096: 1 1") "\n";
  PgsDamonAccessCounts counts;

  pgs_damon_access_feed (access, junk, 6000);
  pgs_damon_access_feed (access, junk, 4000);
  pgs_damon_access_feed (access, "\n", 1);
  pgs_damon_access_feed (access, ok, strlen (ok));
  pgs_damon_access_finish (access);
  pgs_damon_access_get_counts (access, &counts);
  g_assert_cmpuint (counts.errors, ==, 1);
  g_assert_cmpuint (counts.events, ==, 1);
  g_assert_cmpuint (pgs_damon_access_get_aggregations (access)->len, ==, 1);
}

static void
test_ram_end (void)
{
  g_autoptr(PgsFixture) fx = pgs_fixture_new ();
  g_autoptr(PgsFixture) user = pgs_fixture_new ();

  pgs_fixture_write (fx, "iomem",
                     "00000000-00000fff : Reserved\n"
                     "00001000-0009ffff : System RAM\n"
                     "00100000-bfffffff : System RAM\n"
                     "  01000000-01ffffff : Kernel code\n"
                     "fee00000-fee00fff : Local APIC\n"
                     "100000000-63fffffff : System RAM\n", -1);
  /* The last System RAM ends at 0x63fffffff: RAM ends at 0x640000000. */
  g_assert_cmpuint (pgs_damon_ram_end (pgs_fixture_get_root (fx)), ==,
                    G_GUINT64_CONSTANT (0x640000000));
  /* As a normal user sees it: every address 0, so unknown. */
  pgs_fixture_write (user, "iomem", "00000000-00000000 : System RAM\n", -1);
  g_assert_cmpuint (pgs_damon_ram_end (pgs_fixture_get_root (user)), ==, 0);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/pgs/damon/sysfs-running", test_sysfs_running);
  g_test_add_func ("/pgs/damon/sysfs-no-addr-unit", test_sysfs_no_addr_unit);
  g_test_add_func ("/pgs/damon/sysfs-can-start", test_sysfs_can_start);
  g_test_add_func ("/pgs/damon/sysfs-malformed", test_sysfs_malformed);
  g_test_add_func ("/pgs/damon/trace-line", test_trace_line);
  g_test_add_func ("/pgs/damon/trace-errors", test_trace_errors);
  g_test_add_func ("/pgs/damon/access-whole", test_access_whole);
  g_test_add_func ("/pgs/damon/access-bytewise", test_access_bytewise);
  g_test_add_func ("/pgs/damon/access-long-line", test_access_long_line);
  g_test_add_func ("/pgs/damon/ram-end", test_ram_end);
  return g_test_run ();
}
