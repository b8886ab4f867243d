/* pgs-application.c
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "pgs-application.h"
#include "pgs-background.h"
#include "pgs-preferences-window.h"
#include "pgs-session.h"
#include "pgs-settings.h"
#include "pgs-window.h"

struct _PgsApplication
{
  AdwApplication  parent_instance;

  GSettings      *settings;
  char           *initial_view;
  int             initial_pid;
};

G_DEFINE_FINAL_TYPE (PgsApplication, pgs_application, ADW_TYPE_APPLICATION)

static const GOptionEntry options[] = {
  { "view", 0, 0, G_OPTION_ARG_STRING, NULL,
    N_("Open this view: processes, groups, libraries, residency, sharing, flags or access"), N_("VIEW") },
  { "pid", 'p', 0, G_OPTION_ARG_INT, NULL,
    N_("Select this process once the first scan is done"), N_("PID") },
  { "version", 0, 0, G_OPTION_ARG_NONE, NULL, N_("Print the version and exit"), NULL },
  { NULL }
};

static const char *const views[] = {
  "processes", "groups", "libraries", "residency", "sharing", "flags", "access", NULL
};

static int
pgs_application_handle_local_options (GApplication *application,
                                      GVariantDict *dict)
{
  PgsApplication *self = PGS_APPLICATION (application);
  const char *view = NULL;

  if (g_variant_dict_contains (dict, "version"))
    {
      g_print ("pagescope %s\n", PACKAGE_VERSION);
      return 0;
    }
  if (g_variant_dict_lookup (dict, "view", "&s", &view))
    {
      if (!g_strv_contains (views, view))
        {
          g_printerr (_("Unknown view “%s”: use processes, groups, libraries, residency, sharing, "
                        "flags or access\n"),
                      view);
          return 2;
        }
      g_free (self->initial_view);
      self->initial_view = g_strdup (view);
    }
  g_variant_dict_lookup (dict, "pid", "i", &self->initial_pid);
  return -1;
}

static void
quit_activated (GSimpleAction *action,
                GVariant      *parameter,
                gpointer       user_data)
{
  GtkApplication *app = user_data;
  GList *windows = gtk_application_get_windows (app);

  /* Close the windows first so each saves its size. */
  while (windows != NULL)
    {
      GList *next = windows->next;

      gtk_window_close (windows->data);
      windows = next;
    }
  /* A recording still being closed (its window's recorder stops as the window goes) holds
   * the application and marks it busy: the application ends when the file is whole, not
   * with its last sample cut (pgs-window-record.c). */
  if (!g_application_get_is_busy (G_APPLICATION (app)))
    g_application_quit (G_APPLICATION (app));
}

static void
about_activated (GSimpleAction *action,
                 GVariant      *parameter,
                 gpointer       user_data)
{
  GtkApplication *app = user_data;
  static const char *developers[] = { "The Pagescope developers", NULL };
  GtkWidget *about;

  about = g_object_new (ADW_TYPE_ABOUT_WINDOW,
                        "transient-for", gtk_application_get_active_window (app),
                        "modal", TRUE,
                        "application-name", _("Pagescope"),
                        "application-icon", APP_ID,
                        "version", PACKAGE_VERSION,
                        "developer-name", _("The Pagescope developers"),
                        "comments",
                        _("See how much memory each process really uses, and where, page by page"),
                        "website", "https://github.com/pagescope/pagescope",
                        "issue-url", "https://github.com/pagescope/pagescope/issues",
                        "copyright", "© 2026 The Pagescope developers",
                        "license-type", GTK_LICENSE_GPL_3_0,
                        "developers", developers,
                        /* Translators: your name(s), one per line */
                        "translator-credits", _("translator-credits"),
                        NULL);
  gtk_window_present (GTK_WINDOW (about));
}

static void
preferences_activated (GSimpleAction *action,
                       GVariant      *parameter,
                       gpointer       user_data)
{
  PgsApplication *self = user_data;
  GtkWidget *window = pgs_preferences_window_new (
    gtk_application_get_active_window (GTK_APPLICATION (self)), self->settings);

  gtk_window_present (GTK_WINDOW (window));
}

/* AdwStyleManager, not GtkSettings:gtk-application-prefer-dark-theme, which libadwaita
 * does not support. */
static void
on_color_scheme_changed (PgsApplication *self)
{
  g_autofree char *scheme = g_settings_get_string (self->settings, "color-scheme");
  AdwColorScheme color_scheme = ADW_COLOR_SCHEME_DEFAULT;

  if (g_str_equal (scheme, "light"))
    color_scheme = ADW_COLOR_SCHEME_FORCE_LIGHT;
  else if (g_str_equal (scheme, "dark"))
    color_scheme = ADW_COLOR_SCHEME_FORCE_DARK;
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), color_scheme);
}

static void
pgs_application_startup (GApplication *application)
{
  PgsApplication *self = PGS_APPLICATION (application);
  static const GActionEntry entries[] = {
    { "quit", quit_activated },
    { "about", about_activated },
    { "preferences", preferences_activated },
  };
  static const char *const setting_actions[] = { "refresh-interval", "units", "layout",
                                                   "hide-free", "show-detail" };
  static const struct {
    const char *action;
    const char *accels[4];
  } accels[] = {
    { "app.quit", { "<Control>q", NULL } },
    { "app.preferences", { "<Control>comma", NULL } },
    { "win.refresh", { "F5", "<Control>r", NULL } },
    { "win.record", { "<Control><Shift>r", NULL } },
    { "win.export", { "<Control>e", NULL } },
    { "win.export-csv", { "<Control><Shift>e", NULL } },
    { "win.find", { "<Control>f", NULL } },
    { "app.hide-free", { "<Control><Shift>h", NULL } },
    { "app.show-detail", { "F9", NULL } },
    { "win.measure-wss", { "<Control><Shift>w", NULL } },
    { "win.open-snapshot", { "<Control>o", NULL } },
    { "win.save-snapshot", { "<Control>s", NULL } },
    { "win.compare", { "<Control><Shift>o", NULL } },
    { "win.zoom-in", { "<Control>plus", "<Control>equal", "<Control>KP_Add", NULL } },
    { "win.zoom-out", { "<Control>minus", "<Control>KP_Subtract", NULL } },
    { "win.zoom-reset", { "<Control>0", "<Control>KP_0", NULL } },
    /* A recording: a sample earlier or later, a minute of samples at the default interval. */
    { "win.move-by(-1)", { "<Alt>Left", NULL } },
    { "win.move-by(1)", { "<Alt>Right", NULL } },
    { "win.move-by(-60)", { "<Shift><Alt>Left", NULL } },
    { "win.move-by(60)", { "<Shift><Alt>Right", NULL } },
    /* In the order of the view switcher's tabs. */
    { "win.view::processes", { "<Alt>1", NULL } },
    { "win.view::groups", { "<Alt>2", NULL } },
    { "win.view::libraries", { "<Alt>3", NULL } },
    { "win.view::residency", { "<Alt>4", NULL } },
    { "win.view::sharing", { "<Alt>5", NULL } },
    { "win.view::flags", { "<Alt>6", NULL } },
    { "win.view::access", { "<Alt>7", NULL } },
    { "proc.show-processes::mine", { "<Control><Shift>m", NULL } },
    { "proc.show-processes::all", { "<Control><Shift>a", NULL } },
    { "proc.tree", { "<Control>t", NULL } },
    { "window.close", { "<Control>w", NULL } },
    { "win.show-help-overlay", { "<Control>question", NULL } },
  };

  /* AdwApplication's startup runs adw_init() and loads style.css (and style-dark.css,
   * style-hc.css when present) from the resource base path. */
  G_APPLICATION_CLASS (pgs_application_parent_class)->startup (application);

  g_action_map_add_action_entries (G_ACTION_MAP (self), entries, G_N_ELEMENTS (entries), self);

  /* The settings the menu changes are actions made from the keys themselves, so the
   * menu's radio items and the stored value cannot disagree. */
  self->settings = g_object_ref (pgs_settings_get_default ());
  for (guint i = 0; i < G_N_ELEMENTS (setting_actions); i++)
    {
      g_autoptr(GAction) action = g_settings_create_action (self->settings, setting_actions[i]);

      g_action_map_add_action (G_ACTION_MAP (self), action);
    }

  g_signal_connect_object (self->settings, "changed::color-scheme",
                           G_CALLBACK (on_color_scheme_changed), self, G_CONNECT_SWAPPED);
  on_color_scheme_changed (self);

  for (guint i = 0; i < G_N_ELEMENTS (accels); i++)
    gtk_application_set_accels_for_action (GTK_APPLICATION (self), accels[i].action,
                                           accels[i].accels);
  /* The windows' icon (APP_ID) is set by the first window once it has painted its first
   * frame (pgs-window.c). */
}

static GtkWindow *
ensure_window (PgsApplication *self)
{
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (self));

  if (window == NULL)
    {
      window = GTK_WINDOW (pgs_window_new (self));
      if (self->initial_view != NULL)
        pgs_window_set_view (PGS_WINDOW (window), self->initial_view);
      if (self->initial_pid > 0)
        pgs_window_select_pid (PGS_WINDOW (window), self->initial_pid);
    }
  return window;
}

static void
pgs_application_activate (GApplication *application)
{
  gtk_window_present (ensure_window (PGS_APPLICATION (application)));
}

/* pagescope FILE opens a snapshot file; pagescope OLD NEW opens NEW and compares OLD with it. */
static void
pgs_application_open (GApplication  *application,
                      GFile        **files,
                      int            n_files,
                      const char    *hint)
{
  GtkWindow *window = ensure_window (PGS_APPLICATION (application));

  if (n_files >= 2)
    pgs_window_open_file (PGS_WINDOW (window), files[n_files - 1], files[0]);
  else if (n_files == 1)
    pgs_window_open_file (PGS_WINDOW (window), files[0], NULL);
  gtk_window_present (window);
}

static void
pgs_application_dispose (GObject *object)
{
  PgsApplication *self = (PgsApplication *) object;

  g_clear_object (&self->settings);

  G_OBJECT_CLASS (pgs_application_parent_class)->dispose (object);
}

static void
pgs_application_finalize (GObject *object)
{
  PgsApplication *self = (PgsApplication *) object;

  g_free (self->initial_view);

  G_OBJECT_CLASS (pgs_application_parent_class)->finalize (object);
}

static void
pgs_application_class_init (PgsApplicationClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  /* Before the app's first GTask: also where main() is not ours (the ui tests). */
  pgs_background_init ();

  object_class->dispose = pgs_application_dispose;
  object_class->finalize = pgs_application_finalize;

  app_class->startup = pgs_application_startup;
  app_class->activate = pgs_application_activate;
  app_class->open = pgs_application_open;
  app_class->handle_local_options = pgs_application_handle_local_options;
}

static void
pgs_application_init (PgsApplication *self)
{
  g_application_add_main_option_entries (G_APPLICATION (self), options);
}

PgsApplication *
pgs_application_new (void)
{
  return g_object_new (PGS_TYPE_APPLICATION,
                       "application-id", APP_ID,
                       "flags", G_APPLICATION_HANDLES_OPEN,
                       "resource-base-path", "/io/github/pagescope/Pagescope",
                       NULL);
}

GSettings *
pgs_application_get_settings (PgsApplication *self)
{
  g_return_val_if_fail (PGS_IS_APPLICATION (self), NULL);
  return self->settings;
}
