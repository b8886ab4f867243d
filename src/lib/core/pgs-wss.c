/* pgs-wss.c: the PgsWss object, its properties and the helpers its steps share; each step
 * of a measurement is a file of its own (pgs-wss-private.h lists them)
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

#include "pgs-error.h"
#include "pgs-pagemap.h"
#include "pgs-procfs.h"
#include "pgs-wss.h"
#include "pgs-wss-private.h"
#include "pgs-wss-trust.h"

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
PgsHelper *
pgs_wss_usable_helper (PgsWss *self)
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

/* "PID 42 (name)" once the name is known. */
char *
pgs_wss_describe (PgsWss *self)
{
  if (self->name != NULL)
    return g_strdup_printf ("PID %d (%s)", self->pid, self->name);
  return g_strdup_printf ("PID %d", self->pid);
}

void
pgs_wss_set_gone_error (PgsWss     *self,
                        GError    **error,
                        const char *when)
{
  g_autofree char *who = pgs_wss_describe (self);

  g_set_error (error, PGS_ERROR, PGS_ERROR_PROCESS_GONE, "%s exited %s", who, when);
}
