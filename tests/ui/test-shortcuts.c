/* test-shortcuts.c: the keyboard shortcuts window, built when asked and complete
 *
 * Copyright 2026 The Pagescope developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The window is built on Ctrl+? (not, as GtkApplication would, for every window before its
 * first frame), once per window, and lists every accelerator the application sets: an
 * accelerator added to the application and not to ui/help-overlay.ui fails here.
 */

#include "config.h"

#include "pgs-ui-util.h"

static PgsApplication *app;
static PgsWindow *window;

/* Every accelerator of a GtkShortcutsShortcut under @widget, in gtk_accelerator_name()'s
 * spelling, into @names. */
static void
collect_shown (GtkWidget  *widget,
               GHashTable *names)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      if (GTK_IS_SHORTCUTS_SHORTCUT (child))
        {
          g_autofree char *accelerator = NULL;
          g_auto(GStrv) each = NULL;

          g_object_get (child, "accelerator", &accelerator, NULL);
          each = g_strsplit (accelerator != NULL ? accelerator : "", " ", -1);
          for (guint i = 0; each[i] != NULL; i++)
            {
              guint key;
              GdkModifierType mods;

              if (each[i][0] != '\0' && gtk_accelerator_parse (each[i], &key, &mods))
                g_hash_table_add (names, gtk_accelerator_name (key, mods));
            }
        }
      collect_shown (child, names);
    }
}

static void
test_lazy (void)
{
  GtkWindow *shortcuts;

  g_assert_null (pgs_ui_find_toplevel (GTK_TYPE_SHORTCUTS_WINDOW, FALSE));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.show-help-overlay", NULL));
  shortcuts = pgs_ui_find_toplevel (GTK_TYPE_SHORTCUTS_WINDOW, FALSE);
  g_assert_nonnull (shortcuts);
  g_assert_true (gtk_window_get_transient_for (shortcuts) == GTK_WINDOW (window));
  gtk_test_widget_wait_for_draw (GTK_WIDGET (shortcuts));

  /* Asked again: the same window. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.show-help-overlay", NULL));
  g_assert_true (pgs_ui_find_toplevel (GTK_TYPE_SHORTCUTS_WINDOW, FALSE) == shortcuts);

  /* Closed and asked again: a new one. */
  gtk_window_destroy (shortcuts);
  g_assert_null (pgs_ui_find_toplevel (GTK_TYPE_SHORTCUTS_WINDOW, FALSE));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.show-help-overlay", NULL));
  g_assert_nonnull (pgs_ui_find_toplevel (GTK_TYPE_SHORTCUTS_WINDOW, FALSE));
}

static void
test_complete (void)
{
  g_autoptr(GHashTable) shown = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_auto(GStrv) actions = gtk_application_list_action_descriptions (GTK_APPLICATION (app));
  GtkWindow *shortcuts;
  guint missing = 0, checked = 0;

  if (pgs_ui_find_toplevel (GTK_TYPE_SHORTCUTS_WINDOW, FALSE) == NULL)
    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.show-help-overlay", NULL));
  shortcuts = pgs_ui_find_toplevel (GTK_TYPE_SHORTCUTS_WINDOW, FALSE);
  g_assert_nonnull (shortcuts);
  collect_shown (GTK_WIDGET (shortcuts), shown);
  g_assert_cmpuint (g_hash_table_size (shown), >, 20);

  /* Each action by at least one of its accelerators: Ctrl+= beside Ctrl++, the keypad's
   * beside the main keys, are the same shortcut. */
  for (guint i = 0; actions[i] != NULL; i++)
    {
      g_auto(GStrv) accels = gtk_application_get_accels_for_action (GTK_APPLICATION (app), actions[i]);
      gboolean found = FALSE;

      for (guint j = 0; accels[j] != NULL; j++)
        {
          guint key;
          GdkModifierType mods;
          g_autofree char *name = NULL;

          g_assert_true (gtk_accelerator_parse (accels[j], &key, &mods));
          name = gtk_accelerator_name (key, mods);
          found |= g_hash_table_contains (shown, name);
        }
      if (accels[0] == NULL)
        continue;
      checked++;
      if (!found)
        {
          g_test_message ("%s (%s) is not in the shortcuts window", accels[0], actions[i]);
          missing++;
        }
    }
  g_test_message ("%u actions with accelerators, %u accelerators shown", checked, g_hash_table_size (shown));
  g_assert_cmpuint (checked, >, 30);
  g_assert_cmpuint (missing, ==, 0);
}

int
main (int    argc,
      char **argv)
{
  int status;

  pgs_ui_init (&argc, &argv);
  window = pgs_ui_open_window (&app);
  pgs_ui_wait_idle_scan (window);
  g_test_add_func ("/ui/shortcuts/lazy", test_lazy);
  g_test_add_func ("/ui/shortcuts/complete", test_complete);
  status = g_test_run ();
  gtk_window_destroy (GTK_WINDOW (window));
  g_object_unref (app);
  return status;
}
