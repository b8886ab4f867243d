/* pgs-mapping.c
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A mapping of a process, made on demand for list views. It copies its few fields rather
 * than pointing back at the process, so the process can cache its list without a cycle.
 */

#include "config.h"

#include <string.h>

#include "pgs-escape.h"
#include "pgs-mapping.h"
#include "pgs-process-private.h"

struct _PgsMapping
{
  GObject        parent_instance;
  PgsMappingData data;
  guint          index;
  char          *display_label;  /* the label made safe to show; on first use */
};

G_DEFINE_FINAL_TYPE (PgsMapping, pgs_mapping, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_START,
  PROP_END,
  PROP_OFFSET,
  PROP_PERMS,
  PROP_PATH,
  PROP_LABEL,
  PROP_VSS,
  PROP_RSS,
  PROP_PSS,
  PROP_USS,
  PROP_SWAP,
  PROP_SWAP_PSS,
  PROP_KNOWN,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
pgs_mapping_finalize (GObject *object)
{
  PgsMapping *self = (PgsMapping *) object;

  g_clear_pointer (&self->data.path, g_ref_string_release);
  g_free (self->display_label);

  G_OBJECT_CLASS (pgs_mapping_parent_class)->finalize (object);
}

static void
pgs_mapping_get_property (GObject    *object,
                          guint       prop_id,
                          GValue     *value,
                          GParamSpec *pspec)
{
  PgsMapping *self = PGS_MAPPING (object);

  switch (prop_id)
    {
    case PROP_START:
      g_value_set_uint64 (value, self->data.start);
      break;
    case PROP_END:
      g_value_set_uint64 (value, self->data.end);
      break;
    case PROP_OFFSET:
      g_value_set_uint64 (value, self->data.offset);
      break;
    case PROP_PERMS:
      g_value_set_string (value, self->data.perms);
      break;
    case PROP_PATH:
      g_value_set_string (value, self->data.path);
      break;
    case PROP_LABEL:
      g_value_set_string (value, pgs_mapping_get_label (self));
      break;
    case PROP_VSS:
      g_value_set_uint64 (value, pgs_mapping_get_vss (self));
      break;
    case PROP_RSS:
      g_value_set_uint64 (value, pgs_mapping_get_rss (self));
      break;
    case PROP_PSS:
      g_value_set_uint64 (value, pgs_mapping_get_pss (self));
      break;
    case PROP_USS:
      g_value_set_uint64 (value, pgs_mapping_get_uss (self));
      break;
    case PROP_SWAP:
      g_value_set_uint64 (value, pgs_mapping_get_swap (self));
      break;
    case PROP_SWAP_PSS:
      g_value_set_uint64 (value, pgs_mapping_get_metric (self, PGS_METRIC_SWAP_PSS));
      break;
    case PROP_KNOWN:
      g_value_set_uint (value, self->data.known & PGS_METRIC_ALL);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pgs_mapping_class_init (PgsMappingClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  const GParamFlags flags = G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->finalize = pgs_mapping_finalize;
  object_class->get_property = pgs_mapping_get_property;

  properties[PROP_START] = g_param_spec_uint64 ("start", NULL, NULL, 0, G_MAXUINT64, 0, flags);
  properties[PROP_END] = g_param_spec_uint64 ("end", NULL, NULL, 0, G_MAXUINT64, 0, flags);
  properties[PROP_OFFSET] = g_param_spec_uint64 ("offset", NULL, NULL, 0, G_MAXUINT64, 0, flags);
  properties[PROP_PERMS] = g_param_spec_string ("perms", NULL, NULL, NULL, flags);
  properties[PROP_PATH] = g_param_spec_string ("path", NULL, NULL, NULL, flags);
  properties[PROP_LABEL] = g_param_spec_string ("label", NULL, NULL, NULL, flags);
  properties[PROP_VSS] = g_param_spec_uint64 ("vss", NULL, NULL, 0, G_MAXUINT64, 0, flags);
  properties[PROP_RSS] = g_param_spec_uint64 ("rss", NULL, NULL, 0, G_MAXUINT64, 0, flags);
  properties[PROP_PSS] = g_param_spec_uint64 ("pss", NULL, NULL, 0, G_MAXUINT64, 0, flags);
  properties[PROP_USS] = g_param_spec_uint64 ("uss", NULL, NULL, 0, G_MAXUINT64, 0, flags);
  properties[PROP_SWAP] = g_param_spec_uint64 ("swap", NULL, NULL, 0, G_MAXUINT64, 0, flags);
  properties[PROP_SWAP_PSS] = g_param_spec_uint64 ("swap-pss", NULL, NULL, 0, G_MAXUINT64, 0, flags);
  properties[PROP_KNOWN] = g_param_spec_uint ("known", NULL, NULL, 0, G_MAXUINT, 0, flags);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
pgs_mapping_init (PgsMapping *self)
{
}

PgsMapping *
_pgs_mapping_new (PgsProcess *process,
                  guint       index)
{
  PgsMapping *self = g_object_new (PGS_TYPE_MAPPING, NULL);

  g_assert (index < process->mappings->len);
  self->data = g_array_index (process->mappings, PgsMappingData, index);
  self->data.path = g_ref_string_acquire (self->data.path);
  self->index = index;
  return self;
}

guint
pgs_mapping_get_index (PgsMapping *self)
{
  g_return_val_if_fail (PGS_IS_MAPPING (self), 0);
  return self->index;
}

guint64
pgs_mapping_get_start (PgsMapping *self)
{
  g_return_val_if_fail (PGS_IS_MAPPING (self), 0);
  return self->data.start;
}

guint64
pgs_mapping_get_end (PgsMapping *self)
{
  g_return_val_if_fail (PGS_IS_MAPPING (self), 0);
  return self->data.end;
}

guint64
pgs_mapping_get_offset (PgsMapping *self)
{
  g_return_val_if_fail (PGS_IS_MAPPING (self), 0);
  return self->data.offset;
}

const char *
pgs_mapping_get_perms (PgsMapping *self)
{
  g_return_val_if_fail (PGS_IS_MAPPING (self), NULL);
  return self->data.perms;
}

const char *
pgs_mapping_get_path (PgsMapping *self)
{
  g_return_val_if_fail (PGS_IS_MAPPING (self), NULL);
  return self->data.path;
}

const char *
pgs_mapping_label_for_path (const char *path)
{
  return (path == NULL || *path == '\0') ? "[anon]" : path;
}

const char *
pgs_mapping_get_label (PgsMapping *self)
{
  g_return_val_if_fail (PGS_IS_MAPPING (self), NULL);
  return pgs_mapping_label_for_path (self->data.path);
}

const char *
pgs_mapping_get_display_label (PgsMapping *self)
{
  char *text;

  g_return_val_if_fail (PGS_IS_MAPPING (self), NULL);
  text = g_atomic_pointer_get (&self->display_label);
  if (text != NULL)
    return text;
  text = pgs_escape_for_terminal (pgs_mapping_get_label (self), -1);
  if (!g_atomic_pointer_compare_and_exchange (&self->display_label, NULL, text))
    {
      g_free (text);
      text = g_atomic_pointer_get (&self->display_label);
    }
  return text;
}

gboolean
pgs_mapping_is_anonymous (PgsMapping *self)
{
  g_return_val_if_fail (PGS_IS_MAPPING (self), FALSE);
  return self->data.inode == 0;
}

guint64
pgs_mapping_get_metric (PgsMapping *self,
                        PgsMetric   metric)
{
  g_return_val_if_fail (PGS_IS_MAPPING (self), 0);

  if (!(self->data.known & metric))
    return 0;

  switch (metric)
    {
    case PGS_METRIC_VSS:
      return self->data.end - self->data.start;
    case PGS_METRIC_RSS:
      return self->data.rss;
    case PGS_METRIC_PSS:
      return self->data.pss_fp >> PGS_PSS_SHIFT;
    case PGS_METRIC_USS:
      return self->data.uss;
    case PGS_METRIC_SWAP:
      return self->data.swap;
    case PGS_METRIC_SWAP_PSS:
      return self->data.swap_pss;
    default:
      g_return_val_if_reached (0);
    }
}

gboolean
pgs_mapping_is_known (PgsMapping *self,
                      PgsMetric   metric)
{
  g_return_val_if_fail (PGS_IS_MAPPING (self), FALSE);
  return (self->data.known & metric) == (guint) metric;
}

guint64
pgs_mapping_get_vss (PgsMapping *self)
{
  return pgs_mapping_get_metric (self, PGS_METRIC_VSS);
}

guint64
pgs_mapping_get_rss (PgsMapping *self)
{
  return pgs_mapping_get_metric (self, PGS_METRIC_RSS);
}

guint64
pgs_mapping_get_pss (PgsMapping *self)
{
  return pgs_mapping_get_metric (self, PGS_METRIC_PSS);
}

guint64
pgs_mapping_get_uss (PgsMapping *self)
{
  return pgs_mapping_get_metric (self, PGS_METRIC_USS);
}

guint64
pgs_mapping_get_swap (PgsMapping *self)
{
  return pgs_mapping_get_metric (self, PGS_METRIC_SWAP);
}
