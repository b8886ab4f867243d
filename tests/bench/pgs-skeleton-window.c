/* pgs-skeleton-window.c: the app's window chrome and one table, in GTK alone
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The second yardstick of bench-app-cost.py, beside the minimal window: what GTK 4.8 and
 * libadwaita charge for the widgets the app's first frame is made of, with none of the
 * app's code. An AdwApplicationWindow whose header bar holds a stack switcher of seven
 * titled pages and five icon buttons, as the app's does, over a GtkColumnView
 * of nine columns (the Processes table's visible ones) with --rows rows of GtkLabels
 * (default 0: the app's first frame shows its table empty; the scan's figures come a frame
 * later). With --rows 200 it holds as many rows of widgets as GTK 4.8's list views keep
 * around the view (GTK_LIST_VIEW_MAX_LIST_ITEMS): one full table's memory.
 *
 * Like pgs-minimal-window, it logs its first painted frame (pgs-first-frame.h) and stays
 * until it is killed.
 */

#include <adwaita.h>

#include "pgs-first-frame.h"

static int n_rows;

static void
setup_cell (GtkSignalListItemFactory *factory,
            GtkListItem              *item)
{
  gtk_list_item_set_child (item, gtk_label_new (NULL));
}

static void
bind_cell (GtkSignalListItemFactory *factory,
           GtkListItem              *item)
{
  gtk_label_set_text (GTK_LABEL (gtk_list_item_get_child (item)),
                      gtk_string_object_get_string (gtk_list_item_get_item (item)));
}

static GtkWidget *
table_new (void)
{
  static const char *const titles[] = { "PID", "User", "Name", "VSS", "RSS", "PSS", "USS",
                                        "Swap", "Growth" };
  GtkStringList *rows = gtk_string_list_new (NULL);
  GtkWidget *view, *scrolled;

  for (int r = 0; r < n_rows; r++)
    {
      char text[32];

      /* A figure as the table shows them, different in every row. */
      g_snprintf (text, sizeof text, "%d.%d MiB", 1000 - r, r % 10);
      gtk_string_list_append (rows, text);
    }
  view = gtk_column_view_new (GTK_SELECTION_MODEL (gtk_single_selection_new (G_LIST_MODEL (rows))));
  for (guint c = 0; c < G_N_ELEMENTS (titles); c++)
    {
      GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
      GtkColumnViewColumn *column;

      g_signal_connect (factory, "setup", G_CALLBACK (setup_cell), NULL);
      g_signal_connect (factory, "bind", G_CALLBACK (bind_cell), NULL);
      column = gtk_column_view_column_new (titles[c], factory);
      gtk_column_view_column_set_expand (column, c == 2);
      gtk_column_view_append_column (GTK_COLUMN_VIEW (view), column);
      g_object_unref (column);
    }
  scrolled = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), view);
  gtk_widget_set_vexpand (scrolled, TRUE);
  return scrolled;
}

static void
activate (GtkApplication *app)
{
  static const char *const titles[] = { "Processes", "Groups", "Libraries", "Pages", "Sharing",
                                        "Page Flags", "Access" };
  static const char *const end_icons[] = { "open-menu-symbolic", "dialog-information-symbolic",
                                            "document-save-as-symbolic", "media-record-symbolic" };
  GtkWidget *window = adw_application_window_new (app);
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *header = adw_header_bar_new ();
  GtkWidget *stack = gtk_stack_new ();
  GtkWidget *switcher = gtk_stack_switcher_new ();

  for (guint i = 0; i < G_N_ELEMENTS (titles); i++)
    gtk_stack_add_titled (GTK_STACK (stack), i == 0 ? table_new () : gtk_label_new (titles[i]),
                          titles[i], titles[i]);
  gtk_stack_switcher_set_stack (GTK_STACK_SWITCHER (switcher), GTK_STACK (stack));
  adw_header_bar_set_title_widget (ADW_HEADER_BAR (header), switcher);
  adw_header_bar_pack_start (ADW_HEADER_BAR (header),
                             gtk_button_new_from_icon_name ("view-refresh-symbolic"));
  for (guint i = 0; i < G_N_ELEMENTS (end_icons); i++)
    adw_header_bar_pack_end (ADW_HEADER_BAR (header), gtk_button_new_from_icon_name (end_icons[i]));
  gtk_box_append (GTK_BOX (box), header);
  gtk_box_append (GTK_BOX (box), stack);

  gtk_window_set_title (GTK_WINDOW (window), "Skeleton");
  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 720);
  adw_application_window_set_content (ADW_APPLICATION_WINDOW (window), box);
  pgs_first_frame_log (window);
  gtk_window_present (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(AdwApplication) app = adw_application_new ("io.github.pagescope.SkeletonWindow",
                                                       G_APPLICATION_NON_UNIQUE);
  GOptionEntry entries[] = {
    { "rows", 0, 0, G_OPTION_ARG_INT, &n_rows, "Rows of the table (default 0)", "N" },
    { NULL }
  };

  g_application_add_main_option_entries (G_APPLICATION (app), entries);
  g_signal_connect (app, "activate", G_CALLBACK (activate), NULL);
  return g_application_run (G_APPLICATION (app), argc, argv);
}
