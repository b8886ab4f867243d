/* pgs-window.c
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The window holds its template, actions and toasts. What the pages show (the snapshot,
 * the selected process, the page on screen, units, layout…) is the session's
 * (pgs-session.c), which also scans; every page gets the session once, in the template,
 * and binds what it needs. Here the window follows the session: the progress bar, the
 * banner, the title and which actions are enabled.
 *
 * The actions (export, refresh, find, zoom, measure the working set) are in
 * pgs-window-actions.c.
 */

#include "config.h"

#include <string.h>
#include <unistd.h>

#include <glib/gi18n.h>

#include "pgs-access-page.h"
#include "pgs-group-view.h"
#include "pgs-page.h"
#include "pgs-refresh.h"
#include "pgs-release.h"
#include "pgs-timeline.h"
#include "pgs-window-private.h"
#include "pgs-wss-dialog.h"

#define PROGRESS_DELAY_MS 300

enum {
  PROP_0,
  PROP_VIEW,
  PROP_SESSION,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (PgsWindow, pgs_window, ADW_TYPE_APPLICATION_WINDOW)

static void
update_actions (PgsWindow *self)
{
  PgsMapPage *page = _pgs_window_current_map_page (self);
  PgsSnapshot *snapshot = pgs_session_get_snapshot (self->session);
  gboolean scanning = pgs_session_is_scanning (self->session);
  /* Whether the page has a map yet changes as renders finish; exporting too early says so
   * in a toast rather than greying the item out for a moment. */
  gboolean have_map = page != NULL;
  PgsProcess *selected;
  const char *wss_reason;
  const char *pages_reason = NULL;

  /* Refresh stays enabled: asked for during a scan, it runs once that one ends (the live
   * scan keeps the wish), and a button greyed for the length of each automatic refresh
   * would be a frame of the whole window drawn twice every interval. */
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.cancel-refresh", scanning);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.export-map", have_map);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.export-csv", snapshot != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.export",
                                 page != NULL ? have_map : snapshot != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.zoom-in", page != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.zoom-out", page != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.zoom-reset", page != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.move-by",
                                 pgs_session_get_recording (self->session) != NULL);
  selected = pgs_process_list_get_selected_process (self->process_list);
  wss_reason = selected != NULL ? _pgs_window_wss_blocked_reason (self, selected) : NULL;
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.measure-wss",
                                 selected != NULL && wss_reason == NULL);
  pgs_process_detail_set_wss_blocked_reason (self->process_detail, wss_reason);
  /* As the list's context menu says (pgs-process-list-actions.c): a file has the pages
   * it holds; live, they are read by the owner, root or the unlocked helper. */
  if (selected != NULL && snapshot != NULL && pgs_snapshot_get_file (snapshot) != NULL)
    pages_reason = pgs_process_has_pages (selected)
                   ? NULL : _("The snapshot file holds no pages of this process");
  else if (selected != NULL && wss_reason != NULL)
    pages_reason = _("Its pages could not be read: that needs root, or Unlock");
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.show-pages",
                                 selected != NULL && pages_reason == NULL);
  pgs_process_detail_set_pages_blocked_reason (self->process_detail, pages_reason);
  pgs_process_list_set_wss_reason (self->process_list, wss_reason);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.save-snapshot", snapshot != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.compare", snapshot != NULL);
}

/* Following the session */

static void
on_snapshot_changed (PgsWindow *self)
{
  if (pgs_session_get_snapshot (self->session) != NULL)
    pgs_refresh_log_first_figures (GTK_WIDGET (self));
  /* The list has the new snapshot by now (it is a page): a PID asked for before it came. */
  if (self->pending_pid > 0 && pgs_process_list_select_pid (self->process_list, self->pending_pid))
    {
      self->pending_pid = 0;
      pgs_process_list_scroll_to_selected (self->process_list);
    }
  _pgs_window_files_snapshot_changed (self);
  _pgs_window_update_lock (self);
  _pgs_window_update_title (self);
  update_actions (self);
}

static void
on_helper_changed (PgsWindow *self)
{
  _pgs_window_update_lock (self);
  update_actions (self);
}

static gboolean
reveal_progress (gpointer data)
{
  PgsWindow *self = data;

  self->progress_source = 0;
  gtk_revealer_set_reveal_child (self->progress_revealer, TRUE);
  return G_SOURCE_REMOVE;
}

static void
on_scan_started (PgsWindow *self)
{
  _pgs_window_files_cancel (self);
  gtk_progress_bar_set_fraction (self->progress_bar, 0);
  /* Quick scans finish before the bar would show: no flicker every refresh interval. The
   * automatic refresh shows none at all: what it changes shows when it is done, and a bar
   * fading in and out every interval is a dozen frames of the whole window each time. */
  g_clear_handle_id (&self->progress_source, g_source_remove);
  if (!pgs_session_is_scan_automatic (self->session))
    self->progress_source = g_timeout_add (PROGRESS_DELAY_MS, reveal_progress, self);
  update_actions (self);
}

static void
on_busy_changed (PgsWindow *self)
{
  if (!pgs_session_is_scanning (self->session))
    {
      g_clear_handle_id (&self->progress_source, g_source_remove);
      gtk_revealer_set_reveal_child (self->progress_revealer, FALSE);
    }
  update_actions (self);
}

static void
on_scan_failed (PgsWindow *self,
                GError    *error)
{
  g_autofree char *text = NULL;

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      _pgs_window_add_toast (self, _("Scan cancelled: showing the previous one"));
      return;
    }
  text = g_strdup_printf (_("The scan failed: %s"), error->message);
  _pgs_window_show_banner (self, text);
}

/* Selection */

static void
on_selected_process_changed (PgsWindow *self)
{
  PgsProcess *process = pgs_process_list_get_selected_process (self->process_list);

  /* Another process chosen: the maps highlight its frames, not the file's. */
  if (process != NULL && pgs_process_get_pid (process) != self->highlight_pid &&
      self->library_view != NULL && pgs_library_view_get_selected_path (self->library_view) != NULL)
    pgs_library_view_unselect (self->library_view);
  update_actions (self);
}

/* A file chosen in the Libraries view: its frames are the maps' highlight (through the
 * session) until another process is chosen. */
static void
on_library_highlight_changed (PgsWindow *self)
{
  PgsProcess *process = pgs_process_list_get_selected_process (self->process_list);

  self->highlight_pid = process ? pgs_process_get_pid (process) : 0;
}

static void
on_process_activated (PgsWindow  *self,
                      PgsProcess *process)
{
  pgs_window_set_view (self, "residency");
}

static void
on_frame_user_activated (PgsWindow *self,
                         int        pid)
{
  if (!pgs_process_list_select_pid (self->process_list, pid))
    {
      /* The list may be filtered: clear the search so the process can be shown. */
      pgs_process_list_set_search_text (self->process_list, NULL);
      pgs_process_list_select_pid (self->process_list, pid);
    }
  pgs_process_list_scroll_to_selected (self->process_list);
  pgs_window_set_view (self, "residency");
}

static void
on_banner_closed (PgsWindow *self)
{
  gtk_widget_set_visible (self->banner, FALSE);
}

/* The timeline exports itself (its own action, its own file chooser); the toast is the
 * window's, as for every export. */
static void
on_timeline_export_finished (PgsWindow *self,
                             GFile     *file,
                             GError    *error)
{
  _pgs_window_finish_export (self, file, error);
}

/* Pages built when first shown
 *
 * Every page but Processes is an empty AdwBin in the template: built there, the six hidden
 * pages and the comparison were a third of the window's start-up before its first frame,
 * for pages the first frame does not show. Each is built the first time it is shown or
 * asked for (pgs_window_get_map_page()), with what the template gave it: the session,
 * and the window's handlers of its signals. The comparison likewise (pgs-window-files.c). */

static GtkWidget *
build_page (PgsWindow  *self,
            const char *name)
{
  static const char *const maps[] = { "residency", "sharing", "flags" };  /* PgsView order */
  GtkWidget *page;

  for (int view = PGS_VIEW_RESIDENCY; view <= PGS_VIEW_FLAGS; view++)
    if (g_str_equal (name, maps[view]))
      {
        page = g_object_new (PGS_TYPE_MAP_PAGE, "view", view, "session", self->session, NULL);
        g_signal_connect_object (page, "process-activated", G_CALLBACK (on_frame_user_activated),
                                 self, G_CONNECT_SWAPPED);
        return page;
      }
  if (g_str_equal (name, "groups"))
    return g_object_new (PGS_TYPE_GROUP_VIEW, "session", self->session, NULL);
  if (g_str_equal (name, "access"))
    return g_object_new (PGS_TYPE_ACCESS_PAGE, "session", self->session, NULL);
  g_assert (g_str_equal (name, "libraries"));
  page = g_object_new (PGS_TYPE_LIBRARY_VIEW, "session", self->session, NULL);
  g_signal_connect_object (page, "notify::highlight", G_CALLBACK (on_library_highlight_changed),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (page, "process-activated", G_CALLBACK (on_frame_user_activated),
                           self, G_CONNECT_SWAPPED);
  /* No sync: the session's highlight may be another's by now (a file's, set before), and
   * the new view has chosen nothing. */
  g_object_bind_property (page, "highlight", self->session, "highlight", G_BINDING_DEFAULT);
  return page;
}

/* The page called @name, built if it was not. */
static GtkWidget *
ensure_page (PgsWindow  *self,
             const char *name)
{
  GtkWidget *child = gtk_stack_get_child_by_name (self->stack, name);
  GtkWidget *page;

  if (!ADW_IS_BIN (child))
    return child;
  if ((page = adw_bin_get_child (ADW_BIN (child))) != NULL)
    return page;
  page = build_page (self, name);
  adw_bin_set_child (ADW_BIN (child), page);
  if (g_str_equal (name, "libraries"))
    self->library_view = PGS_LIBRARY_VIEW (page);
  else if (PGS_IS_MAP_PAGE (page))
    {
      PgsMapPage **slot[] = { &self->residency_page, &self->sharing_page, &self->flags_page };

      *slot[pgs_map_page_get_view (PGS_MAP_PAGE (page))] = PGS_MAP_PAGE (page);
    }
  return page;
}

static void
on_visible_child_changed (PgsWindow *self)
{
  /* NULL while the template is built: the session's view is shown once it is. */
  if (self->stack != NULL)
    ensure_page (self, gtk_stack_get_visible_child_name (self->stack));
  update_actions (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_VIEW]);
}

/* The header's tabs did not fit (the squeezer shows the title instead): the tabs go to the
 * bar at the bottom, and come back to the header when the window is wide again. */
static void
on_title_squeezed (PgsWindow *self)
{
  gtk_widget_set_visible (GTK_WIDGET (self->switcher_bar),
                          adw_squeezer_get_visible_child (self->title_squeezer) ==
                          self->window_title);
}

static void
show_pages_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  pgs_window_set_view (PGS_WINDOW (widget), "residency");
}

/* The first frame
 *
 * The first scan runs beside the window's start-up and was often ready before its first
 * frame: its snapshot went into the list first (it is dispatched before a redraw), and the
 * first frame was the window with the list's rows built and drawn, a tenth of a second
 * later. It now waits from the window's map (no frame is painted before, and one is after)
 * to its first painted frame, and goes into the views right after it: the figures are in
 * the next frame. */

static gboolean
release_live (gpointer data)
{
  pgs_session_hold_live (data, FALSE);
  return G_SOURCE_REMOVE;
}

/* The window manager's icon is not in the first frame either: under X11 it is the app's
 * SVG drawn at several sizes as the window is realized (15 M instructions). It is set once
 * the window has painted, for this window and the dialogs, after the figures. */
static gboolean
set_icon (gpointer data)
{
  gtk_window_set_default_icon_name (APP_ID);
  gtk_window_set_icon_name (data, APP_ID);
  return G_SOURCE_REMOVE;
}

static void
on_first_paint (GdkFrameClock *clock,
                PgsWindow     *self)
{
  g_signal_handlers_disconnect_by_func (clock, on_first_paint, self);
  g_idle_add_full (G_PRIORITY_DEFAULT, release_live, g_object_ref (self->session),
                   g_object_unref);
  g_idle_add_full (G_PRIORITY_LOW, set_icon, g_object_ref (self), g_object_unref);
}

static void
hold_live_until_painted (PgsWindow *self)
{
  g_signal_handlers_disconnect_by_func (self, hold_live_until_painted, NULL);
  pgs_session_hold_live (self->session, TRUE);
  g_signal_connect_object (gtk_widget_get_frame_clock (GTK_WIDGET (self)), "after-paint",
                           G_CALLBACK (on_first_paint), self, 0);
}

/* The main menu's popover, some thirty items and three submenus, is built when the menu
 * is first opened (a click, F10), not before the first frame. */
static void
create_primary_menu (GtkMenuButton *button,
                     gpointer       user_data)
{
  PgsWindow *self = user_data;

  gtk_menu_button_set_create_popup_func (button, NULL, NULL, NULL);
  gtk_menu_button_set_menu_model (button, self->primary_menu);
}

/* GObject */

static gboolean
pgs_window_close_request (GtkWindow *window)
{
  PgsWindow *self = PGS_WINDOW (window);
  GSettings *settings = pgs_session_get_settings (self->session);
  int width, height;

  gtk_window_get_default_size (window, &width, &height);
  g_settings_delay (settings);
  g_settings_set_boolean (settings, "window-maximized", gtk_window_is_maximized (window));
  if (!gtk_window_is_maximized (window))
    {
      g_settings_set_int (settings, "window-width", width);
      g_settings_set_int (settings, "window-height", height);
    }
  /* Saved here rather than bound: a drag of the divider would write at every step. */
  if (gtk_widget_get_visible (GTK_WIDGET (self->process_detail)))
    {
      g_settings_set_int (settings, "detail-position", MAX (self->list_height, 120));
      g_settings_set_int (settings, "detail-height", MAX (self->detail_height, 0));
    }
  g_settings_apply (settings);
  pgs_session_shutdown (self->session);

  return GTK_WINDOW_CLASS (pgs_window_parent_class)->close_request (window);
}

static void
pgs_window_dispose (GObject *object)
{
  PgsWindow *self = (PgsWindow *) object;

  if (self->session != NULL)
    {
      pgs_session_shutdown (self->session);
      g_signal_handlers_disconnect_by_data (self->session, self);
    }
  g_clear_handle_id (&self->progress_source, g_source_remove);
  g_clear_object (&self->toast);
  if (self->chooser != NULL)
    gtk_native_dialog_destroy (self->chooser);
  g_clear_object (&self->chooser);
  _pgs_window_unlock_dispose (self);
  _pgs_window_files_dispose (self);
  _pgs_window_record_dispose (self);

  gtk_widget_dispose_template (GTK_WIDGET (self), PGS_TYPE_WINDOW);
  g_clear_object (&self->session);

  G_OBJECT_CLASS (pgs_window_parent_class)->dispose (object);
}

static void
pgs_window_finalize (GObject *object)
{
  PgsWindow *self = (PgsWindow *) object;

  g_free (self->banner_text);
  g_free (self->toast_text);

  G_OBJECT_CLASS (pgs_window_parent_class)->finalize (object);
}

static void
pgs_window_get_property (GObject    *object,
                         guint       prop_id,
                         GValue     *value,
                         GParamSpec *pspec)
{
  PgsWindow *self = PGS_WINDOW (object);

  switch (prop_id)
    {
    case PROP_VIEW:
      g_value_set_string (value, pgs_window_get_view (self));
      break;
    case PROP_SESSION:
      g_value_set_object (value, self->session);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pgs_window_set_property (GObject      *object,
                         guint         prop_id,
                         const GValue *value,
                         GParamSpec   *pspec)
{
  PgsWindow *self = PGS_WINDOW (object);

  switch (prop_id)
    {
    case PROP_VIEW:
      pgs_window_set_view (self, g_value_get_string (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

/* The divider: the list at least as tall as the user left it, the detail at most, the list
 * taking whatever the window gives more (a taller window, the history strip folded). Where
 * the window is too short for both, GtkPaned keeps the detail's least height. */
static void
place_divider (PgsWindow *self)
{
  int height = gtk_widget_get_height (GTK_WIDGET (self->detail_paned));
  int position = MAX (height - self->detail_height, self->list_height);
  int most;

  if (height <= 0)
    return;
  /* Within its bounds, as GtkPaned would put it at its next allocation: that move, at the
   * same height, would pass for the user's. */
  g_object_get (self->detail_paned, "max-position", &most, NULL);
  position = MIN (position, most);
  self->paned_height = height;
  self->placed = position;
  if (position != gtk_paned_get_position (self->detail_paned))
    gtk_paned_set_position (self->detail_paned, position);
}

/* The paned's height changed (its greatest position with it): the window's doing. */
static void
on_paned_resized (PgsWindow  *self,
                  GParamSpec *pspec,
                  GtkPaned   *paned)
{
  place_divider (self);
}

/* The divider moved at the same height, not to where the window put it: the user's doing
 * (a drag, or F8 and the arrow keys), to remember. GtkPaned's own move at a new height
 * comes after the window's (GObject sends the notifications it held during the paned's
 * allocation in turn), and finds the divider where the window put it. */
static void
on_divider_moved (PgsWindow  *self,
                  GParamSpec *pspec,
                  GtkPaned   *paned)
{
  int height = gtk_widget_get_height (GTK_WIDGET (paned));

  if (height <= 0 || height != self->paned_height || gtk_paned_get_position (paned) == self->placed)
    return;
  self->list_height = gtk_paned_get_position (paned);
  self->detail_height = height - self->list_height;
}

/* A short window folds the history strip to one line, so the list keeps its rows: under
 * 700 px the whole strip (120) would leave the list under its 420 px beside the detail at
 * its least (at the default 720, the list 420 and the detail 122). Before the
 * window's own allocation, so its children are laid out once with the strip's new height. */
#define FOLD_STRIP_BELOW 700

static void
pgs_window_size_allocate (GtkWidget *widget,
                          int        width,
                          int        height,
                          int        baseline)
{
  PgsWindow *self = PGS_WINDOW (widget);

  pgs_timeline_set_compact (self->timeline, height < FOLD_STRIP_BELOW);
  GTK_WIDGET_CLASS (pgs_window_parent_class)->size_allocate (widget, width, height, baseline);
}

static void
pgs_window_class_init (PgsWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);
  const GParamFlags r = G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->dispose = pgs_window_dispose;
  object_class->finalize = pgs_window_finalize;
  object_class->get_property = pgs_window_get_property;
  object_class->set_property = pgs_window_set_property;

  window_class->close_request = pgs_window_close_request;
  widget_class->size_allocate = pgs_window_size_allocate;

  /* One of "processes", "residency", "sharing", "flags": the name of the visible page. */
  properties[PROP_VIEW] =
    g_param_spec_string ("view", NULL, NULL, "processes",
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* What the pages show: each page's "session" is bound to it in the template. */
  properties[PROP_SESSION] = g_param_spec_object ("session", NULL, NULL, PGS_TYPE_SESSION, r);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  _pgs_window_actions_class_init (widget_class);
  gtk_widget_class_install_action (widget_class, "win.show-pages", NULL, show_pages_action);

  g_type_ensure (PGS_TYPE_PROCESS_LIST);
  g_type_ensure (PGS_TYPE_PROCESS_DETAIL);
  g_type_ensure (PGS_TYPE_TIMELINE);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/pagescope/Pagescope/pgs-window.ui");
  gtk_widget_class_bind_template_child (widget_class, PgsWindow, stack);
  gtk_widget_class_bind_template_child (widget_class, PgsWindow, title_squeezer);
  gtk_widget_class_bind_template_child (widget_class, PgsWindow, window_title);
  gtk_widget_class_bind_template_child (widget_class, PgsWindow, switcher_bar);
  gtk_widget_class_bind_template_child (widget_class, PgsWindow, banner);
  gtk_widget_class_bind_template_child (widget_class, PgsWindow, detail_paned);
  gtk_widget_class_bind_template_child (widget_class, PgsWindow, timeline);
  gtk_widget_class_bind_template_callback (widget_class, on_paned_resized);
  gtk_widget_class_bind_template_callback (widget_class, on_divider_moved);
  gtk_widget_class_bind_template_child (widget_class, PgsWindow, banner_label);
  gtk_widget_class_bind_template_child (widget_class, PgsWindow, banner_button);
  gtk_widget_class_bind_template_child (widget_class, PgsWindow, lock_button);
  gtk_widget_class_bind_template_child (widget_class, PgsWindow, record_button);
  gtk_widget_class_bind_template_child (widget_class, PgsWindow, menu_button);
  gtk_widget_class_bind_template_child (widget_class, PgsWindow, primary_menu);
  gtk_widget_class_bind_template_child (widget_class, PgsWindow, processes_stack);
  gtk_widget_class_bind_template_child (widget_class, PgsWindow, progress_revealer);
  gtk_widget_class_bind_template_child (widget_class, PgsWindow, progress_bar);
  gtk_widget_class_bind_template_child (widget_class, PgsWindow, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, PgsWindow, process_list);
  gtk_widget_class_bind_template_child (widget_class, PgsWindow, process_detail);
  gtk_widget_class_bind_template_callback (widget_class, on_selected_process_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_process_activated);
  gtk_widget_class_bind_template_callback (widget_class, on_visible_child_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_title_squeezed);
  gtk_widget_class_bind_template_callback (widget_class, on_banner_closed);
  gtk_widget_class_bind_template_callback (widget_class, on_timeline_export_finished);
  _pgs_window_unlock_class_init (widget_class);
  _pgs_window_files_class_init (widget_class);
  _pgs_window_open_class_init (widget_class);
  _pgs_window_record_class_init (widget_class);
}

static void
pgs_window_init (PgsWindow *self)
{
  static const struct {
    const char *signal;
    GCallback   callback;
  } handlers[] = {
    { "notify::snapshot", G_CALLBACK (on_snapshot_changed) },
    { "notify::helper", G_CALLBACK (on_helper_changed) },
    { "notify::busy", G_CALLBACK (on_busy_changed) },
    { "scan-started", G_CALLBACK (on_scan_started) },
    { "scan-failed", G_CALLBACK (on_scan_failed) },
  };
  GSettings *settings;

  pgs_release_init ();
  /* Before the template: its pages bind to the session as they are built. */
  self->session = pgs_session_new ();
  gtk_widget_init_template (GTK_WIDGET (self));
  pgs_refresh_log_first_frame (GTK_WIDGET (self));
  g_signal_connect (self, "map", G_CALLBACK (hold_live_until_painted), NULL);
  gtk_menu_button_set_create_popup_func (self->menu_button, create_primary_menu, self, NULL);
  _pgs_window_record_init (self);

  /* The list's choice goes to the session, which hands the process with its pages to the
   * pages that show it; the stack shows the session's view (its page built if it is not
   * Processes); the library's file is the highlight of the physical maps (build_page()). */
  g_object_bind_property (self->process_list, "selected-process", self->session,
                          "chosen-process", G_BINDING_SYNC_CREATE);
  g_object_bind_property (self->session, "view", self->stack, "visible-child-name",
                          G_BINDING_SYNC_CREATE | G_BINDING_BIDIRECTIONAL);
  g_object_bind_property (self->session, "progress", self->progress_bar, "fraction",
                          G_BINDING_DEFAULT);
  for (guint i = 0; i < G_N_ELEMENTS (handlers); i++)
    g_signal_connect_object (self->session, handlers[i].signal, handlers[i].callback, self,
                             G_CONNECT_SWAPPED);
  /* My/all processes, the tree and the columns: for the window's shortcuts too. */
  gtk_widget_insert_action_group (GTK_WIDGET (self), "proc",
                                  pgs_process_list_get_actions (self->process_list));

  settings = pgs_session_get_settings (self->session);
  gtk_window_set_default_size (GTK_WINDOW (self), g_settings_get_int (settings, "window-width"),
                               g_settings_get_int (settings, "window-height"));
  if (g_settings_get_boolean (settings, "window-maximized"))
    gtk_window_maximize (GTK_WINDOW (self));
  self->list_height = g_settings_get_int (settings, "detail-position");
  self->detail_height = g_settings_get_int (settings, "detail-height");
  gtk_paned_set_position (self->detail_paned, self->list_height);
  g_settings_bind (settings, "show-detail", self->process_detail, "visible",
                   G_SETTINGS_BIND_GET | G_SETTINGS_BIND_NO_SENSITIVITY);
  update_actions (self);
  _pgs_window_update_lock (self);
}

PgsWindow *
pgs_window_new (PgsApplication *application)
{
  PgsWindow *self;

  g_return_val_if_fail (PGS_IS_APPLICATION (application), NULL);

  self = g_object_new (PGS_TYPE_WINDOW, "application", application, NULL);
  pgs_session_refresh (self->session);
  return self;
}

PgsSession *
pgs_window_get_session (PgsWindow *self)
{
  g_return_val_if_fail (PGS_IS_WINDOW (self), NULL);
  return self->session;
}

PgsSnapshot *
pgs_window_get_snapshot (PgsWindow *self)
{
  g_return_val_if_fail (PGS_IS_WINDOW (self), NULL);
  return pgs_session_get_snapshot (self->session);
}

gboolean
pgs_window_is_busy (PgsWindow *self)
{
  g_return_val_if_fail (PGS_IS_WINDOW (self), FALSE);
  return pgs_session_get_busy (self->session);
}

void
pgs_window_refresh (PgsWindow *self)
{
  g_return_if_fail (PGS_IS_WINDOW (self));
  pgs_session_refresh (self->session);
}

const char *
pgs_window_get_view (PgsWindow *self)
{
  g_return_val_if_fail (PGS_IS_WINDOW (self), NULL);

  /* Asked for by the property action while the template is still being built. */
  if (self->session == NULL)
    return "processes";
  return pgs_session_get_view (self->session);
}

void
pgs_window_set_view (PgsWindow  *self,
                     const char *view)
{
  g_return_if_fail (PGS_IS_WINDOW (self));
  g_return_if_fail (view != NULL);

  if (gtk_stack_get_child_by_name (self->stack, view) == NULL)
    {
      g_warning ("No view called “%s”", view);
      return;
    }
  pgs_session_set_view (self->session, view);
}

void
pgs_window_select_pid (PgsWindow *self,
                       int        pid)
{
  g_return_if_fail (PGS_IS_WINDOW (self));

  /* Chosen before the window is shown (--pid): the detail's body is built with the window,
   * not between the first frame and the first figures. Built there, it and its table of
   * mappings made the first figures come 0.18 s after the first frame, not 0.08 s, in five
   * of seven starts (the selected process's pages came before that frame more often). */
  if (!gtk_widget_get_mapped (GTK_WIDGET (self)))
    pgs_process_detail_prepare (self->process_detail);
  if (!pgs_process_list_select_pid (self->process_list, pid))
    self->pending_pid = pid;
  else
    pgs_process_list_scroll_to_selected (self->process_list);
}

PgsProcessList *
pgs_window_get_process_list (PgsWindow *self)
{
  g_return_val_if_fail (PGS_IS_WINDOW (self), NULL);
  return self->process_list;
}

PgsWssDialog *
pgs_window_get_wss_dialog (PgsWindow *self)
{
  g_return_val_if_fail (PGS_IS_WINDOW (self), NULL);
  return self->wss_dialog;
}

PgsProcessDetail *
pgs_window_get_process_detail (PgsWindow *self)
{
  g_return_val_if_fail (PGS_IS_WINDOW (self), NULL);
  return self->process_detail;
}

GtkWidget *
pgs_window_get_page (PgsWindow  *self,
                     const char *view)
{
  g_return_val_if_fail (PGS_IS_WINDOW (self), NULL);
  g_return_val_if_fail (view != NULL, NULL);
  g_return_val_if_fail (gtk_stack_get_child_by_name (self->stack, view) != NULL, NULL);

  return ensure_page (self, view);
}

PgsMapPage *
pgs_window_get_map_page (PgsWindow *self,
                         PgsView    view)
{
  static const char *const names[] = { "residency", "sharing", "flags" };

  g_return_val_if_fail (PGS_IS_WINDOW (self), NULL);
  g_return_val_if_fail (view >= PGS_VIEW_RESIDENCY && view <= PGS_VIEW_FLAGS, NULL);

  return PGS_MAP_PAGE (ensure_page (self, names[view]));
}
