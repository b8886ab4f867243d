/* pgs-map-page.c
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A map page never shows an empty picture: where there is nothing to draw it says why
 * instead (pgs-map-empty.c); what it says around the map is pgs-map-page-state.c's.
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "pgs-frame-users-view.h"
#include "pgs-release.h"
#include "pgs-map-legend.h"
#include "pgs-map-page-private.h"
#include "pgs-pagemap.h"
#include "pgs-tooltip.h"


enum {
  PROP_0,
  PROP_VIEW,
  PROP_PROCESS,
  N_PROPS
};

enum {
  PROCESS_ACTIVATED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (PgsMapPage, pgs_map_page, PGS_TYPE_PAGE)

static void set_snapshot   (PgsMapPage   *self,
                            PgsSnapshot  *snapshot);
static void choose_process (PgsMapPage   *self,
                            PgsProcess   *process);
static void set_wss_sample (PgsMapPage   *self,
                            int           pid,
                            PgsWssSample *sample);


/* @find_users FALSE (a refresh of the page shown): who maps its frame is looked up again
 * only if the frame changed (pgs_frame_users_view_update()). */
static void
show_hit (PgsMapPage   *self,
          const PgsHit *hit,
          gboolean      find_users)
{
  g_autofree char *text = NULL;

  self->hit = *hit;
  self->have_hit = TRUE;
  self->hit_pid = self->process ? pgs_process_get_pid (self->process) : 0;
  text = pgs_map_view_describe_hit (self->map_view, hit);
  gtk_label_set_text (self->info_label, text);
  gtk_revealer_set_reveal_child (self->info_revealer, TRUE);
  if (find_users)
    pgs_frame_users_view_find (self->frame_users_view, hit);
  else
    pgs_frame_users_view_update (self->frame_users_view, hit);
}

void
pgs_map_page_show_hit (PgsMapPage   *self,
                       const PgsHit *hit)
{
  g_return_if_fail (PGS_IS_MAP_PAGE (self));
  g_return_if_fail (hit != NULL);

  show_hit (self, hit, TRUE);
}

GArray *
pgs_map_page_get_frame_users (PgsMapPage *self)
{
  g_return_val_if_fail (PGS_IS_MAP_PAGE (self), NULL);
  return pgs_frame_users_view_get_users (self->frame_users_view);
}

PgsFrameUsersView *
pgs_map_page_get_frame_users_view (PgsMapPage *self)
{
  g_return_val_if_fail (PGS_IS_MAP_PAGE (self), NULL);
  return self->frame_users_view;
}

static void
close_info (PgsMapPage *self)
{
  pgs_frame_users_view_clear (self->frame_users_view);
  self->have_hit = FALSE;
  gtk_revealer_set_reveal_child (self->info_revealer, FALSE);
}

/* After a refresh the page shown is looked up again in the new snapshot, so the details
 * (and who maps the frame) stay current instead of vanishing every refresh interval. */
static void
refresh_hit (PgsMapPage *self)
{
  PgsHit hit = self->hit;
  PgsPhysMap *physmap;

  if (!self->have_hit || self->snapshot == NULL)
    return;

  physmap = pgs_snapshot_get_physmap (self->snapshot);
  if (!hit.is_frame)
    {
      PgsPageInfo info;

      if (self->process == NULL || !pgs_process_lookup_page (self->process, hit.address, &info) ||
          !info.in_mapping)
        {
          close_info (self);
          return;
        }
      hit.entry = info.entry;
      hit.count = info.count;
      hit.mapping = info.mapping;
      hit.pfn = pgs_pm_pfn (info.entry);
    }
  else if (physmap == NULL || hit.pfn >= pgs_physmap_get_n_frames (physmap))
    {
      close_info (self);
      return;
    }
  else
    pgs_physmap_get_frame (physmap, hit.pfn, &hit.count, NULL);

  if (physmap != NULL && hit.pfn != 0 && hit.pfn < pgs_physmap_get_n_frames (physmap))
    {
      pgs_physmap_get_frame (physmap, hit.pfn, NULL, &hit.flags);
      hit.category = pgs_physmap_get_category (physmap, hit.pfn);
    }
  show_hit (self, &hit, FALSE);
}

static void
on_page_activated (PgsMapView   *view,
                   const PgsHit *hit,
                   PgsMapPage   *self)
{
  pgs_map_page_show_hit (self, hit);
}

static void
on_map_ready (PgsMapPage *self)
{
  _pgs_map_page_update_title (self);
}

static void
on_user_activated (PgsMapPage *self,
                   int         pid)
{
  g_signal_emit (self, signals[PROCESS_ACTIVATED], 0, pid);
}

static void
page_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  PgsMapPage *self = PGS_MAP_PAGE (widget);

  if (g_str_equal (action_name, "page.close-info"))
    close_info (self);
  else
    {
      /* page.zoom-in → map.zoom-in: the buttons sit outside the map view */
      g_autofree char *name = g_strconcat ("map.", action_name + strlen ("page."), NULL);

      gtk_widget_activate_action (GTK_WIDGET (self->map_view), name, NULL);
    }
}

static void
on_status_changed (PgsMapPage *self)
{
  const char *status = pgs_map_view_get_status (self->map_view);

  gtk_label_set_text (self->status_label, status);
  /* Ellipsised when long: the whole of it on hover. */
  pgs_set_tooltip_text (GTK_WIDGET (self->status_label), status);
}

/* What the page shows follows the session (pgs-page.c). */
static void
on_session_changed (PgsMapPage *self,
                    GParamSpec *pspec,
                    PgsSession *session)
{
  const char *name = g_param_spec_get_name (pspec);
  GPtrArray *samples = pgs_session_get_wss_samples (session);
  PgsHighlight *highlight = pgs_session_get_highlight (session);

  if (g_str_equal (name, "picture"))
    {
      set_snapshot (self, pgs_session_get_picture (session));
      _pgs_map_page_update_instant (self);
    }
  else if (g_str_equal (name, "instant"))
    _pgs_map_page_update_instant (self);
  else if (g_str_equal (name, "replay"))
    {
      g_set_object (&self->replay, pgs_session_get_replay (session));
      _pgs_map_page_update_instant (self);
      if (self->snapshot == NULL)
        _pgs_map_page_update_state (self);
    }
  else if (g_str_equal (name, "units"))
    {
      self->units = pgs_session_get_units (session);
      pgs_map_view_set_units (self->map_view, self->units);
      pgs_ledger_view_set_units (self->ledger_view, self->units);
      pgs_ledger_view_set_units (self->counters_ledger, self->units);
      _pgs_map_page_update_title (self);
    }
  else if (g_str_equal (name, "highlight") && self->view != PGS_VIEW_RESIDENCY &&
           self->highlight != highlight)
    {
      /* Physical views: a file's frames instead of the process's. */
      g_clear_pointer (&self->highlight, pgs_highlight_unref);
      self->highlight = highlight ? pgs_highlight_ref (highlight) : NULL;
      pgs_map_view_set_highlight_frames (self->map_view,
                                         highlight ? pgs_highlight_get_frames (highlight) : NULL,
                                         highlight ? pgs_highlight_get_name (highlight) : NULL);
      _pgs_map_page_update_title (self);
    }
  else if (g_str_equal (name, "unreadable") && self->view == PGS_VIEW_RESIDENCY &&
           g_strcmp0 (self->unreadable, pgs_session_get_unreadable (session)) != 0)
    {
      /* The scan of the selected process alone brought no pages: say why in place of
       * "Reading Its Pages…". */
      g_free (self->unreadable);
      self->unreadable = g_strdup (pgs_session_get_unreadable (session));
      if (self->snapshot != NULL)
        _pgs_map_page_update_state (self);
    }
  else if (g_str_equal (name, "layout"))
    pgs_map_view_set_layout (self->map_view, pgs_session_get_layout (session));
  /* Only the physical maps have free frames to fold and the process's frames to mark. */
  else if (g_str_equal (name, "hide-free") && self->view != PGS_VIEW_RESIDENCY)
    pgs_map_view_set_hide_free (self->map_view, pgs_session_get_hide_free (session));
  else if (g_str_equal (name, "highlight-mode") && self->view != PGS_VIEW_RESIDENCY)
    pgs_map_view_set_highlight_mode (self->map_view, pgs_session_get_highlight_mode (session));
  else if (g_str_equal (name, "wss-sample"))
    set_wss_sample (self, pgs_session_get_wss_pid (session),
                    samples != NULL ? g_ptr_array_index (samples, samples->len - 1) : NULL);
}

static void
pgs_map_page_constructed (GObject *object)
{
  PgsMapPage *self = PGS_MAP_PAGE (object);
  GObject *legend;

  G_OBJECT_CLASS (pgs_map_page_parent_class)->constructed (object);

  self->map_view = PGS_MAP_VIEW (pgs_map_view_new (self->view));
  gtk_widget_set_hexpand (GTK_WIDGET (self->map_view), TRUE);
  gtk_widget_set_vexpand (GTK_WIDGET (self->map_view), TRUE);
  self->exited_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_wrap (self->exited_label, TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (self->exited_label), "warning");
  gtk_widget_set_visible (GTK_WIDGET (self->exited_label), FALSE);
  gtk_orientable_set_orientation (GTK_ORIENTABLE (self->map_box), GTK_ORIENTATION_VERTICAL);
  gtk_box_prepend (self->map_box, GTK_WIDGET (self->exited_label));
  legend = gtk_widget_get_template_child (GTK_WIDGET (self), PGS_TYPE_MAP_PAGE, "legend");
  gtk_box_prepend (GTK_BOX (gtk_widget_get_template_child (GTK_WIDGET (self), PGS_TYPE_MAP_PAGE,
                                                          "map_row")),
                   GTK_WIDGET (self->map_view));
  g_object_bind_property (self->map_view, "renderer", legend, "renderer", G_BINDING_SYNC_CREATE);
  g_object_bind_property (self->map_view, "units", legend, "units", G_BINDING_SYNC_CREATE);
  /* The status line: the map view's own words for the cell under the pointer or the
   * focus, for keyboard users and anyone who would rather not wait for a tooltip. */
  on_status_changed (self);
  g_signal_connect_object (self->map_view, "status-changed",
                           G_CALLBACK (on_status_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->map_view, "page-activated",
                           G_CALLBACK (on_page_activated), self, 0);
  g_signal_connect_object (self->map_view, "ready",
                           G_CALLBACK (on_map_ready), self, G_CONNECT_SWAPPED);
  _pgs_map_page_update_state (self);

  /* Session → page → map view: the selected process, once its pages are read. */
  pgs_page_bind (PGS_PAGE (self), "selected-process", self, "process", G_BINDING_SYNC_CREATE);
  g_object_bind_property (self, "process", self->map_view, "process", G_BINDING_SYNC_CREATE);
  for (guint i = 0; i < 10; i++)
    {
      g_autofree char *signal =
        g_strconcat ("session-notify::", (const char *[]) { "picture", "units", "highlight",
                                                             "unreadable", "wss-sample", "layout",
                                                             "hide-free", "highlight-mode",
                                                             "replay", "instant" }[i],
                     NULL);

      g_signal_connect (self, signal, G_CALLBACK (on_session_changed), NULL);
    }
}

static void
pgs_map_page_dispose (GObject *object)
{
  PgsMapPage *self = (PgsMapPage *) object;

  g_clear_handle_id (&self->deselect_idle, g_source_remove);
  gtk_widget_dispose_template (GTK_WIDGET (self), PGS_TYPE_MAP_PAGE);
  pgs_clear_release (&self->snapshot);
  pgs_clear_release (&self->process);
  g_clear_object (&self->replay);
  g_clear_pointer (&self->highlight, pgs_highlight_unref);
  g_clear_pointer (&self->unreadable, g_free);

  G_OBJECT_CLASS (pgs_map_page_parent_class)->dispose (object);
}

static void
pgs_map_page_get_property (GObject    *object,
                           guint       prop_id,
                           GValue     *value,
                           GParamSpec *pspec)
{
  PgsMapPage *self = PGS_MAP_PAGE (object);

  switch (prop_id)
    {
    case PROP_VIEW:
      g_value_set_int (value, self->view);
      break;
    case PROP_PROCESS:
      g_value_set_object (value, self->process);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pgs_map_page_set_property (GObject      *object,
                           guint         prop_id,
                           const GValue *value,
                           GParamSpec   *pspec)
{
  PgsMapPage *self = PGS_MAP_PAGE (object);

  switch (prop_id)
    {
    case PROP_VIEW:
      self->view = g_value_get_int (value);
      break;
    case PROP_PROCESS:
      choose_process (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pgs_map_page_class_init (PgsMapPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = pgs_map_page_constructed;
  object_class->dispose = pgs_map_page_dispose;
  object_class->get_property = pgs_map_page_get_property;
  object_class->set_property = pgs_map_page_set_property;

  /* A PgsView (0 residency, 1 sharing, 2 flags): the library's enum has no GType, and
   * templates set it as a number. */
  properties[PROP_VIEW] =
    g_param_spec_int ("view", NULL, NULL, PGS_VIEW_RESIDENCY, PGS_VIEW_FLAGS, PGS_VIEW_RESIDENCY,
                      G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  /* The process shown: its pages (residency) or frames (physical maps). */
  properties[PROP_PROCESS] =
    g_param_spec_object ("process", NULL, NULL, PGS_TYPE_PROCESS,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* A process in the list of those mapping a frame was activated. */
  signals[PROCESS_ACTIVATED] = g_signal_new ("process-activated", G_TYPE_FROM_CLASS (klass),
                                             G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                             G_TYPE_NONE, 1, G_TYPE_INT);

  gtk_widget_class_install_action (widget_class, "page.zoom-in", NULL, page_action);
  gtk_widget_class_install_action (widget_class, "page.zoom-out", NULL, page_action);
  gtk_widget_class_install_action (widget_class, "page.zoom-reset", NULL, page_action);
  gtk_widget_class_install_action (widget_class, "page.close-info", NULL, page_action);

  g_type_ensure (PGS_TYPE_MAP_LEGEND);
  g_type_ensure (PGS_TYPE_LEDGER_VIEW);
  g_type_ensure (PGS_TYPE_FRAME_USERS_VIEW);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/pagescope/Pagescope/pgs-map-page.ui");
  gtk_widget_class_bind_template_child (widget_class, PgsMapPage, stack);
  gtk_widget_class_bind_template_child (widget_class, PgsMapPage, empty_icon);
  gtk_widget_class_bind_template_child (widget_class, PgsMapPage, empty_title);
  gtk_widget_class_bind_template_child (widget_class, PgsMapPage, empty_description);
  gtk_widget_class_bind_template_child (widget_class, PgsMapPage, title_label);
  gtk_widget_class_bind_template_child (widget_class, PgsMapPage, scale_label);
  gtk_widget_class_bind_template_child (widget_class, PgsMapPage, instant_label);
  gtk_widget_class_bind_template_child (widget_class, PgsMapPage, map_box);
  gtk_widget_class_bind_template_child_full (widget_class, "legend", FALSE, 0);
  gtk_widget_class_bind_template_child_full (widget_class, "map_row", FALSE, 0);
  gtk_widget_class_bind_template_child (widget_class, PgsMapPage, status_label);
  gtk_widget_class_bind_template_child (widget_class, PgsMapPage, info_revealer);
  gtk_widget_class_bind_template_child (widget_class, PgsMapPage, info_label);
  gtk_widget_class_bind_template_child (widget_class, PgsMapPage, frame_users_view);
  gtk_widget_class_bind_template_child (widget_class, PgsMapPage, wss_note);
  gtk_widget_class_bind_template_child (widget_class, PgsMapPage, ledger_view);
  gtk_widget_class_bind_template_child (widget_class, PgsMapPage, counters_ledger);
  gtk_widget_class_bind_template_child (widget_class, PgsMapPage, counters_note);
  gtk_widget_class_bind_template_callback (widget_class, on_user_activated);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "mappage");
}

static void
pgs_map_page_init (PgsMapPage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

PgsMapView *
pgs_map_page_get_map_view (PgsMapPage *self)
{
  g_return_val_if_fail (PGS_IS_MAP_PAGE (self), NULL);
  return self->map_view;
}

PgsView
pgs_map_page_get_view (PgsMapPage *self)
{
  g_return_val_if_fail (PGS_IS_MAP_PAGE (self), PGS_VIEW_RESIDENCY);
  return self->view;
}

static void
set_snapshot (PgsMapPage  *self,
              PgsSnapshot *snapshot)
{
  if (!pgs_set_object_release (&self->snapshot, snapshot))
    return;
  pgs_frame_users_view_set_snapshot (self->frame_users_view, snapshot);

  /* Residency: a selected process missing from the new scan has exited. Say so and keep
   * its last map; the window then hands us no process, which changes nothing here. */
  self->exited = self->view == PGS_VIEW_RESIDENCY && self->process != NULL && snapshot != NULL &&
                 pgs_snapshot_lookup_pid (snapshot, pgs_process_get_pid (self->process)) == NULL;
  if (self->exited)
    {
      _pgs_map_page_update_exited (self);
      return;
    }
  pgs_map_view_set_snapshot (self->map_view, snapshot);
  _pgs_map_page_update_state (self);
  refresh_hit (self);
}

static void set_process (PgsMapPage *self,
                         PgsProcess *process);

static gboolean
apply_deselect (gpointer data)
{
  PgsMapPage *self = data;

  self->deselect_idle = 0;
  if (!self->exited)
    set_process (self, NULL);
  return G_SOURCE_REMOVE;
}

static void
choose_process (PgsMapPage *self,
                PgsProcess *process)
{
  /* Residency: the list drops the selection of a process that exited before the window
   * hands over the scan that tells; decide once the main loop is back. */
  if (self->view == PGS_VIEW_RESIDENCY && process == NULL && self->process != NULL &&
      !self->exited)
    {
      if (self->deselect_idle == 0)
        self->deselect_idle = g_idle_add (apply_deselect, self);
      return;
    }
  g_clear_handle_id (&self->deselect_idle, g_source_remove);
  set_process (self, process);
}

static void
set_process (PgsMapPage *self,
             PgsProcess *process)
{
  if (self->exited && process == NULL)
    return;
  if (self->exited)
    {
      self->exited = FALSE;
      pgs_map_view_set_snapshot (self->map_view, self->snapshot);
    }
  if (!pgs_set_object_release (&self->process, process))
    return;
  /* Working-set marks belong to the PID measured: a refresh of it keeps them. */
  if (self->wss_pid != 0 && (process == NULL || pgs_process_get_pid (process) != self->wss_pid))
    set_wss_sample (self, 0, NULL);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROCESS]);
  _pgs_map_page_update_state (self);
  /* Another process's pages: the one shown was not one of them. */
  if (self->view == PGS_VIEW_RESIDENCY && self->have_hit &&
      (process == NULL || pgs_process_get_pid (process) != self->hit_pid))
    close_info (self);
  else
    refresh_hit (self);
}

gboolean
pgs_map_page_has_map (PgsMapPage *self)
{
  g_return_val_if_fail (PGS_IS_MAP_PAGE (self), FALSE);
  return g_strcmp0 (gtk_stack_get_visible_child_name (self->stack), "map") == 0 &&
         pgs_map_view_get_renderer (self->map_view) != NULL;
}

PgsLedgerView *
pgs_map_page_get_counters_ledger (PgsMapPage *self)
{
  g_return_val_if_fail (PGS_IS_MAP_PAGE (self), NULL);
  if (g_strcmp0 (gtk_stack_get_visible_child_name (self->stack), "counters") != 0)
    return NULL;
  return self->counters_ledger;
}

/* Residency: the last working-set sample of @pid: marks where the kernel has a per-page
 * source, else a one-line note saying why not. Dropped when another process is set. */
static void
set_wss_sample (PgsMapPage   *self,
                int           pid,
                PgsWssSample *sample)
{
  g_autofree char *text = NULL;

  /* Only the residency map shows one process's virtual pages. */
  if (self->view != PGS_VIEW_RESIDENCY)
    sample = NULL;
  self->wss_pid = sample != NULL ? pid : 0;

  if (sample == NULL)
    {
      pgs_map_view_set_wss_sample (self->map_view, NULL);
      gtk_widget_set_visible (GTK_WIDGET (self->wss_note), FALSE);
      return;
    }

  /* An unavailable per-page view is never drawn as an empty one: without a per-page
   * source there are no marks, and the note says why instead. */
  if (pgs_wss_sample_get_page_sources (sample) & PGS_WSS_PAGES_IDLE)
    {
      pgs_map_view_set_wss_sample (self->map_view, sample);
      text = g_strdup (_("White dots: pages used during the last working-set sample "
                         "(idle page tracking)"));
    }
  else
    {
      pgs_map_view_set_wss_sample (self->map_view, NULL);
      /* Translators: %s is the reason, a sentence from the library */
      text = g_strdup_printf (_("Pages used in the working-set sample cannot be marked here: %s"),
                              pgs_wss_sample_get_page_source_reason (sample,
                                                                     PGS_WSS_PAGES_IDLE));
    }
  gtk_label_set_text (self->wss_note, text);
  pgs_set_tooltip_text (GTK_WIDGET (self->wss_note), text);
  gtk_widget_set_visible (GTK_WIDGET (self->wss_note), TRUE);
}

const char *
pgs_map_page_get_wss_note (PgsMapPage *self)
{
  g_return_val_if_fail (PGS_IS_MAP_PAGE (self), NULL);
  return gtk_widget_get_visible (GTK_WIDGET (self->wss_note)) ?
         gtk_label_get_text (self->wss_note) : NULL;
}

/* The "has exited" message over a map, or NULL when it is not shown. */
const char *
pgs_map_page_get_exited_note (PgsMapPage *self)
{
  g_return_val_if_fail (PGS_IS_MAP_PAGE (self), NULL);
  return self->exited ? gtk_label_get_text (self->exited_label) : NULL;
}

const char *
pgs_map_page_get_empty_title (PgsMapPage *self)
{
  g_return_val_if_fail (PGS_IS_MAP_PAGE (self), NULL);

  if (g_strcmp0 (gtk_stack_get_visible_child_name (self->stack), "empty") != 0)
    return NULL;
  return gtk_label_get_text (self->empty_title);
}
