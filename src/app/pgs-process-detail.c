/* pgs-process-detail.c
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What it shows of a process is a PgsDetailBody, its stack's "detail" page, built the first
 * time a process is shown or a getter asks for it: at start no process is selected, and the
 * first frame shows only the "empty" page. Until then the detail keeps what the body would
 * show (units, working-set samples, the buttons' reasons) and hands it over when it builds
 * one.
 */

#include "config.h"

#include "pgs-detail-body.h"
#include "pgs-process-detail.h"
#include "pgs-release.h"

struct _PgsProcessDetail
{
  PgsPage              parent_instance;

  PgsProcess          *process;
  PgsUnits             units;
  gboolean             stale;      /* the process changed and the view has not caught up */
  guint                update_source;

  /* The last working-set series, of wss_pid: kept across refreshes while that PID is
   * selected, dropped when another process is. */
  int                  wss_pid;
  GPtrArray           *wss_samples;   /* PgsWssSample, oldest first; NULL before any */
  PgsPhysMap          *physmap;          /* the snapshot's, for the THP frames; or NULL */
  /* Why the buttons' actions are disabled (NULL: they are not), for a body to come. */
  char                *wss_blocked_reason;
  char                *pages_blocked_reason;

  /* The "detail" page, built the first time it is needed; NULL until then. */
  PgsDetailBody       *body;

  /* template children */
  GtkStack            *stack;
  GtkWidget           *scroller;
};

enum {
  PROP_0,
  PROP_PROCESS,
  PROP_WSS_SAMPLE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (PgsProcessDetail, pgs_process_detail, PGS_TYPE_PAGE)

static void on_session_changed (PgsProcessDetail *self,
                                GParamSpec       *pspec,
                                PgsSession       *session);
static void set_wss_samples    (PgsProcessDetail *self,
                                int               pid,
                                GPtrArray        *samples);


/* The "detail" page: built the first time it is needed, then kept. What it shows is
 * handed over once here; afterwards each change as it comes. */
static PgsDetailBody *
ensure_body (PgsProcessDetail *self)
{
  if (self->body != NULL)
    return self->body;

  self->body = PGS_DETAIL_BODY (pgs_detail_body_new ());
  pgs_detail_body_set_units (self->body, self->units);
  pgs_detail_body_set_wss_samples (self->body, self->wss_samples);
  pgs_detail_body_set_wss_blocked_reason (self->body, self->wss_blocked_reason);
  pgs_detail_body_set_pages_blocked_reason (self->body, self->pages_blocked_reason);
  gtk_stack_add_named (self->stack, GTK_WIDGET (self->body), "detail");
  g_debug ("Process detail built");
  return self->body;
}

static void
update (PgsProcessDetail *self)
{
  /* Nothing to show: the body, if one was ever built, lets its rows go. */
  if (self->process == NULL)
    {
      if (self->body != NULL)
        pgs_detail_body_show_process (self->body, NULL, NULL, self->units);
      gtk_stack_set_visible_child_name (self->stack, "empty");
      return;
    }

  pgs_detail_body_show_process (ensure_body (self), self->process, self->physmap, self->units);
  gtk_stack_set_visible_child_name (self->stack, "detail");
}

/* What the body shows, up to date, for the getters (built if it was not). */
static PgsDetailBody *
shown_body (PgsProcessDetail *self)
{
  if (self->stale)
    {
      self->stale = FALSE;
      update (self);
    }
  return ensure_body (self);
}

static gboolean
update_idle (gpointer data)
{
  PgsProcessDetail *self = data;

  self->update_source = 0;
  if (self->stale)
    {
      gint64 start = g_get_monotonic_time ();

      self->stale = FALSE;
      update (self);
      g_debug ("Mappings of the selected process updated: %.1f ms",
               (g_get_monotonic_time () - start) / 1000.0);
    }
  return G_SOURCE_REMOVE;
}

static void
pgs_process_detail_map (GtkWidget *widget)
{
  PgsProcessDetail *self = PGS_PROCESS_DETAIL (widget);

  if (self->stale)
    {
      self->stale = FALSE;
      update (self);
    }
  GTK_WIDGET_CLASS (pgs_process_detail_parent_class)->map (widget);
}

static void
pgs_process_detail_dispose (GObject *object)
{
  PgsProcessDetail *self = (PgsProcessDetail *) object;

  g_clear_handle_id (&self->update_source, g_source_remove);
  gtk_widget_dispose_template (GTK_WIDGET (self), PGS_TYPE_PROCESS_DETAIL);
  self->body = NULL;
  pgs_clear_release (&self->process);
  g_clear_pointer (&self->wss_samples, g_ptr_array_unref);
  g_clear_pointer (&self->physmap, pgs_physmap_unref);
  g_clear_pointer (&self->wss_blocked_reason, g_free);
  g_clear_pointer (&self->pages_blocked_reason, g_free);

  G_OBJECT_CLASS (pgs_process_detail_parent_class)->dispose (object);
}

static void
pgs_process_detail_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  PgsProcessDetail *self = PGS_PROCESS_DETAIL (object);

  switch (prop_id)
    {
    case PROP_PROCESS:
      g_value_set_object (value, self->process);
      break;
    case PROP_WSS_SAMPLE:
      g_value_set_boxed (value, pgs_wss_series_last (self->wss_samples));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pgs_process_detail_set_property (GObject      *object,
                                 guint         prop_id,
                                 const GValue *value,
                                 GParamSpec   *pspec)
{
  PgsProcessDetail *self = PGS_PROCESS_DETAIL (object);

  switch (prop_id)
    {
    case PROP_PROCESS:
      pgs_process_detail_set_process (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

/* A bin (its scroller) whose least size does not depend on its width, nor its width on its
 * height. Asked for its width at a given height, the flow box of the figures answered a
 * width wider than the window (677 px at 640), which the stack around the pane gave it, cut. */
static GtkSizeRequestMode
pgs_process_detail_get_request_mode (GtkWidget *widget)
{
  return GTK_SIZE_REQUEST_CONSTANT_SIZE;
}

static void
pgs_process_detail_measure (GtkWidget      *widget,
                            GtkOrientation  orientation,
                            int             for_size,
                            int            *minimum,
                            int            *natural,
                            int            *minimum_baseline,
                            int            *natural_baseline)
{
  PgsProcessDetail *self = PGS_PROCESS_DETAIL (widget);

  gtk_widget_measure (self->scroller, orientation, -1, minimum, natural, NULL, NULL);
}

static void
pgs_process_detail_size_allocate (GtkWidget *widget,
                                  int        width,
                                  int        height,
                                  int        baseline)
{
  PgsProcessDetail *self = PGS_PROCESS_DETAIL (widget);

  gtk_widget_allocate (self->scroller, width, height, -1, NULL);
}

static void
pgs_process_detail_class_init (PgsProcessDetailClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = pgs_process_detail_dispose;
  object_class->get_property = pgs_process_detail_get_property;
  object_class->set_property = pgs_process_detail_set_property;

  widget_class->map = pgs_process_detail_map;

  properties[PROP_PROCESS] =
    g_param_spec_object ("process", NULL, NULL, PGS_TYPE_PROCESS,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* The last sample of the working-set series shown: the Referenced cells read it. */
  properties[PROP_WSS_SAMPLE] =
    g_param_spec_boxed ("wss-sample", NULL, NULL, PGS_TYPE_WSS_SAMPLE,
                        G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/pagescope/Pagescope/"
                                                             "pgs-process-detail.ui");
  gtk_widget_class_bind_template_child (widget_class, PgsProcessDetail, stack);
  gtk_widget_class_bind_template_child (widget_class, PgsProcessDetail, scroller);

  widget_class->get_request_mode = pgs_process_detail_get_request_mode;
  widget_class->measure = pgs_process_detail_measure;
  widget_class->size_allocate = pgs_process_detail_size_allocate;
  gtk_widget_class_set_css_name (widget_class, "processdetail");

  g_type_ensure (PGS_TYPE_WSS_SAMPLE);
}

static void
pgs_process_detail_init (PgsProcessDetail *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  /* The snapshot first: its physical map counts the process's huge-page frames. */
  g_signal_connect (self, "session-notify::snapshot", G_CALLBACK (on_session_changed), NULL);
  g_signal_connect (self, "session-notify::units", G_CALLBACK (on_session_changed), NULL);
  g_signal_connect (self, "session-notify::wss-sample", G_CALLBACK (on_session_changed), NULL);
  pgs_page_bind (PGS_PAGE (self), "selected-process", self, "process", G_BINDING_SYNC_CREATE);
  update (self);
}

GtkWidget *
pgs_process_detail_new (void)
{
  return g_object_new (PGS_TYPE_PROCESS_DETAIL, NULL);
}

void
pgs_process_detail_prepare (PgsProcessDetail *self)
{
  g_return_if_fail (PGS_IS_PROCESS_DETAIL (self));
  ensure_body (self);
}

PgsProcess *
pgs_process_detail_get_process (PgsProcessDetail *self)
{
  g_return_val_if_fail (PGS_IS_PROCESS_DETAIL (self), NULL);
  return self->process;
}

void
pgs_process_detail_set_process (PgsProcessDetail *self,
                                PgsProcess       *process)
{
  g_return_if_fail (PGS_IS_PROCESS_DETAIL (self));
  g_return_if_fail (!process || PGS_IS_PROCESS (process));

  if (!pgs_set_object_release (&self->process, process))
    return;
  /* Results belong to the PID measured: a refresh of the same process keeps them. */
  if (self->wss_samples != NULL && (process == NULL || pgs_process_get_pid (process) != self->wss_pid))
    set_wss_samples (self, 0, NULL);
  /* A refresh while another view is in front would update hundreds of mapping rows no
   * one sees: that waits until the detail is shown again. In view, it waits for an idle
   * moment, so the swap of the new snapshot and the mapping rows are two short turns of
   * the main loop rather than one long one; before the next frame is drawn, so that both
   * change in one frame (a frame of the whole window is tens of milliseconds under GL on
   * a machine without a GPU). */
  self->stale = TRUE;
  if (gtk_widget_get_mapped (GTK_WIDGET (self)) && self->update_source == 0)
    self->update_source = g_idle_add_full (GDK_PRIORITY_REDRAW - 10, update_idle, self, NULL);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROCESS]);
}

/* The physical map of the process's snapshot: its huge-page frames are counted in it. */
static void
set_physmap (PgsProcessDetail *self,
             PgsPhysMap       *physmap)
{
  if (self->physmap == physmap)
    return;
  g_clear_pointer (&self->physmap, pgs_physmap_unref);
  self->physmap = physmap ? pgs_physmap_ref (physmap) : NULL;
}

static void
set_units (PgsProcessDetail *self,
           PgsUnits          units)
{
  if (self->units == units)
    return;
  self->units = units;
  if (self->body != NULL)
    pgs_detail_body_set_units (self->body, units);
}

const char *
pgs_process_detail_get_metric_text (PgsProcessDetail *self,
                                    PgsMetric         metric)
{
  g_return_val_if_fail (PGS_IS_PROCESS_DETAIL (self), NULL);
  return pgs_detail_body_get_metric_text (shown_body (self), metric);
}

GListModel *
pgs_process_detail_get_mappings (PgsProcessDetail *self)
{
  g_return_val_if_fail (PGS_IS_PROCESS_DETAIL (self), NULL);
  return pgs_detail_body_get_mappings (shown_body (self));
}

/* A working-set series of @pid (PgsWssSample, oldest first; NULL or empty for none): fills
 * the Referenced column and the chart. Kept while @pid stays selected. */
static void
set_wss_samples (PgsProcessDetail *self,
                 int               pid,
                 GPtrArray        *samples)
{
  gboolean changed;

  g_return_if_fail (PGS_IS_PROCESS_DETAIL (self));

  changed = pgs_wss_series_replace (&self->wss_samples, samples);
  self->wss_pid = self->wss_samples != NULL ? pid : 0;
  /* A new sample: the Referenced cells follow it. */
  if (changed)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_WSS_SAMPLE]);
  if (self->body != NULL)
    pgs_detail_body_set_wss_samples (self->body, self->wss_samples);
}

char *
pgs_process_detail_get_referenced_text (PgsProcessDetail  *self,
                                        PgsMapping        *mapping,
                                        const char       **tooltip)
{
  g_return_val_if_fail (PGS_IS_PROCESS_DETAIL (self), NULL);
  g_return_val_if_fail (PGS_IS_MAPPING (mapping), NULL);

  return pgs_detail_body_get_referenced_text (ensure_body (self), mapping, tooltip);
}

GPtrArray *
pgs_process_detail_get_wss_samples (PgsProcessDetail *self)
{
  g_return_val_if_fail (PGS_IS_PROCESS_DETAIL (self), NULL);
  return self->wss_samples;
}

PgsWssChart *
pgs_process_detail_get_wss_chart (PgsProcessDetail *self)
{
  g_return_val_if_fail (PGS_IS_PROCESS_DETAIL (self), NULL);
  return pgs_detail_body_get_wss_chart (ensure_body (self));
}

const char *
pgs_process_detail_get_wss_basis_text (PgsProcessDetail *self)
{
  g_return_val_if_fail (PGS_IS_PROCESS_DETAIL (self), NULL);
  return pgs_detail_body_get_wss_basis_text (ensure_body (self));
}

const char *
pgs_process_detail_get_wss_caveat_text (PgsProcessDetail *self)
{
  g_return_val_if_fail (PGS_IS_PROCESS_DETAIL (self), NULL);
  return pgs_detail_body_get_wss_caveat_text (ensure_body (self));
}

const char *
pgs_process_detail_get_wss_total_text (PgsProcessDetail *self)
{
  g_return_val_if_fail (PGS_IS_PROCESS_DETAIL (self), NULL);
  return pgs_detail_body_get_wss_total_text (ensure_body (self));
}

/* The buttons' reasons are kept for a body not built yet. */
void
pgs_process_detail_set_wss_blocked_reason (PgsProcessDetail *self,
                                           const char       *reason)
{
  g_return_if_fail (PGS_IS_PROCESS_DETAIL (self));

  if (g_strcmp0 (reason, self->wss_blocked_reason) != 0)
    {
      g_free (self->wss_blocked_reason);
      self->wss_blocked_reason = g_strdup (reason);
    }
  if (self->body != NULL)
    pgs_detail_body_set_wss_blocked_reason (self->body, reason);
}

void
pgs_process_detail_set_pages_blocked_reason (PgsProcessDetail *self,
                                             const char       *reason)
{
  g_return_if_fail (PGS_IS_PROCESS_DETAIL (self));

  if (g_strcmp0 (reason, self->pages_blocked_reason) != 0)
    {
      g_free (self->pages_blocked_reason);
      self->pages_blocked_reason = g_strdup (reason);
    }
  if (self->body != NULL)
    pgs_detail_body_set_pages_blocked_reason (self->body, reason);
}

GtkWidget *
pgs_process_detail_get_pages_button (PgsProcessDetail *self)
{
  g_return_val_if_fail (PGS_IS_PROCESS_DETAIL (self), NULL);
  return pgs_detail_body_get_pages_button (ensure_body (self));
}

const char *
pgs_process_detail_get_wss_tooltip (PgsProcessDetail *self)
{
  g_return_val_if_fail (PGS_IS_PROCESS_DETAIL (self), NULL);
  return gtk_widget_get_tooltip_text (pgs_detail_body_get_wss_button (ensure_body (self)));
}

GtkWidget *
pgs_process_detail_get_wss_button (PgsProcessDetail *self)
{
  g_return_val_if_fail (PGS_IS_PROCESS_DETAIL (self), NULL);
  return pgs_detail_body_get_wss_button (ensure_body (self));
}

static void
on_session_changed (PgsProcessDetail *self,
                    GParamSpec       *pspec,
                    PgsSession       *session)
{
  const char *name = g_param_spec_get_name (pspec);
  PgsSnapshot *snapshot = pgs_session_get_snapshot (session);

  if (g_str_equal (name, "snapshot"))
    set_physmap (self, snapshot != NULL ? pgs_snapshot_get_physmap (snapshot) : NULL);
  else if (g_str_equal (name, "units"))
    set_units (self, pgs_session_get_units (session));
  else
    set_wss_samples (self, pgs_session_get_wss_pid (session),
                     pgs_session_get_wss_samples (session));
}
