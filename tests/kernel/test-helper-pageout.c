/* test-helper-pageout.c: pagescope-helper pages out ranges of a process on request
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A child of this test, running as nobody, maps 1.5 GiB and writes the first 32 MiB. A
 * helper started as pkexec would start it for nobody (polkit saying no to the change
 * action, which its own process does not need) pages those 32 MiB out: the kernel's
 * pagemap of the child then shows them swapped, and the child finds its data intact. A
 * range outside the child's maps, a range of root's process and malformed ranges are
 * refused. Needs root and swap (a zram device made for the test and removed after);
 * skips with the reason without.
 */

#define _GNU_SOURCE

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include "pagescope.h"
#include "pgs-helper-util.h"
#include "pgs-kernel-util.h"

#define NOBODY 65534
#define MAPPED (G_GUINT64_CONSTANT (1536) << 20)
#define WRITTEN (G_GUINT64_CONSTANT (32) << 20)
#define PM_SWAP (1ull << 62)
#define PM_PRESENT (1ull << 63)
#define NOT_INSIDE "ERR 22 a range is not inside one mapping of the process\n"

static const char *helper_path;
static const char *helper_test_path;
static char *tmpdir;
static char *swap_missing;
static pid_t root_target;

typedef struct
{
  pid_t   pid;
  guint64 base;       /* the mapping: [base, base + MAPPED), a hole after it */
  int     command;    /* write 'c': the child checks its data and answers 'y' or 'n' */
  int     answer;
} Child;

static guint64
pattern (guint64 address)
{
  return address * 0x9e3779b97f4a7c15ull + 20;
}

static void
child_start (Child *child)
{
  int command[2], answer[2];

  g_assert_no_errno (pipe (command));
  g_assert_no_errno (pipe (answer));
  child->pid = fork ();
  g_assert_cmpint (child->pid, >=, 0);
  if (child->pid == 0)
    {
      guint64 *words;
      char c = 'n';
      gboolean intact = TRUE;

      if (setresgid (NOBODY, NOBODY, NOBODY) != 0 || setresuid (NOBODY, NOBODY, NOBODY) != 0)
        _exit (126);
      words = mmap (NULL, MAPPED + 4096, PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
      if (words == MAP_FAILED || munmap ((char *) words + MAPPED, 4096) != 0)
        _exit (126);
      for (guint64 i = 0; i < WRITTEN / 8; i++)
        words[i] = pattern ((guint64) (words + i));
      if (write (answer[1], &words, sizeof words) != sizeof words ||
          read (command[0], &c, 1) != 1)
        _exit (125);
      for (guint64 i = 0; i < WRITTEN / 8; i++)
        intact &= words[i] == pattern ((guint64) (words + i));
      c = intact ? 'y' : 'n';
      if (write (answer[1], &c, 1) != 1)
        _exit (125);
      for (;;)
        pause ();
    }
  close (command[0]);
  close (answer[1]);
  child->command = command[1];
  child->answer = answer[0];
  g_assert_cmpint (read (child->answer, &child->base, sizeof child->base), ==, sizeof child->base);
  pgs_kernel_track_child (child->pid);
}

static gboolean
child_intact (Child *child)
{
  char c = 0;

  g_assert_cmpint (write (child->command, "c", 1), ==, 1);
  g_assert_cmpint (read (child->answer, &c, 1), ==, 1);
  return c == 'y';
}

static void
child_stop (Child *child)
{
  kill (child->pid, SIGKILL);
  waitpid (child->pid, NULL, 0);
  pgs_kernel_forget_child (child->pid);
  close (child->command);
  close (child->answer);
}

/* Pages of [start, end) of PID that pagemap shows swapped, and present. */
static void
count_pages (pid_t    pid,
             guint64  start,
             guint64  end,
             guint64 *swapped,
             guint64 *present)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/pagemap", (int) pid);
  g_autofree guint64 *entries = NULL;
  gsize page = (gsize) sysconf (_SC_PAGESIZE), n = (end - start) / page;
  int fd = open (path, O_RDONLY | O_CLOEXEC);

  g_assert_cmpint (fd, >=, 0);
  entries = g_new (guint64, n);
  g_assert_cmpint (pread (fd, entries, n * 8, (off_t) (start / page * 8)), ==, (ssize_t) (n * 8));
  close (fd);
  *swapped = *present = 0;
  for (gsize i = 0; i < n; i++)
    {
      *swapped += (entries[i] & PM_SWAP) != 0;
      *present += (entries[i] & PM_PRESENT) != 0;
    }
}

static char *
pageout_request (pid_t   pid,
                 guint64 start,
                 guint64 end)
{
  return g_strdup_printf ("PAGEOUT %d %" G_GINT64_MODIFIER "x-%" G_GINT64_MODIFIER "x\n",
                          (int) pid, start, end);
}

static char *
read_log (const char *pkcheck)
{
  g_autofree char *log = g_strconcat (pkcheck, ".log", NULL);
  char *text = NULL;

  return g_file_get_contents (log, &text, NULL, NULL) ? text : g_strdup ("");
}

/* nobody pages out its own process through the helper, unasked; what it wrote is then in
 * swap, by the kernel's pagemap, and intact when read back. */
static void
test_own (void)
{
  g_autofree char *deny = pgs_test_fake_pkcheck (tmpdir, "deny", 1);
  PgsTestHelper how = { helper_test_path, NOBODY, "65534", deny };
  g_autofree char *request = NULL;
  g_autofree char *log = NULL;
  guint64 page = (guint64) sysconf (_SC_PAGESIZE), swapped, present;
  Child child;
  pid_t pid;
  int sock, fd;

  if (swap_missing != NULL)
    {
      g_test_skip (swap_missing);
      return;
    }
  child_start (&child);
  count_pages (child.pid, child.base, child.base + WRITTEN, &swapped, &present);
  g_test_message ("before: %" G_GUINT64_FORMAT " pages present, %" G_GUINT64_FORMAT " swapped",
                  present, swapped);
  g_assert_cmpuint (present, ==, WRITTEN / page);

  sock = pgs_test_helper_start (&how, &pid);
  g_assert_cmpstr (pgs_test_helper_greeting (sock), ==, "PAGESCOPE-HELPER 1\n");
  request = pageout_request (child.pid, child.base, child.base + WRITTEN);
  g_assert_cmpstr (pgs_test_helper_request (sock, request, strlen (request), &fd), ==,
                   "OK 33554432 33554432\n");
  g_assert_cmpint (fd, ==, -1);
  count_pages (child.pid, child.base, child.base + WRITTEN, &swapped, &present);
  g_test_message ("after: %" G_GUINT64_FORMAT " pages present, %" G_GUINT64_FORMAT " swapped "
                  "of %" G_GUINT64_FORMAT, present, swapped, WRITTEN / page);
  /* Every page is in swap but those the kernel could not take that instant (isolated by
   * another reclaimer or by compaction): at most 1 %. */
  g_assert_cmpuint (swapped, >=, WRITTEN / page * 99 / 100);
  g_assert_cmpuint (swapped + present, ==, WRITTEN / page);

  /* Outside the maps: the page after the mapping (a hole the child made), a range that runs
   * into it, and a good range followed by one in it. Nothing of them is paged out. */
  {
    g_autofree char *after = pageout_request (child.pid, child.base + MAPPED,
                                              child.base + MAPPED + page);
    g_autofree char *into = pageout_request (child.pid, child.base, child.base + MAPPED + page);
    g_autofree char *two = g_strdup_printf ("PAGEOUT %d %" G_GINT64_MODIFIER "x-%"
                                            G_GINT64_MODIFIER "x %" G_GINT64_MODIFIER "x-%"
                                            G_GINT64_MODIFIER "x\n", (int) child.pid,
                                            child.base, child.base + page,
                                            child.base + MAPPED, child.base + MAPPED + page);

    g_assert_cmpstr (pgs_test_helper_request (sock, after, strlen (after), &fd), ==, NOT_INSIDE);
    g_assert_cmpstr (pgs_test_helper_request (sock, into, strlen (into), &fd), ==, NOT_INSIDE);
    g_assert_cmpstr (pgs_test_helper_request (sock, two, strlen (two), &fd), ==, NOT_INSIDE);
  }
  log = read_log (deny);
  g_assert_cmpstr (log, ==, "");

  /* Root's process is not nobody's: polkit is asked, and says no. */
  {
    g_autofree char *root = pageout_request (root_target, 0x1000, 0x2000);

    g_assert_cmpstr (pgs_test_helper_request (sock, root, strlen (root), &fd), ==,
                     "ERR 13 not authorised to change another user's process (polkit action "
                     "io.github.pagescope.Pagescope.change)\n");
    g_clear_pointer (&log, g_free);
    log = read_log (deny);
    g_assert_cmpuint (strlen (log), >, 0);
  }
  close (sock);
  g_assert_cmpint (pgs_test_wait_exit (pid), ==, 0);

  /* What it wrote comes back from swap as it was. */
  g_assert_true (child_intact (&child));
  child_stop (&child);
}

/* The client: batches of at most 256 MiB and 64 ranges over a 1.5 GiB mapping, the
 * figures summed; cancellation between batches; bad ranges refused before sending. */
static void
test_client (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(PgsHelper) helper = NULL;
  g_autoptr(GCancellable) cancelled = g_cancellable_new ();
  PgsTestHelper how = { helper_path, 0, NULL, NULL };
  guint64 page = (guint64) sysconf (_SC_PAGESIZE), advised = 1, swapped, present;
  guint64 starts[100], ends[100];
  Child child;
  pid_t pid;

  if (swap_missing != NULL)
    {
      g_test_skip (swap_missing);
      return;
    }
  child_start (&child);
  helper = pgs_helper_new_for_fd (pgs_test_helper_start (&how, &pid), &error);
  g_assert_no_error (error);

  /* The whole mapping in one range: 1.5 GiB, six requests. */
  starts[0] = child.base;
  ends[0] = child.base + MAPPED;
  g_assert_true (pgs_helper_pageout (helper, child.pid, starts, ends, 1, &advised, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (advised, ==, MAPPED);
  count_pages (child.pid, child.base, child.base + WRITTEN, &swapped, &present);
  g_assert_cmpuint (swapped, >=, WRITTEN / page * 99 / 100);

  /* 100 ranges of 16 pages, 64 apart: two requests (64 and 36 ranges). */
  for (guint i = 0; i < 100; i++)
    {
      starts[i] = child.base + i * 64 * page;
      ends[i] = starts[i] + 16 * page;
    }
  g_assert_true (pgs_helper_pageout (helper, child.pid, starts, ends, 100, &advised, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (advised, ==, 100 * 16 * page);

  g_cancellable_cancel (cancelled);
  g_assert_false (pgs_helper_pageout (helper, child.pid, starts, ends, 100, &advised, cancelled,
                                      &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpuint (advised, ==, 0);
  g_clear_error (&error);

  /* Not page-aligned, overlapping: refused here. Outside the maps: by the helper. */
  starts[1] = ends[0] - page;
  g_assert_false (pgs_helper_pageout (helper, child.pid, starts, ends, 2, &advised, NULL, &error));
  g_assert_error (error, PGS_ERROR, PGS_ERROR_FAILED);
  g_clear_error (&error);
  starts[0] = child.base + 1;
  g_assert_false (pgs_helper_pageout (helper, child.pid, starts, ends, 1, &advised, NULL, &error));
  g_assert_error (error, PGS_ERROR, PGS_ERROR_FAILED);
  g_clear_error (&error);
  starts[0] = child.base + MAPPED;
  ends[0] = starts[0] + page;
  g_assert_false (pgs_helper_pageout (helper, child.pid, starts, ends, 1, &advised, NULL, &error));
  g_test_message ("%s", error->message);
  g_assert_error (error, PGS_ERROR, PGS_ERROR_FAILED);
  g_assert_nonnull (strstr (error->message, "not inside one mapping"));
  g_clear_error (&error);
  /* A process that is gone. */
  starts[0] = 0x1000;
  ends[0] = 0x2000;
  g_assert_false (pgs_helper_pageout (helper, 4194304, starts, ends, 1, &advised, NULL, &error));
  g_assert_error (error, PGS_ERROR, PGS_ERROR_PROCESS_GONE);
  g_clear_error (&error);

  g_assert_true (child_intact (&child));
  child_stop (&child);
  g_clear_object (&helper);
  g_assert_cmpint (pgs_test_wait_exit (pid), ==, 0);
}

int
main (int   argc,
      char *argv[])
{
  int ret;

  pgs_kernel_init ();
  g_test_init (&argc, &argv, NULL);

  helper_path = g_getenv ("PGS_HELPER");
  helper_test_path = g_getenv ("PGS_HELPER_TEST");
  g_assert_nonnull (helper_path);
  g_assert_nonnull (helper_test_path);
  tmpdir = pgs_kernel_make_tmpdir ("helper-pageout");
  root_target = pgs_test_start_idle (0);
  if (!pgs_kernel_setup_swap (&swap_missing))
    g_assert_nonnull (swap_missing);

  g_test_add_func ("/pgs/helper/pageout/own", test_own);
  g_test_add_func ("/pgs/helper/pageout/client", test_client);

  ret = g_test_run ();
  pgs_kernel_teardown_swap ();
  return ret;
}
