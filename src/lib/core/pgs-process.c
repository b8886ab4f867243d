/* pgs-process.c
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A process in a snapshot. Immutable once the scanner hands the snapshot over: the metrics
 * are plain guint64 byte properties (so GtkNumericSorter can sort on them) and the page data
 * sits in packed arrays (looked up and walked in pgs-process-pages.c); PgsMapping objects
 * are made only when someone asks for the list.
 */

#include "config.h"

#include <fcntl.h>
#include <unistd.h>

#include <glib/gi18n-lib.h>

#include "pgs-error.h"
#include "pgs-mapping.h"
#include "pgs-pagemap.h"
#include "pgs-parse.h"
#include "pgs-escape.h"
#include "pgs-process-private.h"
#include "pgs-procfs.h"

G_DEFINE_FINAL_TYPE (PgsProcess, pgs_process, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_PID,
  PROP_PPID,
  PROP_UID,
  PROP_USER,
  PROP_NAME,
  PROP_CMDLINE,
  PROP_VSS,
  PROP_RSS,
  PROP_PSS,
  PROP_USS,
  PROP_SWAP,
  PROP_SWAP_PSS,
  PROP_CLEAN,
  PROP_DIRTY,
  PROP_SHARED,
  PROP_PRIVATE,
  PROP_START_TIME,
  PROP_KNOWN,
  PROP_UNKNOWN_REASON,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
pgs_process_finalize (GObject *object)
{
  PgsProcess *self = (PgsProcess *) object;

  if (self->mappings != NULL)
    {
      for (guint i = 0; i < self->mappings->len; i++)
        g_clear_pointer (&g_array_index (self->mappings, PgsMappingData, i).path, g_ref_string_release);
      g_array_unref (self->mappings);
    }
  for (guint i = 0; i < G_N_ELEMENTS (self->display); i++)
    g_free (self->display[i]);
  g_clear_pointer (&self->runs, g_array_unref);
  g_clear_pointer (&self->pending, g_array_unref);
  g_clear_pointer (&self->entries, g_free);
  g_clear_pointer (&self->counts, g_free);
  g_clear_pointer (&self->user, g_free);
  g_clear_pointer (&self->name, g_free);
  g_clear_pointer (&self->cmdline, g_free);
  g_clear_pointer (&self->cgroup, g_free);
  g_clear_pointer (&self->unknown_reason, g_free);

  G_OBJECT_CLASS (pgs_process_parent_class)->finalize (object);
}

static void
pgs_process_dispose (GObject *object)
{
  PgsProcess *self = (PgsProcess *) object;

  g_clear_object (&self->mapping_objects);

  G_OBJECT_CLASS (pgs_process_parent_class)->dispose (object);
}

static void
pgs_process_get_property (GObject    *object,
                          guint       prop_id,
                          GValue     *value,
                          GParamSpec *pspec)
{
  PgsProcess *self = PGS_PROCESS (object);

  switch (prop_id)
    {
    case PROP_PID:
      g_value_set_int (value, self->pid);
      break;
    case PROP_PPID:
      g_value_set_int (value, self->ppid);
      break;
    case PROP_UID:
      g_value_set_uint (value, self->uid);
      break;
    case PROP_USER:
      g_value_set_string (value, self->user);
      break;
    case PROP_NAME:
      g_value_set_string (value, self->name);
      break;
    case PROP_CMDLINE:
      g_value_set_string (value, self->cmdline);
      break;
    case PROP_VSS:
      g_value_set_uint64 (value, pgs_process_get_vss (self));
      break;
    case PROP_RSS:
      g_value_set_uint64 (value, pgs_process_get_rss (self));
      break;
    case PROP_PSS:
      g_value_set_uint64 (value, pgs_process_get_pss (self));
      break;
    case PROP_USS:
      g_value_set_uint64 (value, pgs_process_get_uss (self));
      break;
    case PROP_SWAP:
      g_value_set_uint64 (value, pgs_process_get_swap (self));
      break;
    case PROP_SWAP_PSS:
      g_value_set_uint64 (value, pgs_process_get_metric (self, PGS_METRIC_SWAP_PSS));
      break;
    case PROP_CLEAN:
      g_value_set_uint64 (value, pgs_process_get_metric (self, PGS_METRIC_CLEAN));
      break;
    case PROP_DIRTY:
      g_value_set_uint64 (value, pgs_process_get_metric (self, PGS_METRIC_DIRTY));
      break;
    case PROP_SHARED:
      g_value_set_uint64 (value, pgs_process_get_metric (self, PGS_METRIC_SHARED));
      break;
    case PROP_PRIVATE:
      g_value_set_uint64 (value, pgs_process_get_metric (self, PGS_METRIC_PRIVATE));
      break;
    case PROP_START_TIME:
      g_value_set_uint64 (value, self->start_time);
      break;
    case PROP_KNOWN:
      g_value_set_uint (value, self->known);
      break;
    case PROP_UNKNOWN_REASON:
      g_value_set_string (value, self->unknown_reason);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static GParamSpec *
metric_pspec (const char *name)
{
  return g_param_spec_uint64 (name, NULL, NULL, 0, G_MAXUINT64, 0,
                              G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
}

static void
pgs_process_class_init (PgsProcessClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  const GParamFlags flags = G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->dispose = pgs_process_dispose;
  object_class->finalize = pgs_process_finalize;
  object_class->get_property = pgs_process_get_property;

  properties[PROP_PID] = g_param_spec_int ("pid", NULL, NULL, 0, G_MAXINT, 0, flags);
  properties[PROP_PPID] = g_param_spec_int ("ppid", NULL, NULL, 0, G_MAXINT, 0, flags);
  properties[PROP_UID] = g_param_spec_uint ("uid", NULL, NULL, 0, G_MAXUINT, 0, flags);
  properties[PROP_USER] = g_param_spec_string ("user", NULL, NULL, NULL, flags);
  properties[PROP_NAME] = g_param_spec_string ("name", NULL, NULL, NULL, flags);
  properties[PROP_CMDLINE] = g_param_spec_string ("cmdline", NULL, NULL, NULL, flags);
  /* Sizes in bytes; 0 where unknown, so always check :known before showing one. */
  properties[PROP_VSS] = metric_pspec ("vss");
  properties[PROP_RSS] = metric_pspec ("rss");
  properties[PROP_PSS] = metric_pspec ("pss");
  properties[PROP_USS] = metric_pspec ("uss");
  properties[PROP_SWAP] = metric_pspec ("swap");
  properties[PROP_SWAP_PSS] = metric_pspec ("swap-pss");
  properties[PROP_CLEAN] = metric_pspec ("clean");
  properties[PROP_DIRTY] = metric_pspec ("dirty");
  properties[PROP_SHARED] = metric_pspec ("shared");
  properties[PROP_PRIVATE] = metric_pspec ("private");
  /* Clock ticks after boot (/proc/PID/stat field 22); 0 where unknown. */
  properties[PROP_START_TIME] = metric_pspec ("start-time");
  properties[PROP_KNOWN] = g_param_spec_uint ("known", NULL, NULL, 0, G_MAXUINT, 0, flags);
  properties[PROP_UNKNOWN_REASON] = g_param_spec_string ("unknown-reason", NULL, NULL, NULL, flags);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
pgs_process_init (PgsProcess *self)
{
  self->mappings = g_array_new (FALSE, TRUE, sizeof (PgsMappingData));
  self->page_size = 4096;
}

PgsProcess *
_pgs_process_new (int pid)
{
  PgsProcess *self = g_object_new (PGS_TYPE_PROCESS, NULL);

  self->pid = pid;
  return self;
}

void
_pgs_process_set_unknown (PgsProcess *self,
                          guint       metrics,
                          const char *reason)
{
  self->known &= ~metrics;
  if (self->unknown_reason == NULL)
    self->unknown_reason = g_strdup (reason);
}

int
pgs_process_get_pid (PgsProcess *self)
{
  g_return_val_if_fail (PGS_IS_PROCESS (self), 0);
  return self->pid;
}

/* The start time from /proc/PID/stat (clock ticks after boot): with the PID it names one
 * process across snapshots of one boot. 0 when stat could not be read. */
guint64
pgs_process_get_start_time (PgsProcess *self)
{
  g_return_val_if_fail (PGS_IS_PROCESS (self), 0);
  return self->start_time;
}

int
pgs_process_get_ppid (PgsProcess *self)
{
  g_return_val_if_fail (PGS_IS_PROCESS (self), 0);
  return self->ppid;
}

guint
pgs_process_get_uid (PgsProcess *self)
{
  g_return_val_if_fail (PGS_IS_PROCESS (self), 0);
  return self->uid;
}

const char *
pgs_process_get_user (PgsProcess *self)
{
  g_return_val_if_fail (PGS_IS_PROCESS (self), NULL);
  return self->user;
}

const char *
pgs_process_get_name (PgsProcess *self)
{
  g_return_val_if_fail (PGS_IS_PROCESS (self), NULL);
  return self->name;
}

const char *
pgs_process_get_cmdline (PgsProcess *self)
{
  g_return_val_if_fail (PGS_IS_PROCESS (self), NULL);
  return self->cmdline;
}

/* Made once, by whichever thread asks first: the snapshot is shared between the scan's
 * worker and the main thread, so the cache is set with compare-and-exchange. */
static const char *
display_text (char       **cache,
              const char  *raw)
{
  char *text = g_atomic_pointer_get (cache);

  if (text != NULL)
    return text;
  text = pgs_escape_for_terminal (raw != NULL ? raw : "", -1);
  if (!g_atomic_pointer_compare_and_exchange (cache, NULL, text))
    {
      g_free (text);
      text = g_atomic_pointer_get (cache);
    }
  return text;
}

/* A user or name a snapshot from elsewhere lacks shows as unknown, never as nothing. */
const char *
pgs_process_get_display_user (PgsProcess *self)
{
  g_return_val_if_fail (PGS_IS_PROCESS (self), NULL);
  return display_text (&self->display[0], self->user != NULL ? self->user : _("unknown"));
}

const char *
pgs_process_get_display_name (PgsProcess *self)
{
  g_return_val_if_fail (PGS_IS_PROCESS (self), NULL);
  return display_text (&self->display[1], self->name != NULL ? self->name : _("unknown"));
}

const char *
pgs_process_get_display_cmdline (PgsProcess *self)
{
  g_return_val_if_fail (PGS_IS_PROCESS (self), NULL);
  return display_text (&self->display[2], self->cmdline);
}

const char *
pgs_process_get_cgroup (PgsProcess *self)
{
  g_return_val_if_fail (PGS_IS_PROCESS (self), NULL);
  return self->cgroup;
}

guint64
pgs_process_get_metric (PgsProcess *self,
                        PgsMetric   metric)
{
  g_return_val_if_fail (PGS_IS_PROCESS (self), 0);

  if (!(self->known & metric))
    return 0;

  switch (metric)
    {
    case PGS_METRIC_VSS:
      return self->vss;
    case PGS_METRIC_RSS:
      return self->rss;
    case PGS_METRIC_PSS:
      return self->pss_fp >> PGS_PSS_SHIFT;
    case PGS_METRIC_USS:
      return self->uss;
    case PGS_METRIC_SWAP:
      return self->swap;
    case PGS_METRIC_SWAP_PSS:
      return self->swap_pss;
    case PGS_METRIC_CLEAN:
      return self->shared_clean + self->private_clean;
    case PGS_METRIC_DIRTY:
      return self->shared_dirty + self->private_dirty;
    case PGS_METRIC_SHARED:
      return self->shared_clean + self->shared_dirty;
    case PGS_METRIC_PRIVATE:
      return self->private_clean + self->private_dirty;
    case PGS_METRIC_THP:
      return self->thp_anon + self->thp_shmem + self->thp_file;
    default:
      g_return_val_if_reached (0);
    }
}

guint64
pgs_process_get_vss (PgsProcess *self)
{
  return pgs_process_get_metric (self, PGS_METRIC_VSS);
}

guint64
pgs_process_get_rss (PgsProcess *self)
{
  return pgs_process_get_metric (self, PGS_METRIC_RSS);
}

guint64
pgs_process_get_pss (PgsProcess *self)
{
  return pgs_process_get_metric (self, PGS_METRIC_PSS);
}

/* PSS with the kernel's 12 fractional bits, for totals that add up before truncating. */
guint64
pgs_process_get_pss_fixed (PgsProcess *self)
{
  g_return_val_if_fail (PGS_IS_PROCESS (self), 0);
  return (self->known & PGS_METRIC_PSS) ? self->pss_fp : 0;
}

guint64
pgs_process_get_uss (PgsProcess *self)
{
  return pgs_process_get_metric (self, PGS_METRIC_USS);
}

guint64
pgs_process_get_swap (PgsProcess *self)
{
  return pgs_process_get_metric (self, PGS_METRIC_SWAP);
}

gboolean
pgs_process_is_known (PgsProcess *self,
                      PgsMetric   metric)
{
  g_return_val_if_fail (PGS_IS_PROCESS (self), FALSE);
  return (self->known & metric) == (guint) metric;
}

guint
pgs_process_get_known (PgsProcess *self)
{
  g_return_val_if_fail (PGS_IS_PROCESS (self), 0);
  return self->known & PGS_METRIC_ALL;
}

const char *
pgs_process_get_unknown_reason (PgsProcess *self)
{
  g_return_val_if_fail (PGS_IS_PROCESS (self), NULL);
  return self->unknown_reason;
}

PgsSource
pgs_process_get_source (PgsProcess *self)
{
  g_return_val_if_fail (PGS_IS_PROCESS (self), PGS_SOURCE_NONE);
  return self->source;
}

guint
pgs_process_get_n_mappings (PgsProcess *self)
{
  g_return_val_if_fail (PGS_IS_PROCESS (self), 0);
  return self->mappings->len;
}

/**
 * pgs_process_get_mappings:
 *
 * Returns: (transfer none): a list of PgsMapping in address order, made on first call.
 */
GListModel *
pgs_process_get_mappings (PgsProcess *self)
{
  g_return_val_if_fail (PGS_IS_PROCESS (self), NULL);

  if (self->mapping_objects == NULL)
    {
      g_autoptr(GPtrArray) items = g_ptr_array_new_full (self->mappings->len, g_object_unref);

      for (guint i = 0; i < self->mappings->len; i++)
        g_ptr_array_add (items, _pgs_mapping_new (self, i));
      self->mapping_objects = g_list_store_new (PGS_TYPE_MAPPING);
      g_list_store_splice (self->mapping_objects, 0, 0, items->pdata, items->len);
    }

  return G_LIST_MODEL (self->mapping_objects);
}

/* A zombie keeps /proc/PID/status (State: Z, no Vm lines) while its pagemap reads short and
 * its maps read empty; a process fully gone makes the files vanish (ENOENT, ESRCH). Any of
 * these means it exited under us; a process that is alive with a short pagemap has a
 * damaged file instead. */
gboolean
_pgs_process_has_exited (int dirfd)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *buf = NULL;
  g_autofree char *maps = NULL;
  PgsStatus status;
  gsize len;

  buf = pgs_read_file_at (dirfd, "status", &len, &error);
  if (buf == NULL)
    return g_error_matches (error, PGS_ERROR, PGS_ERROR_PROCESS_GONE);
  if (!pgs_status_parse (buf, len, &status, NULL))
    return FALSE;
  if (status.state == 'Z' || status.state == 'X' || !status.has_vm)
    return TRUE;

  maps = pgs_read_file_at (dirfd, "maps", &len, &error);
  if (maps == NULL)
    return g_error_matches (error, PGS_ERROR, PGS_ERROR_PROCESS_GONE);
  return len == 0;
}

gboolean
_pgs_process_check_sane (PgsProcess  *self,
                         GError     **error)
{
  const guint both = PGS_METRIC_VSS | PGS_METRIC_RSS;

  for (guint i = 0; self->mappings != NULL && i < self->mappings->len; i++)
    {
      const PgsMappingData *m = &g_array_index (self->mappings, PgsMappingData, i);

      if ((m->known & both) == both && m->rss > m->end - m->start)
        {
          g_set_error (error, PGS_ERROR, PGS_ERROR_MALFORMED,
                       "the mapping at 0x%" G_GINT64_MODIFIER "x has an RSS of %" G_GUINT64_FORMAT
                       " bytes, more than its size of %" G_GUINT64_FORMAT " bytes",
                       m->start, m->rss, m->end - m->start);
          return FALSE;
        }
    }

  if ((self->known & both) == both &&
      (self->rss > self->vss ||
       ((self->known & PGS_METRIC_SWAP) && self->swap > self->vss - self->rss)))
    {
      g_set_error (error, PGS_ERROR, PGS_ERROR_TRUNCATED,
                   "RSS (%" G_GUINT64_FORMAT " bytes) and swap (%" G_GUINT64_FORMAT
                   " bytes) exceed the mapped size (%" G_GUINT64_FORMAT
                   " bytes): maps is incomplete (cut short?)",
                   self->rss, (self->known & PGS_METRIC_SWAP) ? self->swap : 0, self->vss);
      return FALSE;
    }

  if ((self->known & PGS_METRIC_RSS) &&
      (((self->known & PGS_METRIC_USS) && self->uss > self->rss) ||
       ((self->known & PGS_METRIC_PSS) && (self->pss_fp >> PGS_PSS_SHIFT) > self->rss)))
    {
      g_set_error (error, PGS_ERROR, PGS_ERROR_MALFORMED,
                   "PSS or USS exceeds RSS (%" G_GUINT64_FORMAT " bytes)", self->rss);
      return FALSE;
    }
  return TRUE;
}

gboolean
pgs_process_get_started (PgsProcess *self,
                         gint64      boot_time,
                         gint64     *started)
{
  long ticks = sysconf (_SC_CLK_TCK);

  g_return_val_if_fail (PGS_IS_PROCESS (self), FALSE);

  if (self->start_time == 0 || boot_time <= 0 || ticks <= 0)
    return FALSE;
  *started = boot_time + (gint64) (self->start_time / (guint64) ticks);
  return TRUE;
}

gint64
pgs_read_boot_time (const char  *procfs_root,
                    GError     **error)
{
  g_autofree char *buf = NULL;
  gsize len;
  gint64 btime = 0;
  int dirfd;

  dirfd = pgs_open_at (AT_FDCWD, procfs_root, O_RDONLY | O_DIRECTORY, error);
  if (dirfd < 0)
    return 0;
  buf = pgs_read_file_at (dirfd, "stat", &len, error);
  close (dirfd);
  if (buf == NULL || !pgs_stat_btime_parse (buf, len, &btime, error))
    return 0;
  return btime;
}
