/* test-zram.c: pagescope-cli system against a zram swap device's own mm_stat
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * With swap on zram (made for the test where there is none, and removed after): a child
 * writes 16 MiB of compressible (not same-filled) data and pushes it out (MADV_PAGEOUT). The RAM behind
 * swap that `system --json` reports equals the zram swap devices' mm_stat mem_used_total,
 * and the child's estimate equals its swap × mem_used_total / orig_data_size, both read here
 * from sysfs. Skips (77) without root or where no zram swap can be had.
 */

#include "config.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <pagescope.h>

#include "pgs-kernel-util.h"
#include "pgs-test-json.h"

#ifndef MADV_PAGEOUT
#define MADV_PAGEOUT 21
#endif

#define CHILD_BYTES (16u << 20)

static pid_t child = -1;

/* Sums over the active zram swap devices, read from sysfs; FALSE if some swap is not zram. */
static gboolean
read_zram (guint64 *orig,
           guint64 *used)
{
  g_autofree char *swaps = NULL;
  g_auto(GStrv) lines = NULL;
  guint n = 0;

  *orig = *used = 0;
  if (!g_file_get_contents ("/proc/swaps", &swaps, NULL, NULL))
    return FALSE;
  lines = g_strsplit (swaps, "\n", -1);
  /* The header, then "/dev/zramN  partition  size  used  priority" per area. */
  for (guint i = 1; lines[i] != NULL; i++)
    {
      g_autofree char *path = NULL;
      g_autofree char *buf = NULL;
      char device[256];
      guint64 v[3];

      if (sscanf (lines[i], "%255s", device) != 1)
        continue;
      if (!g_str_has_prefix (device, "/dev/zram"))
        return FALSE;
      path = g_strdup_printf ("/sys/block/%s/mm_stat", device + strlen ("/dev/"));
      if (!g_file_get_contents (path, &buf, NULL, NULL) ||
          sscanf (buf, "%" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT,
                  &v[0], &v[1], &v[2]) != 3)
        return FALSE;
      *orig += v[0];
      *used += v[2];
      n++;
    }
  return n > 0;
}

static guint64
json_number_after (const char *text,
                   const char *key)
{
  const char *p = strstr (text, key);

  g_assert_nonnull (p);
  p += strlen (key);
  g_assert_true (g_ascii_isdigit (*p));
  return g_ascii_strtoull (p, NULL, 10);
}

static guint64
vm_swap (pid_t pid)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/status", pid);
  g_autofree char *buf = NULL;
  const char *p;

  if (!g_file_get_contents (path, &buf, NULL, NULL) || (p = strstr (buf, "VmSwap:")) == NULL)
    return 0;
  return g_ascii_strtoull (p + 7, NULL, 10) * 1024;
}

static void
test_swap_ram (void)
{
  int ready[2];
  guint64 orig = 0, used = 0, orig2 = 0, used2 = 0;
  g_autofree char *out = NULL;
  char byte;

  g_assert_cmpint (pipe (ready), ==, 0);
  child = fork ();
  g_assert_cmpint (child, >=, 0);
  if (child == 0)
    {
      unsigned char *m = mmap (NULL, CHILD_BYTES, PROT_READ | PROT_WRITE,
                               MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

      prctl (PR_SET_PDEATHSIG, SIGKILL);
      if (m == MAP_FAILED)
        _exit (1);
      /* One random byte in 16, a pattern around it: compressible, not same-filled. */
      for (gsize i = 0; i < CHILD_BYTES; i++)
        m[i] = (i & 15) == 0 ? (unsigned char) g_random_int () : (unsigned char) (i >> 12);
      madvise (m, CHILD_BYTES, MADV_PAGEOUT);
      if (write (ready[1], "r", 1) != 1)
        _exit (1);
      for (;;)
        pause ();
    }
  close (ready[1]);
  g_assert_cmpint (read (ready[0], &byte, 1), ==, 1);
  close (ready[0]);

  if (vm_swap (child) == 0)
    {
      g_test_skip ("MADV_PAGEOUT swapped nothing out (no room in swap, or the kernel declined)");
      return;
    }

  for (int attempt = 0; attempt < 20; attempt++)
    {
      g_autofree char *err = NULL;
      const char *argv[] = { g_getenv ("PAGESCOPE_CLI"), "system", "--json", NULL };
      int status = 0;

      g_clear_pointer (&out, g_free);
      g_assert_true (read_zram (&orig, &used));
      g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL,
                                   &out, &err, &status, NULL));
      g_assert_true (read_zram (&orig2, &used2));
      if (orig == orig2 && used == used2)
        break;
      g_usleep (100000);
    }
  g_assert_cmpuint (orig, ==, orig2);
  g_assert_cmpuint (used, ==, used2);

  pgs_test_assert_json (out);
  /* Machine-wide: exactly mm_stat's mem_used_total. */
  g_assert_cmpuint (json_number_after (out, "\"swap_ram\":"), ==, used);

  /* The child: its swap (the scanner's) and the estimate from the test's own mm_stat. */
  {
    g_autofree char *key = g_strdup_printf ("{\"pid\":%d,", child);
    const char *obj = strstr (out, key);
    guint64 swap, estimate;

    g_assert_nonnull (obj);
    swap = json_number_after (obj, "\"swap\":");
    estimate = json_number_after (obj, "\"swap_ram_estimate\":");
    g_assert_cmpuint (swap, ==, vm_swap (child));
    g_assert_cmpuint (swap, >, 0);
    g_assert_cmpuint (estimate, ==, swap * used / orig);
    /* Compressed: less RAM than the data it holds. */
    g_assert_cmpuint (estimate, <, swap);
  }
}

static void
cleanup (void)
{
  if (child > 0)
    {
      kill (child, SIGKILL);
      waitpid (child, NULL, 0);
      child = -1;
    }
  pgs_kernel_teardown_swap ();
}

static void
on_signal (int sig)
{
  cleanup ();
  signal (sig, SIG_DFL);
  raise (sig);
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *message = NULL;
  guint64 orig, used;
  int ret;

  g_test_init (&argc, &argv, NULL);
  pgs_kernel_require_root ();
  if (!pgs_kernel_setup_swap (&message))
    {
      g_print ("1..0 # SKIP %s\n", message);
      return 77;
    }
  atexit (cleanup);
  signal (SIGTERM, on_signal);
  signal (SIGINT, on_signal);
  /* A failed assertion aborts: the swap must go all the same. */
  signal (SIGABRT, on_signal);
  if (!read_zram (&orig, &used))
    {
      g_print ("1..0 # SKIP swap is active on a device that is not zram\n");
      return 77;
    }

  g_test_add_func ("/pgs/kernel/zram/swap-ram", test_swap_ram);
  ret = g_test_run ();
  cleanup ();
  return ret;
}
