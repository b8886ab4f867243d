/* test-snapshot-hostile.c: hand-made hostile snapshot files, through the reader and the CLI
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each file is written field by field (tests/common/pgs-test-snapshot.c) with a checksum that
 * holds, so only the reader's own checks stand between it and the views. Every command that
 * reads a snapshot runs on each under an address-space limit of 256 MiB, and must give
 * figures or refuse with a message that says what is wrong, in at most 2 s of CPU.
 *
 * `test-snapshot-hostile --write-seeds DIR` writes the small files as fuzz-snapshot seeds.
 */

#include "config.h"

#include <fcntl.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib/gstdio.h>
#include <pagescope.h>

#include "pgs-snapshot-format.h"
#include "pgs-test-snapshot.h"

#if defined(__SANITIZE_ADDRESS__)
#define SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SANITIZED 1
#endif
#endif
#ifndef SANITIZED
#define SANITIZED 0
#endif

#define PS          G_GUINT64_CONSTANT (4096)
#define BASE        G_GUINT64_CONSTANT (0x10000000)
#define PRESENT     (G_GUINT64_CONSTANT (1) << 63)
#define EXCLUSIVE   (G_GUINT64_CONSTANT (1) << 56)
#define ALL_KNOWN   (PGS_METRIC_VSS | PGS_METRIC_RSS | PGS_METRIC_PSS | PGS_METRIC_USS | PGS_METRIC_SWAP)
#define AS_LIMIT    (G_GUINT64_CONSTANT (256) << 20)
/* CPU seconds a command may take; the sanitizers make everything several times slower. */
#define CPU_LIMIT   (SANITIZED ? 20.0 : 2.0)

/* ---- the files ---- */

/* Process @pid: one mapping of @n_map pages at BASE, its first two pages present (frames
 * 100 and 101, private): VSS n_map pages, RSS = PSS = USS = 2 pages. */
typedef struct
{
  PgsTestProcess p;
  PgsTestMapping m;
  PgsTestRun     r;
  guint64        deltas[2];
  guint32        counts[2];
} Proc;

static void
proc_init (Proc       *x,
           int         pid,
           const char *name,
           guint64     n_map)
{
  memset (x, 0, sizeof *x);
  x->m = (PgsTestMapping) { BASE, BASE + n_map * PS, 0, 0, 0, 0, "rw-p", "[heap]",
                            2 * PS, (2 * PS) << PGS_PSS_SHIFT, 2 * PS, 0, ALL_KNOWN, 0 };
  x->r = (PgsTestRun) { BASE, 2, 0, 0, 0 };
  x->deltas[0] = PRESENT | EXCLUSIVE | 100;
  x->deltas[1] = 1;
  x->counts[0] = x->counts[1] = 1;
  x->p = (PgsTestProcess) {
    .pid = pid, .ppid = 1, .uid = 0, .start_time = 1000, .user = "root", .name = name,
    .cmdline = name, .vss = n_map * PS, .rss = 2 * PS, .pss_fp = (2 * PS) << PGS_PSS_SHIFT,
    .uss = 2 * PS, .known = ALL_KNOWN, .has_pages = TRUE, .has_counts = TRUE,
  };
}

/* Points the process at its own mapping, run and pages (after any copy of the struct). */
static const PgsTestProcess *
proc_finish (Proc *x)
{
  x->p.mappings = &x->m;
  x->p.n_mappings = 1;
  x->p.runs = &x->r;
  x->p.n_runs = 1;
  x->p.deltas = x->deltas;
  x->p.n_deltas = 2;
  x->p.counts = x->counts;
  x->p.n_counts = 2;
  return &x->p;
}

/* A physical map of 4096 frames: frames 100 and 101 mapped once, the rest free. */
static GBytes *
with_physmap (PgsTestProcess *procs,
              guint           n)
{
  const guint32 lengths[] = { 100, 2, 3994 };
  const guint64 flags[] = { 1 << 10, (1 << 12) | (1 << 5), 1 << 10 };
  const guint32 counts[] = { 0, 1, 0 };

  return pgs_test_snapshot_payload (procs, n, 4096, lengths, flags, counts, 3);
}

static GBytes *
file_of (GBytes *payload)
{
  g_autoptr(GBytes) owned = payload;

  return pgs_test_snapshot_file (owned);
}

/* Two processes; 100 has no user, name or command line in the file. */
static GBytes *
build_no_strings (void)
{
  Proc a, b;
  PgsTestProcess procs[2];

  proc_init (&a, 100, NULL, 4);
  a.p.user = NULL;
  a.p.cmdline = NULL;
  proc_init (&b, 200, "beta", 4);
  procs[0] = *proc_finish (&a);
  procs[1] = *proc_finish (&b);
  return file_of (with_physmap (procs, 2));
}

/* A mapping of 2^64 - 4096 bytes, from 0 to the last page. */
static GBytes *
build_huge_mapping (void)
{
  Proc a;

  proc_init (&a, 100, "huge", 4);
  a.m.start = 0;
  a.m.end = G_MAXUINT64 - PS + 1;
  a.r.start = 0;
  a.p.vss = a.m.end;
  return file_of (with_physmap ((PgsTestProcess *) proc_finish (&a), 1));
}

/* Real but vast: three mappings of 2^54 bytes each (an address space of 2^56, as 5-level
 * paging allows), two pages resident in the first. */
static GBytes *
build_vast_mappings (void)
{
  Proc a;
  PgsTestMapping maps[3];
  const guint64 size = G_GUINT64_CONSTANT (1) << 54;

  proc_init (&a, 100, "vast", 4);
  for (guint i = 0; i < 3; i++)
    {
      maps[i] = a.m;
      maps[i].start = BASE + i * size;
      maps[i].end = BASE + (i + 1) * size;
      maps[i].rss = maps[i].pss_fp = maps[i].uss = 0;
    }
  maps[0].rss = maps[0].uss = 2 * PS;
  maps[0].pss_fp = (2 * PS) << PGS_PSS_SHIFT;
  a.p.vss = 3 * size;
  proc_finish (&a);
  a.p.mappings = maps;
  a.p.n_mappings = 3;
  return file_of (with_physmap (&a.p, 1));
}

/* A run of 2^32 - 1 pages with two entries behind it. */
static GBytes *
build_counts_beyond (void)
{
  Proc a;

  proc_init (&a, 100, "counts", G_GUINT64_CONSTANT (1) << 32);
  a.r.n_pages = G_MAXUINT32;
  return file_of (with_physmap ((PgsTestProcess *) proc_finish (&a), 1));
}

/* A physical map that says 2^30 frames and has runs for three. */
static GBytes *
build_frames_beyond (void)
{
  Proc a;
  const guint32 lengths[] = { 1, 1, 1 };
  const guint64 flags[] = { 0, 0, 0 };
  const guint32 counts[] = { 0, 0, 0 };

  proc_init (&a, 100, "frames", 4);
  return file_of (pgs_test_snapshot_payload (proc_finish (&a), 1, G_GUINT64_CONSTANT (1) << 30,
                                             lengths, flags, counts, 3));
}

/* A physical map of 2^30 frames (4 TiB, the most a file may hold) in three runs. */
static GBytes *
build_vast_physmap (void)
{
  Proc a;
  const guint32 lengths[] = { 100, 2, (1u << 30) - 102 };
  const guint64 flags[] = { 1 << 10, (1 << 12) | (1 << 5), 1 << 10 };
  const guint32 counts[] = { 0, 1, 0 };

  proc_init (&a, 100, "physmap", 4);
  return file_of (pgs_test_snapshot_payload (proc_finish (&a), 1, G_GUINT64_CONSTANT (1) << 30,
                                             lengths, flags, counts, 3));
}

/* A VSS of 2^64 - 1 bytes. */
static GBytes *
build_vss_max (void)
{
  Proc a;

  proc_init (&a, 100, "vss", 4);
  a.p.vss = G_MAXUINT64;
  return file_of (with_physmap ((PgsTestProcess *) proc_finish (&a), 1));
}

/* 256 processes of 2^56 bytes resident each: each possible, their sum past 2^64. */
static GBytes *
build_totals_wrap (void)
{
  g_autofree Proc *x = g_new (Proc, 256);
  g_autofree PgsTestProcess *procs = g_new (PgsTestProcess, 256);
  const guint64 size = G_GUINT64_CONSTANT (1) << 56;

  for (guint i = 0; i < 256; i++)
    {
      proc_init (&x[i], 100 + i, "wrap", size / PS);
      x[i].p.rss = x[i].m.rss = size;
      x[i].p.pss_fp = x[i].m.pss_fp = 0;
      x[i].p.uss = x[i].m.uss = 0;
      procs[i] = *proc_finish (&x[i]);
    }
  return file_of (with_physmap (procs, 256));
}

/* Two mappings that overlap by a page. */
static GBytes *
build_overlap (void)
{
  Proc a;
  PgsTestMapping maps[2];

  proc_init (&a, 100, "overlap", 4);
  maps[0] = a.m;
  maps[1] = a.m;
  maps[1].start = BASE + 3 * PS;
  maps[1].end = BASE + 8 * PS;
  maps[1].rss = maps[1].pss_fp = maps[1].uss = 0;
  a.p.vss = 9 * PS;
  proc_finish (&a);
  a.p.mappings = maps;
  a.p.n_mappings = 2;
  return file_of (with_physmap (&a.p, 1));
}

/* 2 MiB of zlib that inflates to 2 GiB of zeros, declaring @plain_size. */
static GBytes *
bomb (guint64 plain_size)
{
  g_autoptr(GBytes) z = pgs_test_zlib_zeros (G_GUINT64_CONSTANT (2) << 30);

  g_assert_cmpuint (g_bytes_get_size (z), <, 3 << 20);
  return pgs_test_snapshot_file_raw (g_bytes_get_data (z, NULL), g_bytes_get_size (z), plain_size);
}

static GBytes *
build_bomb (void)
{
  return bomb (G_GUINT64_CONSTANT (2) << 30);
}

static GBytes *
build_bomb_understated (void)
{
  return bomb (1 << 20);
}

/* The most a file can make the reader inflate under the limit before it finds out. */
static GBytes *
build_bomb_128m (void)
{
  return bomb (128 << 20);
}

typedef struct
{
  const char *name;
  GBytes *  (*build) (void);
  /* NULL: the file loads; else what the refusal says. */
  const char *refusal;
  gboolean    big;      /* not a fuzz seed */
} Case;

static const Case cases[] = {
  { "no-strings", build_no_strings, NULL, FALSE },
  { "huge-mapping", build_huge_mapping, "larger than an address space", FALSE },
  { "vast-mappings", build_vast_mappings, NULL, FALSE },
  { "counts-beyond", build_counts_beyond, "page entries for", FALSE },
  { "vast-physmap", build_vast_physmap, NULL, FALSE },
  { "frames-beyond", build_frames_beyond, "physical map runs cover 3 frames", FALSE },
  { "vss-max", build_vss_max, "larger than an address space", FALSE },
  { "totals-wrap", build_totals_wrap, "add up to more than", FALSE },
  { "overlap", build_overlap, "mappings overlap", FALSE },
  { "bomb", build_bomb, "bytes of memory", TRUE },
  { "bomb-understated", build_bomb_understated, "more data than the header says", TRUE },
  { "bomb-128m", build_bomb_128m, "more data than the header says", TRUE },
};

/* ---- running the CLI under limits ---- */

typedef struct
{
  int    status;
  double cpu;        /* seconds, user and system */
  guint64 max_rss;   /* bytes */
  char  *out;
  char  *err;
} Run;

static void
run_clear (Run *r)
{
  g_free (r->out);
  g_free (r->err);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Run, run_clear)

static char *
read_fd_all (int fd)
{
  g_autoptr(GString) s = g_string_new (NULL);
  char buf[4096];
  ssize_t n;

  lseek (fd, 0, SEEK_SET);
  while ((n = read (fd, buf, sizeof buf)) > 0)
    g_string_append_len (s, buf, n);
  close (fd);
  return g_string_free (g_steal_pointer (&s), FALSE);
}

/* Runs $PAGESCOPE_CLI with @args (NULL-terminated) with an address space of 256 MiB (not
 * under ASan, whose shadow memory needs terabytes of it), and how long and how big it got. */
static void
run_cli (Run               *r,
         const char *const *args)
{
  const char *cli = g_getenv ("PAGESCOPE_CLI");
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  char out_path[] = "/tmp/pgs-hostile-out-XXXXXX", err_path[] = "/tmp/pgs-hostile-err-XXXXXX";
  int out_fd = g_mkstemp (out_path), err_fd = g_mkstemp (err_path);
  struct rusage usage;
  pid_t pid;

  g_assert_nonnull (cli);
  g_assert_cmpint (out_fd, >=, 0);
  g_assert_cmpint (err_fd, >=, 0);
  g_unlink (out_path);
  g_unlink (err_path);
  g_ptr_array_add (argv, (char *) cli);
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (char *) args[i]);
  g_ptr_array_add (argv, NULL);

  pid = fork ();
  g_assert_cmpint (pid, >=, 0);
  if (pid == 0)
    {
      struct rlimit as = { AS_LIMIT, AS_LIMIT };

      if ((!SANITIZED && setrlimit (RLIMIT_AS, &as) != 0) ||
          dup2 (out_fd, 1) < 0 || dup2 (err_fd, 2) < 0)
        _exit (125);
      execv (cli, (char **) argv->pdata);
      _exit (126);
    }
  g_assert_cmpint (wait4 (pid, &r->status, 0, &usage), ==, pid);
  r->cpu = usage.ru_utime.tv_sec + usage.ru_stime.tv_sec +
           (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
  r->max_rss = (guint64) usage.ru_maxrss * 1024;
  r->out = read_fd_all (out_fd);
  r->err = read_fd_all (err_fd);
}

/* The file of @c in a temporary directory. */
static char *
write_case (const Case *c,
            const char *dir)
{
  g_autoptr(GBytes) bytes = c->build ();
  g_autofree char *name = g_strconcat (c->name, ".pgsnap", NULL);
  char *path = g_build_filename (dir, name, NULL);

  g_assert_true (g_file_set_contents (path, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), NULL));
  return path;
}

/* What each command must say about the file of @c, given its output. */
static void
check_run (const Case        *c,
           const char *const *args,
           const Run         *r)
{
  g_autofree char *command = g_strjoinv (" ", (char **) args);

  g_test_message ("%s: %s: status %d, %.2f s CPU, %" G_GUINT64_FORMAT " KiB", c->name, command,
                  r->status, r->cpu, r->max_rss >> 10);
  if (!WIFEXITED (r->status))
    g_error ("%s: %s: killed by signal %d\n%s", c->name, command, WTERMSIG (r->status), r->err);
  if (r->cpu > CPU_LIMIT)
    g_error ("%s: %s: %.2f s of CPU", c->name, command, r->cpu);
  if (!SANITIZED)
    g_assert_cmpuint (r->max_rss, <, AS_LIMIT);
  if (c->refusal != NULL)
    {
      /* Refused, with the reader's own words, and nothing printed as if it were figures. */
      g_assert_cmpint (WEXITSTATUS (r->status), ==, 3);
      if (strstr (r->err, c->refusal) == NULL)
        g_error ("%s: %s: refused with “%s”, not “…%s…”", c->name, command, r->err, c->refusal);
      g_assert_cmpstr (r->out, ==, "");
    }
  else if (WEXITSTATUS (r->status) != 0)
    g_error ("%s: %s: exit %d: %s", c->name, command, WEXITSTATUS (r->status), r->err);
}

static void
test_cli (gconstpointer data)
{
  const Case *c = data;
  g_autofree char *dir = g_dir_make_tmp ("pgs-hostile-XXXXXX", NULL);
  g_autofree char *path = NULL;
  g_autofree char *png = g_build_filename (dir, "out.png", NULL);

  if (g_getenv ("PAGESCOPE_CLI") == NULL)
    {
      g_test_skip ("PAGESCOPE_CLI not set");
      return;
    }
  if (c->big && SANITIZED)
    {
      /* Without the address-space limit it would inflate its 2 GiB: the point of the test
       * is that the limit refuses it at once. */
      g_test_skip ("the zlib bomb needs an address-space limit, which ASan cannot run under");
      return;
    }
  path = write_case (c, dir);
  {
    const char *const commands[][16] = {
      { "memrank", "--snapshot", path, NULL },
      { "memrank", "--snapshot", path, "--json", NULL },
      { "memrank", "--snapshot", path, "--csv", NULL },
      { "memstats", "--snapshot", path, "100", NULL },
      { "memstats", "--snapshot", path, "100", "--json", NULL },
      { "memstats", "--snapshot", path, "100", "--csv", NULL },
      { "memrank", "--snapshot", path, "--group-by", "user", NULL },
      { "compare", path, path, NULL },
      { "compare", path, path, "--json", NULL },
      { "render", "--snapshot", path, "--view", "residency", "--pid", "100", "-o", png, NULL },
      { "render", "--snapshot", path, "--view", "residency", "--pid", "100", "--layout", "hilbert", "-o", png, NULL },
      { "render", "--snapshot", path, "--view", "residency", "--pid", "100", "--zoom", "1000", "--legend", "-o", png, NULL },
      { "render", "--snapshot", path, "--view", "sharing", "--pid", "100", "--legend", "-o", png, NULL },
      { "render", "--snapshot", path, "--view", "flags", "--pid", "100", "--layout", "hilbert", "-o", png, NULL },
    };

    for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
      {
        g_auto(Run) r = { 0 };

        run_cli (&r, commands[i]);
        check_run (c, commands[i], &r);
        if (c->refusal == NULL && g_str_equal (c->name, "no-strings"))
          {
            /* The absent strings are unknown, never empty or the neighbour's. */
            if (i == 0)
              g_assert_nonnull (strstr (r.out, "100  unknown  unknown"));
            if (i == 1)
              g_assert_nonnull (strstr (r.out, "\"user\":null,\"name\":null,\"cmdline\":null"));
            if (i == 3)
              g_assert_nonnull (strstr (r.out, "PID 100  unknown  user unknown"));
            /* Both are UID 0: the group takes the name the other process has. */
            if (i == 6)
              g_assert_nonnull (strstr (r.out, "root                 2  32.0 KiB  16.0 KiB"));
          }
      }
  }
  g_unlink (png);
  g_unlink (path);
  g_rmdir (dir);
}

/* ---- the same through the library, for what the CLI does not read from files ---- */

static void
test_load (gconstpointer data)
{
  const Case *c = data;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(PgsSnapshot) snap = NULL;
  g_autoptr(GPtrArray) files = NULL;
  GPtrArray *processes;
  gint64 t0;

  if (c->big)
    {
      g_test_skip ("run through the CLI, under an address-space limit");
      return;
    }
  bytes = c->build ();
  t0 = g_get_monotonic_time ();
  snap = _pgs_snapshot_load_bytes (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes),
                                   PGS_SNAPSHOT_MAX_FRAMES, &error);
  if (c->refusal != NULL)
    {
      g_assert_null (snap);
      g_assert_error (error, PGS_ERROR, PGS_ERROR_BAD_SNAPSHOT);
      if (strstr (error->message, c->refusal) == NULL)
        g_error ("%s: “%s”", c->name, error->message);
      return;
    }
  g_assert_no_error (error);

  /* librank reads no files: its grouping over the loaded processes, bounded the same way. */
  processes = g_ptr_array_new ();
  for (guint i = 0; i < pgs_snapshot_get_n_processes (snap); i++)
    g_ptr_array_add (processes, pgs_snapshot_get_process (snap, i));
  files = pgs_librank (processes, NULL);
  g_ptr_array_unref (processes);
  g_assert_cmpuint (files->len, ==, 0);  /* [heap] is no file */
  g_assert_cmpfloat ((g_get_monotonic_time () - t0) / 1e6, <, CPU_LIMIT);

  /* Figures worked out by hand from the file. */
  g_assert_cmpuint (pgs_snapshot_get_total (snap, PGS_METRIC_RSS, NULL), ==,
                    pgs_snapshot_get_n_processes (snap) * 2 * PS);
  if (g_str_equal (c->name, "vast-mappings"))
    g_assert_cmpuint (pgs_process_get_vss (pgs_snapshot_get_process (snap, 0)), ==,
                      3 * (G_GUINT64_CONSTANT (1) << 54));
  if (g_str_equal (c->name, "no-strings"))
    {
      PgsProcess *p = pgs_snapshot_lookup_pid (snap, 100);

      g_assert_null (pgs_process_get_name (p));
      g_assert_null (pgs_process_get_user (p));
      g_assert_cmpstr (pgs_process_get_name (pgs_snapshot_lookup_pid (snap, 200)), ==, "beta");
    }
}

static int
write_seeds (const char *dir)
{
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GBytes) bytes = NULL;
      g_autoptr(GByteArray) seed = g_byte_array_new ();
      g_autofree char *path = g_build_filename (dir, cases[i].name, NULL);
      guint8 mode = 0;

      if (cases[i].big)
        continue;
      bytes = cases[i].build ();
      /* fuzz-snapshot's first byte: 0, a whole file as read from disk. */
      g_byte_array_append (seed, &mode, 1);
      g_byte_array_append (seed, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
      if (!g_file_set_contents (path, (const char *) seed->data, seed->len, NULL))
        return 1;
    }
  return 0;
}

int
main (int   argc,
      char *argv[])
{
  if (argc == 3 && g_str_equal (argv[1], "--write-seeds"))
    return write_seeds (argv[2]);

  g_test_init (&argc, &argv, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *load = g_strconcat ("/pgs/snapshot-hostile/load/", cases[i].name, NULL);
      g_autofree char *cli = g_strconcat ("/pgs/snapshot-hostile/cli/", cases[i].name, NULL);

      g_test_add_data_func (load, &cases[i], test_load);
      g_test_add_data_func (cli, &cases[i], test_cli);
    }
  return g_test_run ();
}
