/* pgs-kernel-util.c
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The cleanup runs from a signal handler too, so what it needs is kept in fixed arrays
 * filled in advance and it calls only system calls and opendir/readdir.
 */

#define _GNU_SOURCE

#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/swap.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pgs-kernel-probe.h"
#include "pgs-kernel-util.h"

#define MAX_TRACKED 32
#define SWAP_LABEL_OFFSET 1052   /* swap header: 1024 boot bytes, version, last_page,
                                  * nr_badpages, uuid[16], then the label[16] */

static char tmpdirs[MAX_TRACKED][256];
static int children[MAX_TRACKED];
static char zram_device[64];     /* set when we made the swap ourselves */
static char zram_sysfs[64];
static volatile sig_atomic_t cleaning;

void
pgs_kernel_require_root (void)
{
  if (geteuid () != 0)
    {
      g_printerr ("kernel tests need root (kpagecount, kpageflags, other pagemaps): skipped\n");
      exit (77);
    }
}

gboolean
pgs_kernel_read_rollup (int             pid,
                        PgsSmapsFields *fields)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/smaps_rollup", pid);
  g_autofree char *text = NULL;
  gsize len;

  if (!g_file_get_contents (path, &text, &len, NULL))
    return FALSE;
  return pgs_smaps_rollup_parse (text, len, fields, NULL);
}

/* Signal-safe: writes @value to a sysfs file. */
static gboolean
write_sysfs (const char *path,
             const char *value)
{
  int fd = open (path, O_WRONLY | O_CLOEXEC);
  gboolean ok;

  if (fd < 0)
    return FALSE;
  ok = write (fd, value, strlen (value)) == (ssize_t) strlen (value);
  close (fd);
  return ok;
}

/* Signal-safe: removes a flat directory and the files in it. */
static void
remove_flat_dir (const char *dir)
{
  DIR *d = opendir (dir);
  struct dirent *e;

  if (d != NULL)
    {
      while ((e = readdir (d)) != NULL)
        if (strcmp (e->d_name, ".") != 0 && strcmp (e->d_name, "..") != 0)
          unlinkat (dirfd (d), e->d_name, 0);
      closedir (d);
    }
  rmdir (dir);
}

/* Signal-safe: swapoff, reset, and give back a device we added. */
static void
release_zram (const char *device,
              const char *sysfs)
{
  char path[128];

  swapoff (device);
  snprintf (path, sizeof path, "%s/reset", sysfs);
  write_sysfs (path, "1");
  if (strcmp (device, "/dev/zram0") != 0)
    write_sysfs ("/sys/class/zram-control/hot_remove", device + strlen ("/dev/zram"));
}

static void
cleanup (void)
{
  if (cleaning)
    return;
  cleaning = 1;
  for (guint i = 0; i < MAX_TRACKED; i++)
    if (children[i] > 0)
      {
        kill (children[i], SIGKILL);
        children[i] = 0;
      }
  for (guint i = 0; i < MAX_TRACKED; i++)
    if (tmpdirs[i][0] != '\0')
      {
        remove_flat_dir (tmpdirs[i]);
        tmpdirs[i][0] = '\0';
      }
  if (zram_device[0] != '\0')
    {
      release_zram (zram_device, zram_sysfs);
      zram_device[0] = '\0';
    }
  cleaning = 0;
}

static void
on_fatal_signal (int sig)
{
  cleanup ();
  signal (sig, SIG_DFL);
  raise (sig);
}

/* The PID at the start of @s (up to a '-' or the end), or 0. */
static int
leading_pid (const char *s)
{
  char *end = NULL;
  guint64 pid = g_ascii_strtoull (s, &end, 10);

  if (end == s || (*end != '-' && *end != '\0') || pid == 0 || pid > G_MAXINT)
    return 0;
  return (int) pid;
}

static gboolean
pid_dead (int pid)
{
  return kill (pid, 0) != 0 && errno == ESRCH;
}

/* "pgstest-PID" from a swap header, or FALSE. */
static gboolean
read_swap_label (const char *device,
                 char        label[17])
{
  int fd = open (device, O_RDONLY | O_CLOEXEC);
  gboolean ok;

  if (fd < 0)
    return FALSE;
  memset (label, 0, 17);
  ok = pread (fd, label, 16, SWAP_LABEL_OFFSET) == 16;
  close (fd);
  return ok && g_str_has_prefix (label, "pgstest-");
}

guint
pgs_kernel_sweep (void)
{
  g_autoptr(GDir) tmp = g_dir_open (g_get_tmp_dir (), 0, NULL);
  g_autoptr(GDir) block = g_dir_open ("/sys/block", 0, NULL);
  const char *name;
  guint swept = 0;

  while (tmp != NULL && (name = g_dir_read_name (tmp)) != NULL)
    {
      int pid;

      if (!g_str_has_prefix (name, "pagescope-test-"))
        continue;
      pid = leading_pid (name + strlen ("pagescope-test-"));
      if (pid > 0 && pid_dead (pid))
        {
          g_autofree char *path = g_build_filename (g_get_tmp_dir (), name, NULL);

          g_print ("# sweep: removing %s (PID %d is gone)\n", path, pid);
          remove_flat_dir (path);
          swept++;
        }
    }

  while (block != NULL && (name = g_dir_read_name (block)) != NULL)
    {
      g_autofree char *device = g_strdup_printf ("/dev/%s", name);
      g_autofree char *sysfs = g_strdup_printf ("/sys/block/%s", name);
      char label[17];
      int pid;

      if (!g_str_has_prefix (name, "zram") || !read_swap_label (device, label))
        continue;
      pid = leading_pid (label + strlen ("pgstest-"));
      if (pid > 0 && pid_dead (pid))
        {
          g_print ("# sweep: releasing %s (swap labelled %s; PID %d is gone)\n", device, label, pid);
          release_zram (device, sysfs);
          swept++;
        }
    }
  return swept;
}

void
pgs_kernel_init (void)
{
  static const int signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGABRT, SIGSEGV, SIGBUS };

  pgs_kernel_require_root ();
  pgs_kernel_sweep ();
  atexit (cleanup);
  for (guint i = 0; i < G_N_ELEMENTS (signals); i++)
    signal (signals[i], on_fatal_signal);
  pgs_kernel_probe ();
}

char *
pgs_kernel_make_tmpdir (const char *what)
{
  g_autofree char *tmpl = g_strdup_printf ("pagescope-test-%d-%s-XXXXXX", (int) getpid (), what);
  g_autoptr(GError) error = NULL;
  char *dir = g_dir_make_tmp (tmpl, &error);

  g_assert_no_error (error);
  for (guint i = 0; i < MAX_TRACKED; i++)
    if (tmpdirs[i][0] == '\0')
      {
        g_assert_cmpuint (strlen (dir), <, sizeof tmpdirs[i]);
        strcpy (tmpdirs[i], dir);
        return dir;
      }
  g_error ("more than %d temporary directories", MAX_TRACKED);
}

char *
pgs_kernel_copy_for_user (const char    *path,
                          unsigned int   uid,
                          char         **why)
{
  g_autofree char *base = g_path_get_basename (path);
  g_autofree char *dir = pgs_kernel_make_tmpdir ("run");
  g_autofree char *copy = g_build_filename (dir, base, NULL);
  g_autofree char *contents = NULL;
  g_autoptr(GError) error = NULL;
  gsize len;
  int status;
  pid_t pid;

  if (!g_file_get_contents (path, &contents, &len, &error) ||
      !g_file_set_contents_full (copy, contents, (gssize) len, G_FILE_SET_CONTENTS_NONE, 0755,
                                 &error))
    {
      *why = g_strdup_printf ("cannot copy %s: %s", path, error->message);
      return NULL;
    }
  g_assert_no_errno (chmod (dir, 0755));
  /* Whether @uid can run it is the kernel's to say: ask it as that user. */
  pid = fork ();
  g_assert_cmpint (pid, >=, 0);
  if (pid == 0)
    _exit (setresgid (uid, uid, uid) == 0 && setresuid (uid, uid, uid) == 0 &&
           access (copy, X_OK) == 0 ? 0 : 1);
  g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
  if (!WIFEXITED (status) || WEXITSTATUS (status) != 0)
    {
      *why = g_strdup_printf ("user %u cannot run %s: the temporary folder %s is closed to it",
                              uid, copy, g_get_tmp_dir ());
      return NULL;
    }
  return g_steal_pointer (&copy);
}

void
pgs_kernel_track_child (int pid)
{
  for (guint i = 0; i < MAX_TRACKED; i++)
    if (children[i] == 0)
      {
        children[i] = pid;
        return;
      }
  g_error ("more than %d children", MAX_TRACKED);
}

void
pgs_kernel_forget_child (int pid)
{
  for (guint i = 0; i < MAX_TRACKED; i++)
    if (children[i] == pid)
      children[i] = 0;
}

/* An active swap area that is not a test's own. */
static gboolean
other_swap_active (void)
{
  g_autofree char *swaps = NULL;
  g_auto(GStrv) lines = NULL;

  if (!g_file_get_contents ("/proc/swaps", &swaps, NULL, NULL))
    return FALSE;
  lines = g_strsplit (swaps, "\n", -1);
  for (guint i = 1; lines[i] != NULL; i++)
    {
      g_autofree char *device = NULL;
      char label[17];

      if (lines[i][0] == '\0')
        continue;
      device = g_strndup (lines[i], strcspn (lines[i], " \t"));
      if (!read_swap_label (device, label))
        return TRUE;
    }
  return FALSE;
}

gboolean
pgs_kernel_setup_swap (char **message)
{
  return pgs_kernel_setup_swap_sized (256u << 20, message);
}

gboolean
pgs_kernel_setup_swap_sized (guint64   bytes,
                             char    **message)
{
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autofree char *label = g_strdup_printf ("pgstest-%d", (int) getpid ());
  g_autofree char *id = NULL;
  g_autofree char *disksize_path = NULL;
  g_autofree char *disksize = g_strdup_printf ("%" G_GUINT64_FORMAT, bytes);
  int status = 0;
  const char *argv_mkswap[] = { "mkswap", "-L", label, NULL, NULL };

  if (zram_device[0] != '\0')
    return TRUE;

  /* A device of our own at the highest priority, even where other swap is active: pages
   * paged out go to the highest-priority area, and another program (another test run on a
   * shared machine) may swapoff its own area mid-test, bringing ours back in. Existing swap
   * is used only where no zram device can be made. */
  if (!g_file_test ("/sys/class/zram-control", G_FILE_TEST_IS_DIR))
    {
      const char *argv_modprobe[] = { "modprobe", "zram", NULL };

      g_spawn_sync (NULL, (char **) argv_modprobe, NULL,
                    G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL,
                    NULL, NULL, NULL, NULL, NULL, NULL);
    }
  if (!g_file_get_contents ("/sys/class/zram-control/hot_add", &id, NULL, NULL))
    {
      if (other_swap_active ())
        return TRUE;
      *message = g_strdup ("no swap, and no zram device to make one (modprobe zram)");
      return FALSE;
    }
  g_strstrip (id);
  g_snprintf (zram_device, sizeof zram_device, "/dev/zram%s", id);
  g_snprintf (zram_sysfs, sizeof zram_sysfs, "/sys/block/zram%s", id);

  disksize_path = g_build_filename (zram_sysfs, "disksize", NULL);
  if (!write_sysfs (disksize_path, disksize))
    {
      *message = g_strdup_printf ("cannot write %s", disksize_path);
      goto fail;
    }
  argv_mkswap[3] = zram_device;
  if (!g_spawn_sync (NULL, (char **) argv_mkswap, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL,
                     &out, &err, &status, NULL) || !g_spawn_check_wait_status (status, NULL))
    {
      *message = g_strdup_printf ("mkswap %s failed: %s", zram_device, err ? err : "");
      goto fail;
    }
  if (swapon (zram_device, SWAP_FLAG_PREFER | (SWAP_FLAG_PRIO_MASK & 32767)) != 0)
    {
      *message = g_strdup_printf ("swapon %s: %s", zram_device, g_strerror (errno));
      goto fail;
    }
  g_print ("# swap: %s (%s), %" G_GUINT64_FORMAT " MiB, for this test\n", zram_device, label,
           bytes >> 20);
  return TRUE;

fail:
  pgs_kernel_teardown_swap ();
  return FALSE;
}

void
pgs_kernel_teardown_swap (void)
{
  if (zram_device[0] == '\0')
    return;
  release_zram (zram_device, zram_sysfs);
  zram_device[0] = '\0';
}
