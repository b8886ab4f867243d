/* test-damon-own.c: a kdamond of Pagescope's own against fake DAMON sysfs trees: what is
 * written (worked out by hand), that every file comes back byte for byte, the refusals
 * where DAMON's sysfs is someone else's, and the watchdog that cleans up after a SIGKILL
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gio/gio.h>

#include "pagescope-core.h"
#include "pgs-fixture.h"
#include "src/helper/pgs-kdamond-writer.h"

#define ADMIN "kernel/mm/damon/admin/kdamonds/"
#define CTX ADMIN "0/contexts/0/"

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

/* Every file under DIR, sorted, as "path\ncontents\n--\n": two dumps are equal exactly when
 * the trees are, byte for byte. */
static void
dump_dir (const char *root,
          const char *rel,
          GString    *out)
{
  g_autofree char *dir_path = g_build_filename (root, rel, NULL);
  g_autoptr(GDir) dir = g_dir_open (dir_path, 0, NULL);
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL)
    g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, compare_names);
  for (guint i = 0; i < names->len; i++)
    {
      g_autofree char *child = g_build_filename (rel, g_ptr_array_index (names, i), NULL);
      g_autofree char *path = g_build_filename (root, child, NULL);
      g_autofree char *text = NULL;

      if (g_file_test (path, G_FILE_TEST_IS_DIR))
        dump_dir (root, child, out);
      else
        {
          g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
          g_string_append_printf (out, "%s\n%s\n--\n", child, text);
        }
    }
}

static char *
dump (PgsFixture *fx)
{
  GString *out = g_string_new (NULL);

  dump_dir (pgs_fixture_get_root (fx), ".", out);
  return g_string_free (out, FALSE);
}

static char *
read_file (PgsFixture *fx,
           const char *rel)
{
  g_autofree char *path = g_build_filename (pgs_fixture_get_root (fx), rel, NULL);
  char *text = NULL;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  return text;
}

/* Physical memory as /proc/iomem shows it to root: three System RAM ranges at the top
 * level, the biggest 0x100000000-0x43fffffff (13 GiB): the region is [4294967296,
 * 18253611008). The kernel's own ranges nested inside are not RAM of their own. */
static const char iomem[] =
  "00000000-00000fff : Reserved\n"
  "00001000-0009ffff : System RAM\n"
  "000a0000-000fffff : Reserved\n"
  "00100000-bffdffff : System RAM\n"
  "  01000000-01ffffff : Kernel code\n"
  "fec00000-fec003ff : IOAPIC 0\n"
  "100000000-43fffffff : System RAM\n"
  "  200000000-2ffffffff : Kernel data\n";

/* A free tree: no kdamond (as a kernel shows it, kdamonds/0 absent; here its files are
 * there already, as the kernel makes them when nr_kdamonds is written, with values that
 * differ from ours so that each write shows), a DAMON module present but disabled. */
static PgsFixture *
free_tree_without_ram (void)
{
  PgsFixture *fx = pgs_fixture_new ();

  pgs_fixture_add_free_damon (fx);
  pgs_fixture_write (fx, "module/damon_reclaim/parameters/enabled", "N\n", -1);
  pgs_fixture_write (fx, "module/damon_reclaim/parameters/kdamond_pid", "-1\n", -1);
  return fx;
}

/* The same with the iomem above (the fixture is both the sysfs and the procfs root). */
static PgsFixture *
free_tree (void)
{
  PgsFixture *fx = free_tree_without_ram ();

  pgs_fixture_write (fx, "iomem", iomem, -1);
  return fx;
}

#define ROOT(fx) pgs_fixture_get_root (fx)

/* The writer with the fixture as both its sysfs and its procfs root (iomem). */
static int
start (PgsFixture *fx,
       KdamondOwn *own,
       char       *reason)
{
  return kdamond_start (ROOT (fx), ROOT (fx), own, reason, KDAMOND_REPLY_MAX);
}

static void
assert_file (PgsFixture *fx,
             const char *rel,
             const char *expected)
{
  g_autofree char *text = read_file (fx, rel);

  g_assert_cmpstr (text, ==, expected);
}

static void
test_start_stop (void)
{
  g_autoptr(PgsFixture) fx = free_tree ();
  g_autofree char *before = dump (fx);
  g_autofree char *after = NULL;
  char reason[KDAMOND_REPLY_MAX] = "";
  KdamondOwn own;

  g_assert_cmpint (kdamond_check_free (pgs_fixture_get_root (fx), reason, sizeof reason), ==, 0);
  g_assert_cmpint (start (fx, &own, reason), ==, 0);
  assert_file (fx, ADMIN "nr_kdamonds", "1\n");
  assert_file (fx, ADMIN "0/state", "on\n");
  assert_file (fx, ADMIN "0/contexts/nr_contexts", "1\n");
  assert_file (fx, CTX "operations", "paddr\n");
  assert_file (fx, CTX "monitoring_attrs/intervals/sample_us", "5000\n");
  assert_file (fx, CTX "monitoring_attrs/intervals/aggr_us", "100000\n");
  assert_file (fx, CTX "monitoring_attrs/intervals/update_us", "1000000\n");
  assert_file (fx, CTX "monitoring_attrs/nr_regions/min", "10\n");
  assert_file (fx, CTX "monitoring_attrs/nr_regions/max", "1000\n");
  assert_file (fx, CTX "targets/nr_targets", "1\n");
  assert_file (fx, CTX "targets/0/regions/nr_regions", "1\n");
  assert_file (fx, CTX "targets/0/regions/0/start", "4294967296\n");
  assert_file (fx, CTX "targets/0/regions/0/end", "18253611008\n");
  /* Untouched: the pid is the kernel's to write, the module not ours. */
  assert_file (fx, ADMIN "0/pid", "-1\n");
  assert_file (fx, "module/damon_reclaim/parameters/enabled", "N\n");
  g_assert_cmpint (own.pid, ==, -1);

  /* Busy now: a second start is refused and changes nothing. */
  {
    g_autofree char *on = dump (fx);
    g_autofree char *still = NULL;
    KdamondOwn again;

    g_assert_cmpint (start (fx, &again, reason),
                     ==, EBUSY);
    g_assert_cmpstr (reason, ==, "a kdamond runs (PID -1)");
    still = dump (fx);
    g_assert_cmpstr (still, ==, on);
  }

  g_assert_cmpint (kdamond_undo (&own, reason, sizeof reason), ==, 0);
  after = dump (fx);
  g_assert_cmpstr (after, ==, before);
}

/* No System RAM known (no iomem; a reader not root sees zeros): no region written, the
 * rest as with one, and all of it undone. */
static void
test_start_without_ram (void)
{
  g_autoptr(PgsFixture) fx = free_tree_without_ram ();
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  char reason[KDAMOND_REPLY_MAX] = "";
  KdamondOwn own;

  pgs_fixture_write (fx, "iomem", "00000000-00000000 : System RAM\n", -1);
  before = dump (fx);
  g_assert_cmpint (start (fx, &own, reason), ==, 0);
  assert_file (fx, ADMIN "0/state", "on\n");
  assert_file (fx, CTX "targets/nr_targets", "1\n");
  assert_file (fx, CTX "targets/0/regions/nr_regions", "0\n");
  assert_file (fx, CTX "targets/0/regions/0/start", "0\n");
  g_assert_cmpint (kdamond_undo (&own, reason, sizeof reason), ==, 0);
  after = dump (fx);
  g_assert_cmpstr (after, ==, before);
}

/* Each tree that is not free: EBUSY (ENOENT without DAMON) with the reason, unchanged. */
static void
test_refused (void)
{
  static const struct
  {
    const char *files[10];  /* path, contents pairs, NULL-terminated */
    int         errsv;
    const char *reason;
  } cases[] = {
    { { ADMIN "nr_kdamonds", "1\n", ADMIN "0/state", "on\n", ADMIN "0/pid", "4242\n" },
      EBUSY, "a kdamond runs (PID 4242)" },
    { { ADMIN "nr_kdamonds", "2\n", ADMIN "0/state", "off\n", ADMIN "1/state", "on\n",
        ADMIN "1/pid", "17\n" },
      EBUSY, "a kdamond runs (PID 17)" },
    { { ADMIN "nr_kdamonds", "0\n", "module/damon_reclaim/parameters/enabled", "Y\n",
        "module/damon_reclaim/parameters/kdamond_pid", "-1\n" },
      EBUSY, "damon_reclaim is enabled" },
    { { ADMIN "nr_kdamonds", "0\n", "module/damon_lru_sort/parameters/enabled", "N\n",
        "module/damon_lru_sort/parameters/kdamond_pid", "77\n" },
      EBUSY, "damon_lru_sort runs a kdamond (PID 77)" },
    { { ADMIN "nr_kdamonds", "0\n", "module/damon_stat/parameters/enabled", "Y\n" },
      EBUSY, "damon_stat is enabled" },
    { { ADMIN "nr_kdamonds", "1\n", ADMIN "0/pid", "-1\n" },
      EBUSY, "the state of kdamond 0 cannot be read" },
    { { ADMIN "nr_kdamonds", "1\n", ADMIN "0/state", "off\n", ADMIN "0/pid", "-1\n" },
      EBUSY, "1 kdamond(s) are configured, though off: adding one would make the kernel "
             "erase their configuration" },
    { { "kernel/mm/placeholder", "" },
      ENOENT, "the kernel has no DAMON sysfs interface (/sys/kernel/mm/damon/admin)" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(PgsFixture) fx = pgs_fixture_new ();
      g_autofree char *before = NULL;
      g_autofree char *after = NULL;
      g_autofree char *lib_reason = NULL;
      g_autoptr(PgsDamonOwn) lib_own = NULL;
      g_autoptr(GError) error = NULL;
      char reason[KDAMOND_REPLY_MAX] = "";
      KdamondOwn own;

      for (guint j = 0; cases[i].files[j] != NULL; j += 2)
        pgs_fixture_write (fx, cases[i].files[j], cases[i].files[j + 1], -1);
      before = dump (fx);
      g_assert_cmpint (start (fx, &own, reason),
                       ==, cases[i].errsv);
      g_assert_cmpstr (reason, ==, cases[i].reason);

      g_assert_false (pgs_damon_own_can_start (pgs_fixture_get_root (fx), &lib_reason));
      g_assert_cmpstr (lib_reason, ==, cases[i].reason);
      lib_own = pgs_damon_own_start (ROOT (fx), ROOT (fx), &error);
      g_assert_null (lib_own);
      if (cases[i].errsv == EBUSY)
        g_assert_error (error, G_IO_ERROR, G_IO_ERROR_BUSY);
      else
        g_assert_error (error, PGS_ERROR, PGS_ERROR_UNSUPPORTED);
      g_assert_nonnull (strstr (error->message, cases[i].reason));

      after = dump (fx);
      g_assert_cmpstr (after, ==, before);
    }
}

/* A write that fails midway (no targets/nr_targets): what was written goes back. */
static void
test_failed_midway (void)
{
  g_autoptr(PgsFixture) fx = free_tree ();
  g_autofree char *path = g_build_filename (pgs_fixture_get_root (fx), CTX "targets/nr_targets",
                                            NULL);
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  char reason[KDAMOND_REPLY_MAX] = "";
  KdamondOwn own;

  g_assert_cmpint (unlink (path), ==, 0);
  before = dump (fx);
  g_assert_cmpint (start (fx, &own, reason),
                   ==, ENOENT);
  g_assert_true (g_str_has_prefix (reason, "cannot write "));
  after = dump (fx);
  g_assert_cmpstr (after, ==, before);
}

/* Someone restarted kdamond 0 after ours (another PID): undo leaves it alone. */
static void
test_not_ours (void)
{
  g_autoptr(PgsFixture) fx = free_tree ();
  g_autofree char *state = NULL;
  char reason[KDAMOND_REPLY_MAX] = "";
  KdamondOwn own;

  g_assert_cmpint (start (fx, &own, reason), ==, 0);
  pgs_fixture_write (fx, ADMIN "0/pid", "555\n", -1);
  g_assert_cmpint (kdamond_undo (&own, reason, sizeof reason), ==, EBUSY);
  g_assert_nonnull (strstr (reason, "no longer Pagescope"));
  assert_file (fx, ADMIN "0/state", "on\n");
  assert_file (fx, ADMIN "nr_kdamonds", "1\n");
  assert_file (fx, CTX "operations", "paddr\n");
}

/* The library's path as root: a watchdog starts it, stop has it undone. */
static void
test_library (void)
{
  g_autoptr(PgsFixture) fx = free_tree ();
  g_autofree char *before = dump (fx);
  g_autofree char *after = NULL;
  g_autoptr(GError) error = NULL;
  PgsDamonOwn *own;

  g_assert_true (pgs_damon_own_can_start (pgs_fixture_get_root (fx), NULL));
  own = pgs_damon_own_start (ROOT (fx), ROOT (fx), &error);
  g_assert_no_error (error);
  g_assert_cmpuint (pgs_damon_own_get_index (own), ==, 0);
  g_assert_cmpint (pgs_damon_own_get_pid (own), ==, -1);
  assert_file (fx, ADMIN "0/state", "on\n");
  g_assert_true (pgs_damon_own_stop (own, &error));
  g_assert_no_error (error);
  after = dump (fx);
  g_assert_cmpstr (after, ==, before);
  /* Once: a second stop does nothing. */
  g_assert_true (pgs_damon_own_stop (own, NULL));
  pgs_damon_own_free (own);
  g_clear_pointer (&after, g_free);
  after = dump (fx);
  g_assert_cmpstr (after, ==, before);
}

/* A process that started the monitor is killed with SIGKILL: its watchdog restores the
 * tree within a few seconds. */
static void
test_watchdog_after_sigkill (void)
{
  g_autoptr(PgsFixture) fx = free_tree ();
  g_autofree char *before = dump (fx);
  g_autofree char *after = NULL;
  int ready[2], status;
  pid_t child;
  char c = 0;

  g_assert_cmpint (pipe (ready), ==, 0);
  child = fork ();
  g_assert_cmpint (child, >=, 0);
  if (child == 0)
    {
      PgsDamonOwn *own = pgs_damon_own_start (ROOT (fx), ROOT (fx), NULL);

      c = own != NULL ? 'R' : 'F';
      if (write (ready[1], &c, 1) != 1)
        _exit (1);
      for (;;)
        pause ();
    }
  close (ready[1]);
  g_assert_cmpint (read (ready[0], &c, 1), ==, 1);
  close (ready[0]);
  g_assert_cmpint (c, ==, 'R');
  assert_file (fx, ADMIN "0/state", "on\n");
  assert_file (fx, CTX "operations", "paddr\n");

  kill (child, SIGKILL);
  g_assert_cmpint (waitpid (child, &status, 0), ==, child);
  g_assert_true (WIFSIGNALED (status));
  for (int i = 0; i < 100; i++)
    {
      g_clear_pointer (&after, g_free);
      after = dump (fx);
      if (strcmp (after, before) == 0)
        break;
      g_usleep (50000);
    }
  g_assert_cmpstr (after, ==, before);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/pgs/damon-own/start-stop", test_start_stop);
  g_test_add_func ("/pgs/damon-own/start-without-ram", test_start_without_ram);
  g_test_add_func ("/pgs/damon-own/refused", test_refused);
  g_test_add_func ("/pgs/damon-own/failed-midway", test_failed_midway);
  g_test_add_func ("/pgs/damon-own/not-ours", test_not_ours);
  g_test_add_func ("/pgs/damon-own/library", test_library);
  g_test_add_func ("/pgs/damon-own/watchdog-after-sigkill", test_watchdog_after_sigkill);
  return g_test_run ();
}
