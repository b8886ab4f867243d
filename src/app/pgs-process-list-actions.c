/* pgs-process-list-actions.c: what the user can ask of the process list
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The "proc" action group: proc.show-processes ('mine' or 'all'), proc.tree and one
 * proc.column-ID a column the user may hide, each kept in its GSettings key
 * (show-processes, process-tree, process-columns); the window inserts the group too, for
 * its menus and shortcuts. The list.* actions of the context menu (right click, the Menu
 * key, Shift+F10): list.show-pages, list.copy-pid, list.copy-cmdline; the menu says why one
 * is disabled (pgs-process-menu.c).
 */

#include "config.h"

#include <unistd.h>

#include <glib/gi18n.h>

#include "pgs-process-list-private.h"
#include "pgs-process-menu.h"

/* Root can measure every process, so sees them all; a normal user would see a list of "—"
 * for the others' PSS and USS, so sees their own, as GNOME System Monitor does. The user's
 * choice, once made, is kept in the setting. */
static const char *
default_show_processes (void)
{
  return geteuid () == 0 ? "all" : "mine";
}

static const char *
show_processes_setting (PgsProcessList *self)
{
  g_autofree char *stored = NULL;

  if (self->settings == NULL)
    return default_show_processes ();
  stored = g_settings_get_string (self->settings, "show-processes");
  if (g_str_equal (stored, "mine"))
    return "mine";
  if (g_str_equal (stored, "all"))
    return "all";
  return default_show_processes ();
}

static void
apply_show_processes (PgsProcessList *self,
                      const char     *value)
{
  gboolean mine = g_strcmp0 (value, "mine") == 0;

  /* Read by the list's filter, which the state change makes it apply. */
  self->mine = mine;
}

static void
change_show_processes (GSimpleAction *action,
                       GVariant      *value,
                       gpointer       user_data)
{
  PgsProcessList *self = user_data;
  const char *s = g_variant_get_string (value, NULL);

  if (!g_str_equal (s, "mine") && !g_str_equal (s, "all"))
    return;
  apply_show_processes (self, s);
  g_simple_action_set_state (action, value);
  if (self->settings != NULL && !g_str_equal (show_processes_setting (self), s))
    g_settings_set_string (self->settings, "show-processes", s);
}

static void
change_tree (GSimpleAction *action,
             GVariant      *value,
             gpointer       user_data)
{
  PgsProcessList *self = user_data;
  gboolean tree = g_variant_get_boolean (value);

  /* The list follows the state (pgs-process-list.c). */
  g_simple_action_set_state (action, value);
  if (self->settings != NULL && g_settings_get_boolean (self->settings, "process-tree") != tree)
    g_settings_set_boolean (self->settings, "process-tree", tree);
}

/* The columns the user chooses: the template's after PID, user and name, in its order. */
static const char * const optional_ids[] = { "vss", "rss", "pss", "uss", "swap", "clean", "dirty",
                                             "shared", "private", "cmdline", "started" };
#define FIRST_OPTIONAL 3

static GtkColumnViewColumn *
optional_column (PgsProcessList *self,
                 guint           i)
{
  g_autoptr(GtkColumnViewColumn) column =
    g_list_model_get_item (gtk_column_view_get_columns (self->column_view), FIRST_OPTIONAL + i);

  return column;   /* the view keeps it */
}

static void
show_columns (PgsProcessList     *self,
              const char * const *ids)
{
  for (guint i = 0; i < G_N_ELEMENTS (optional_ids); i++)
    gtk_column_view_column_set_visible (optional_column (self, i),
                                        ids != NULL && g_strv_contains (ids, optional_ids[i]));
}

static GStrv
shown_columns (PgsProcessList *self)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();

  for (guint i = 0; i < G_N_ELEMENTS (optional_ids); i++)
    {
      g_autofree char *name = g_strconcat ("column-", optional_ids[i], NULL);
      g_autoptr(GVariant) state = g_action_group_get_action_state (G_ACTION_GROUP (self->actions),
                                                                   name);

      if (g_variant_get_boolean (state))
        g_strv_builder_add (builder, optional_ids[i]);
    }
  return g_strv_builder_end (builder);
}

static void
change_column (GSimpleAction *action,
               GVariant      *value,
               gpointer       user_data)
{
  PgsProcessList *self = user_data;
  g_auto(GStrv) ids = NULL;

  g_simple_action_set_state (action, value);
  ids = shown_columns (self);
  show_columns (self, (const char * const *) ids);
  if (self->settings != NULL)
    {
      g_auto(GStrv) stored = g_settings_get_strv (self->settings, "process-columns");

      if (!g_strv_equal ((const char * const *) stored, (const char * const *) ids))
        g_settings_set_strv (self->settings, "process-columns", (const char * const *) ids);
    }
}

/* The settings changed elsewhere (another window, dconf): the actions follow. */
static void
on_settings_changed (PgsProcessList *self,
                     const char     *key)
{
  if (g_str_equal (key, "show-processes"))
    g_action_group_change_action_state (G_ACTION_GROUP (self->actions), "show-processes",
                                        g_variant_new_string (show_processes_setting (self)));
  else if (g_str_equal (key, "process-tree"))
    g_action_group_change_action_state (G_ACTION_GROUP (self->actions), "tree",
                                        g_variant_new_boolean (g_settings_get_boolean (self->settings, key)));
  else if (g_str_equal (key, "process-columns"))
    {
      g_auto(GStrv) ids = g_settings_get_strv (self->settings, key);

      for (guint i = 0; i < G_N_ELEMENTS (optional_ids); i++)
        {
          const char *id = optional_ids[i];
          g_autofree char *name = g_strconcat ("column-", id, NULL);
          gboolean shown = g_strv_contains ((const char * const *) ids, id);
          g_autoptr(GVariant) state = g_action_group_get_action_state (G_ACTION_GROUP (self->actions),
                                                                       name);

          if (g_variant_get_boolean (state) != shown)
            g_action_group_change_action_state (G_ACTION_GROUP (self->actions), name,
                                                g_variant_new_boolean (shown));
        }
    }
}

/* The context menu */

static GtkListItem *
list_item_of (GtkWidget *widget)
{
  GtkListItem *item = g_object_get_data (G_OBJECT (widget), "pgs-list-item");

  /* A cell: its child, the label or the expander around it. */
  for (GtkWidget *child = gtk_widget_get_first_child (widget); item == NULL && child != NULL;
       child = gtk_widget_get_first_child (child))
    item = g_object_get_data (G_OBJECT (child), "pgs-list-item");
  return item;
}

/* The position of the row shown at (@x, @y) of the list, GTK_INVALID_LIST_POSITION if none. */
static guint
row_at (PgsProcessList *self,
        double          x,
        double          y)
{
  GtkWidget *widget = gtk_widget_pick (GTK_WIDGET (self), x, y, GTK_PICK_DEFAULT);

  /* GTK 4.8 has no call for the row at a point: from the widget there up to its row. */
  for (; widget != NULL && widget != GTK_WIDGET (self->column_view);
       widget = gtk_widget_get_parent (widget))
    {
      GtkListItem *item = list_item_of (widget);

      for (GtkWidget *cell = gtk_widget_get_first_child (widget); item == NULL && cell != NULL;
           cell = gtk_widget_get_next_sibling (cell))
        item = list_item_of (cell);
      if (item != NULL)
        return gtk_list_item_get_position (item);
    }
  return GTK_INVALID_LIST_POSITION;
}


static void
update_menu (PgsProcessList *self)
{
  PgsProcess *process = _pgs_process_list_selected (self);
  const char *cmdline = process != NULL ? pgs_process_get_cmdline (process) : NULL;
  const char *pages = NULL;
  const char *copy_cmdline = NULL;
  const char *wss = self->wss_reason;

  /* A snapshot file has the pages it holds. A live list holds totals only: the pages are
   * read when shown, as the working set's clear_refs is written, by the owner, root or the
   * unlocked helper: the window's working-set reason says whether that is so. */
  if (process != NULL && self->snapshot != NULL && pgs_snapshot_get_file (self->snapshot) != NULL)
    {
      if (!pgs_process_has_pages (process))
        pages = _("The snapshot file holds no pages of this process");
    }
  else if (process != NULL && wss != NULL)
    pages = _("Its pages could not be read: that needs root, or Unlock");
  if (process != NULL && (cmdline == NULL || *cmdline == '\0'))
    copy_cmdline = _("It has no command line to copy (unreadable, or the process is exiting)");

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "list.show-pages",
                                 process != NULL && pages == NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "list.copy-pid", process != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "list.copy-cmdline",
                                 process != NULL && copy_cmdline == NULL);

  if (self->menu == NULL)
    return;
  pgs_process_menu_set_reason (self->menu, PGS_PROCESS_MENU_SHOW_PAGES, pages);
  pgs_process_menu_set_reason (self->menu, PGS_PROCESS_MENU_MEASURE_WSS, wss);
  pgs_process_menu_set_reason (self->menu, PGS_PROCESS_MENU_COPY_CMDLINE, copy_cmdline);
  pgs_process_menu_set_reason (self->menu, PGS_PROCESS_MENU_COMPARE,
                               self->snapshot == NULL
                               ? _("Nothing to compare yet: wait for the first scan")
                               : NULL);
}

/* The context menu is made when first shown, not before the window's first frame. Its
 * callers then bring it up to date (update_menu()). */
static void
ensure_menu (PgsProcessList *self)
{
  if (self->menu != NULL)
    return;
  self->menu = pgs_process_menu_new ();
  gtk_widget_set_parent (self->menu, GTK_WIDGET (self));
}

static void
popup_at (PgsProcessList *self,
          double          x,
          double          y)
{
  GdkRectangle rect = { (int) x, (int) y, 1, 1 };

  ensure_menu (self);
  update_menu (self);
  gtk_popover_set_pointing_to (GTK_POPOVER (self->menu), &rect);
  gtk_popover_popup (GTK_POPOVER (self->menu));
}

static void
on_right_click (GtkGestureClick *gesture,
                int              n_press,
                double           x,
                double           y,
                PgsProcessList  *self)
{
  GtkWidget *view = gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (gesture));
  graphene_point_t point;
  guint position;

  if (!gtk_widget_compute_point (view, GTK_WIDGET (self), &GRAPHENE_POINT_INIT (x, y), &point))
    return;
  position = row_at (self, point.x, point.y);
  if (position == GTK_INVALID_LIST_POSITION)
    return;
  gtk_single_selection_set_selected (self->selection, position);
  gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
  popup_at (self, point.x, point.y);
}

/* From the keyboard: under the row that has the focus, else at the top of the list. */
static void
context_menu_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  PgsProcessList *self = PGS_PROCESS_LIST (widget);
  GtkRoot *root = gtk_widget_get_root (widget);
  GtkWidget *focus = root != NULL ? gtk_root_get_focus (root) : NULL;
  graphene_rect_t bounds;

  if (_pgs_process_list_selected (self) == NULL)
    return;
  if (focus != NULL && gtk_widget_is_ancestor (focus, GTK_WIDGET (self->column_view)) &&
      gtk_widget_compute_bounds (focus, widget, &bounds))
    popup_at (self, bounds.origin.x + 24, bounds.origin.y + bounds.size.height);
  else
    popup_at (self, 24, gtk_widget_get_height (GTK_WIDGET (self->scroller)) / 4.0);
}

static void
copy_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  PgsProcess *process = _pgs_process_list_selected (PGS_PROCESS_LIST (widget));
  g_autofree char *text = NULL;

  if (process == NULL)
    return;
  if (g_str_equal (action_name, "list.copy-pid"))
    text = g_strdup_printf ("%d", pgs_process_get_pid (process));
  else
    text = g_strdup (pgs_process_get_display_cmdline (process));
  gdk_clipboard_set_text (gtk_widget_get_clipboard (widget), text);
}

void
_pgs_process_list_class_init_actions (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "list.copy-pid", NULL, copy_action);
  gtk_widget_class_install_action (widget_class, "list.copy-cmdline", NULL, copy_action);
  gtk_widget_class_install_action (widget_class, "list.context-menu", NULL, context_menu_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Menu, 0, "list.context-menu", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F10, GDK_SHIFT_MASK,
                                       "list.context-menu", NULL);
}

static GMenuModel *
view_menu_new (PgsProcessList *self,
               gboolean        file)
{
  GMenu *menu = g_menu_new ();
  g_autoptr(GMenu) which = g_menu_new ();
  g_autoptr(GMenu) tree = g_menu_new ();
  g_autoptr(GMenu) columns = g_menu_new ();

  g_menu_append (which, _("_My Processes"), "proc.show-processes::mine");
  g_menu_append (which, _("_All Processes"), "proc.show-processes::all");
  g_menu_append (tree, _("Show as _Tree"), "proc.tree");
  for (guint i = 0; i < G_N_ELEMENTS (optional_ids); i++)
    {
      g_autofree char *action = g_strconcat ("proc.column-", optional_ids[i], NULL);

      g_menu_append (columns, gtk_column_view_column_get_title (optional_column (self, i)), action);
    }
  /* A file shows every process it holds: whose they are is of the machine it came from. */
  g_menu_append_section (menu, file ? _("For the running system only") : NULL,
                         G_MENU_MODEL (which));
  g_menu_append_section (menu, NULL, G_MENU_MODEL (tree));
  g_menu_append_section (menu, _("Columns"), G_MENU_MODEL (columns));
  return G_MENU_MODEL (menu);
}

static void
set_view_menu (PgsProcessList *self)
{
  g_autoptr(GMenuModel) view_menu = view_menu_new (self, self->view_menu_file);

  gtk_menu_button_set_menu_model (self->view_button, view_menu);
}

/* A menu model makes GtkMenuButton build its popover at once: some twenty items, 20 M
 * instructions before the first frame. The first opening builds it instead. */
static void
create_view_menu (GtkMenuButton *button,
                  gpointer       user_data)
{
  gtk_menu_button_set_create_popup_func (button, NULL, NULL, NULL);
  set_view_menu (user_data);
}

void
_pgs_process_list_update_view_menu (PgsProcessList *self,
                                    gboolean        file)
{
  self->view_menu_file = file;
  if (gtk_menu_button_get_menu_model (self->view_button) != NULL)
    set_view_menu (self);
}

void
_pgs_process_list_init_actions (PgsProcessList *self)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = NULL;
  g_auto(GStrv) ids = NULL;
  GtkGesture *click;
  GSimpleAction *action;

  /* Without the schema installed (a library user, a test of the widget alone) the choices
   * live as long as the list. */
  if (source != NULL && (schema = g_settings_schema_source_lookup (source, APP_ID, TRUE)) != NULL)
    self->settings = g_settings_new (APP_ID);

  self->actions = g_simple_action_group_new ();
  action = g_simple_action_new_stateful ("show-processes", G_VARIANT_TYPE_STRING,
                                         g_variant_new_string (show_processes_setting (self)));
  g_signal_connect (action, "change-state", G_CALLBACK (change_show_processes), self);
  g_action_map_add_action (G_ACTION_MAP (self->actions), G_ACTION (action));
  g_object_unref (action);
  apply_show_processes (self, show_processes_setting (self));

  action = g_simple_action_new_stateful ("tree", NULL, g_variant_new_boolean (
                                         self->settings != NULL &&
                                         g_settings_get_boolean (self->settings, "process-tree")));
  g_signal_connect (action, "change-state", G_CALLBACK (change_tree), self);
  g_action_map_add_action (G_ACTION_MAP (self->actions), G_ACTION (action));
  g_object_unref (action);

  ids = self->settings != NULL
        ? g_settings_get_strv (self->settings, "process-columns")
        : g_strsplit ("vss rss pss uss swap", " ", -1);
  for (guint i = 0; i < G_N_ELEMENTS (optional_ids); i++)
    {
      const char *id = optional_ids[i];
      g_autofree char *name = g_strconcat ("column-", id, NULL);

      action = g_simple_action_new_stateful (name, NULL, g_variant_new_boolean (
                                             g_strv_contains ((const char * const *) ids, id)));
      g_signal_connect (action, "change-state", G_CALLBACK (change_column), self);
      g_action_map_add_action (G_ACTION_MAP (self->actions), G_ACTION (action));
      g_object_unref (action);
    }
  show_columns (self, (const char * const *) ids);
  gtk_widget_insert_action_group (GTK_WIDGET (self), "proc", G_ACTION_GROUP (self->actions));
  if (self->settings != NULL)
    g_signal_connect_object (self->settings, "changed", G_CALLBACK (on_settings_changed), self,
                             G_CONNECT_SWAPPED);

  gtk_menu_button_set_create_popup_func (self->view_button, create_view_menu, self, NULL);

  click = gtk_gesture_click_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (click), GDK_BUTTON_SECONDARY);
  g_signal_connect (click, "pressed", G_CALLBACK (on_right_click), self);
  gtk_widget_add_controller (GTK_WIDGET (self->column_view), GTK_EVENT_CONTROLLER (click));
  g_signal_connect_object (self->selection, "notify::selected-item", G_CALLBACK (update_menu),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect (self, "notify::snapshot", G_CALLBACK (update_menu), NULL);
  update_menu (self);
}

/* Public */

GActionGroup *
pgs_process_list_get_actions (PgsProcessList *self)
{
  g_return_val_if_fail (PGS_IS_PROCESS_LIST (self), NULL);
  return G_ACTION_GROUP (self->actions);
}

void
pgs_process_list_set_wss_reason (PgsProcessList *self,
                                 const char     *reason)
{
  g_return_if_fail (PGS_IS_PROCESS_LIST (self));

  if (g_strcmp0 (self->wss_reason, reason) == 0)
    return;
  g_free (self->wss_reason);
  self->wss_reason = g_strdup (reason);
  update_menu (self);
}

GtkWidget *
pgs_process_list_get_context_menu (PgsProcessList *self)
{
  g_return_val_if_fail (PGS_IS_PROCESS_LIST (self), NULL);
  ensure_menu (self);
  update_menu (self);
  return self->menu;
}

gboolean
pgs_process_list_is_expanded (PgsProcessList *self,
                              int             pid)
{
  g_return_val_if_fail (PGS_IS_PROCESS_LIST (self), FALSE);
  return pgs_process_tree_is_expanded (self->tree, pid);
}
