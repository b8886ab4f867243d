/* bench-cli.c: the pagescope-cli process a user runs, against the least a program can do
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Times whole processes, exec to exit, in interleaved rounds (reference, CLI, reference, ...),
 * wall time and CPU time (user + system, from wait4: the process's own, every thread):
 *   memrank:    `pagescope-cli memrank --json`  vs  pgs-rollup-reader (reads every
 *               /proc/PID/smaps_rollup: the kernel computing every figure itself);
 *               goal 1.2x, 1.3x with the 16 processes; and vs `pgs-rollup-reader
 *               --same-files`, which also reads the status and cmdline whose user, name,
 *               parent, VSS and command line memrank prints: the floor of what it shows;
 *   nosuchname: `pagescope-cli memrank --json nosuchname` (a filter that keeps nothing)
 *               vs  `pgs-name-filter-glib nosuchname` (a minimal GLib program: lists /proc,
 *               reads every comm, as the CLI's filter does; goal 1.2x) and vs the same in
 *               plain C, `pgs-name-filter` (what is left is loading and starting GLib too).
 * on the machine as it is, then with a generated load of 16 processes and about 428 k
 * resident pages in four kinds of sharing (private, copy-on-write after fork, shared
 * anonymous, shared file), then with 200 and 800 extra small processes. Prints the medians,
 * the medians of the per-round ratios (wall and CPU side by side), the CLI's peak RSS, and
 * the load average before each comparison (the machine may be shared: the ratios are
 * pairwise, the absolute times are not to be compared across runs).
 *
 *   meson test -C build --benchmark --verbose cli
 *                     (bench-cli CLI READER NAME-FILTER GLIB-NAME-FILTER)
 *
 * --startup: only nosuchname, on the machine as it is, in 101 rounds (a start-up is a few
 * milliseconds), also `pagescope-cli --version` against the same yardsticks:
 *
 *   meson test -C build --benchmark --verbose cli-startup
 *                     (bench-cli --startup CLI READER NAME-FILTER GLIB-NAME-FILTER)
 *
 * The load is killed and reaped on every way out: normal exit, a failed check, a signal;
 * if this process dies outright, its children die with it (PR_SET_PDEATHSIG).
 */

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <glib.h>

#define N_LOAD         16
#define PRIVATE_PAGES  (14 * 1024)   /* per process */
#define COW_PAGES      (4 * 1024)    /* written before fork, mapped by all 16 */
#define SHM_PAGES      (4 * 1024)    /* shared anonymous, touched by all 16 */
#define FILE_PAGES     (4 * 1024)    /* a shared file mapping, touched by all 16 */
#define ROUNDS         11
#define STARTUP_ROUNDS 101

static pid_t load[N_LOAD];
static pid_t spawner = -1;
static int spawner_cmd = -1;

static void
stop_load (void)
{
  for (int i = 0; i < N_LOAD; i++)
    if (load[i] > 0)
      {
        kill (load[i], SIGKILL);
        waitpid (load[i], NULL, 0);
        load[i] = 0;
      }
  if (spawner > 0)
    {
      /* The spawner kills and reaps its children when its command pipe closes. */
      close (spawner_cmd);
      waitpid (spawner, NULL, 0);
      spawner = -1;
    }
}

static void
on_signal (int sig)
{
  stop_load ();
  signal (sig, SIG_DFL);
  raise (sig);
}

static void
die_with_parent (pid_t parent)
{
  prctl (PR_SET_PDEATHSIG, SIGKILL);
  if (getppid () != parent)
    _exit (1);
}

/* A small process made before any load is mapped: forks N sleepers on each byte it reads,
 * and on end of file kills and reaps them. */
static void
run_spawner (int cmd)
{
  GArray *kids = g_array_new (FALSE, FALSE, sizeof (pid_t));
  guint16 n;

  while (read (cmd, &n, sizeof n) == sizeof n)
    {
      pid_t self = getpid ();
      int ready[2];
      char c;

      if (pipe (ready) != 0)
        _exit (1);
      for (guint i = 0; i < n; i++)
        {
          pid_t pid = fork ();

          if (pid == 0)
            {
              die_with_parent (self);
              close (ready[0]);
              close (ready[1]);
              for (;;)
                pause ();
            }
          if (pid > 0)
            g_array_append_val (kids, pid);
        }
      close (ready[1]);
      /* Every sleeper has closed its copy of the write end: all of them exist. */
      while (read (ready[0], &c, 1) > 0)
        ;
      close (ready[0]);
    }
  for (guint i = 0; i < kids->len; i++)
    kill (g_array_index (kids, pid_t, i), SIGKILL);
  for (guint i = 0; i < kids->len; i++)
    waitpid (g_array_index (kids, pid_t, i), NULL, 0);
  _exit (0);
}

static void
start_spawner (void)
{
  pid_t parent = getpid ();
  int cmd[2];

  g_assert_no_errno (pipe (cmd));
  spawner = fork ();
  g_assert (spawner >= 0);
  if (spawner == 0)
    {
      die_with_parent (parent);
      close (cmd[1]);
      run_spawner (cmd[0]);
    }
  close (cmd[0]);
  spawner_cmd = cmd[1];
}

static void
add_sleepers (guint16 n)
{
  g_assert_cmpint (write (spawner_cmd, &n, sizeof n), ==, sizeof n);
  /* Wait for them to show in /proc: the spawner forks them at once. */
  g_usleep (200 * 1000);
}

static void
touch (volatile char *p,
       gsize          len,
       long           ps)
{
  char sum = 0;

  for (gsize off = 0; off < len; off += ps)
    sum += p[off];
  (void) sum;
}

static void
start_load (void)
{
  long ps = sysconf (_SC_PAGESIZE);
  pid_t parent = getpid ();
  g_autofree char *path = g_build_filename (g_get_tmp_dir (), "bench-cli-XXXXXX", NULL);
  char *cow, *shm, *file;
  int fd, ready[2];

  cow = mmap (NULL, COW_PAGES * ps, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  shm = mmap (NULL, SHM_PAGES * ps, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  g_assert (cow != MAP_FAILED && shm != MAP_FAILED);
  memset (cow, 1, COW_PAGES * ps);
  memset (shm, 2, SHM_PAGES * ps);

  /* Unlinked at once: nothing is left on disk whatever happens next. */
  fd = g_mkstemp (path);
  g_assert_cmpint (fd, >=, 0);
  unlink (path);
  g_assert_no_errno (ftruncate (fd, (off_t) FILE_PAGES * ps));
  file = mmap (NULL, FILE_PAGES * ps, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  g_assert (file != MAP_FAILED);
  memset (file, 3, FILE_PAGES * ps);
  close (fd);

  g_assert_no_errno (pipe (ready));
  for (int i = 0; i < N_LOAD; i++)
    {
      pid_t pid = fork ();

      g_assert (pid >= 0);
      if (pid == 0)
        {
          char *priv;

          die_with_parent (parent);
          close (ready[0]);
          priv = mmap (NULL, PRIVATE_PAGES * ps, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
          if (priv == MAP_FAILED)
            _exit (1);
          memset (priv, 4 + i, PRIVATE_PAGES * ps);
          touch (shm, SHM_PAGES * ps, ps);
          touch (file, FILE_PAGES * ps, ps);
          close (ready[1]);
          for (;;)
            pause ();
        }
      load[i] = pid;
    }
  close (ready[1]);
  {
    char c;

    while (read (ready[0], &c, 1) > 0)
      ;
  }
  close (ready[0]);
  /* The 16 keep sharing them; this process lets go, so that its own memory stays out of
   * the CLI's peak RSS (exec counts the memory of the process it replaces). */
  munmap (cow, COW_PAGES * ps);
  munmap (shm, SHM_PAGES * ps);
  munmap (file, FILE_PAGES * ps);
}

typedef struct
{
  double   ms;
  double   cpu_ms;
  glong    maxrss_kib;
} Run;

static double
timeval_ms (const struct timeval *tv)
{
  return tv->tv_sec * 1e3 + tv->tv_usec / 1e3;
}

static Run
run_once (char **argv)
{
  struct timespec t0, t1;
  struct rusage ru;
  Run run = { 0 };
  int status;
  pid_t pid;

  /* fork, not posix_spawn: exec counts the peak of the memory it replaces, and a vfork
   * child's is this process's high-water mark. */
  clock_gettime (CLOCK_MONOTONIC, &t0);
  pid = fork ();
  g_assert (pid >= 0);
  if (pid == 0)
    {
      int null = open ("/dev/null", O_WRONLY);

      dup2 (null, 1);
      dup2 (null, 2);
      execv (argv[0], argv);
      _exit (127);
    }
  g_assert_cmpint (wait4 (pid, &status, 0, &ru), ==, pid);
  clock_gettime (CLOCK_MONOTONIC, &t1);
  if (!WIFEXITED (status) || WEXITSTATUS (status) > 1)
    g_error ("%s exited with status %d", argv[0], status);
  run.ms = (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6;
  run.cpu_ms = timeval_ms (&ru.ru_utime) + timeval_ms (&ru.ru_stime);
  run.maxrss_kib = ru.ru_maxrss;
  return run;
}

static int
compare_double (gconstpointer a,
                gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

static double
median (double *v,
        guint   n)
{
  qsort (v, n, sizeof *v, (GCompareFunc) compare_double);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static guint rounds = ROUNDS;

/* The 1-minute load average, printed beside every figure. */
static char *
load_average (void)
{
  g_autofree char *text = NULL;

  if (!g_file_get_contents ("/proc/loadavg", &text, NULL, NULL))
    return g_strdup ("?");
  return g_strndup (text, strcspn (text, " "));
}

/* Several yardsticks: each round runs every reference, then the command, so that each
 * ratio is of runs a few milliseconds apart. */
static void
compare_many (const char  *label,
              char       **cmd,
              guint        n_refs,
              const char **ref_names,
              char      ***refs,
              const char  *goal)
{
  double cmd_ms[STARTUP_ROUNDS], cmd_cpu[STARTUP_ROUNDS];
  double ref_ms[3][STARTUP_ROUNDS], ref_cpu[3][STARTUP_ROUNDS];
  double ratio_ms[3][STARTUP_ROUNDS], ratio_cpu[3][STARTUP_ROUNDS];
  g_autofree char *load = load_average ();
  glong peak = 0;

  g_assert (n_refs <= 3);
  for (guint k = 0; k < n_refs; k++)
    run_once (refs[k]);
  run_once (cmd);
  for (guint r = 0; r < rounds; r++)
    {
      Run a;

      for (guint k = 0; k < n_refs; k++)
        {
          Run b = run_once (refs[k]);

          ref_ms[k][r] = b.ms;
          ref_cpu[k][r] = b.cpu_ms;
        }
      a = run_once (cmd);
      cmd_ms[r] = a.ms;
      cmd_cpu[r] = a.cpu_ms;
      for (guint k = 0; k < n_refs; k++)
        {
          ratio_ms[k][r] = a.ms / ref_ms[k][r];
          ratio_cpu[k][r] = ref_cpu[k][r] > 0 ? a.cpu_ms / ref_cpu[k][r] : G_MAXDOUBLE;
        }
      peak = MAX (peak, a.maxrss_kib);
    }
  g_print ("%s  (load %s, %u rounds, peak RSS %ld KiB)\n", label, load, rounds, peak);
  g_print ("  %-22s wall %8.2f ms  cpu %7.2f ms\n", "pagescope-cli",
           median (cmd_ms, rounds), median (cmd_cpu, rounds));
  for (guint k = 0; k < n_refs; k++)
    {
      double rw = median (ratio_ms[k], rounds), rc = median (ratio_cpu[k], rounds);

      g_print ("  %-22s wall %8.2f ms  cpu %7.2f ms   ratio wall %5.2fx  cpu %5.2fx%s%s\n",
               ref_names[k], median (ref_ms[k], rounds), median (ref_cpu[k], rounds), rw, rc,
               k == 0 ? "  goal <= " : "", k == 0 ? goal : "");
    }
}

static guint
count_processes (void)
{
  g_autoptr(GDir) dir = g_dir_open ("/proc", 0, NULL);
  const char *name;
  guint n = 0;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    n += g_ascii_isdigit (name[0]);
  return n;
}

static void
compare_all (const char *phase,
             const char *cli,
             const char *reader,
             const char *filter,
             const char *glib_filter,
             const char *goal)
{
  char *memrank[] = { (char *) cli, "memrank", "--json", NULL };
  char *nosuch[] = { (char *) cli, "memrank", "--json", "nosuchname", NULL };
  char *rollup[] = { (char *) reader, NULL };
  char *same[] = { (char *) reader, "--same-files", NULL };
  const char *readers[] = { "pgs-rollup-reader", "  + status, cmdline" };
  char **rollups[] = { rollup, same };
  char *list[] = { (char *) filter, "nosuchname", NULL };
  char *glib_list[] = { (char *) glib_filter, "nosuchname", NULL };
  const char *names[] = { "pgs-name-filter-glib", "pgs-name-filter (C)" };
  char **lists[] = { glib_list, list };
  g_autofree char *l1 = g_strdup_printf ("%s: memrank --json", phase);
  g_autofree char *l2 = g_strdup_printf ("%s: memrank nosuchname", phase);

  g_print ("-- %s (%u processes)\n", phase, count_processes ());
  compare_many (l1, memrank, 2, readers, rollups, goal);
  compare_many (l2, nosuch, 2, names, lists, "1.2x");
}

int
main (int   argc,
      char *argv[])
{
  gboolean startup = argc > 1 && g_str_equal (argv[1], "--startup");
  const char *cli = argc > 1 + startup ? argv[1 + startup] : NULL;
  const char *reader = argc > 2 + startup ? argv[2 + startup] : NULL;
  const char *filter = argc > 3 + startup ? argv[3 + startup] : NULL;
  const char *glib_filter = argc > 4 + startup ? argv[4 + startup] : NULL;
  const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGABRT, SIGSEGV, SIGTRAP };

  if (cli == NULL || reader == NULL || filter == NULL || glib_filter == NULL)
    {
      g_printerr ("usage: bench-cli [--startup] PAGESCOPE-CLI PGS-ROLLUP-READER PGS-NAME-FILTER "
                  "PGS-NAME-FILTER-GLIB\n");
      return 2;
    }
  if (startup)
    {
      char *nosuch[] = { (char *) cli, "memrank", "--json", "nosuchname", NULL };
      char *version[] = { (char *) cli, "--version", NULL };
      char *list[] = { (char *) filter, "nosuchname", NULL };
      char *glib_list[] = { (char *) glib_filter, "nosuchname", NULL };
      const char *names[] = { "pgs-name-filter-glib", "pgs-name-filter (C)" };
      char **lists[] = { glib_list, list };

      rounds = STARTUP_ROUNDS;
      g_print ("-- start-up (%u processes)\n", count_processes ());
      compare_many ("memrank nosuchname", nosuch, 2, names, lists, "1.2x");
      compare_many ("--version", version, 2, names, lists, "1.2x");
      return 0;
    }
  if (geteuid () != 0)
    g_print ("note: not root; the CLI reads only the kernel's rollups of your own processes\n");

  for (guint i = 0; i < G_N_ELEMENTS (sigs); i++)
    signal (sigs[i], on_signal);
  atexit (stop_load);

  start_spawner ();
  compare_all ("idle", cli, reader, filter, glib_filter, "1.2x");

  start_load ();
  compare_all ("16 processes, 428 k pages", cli, reader, filter, glib_filter, "1.3x");

  add_sleepers (200);
  compare_all ("+200 small processes", cli, reader, filter, glib_filter, "1.2x");

  add_sleepers (600);
  compare_all ("+800 small processes", cli, reader, filter, glib_filter, "1.2x");

  stop_load ();
  return 0;
}
