/* main.c: pagescope, the desktop application
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <locale.h>

#include <glib/gi18n.h>

#include "pgs-application.h"
#include "pgs-background.h"

int
main (int   argc,
      char *argv[])
{
  g_autoptr(PgsApplication) app = NULL;

  pgs_background_init ();
  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  g_set_application_name (_("Pagescope"));
  app = pgs_application_new ();
  return g_application_run (G_APPLICATION (app), argc, argv);
}
