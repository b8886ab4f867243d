/* test-wss.c: working-set estimation against the live kernel
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The measured process is always another one (pgs-wss-child, see pgs-wss-child.h): a 64 MiB
 * anonymous mapping of which 16 MiB is written in a loop, a 32 MiB anonymous mapping filled
 * once and left alone, an 8 MiB shared file mapping of which 2 MiB is read in a loop.
 *
 * Nothing here rests on timing: the child runs with --rounds, touching its hot parts once per
 * request on a pipe and answering "done" after each round. A measurement clears, asks for a
 * round, waits for the answer, then reads back: the interval provably holds one whole round,
 * however busy the machine (the suite once failed on a loaded 2-core machine, where a child
 * left to loop had not run at all during a 1 s interval).
 *
 * Expected, with the tolerance stated once here: after one round, the touched mapping's
 * working set is 16 MiB and the file mapping's 2 MiB, each within TOLERANCE (16 pages); the
 * untouched mapping's is at most TOLERANCE; with no round asked for, the child touches
 * nothing and every one of them is at most TOLERANCE. Resident sizes are exact. The per-mapping figures agree with the kernel's own
 * smaps, read by this test around the read-back: not below what the kernel said just
 * before, not above what it said just after (referenced bits only accumulate between
 * clearings), and equal to it for the child's three mappings, which do not change.
 *
 * smaps is parsed here with sscanf, not with the library's parser, so the oracle does not
 * share code with what it checks.
 */

#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include <pagescope.h>

#include "pgs-kernel-probe.h"
#include "pgs-kernel-util.h"
#include "pgs-wss-child.h"

#define MIB (G_GUINT64_CONSTANT (1) << 20)
#define TOLERANCE (G_GUINT64_CONSTANT (64) << 10)

typedef struct
{
  GPid     pid;
  guint64  touched;
  guint64  untouched;
  guint64  file;
  char    *dir;
  char    *path;
  int      in_fd;
  FILE    *out;
  guint    rounds;
} Child;

typedef struct
{
  guint64 start;
  guint64 end;
  guint64 inode;
  guint64 rss;
  guint64 referenced;
} KernelMapping;

static void child_wait_blocked (Child *c);

static void
child_start (Child *c)
{
  g_autoptr(GError) error = NULL;
  const char *helper = g_getenv ("PGS_WSS_CHILD");
  const char *argv[] = { helper, "--rounds", NULL, NULL };
  char line[256];
  int out_fd;

  g_assert_nonnull (helper);
  memset (c, 0, sizeof *c);
  c->dir = pgs_kernel_make_tmpdir ("wss");
  c->path = g_build_filename (c->dir, "mapped", NULL);
  argv[2] = c->path;

  g_spawn_async_with_pipes (NULL, (char **) argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD, NULL, NULL,
                            &c->pid, &c->in_fd, &out_fd, NULL, &error);
  g_assert_no_error (error);
  pgs_kernel_track_child (c->pid);
  c->out = fdopen (out_fd, "r");
  g_assert_nonnull (fgets (line, sizeof line, c->out));
  g_assert_cmpint (sscanf (line, "ready %" G_GINT64_MODIFIER "x %" G_GINT64_MODIFIER "x %"
                           G_GINT64_MODIFIER "x", &c->touched, &c->untouched, &c->file), ==, 3);
  child_wait_blocked (c);
}

/* Until the child sleeps (state S): after "ready" or "done" it goes back to reading its
 * pipe, and until it blocks there its CPU time and context switches still move. */
static void
child_wait_blocked (Child *c)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/stat", c->pid);

  for (;;)
    {
      g_autofree char *stat = NULL;
      const char *paren;

      g_assert_true (g_file_get_contents (path, &stat, NULL, NULL));
      paren = strrchr (stat, ')');
      g_assert_nonnull (paren);
      if (paren[1] == ' ' && paren[2] == 'S')
        return;
      g_usleep (1000);
    }
}

/* One whole round of touching, begun and finished. */
static void
child_round (Child *c)
{
  g_autofree char *expected = g_strdup_printf ("done %u\n", ++c->rounds);
  char line[64];

  g_assert_cmpint (write (c->in_fd, "t\n", 2), ==, 2);
  g_assert_nonnull (fgets (line, sizeof line, c->out));
  g_assert_cmpstr (line, ==, expected);
  child_wait_blocked (c);
}

static void
child_stop (Child *c)
{
  if (c->pid > 0)
    {
      kill (c->pid, SIGKILL);
      waitpid (c->pid, NULL, 0);
      pgs_kernel_forget_child (c->pid);
    }
  close (c->in_fd);
  fclose (c->out);
  g_unlink (c->path);
  g_rmdir (c->dir);
  g_free (c->path);
  g_free (c->dir);
}

/* The kernel's own smaps: a header per VMA, then "Key: N kB" lines. */
static GArray *
kernel_smaps (int pid)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/smaps", pid);
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  GArray *maps = g_array_new (FALSE, TRUE, sizeof (KernelMapping));
  KernelMapping *current = NULL;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      KernelMapping m = { 0 };
      char perms[5];
      guint64 offset, kb;
      unsigned major, minor;

      if (sscanf (lines[i], "%" G_GINT64_MODIFIER "x-%" G_GINT64_MODIFIER "x %4s %"
                  G_GINT64_MODIFIER "x %x:%x %" G_GINT64_MODIFIER "u",
                  &m.start, &m.end, perms, &offset, &major, &minor, &m.inode) == 7)
        {
          g_array_append_val (maps, m);
          current = &g_array_index (maps, KernelMapping, maps->len - 1);
        }
      else if (sscanf (lines[i], "Rss: %" G_GINT64_MODIFIER "u kB", &kb) == 1)
        current->rss = kb << 10;
      else if (sscanf (lines[i], "Referenced: %" G_GINT64_MODIFIER "u kB", &kb) == 1)
        current->referenced = kb << 10;
    }
  return maps;
}

static const KernelMapping *
kernel_find (GArray  *maps,
             guint64  start)
{
  for (guint i = 0; i < maps->len; i++)
    if (g_array_index (maps, KernelMapping, i).start == start)
      return &g_array_index (maps, KernelMapping, i);
  g_error ("the kernel has no mapping at 0x%" G_GINT64_MODIFIER "x", start);
}

static const PgsWssMapping *
sample_find (PgsWssSample *sample,
             guint64       start)
{
  const PgsWssMapping *m = pgs_wss_sample_lookup_mapping (sample, start);

  if (m == NULL || m->start != start)
    g_error ("the sample has no mapping at 0x%" G_GINT64_MODIFIER "x", start);
  return m;
}

static void
assert_near (const char *what,
             guint64     value,
             guint64     expected)
{
  g_test_message ("%s: %" G_GUINT64_FORMAT " bytes, expected %" G_GUINT64_FORMAT " ± %"
                  G_GUINT64_FORMAT, what, value, expected, TOLERANCE);
  g_assert_cmpuint (value, >=, expected > TOLERANCE ? expected - TOLERANCE : 0);
  g_assert_cmpuint (value, <=, expected + TOLERANCE);
}

/* The child's three mappings, as the layout says. */
static void
assert_child_figures (Child        *c,
                      PgsWssSample *sample,
                      gboolean      anon,
                      gboolean      file)
{
  if (anon)
    {
      const PgsWssMapping *touched = sample_find (sample, c->touched);
      const PgsWssMapping *untouched = sample_find (sample, c->untouched);

      g_assert_cmpuint (touched->rss, ==, WSS_TOUCHED_MIB * MIB);
      g_assert_cmpuint (untouched->rss, ==, WSS_UNTOUCHED_MIB * MIB);
      assert_near ("touched", touched->referenced, WSS_HOT_MIB * MIB);
      assert_near ("untouched", untouched->referenced, 0);
      g_assert_true (touched->anonymous && untouched->anonymous);
    }
  if (file)
    {
      const PgsWssMapping *m = sample_find (sample, c->file);

      g_assert_cmpuint (m->rss, ==, WSS_FILE_MIB * MIB);
      assert_near ("file", m->referenced, WSS_FILE_HOT_MIB * MIB);
      g_assert_false (m->anonymous);
      g_assert_cmpstr (m->path, ==, c->path);
    }
}

/* Whether the running kernel's config (if it exposes it) sets @option: the oracle for the
 * per-page probes. Returns -1 where /proc/config.gz is missing. */
static int
kernel_config (const char *option)
{
  g_autoptr(GFile) gz = g_file_new_for_path ("/proc/config.gz");
  g_autoptr(GFileInputStream) raw = g_file_read (gz, NULL, NULL);
  g_autoptr(GZlibDecompressor) unzip = NULL;
  g_autoptr(GInputStream) stream = NULL;
  g_autoptr(GDataInputStream) lines = NULL;
  g_autofree char *set = g_strdup_printf ("%s=y", option);
  char *line;

  if (raw == NULL)
    return -1;
  unzip = g_zlib_decompressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP);
  stream = g_converter_input_stream_new (G_INPUT_STREAM (raw), G_CONVERTER (unzip));
  lines = g_data_input_stream_new (stream);
  while ((line = g_data_input_stream_read_line (lines, NULL, NULL, NULL)) != NULL)
    {
      gboolean hit = g_str_equal (line, set);

      g_free (line);
      if (hit)
        return 1;
    }
  return 0;
}

static gboolean
has_caveat (PgsWssSample     *sample,
            PgsWssCaveatKind  kind)
{
  for (guint i = 0; i < pgs_wss_sample_get_n_caveats (sample); i++)
    {
      if (pgs_wss_sample_get_caveat (sample, i)->kind == kind)
        return TRUE;
    }
  return FALSE;
}

/* The caveats that the probe says this machine must produce; reclaim and pressure depend on
 * the rest of the machine and are covered by the unit tests' fixtures. */
static void
assert_machine_caveats (PgsWssSample *sample)
{
  const PgsKernelProbe *probe = pgs_kernel_probe ();

  for (guint i = 0; i < pgs_wss_sample_get_n_caveats (sample); i++)
    g_test_message ("caveat %s: %s", pgs_wss_sample_get_caveat (sample, i)->id,
                    pgs_wss_sample_get_caveat (sample, i)->message);

  g_assert_cmpint (has_caveat (sample, PGS_WSS_CAVEAT_DAMON_PADDR), ==, probe->damon_paddr);
  g_assert_false (has_caveat (sample, PGS_WSS_CAVEAT_DAMON_VADDR));
}

static void
test_probe (void)
{
  g_autofree char *idle_reason = NULL;
  g_autofree char *dirty_reason = NULL;
  PgsWssPages sources = pgs_wss_probe_page_sources (NULL, &idle_reason, &dirty_reason);
  int idle = kernel_config ("CONFIG_IDLE_PAGE_TRACKING");
  int dirty = kernel_config ("CONFIG_MEM_SOFT_DIRTY");

  g_test_message ("sources %x; idle: %s; soft-dirty: %s", sources, idle_reason, dirty_reason);
  /* A missing source always says why; a present one has no reason. */
  g_assert_true (!(sources & PGS_WSS_PAGES_IDLE) == (idle_reason != NULL));
  g_assert_true (!(sources & PGS_WSS_PAGES_SOFT_DIRTY) == (dirty_reason != NULL));

  if (idle < 0 || dirty < 0)
    {
      g_test_skip ("no /proc/config.gz to check the probes against");
      return;
    }
  /* As root, each source is there exactly when the kernel was built with it. */
  g_assert_cmpint (!!(sources & PGS_WSS_PAGES_IDLE), ==, idle);
  g_assert_cmpint (!!(sources & PGS_WSS_PAGES_SOFT_DIRTY), ==, dirty);
  if (!idle)
    g_assert_nonnull (strstr (idle_reason, "CONFIG_IDLE_PAGE_TRACKING"));
  if (!dirty)
    g_assert_nonnull (strstr (dirty_reason, "CONFIG_MEM_SOFT_DIRTY"));
}

static void
test_touched_untouched (void)
{
  g_autoptr(PgsWss) wss = NULL;
  g_autoptr(PgsWssSample) sample = NULL;
  g_autoptr(GArray) before = NULL;
  g_autoptr(GArray) after = NULL;
  g_autoptr(GError) error = NULL;
  Child c;

  child_start (&c);
  wss = pgs_wss_new (c.pid);
  g_assert_true (pgs_wss_prepare (wss, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (pgs_wss_get_name (wss), ==, "pgs-wss-child");

  /* Cleared, then the kernel asked before and after the read-back. */
  g_assert_true (pgs_wss_clear (wss, &error));
  child_round (&c);
  before = kernel_smaps (c.pid);
  sample = pgs_wss_collect (wss, &error);
  g_assert_no_error (error);
  after = kernel_smaps (c.pid);

  g_assert_cmpint (pgs_wss_sample_get_elapsed (sample), >, 0);
  {
    guint64 switches = 0;

    /* It woke up for the round and went back to waiting for the next: switches at least. */
    g_assert_cmpint (pgs_wss_sample_get_ran (sample, NULL, &switches), ==, PGS_WSS_RAN_YES);
    g_assert_cmpuint (switches, >=, 1);
  }
  assert_machine_caveats (sample);
  g_assert_cmpuint (pgs_wss_sample_get_n_mappings (sample), ==, after->len);
  for (guint i = 0; i < pgs_wss_sample_get_n_mappings (sample); i++)
    {
      const PgsWssMapping *m = pgs_wss_sample_get_mapping (sample, i);
      const KernelMapping *kb = kernel_find (before, m->start);
      const KernelMapping *ka = kernel_find (after, m->start);

      g_test_message ("0x%" G_GINT64_MODIFIER "x %s: referenced %" G_GUINT64_FORMAT
                      " (kernel %" G_GUINT64_FORMAT "..%" G_GUINT64_FORMAT "), rss %"
                      G_GUINT64_FORMAT, m->start, m->path, m->referenced, kb->referenced,
                      ka->referenced, m->rss);
      g_assert_cmphex (m->end, ==, ka->end);
      g_assert_cmpuint (m->inode, ==, ka->inode);
      g_assert_cmpuint (m->referenced, <=, m->rss);
      /* Referenced bits only accumulate between this test's clearings on pages no other
       * process maps: the child's private anonymous memory and its own file. Pages shared
       * with others (libraries, the vDSO) lose them to other processes' clear_refs, which
       * other test runs on a shared machine do; and any page may lose them to reclaim,
       * which the sample then says. */
      if ((m->start == c.file || (m->anonymous && !g_str_has_prefix (m->path, "[v"))) &&
          !has_caveat (sample, PGS_WSS_CAVEAT_RECLAIM))
        {
          g_assert_cmpuint (m->referenced, >=, kb->referenced);
          g_assert_cmpuint (m->referenced, <=, ka->referenced);
        }
    }

  assert_child_figures (&c, sample, TRUE, TRUE);
  g_assert_cmpuint (sample_find (sample, c.touched)->referenced, ==, kernel_find (after, c.touched)->referenced);
  g_assert_cmpuint (sample_find (sample, c.untouched)->referenced, ==, kernel_find (after, c.untouched)->referenced);
  g_assert_cmpuint (sample_find (sample, c.file)->referenced, ==, kernel_find (after, c.file)->referenced);
  g_assert_cmpuint (pgs_wss_sample_get_referenced (sample), >=, (WSS_HOT_MIB + WSS_FILE_HOT_MIB) * MIB - 2 * TOLERANCE);

  /* Without per-page sources the sample says so, and knows no page. */
  if (pgs_wss_sample_get_page_sources (sample) == PGS_WSS_PAGES_NONE)
    {
      g_assert_false (pgs_wss_sample_get_accessed (sample, NULL, NULL));
      g_assert_cmpint (pgs_wss_sample_lookup_page (sample, c.touched), ==, PGS_WSS_PAGE_UNKNOWN);
    }
  else if (pgs_wss_sample_get_page_sources (sample) & PGS_WSS_PAGES_IDLE)
    {
      /* Where idle tracking exists, it sees the same split page by page. */
      assert_near ("touched, accessed page by page", sample_find (sample, c.touched)->accessed,
                   WSS_HOT_MIB * MIB);
      assert_near ("untouched, accessed page by page", sample_find (sample, c.untouched)->accessed, 0);
    }

  child_stop (&c);
}

static void
test_scope_anon (void)
{
  g_autoptr(PgsWss) wss = NULL;
  g_autoptr(PgsWssSample) sample = NULL;
  g_autoptr(GArray) after = NULL;
  g_autoptr(GError) error = NULL;
  const KernelMapping *file;
  guint n_anon = 0;
  Child c;

  child_start (&c);
  wss = pgs_wss_new (c.pid);
  pgs_wss_set_scope (wss, PGS_WSS_SCOPE_ANON);
  g_assert_true (pgs_wss_clear (wss, &error));
  child_round (&c);
  sample = pgs_wss_collect (wss, &error);
  g_assert_no_error (error);
  after = kernel_smaps (c.pid);

  for (guint i = 0; i < after->len; i++)
    n_anon += g_array_index (after, KernelMapping, i).inode == 0;
  g_assert_cmpuint (pgs_wss_sample_get_n_mappings (sample), ==, n_anon);
  for (guint i = 0; i < pgs_wss_sample_get_n_mappings (sample); i++)
    g_assert_cmpuint (kernel_find (after, pgs_wss_sample_get_mapping (sample, i)->start)->inode, ==, 0);
  assert_child_figures (&c, sample, TRUE, FALSE);

  /* 2 was written, not 1: the file mapping, filled at the start, is still all referenced. */
  file = kernel_find (after, c.file);
  g_assert_cmpuint (file->rss, ==, WSS_FILE_MIB * MIB);
  g_assert_cmpuint (file->referenced, ==, WSS_FILE_MIB * MIB);

  child_stop (&c);
}

static void
test_scope_file (void)
{
  g_autoptr(PgsWss) wss = NULL;
  g_autoptr(PgsWssSample) sample = NULL;
  g_autoptr(GArray) after = NULL;
  g_autoptr(GError) error = NULL;
  const KernelMapping *untouched;
  guint n_file = 0;
  Child c;

  child_start (&c);
  wss = pgs_wss_new (c.pid);
  pgs_wss_set_scope (wss, PGS_WSS_SCOPE_FILE);
  g_assert_true (pgs_wss_clear (wss, &error));
  child_round (&c);
  sample = pgs_wss_collect (wss, &error);
  g_assert_no_error (error);
  after = kernel_smaps (c.pid);

  for (guint i = 0; i < after->len; i++)
    n_file += g_array_index (after, KernelMapping, i).inode != 0;
  g_assert_cmpuint (pgs_wss_sample_get_n_mappings (sample), ==, n_file);
  for (guint i = 0; i < pgs_wss_sample_get_n_mappings (sample); i++)
    g_assert_cmpuint (kernel_find (after, pgs_wss_sample_get_mapping (sample, i)->start)->inode, !=, 0);
  assert_child_figures (&c, sample, FALSE, TRUE);

  /* 3 was written, not 1: the untouched anonymous mapping is still all referenced. */
  untouched = kernel_find (after, c.untouched);
  g_assert_cmpuint (untouched->referenced, ==, WSS_UNTOUCHED_MIB * MIB);

  child_stop (&c);
}

typedef struct
{
  GMainLoop    *loop;
  PgsWssSample *sample;
  GError       *error;
  guint         ticks;
} AsyncResult;

static void
on_measured (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  AsyncResult *r = user_data;

  r->sample = pgs_wss_measure_finish (PGS_WSS (source), result, &r->error);
  g_main_loop_quit (r->loop);
}

static gboolean
on_tick (gpointer user_data)
{
  AsyncResult *r = user_data;

  r->ticks++;
  return G_SOURCE_CONTINUE;
}

static gboolean
on_cancel (gpointer user_data)
{
  g_cancellable_cancel (user_data);
  return G_SOURCE_REMOVE;
}

static void
test_async (void)
{
  g_autoptr(PgsWss) wss = NULL;
  g_autoptr(GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  AsyncResult r = { loop, NULL, NULL, 0 };
  guint tick;
  gint64 start;
  Child c;

  child_start (&c);
  wss = pgs_wss_new (c.pid);

  tick = g_timeout_add (10, on_tick, &r);
  pgs_wss_measure_async (wss, 600, NULL, on_measured, &r);
  g_main_loop_run (loop);
  g_source_remove (tick);
  g_assert_no_error (r.error);
  g_test_message ("%u ticks of 10 ms during a 600 ms interval", r.ticks);
  /* The main loop ran while the interval was waited (how often depends on the load). */
  g_assert_cmpuint (r.ticks, >=, 1);
  g_assert_cmpint (pgs_wss_sample_get_elapsed (r.sample), >=, 600 * 1000);
  /* No round was asked for: the child touched nothing. */
  g_assert_cmpuint (sample_find (r.sample, c.touched)->rss, ==, WSS_TOUCHED_MIB * MIB);
  assert_near ("touched, no round", sample_find (r.sample, c.touched)->referenced, 0);
  assert_near ("untouched, no round", sample_find (r.sample, c.untouched)->referenced, 0);
  assert_near ("file, no round", sample_find (r.sample, c.file)->referenced, 0);
  {
    gint64 cpu = -1;
    guint64 switches = G_MAXUINT64;

    /* Blocked on its pipe the whole interval: it did not run, and the sample says so. */
    g_assert_cmpint (pgs_wss_sample_get_ran (r.sample, &cpu, &switches), ==, PGS_WSS_RAN_NO);
    g_assert_cmpint (cpu, ==, 0);
    g_assert_cmpuint (switches, ==, 0);
  }
  assert_machine_caveats (r.sample);
  g_clear_pointer (&r.sample, pgs_wss_sample_unref);

  /* Cancelled a tenth of a second into a minute. */
  start = g_get_monotonic_time ();
  g_timeout_add (100, on_cancel, cancellable);
  pgs_wss_measure_async (wss, 60 * 1000, cancellable, on_measured, &r);
  g_main_loop_run (loop);
  g_assert_error (r.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpint (g_get_monotonic_time () - start, <, 5 * G_USEC_PER_SEC);
  g_clear_error (&r.error);

  child_stop (&c);
}

/* Waits (without a time limit of its own: the test's timeout is that) until @pid has exec'd
 * @name. */
static void
wait_for_exec (GPid        pid,
               const char *name)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/comm", pid);

  for (;;)
    {
      g_autofree char *comm = NULL;

      g_assert_true (g_file_get_contents (path, &comm, NULL, NULL));
      if (g_str_equal (g_strstrip (comm), name))
        return;
      g_usleep (1000);
    }
}

/* A process that exits two seconds into a thirty-second interval: reported when it exits. */
static void
test_exit_during_interval (void)
{
  const char *argv[] = { "sleep", "2", NULL };
  g_autoptr(GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  AsyncResult r = { loop, NULL, NULL, 0 };

  for (guint round = 0; round < 2; round++)
    {
      g_autoptr(PgsWss) wss = NULL;
      g_autoptr(PgsWssSample) sample = NULL;
      g_autoptr(GError) error = NULL;
      gint64 start;
      GPid pid;

      g_spawn_async (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_DO_NOT_REAP_CHILD,
                     NULL, NULL, &pid, &error);
      g_assert_no_error (error);
      wait_for_exec (pid, "sleep");

      wss = pgs_wss_new (pid);
      start = g_get_monotonic_time ();
      if (round == 0)
        sample = pgs_wss_measure (wss, 30 * 1000, NULL, &error);
      else
        {
          pgs_wss_measure_async (wss, 30 * 1000, NULL, on_measured, &r);
          g_main_loop_run (loop);
          sample = r.sample;
          error = r.error;
        }
      g_assert_null (sample);
      g_assert_error (error, PGS_ERROR, PGS_ERROR_PROCESS_GONE);
      g_test_message ("after %.2f s: %s", (g_get_monotonic_time () - start) / 1e6, error->message);
      g_assert_nonnull (strstr (error->message, "(sleep) exited during the interval"));
      g_assert_cmpint (g_get_monotonic_time () - start, <, 25 * G_USEC_PER_SEC);
      waitpid (pid, NULL, 0);
    }
}

static void
test_kernel_thread (void)
{
  g_autoptr(PgsWss) wss = pgs_wss_new (2);
  g_autoptr(GError) error = NULL;
  g_autofree char *status = NULL;

  /* PID 2 is kthreadd; its status says it has no memory of its own. */
  g_assert_true (g_file_get_contents ("/proc/2/status", &status, NULL, NULL));
  g_assert_null (strstr (status, "VmSize:"));

  g_assert_false (pgs_wss_prepare (wss, &error));
  g_assert_error (error, PGS_ERROR, PGS_ERROR_KERNEL_THREAD);
  g_assert_cmpstr (error->message, ==, "PID 2 (kthreadd) is a kernel thread: it has no user memory, so no working set");
}

static void
test_unknown_and_self (void)
{
  g_autofree char *pid_max_text = NULL;
  g_autoptr(PgsWss) unknown = NULL;
  g_autoptr(PgsWss) self = pgs_wss_new (getpid ());
  g_autoptr(GError) error = NULL;
  g_autofree char *expected = NULL;
  guint64 pid_max;

  /* Above pid_max no process can exist. */
  g_assert_true (g_file_get_contents ("/proc/sys/kernel/pid_max", &pid_max_text, NULL, NULL));
  pid_max = g_ascii_strtoull (pid_max_text, NULL, 10);
  g_assert_cmpuint (pid_max, <, G_MAXINT);
  unknown = pgs_wss_new ((int) pid_max + 1);
  g_assert_false (pgs_wss_prepare (unknown, &error));
  g_assert_error (error, PGS_ERROR, PGS_ERROR_NO_SUCH_PROCESS);
  expected = g_strdup_printf ("no process with PID %d", (int) pid_max + 1);
  g_assert_cmpstr (error->message, ==, expected);
  g_clear_error (&error);

  g_assert_false (pgs_wss_prepare (self, &error));
  g_assert_error (error, PGS_ERROR, PGS_ERROR_FAILED);
  g_assert_nonnull (strstr (error->message, "is this process"));
}

int
main (int   argc,
      char *argv[])
{
  pgs_kernel_init ();
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/pgs/kernel/wss/probe", test_probe);
  g_test_add_func ("/pgs/kernel/wss/touched-untouched", test_touched_untouched);
  g_test_add_func ("/pgs/kernel/wss/scope-anon", test_scope_anon);
  g_test_add_func ("/pgs/kernel/wss/scope-file", test_scope_file);
  g_test_add_func ("/pgs/kernel/wss/async", test_async);
  g_test_add_func ("/pgs/kernel/wss/exit-during-interval", test_exit_during_interval);
  g_test_add_func ("/pgs/kernel/wss/kernel-thread", test_kernel_thread);
  g_test_add_func ("/pgs/kernel/wss/unknown-and-self", test_unknown_and_self);

  return g_test_run ();
}
