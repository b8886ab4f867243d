/* pgs-wss.c
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Kernel facts this rests on (fs/proc/task_mmu.c, mm/page_idle.c, Linux 6.x):
 *
 *  - clear_refs 1/2/3 walks the VMAs (2: those without a file, 3: those with one; VM_PFNMAP
 *    ones never), clears the accessed (young) bit of each present PTE/PMD and the page's
 *    PG_referenced and idle-young flags. smaps "Referenced" counts, per VMA, the resident
 *    pages whose PTE is young or whose page has PG_referenced or young set: after a clear,
 *    what was touched again (PG_referenced also when another process read the same page
 *    cache page through read(), a known overcount for shared files).
 *  - For a task without an mm (a kernel thread, a zombie) the write succeeds and does
 *    nothing, so that must be found out from status beforehand, never from the write.
 *  - The write on a task that is gone fails with ESRCH; once the task is reaped, lookups
 *    under a /proc/PID directory fd held from before fail with ENOENT even if the PID was
 *    reused, so everything here is opened relative to that one directory fd.
 *  - page_idle/bitmap: one bit per PFN in u64 words, 8-byte aligned I/O. Writing 1 marks a
 *    page idle (and clears its accessed bits through rmap); reading returns 1 for pages not
 *    accessed since. Only LRU pages are tracked, others read 0 ("not idle"), and a large
 *    folio's state is on its head page alone, so the state of a page is read from its
 *    folio's head, and pages whose head is off the LRU are left unknown, not counted.
 *  - Soft-dirty: writing 4 clears the bits; pagemap bit 55 is set again on the first write
 *    (and for every page of a VMA created since). Without CONFIG_MEM_SOFT_DIRTY the bit is
 *    never set, which is how it is probed: a page this process has just written.
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <glib-unix.h>

#include "pgs-error.h"
#include "pgs-kpage.h"
#include "pgs-pagemap.h"
#include "pgs-parse.h"
#include "pgs-procfs.h"
#include "pgs-wss.h"
#include "pgs-wss-private.h"
#include "pgs-wss-trust.h"

#define DEFAULT_SYSFS_ROOT "/sys"
#define PAGE_IDLE_BITMAP   "kernel/mm/page_idle/bitmap"
/* pagemap entries per read: 512 KiB through one reused buffer. */
#define WALK_BATCH 65536
/* Frames read or written together in kpageflags and the idle bitmap: a PMD's worth, so a
 * folio (naturally aligned, at most PMD order for anonymous and page cache folios) never
 * straddles two blocks and its head is found in the block of any of its pages. */
#define BLOCK_FRAMES 512
#define BLOCK_WORDS  (BLOCK_FRAMES / 64)

typedef struct
{
  guint64 address;
  guint64 pfn;
} MarkedPage;

typedef struct
{
  guint64 index;                 /* hash key: pfn / BLOCK_FRAMES */
  guint64 flags[BLOCK_FRAMES];   /* kpageflags, read back at collect */
  guint64 words[BLOCK_WORDS];    /* idle bits */
} FrameBlock;

struct _PgsWss
{
  GObject       parent_instance;

  int           pid;
  char         *procfs_root;
  char         *sysfs_root;
  PgsHelper    *helper;
  PgsWssScope   scope;
  gboolean      sources_forced;
  PgsWssPages   forced_sources;

  gboolean      prepared;
  gboolean      busy;
  guint         page_size;
  int           dir_fd;
  int           clear_fd;
  int           pidfd;
  int           pagemap_fd;
  int           kpageflags_fd;
  int           idle_fd;
  char         *name;
  PgsWssPages   sources;
  char         *idle_reason;
  char         *soft_dirty_reason;

  gboolean      cleared;
  PgsWssScope   cleared_scope;
  gint64        cleared_at;
  GArray       *marked;          /* MarkedPage, address order */
  guint64      *pm_buf;
  GArray       *regions;
  PgsWssTrust  *trust;           /* the counters at the clearing, for the caveats */
};

G_DEFINE_FINAL_TYPE (PgsWss, pgs_wss, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_PID,
  PROP_PROCFS_ROOT,
  PROP_SYSFS_ROOT,
  PROP_SCOPE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
pgs_wss_finalize (GObject *object)
{
  PgsWss *self = PGS_WSS (object);

  pgs_close (self->dir_fd);
  pgs_close (self->clear_fd);
  pgs_close (self->pidfd);
  pgs_close (self->pagemap_fd);
  pgs_close (self->kpageflags_fd);
  g_clear_object (&self->helper);
  pgs_close (self->idle_fd);
  g_free (self->procfs_root);
  g_free (self->sysfs_root);
  g_free (self->name);
  g_free (self->idle_reason);
  g_free (self->soft_dirty_reason);
  g_array_unref (self->marked);
  g_free (self->pm_buf);
  g_array_unref (self->regions);
  pgs_wss_trust_free (self->trust);

  G_OBJECT_CLASS (pgs_wss_parent_class)->finalize (object);
}

static void
pgs_wss_get_property (GObject    *object,
                      guint       prop_id,
                      GValue     *value,
                      GParamSpec *pspec)
{
  PgsWss *self = PGS_WSS (object);

  switch (prop_id)
    {
    case PROP_PID:
      g_value_set_int (value, self->pid);
      break;
    case PROP_PROCFS_ROOT:
      g_value_set_string (value, self->procfs_root);
      break;
    case PROP_SYSFS_ROOT:
      g_value_set_string (value, self->sysfs_root);
      break;
    case PROP_SCOPE:
      g_value_set_enum (value, self->scope);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pgs_wss_set_property (GObject      *object,
                      guint         prop_id,
                      const GValue *value,
                      GParamSpec   *pspec)
{
  PgsWss *self = PGS_WSS (object);

  switch (prop_id)
    {
    case PROP_PID:
      self->pid = g_value_get_int (value);
      break;
    case PROP_PROCFS_ROOT:
      pgs_wss_set_procfs_root (self, g_value_get_string (value));
      break;
    case PROP_SYSFS_ROOT:
      pgs_wss_set_sysfs_root (self, g_value_get_string (value));
      break;
    case PROP_SCOPE:
      pgs_wss_set_scope (self, g_value_get_enum (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pgs_wss_class_init (PgsWssClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags flags = G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->finalize = pgs_wss_finalize;
  object_class->get_property = pgs_wss_get_property;
  object_class->set_property = pgs_wss_set_property;

  properties[PROP_PID] =
    g_param_spec_int ("pid", NULL, NULL, 1, G_MAXINT, 1,
                      G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_PROCFS_ROOT] =
    g_param_spec_string ("procfs-root", NULL, NULL, PGS_PROCFS_DEFAULT_ROOT, flags);
  properties[PROP_SYSFS_ROOT] =
    g_param_spec_string ("sysfs-root", NULL, NULL, DEFAULT_SYSFS_ROOT, flags);
  properties[PROP_SCOPE] =
    g_param_spec_enum ("scope", NULL, NULL, PGS_TYPE_WSS_SCOPE, PGS_WSS_SCOPE_ALL, flags);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
pgs_wss_init (PgsWss *self)
{
  self->procfs_root = g_strdup (PGS_PROCFS_DEFAULT_ROOT);
  self->sysfs_root = g_strdup (DEFAULT_SYSFS_ROOT);
  self->scope = PGS_WSS_SCOPE_ALL;
  self->dir_fd = self->clear_fd = self->pidfd = -1;
  self->pagemap_fd = self->kpageflags_fd = self->idle_fd = -1;
  self->marked = g_array_new (FALSE, FALSE, sizeof (MarkedPage));
  self->regions = g_array_new (FALSE, FALSE, sizeof (PgsPageRegion));
}

PgsWss *
pgs_wss_new (int pid)
{
  g_return_val_if_fail (pid > 0, NULL);

  return g_object_new (PGS_TYPE_WSS, "pid", pid, NULL);
}

/* The helper opens files of the live /proc only, and only while it runs: the kernel checks
 * permission when clear_refs, smaps and pagemap are opened, and root's descriptors then
 * serve this unprivileged process (see pgs-helper.h). */
static PgsHelper *
usable_helper (PgsWss *self)
{
  if (self->helper != NULL && pgs_helper_is_running (self->helper) &&
      g_str_equal (self->procfs_root, PGS_PROCFS_DEFAULT_ROOT))
    return self->helper;
  return NULL;
}

void
pgs_wss_set_helper (PgsWss    *self,
                    PgsHelper *helper)
{
  g_return_if_fail (PGS_IS_WSS (self));
  g_return_if_fail (helper == NULL || PGS_IS_HELPER (helper));
  g_return_if_fail (!self->prepared);

  g_set_object (&self->helper, helper);
}

int
pgs_wss_get_pid (PgsWss *self)
{
  g_return_val_if_fail (PGS_IS_WSS (self), 0);
  return self->pid;
}

const char *
pgs_wss_get_procfs_root (PgsWss *self)
{
  g_return_val_if_fail (PGS_IS_WSS (self), NULL);
  return self->procfs_root;
}

void
pgs_wss_set_procfs_root (PgsWss     *self,
                         const char *root)
{
  g_return_if_fail (PGS_IS_WSS (self));
  g_return_if_fail (!self->prepared);

  if (root == NULL)
    root = PGS_PROCFS_DEFAULT_ROOT;
  if (g_strcmp0 (self->procfs_root, root) == 0)
    return;
  g_free (self->procfs_root);
  self->procfs_root = g_strdup (root);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROCFS_ROOT]);
}

const char *
pgs_wss_get_sysfs_root (PgsWss *self)
{
  g_return_val_if_fail (PGS_IS_WSS (self), NULL);
  return self->sysfs_root;
}

void
pgs_wss_set_sysfs_root (PgsWss     *self,
                        const char *root)
{
  g_return_if_fail (PGS_IS_WSS (self));
  g_return_if_fail (!self->prepared);

  if (root == NULL)
    root = DEFAULT_SYSFS_ROOT;
  if (g_strcmp0 (self->sysfs_root, root) == 0)
    return;
  g_free (self->sysfs_root);
  self->sysfs_root = g_strdup (root);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SYSFS_ROOT]);
}

PgsWssScope
pgs_wss_get_scope (PgsWss *self)
{
  g_return_val_if_fail (PGS_IS_WSS (self), PGS_WSS_SCOPE_ALL);
  return self->scope;
}

void
pgs_wss_set_scope (PgsWss      *self,
                   PgsWssScope  scope)
{
  g_return_if_fail (PGS_IS_WSS (self));
  g_return_if_fail (scope >= PGS_WSS_SCOPE_ALL && scope <= PGS_WSS_SCOPE_FILE);

  if (self->scope == scope)
    return;
  self->scope = scope;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SCOPE]);
}

void
pgs_wss_set_page_sources (PgsWss      *self,
                          PgsWssPages  sources)
{
  g_return_if_fail (PGS_IS_WSS (self));
  g_return_if_fail (!self->prepared);
  g_return_if_fail ((sources & ~(PGS_WSS_PAGES_IDLE | PGS_WSS_PAGES_SOFT_DIRTY)) == 0);

  self->sources_forced = TRUE;
  self->forced_sources = sources;
}

const char *
pgs_wss_get_name (PgsWss *self)
{
  g_return_val_if_fail (PGS_IS_WSS (self), NULL);
  return self->name;
}

PgsWssPages
pgs_wss_get_page_sources (PgsWss *self)
{
  g_return_val_if_fail (PGS_IS_WSS (self), PGS_WSS_PAGES_NONE);
  return self->sources;
}

const char *
pgs_wss_get_page_source_reason (PgsWss      *self,
                                PgsWssPages  source)
{
  g_return_val_if_fail (PGS_IS_WSS (self), NULL);
  g_return_val_if_fail (source == PGS_WSS_PAGES_IDLE || source == PGS_WSS_PAGES_SOFT_DIRTY, NULL);

  return source == PGS_WSS_PAGES_IDLE ? self->idle_reason : self->soft_dirty_reason;
}

/* g_clear_fd is GLib 2.76. */
static void
close_fd (int *fd)
{
  pgs_close (*fd);
  *fd = -1;
}

static gboolean
is_live (PgsWss *self)
{
  return g_str_equal (self->procfs_root, PGS_PROCFS_DEFAULT_ROOT);
}

/* "PID 42 (name)" once the name is known. */
static char *
describe (PgsWss *self)
{
  if (self->name != NULL)
    return g_strdup_printf ("PID %d (%s)", self->pid, self->name);
  return g_strdup_printf ("PID %d", self->pid);
}

static void
set_gone_error (PgsWss     *self,
                GError    **error,
                const char *when)
{
  g_autofree char *who = describe (self);

  g_set_error (error, PGS_ERROR, PGS_ERROR_PROCESS_GONE, "%s exited %s", who, when);
}

/* Opens what the per-page sources need, or leaves a source out with the reason. Sources
 * the caller forced fail the preparation instead: a test must not pass on a fallback. */
static gboolean
open_page_sources (PgsWss  *self,
                   GError **error)
{
  g_autofree char *idle_why = NULL;
  g_autofree char *dirty_why = NULL;
  g_autofree char *who = describe (self);
  PgsWssPages wanted;

  if (self->sources_forced)
    {
      wanted = self->forced_sources;
      if (!(wanted & PGS_WSS_PAGES_IDLE))
        idle_why = g_strdup ("not asked for");
      if (!(wanted & PGS_WSS_PAGES_SOFT_DIRTY))
        dirty_why = g_strdup ("not asked for");
    }
  else if (!is_live (self))
    {
      wanted = PGS_WSS_PAGES_NONE;
      idle_why = g_strdup_printf ("per-page data needs the live kernel, and this reads %s",
                                  self->procfs_root);
      dirty_why = g_strdup (idle_why);
    }
  else
    wanted = pgs_wss_probe_page_sources (self->sysfs_root, &idle_why, &dirty_why);

  if (wanted != PGS_WSS_PAGES_NONE)
    {
      g_autoptr(GError) local = NULL;

      self->pagemap_fd = pgs_helper_open_at (usable_helper (self), self->dir_fd, self->pid,
                                             "pagemap", &local);
      if (self->pagemap_fd < 0)
        {
          if (self->sources_forced)
            {
              g_set_error (error, PGS_ERROR, local->code, "%s: cannot read its pagemap: %s",
                           who, local->message);
              return FALSE;
            }
          if (wanted & PGS_WSS_PAGES_IDLE)
            idle_why = g_strdup_printf ("cannot read the pagemap of %s (%s)", who, local->message);
          if (wanted & PGS_WSS_PAGES_SOFT_DIRTY)
            dirty_why = g_strdup_printf ("cannot read the pagemap of %s (%s)", who, local->message);
          wanted = PGS_WSS_PAGES_NONE;
        }
    }

  if (wanted & PGS_WSS_PAGES_IDLE)
    {
      g_autofree char *bitmap = g_build_filename (self->sysfs_root, PAGE_IDLE_BITMAP, NULL);
      g_autofree char *kpageflags = g_build_filename (self->procfs_root, "kpageflags", NULL);
      g_autoptr(GError) local = NULL;

      self->kpageflags_fd = usable_helper (self) != NULL
                            ? pgs_helper_open (self->helper, 0, "kpageflags", &local)
                            : pgs_open_at (AT_FDCWD, kpageflags, O_RDONLY, &local);
      if (self->kpageflags_fd >= 0)
        self->idle_fd = pgs_open_at (AT_FDCWD, bitmap, O_RDWR, &local);
      if (self->idle_fd < 0)
        {
          if (self->sources_forced)
            {
              g_propagate_prefixed_error (error, g_steal_pointer (&local),
                                          "idle page tracking: ");
              return FALSE;
            }
          idle_why = g_strdup_printf ("idle page tracking is not usable (%s)", local->message);
          wanted &= ~PGS_WSS_PAGES_IDLE;
        }
    }

  self->sources = wanted;
  g_clear_pointer (&self->idle_reason, g_free);
  g_clear_pointer (&self->soft_dirty_reason, g_free);
  if (!(wanted & PGS_WSS_PAGES_IDLE))
    self->idle_reason = g_steal_pointer (&idle_why);
  if (!(wanted & PGS_WSS_PAGES_SOFT_DIRTY))
    self->soft_dirty_reason = g_steal_pointer (&dirty_why);
  return TRUE;
}

/* An empty smaps, or one that cannot be opened any more, means the mm is gone. */
static gboolean
read_status (PgsWss     *self,
             PgsStatus  *status,
             GError    **error)
{
  g_autofree char *text = NULL;
  g_autoptr(GError) local = NULL;
  gsize len;

  text = pgs_read_file_at (self->dir_fd, "status", &len, &local);
  if (text == NULL)
    {
      if (g_error_matches (local, PGS_ERROR, PGS_ERROR_PROCESS_GONE))
        set_gone_error (self, error, "before it could be measured");
      else
        g_propagate_prefixed_error (error, g_steal_pointer (&local), "PID %d: ", self->pid);
      return FALSE;
    }
  if (!pgs_status_parse (text, len, status, &local))
    {
      g_propagate_prefixed_error (error, g_steal_pointer (&local), "PID %d: ", self->pid);
      return FALSE;
    }
  return TRUE;
}

/* The fields a sample needs from each smaps record: the kernel prints them for every VMA. */
#define SMAPS_SEEN_RSS        (1u << 1)
#define SMAPS_SEEN_REFERENCED (1u << 6)

static gboolean
check_fields (int                   pid,
              const PgsMapsEntry   *entry,
              const PgsSmapsFields *fields,
              GError              **error)
{
  guint need = SMAPS_SEEN_RSS | SMAPS_SEEN_REFERENCED;

  if ((fields->seen & need) == need)
    return TRUE;
  g_set_error (error, PGS_ERROR, PGS_ERROR_MALFORMED,
               "PID %d: smaps has no %s line for the mapping at 0x%" G_GINT64_MODIFIER "x",
               pid, (fields->seen & SMAPS_SEEN_RSS) ? "Referenced" : "Rss", entry->start);
  return FALSE;
}

typedef struct
{
  int     pid;
  GError *error;
} ValidateContext;

static void
validate_mapping (const PgsMapsEntry   *entry,
                  const PgsSmapsFields *fields,
                  gpointer              user_data)
{
  ValidateContext *ctx = user_data;

  if (ctx->error == NULL)
    check_fields (ctx->pid, entry, fields, &ctx->error);
}

gboolean
pgs_wss_prepare (PgsWss  *self,
                 GError **error)
{
  g_autoptr(GError) local = NULL;
  g_autofree char *smaps = NULL;
  g_autofree char *who = NULL;
  PgsStatus status;
  gsize len;

  g_return_val_if_fail (PGS_IS_WSS (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (self->prepared)
    return TRUE;

  /* After a failed attempt: start again from nothing. */
  close_fd (&self->dir_fd);
  close_fd (&self->clear_fd);
  close_fd (&self->pidfd);
  close_fd (&self->pagemap_fd);
  close_fd (&self->kpageflags_fd);
  close_fd (&self->idle_fd);

  if (is_live (self) && self->pid == getpid ())
    {
      g_set_error (error, PGS_ERROR, PGS_ERROR_FAILED,
                   "PID %d is this process: measuring its own working set would count its "
                   "own reading as use; measure it from another process", self->pid);
      return FALSE;
    }

  self->page_size = (guint) sysconf (_SC_PAGESIZE);
  self->dir_fd = pgs_open_pid_dir (self->procfs_root, self->pid, &local);
  if (self->dir_fd < 0)
    {
      if (g_error_matches (local, PGS_ERROR, PGS_ERROR_PROCESS_GONE))
        g_set_error (error, PGS_ERROR, PGS_ERROR_NO_SUCH_PROCESS, "no process with PID %d",
                     self->pid);
      else
        g_propagate_prefixed_error (error, g_steal_pointer (&local), "PID %d: ", self->pid);
      return FALSE;
    }

  if (!read_status (self, &status, error))
    return FALSE;
  g_free (self->name);
  self->name = g_strdup (status.name);
  who = describe (self);

  /* A zombie has no Vm lines either: the state goes first. Before "Kthread:" (6.8), no Vm
   * lines on a live task is what marks a kernel thread. */
  if (status.state == 'Z' || status.state == 'X')
    {
      g_set_error (error, PGS_ERROR, PGS_ERROR_PROCESS_GONE,
                   "%s has exited (it is a zombie): nothing left to measure", who);
      return FALSE;
    }
  if (status.kthread == 1 || (status.kthread < 0 && !status.has_vm))
    {
      g_set_error (error, PGS_ERROR, PGS_ERROR_KERNEL_THREAD,
                   "%s is a kernel thread: it has no user memory, so no working set", who);
      return FALSE;
    }
  if (!status.has_vm)
    {
      set_gone_error (self, error, "before it could be measured");
      return FALSE;
    }

  /* The write is the point of no return, so its permission is checked first, by opening. */
  self->clear_fd = usable_helper (self) != NULL
                   ? pgs_helper_open (self->helper, self->pid, "clear_refs", &local)
                   : pgs_open_at (self->dir_fd, "clear_refs", O_WRONLY, &local);
  if (self->clear_fd < 0)
    {
      if (g_error_matches (local, PGS_ERROR, PGS_ERROR_NO_PERMISSION))
        g_set_error (error, PGS_ERROR, PGS_ERROR_NO_PERMISSION,
                     "%s: cannot clear its referenced bits: %s/%d/clear_refs: %s "
                     "(only the process's owner or root may write it)",
                     who, self->procfs_root, self->pid, g_strerror (EACCES));
      else if (g_error_matches (local, PGS_ERROR, PGS_ERROR_PROCESS_GONE))
        set_gone_error (self, error, "before it could be measured");
      else
        g_propagate_prefixed_error (error, g_steal_pointer (&local), "%s: ", who);
      return FALSE;
    }

  smaps = pgs_helper_read_at (usable_helper (self), self->dir_fd, self->pid, "smaps", &len, &local);
  if (smaps == NULL)
    {
      if (g_error_matches (local, PGS_ERROR, PGS_ERROR_NO_PERMISSION))
        g_set_error (error, PGS_ERROR, PGS_ERROR_NO_PERMISSION,
                     "%s: cannot read %s/%d/smaps: %s (root or the process's owner only)",
                     who, self->procfs_root, self->pid, g_strerror (EACCES));
      else if (g_error_matches (local, PGS_ERROR, PGS_ERROR_PROCESS_GONE))
        set_gone_error (self, error, "before it could be measured");
      else
        g_propagate_prefixed_error (error, g_steal_pointer (&local), "%s: ", who);
      return FALSE;
    }
  if (len == 0)
    {
      /* No mm: exiting since status was read, or a kernel thread status did not show as
       * one. Either way there is nothing to clear. */
      if (read_status (self, &status, NULL) && (status.state == 'Z' || status.state == 'X'))
        set_gone_error (self, error, "before it could be measured");
      else
        g_set_error (error, PGS_ERROR, PGS_ERROR_KERNEL_THREAD,
                     "%s has no user memory (empty smaps), so no working set", who);
      return FALSE;
    }

  /* A format this code does not understand is found now, not after the clearing. */
  {
    ValidateContext validate = { self->pid, NULL };

    if (!pgs_smaps_parse (smaps, len, validate_mapping, &validate, &local))
      {
        g_clear_error (&validate.error);
        g_propagate_prefixed_error (error, g_steal_pointer (&local), "%s: ", who);
        return FALSE;
      }
    if (validate.error != NULL)
      {
        g_propagate_error (error, validate.error);
        return FALSE;
      }
  }

  if (!open_page_sources (self, error))
    return FALSE;

#ifdef SYS_pidfd_open
  /* A pidfd wakes the wait when the process exits. The directory fd held since the start
   * still resolving afterwards proves the pidfd is the same process, not a PID reuse. */
  if (is_live (self))
    {
      self->pidfd = (int) syscall (SYS_pidfd_open, self->pid, 0);
      if (self->pidfd >= 0 && faccessat (self->dir_fd, "stat", F_OK, 0) != 0)
        {
          set_gone_error (self, error, "before it could be measured");
          return FALSE;
        }
    }
#endif

  self->prepared = TRUE;
  return TRUE;
}

static gboolean
in_scope (PgsWssScope  scope,
          guint64      inode)
{
  /* clear_refs selects by vma->vm_file, which maps prints as a non-zero inode. */
  switch (scope)
    {
    case PGS_WSS_SCOPE_ANON:
      return inode == 0;
    case PGS_WSS_SCOPE_FILE:
      return inode != 0;
    case PGS_WSS_SCOPE_ALL:
    default:
      return TRUE;
    }
}

typedef gboolean (*PageFunc) (guint64   address,
                              guint64   entry,
                              gpointer  user_data,
                              GError  **error);

/* Calls @func for each present page of [start, end), reading pagemap in large batches for
 * the resident regions only (PAGEMAP_SCAN, or the whole range where it is missing). */
static gboolean
walk_present (PgsWss    *self,
              guint64    start,
              guint64    end,
              PageFunc   func,
              gpointer   user_data,
              GError   **error)
{
  guint64 ps = self->page_size;

  if (self->pm_buf == NULL)
    self->pm_buf = g_new (guint64, WALK_BATCH);

  g_array_set_size (self->regions, 0);
  if (!pgs_pagemap_scan (self->pagemap_fd, start, end, self->regions, NULL))
    {
      /* Unsupported (before 6.7, or a fixture file) or refused for this range: read it all. */
      PgsPageRegion all = { start, end, 0 };

      g_array_set_size (self->regions, 0);
      g_array_append_val (self->regions, all);
    }

  for (guint r = 0; r < self->regions->len; r++)
    {
      const PgsPageRegion *region = &g_array_index (self->regions, PgsPageRegion, r);
      guint64 addr = region->start;

      if (region->categories & PGS_PAGE_IS_PFNZERO)
        continue;
      while (addr < region->end)
        {
          guint64 n = MIN ((guint64) WALK_BATCH, (region->end - addr) / ps);
          gssize got;
          guint64 n_got;

          if (n == 0)
            break;
          got = pgs_pread_full (self->pagemap_fd, self->pm_buf, n * sizeof (guint64),
                                addr / ps * sizeof (guint64));
          if (got < 0)
            {
              int errsv = errno;

              if (errsv == ESRCH || errsv == ENOENT)
                {
                  set_gone_error (self, error, "during the interval");
                  return FALSE;
                }
              pgs_set_error_from_errno (error, errsv, "PID %d: pagemap", self->pid);
              return FALSE;
            }
          n_got = (guint64) got / sizeof (guint64);
          for (guint64 i = 0; i < n_got; i++)
            if (pgs_pm_is_present (self->pm_buf[i]) &&
                !func (addr + i * ps, self->pm_buf[i], user_data, error))
              return FALSE;
          /* Short: past the end of the address space, or the mm went away. */
          if (n_got < n)
            break;
          addr += n * ps;
        }
    }
  return TRUE;
}

typedef struct
{
  PgsWss     *self;
  GHashTable *blocks;     /* pfn / BLOCK_FRAMES → FrameBlock (words only) */
  GError     *error;
} MarkContext;

static FrameBlock *
lookup_block (GHashTable *blocks,
              guint64     index,
              gboolean   *created)
{
  FrameBlock *block = g_hash_table_lookup (blocks, &index);

  *created = block == NULL;
  if (block == NULL)
    {
      block = g_new0 (FrameBlock, 1);
      block->index = index;
      g_hash_table_insert (blocks, &block->index, block);
    }
  return block;
}

static gboolean
mark_page (guint64   address,
           guint64   entry,
           gpointer  user_data,
           GError  **error)
{
  MarkContext *ctx = user_data;
  MarkedPage page = { address, pgs_pm_pfn (entry) };
  FrameBlock *block;
  gboolean created;

  if (page.pfn == 0)
    return TRUE;
  g_array_append_val (ctx->self->marked, page);
  block = lookup_block (ctx->blocks, page.pfn / BLOCK_FRAMES, &created);
  block->words[page.pfn % BLOCK_FRAMES / 64] |= G_GUINT64_CONSTANT (1) << (page.pfn % 64);
  return TRUE;
}

static void
mark_mapping (const PgsMapsEntry   *entry,
              const PgsSmapsFields *fields,
              gpointer              user_data)
{
  MarkContext *ctx = user_data;

  if (ctx->error != NULL || fields->rss == 0 || !in_scope (ctx->self->cleared_scope, entry->inode))
    return;
  walk_present (ctx->self, entry->start, entry->end, mark_page, ctx, &ctx->error);
}

/* Marks every resident frame of the mappings in scope idle, and remembers which frame was
 * at which address: a page at a new frame by the read-back was faulted in (or replaced)
 * during the interval. Tail pages' bits are ignored by the kernel; setting them is harmless. */
static gboolean
mark_idle (PgsWss  *self,
           GError **error)
{
  g_autoptr(GHashTable) blocks = g_hash_table_new_full (g_int64_hash, g_int64_equal, NULL, g_free);
  g_autofree char *smaps = NULL;
  g_autoptr(GError) local = NULL;
  MarkContext ctx = { self, blocks, NULL };
  GHashTableIter iter;
  FrameBlock *block;
  gsize len;

  smaps = pgs_helper_read_at (usable_helper (self), self->dir_fd, self->pid, "smaps", &len, &local);
  if (smaps == NULL)
    {
      if (g_error_matches (local, PGS_ERROR, PGS_ERROR_PROCESS_GONE))
        set_gone_error (self, error, "while it was being cleared");
      else
        g_propagate_error (error, g_steal_pointer (&local));
      return FALSE;
    }

  g_array_set_size (self->marked, 0);
  if (!pgs_smaps_parse (smaps, len, mark_mapping, &ctx, error))
    {
      g_clear_error (&ctx.error);
      return FALSE;
    }
  if (ctx.error != NULL)
    {
      g_propagate_error (error, ctx.error);
      return FALSE;
    }

  g_hash_table_iter_init (&iter, blocks);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &block))
    {
      gssize n;

      do
        n = pwrite (self->idle_fd, block->words, sizeof block->words,
                    (off_t) (block->index * sizeof block->words));
      while (n < 0 && errno == EINTR);
      if (n != (gssize) sizeof block->words)
        {
          pgs_set_error_from_errno (error, n < 0 ? errno : EIO, "idle page tracking: %s",
                                    PAGE_IDLE_BITMAP);
          return FALSE;
        }
    }
  return TRUE;
}

static gboolean
write_clear_refs (PgsWss  *self,
                  char     code,
                  GError **error)
{
  gssize n;

  do
    n = write (self->clear_fd, &code, 1);
  while (n < 0 && errno == EINTR);

  if (n == 1)
    return TRUE;
  if (n < 0 && (errno == ESRCH || errno == ENOENT))
    set_gone_error (self, error, "before it could be cleared");
  else
    {
      g_autofree char *who = describe (self);

      pgs_set_error_from_errno (error, n < 0 ? errno : EIO, "%s: writing %c to clear_refs",
                                who, code);
    }
  return FALSE;
}

gboolean
pgs_wss_clear (PgsWss  *self,
               GError **error)
{
  g_return_val_if_fail (PGS_IS_WSS (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!pgs_wss_prepare (self, error))
    return FALSE;

  self->cleared = FALSE;
  self->cleared_scope = self->scope;
  /* The counters that tell whether the process ran, before the clearing: a process that
   * touches its pages right after it (a test's child does, on cue) must not have run "before
   * the interval" only because these files were read a few milliseconds late. */
  pgs_wss_trust_free (self->trust);
  self->trust = pgs_wss_trust_begin (self->procfs_root, self->sysfs_root, self->pid);
  if ((self->sources & PGS_WSS_PAGES_SOFT_DIRTY) && !write_clear_refs (self, '4', error))
    return FALSE;
  if (!write_clear_refs (self, '0' + (char) self->scope, error))
    return FALSE;
  if ((self->sources & PGS_WSS_PAGES_IDLE) && !mark_idle (self, error))
    return FALSE;

  self->cleared = TRUE;
  self->cleared_at = g_get_monotonic_time ();
  return TRUE;
}

typedef struct
{
  PgsWss        *self;
  PgsWssSample  *sample;
  PgsWssMapping *mapping;
  GHashTable    *blocks;   /* FrameBlock with flags and words read back */
  guint          cursor;   /* into self->marked */
  GError        *error;
} CollectContext;

static FrameBlock *
read_block (CollectContext  *ctx,
            guint64          index,
            GError         **error)
{
  PgsWss *self = ctx->self;
  gboolean created;
  FrameBlock *block = lookup_block (ctx->blocks, index, &created);
  gssize n;

  if (!created)
    return block;

  /* Past the end of either file reads short: those frames stay zero (no flags, not idle). */
  n = pgs_pread_full (self->kpageflags_fd, block->flags, sizeof block->flags,
                      index * sizeof block->flags);
  if (n >= 0)
    n = pgs_pread_full (self->idle_fd, block->words, sizeof block->words,
                        index * sizeof block->words);
  if (n < 0 && errno != ENXIO)
    {
      pgs_set_error_from_errno (error, errno, "idle page tracking: reading frame block %"
                                G_GUINT64_FORMAT, index);
      g_hash_table_remove (ctx->blocks, &index);
      return NULL;
    }
  return block;
}

static gboolean
idle_state (CollectContext   *ctx,
            guint64           address,
            guint64           pfn,
            PgsWssPageState  *state,
            GError          **error)
{
  GArray *marked = ctx->self->marked;
  guint64 marked_pfn = 0;
  FrameBlock *block;
  guint head;
  guint64 flags;

  if (pfn == 0)
    return TRUE;

  while (ctx->cursor < marked->len && g_array_index (marked, MarkedPage, ctx->cursor).address < address)
    ctx->cursor++;
  if (ctx->cursor < marked->len && g_array_index (marked, MarkedPage, ctx->cursor).address == address)
    marked_pfn = g_array_index (marked, MarkedPage, ctx->cursor).pfn;

  if (marked_pfn != pfn)
    {
      /* Not resident at the clear, or at another frame then: faulted in during the interval. */
      *state |= PGS_WSS_PAGE_ACCESS_KNOWN | PGS_WSS_PAGE_ACCESSED;
      return TRUE;
    }

  block = read_block (ctx, pfn / BLOCK_FRAMES, error);
  if (block == NULL)
    return FALSE;

  head = pfn % BLOCK_FRAMES;
  if (block->flags[head] & PGS_KPF_BIT (PGS_KPF_COMPOUND_TAIL))
    {
      while (head > 0 && !(block->flags[head] & PGS_KPF_BIT (PGS_KPF_COMPOUND_HEAD)))
        head--;
      if (!(block->flags[head] & PGS_KPF_BIT (PGS_KPF_COMPOUND_HEAD)))
        return TRUE;
    }
  flags = block->flags[head];
  if (!(flags & PGS_KPF_BIT (PGS_KPF_LRU)) || (flags & PGS_KPF_BIT (PGS_KPF_NOPAGE)))
    return TRUE;

  *state |= PGS_WSS_PAGE_ACCESS_KNOWN;
  if (!(block->words[head / 64] & (G_GUINT64_CONSTANT (1) << (head % 64))))
    *state |= PGS_WSS_PAGE_ACCESSED;
  return TRUE;
}

static gboolean
collect_page (guint64   address,
              guint64   entry,
              gpointer  user_data,
              GError  **error)
{
  CollectContext *ctx = user_data;
  PgsWss *self = ctx->self;
  PgsWssPageState state = PGS_WSS_PAGE_UNKNOWN;

  if (self->sources & PGS_WSS_PAGES_SOFT_DIRTY)
    {
      state |= PGS_WSS_PAGE_WRITE_KNOWN;
      if (entry & PGS_PM_SOFT_DIRTY)
        state |= PGS_WSS_PAGE_WRITTEN;
    }
  if ((self->sources & PGS_WSS_PAGES_IDLE) &&
      !idle_state (ctx, address, pgs_pm_pfn (entry), &state, error))
    return FALSE;

  if (state & PGS_WSS_PAGE_ACCESS_KNOWN)
    ctx->mapping->access_known += self->page_size;
  if (state & PGS_WSS_PAGE_ACCESSED)
    ctx->mapping->accessed += self->page_size;
  if (state & PGS_WSS_PAGE_WRITE_KNOWN)
    ctx->mapping->write_known += self->page_size;
  if (state & PGS_WSS_PAGE_WRITTEN)
    ctx->mapping->written += self->page_size;
  pgs_wss_sample_add_page (ctx->sample, address, state);
  return TRUE;
}

static void
collect_mapping (const PgsMapsEntry   *entry,
                 const PgsSmapsFields *fields,
                 gpointer              user_data)
{
  CollectContext *ctx = user_data;
  g_autofree char *path = NULL;
  PgsWssMapping m = { 0 };

  if (ctx->error != NULL || !in_scope (ctx->self->cleared_scope, entry->inode))
    return;

  if (!check_fields (ctx->self->pid, entry, fields, &ctx->error))
    return;

  path = g_strndup (entry->path, entry->path_len);
  m.start = entry->start;
  m.end = entry->end;
  m.offset = entry->offset;
  m.inode = entry->inode;
  memcpy (m.perms, entry->perms, sizeof m.perms);
  m.anonymous = entry->inode == 0;
  m.path = path;
  m.rss = fields->rss;
  m.referenced = fields->referenced;

  if (ctx->self->sources != PGS_WSS_PAGES_NONE && fields->rss > 0)
    {
      ctx->mapping = &m;
      walk_present (ctx->self, entry->start, entry->end, collect_page, ctx, &ctx->error);
      ctx->mapping = NULL;
    }
  pgs_wss_sample_add_mapping (ctx->sample, &m);
}

PgsWssSample *
pgs_wss_collect (PgsWss  *self,
                 GError **error)
{
  g_autoptr(GHashTable) blocks = g_hash_table_new_full (g_int64_hash, g_int64_equal, NULL, g_free);
  g_autoptr(PgsWssSample) sample = NULL;
  g_autoptr(GError) local = NULL;
  g_autofree char *smaps = NULL;
  CollectContext ctx = { self, NULL, NULL, blocks, 0, NULL };
  gint64 elapsed;
  gsize len;

  g_return_val_if_fail (PGS_IS_WSS (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);
  g_return_val_if_fail (self->cleared, NULL);

  smaps = pgs_helper_read_at (usable_helper (self), self->dir_fd, self->pid, "smaps", &len, &local);
  elapsed = g_get_monotonic_time () - self->cleared_at;
  if (smaps == NULL)
    {
      if (g_error_matches (local, PGS_ERROR, PGS_ERROR_PROCESS_GONE))
        set_gone_error (self, error, "during the interval");
      else
        g_propagate_error (error, g_steal_pointer (&local));
      return NULL;
    }
  if (len == 0)
    {
      /* The mm is gone: a zombie not reaped yet. */
      set_gone_error (self, error, "during the interval");
      return NULL;
    }

  sample = pgs_wss_sample_new (self->pid, self->cleared_scope, self->page_size, self->sources,
                               self->idle_reason, self->soft_dirty_reason);
  ctx.sample = sample;
  if (!pgs_smaps_parse (smaps, len, collect_mapping, &ctx, error))
    {
      g_clear_error (&ctx.error);
      return NULL;
    }
  if (ctx.error != NULL)
    {
      g_propagate_error (error, ctx.error);
      return NULL;
    }

  pgs_wss_trust_end (self->trust, sample);
  pgs_wss_sample_seal (sample, elapsed, g_get_real_time ());
  return g_steal_pointer (&sample);
}

/* Waits until @deadline (monotonic), waking for a cancellation or the process's exit. */
static gboolean
wait_until (PgsWss        *self,
            gint64         deadline,
            GCancellable  *cancellable,
            GError       **error)
{
  GPollFD fds[2];
  guint n_fds = 0;
  gboolean have_cancel_fd = FALSE;
  gboolean ok = FALSE;

  memset (fds, 0, sizeof fds);
  if (cancellable != NULL && g_cancellable_make_pollfd (cancellable, &fds[n_fds]))
    {
      have_cancel_fd = TRUE;
      n_fds++;
    }
  if (self->pidfd >= 0)
    {
      fds[n_fds].fd = self->pidfd;
      fds[n_fds].events = G_IO_IN;
      n_fds++;
    }

  for (;;)
    {
      gint64 now = g_get_monotonic_time ();
      int ret;

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        break;
      if (self->pidfd >= 0 && (fds[n_fds - 1].revents & (G_IO_IN | G_IO_HUP | G_IO_ERR)))
        {
          set_gone_error (self, error, "during the interval");
          break;
        }
      if (now >= deadline)
        {
          ok = TRUE;
          break;
        }
      for (guint i = 0; i < n_fds; i++)
        fds[i].revents = 0;
      ret = g_poll (fds, n_fds, (int) MIN ((deadline - now + 999) / 1000, (gint64) G_MAXINT));
      if (ret < 0 && errno != EINTR)
        {
          pgs_set_error_from_errno (error, errno, "waiting for the interval");
          break;
        }
    }

  if (have_cancel_fd)
    g_cancellable_release_fd (cancellable);
  return ok;
}

PgsWssSample *
pgs_wss_measure (PgsWss        *self,
                 guint          interval_ms,
                 GCancellable  *cancellable,
                 GError       **error)
{
  PgsWssSample *sample = NULL;

  g_return_val_if_fail (PGS_IS_WSS (self), NULL);
  g_return_val_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);
  g_return_val_if_fail (!self->busy, NULL);

  self->busy = TRUE;
  if (pgs_wss_clear (self, error) &&
      wait_until (self, self->cleared_at + (gint64) interval_ms * 1000, cancellable, error))
    sample = pgs_wss_collect (self, error);
  self->busy = FALSE;
  return sample;
}

/* The async measurement: clear in a worker thread, wait on the caller's main context (a
 * timeout, the cancellable and the pidfd as sources, no thread held for the interval),
 * collect in a worker thread. */
typedef struct
{
  guint    interval_ms;
  GSource *timeout;
  GSource *cancelled;
  GSource *exited;
} MeasureData;

static void
destroy_sources (MeasureData *data)
{
  if (data->timeout != NULL)
    g_source_destroy (data->timeout);
  if (data->cancelled != NULL)
    g_source_destroy (data->cancelled);
  if (data->exited != NULL)
    g_source_destroy (data->exited);
  g_clear_pointer (&data->timeout, g_source_unref);
  g_clear_pointer (&data->cancelled, g_source_unref);
  g_clear_pointer (&data->exited, g_source_unref);
}

static void
measure_data_free (MeasureData *data)
{
  destroy_sources (data);
  g_free (data);
}

static void
measure_return_error (GTask  *task,
                      GError *error)
{
  PgsWss *self = g_task_get_source_object (task);

  destroy_sources (g_task_get_task_data (task));
  self->busy = FALSE;
  g_task_return_error (task, error);
}

static void
clear_thread (GTask        *task,
              gpointer      source_object,
              gpointer      task_data,
              GCancellable *cancellable)
{
  GError *error = NULL;

  if (pgs_wss_clear (source_object, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

static void
collect_thread (GTask        *task,
                gpointer      source_object,
                gpointer      task_data,
                GCancellable *cancellable)
{
  GError *error = NULL;
  PgsWssSample *sample = pgs_wss_collect (source_object, &error);

  if (sample == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, sample, (GDestroyNotify) pgs_wss_sample_unref);
}

static void
on_collected (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  PgsWss *self = PGS_WSS (source);
  GError *error = NULL;
  PgsWssSample *sample;

  sample = g_task_propagate_pointer (G_TASK (result), &error);
  if (sample == NULL)
    {
      measure_return_error (task, error);
      return;
    }
  self->busy = FALSE;
  g_task_return_pointer (task, sample, (GDestroyNotify) pgs_wss_sample_unref);
}

static gboolean
on_interval_over (gpointer user_data)
{
  GTask *task = user_data;
  GTask *step;

  destroy_sources (g_task_get_task_data (task));
  step = g_task_new (g_task_get_source_object (task), g_task_get_cancellable (task),
                     on_collected, g_object_ref (task));
  g_task_set_source_tag (step, collect_thread);
  g_task_run_in_thread (step, collect_thread);
  g_object_unref (step);
  return G_SOURCE_REMOVE;
}

static gboolean
on_cancelled (GCancellable *cancellable,
              gpointer      user_data)
{
  GTask *task = user_data;
  GError *error = NULL;

  g_cancellable_set_error_if_cancelled (cancellable, &error);
  measure_return_error (task, error);
  return G_SOURCE_REMOVE;
}

static gboolean
on_exited (int          fd,
           GIOCondition condition,
           gpointer     user_data)
{
  GTask *task = user_data;
  GError *error = NULL;

  set_gone_error (g_task_get_source_object (task), &error, "during the interval");
  measure_return_error (task, error);
  return G_SOURCE_REMOVE;
}

static GSource *
attach (GSource     *source,
        GSourceFunc  func,
        GTask       *task)
{
  g_source_set_callback (source, func, g_object_ref (task), g_object_unref);
  g_source_set_static_name (source, "[pagescope] working-set interval");
  g_source_attach (source, g_task_get_context (task));
  return source;
}

static void
on_cleared (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  PgsWss *self = PGS_WSS (source);
  MeasureData *data = g_task_get_task_data (task);
  GCancellable *cancellable = g_task_get_cancellable (task);
  GError *error = NULL;
  gint64 remaining;

  if (!g_task_propagate_boolean (G_TASK (result), &error))
    {
      measure_return_error (task, error);
      return;
    }

  remaining = self->cleared_at + (gint64) data->interval_ms * 1000 - g_get_monotonic_time ();
  data->timeout = attach (g_timeout_source_new (remaining > 0 ? (guint) ((remaining + 999) / 1000) : 0),
                          on_interval_over, task);
  if (cancellable != NULL)
    data->cancelled = attach (g_cancellable_source_new (cancellable), G_SOURCE_FUNC (on_cancelled), task);
  if (self->pidfd >= 0)
    data->exited = attach (g_unix_fd_source_new (self->pidfd, G_IO_IN), G_SOURCE_FUNC (on_exited), task);
}

void
pgs_wss_measure_async (PgsWss              *self,
                       guint                interval_ms,
                       GCancellable        *cancellable,
                       GAsyncReadyCallback  callback,
                       gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GTask) step = NULL;
  MeasureData *data;

  g_return_if_fail (PGS_IS_WSS (self));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));
  g_return_if_fail (!self->busy);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, pgs_wss_measure_async);
  data = g_new0 (MeasureData, 1);
  data->interval_ms = interval_ms;
  g_task_set_task_data (task, data, (GDestroyNotify) measure_data_free);

  self->busy = TRUE;
  step = g_task_new (self, cancellable, on_cleared, g_object_ref (task));
  g_task_set_source_tag (step, clear_thread);
  g_task_run_in_thread (step, clear_thread);
}

PgsWssSample *
pgs_wss_measure_finish (PgsWss        *self,
                        GAsyncResult  *result,
                        GError       **error)
{
  g_return_val_if_fail (PGS_IS_WSS (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == pgs_wss_measure_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
