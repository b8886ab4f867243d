/* pgs-wss-trust.c
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What is looked at, and what cannot be seen:
 * - Whether the process ran: utime + stime of /proc/PID/stat (the whole thread group, in
 *   clock ticks, so a process that ran less than a tick may read as not having run) and the
 *   voluntary and involuntary context switches of every thread (/proc/PID/task/ * /status),
 *   which move whenever a thread is scheduled out. Either moving means it ran.
 * - DAMON (/sys/kernel/mm/damon/admin/kdamonds): a kdamond in state "on" with a context on
 *   physical addresses ("paddr") tests and clears the accessed bit of every page it samples,
 *   and marks pages idle: idle page tracking then misses accesses (smaps Referenced keeps
 *   them, through the page's young flag); its schemes (pageout and the like) can evict pages
 *   during the interval. A context on virtual addresses ("vaddr", "fvaddr") matters when one
 *   of its targets is this process.
 * - Idle page tracking used by someone else: visible only while they hold
 *   /sys/kernel/mm/page_idle/bitmap open, found by reading every process's fd links at the
 *   end of the interval. One that opened, wrote and closed it in between cannot be seen.
 * - Reclaim: /proc/vmstat pgsteal_anon + pgsteal_file (pages reclaimed, machine-wide)
 *   moving during the interval; and /proc/pressure/memory "some" total (microseconds in
 *   which a task waited for memory) moving by a millisecond or more. Machine-wide: they say
 *   the working set may have lost pages, not that it did.
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include <glib/gi18n-lib.h>

#include "pgs-format.h"
#include "pgs-wss-sample-private.h"
#include "pgs-wss-trust.h"

#define IDLE_BITMAP "/sys/kernel/mm/page_idle/bitmap"

typedef struct
{
  gboolean activity;         /* ticks and switches read */
  guint64  ticks;
  guint64  switches;
  gboolean vmstat;
  guint64  stolen;
  gboolean psi;
  guint64  stall_us;
} Counters;

struct _PgsWssTrust
{
  char     *procfs_root;
  char     *sysfs_root;
  int       pid;
  Counters  start;
};

static gboolean
read_text (char      **text,
           const char *first,
           ...)
{
  g_autofree char *path = NULL;
  va_list args;

  va_start (args, first);
  path = g_build_filename_valist (first, &args);
  va_end (args);
  return g_file_get_contents (path, text, NULL, NULL);
}

/* The number after "@key" in @text, where @key starts a line or follows a space. */
static gboolean
find_number (const char *text,
             const char *key,
             guint64    *value)
{
  size_t key_len = strlen (key);

  for (const char *p = strstr (text, key); p != NULL; p = strstr (p + 1, key))
    {
      char *end = NULL;

      if (p != text && p[-1] != '\n' && p[-1] != ' ')
        continue;
      *value = g_ascii_strtoull (p + key_len, &end, 10);
      if (end != p + key_len)
        return TRUE;
    }
  return FALSE;
}

static gboolean
read_switches (const char *procfs_root,
               int         pid,
               guint64    *switches)
{
  g_autofree char *pid_str = g_strdup_printf ("%d", pid);
  g_autofree char *task_dir = g_build_filename (procfs_root, pid_str, "task", NULL);
  g_autoptr(GDir) dir = g_dir_open (task_dir, 0, NULL);
  const char *tid;
  guint n_read = 0;

  *switches = 0;
  while (dir != NULL && (tid = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *status = NULL;
      guint64 voluntary, involuntary;

      /* A thread that exits in between is left out: its switches are gone with it. */
      if (!read_text (&status, task_dir, tid, "status", NULL) ||
          !find_number (status, "voluntary_ctxt_switches:", &voluntary) ||
          !find_number (status, "nonvoluntary_ctxt_switches:", &involuntary))
        continue;
      *switches += voluntary + involuntary;
      n_read++;
    }
  return n_read > 0;
}

static gboolean
read_ticks (const char *procfs_root,
            int         pid,
            guint64    *ticks)
{
  g_autofree char *pid_str = g_strdup_printf ("%d", pid);
  g_autofree char *stat = NULL;
  g_auto(GStrv) fields = NULL;
  const char *close_paren;

  if (!read_text (&stat, procfs_root, pid_str, "stat", NULL))
    return FALSE;
  /* The name may hold spaces and parentheses: the fields follow the last ')'. After it,
   * field 3 (state) is the first, so utime (14) and stime (15) are the 12th and 13th. */
  close_paren = strrchr (stat, ')');
  if (close_paren == NULL || close_paren[1] != ' ')
    return FALSE;
  fields = g_strsplit (close_paren + 2, " ", 14);
  if (g_strv_length (fields) < 13)
    return FALSE;
  *ticks = g_ascii_strtoull (fields[11], NULL, 10) + g_ascii_strtoull (fields[12], NULL, 10);
  return TRUE;
}

static void
read_counters (PgsWssTrust *self,
               Counters    *c)
{
  g_autofree char *vmstat = NULL;
  g_autofree char *psi = NULL;
  guint64 anon, file;

  memset (c, 0, sizeof *c);
  c->activity = read_ticks (self->procfs_root, self->pid, &c->ticks) &&
                read_switches (self->procfs_root, self->pid, &c->switches);
  if (read_text (&vmstat, self->procfs_root, "vmstat", NULL) &&
      find_number (vmstat, "pgsteal_anon ", &anon) && find_number (vmstat, "pgsteal_file ", &file))
    {
      c->vmstat = TRUE;
      c->stolen = anon + file;
    }
  if (read_text (&psi, self->procfs_root, "pressure", "memory", NULL) &&
      g_str_has_prefix (psi, "some "))
    c->psi = find_number (psi, "total=", &c->stall_us);
}

PgsWssTrust *
pgs_wss_trust_begin (const char *procfs_root,
                     const char *sysfs_root,
                     int         pid)
{
  PgsWssTrust *self = g_new0 (PgsWssTrust, 1);

  self->procfs_root = g_strdup (procfs_root);
  self->sysfs_root = g_strdup (sysfs_root);
  self->pid = pid;
  read_counters (self, &self->start);
  return self;
}

void
pgs_wss_trust_free (PgsWssTrust *self)
{
  if (self == NULL)
    return;
  g_free (self->procfs_root);
  g_free (self->sysfs_root);
  g_free (self);
}

/* A one-word sysfs file. Several of DAMON's sysfs handlers take their lock with a trylock
 * and can answer EBUSY while another tool holds it: such a read is retried for up to a
 * second rather than taken as "no monitor" (defensive: not seen on plain reads here). */
static gboolean
read_word (char      **word,
           const char *first,
           ...)
{
  g_autofree char *path = NULL;
  char buf[256];
  va_list args;

  va_start (args, first);
  path = g_build_filename_valist (first, &args);
  va_end (args);
  for (guint attempt = 0; attempt < 1000; attempt++)
    {
      int fd = open (path, O_RDONLY | O_CLOEXEC);
      gssize n;
      int errsv;

      if (fd < 0)
        return FALSE;
      n = read (fd, buf, sizeof buf - 1);
      errsv = errno;
      close (fd);
      if (n >= 0)
        {
          buf[n] = '\0';
          *word = g_strstrip (g_strdup (buf));
          return TRUE;
        }
      if (errsv != EBUSY && errsv != EAGAIN && errsv != EINTR)
        return FALSE;
      g_usleep (1000);
    }
  return FALSE;
}

/* Whether a target of the context at @ctx_dir is @pid. */
static gboolean
targets_pid (const char *ctx_dir,
             int         pid)
{
  g_autofree char *targets = g_build_filename (ctx_dir, "targets", NULL);
  g_autoptr(GDir) dir = g_dir_open (targets, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *value = NULL;

      if (read_word (&value, targets, name, "pid_target", NULL) &&
          g_ascii_strtoll (value, NULL, 10) == pid)
        return TRUE;
    }
  return FALSE;
}

/* The actions of the context's schemes, ", "-separated, or NULL where it has none. */
static char *
scheme_actions (const char *ctx_dir)
{
  g_autofree char *schemes = g_build_filename (ctx_dir, "schemes", NULL);
  g_autoptr(GDir) dir = g_dir_open (schemes, 0, NULL);
  g_autoptr(GString) actions = g_string_new (NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *action = NULL;

      if (read_word (&action, schemes, name, "action", NULL) && *action != '\0' &&
          !g_str_equal (action, "stat"))
        g_string_append_printf (actions, "%s%s", actions->len ? ", " : "", action);
    }
  return actions->len ? g_string_free (g_steal_pointer (&actions), FALSE) : NULL;
}

static void
check_damon (PgsWssTrust  *self,
             PgsWssSample *sample)
{
  g_autofree char *root = g_build_filename (self->sysfs_root, "kernel", "mm", "damon", "admin",
                                            "kdamonds", NULL);
  g_autoptr(GDir) dir = g_dir_open (root, 0, NULL);
  const char *kdamond;

  while (dir != NULL && (kdamond = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *state = NULL;
      g_autofree char *contexts = g_build_filename (root, kdamond, "contexts", NULL);
      g_autoptr(GDir) cdir = NULL;
      const char *ctx;

      if (!read_word (&state, root, kdamond, "state", NULL) || !g_str_equal (state, "on"))
        continue;
      cdir = g_dir_open (contexts, 0, NULL);
      while (cdir != NULL && (ctx = g_dir_read_name (cdir)) != NULL)
        {
          g_autofree char *ctx_dir = g_build_filename (contexts, ctx, NULL);
          g_autofree char *ops = NULL;
          g_autofree char *actions = NULL;
          g_autofree char *message = NULL;

          if (!read_word (&ops, ctx_dir, "operations", NULL))
            continue;
          actions = scheme_actions (ctx_dir);
          if (g_str_equal (ops, "paddr"))
            {
              if (actions != NULL)
                message = g_strdup_printf (_("A DAMON monitor of physical memory is running "
                                             "(kdamond %s): it clears accessed bits, and its "
                                             "schemes (%s) can evict or move pages during the "
                                             "interval, so the working set may be too low."),
                                           kdamond, actions);
              else
                message = g_strdup_printf (_("A DAMON monitor of physical memory is running "
                                             "(kdamond %s): it clears accessed bits, which "
                                             "per-page idle tracking then misses."), kdamond);
              pgs_wss_sample_add_caveat (sample, PGS_WSS_CAVEAT_DAMON_PADDR, "damon-paddr", message);
            }
          else if ((g_str_equal (ops, "vaddr") || g_str_equal (ops, "fvaddr")) &&
                   targets_pid (ctx_dir, self->pid))
            {
              message = g_strdup_printf (_("A DAMON monitor watches this process (kdamond %s): "
                                           "it clears the accessed bits of its pages during the "
                                           "interval, so the working set may be too low."),
                                         kdamond);
              pgs_wss_sample_add_caveat (sample, PGS_WSS_CAVEAT_DAMON_VADDR, "damon-vaddr", message);
            }
        }
    }
}

/* Another process holding page_idle/bitmap open: it marks pages idle, which clears their
 * accessed bits. Only looked for where the bitmap exists. */
static void
check_idle_tracking (PgsWssTrust  *self,
                     PgsWssSample *sample)
{
  g_autofree char *bitmap = g_build_filename (self->sysfs_root, "kernel", "mm", "page_idle",
                                              "bitmap", NULL);
  g_autoptr(GDir) procs = NULL;
  const char *pid_name;

  if (!g_file_test (bitmap, G_FILE_TEST_EXISTS))
    return;
  procs = g_dir_open (self->procfs_root, 0, NULL);
  while (procs != NULL && (pid_name = g_dir_read_name (procs)) != NULL)
    {
      g_autofree char *fd_dir = NULL;
      g_autoptr(GDir) fds = NULL;
      const char *fd;
      guint64 pid;

      if (!g_ascii_string_to_unsigned (pid_name, 10, 1, G_MAXINT, &pid, NULL) ||
          (pid_t) pid == getpid ())
        continue;
      fd_dir = g_build_filename (self->procfs_root, pid_name, "fd", NULL);
      fds = g_dir_open (fd_dir, 0, NULL);
      while (fds != NULL && (fd = g_dir_read_name (fds)) != NULL)
        {
          g_autofree char *link = g_build_filename (fd_dir, fd, NULL);
          g_autofree char *target = g_file_read_link (link, NULL);

          if (g_strcmp0 (target, IDLE_BITMAP) == 0)
            {
              g_autofree char *comm = NULL;
              g_autofree char *message = NULL;

              if (!read_word (&comm, self->procfs_root, pid_name, "comm", NULL))
                comm = g_strdup ("?");
              message = g_strdup_printf (_("PID %s (%s) uses idle page tracking (it has %s "
                                           "open): marking pages idle clears their accessed "
                                           "bits, so the working set may be too low."),
                                         pid_name, comm, IDLE_BITMAP);
              pgs_wss_sample_add_caveat (sample, PGS_WSS_CAVEAT_IDLE_TRACKING, "idle-tracking",
                                         message);
              break;
            }
        }
    }
}

void
pgs_wss_trust_end (PgsWssTrust  *self,
                   PgsWssSample *sample)
{
  Counters end;
  long tick = sysconf (_SC_CLK_TCK);

  g_return_if_fail (self != NULL);
  g_return_if_fail (sample != NULL);

  read_counters (self, &end);
  if (self->start.activity && end.activity && end.ticks >= self->start.ticks)
    {
      guint64 ticks = end.ticks - self->start.ticks;
      /* A thread that exited takes its switches with it: the sum can shrink. */
      guint64 switches = end.switches > self->start.switches ? end.switches - self->start.switches : 0;

      pgs_wss_sample_set_ran (sample, ticks > 0 || switches > 0 ? PGS_WSS_RAN_YES : PGS_WSS_RAN_NO,
                              (gint64) ticks * G_USEC_PER_SEC / (tick > 0 ? tick : 100), switches);
    }

  check_damon (self, sample);
  check_idle_tracking (self, sample);

  if (self->start.vmstat && end.vmstat && end.stolen > self->start.stolen)
    {
      g_autofree char *size = pgs_format_size ((end.stolen - self->start.stolen) *
                                               (guint64) sysconf (_SC_PAGESIZE));
      g_autofree char *message =
        g_strdup_printf (_("The kernel reclaimed %s during the interval (/proc/vmstat "
                           "pgsteal): pages of the working set may have been evicted."), size);

      pgs_wss_sample_add_caveat (sample, PGS_WSS_CAVEAT_RECLAIM, "reclaim", message);
    }
  if (self->start.psi && end.psi && end.stall_us >= self->start.stall_us + 1000)
    {
      g_autofree char *message =
        g_strdup_printf (_("Tasks waited %.0f ms for memory during the interval "
                           "(/proc/pressure/memory): under pressure, pages of the working set "
                           "may have been evicted."),
                         (end.stall_us - self->start.stall_us) / 1000.0);

      pgs_wss_sample_add_caveat (sample, PGS_WSS_CAVEAT_PRESSURE, "memory-pressure", message);
    }
}

const char *
pgs_wss_ran_describe (PgsWssRan ran)
{
  switch (ran)
    {
    case PGS_WSS_RAN_NO:
      return _("the process did not run during the interval");
    case PGS_WSS_RAN_YES:
      return _("the process ran during the interval");
    case PGS_WSS_RAN_UNKNOWN:
    default:
      return _("whether the process ran during the interval is unknown");
    }
}
