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
} PgsPagePrivate;

enum {
  PROP_0,
  PROP_SESSION,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum {
  SESSION_NOTIFY,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

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

  /* PgsPage::session-notify::PROPERTY (pspec, session): a property of the session changed,
   * or a session arrived (then once for each of its properties). A page connects to its
   * own signal, so the base never holds a page's function. */
  signals[SESSION_NOTIFY] =
    g_signal_new ("session-notify", G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST | G_SIGNAL_DETAILED, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 2, G_TYPE_PARAM, PGS_TYPE_SESSION);
}

static void
emit_session_notify (PgsPage    *self,
                     GParamSpec *pspec,
                     PgsSession *session)
{
  g_signal_emit (self, signals[SESSION_NOTIFY], g_quark_from_string (pspec->name), pspec, session);
}

static void
pgs_page_init (PgsPage *self)
{
  PgsPagePrivate *priv = pgs_page_get_instance_private (self);

  priv->bindings = g_binding_group_new ();
  priv->signals = g_signal_group_new (PGS_TYPE_SESSION);
  g_signal_group_connect_object (priv->signals, "notify", G_CALLBACK (emit_session_notify),
                                 self, G_CONNECT_SWAPPED);
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
  if (session != NULL)
    {
      guint n;
      g_autofree GParamSpec **pspecs =
        g_object_class_list_properties (G_OBJECT_GET_CLASS (session), &n);

      for (guint i = 0; i < n; i++)
        emit_session_notify (self, pspecs[i], session);
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
