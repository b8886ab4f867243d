/* pgs-library-user.c
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "pgs-library-user.h"

struct _PgsLibraryUser
{
  GObject     parent_instance;

  PgsLibUser  share;
  PgsProcess *process;   /* NULL if not in the snapshot */
};

enum {
  PROP_0,
  PROP_PID,
  PROP_NAME,
  PROP_TIP,
  PROP_VSS,
  PROP_RSS,
  PROP_PSS,
  PROP_USS,
  PROP_SWAP,
  PROP_KNOWN,
  PROP_UNKNOWN_REASON,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (PgsLibraryUser, pgs_library_user, G_TYPE_OBJECT)

static void
pgs_library_user_dispose (GObject *object)
{
  g_clear_object (&PGS_LIBRARY_USER (object)->process);
  G_OBJECT_CLASS (pgs_library_user_parent_class)->dispose (object);
}

static void
pgs_library_user_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  PgsLibraryUser *self = PGS_LIBRARY_USER (object);
  const PgsLibUser *u = &self->share;

  switch (prop_id)
    {
    case PROP_PID:
      g_value_set_int (value, u->pid);
      break;
    case PROP_NAME:
      g_value_set_string (value, self->process ? pgs_process_get_display_name (self->process) : "?");
      break;
    case PROP_TIP:
      g_value_set_string (value, self->process ? pgs_process_get_display_cmdline (self->process) : NULL);
      break;
    case PROP_VSS:
    case PROP_RSS:
    case PROP_PSS:
    case PROP_USS:
    case PROP_SWAP:
      {
        const guint64 sizes[] = { u->vss, u->rss, u->pss_fp >> PGS_PSS_SHIFT, u->uss, u->swap };

        g_value_set_uint64 (value, sizes[prop_id - PROP_VSS]);
      }
      break;
    case PROP_KNOWN:
      g_value_set_uint (value, u->known);
      break;
    case PROP_UNKNOWN_REASON:
      g_value_set_static_string (value, _("Unknown: the kernel’s smaps of the process could not be read"));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pgs_library_user_class_init (PgsLibraryUserClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags flags = G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;
  static const char *sizes[] = { "vss", "rss", "pss", "uss", "swap" };

  object_class->dispose = pgs_library_user_dispose;
  object_class->get_property = pgs_library_user_get_property;

  properties[PROP_PID] = g_param_spec_int ("pid", NULL, NULL, 0, G_MAXINT, 0, flags);
  properties[PROP_NAME] = g_param_spec_string ("name", NULL, NULL, NULL, flags);
  properties[PROP_TIP] = g_param_spec_string ("tip", NULL, NULL, NULL, flags);
  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
    properties[PROP_VSS + i] = g_param_spec_uint64 (sizes[i], NULL, NULL, 0, G_MAXUINT64, 0, flags);
  properties[PROP_KNOWN] = g_param_spec_uint ("known", NULL, NULL, 0, G_MAXUINT, 0, flags);
  properties[PROP_UNKNOWN_REASON] = g_param_spec_string ("unknown-reason", NULL, NULL, NULL, flags);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
pgs_library_user_init (PgsLibraryUser *self)
{
}

const PgsLibUser *
pgs_library_user_get_share (PgsLibraryUser *self)
{
  g_return_val_if_fail (PGS_IS_LIBRARY_USER (self), NULL);
  return &self->share;
}

/* Largest share first, as the files are; then by PID. */
static int
compare_users (gconstpointer a,
               gconstpointer b)
{
  const PgsLibUser *ua = a;
  const PgsLibUser *ub = b;

  if (ua->pss_fp != ub->pss_fp)
    return ua->pss_fp > ub->pss_fp ? -1 : 1;
  return (ua->pid > ub->pid) - (ua->pid < ub->pid);
}

GListModel *
pgs_library_users_build (PgsSnapshot *snapshot,
                         const char  *path)
{
  g_autoptr(GPtrArray) all = g_ptr_array_new ();
  g_autoptr(GArray) users = NULL;
  GListStore *store = g_list_store_new (PGS_TYPE_LIBRARY_USER);

  if (snapshot == NULL || path == NULL)
    return G_LIST_MODEL (store);
  for (guint i = 0; i < pgs_snapshot_get_n_processes (snapshot); i++)
    g_ptr_array_add (all, pgs_snapshot_get_process (snapshot, i));
  users = pgs_librank_file_users (all, path);
  g_array_sort (users, compare_users);
  for (guint i = 0; i < users->len; i++)
    {
      g_autoptr(PgsLibraryUser) user = g_object_new (PGS_TYPE_LIBRARY_USER, NULL);
      PgsProcess *p;

      user->share = g_array_index (users, PgsLibUser, i);
      p = pgs_snapshot_lookup_pid (snapshot, user->share.pid);
      user->process = p != NULL ? g_object_ref (p) : NULL;
      g_list_store_append (store, user);
    }
  return G_LIST_MODEL (store);
}
