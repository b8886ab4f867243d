/* pgs-process-menu.c
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * GtkPopoverMenu (GTK 4.8) cannot say why an item is greyed out: this popover is a column of
 * flat buttons, each with its title and, when its action is disabled, a dimmed line saying
 * what would enable it ("Measure Working Set — a snapshot file is shown…"). The buttons
 * carry the action names, so GTK keeps their sensitivity in step with the actions.
 */

#include "config.h"

#include <glib/gi18n.h>

#include "pgs-process-menu.h"
#include "pgs-tooltip.h"

static const struct
{
  const char *title;
  const char *action;
} items[PGS_PROCESS_MENU_N_ITEMS] = {
  [PGS_PROCESS_MENU_SHOW_PAGES] = { N_("Show _Pages"), "list.show-pages" },
  [PGS_PROCESS_MENU_MEASURE_WSS] = { N_("_Measure Working Set…"), "win.measure-wss" },
  [PGS_PROCESS_MENU_COPY_PID] = { N_("Copy P_ID"), "list.copy-pid" },
  [PGS_PROCESS_MENU_COPY_CMDLINE] = { N_("Copy _Command Line"), "list.copy-cmdline" },
  [PGS_PROCESS_MENU_COMPARE] = { N_("C_ompare with Snapshot…"), "win.compare" },
};

static void
on_clicked (GtkWidget *menu)
{
  gtk_popover_popdown (GTK_POPOVER (menu));
}

GtkWidget *
pgs_process_menu_new (void)
{
  GtkWidget *menu = gtk_popover_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);

  gtk_popover_set_has_arrow (GTK_POPOVER (menu), FALSE);
  gtk_widget_add_css_class (menu, "menu");
  gtk_widget_set_halign (menu, GTK_ALIGN_START);
  gtk_popover_set_child (GTK_POPOVER (menu), box);

  for (guint i = 0; i < PGS_PROCESS_MENU_N_ITEMS; i++)
    {
      GtkWidget *button = gtk_button_new ();
      GtkWidget *lines = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
      GtkWidget *title = gtk_label_new_with_mnemonic (_(items[i].title));
      GtkWidget *reason = gtk_label_new (NULL);

      gtk_label_set_xalign (GTK_LABEL (title), 0);
      gtk_label_set_xalign (GTK_LABEL (reason), 0);
      gtk_label_set_wrap (GTK_LABEL (reason), TRUE);
      gtk_label_set_max_width_chars (GTK_LABEL (reason), 42);
      gtk_widget_add_css_class (reason, "dim-label");
      gtk_widget_add_css_class (reason, "caption");
      gtk_widget_set_visible (reason, FALSE);
      gtk_box_append (GTK_BOX (lines), title);
      gtk_box_append (GTK_BOX (lines), reason);
      gtk_button_set_child (GTK_BUTTON (button), lines);
      gtk_widget_add_css_class (button, "flat");
      gtk_actionable_set_action_name (GTK_ACTIONABLE (button), items[i].action);
      gtk_accessible_update_relation (GTK_ACCESSIBLE (button),
                                      GTK_ACCESSIBLE_RELATION_LABELLED_BY, title, NULL,
                                      GTK_ACCESSIBLE_RELATION_DESCRIBED_BY, reason, NULL,
                                      -1);
      g_signal_connect_swapped (button, "clicked", G_CALLBACK (on_clicked), menu);
      g_object_set_data (G_OBJECT (button), "reason-label", reason);
      g_object_set_data (G_OBJECT (menu), items[i].action, button);
      gtk_box_append (GTK_BOX (box), button);
    }
  return menu;
}

GtkWidget *
pgs_process_menu_get_button (GtkWidget          *menu,
                             PgsProcessMenuItem  item)
{
  g_return_val_if_fail (item < PGS_PROCESS_MENU_N_ITEMS, NULL);
  return g_object_get_data (G_OBJECT (menu), items[item].action);
}

void
pgs_process_menu_set_reason (GtkWidget          *menu,
                             PgsProcessMenuItem  item,
                             const char         *reason)
{
  GtkWidget *button = pgs_process_menu_get_button (menu, item);
  GtkWidget *label = g_object_get_data (G_OBJECT (button), "reason-label");

  gtk_label_set_text (GTK_LABEL (label), reason != NULL ? reason : "");
  gtk_widget_set_visible (label, reason != NULL);
  pgs_set_tooltip_text (button, reason);
}

const char *
pgs_process_menu_get_reason (GtkWidget          *menu,
                             PgsProcessMenuItem  item)
{
  GtkWidget *button = pgs_process_menu_get_button (menu, item);
  GtkWidget *label = g_object_get_data (G_OBJECT (button), "reason-label");

  return gtk_widget_get_visible (label) ? gtk_label_get_text (GTK_LABEL (label)) : NULL;
}
