/* pgs-timeline-export.c: the timeline's context menu, and its picture or figures exported
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The strip as drawn (timeline.export-png) or its figures (timeline.export-csv), after a
 * file chooser; the window hears how it went from PgsTimeline::export-finished.
 */

#include "config.h"

#include <glib/gi18n.h>

#include "pgs-export-chooser.h"
#include "pgs-file-name.h"
#include "pgs-timeline-private.h"

enum {
  EXPORT_FINISHED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

gboolean
pgs_timeline_write_png (PgsTimeline  *self,
                        const char   *path,
                        GError      **error)
{
  int width = gtk_widget_get_width (GTK_WIDGET (self));
  PgsTimelineScene scene;

  g_return_val_if_fail (PGS_IS_TIMELINE (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  if (self->recording == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("No recording is shown"));
      return FALSE;
    }
  /* As on screen, or a default size before it was; whole, with its legend and axes. */
  if (width <= 0)
    width = 1200;
  _pgs_timeline_fill_scene (self, &scene, width, PGS_TIMELINE_STRIP_HEIGHT);
  scene.compact = FALSE;
  return pgs_timeline_scene_write_png (&scene, path, error);
}

gboolean
pgs_timeline_write_csv (PgsTimeline  *self,
                        const char   *path,
                        GError      **error)
{
  g_autofree char *text = NULL;

  g_return_val_if_fail (PGS_IS_TIMELINE (self), FALSE);
  if (self->data != NULL)
    text = pgs_timeline_data_to_csv (self->data, self->pid != 0 ? self->process_name : NULL);
  else
    g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("No figures are read yet"));
  return text != NULL && g_file_set_contents (path, text, -1, error);
}

static void
export_to (PgsTimeline *self,
           GFile       *file)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = g_file_get_path (file);

  if (path == NULL)
    g_set_error_literal (&error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                         _("The timeline can only be exported to local files"));
  else if (self->csv)
    pgs_timeline_write_csv (self, path, &error);
  else
    pgs_timeline_write_png (self, path, &error);
  g_signal_emit (self, signals[EXPORT_FINISHED], 0, file, error);
}

static void
on_chooser_response (GtkNativeDialog *chooser,
                     int              response,
                     PgsTimeline     *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));

      if (file != NULL)
        export_to (self, file);
    }
}

/* timeline.export-png and timeline.export-csv. */
static void
export_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  PgsTimeline *self = PGS_TIMELINE (widget);
  gboolean csv = g_str_equal (action_name, "timeline.export-csv");
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();
  g_autofree char *name = pgs_file_name_suggest ("memory-timeline", 0, now, csv ? "csv" : "png");

  if (self->recording == NULL)
    return;
  if (self->chooser != NULL)
    gtk_native_dialog_destroy (self->chooser);
  g_clear_object (&self->chooser);
  /* In the folder of the last export (the window keeps it on PgsTimeline::export-finished). */
  self->csv = csv;
  self->chooser = pgs_export_chooser_new (widget, csv ? _("Export Timeline as CSV") : _("Export Timeline as PNG"),
                                          name, csv ? "text/csv" : "image/png",
                                          self->session != NULL
                                          ? pgs_session_get_settings (self->session) : NULL);
  g_signal_connect (self->chooser, "response", G_CALLBACK (on_chooser_response), self);
  gtk_native_dialog_show (self->chooser);
}

/* After the item's action has run: it is activated as the menu closes. */
static gboolean
drop_menu (gpointer data)
{
  PgsTimeline *self = data;

  self->drop_menu_source = 0;
  g_clear_pointer (&self->menu, gtk_widget_unparent);
  return G_SOURCE_REMOVE;
}

static void
on_menu_closed (PgsTimeline *self)
{
  if (self->drop_menu_source == 0)
    self->drop_menu_source = g_idle_add (drop_menu, self);
}

static void
popup_menu (PgsTimeline *self,
            double       x,
            double       y)
{
  /* Made when asked for and dropped once closed: a GtkPopoverMenu follows the state of
   * every action it can reach, and the window changes some at each refresh (ui-memory
   * grew by 12-20 MB in 4 of 12 runs with one always there, in none without). */
  if (self->menu == NULL)
    {
      g_autoptr(GMenu) model = g_menu_new ();

      g_menu_append (model, _("Export Timeline as _PNG…"), "timeline.export-png");
      g_menu_append (model, _("Export Figures as _CSV…"), "timeline.export-csv");
      self->menu = gtk_popover_menu_new_from_model (G_MENU_MODEL (model));
      gtk_popover_set_has_arrow (GTK_POPOVER (self->menu), FALSE);
      gtk_widget_set_halign (self->menu, GTK_ALIGN_START);
      gtk_widget_set_parent (self->menu, GTK_WIDGET (self));
      g_signal_connect_object (self->menu, "closed", G_CALLBACK (on_menu_closed), self,
                               G_CONNECT_SWAPPED);
    }
  gtk_popover_set_pointing_to (GTK_POPOVER (self->menu), &(GdkRectangle) { (int) x, (int) y, 1, 1 });
  gtk_popover_popup (GTK_POPOVER (self->menu));
}

static void
on_secondary_pressed (PgsTimeline *self,
                      int          n_press,
                      double       x,
                      double       y)
{
  popup_menu (self, x, y);
}

static void
menu_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  popup_menu (PGS_TIMELINE (widget), gtk_widget_get_width (widget) / 2.0,
              gtk_widget_get_height (widget) / 2.0);
}

static void
pgs_timeline_size_allocate (GtkWidget *widget,
                            int        width,
                            int        height,
                            int        baseline)
{
  PgsTimeline *self = PGS_TIMELINE (widget);

  if (self->menu != NULL)
    gtk_popover_present (GTK_POPOVER (self->menu));
}

void
_pgs_timeline_class_init_export (GtkWidgetClass *widget_class)
{
  widget_class->size_allocate = pgs_timeline_size_allocate;

  /* PgsTimeline::export-finished (file, error): timeline.export-png wrote @file, or could
   * not (@error): the window says which in a toast. */
  signals[EXPORT_FINISHED] =
    g_signal_new ("export-finished", G_TYPE_FROM_CLASS (widget_class), G_SIGNAL_RUN_LAST, 0, NULL,
                  NULL, NULL, G_TYPE_NONE, 2, G_TYPE_FILE, G_TYPE_ERROR);

  gtk_widget_class_install_action (widget_class, "timeline.export-png", NULL, export_action);
  gtk_widget_class_install_action (widget_class, "timeline.export-csv", NULL, export_action);
  gtk_widget_class_install_action (widget_class, "timeline.menu", NULL, menu_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F10, GDK_SHIFT_MASK, "timeline.menu", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Menu, 0, "timeline.menu", NULL);
}

void
_pgs_timeline_init_export (PgsTimeline *self)
{
  GtkGesture *secondary = gtk_gesture_click_new ();

  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (secondary), GDK_BUTTON_SECONDARY);
  g_signal_connect_swapped (secondary, "pressed", G_CALLBACK (on_secondary_pressed), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (secondary));
}
