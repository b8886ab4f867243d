/* pgs-library-item.c
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A mapped file of librank as a GObject with one property per figure, for the columns,
 * cells and sorters the Libraries template declares.
 */

#include "config.h"

#include <glib/gi18n.h>

#include "pgs-escape.h"
#include "pgs-library-item.h"

struct _PgsLibraryItem
{
  GObject     parent_instance;

  PgsLibFile *file;
  char       *path;    /* safe to show */
};

enum {
  PROP_0,
  PROP_PATH,
  PROP_TIP,
  PROP_N_PROCESSES,
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

G_DEFINE_FINAL_TYPE (PgsLibraryItem, pgs_library_item, G_TYPE_OBJECT)

static void
pgs_library_item_finalize (GObject *object)
{
  PgsLibraryItem *self = PGS_LIBRARY_ITEM (object);

  g_clear_pointer (&self->file, pgs_lib_file_free);
  g_free (self->path);
  G_OBJECT_CLASS (pgs_library_item_parent_class)->finalize (object);
}

static void
pgs_library_item_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  PgsLibraryItem *self = PGS_LIBRARY_ITEM (object);
  const PgsLibFile *f = self->file;

  switch (prop_id)
    {
    case PROP_PATH:
      g_value_set_string (value, self->path);
      break;
    case PROP_TIP:
      {
        GString *pids = g_string_new (NULL);

        for (guint i = 0; i < f->pids->len; i++)
          g_string_append_printf (pids, "%s%d", i ? ", " : "", g_array_index (f->pids, int, i));
        /* Translators: a file's tooltip: its path, then the PIDs that map it */
        g_value_take_string (value, g_strdup_printf (_("%s\nMapped by %s"), self->path, pids->str));
        g_string_free (pids, TRUE);
      }
      break;
    case PROP_N_PROCESSES:
      g_value_set_uint (value, f->pids->len);
      break;
    case PROP_VSS:
    case PROP_RSS:
    case PROP_PSS:
    case PROP_USS:
    case PROP_SWAP:
      {
        const guint64 sizes[] = { f->vss, f->rss, f->pss_fp >> PGS_PSS_SHIFT, f->uss, f->swap };

        g_value_set_uint64 (value, sizes[prop_id - PROP_VSS]);
      }
      break;
    case PROP_KNOWN:
      g_value_set_uint (value, f->known);
      break;
    case PROP_UNKNOWN_REASON:
      g_value_set_static_string (value, _("Unknown: the kernel’s smaps of a process could not be read"));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pgs_library_item_class_init (PgsLibraryItemClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags flags = G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;
  static const char *sizes[] = { "vss", "rss", "pss", "uss", "swap" };

  object_class->finalize = pgs_library_item_finalize;
  object_class->get_property = pgs_library_item_get_property;

  properties[PROP_PATH] = g_param_spec_string ("path", NULL, NULL, NULL, flags);
  properties[PROP_TIP] = g_param_spec_string ("tip", NULL, NULL, NULL, flags);
  properties[PROP_N_PROCESSES] = g_param_spec_uint ("n-processes", NULL, NULL, 0, G_MAXUINT, 0, flags);
  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
    properties[PROP_VSS + i] = g_param_spec_uint64 (sizes[i], NULL, NULL, 0, G_MAXUINT64, 0, flags);
  properties[PROP_KNOWN] = g_param_spec_uint ("known", NULL, NULL, 0, G_MAXUINT, 0, flags);
  properties[PROP_UNKNOWN_REASON] = g_param_spec_string ("unknown-reason", NULL, NULL, NULL, flags);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
pgs_library_item_init (PgsLibraryItem *self)
{
}

PgsLibraryItem *
pgs_library_item_new (PgsLibFile *file)
{
  PgsLibraryItem *self;

  g_return_val_if_fail (file != NULL, NULL);

  self = g_object_new (PGS_TYPE_LIBRARY_ITEM, NULL);
  self->file = file;
  self->path = pgs_escape_for_terminal (file->path, -1);
  return self;
}

const PgsLibFile *
pgs_library_item_get_file (PgsLibraryItem *self)
{
  g_return_val_if_fail (PGS_IS_LIBRARY_ITEM (self), NULL);
  return self->file;
}

GListModel *
pgs_library_items_build (PgsSnapshot *snapshot,
                         guint       *n_unmapped)
{
  g_autoptr(GPtrArray) all = g_ptr_array_new ();
  g_autoptr(GPtrArray) files = NULL;
  g_autoptr(GPtrArray) items = NULL;
  GListStore *store = g_list_store_new (PGS_TYPE_LIBRARY_ITEM);

  *n_unmapped = 0;
  if (snapshot == NULL)
    return G_LIST_MODEL (store);
  for (guint i = 0; i < pgs_snapshot_get_n_processes (snapshot); i++)
    g_ptr_array_add (all, pgs_snapshot_get_process (snapshot, i));
  files = pgs_librank (all, n_unmapped);
  /* The items own the files from here. */
  g_ptr_array_set_free_func (files, NULL);
  items = g_ptr_array_new_full (files->len, g_object_unref);
  for (guint i = 0; i < files->len; i++)
    g_ptr_array_add (items, pgs_library_item_new (g_ptr_array_index (files, i)));
  g_list_store_splice (store, 0, 0, items->pdata, items->len);
  return G_LIST_MODEL (store);
}
