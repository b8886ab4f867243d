/* pgs-page.c: a page of the window, following the session
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every page gets the window's session once, through its template; the page binds what it
 * shows (the snapshot, the selected process, units, layout…) to the session's properties
 * instead of being handed each change. The bindings and handlers follow the session set.
 */

#include "config.h"

#include "pgs-page.h"

typedef struct
{
  PgsSession    *session;
  GBindingGroup *bindings;
  GSignalGroup  *signals;
  GArray        *handlers;   /* Handler: to call once a session is set */
} PgsPagePrivate;

typedef struct
{
  GParamSpec    *pspec;
  PgsPageNotify  func;
} Handler;

enum {
  PROP_0,
  PROP_SESSION,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_TYPE_WITH_PRIVATE (PgsPage, pgs_page, GTK_TYPE_WIDGET)

static void
pgs_page_dispose (GObject *object)
{
  PgsPagePrivate *priv = pgs_page_get_instance_private (PGS_PAGE (object));

  g_binding_group_set_source (priv->bindings, NULL);
  g_signal_group_set_target (priv->signals, NULL);
  g_clear_object (&priv->session);

  G_OBJECT_CLASS (pgs_page_parent_class)->dispose (object);
}

static void
pgs_page_finalize (GObject *object)
{
  PgsPagePrivate *priv = pgs_page_get_instance_private (PGS_PAGE (object));

  g_clear_object (&priv->bindings);
  g_clear_object (&priv->signals);
  g_clear_pointer (&priv->handlers, g_array_unref);

  G_OBJECT_CLASS (pgs_page_parent_class)->finalize (object);
}

static void
pgs_page_get_property (GObject    *object,
                       guint       prop_id,
                       GValue     *value,
                       GParamSpec *pspec)
{
  switch (prop_id)
    {
    case PROP_SESSION:
      g_value_set_object (value, pgs_page_get_session (PGS_PAGE (object)));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pgs_page_set_property (GObject      *object,
                       guint         prop_id,
                       const GValue *value,
                       GParamSpec   *pspec)
{
  switch (prop_id)
    {
    case PROP_SESSION:
      pgs_page_set_session (PGS_PAGE (object), g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pgs_page_class_init (PgsPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = pgs_page_dispose;
  object_class->finalize = pgs_page_finalize;
  object_class->get_property = pgs_page_get_property;
  object_class->set_property = pgs_page_set_property;

  properties[PROP_SESSION] =
    g_param_spec_object ("session", NULL, NULL, PGS_TYPE_SESSION,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
pgs_page_init (PgsPage *self)
{
  PgsPagePrivate *priv = pgs_page_get_instance_private (self);

  priv->bindings = g_binding_group_new ();
  priv->signals = g_signal_group_new (PGS_TYPE_SESSION);
  priv->handlers = g_array_new (FALSE, FALSE, sizeof (Handler));
}

PgsSession *
pgs_page_get_session (PgsPage *self)
{
  PgsPagePrivate *priv = pgs_page_get_instance_private (self);

  g_return_val_if_fail (PGS_IS_PAGE (self), NULL);
  return priv->session;
}

void
pgs_page_set_session (PgsPage    *self,
                      PgsSession *session)
{
  PgsPagePrivate *priv = pgs_page_get_instance_private (self);

  g_return_if_fail (PGS_IS_PAGE (self));
  g_return_if_fail (session == NULL || PGS_IS_SESSION (session));

  if (!g_set_object (&priv->session, session))
    return;
  g_signal_group_set_target (priv->signals, session);
  g_binding_group_set_source (priv->bindings, session);
  for (guint i = 0; session != NULL && i < priv->handlers->len; i++)
    {
      Handler *handler = &g_array_index (priv->handlers, Handler, i);

      handler->func (self, handler->pspec, session);
    }
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SESSION]);
}

void
pgs_page_bind (PgsPage       *self,
               const char    *source_property,
               gpointer       target,
               const char    *target_property,
               GBindingFlags  flags)
{
  PgsPagePrivate *priv = pgs_page_get_instance_private (self);

  g_return_if_fail (PGS_IS_PAGE (self));
  g_binding_group_bind (priv->bindings, source_property, target, target_property, flags);
}

void
pgs_page_notify (PgsPage    *self,
                 const char *property,
                 gpointer    handler)
{
  PgsPagePrivate *priv = pgs_page_get_instance_private (self);
  g_autoptr(GTypeClass) klass = g_type_class_ref (PGS_TYPE_SESSION);
  g_autofree char *signal = g_strconcat ("notify::", property, NULL);
  Handler entry = { g_object_class_find_property (G_OBJECT_CLASS (klass), property), handler };

  g_return_if_fail (PGS_IS_PAGE (self));
  g_return_if_fail (entry.pspec != NULL);
  g_array_append_val (priv->handlers, entry);
  g_signal_group_connect_object (priv->signals, signal, handler, self, G_CONNECT_SWAPPED);
  if (priv->session != NULL)
    entry.func (self, entry.pspec, priv->session);
}
