/* pgs-frame-user-item.c
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The strings are taken when the row is made: the snapshot that names the processes is a
 * whole scan of every page, which the row must not keep alive.
 */

#include "config.h"

#include "pgs-frame-user-item.h"

struct _PgsFrameUserItem
{
  GObject  parent_instance;

  int      pid;
  guint64  address;
  char    *name;
  char    *tip;
  char    *mapping;
};

enum {
  PROP_0,
  PROP_PID,
  PROP_NAME,
  PROP_TIP,
  PROP_ADDRESS,
  PROP_MAPPING,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (PgsFrameUserItem, pgs_frame_user_item, G_TYPE_OBJECT)

static void
pgs_frame_user_item_finalize (GObject *object)
{
  PgsFrameUserItem *self = PGS_FRAME_USER_ITEM (object);

  g_free (self->name);
  g_free (self->tip);
  g_free (self->mapping);
  G_OBJECT_CLASS (pgs_frame_user_item_parent_class)->finalize (object);
}

static void
pgs_frame_user_item_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  PgsFrameUserItem *self = PGS_FRAME_USER_ITEM (object);

  switch (prop_id)
    {
    case PROP_PID:
      g_value_set_int (value, self->pid);
      break;
    case PROP_NAME:
      g_value_set_string (value, self->name);
      break;
    case PROP_TIP:
      g_value_set_string (value, self->tip);
      break;
    case PROP_ADDRESS:
      g_value_set_uint64 (value, self->address);
      break;
    case PROP_MAPPING:
      g_value_set_string (value, self->mapping);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pgs_frame_user_item_class_init (PgsFrameUserItemClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags flags = G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->finalize = pgs_frame_user_item_finalize;
  object_class->get_property = pgs_frame_user_item_get_property;

  properties[PROP_PID] = g_param_spec_int ("pid", NULL, NULL, 0, G_MAXINT, 0, flags);
  properties[PROP_NAME] = g_param_spec_string ("name", NULL, NULL, NULL, flags);
  properties[PROP_TIP] = g_param_spec_string ("tip", NULL, NULL, NULL, flags);
  properties[PROP_ADDRESS] = g_param_spec_uint64 ("address", NULL, NULL, 0, G_MAXUINT64, 0, flags);
  properties[PROP_MAPPING] = g_param_spec_string ("mapping", NULL, NULL, NULL, flags);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
pgs_frame_user_item_init (PgsFrameUserItem *self)
{
}

/* The label of the mapping of @process that holds @address, or NULL. */
static char *
mapping_label (PgsProcess *process,
               guint64     address)
{
  g_autoptr(PgsMapping) mapping = NULL;
  PgsPageInfo info;

  /* FALSE for a page it holds no entry of: the mapping is still known. */
  pgs_process_lookup_page (process, address, &info);
  if (!info.in_mapping)
    return NULL;
  mapping = g_list_model_get_item (pgs_process_get_mappings (process), info.mapping);
  return mapping != NULL ? g_strdup (pgs_mapping_get_display_label (mapping)) : NULL;
}

PgsFrameUserItem *
pgs_frame_user_item_new (PgsSnapshot        *names,
                         const PgsFrameUser *user)
{
  PgsFrameUserItem *self;
  PgsProcess *process;

  g_return_val_if_fail (PGS_IS_SNAPSHOT (names), NULL);
  g_return_val_if_fail (user != NULL, NULL);

  self = g_object_new (PGS_TYPE_FRAME_USER_ITEM, NULL);
  self->pid = user->pid;
  self->address = user->address;
  process = pgs_snapshot_lookup_pid (names, user->pid);
  self->name = g_strdup (process != NULL ? pgs_process_get_display_name (process) : "?");
  if (process != NULL)
    {
      self->tip = g_strdup (pgs_process_get_display_cmdline (process));
      self->mapping = mapping_label (process, user->address);
    }
  return self;
}

int
pgs_frame_user_item_get_pid (PgsFrameUserItem *self)
{
  g_return_val_if_fail (PGS_IS_FRAME_USER_ITEM (self), 0);
  return self->pid;
}
