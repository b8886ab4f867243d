/* pgs-process-menu.h: the context menu of a process in the list
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

typedef enum
{
  PGS_PROCESS_MENU_SHOW_PAGES,
  PGS_PROCESS_MENU_MEASURE_WSS,
  PGS_PROCESS_MENU_COPY_PID,
  PGS_PROCESS_MENU_COPY_CMDLINE,
  PGS_PROCESS_MENU_COMPARE,
  PGS_PROCESS_MENU_N_ITEMS
} PgsProcessMenuItem;

/* A popover of buttons, one an item, each bound to its action (list.show-pages,
 * win.measure-wss, list.copy-pid, list.copy-cmdline, win.compare): an item whose action is
 * disabled is greyed out and says why under its title. Closes when an item is used. */
GtkWidget   *pgs_process_menu_new        (void);
/* Why @item cannot be used now, shown under its title; NULL when it can. */
void         pgs_process_menu_set_reason (GtkWidget          *menu,
                                          PgsProcessMenuItem  item,
                                          const char         *reason);
GtkWidget   *pgs_process_menu_get_button (GtkWidget          *menu,
                                          PgsProcessMenuItem  item);
const char  *pgs_process_menu_get_reason (GtkWidget          *menu,
                                          PgsProcessMenuItem  item);

G_END_DECLS
